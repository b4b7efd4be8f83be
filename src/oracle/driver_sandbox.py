# Oracle driver, sandbox: the audit hook; the patched process, signal, gc calls.
# Part of the one program driver_source.ts joins (see driver.py).

class Timeout(BaseException):
    """Raised by the native runtime's timer; never seen by snippets' `except Exception`."""


# A stdout that swallows everything, with no Python method to rebind: its
# `write` is the builtin `len`, which returns the count as write() must.
_Null = type("_Null", (io.TextIOBase,), {"write": len, "__slots__": ()})


def _readable_roots():
    roots = []
    for p in sys.path:
        if p and "python" in p and p not in roots:
            roots.append(p.rstrip("/") + "/")
    return tuple(roots)


def _make_normpath():
    """os.path.normpath for absolute paths, from C string methods only
    (posixpath's own is Python in 3.11, and a snippet may rebind what it calls)."""

    def normpath(path, *, _split=str.split, _join=str.join, _startswith=str.startswith,
                 _append=list.append, _pop=list.pop):
        if not _startswith(path, "/"):
            return path
        parts = []
        for p in _split(path, "/"):
            if p == "" or p == ".":
                continue
            if p == "..":
                if parts:
                    _pop(parts)
                continue
            _append(parts, p)
        return "/" + _join("/", parts)

    return normpath


def _make_hook(state, roots, before):
    """The audit hook: refuses what the sandbox forbids; sets state[0] on a
    tampering attempt. state[1] is set while the harness's gc scan runs.
    `before`: the ids of every module namespace there at install."""

    def hook(
        event,
        args,
        *,
        _st=state,
        _pass=_PASS_EVENTS,
        _tamper=TAMPER_EVENTS,
        _harness_gc=_HARNESS_GC,
        _sandbox=SANDBOX_EVENTS,
        _prefixes=SANDBOX_PREFIXES,
        _sandbox_imports=SANDBOX_IMPORTS,
        _tamper_imports=TAMPER_IMPORTS,
        _fstate=_FUNCTION_STATE,
        _roots=roots,
        _write=_WRITE_FLAGS,
        _normpath=_make_normpath(),
        _str=str,
        _int=int,
        _type=type,
        _startswith=str.startswith,
        _partition=str.partition,
        _contains=str.__contains__,
        _FT=types.FunctionType,
        _MT=types.ModuleType,
        _module_dict=types.ModuleType.__dict__["__dict__"].__get__,
        _before=before,
        _id=id,
        _issubclass=issubclass,
        _E=PermissionError,
    ):
        # The event name is always an exact str (sys.audit copies it). Every
        # argument's type is checked exactly before use: a snippet may pass
        # its own str or int subclass.
        if event in _pass:
            return
        if event in _tamper:
            if _st[1] and event in _harness_gc:
                return
            _st[0] = 1
            raise _E("sandbox: " + event + " is not allowed")
        if event in _sandbox or _startswith(event, _prefixes):
            raise _E("sandbox: " + event + " is not allowed")
        if event == "open":
            path = args[0]
            mode = args[1]
            flags = args[2]
            if _type(path) is not _str:
                raise _E("sandbox: open of a descriptor or bytes path is not allowed")
            if mode is not None:
                if _type(mode) is not _str or _contains(mode, "w") or _contains(mode, "a") \
                        or _contains(mode, "x") or _contains(mode, "+"):
                    raise _E("sandbox: open for writing is not allowed")
            elif _type(flags) is not _int or flags & _write:
                raise _E("sandbox: open for writing is not allowed")
            if not _startswith(_normpath(path) + "/", _roots):
                raise _E("sandbox: open outside the standard library is not allowed")
        elif event == "os.listdir" or event == "os.scandir":
            # The import system lists stdlib folders; nothing else may be listed.
            path = args[0]
            if _type(path) is not _str or not _startswith(_normpath(path) + "/", _roots):
                raise _E("sandbox: " + event + " is not allowed")
        elif event == "import":
            name = args[0]
            if _type(name) is not _str:
                raise _E("sandbox: import of a non-str name is not allowed")
            top = _partition(name, ".")[0]
            if top in _tamper_imports or _startswith(top, "_test"):
                _st[0] = 1
                raise _E("sandbox: import " + top + " is not allowed")
            if top in _sandbox_imports:
                raise _E("sandbox: import " + top + " is not allowed")
        elif event == "object.__setattr__":
            # Rewriting a function or module that was there before the job
            # (the harness's, the standard library's): the next job would
            # run it. A module being imported sets its own (dis, namedtuple).
            obj = args[0]
            name = args[1]
            if _type(name) is _str and (
                (_type(obj) is _FT and name in _fstate and _id(obj.__globals__) in _before)
                or (name == "__class__" and _issubclass(_type(obj), _MT)
                    and _id(_module_dict(obj)) in _before)
            ):
                _st[0] = 1
                raise _E("sandbox: setting " + name + " is not allowed")

    return hook


