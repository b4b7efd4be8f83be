"""Execution-oracle driver: the Python half of the sandbox, for both runtimes.

The code under test runs in this interpreter, so no verdict may be decided
where that code can reach. Who decides:

- Pyodide: the worker's JavaScript (pyodide_worker.ts). It calls
  ``install()`` once, before any snippet, keeps the objects it returns, and
  runs each phase (the snippet, the setup, each test) itself through
  Pyodide's C API: no Python frame of the harness is on the stack under a
  test, and a test passed exactly when ``PyEval_EvalCode`` returned.
- Native: ``_native_main()`` builds the worker as one lazy chain of C
  iterators (``map``) over small functions. Under untrusted code the Python
  frames on the stack are the module's own (its namespace emptied) and
  ``run_phase``'s, which hold one phase's code object and namespace and
  nothing else; the functions that record outcomes, check the worker and
  seal each message with the parent's key run only between phases, and no
  frame or object on the stack under a snippet refers to them. The parent
  (native_slots.ts) takes only sealed lines.

After every job both runtimes check that it left the interpreter as it
found it (``end_job``; Pyodide also watches every module's and class's
namespace from JavaScript, native checks the module namespaces after every
batch). A job that did not, or that tried what only tampering needs (gc
introspection, trace, profile or audit hooks, signal handlers, the
JavaScript bridge, rewriting functions' code), gets ``ERROR:Tamper`` on every
test, and its worker runs no other job. The audit hook is one layer of this,
not the wall. It also refuses process spawning, sockets, ctypes, writes to
files and reads outside the standard library: a second line behind the
worker's permissions (Pyodide) or its rlimits and network namespace (native).

Every function here that runs after ``install()`` takes what it uses from
its own default arguments, never from module globals or builtins (which a
snippet may rebind); none calls a method of an object a snippet made, or a
standard-library function written in Python (a snippet may rebind what it
uses); and none that holds the harness's state or key runs while snippet
code can (no finalizer, gc callback or signal handler of a snippet's).
"""

import builtins
import gc
import io
import os
import sys
import time
import types

# Modules snippets commonly import: loading them here keeps them in the
# Pyodide memory snapshot and out of the timed phases.
import bisect  # noqa: F401
import collections  # noqa: F401
import copy  # noqa: F401
import datetime  # noqa: F401
import decimal
import fractions  # noqa: F401
import functools  # noqa: F401
import heapq  # noqa: F401
import itertools  # noqa: F401
import json  # noqa: F401
import math  # noqa: F401
import operator  # noqa: F401
import random  # noqa: F401
import re  # noqa: F401
import statistics  # noqa: F401
import string  # noqa: F401
import typing  # noqa: F401
import warnings  # noqa: F401

RECURSION_LIMIT = 1000
RECURSION_CAP = 5000
TAMPER = "ERROR:Tamper"

