# Oracle driver, harness: error names, namespace checks, install().
# Part of the one program driver_source.ts joins (see driver.py).

def error_name(e, *, _type=type, _name=type.__dict__["__name__"].__get__, _str=str,
               _isid=str.isidentifier):
    """`ERROR:<type name>`: the type's own name (no metaclass can say
    another), `Exception` when it is not an identifier. The Pyodide worker
    computes the same in JavaScript (PyType_GetName, PyUnicode_IsIdentifier)."""
    name = _name(_type(e))
    if _type(name) is not _str or not _isid(name):
        name = "Exception"
    return "ERROR:" + name[:60]


def _same_items(d, saved, skip=VOLATILE_KEYS, *, _len=len, _type=type, _str=str, _zip=zip,
                _frozenset=frozenset, _absent=_ABSENT):
    """Whether dict `d` holds the pairs `saved` (its items then), the same
    objects, keys in `skip` aside. By identity; when the order differs it
    looks keys up, but only once every key is an exact `str`, so that no
    key a snippet made can answer a comparison."""
    if _len(d) == _len(saved):
        for (k, v), (k0, v0) in _zip(d.items(), saved):
            if k is not k0 or (v is not v0 and k0 not in skip):
                break
        else:
            return True
    for k in d:
        if _type(k) is not _str:
            return False
    present = 0
    for k, v0 in saved:
        v = d.get(k, _absent)
        if v is not _absent:
            present += 1
        if v is not v0 and k not in skip:
            return False
    if _len(d) != present:
        keys = _frozenset(k for k, _v in saved)
        for k in d:
            if k not in keys and k not in skip:
                return False
    return True


def install(pyodide=False):
    """Harden this interpreter once, before any snippet; return the harness.

    A dict: `state` (bytearray: [0] set when a tampering attempt was refused,
    [1] while the harness's own gc scan runs), `cleanup(ns)` (ends a job:
    namespace cleared, its imports dropped, what a snippet may change
    honestly put back, garbage collected; every finalizer of the snippet's
    runs there, in a frame holding nothing of the harness's), `end_job()`
    (0 when the job left the interpreter as it found it, else bits; it only
    reads), the pristine `compile`, exception types, `module_dicts` (every
    module namespace now) and `heap_types` (every class that can change).
    """
    state = bytearray(2)
    if pyodide:
        _scrub_javascript()
    real_set_limit = _patch_process()
    modules = sys.modules
    saved_builtins = tuple(builtins.__dict__.items())
    saved_modules = tuple(modules.items())
    module_dicts = tuple(m.__dict__ for m in modules.values() if type(m) is types.ModuleType)
    live = {id(d) for d in module_dicts}
    self_written = tuple(
        (d, k, d.get(k, _ABSENT)) for (d, k) in _SELF_WRITTEN if id(d) in live
    )
    null = _Null()

    def restore_self_written(*, _written=self_written, _absent=_ABSENT, _get=dict.get,
                             _pop=dict.pop):
        """The standard library's own runtime globals, back as they were."""
        for d, k, v in _written:
            if _get(d, k, _absent) is not v:
                if v is _absent:
                    _pop(d, k, None)
                else:
                    d[k] = v

    def cleanup(
        ns,
        *,
        _sys=sys,
        _modules=modules,
        _preloaded=frozenset(k for k, _ in saved_modules),
        _null=null,
        _StringIO=io.StringIO,
        _set_limit=real_set_limit,
        _limit=RECURSION_LIMIT,
        _set_digits=sys.set_int_max_str_digits,
        _digits=sys.get_int_max_str_digits(),
        _Context=decimal.Context,
        _setcontext=decimal.setcontext,
        _collect=gc.collect,
        _tuple=tuple,
        _pop=dict.pop,
        _clear=dict.clear,
        _scan=not pyodide,
    ):
        if ns is not None:
            _clear(ns)
        _sys.stdout = _sys.stderr = _null
        _sys.stdin = _StringIO("")
        _set_limit(_limit)
        _set_digits(_digits)
        _setcontext(_Context())
        # Modules the job imported go, so that no job sees another's. (The
        # Pyodide worker watches the module table and drops them itself.)
        if _scan:
            for k in _tuple(k for k in _modules if k not in _preloaded):
                _pop(_modules, k, None)
        _collect()

    def end_job(
        *,
        _st=state,
        _builtins=builtins.__dict__,
        _saved_builtins=saved_builtins,
        _modules=modules,
        _saved_modules=saved_modules,
        _same=_same_items,
        _sys=sys,
        _gc=gc,
        _null_type=_Null,
        _len=len,
        _type=type,
        # What runs code (cells and frames only hold values: a function they
        # hold is found in its own right).
        _code_types=(types.FunctionType, types.MethodType, type, types.GeneratorType,
                     types.CoroutineType, types.AsyncGeneratorType),
        _issubclass=issubclass,
        _compare=not pyodide,
    ):
        """What the job left behind, as bits: 1 builtins or the module table
        changed, 2 code of its own outlived it in shared state, 4 interpreter
        hooks or gc settings changed. Only reads and compares by identity:
        no snippet code runs here. (The Pyodide worker watches builtins and
        the module table as they change, and skips their comparison here.)"""
        bad = 0
        if _compare and (not _same(_builtins, _saved_builtins)
                         or not _same(_modules, _saved_modules)):
            bad |= 1
        if (_sys.gettrace() is not None or _sys.getprofile() is not None
                or _gc.isenabled() or _gc.get_debug() != 0
                or _len(_gc.callbacks) != 0 or _len(_gc.garbage) != 0
                or _null_type.__dict__.get("write") is not _len):
            bad |= 4
        # Objects made during the job and alive after cleanup() collected
        # its garbage: one that can run code is held by shared state.
        _st[1] = 1
        try:
            for o in _gc.get_objects():
                if _issubclass(_type(o), _code_types):
                    bad |= 2
                    break
            _gc.freeze()
        finally:
            _st[1] = 0
        return bad

    cleanup(None)
    hook = _make_hook(state, _readable_roots(), frozenset(map(id, module_dicts)))
    result = {
        "state": state,
        "cleanup": cleanup,
        "end_job": end_job,
        "compile": builtins.compile,
        "builtins": builtins,
        "AssertionError": AssertionError,
        "KeyboardInterrupt": KeyboardInterrupt,
        "module_dicts": module_dicts,
        "heap_types": _heap_types(),
        "sys_dict": sys.__dict__,
        "modules": modules,
        "str": str,
        "self_written": tuple((d, k) for (d, k, _v) in self_written),
        "restore_self_written": restore_self_written,
    }
    # From here on, whatever survives a job was made by it.
    gc.collect()
    gc.disable()
    gc.freeze()
    sys.addaudithook(hook)
    return result


