# Oracle driver, preload: modules loaded before any job, globals they write.
# Part of the one program driver_source.ts joins (see driver.py).

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