# Sandbox: refused with PermissionError; the test gets that error.
SANDBOX_EVENTS = frozenset(
    """os.system os.exec os.posix_spawn os.spawn os.fork os.forkpty os.kill os.killpg
    os.remove os.rename os.rmdir os.mkdir os.chmod os.chown os.truncate os.symlink
    os.link os.utime os.putenv os.unsetenv os.chdir os.chflags os.lchflags
    os.setxattr os.removexattr subprocess.Popen pty.spawn _thread.start_new_thread
    resource.setrlimit resource.prlimit mmap.__new__ signal.pthread_kill
    webbrowser.open shutil.rmtree shutil.copyfile shutil.move
    urllib.Request http.client.connect ftplib.connect smtplib.connect poplib.connect
    imaplib.open telnetlib.Telnet.open nntplib.connect glob.glob
    sqlite3.connect""".split()
)
SANDBOX_PREFIXES = ("socket.", "ctypes.", "_ctypes.", "winreg.", "msvcrt.")
SANDBOX_IMPORTS = frozenset(
    """ctypes _ctypes socket _socket subprocess _posixsubprocess multiprocessing
    _multiprocessing pty mmap micropip""".split()
)
# Tampering: only code reaching for the harness does these. Refused, and the
# job's outcome says so (ERROR:Tamper) even if the snippet catches the
# refusal. `execret.tamper` comes from the stand-ins installed for
# signal.signal and the like.
TAMPER_EVENTS = frozenset(
    """gc.get_objects gc.get_referrers gc.get_referents gc.freeze sys._current_frames
    sys._current_exceptions sys.settrace sys.setprofile sys.addaudithook
    sys.monitoring.register_callback sys.remote_exec cpython.remote_debugger_script
    execret.tamper""".split()
)
# The JavaScript bridge; CPython's profiling and test modules (C-level hooks
# into the interpreter); subinterpreters. Any `_test*` module too.
TAMPER_IMPORTS = frozenset(
    """js pyodide pyodide_js _pyodide _pyodide_core _lsprof _remote_debugging
    _xxtestfuzz xxsubtype _xxsubinterpreters _interpreters _interpqueues
    _interpchannels""".split()
)
# Gc events of the harness's own (its survivor check, the bridge test), allowed while it runs.
_HARNESS_GC = frozenset(("gc.get_objects", "gc.get_referents", "gc.freeze"))
# Events with nothing to check: returned from first, they are most calls.
_PASS_EVENTS = frozenset(
    """exec compile object.__getattr__ sys._getframe sys._getframemodulename builtins.id
    marshal.loads marshal.dumps code.__new__ function.__new__ time.sleep
    builtins.input builtins.input/result os.listxattr""".split()
)
_FUNCTION_STATE = frozenset(("__code__", "__defaults__", "__kwdefaults__"))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
# Module-namespace keys whose changes are no job's doing: the streams
# cleanup() sets for every job, and the registry `warnings` keeps in a
# module it warns for.
VOLATILE_KEYS = frozenset(("stdout", "stderr", "stdin", "__warningregistry__"))


def _is_blocked(name):
    top = name.partition(".")[0]
    return top in SANDBOX_IMPORTS or top in TAMPER_IMPORTS or top.startswith("_test")


def _preload():
    """Every builtin and extension module, and the few Python modules whose
    import changes modules already loaded (`importlib` renames the frozen
    bootstrap; `logging` registers fork hooks), now: what an honest snippet's
    import would otherwise change or leave behind is there before any job.
    And after install() `_imp.create_builtin` is refused, and with it any
    fresh copy of a module the harness patched (`_signal`, `gc`, `posix`)."""
    import importlib.machinery

    names = set(sys.builtin_module_names)
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for folder in sys.path:
        if folder.endswith("lib-dynload"):
            try:
                entries = os.listdir(folder)
            except OSError:
                continue
            names.update(e.partition(".")[0] for e in entries if e.endswith(suffixes))
    # readline would take over the terminal.
    names.discard("readline")
    for name in sorted(names) + [
        "importlib.util", "importlib.abc", "logging", "doctest", "sqlite3", "plistlib", "pstats",
    ]:
        if name not in sys.modules and not _is_blocked(name):
            try:
                __import__(name)
            except ImportError:
                pass


_preload()
_ABSENT = object()


def _self_written():
    """Per module now loaded, the globals its own code assigns or deletes at
    run time (`global` statements: caches, lazy imports, zipimport's
    reentrancy flag). A job may change them through the standard library;
    cleanup() puts them back after it, and only a change to another key of a
    module's namespace counts against the job."""
    import dis

    ops = {dis.opmap[n] for n in ("STORE_GLOBAL", "DELETE_GLOBAL")}
    found = []
    for mod in list(sys.modules.values()):
        if type(mod) is not types.ModuleType:
            continue
        d = mod.__dict__
        keys = set()
        seen = set()
        todo = list(d.values())
        while todo:
            v = todo.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            if type(v) is types.FunctionType and v.__globals__ is d:
                todo.append(v.__code__)
            elif type(v) is types.CodeType:
                if any(op in v.co_code for op in ops):
                    for ins in dis.get_instructions(v):
                        if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                            keys.add(ins.argval)
                todo.extend(c for c in v.co_consts if type(c) is types.CodeType)
            elif isinstance(v, type) and getattr(v, "__module__", None) == d.get("__name__"):
                todo.extend(vars(v).values())
            elif isinstance(v, (staticmethod, classmethod)):
                todo.append(v.__func__)
            elif isinstance(v, property):
                todo.extend((v.fget, v.fset, v.fdel))
        for k in sorted(keys):
            found.append((d, k))
    return tuple(found)