def _refused(what):
    """A stand-in for a function only tampering needs: reports the attempt
    through the audit hook (which refuses it), whatever the snippet catches."""

    def refused(*_args, _what=what, _audit=sys.audit, _E=PermissionError, **_kwargs):
        _audit("execret.tamper", _what)
        raise _E("sandbox: " + _what + " is not allowed")

    return refused


def _sandboxed(what):
    def refused(*_args, _msg="sandbox: " + what + " is not allowed", _E=PermissionError,
                **_kwargs):
        raise _E(_msg)

    return refused


def _exit_refused(*_args, _E=SystemExit, **_kwargs):
    raise _E("os._exit")


def _guarded_import(real_import):
    """Refuses sandboxed modules even when already loaded (Pyodide's asyncio
    loads subprocess and socket). Holding the real import hands out nothing:
    every module it could load unrefused is loadable anyway."""

    def guarded(name, globals=None, locals=None, fromlist=(), level=0, *, _real=real_import,
                _str=str, _type=type, _partition=str.partition, _blocked=SANDBOX_IMPORTS,
                _E=PermissionError):
        if level == 0 and _type(name) is _str and _partition(name, ".")[0] in _blocked:
            raise _E("sandbox: import " + name + " is not allowed")
        return _real(name, globals, locals, fromlist, level)

    return guarded


def _capped(setter, cap):
    """sys.setrecursionlimit, at most `cap` (a snippet can still reach the
    original through this closure and crash its own worker, nothing more)."""

    def set_recursion_limit(n, *, _set=setter, _cap=cap, _int=int, _min=min):
        _set(_min(_int(n), _cap))

    return set_recursion_limit


def _heap_types():
    """Every class that exists now and can be changed (heap types)."""
    seen = set()
    todo = [object]
    while todo:
        for s in type.__subclasses__(todo.pop()):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return tuple(t for t in seen if t.__flags__ & (1 << 9))


def _scrub_javascript():
    """Pyodide: leave no route from Python to JavaScript. The harness never
    calls Pyodide's Python API again, so its modules go, emptied, and so
    does the import hook that serves `js` and `pyodide_js`."""
    bridge = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core")

    def of_bridge(obj):
        owner = obj if isinstance(obj, type) else type(obj)
        name = getattr(obj, "__module__", None) or getattr(owner, "__module__", "")
        return str(name).partition(".")[0] in bridge

    # Pyodide's own finders (the one serving `js`, the one explaining
    # unvendored modules) live in the modules about to be emptied.
    for hooks in (sys.meta_path, sys.path_hooks):
        for finder in list(hooks):
            if of_bridge(finder):
                proxies = getattr(finder, "jsproxies", None)
                if isinstance(proxies, dict):
                    proxies.clear()
                hooks.remove(finder)
    for path, finder in list(sys.path_importer_cache.items()):
        if finder is not None and of_bridge(finder):
            del sys.path_importer_cache[path]
    # What Pyodide put into the standard library: its event loop (asyncio's
    # policy, running loop and run, time.sleep), json's marker for
    # JavaScript's null.
    webloop = sys.modules.get("pyodide.webloop")
    if webloop is not None:
        time.sleep = webloop._orig_sleep
        import asyncio

        asyncio.run = webloop._orig_run
    import asyncio.events
    import json.encoder

    asyncio.events._event_loop_policy = None
    asyncio.events._set_running_loop(None)
    json.encoder._JSNULL = None
    for name in list(sys.modules):
        if name.partition(".")[0] in bridge:
            mod = sys.modules.pop(name)
            d = getattr(mod, "__dict__", None)
            if type(d) is dict:
                d.clear()


def _patch_process():
    """Refuse what only tampering or escaping needs; cap the recursion limit.
    Returns the real sys.setrecursionlimit."""
    import _imp
    import _signal
    import _thread
    import signal
    import threading

    real_set_limit = sys.setrecursionlimit
    builtins.__import__ = _guarded_import(builtins.__import__)
    os._exit = _exit_refused
    try:
        import posix

        posix._exit = _exit_refused
    except ImportError:
        pass
    sys.setrecursionlimit = _capped(real_set_limit, RECURSION_CAP)
    # Threads would outlive their job (native) or fail differently (Pyodide).
    refuse_threads = _sandboxed("threads")
    for mod in (_thread, threading):
        for name in ("start_new_thread", "start_joinable_thread", "start_new",
                     "_start_new_thread", "_start_joinable_thread"):
            if hasattr(mod, name):
                setattr(mod, name, refuse_threads)
    # A Python signal handler would run snippet code in whatever the
    # interpreter was doing, harness code included, and get its frame.
    for mod in (_signal, signal):
        mod.signal = _refused("signal.signal")
    # Every builtin module is loaded: no fresh copy may undo a patch above.
    _imp.create_builtin = _refused("_imp.create_builtin")
    _imp.exec_builtin = _refused("_imp.exec_builtin")
    # Automatic collection would run a snippet's finalizers inside harness code.
    gc.enable = _refused("gc.enable")
    gc.set_debug = _refused("gc.set_debug")
    return real_set_limit