_SELF_WRITTEN = _self_written()


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


# --- Native CPython -----------------------------------------------------------


def native_limits(mem_bytes):
    """This process's rlimits: memory, no new processes, no file growth, no core dumps."""
    import resource
    import signal

    limits = (
        (resource.RLIMIT_AS, mem_bytes),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_FSIZE, 0),
        (resource.RLIMIT_CORE, 0),
    )
    for which, value in limits:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
    # A write past RLIMIT_FSIZE should fail with an error, not kill the worker.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


# A native job's phases in its records: the load, tests by index, the cleanup.
_LOAD, _CLEANUP = -1, -3
# Code objects kept: tests repeat across a task's mutants, and the exec
# reranker runs each pool snippet against several queries' tests; compiling
# is about half of a short suite. Code objects cannot be changed, and every
# job runs in a fresh namespace.
TEST_CACHE_ENTRIES = 20000
SNIPPET_CACHE_CHARS = 2_000_000
# How often, at least, a native worker flushes what it has written.
FLUSH_S = 0.02


def _native_main():
    """Build the worker: one lazy chain of C iterators, which the module's
    last statement drains. Reads the parent's key (the first line on stdin),
    hardens the interpreter, empties this module's namespace, and returns
    the chain. Under untrusted code the only harness frames are the module's
    (empty) and `run_phase`'s; `record`, `finish` and `emit_batch`, which
    hold the key, run between phases, and nothing under a snippet refers to
    them.

    Messages, each line `<json>\\t<HMAC-SHA256 of the json, hex>`:
    `{"ready": version}`; per job `{"id", "r": [[outcome, ms], ...]}`; in a
    careful batch, after each phase `{"id", "next", "o", "ms"}`; per batch
    `{"batch": "done"}`, `{"batch": "retire"}` after a job that tampered
    (the jobs after it were not started; the worker exits), or
    `{"batch": "rerun", "ids": [...]}` when a module changed and no job of
    the batch is known to have done it (each runs again alone; the worker
    exits). The parent holds a batch's results until its `batch` line.
    """
    import _json
    import signal
    from itertools import repeat

    try:
        from _hashlib import hmac_digest
    except ImportError:  # a Python built without OpenSSL
        from hmac import digest as hmac_digest

    inp = sys.stdin.buffer
    # C parser and encoder: json's Python layer is a snippet's to rebind.
    scan = _json.make_scanner(json.JSONDecoder())
    key = bytes.fromhex(scan(inp.readline().decode(), 0)[0]["key"])
    timeout_s = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    mem_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
    # The protocol uses a private copy of stdout; fd 1 then points to
    # /dev/null so that a snippet's prints cannot corrupt it (and what a
    # snippet writes to the copy has no key).
    proto = os.fdopen(os.dup(1), "w", buffering=1 << 16)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    native_limits(mem_bytes)
    real_exit = os._exit
    here = globals()
    fired = [False]

    def on_alarm(_sig, frame, *, _fired=fired, _here=here, _Timeout=Timeout):
        _fired[0] = True
        # Raising inside the harness's own code would lose the phase; the
        # flag alone marks it TIMEOUT there.
        if frame is None or frame.f_globals is not _here:
            raise _Timeout()

    # Installed once: after install() nothing can replace it.
    signal.signal(signal.SIGALRM, on_alarm)
    harness = install(pyodide=False)
    state = harness["state"]
    end_job = harness["end_job"]
    module_dicts = harness["module_dicts"]
    # Filled in once this module's own namespace is emptied, below.
    saved_dicts = []
    skips = tuple(
        VOLATILE_KEYS | frozenset(k for (dd, k) in harness["self_written"] if dd is d)
        for d in module_dicts
    )
    encode = _json.make_encoder(None, None, _json.encode_basestring_ascii, None, ": ", ", ",
                                False, False, True)
    flushed = [time.perf_counter()]

    def seal(message, flush=False, *, _encode=encode, _join=str.join, _hmac=hmac_digest,
             _key=key, _enc=str.encode, _hex=bytes.hex, _write=proto.write, _flush=proto.flush,
             _perf=time.perf_counter, _flushed=flushed, _every=FLUSH_S):
        text = _join("", _encode(message, 0))
        _write(text + "\t" + _hex(_hmac(_key, _enc(text), "sha256")) + "\n")
        now = _perf()
        if flush or now - _flushed[0] >= _every:
            _flush()
            _flushed[0] = now

    def run_phase(item, *, _exec=exec, _setitimer=signal.setitimer, _REAL=signal.ITIMER_REAL,
                  _t=timeout_s, _fired=fired, _perf=time.perf_counter, _AE=AssertionError,
                  _BE=BaseException, _name=error_name, _type=type, _str=str,
                  _Code=types.CodeType, _cleanup=harness["cleanup"],
                  _restore=harness["restore_self_written"], _LOAD=_LOAD, _CLEANUP=_CLEANUP):
        """One phase of a job, and the only harness frame under untrusted
        code: `item` is (index, code, ns, st), st = [the load's failure or
        None, stopped at a TIMEOUT]; returns (index, outcome or None, ms). A
        snippet can reach all of it, and none of it makes a pass: st only
        stops tests, and the outcome is this frame's return value."""
        index = item[0]
        code = item[1]
        ns = item[2]
        st = item[3]
        if index == _CLEANUP:
            # Under the timer too: the snippet's finalizers run here.
            _setitimer(_REAL, _t, 0.05)
            try:
                _cleanup(ns)
                _restore()
            finally:
                _setitimer(_REAL, 0)
            return (index, None, 0.0)
        if index != _LOAD:
            if st[1] is True:
                return (index, "NOT_RUN", 0.0)
            failed = st[0]
            if _type(failed) is _str and failed != "pass":
                # setup or code itself failed: every test shares that outcome.
                return (index, failed, 0.0)
        _fired[0] = False
        # Re-fire every 50 ms so that a bare `except:` that swallows one
        # alarm gets another.
        _setitimer(_REAL, _t, 0.05)
        t0 = _perf()
        try:
            if index == _LOAD:
                # The setup is test-side code (MBPP's test_setup_code,
                # HumanEval's test imports): as in those harnesses it runs
                # after the code, and may build fixtures from classes the
                # code defines (MBPP 367, 927). Either may not have compiled.
                for part in code:
                    if _type(part) is _Code:
                        _exec(part, ns)
                    elif part is not None:
                        return (index, part, (_perf() - t0) * 1000.0)
            elif _type(code) is _Code:
                _exec(code, ns)
            else:
                # The test does not compile: its outcome is compiling's.
                return (index, code, 0.0)
        except _AE:
            return (index, "TIMEOUT" if _fired[0] else "FAIL", (_perf() - t0) * 1000.0)
        except _BE as e:
            return (index, "TIMEOUT" if _fired[0] else _name(e), (_perf() - t0) * 1000.0)
        finally:
            _setitimer(_REAL, 0)
        return (index, "TIMEOUT" if _fired[0] else None, (_perf() - t0) * 1000.0)

    tests_cache = {}
    snippets_cache = {}
    snippet_chars = [0]

    def job_phases(job, bst, *, _compile=compile, _builtins=builtins, _tests=tests_cache,
                   _snippets=snippets_cache, _chars=snippet_chars, _limit=SNIPPET_CACHE_CHARS,
                   _entries=TEST_CACHE_ENTRIES, _len=len, _map=map, _range=range,
                   _BE=BaseException, _name=error_name, _seal=seal, _run=run_phase,
                   _LOAD=_LOAD, _CLEANUP=_CLEANUP):
        """A job's phases, compiled, as a lazy chain of (index, outcome, ms)
        records; none once the batch has stopped. Runs before the job's
        first phase; the caches it keeps are out of every snippet's reach."""
        if bst[0]:
            return ()
        jid, setup, source, tests, start, stop, careful = job

        def compiled(src, name, cache):
            """The code object, or the outcome of compiling it (not the
            exception, whose traceback would hold this frame)."""
            code = cache.get(src)
            if code is None:
                try:
                    code = _compile(src, name, "exec")
                except _BE as e:
                    # Does not compile: compiled (and failing) again next time.
                    return _name(e)
                cache[src] = code
            return code

        if _len(_tests) > _entries:
            _tests.clear()
        if source not in _snippets:
            if _chars[0] + _len(source) > _limit:
                _snippets.clear()
                _chars[0] = 0
            _chars[0] += _len(source)
        load = (compiled(source, "<snippet>", _snippets),
                compiled(setup, "<setup>", _tests) if setup else None)
        ns = {"__name__": "__main__", "__builtins__": _builtins}
        st = [None, False]
        n = _len(tests)
        items = [(_LOAD, load, ns, st)]
        for i in _range(start, n):
            items.append((i, compiled(tests[i], "<test>", _tests), ns, st))
        items.append((_CLEANUP, None, ns, st))

        def record(res, *, _st=st, _jid=jid, _n=n, _start=start, _stop=stop, _careful=careful,
                   _LOAD=_LOAD, _CLEANUP=_CLEANUP):
            index, outcome, ms = res
            if index == _CLEANUP:
                return res
            # -3, after the last test: the cleanup, where the snippet's
            # finalizers run; a death there is charged to the job.
            if index == _LOAD:
                if outcome is not None:
                    _st[0] = outcome
                nxt = _start if _start < _n else -3
            else:
                if _stop and outcome == "TIMEOUT":
                    _st[1] = True
                nxt = index + 1 if index + 1 < _n else -3
                if outcome is None:
                    outcome = "pass"
            if _careful:
                _seal({"id": _jid, "next": nxt, "o": outcome, "ms": ms}, True)
            return res

        return _map(record, _map(_run, items))

    def finish(job, records, bst, *, _st=state, _end=end_job, _seal=seal, _TAMPER=TAMPER):
        """A job's outcomes, checked and sent: every one ERROR:Tamper when it
        tried what only tampering needs or left the interpreter changed."""
        jid = job[0]
        if not records:
            return (jid, None)
        outcomes = [[o or "pass", ms] for (i, o, ms) in records if i >= 0]
        tampered = _st[0] != 0 or _end() != 0
        if tampered:
            outcomes = [[_TAMPER, ms] for (_o, ms) in outcomes]
            bst[0] = True
        _seal({"id": jid, "r": outcomes})
        return (jid, tampered)

    def emit_batch(results, *, _seal=seal, _dicts=module_dicts, _saved=saved_dicts, _skips=skips,
                   _same=_same_items, _zip=zip, _exit=real_exit, _len=len):
        started = [r for r in results if r[1] is not None]
        for _jid, tampered in started:
            if tampered:
                _seal({"batch": "retire"}, True)
                _exit(0)
        for d, saved, skip in _zip(_dicts, _saved, _skips):
            if not _same(d, saved, skip):
                if _len(started) == 1:
                    # Run alone, after batches that all ended clean: its own doing.
                    _seal({"id": started[0][0], "tamper": True})
                    _seal({"batch": "retire"}, True)
                else:
                    _seal({"batch": "rerun", "ids": [jid for (jid, _t) in started]}, True)
                _exit(0)
        _seal({"batch": "done"}, True)

    def parse(line, *, _scan=scan, _decode=bytes.decode, _tuple=tuple):
        batch = _scan(_decode(line), 0)[0]
        careful = batch.get("careful", False)
        return _tuple(
            (j["id"], j["setup"], j["code"], _tuple(j["tests"]), j["start"], j.get("stop", False),
             careful)
            for j in batch["jobs"]
        )

    def batch_results(jobs, *, _map=map, _tuple=tuple, _repeat=repeat, _phases=job_phases,
                      _finish=finish):
        bst = [False]
        return _map(_finish, jobs, _map(_tuple, _map(_phases, jobs, _repeat(bst))), _repeat(bst))

    version = sys.version.split()[0]
    freeze = gc.freeze
    # Nothing of the harness stays in the module namespace: the module's
    # frame is at the bottom of every snippet's stack. (No global is read
    # from here on.)
    here.clear()
    saved_dicts.extend(tuple(d.items()) for d in module_dicts)
    # The harness's own objects are not a job's survivors.
    state[1] = 1
    freeze()
    state[1] = 0
    seal({"ready": version}, True)
    return map(emit_batch, map(tuple, map(batch_results, map(parse, iter(inp.readline, b"")))))


if __name__ == "__main__" and sys.platform != "emscripten":
    from collections import deque as _drain

    _drain(_native_main(), 0)
