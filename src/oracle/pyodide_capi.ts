/**
 * The Pyodide worker's hands on the interpreter: CPython's C API, called
 * straight from JavaScript through Pyodide's Emscripten exports. A test runs
 * as `PyEval_EvalCode` called from here, so no Python frame of the harness
 * is on the stack under it, and whether it passed is whether that call
 * returned: nothing in the interpreter can write that answer. Watchers (C
 * callbacks into this file) see every change to a module's or a class's
 * namespace as it happens.
 *
 * Everything here is captured when the worker starts, before any snippet
 * runs; the snippet cannot reach JavaScript at all (driver.py's `install`
 * removes every bridge), so these are belt and braces, not the wall.
 */

/** The parts of Pyodide's Emscripten module this file uses. */
// deno-lint-ignore no-explicit-any
type Emscripten = Record<string, any>;

/** A PyObject pointer (a strong reference unless said otherwise). */
export type Ptr = number;

/** What a phase did: passed, failed an assertion, raised (the exception's type name). */
export type Verdict =
  | { kind: "pass" }
  | { kind: "fail" }
  | { kind: "interrupted" }
  | { kind: "error"; name: string };

/** The harness objects `install()` (driver.py) returned, as strong pointers. */
export interface Harness {
  compile: Ptr;
  builtins: Ptr;
  assertionError: Ptr;
  keyboardInterrupt: Ptr;
  cleanup: Ptr;
  restoreSelfWritten: Ptr;
  endJob: Ptr;
  /** Address of `state` (bytearray): [0] a tampering attempt was refused. */
  stateAddr: number;
}

/** Names of things JavaScript builds Python objects from, made once. */
interface Strings {
  name: Ptr;
  main: Ptr;
  builtins: Ptr;
  exec: Ptr;
  files: Record<"snippet" | "setup" | "test", Ptr>;
  /** C strings (addresses). */
  surrogatepass: number;
  warnings: number;
  streams: number[];
}

const PyDict_EVENT_ADDED = 0, PyDict_EVENT_MODIFIED = 1, PyDict_EVENT_DELETED = 2;

/**
 * The C API calls the worker makes, bound to one Pyodide instance.
 * `touched` is set by the watchers whenever a watched namespace changes in
 * a way no job may change it; the worker clears it before each job.
 */
export class CApi {
  readonly #m: Emscripten;
  readonly #s: Strings;
  readonly #args: number;
  /** Set when a watched namespace changed (see `watch`). */
  touched = false;
  /** Set when the standard library changed one of its own runtime globals (see `watch`). */
  selfWrote = false;
  /** Modules the job imported (keys it added to the module table), to drop after it. */
  readonly addedModules = new Set<string>();
  #modules: Ptr = 0;

  constructor(module: Emscripten) {
    const m = module;
    this.#m = m;
    const str = (text: string): Ptr => {
      const p = m.stringToNewUTF8(text);
      const o = m._PyUnicode_FromString(p);
      m._free(p);
      return o;
    };
    this.#s = {
      name: str("__name__"),
      main: str("__main__"),
      builtins: str("__builtins__"),
      exec: str("exec"),
      files: { snippet: str("<snippet>"), setup: str("<setup>"), test: str("<test>") },
      surrogatepass: m.stringToNewUTF8("surrogatepass"),
      warnings: m.stringToNewUTF8("__warningregistry__"),
      streams: ["stdout", "stderr", "stdin"].map((s) => m.stringToNewUTF8(s)),
    };
    // Room for a vectorcall's three arguments, reused by every compile.
    this.#args = m._malloc(12);
  }

  /** A pointer's strong reference, from a PyProxy (which is then destroyed). */
  take(proxy: { destroy(): void }): Ptr {
    const ptr = this.#m.PyProxy_getPtr(proxy);
    this.#m._Py_IncRef(ptr);
    proxy.destroy();
    return ptr;
  }

  /** Drop a strong reference. */
  drop(ptr: Ptr): void {
    if (ptr) this.#m._Py_DecRef(ptr);
  }

  /** The address of a bytearray's bytes. */
  bytesOf(bytearray: Ptr): number {
    return this.#m._PyByteArray_AsString(bytearray);
  }

  /** A fresh job namespace: `{"__name__": "__main__", "__builtins__": builtins}`. */
  namespace(builtins: Ptr): Ptr {
    const m = this.#m;
    const ns = m._PyDict_New();
    m._PyDict_SetItem(ns, this.#s.name, this.#s.main);
    m._PyDict_SetItem(ns, this.#s.builtins, builtins);
    return ns;
  }

  /**
   * `compile(source, "<file>", "exec")` with the pristine builtin: a code
   * object, or the verdict of compiling (a SyntaxError and the like).
   */
  compile(compileFn: Ptr, source: string, file: keyof Strings["files"]): Ptr | Verdict {
    const m = this.#m;
    const bytes = m.lengthBytesUTF8(source);
    const buf = m._malloc(bytes + 1);
    m.stringToUTF8(source, buf, bytes + 1);
    // As json.loads gave the old driver: lone surrogates stay code points.
    const src = m._PyUnicode_DecodeUTF8(buf, bytes, this.#s.surrogatepass);
    m._free(buf);
    if (!src) return this.#raised();
    const at = this.#args >> 2;
    m.HEAPU32[at] = src;
    m.HEAPU32[at + 1] = this.#s.files[file];
    m.HEAPU32[at + 2] = this.#s.exec;
    const code = m._PyObject_Vectorcall(compileFn, this.#args, 3, 0);
    m._Py_DecRef(src);
    return code ? code : this.#raised();
  }

  /** Run a code object in a namespace: `exec(code, ns)`, as a verdict. */
  run(code: Ptr, ns: Ptr, h: Harness): Verdict {
    const m = this.#m;
    const result = m._PyEval_EvalCode(code, ns, ns);
    if (result) {
      m._Py_DecRef(result);
      return { kind: "pass" };
    }
    return this.#raised(h);
  }

  /** Call a harness function; its result as an int, or null when it raised. */
  call(fn: Ptr, arg?: Ptr): number | null {
    const m = this.#m;
    const result = arg === undefined ? m._PyObject_CallNoArgs(fn) : m._PyObject_CallOneArg(fn, arg);
    if (!result) {
      m._Py_DecRef(m._PyErr_GetRaisedException());
      return null;
    }
    const n = m._PyLong_AsLong(result);
    m._Py_DecRef(result);
    if (m._PyErr_Occurred()) {
      m._PyErr_Clear();
      return 0;
    }
    return n;
  }

  /** The exception now raised, as a verdict (and cleared). */
  #raised(h?: Harness): Verdict {
    const m = this.#m;
    const exc = m._PyErr_GetRaisedException();
    if (!exc) return { kind: "error", name: "SystemError" };
    try {
      if (h && m._PyErr_GivenExceptionMatches(exc, h.assertionError)) return { kind: "fail" };
      if (h && m._PyErr_GivenExceptionMatches(exc, h.keyboardInterrupt)) {
        return { kind: "interrupted" };
      }
      return { kind: "error", name: this.#typeName(exc) };
    } finally {
      m._Py_DecRef(exc);
    }
  }

  /** driver.py's error_name: the type's own name if an identifier, else `Exception`. */
  #typeName(exc: Ptr): string {
    const m = this.#m;
    const type = m._PyObject_Type(exc);
    const name = m._PyType_GetName(type);
    m._Py_DecRef(type);
    if (!name) {
      m._PyErr_Clear();
      return "Exception";
    }
    try {
      if (m._PyUnicode_IsIdentifier(name) !== 1) return "Exception";
      const text = m.UTF8ToString(m._PyUnicode_AsUTF8(name));
      // Python slices by code point.
      return Array.from(text as string).slice(0, 60).join("");
    } finally {
      m._Py_DecRef(name);
    }
  }

  /**
   * Watch every namespace in `dicts` (a tuple: every module's) and every
   * class in `types` (a tuple: every heap type). A change sets `touched`,
   * except to the keys the harness sets on `sys` for every job (stdout,
   * stderr, stdin), to the registry `warnings` keeps in modules it warns
   * for, and to `selfWritten` (a tuple of (namespace, key)): the standard
   * library's own runtime globals, which set `selfWrote` instead (the
   * worker then has them put back). The module table (`modules`) may grow
   * (the job's imports, dropped after it by `dropAddedModules`), but no
   * module there before the job may be replaced or removed.
   */
  watch(
    dicts: Ptr,
    types: Ptr,
    sysDict: Ptr,
    selfWritten: Ptr,
    strType: Ptr,
    modules: Ptr,
  ): void {
    const m = this.#m;
    this.#modules = modules;
    const own = new Map<Ptr, Set<string>>();
    for (let i = 0, n = m._PyTuple_Size(selfWritten); i < n; i++) {
      const pair = m._PyTuple_GetItem(selfWritten, i);
      const dict = m._PyTuple_GetItem(pair, 0);
      const key = m.UTF8ToString(m._PyUnicode_AsUTF8(m._PyTuple_GetItem(pair, 1)));
      if (!own.has(dict)) own.set(dict, new Set());
      own.get(dict)!.add(key);
    }
    const streams = new Set(["stdout", "stderr", "stdin"]);
    /** The key as a string when it is an exact str, else null. */
    const keyText = (key: Ptr): string | null => {
      if (!key) return null;
      const type = m._PyObject_Type(key);
      m._Py_DecRef(type);
      if (type !== strType) return null;
      const utf8 = m._PyUnicode_AsUTF8(key);
      if (!utf8) {
        m._PyErr_Clear();
        return null;
      }
      return m.UTF8ToString(utf8);
    };
    const onDict = m.addFunction((event: number, dict: Ptr, key: Ptr, _value: Ptr) => {
      const keyed = event === PyDict_EVENT_ADDED || event === PyDict_EVENT_MODIFIED ||
        event === PyDict_EVENT_DELETED;
      if (dict === modules) {
        const name = keyed ? keyText(key) : null;
        if (name !== null && event === PyDict_EVENT_ADDED) this.addedModules.add(name);
        else if (name !== null && this.addedModules.has(name)) {
          if (event === PyDict_EVENT_DELETED) this.addedModules.delete(name);
        } else this.touched = true;
        return 0;
      }
      const k = keyed ? keyText(key) : null;
      if (k === null) {
        // Cleared, cloned or freed wholesale, or a key that is not an exact str.
        this.touched = true;
      } else if (k === "__warningregistry__" || (dict === sysDict && streams.has(k))) {
        // The harness puts these back itself; warnings' registries are its own.
      } else if (own.get(dict)?.has(k)) {
        this.selfWrote = true;
      } else if (!this.touched) {
        // Counts only if the value differs at the job's end (`settle`): a
        // context manager that sets and restores (warnings.catch_warnings)
        // leaves nothing changed.
        this.#remember(dict, key, k);
      }
      return 0;
    }, "iiiii");
    const onType = m.addFunction((_type: Ptr) => {
      this.touched = true;
      return 0;
    }, "ii");
    const dictWatcher = m._PyDict_AddWatcher(onDict);
    const typeWatcher = m._PyType_AddWatcher(onType);
    if (dictWatcher < 0 || typeWatcher < 0) {
      m._PyErr_Clear();
      throw new Error("Pyodide: no dict or type watcher left");
    }
    for (let i = 0, n = m._PyTuple_Size(dicts); i < n; i++) {
      m._PyDict_Watch(dictWatcher, m._PyTuple_GetItem(dicts, i));
    }
    m._PyDict_Watch(dictWatcher, modules);
    for (let i = 0, n = m._PyTuple_Size(types); i < n; i++) {
      m._PyType_Watch(typeWatcher, m._PyTuple_GetItem(types, i));
    }
    this.touched = false;
    this.selfWrote = false;
    this.addedModules.clear();
  }

  /** Keys changed in this job, with the value before the first change (strong refs). */
  readonly #changed = new Map<string, { dict: Ptr; key: Ptr; before: Ptr }>();

  #remember(dict: Ptr, key: Ptr, name: string): void {
    const id = `${dict}:${name}`;
    if (this.#changed.has(id)) return;
    const m = this.#m;
    // Watchers run before the change: the dict still holds the old value.
    const before = m._PyDict_GetItemWithError(dict, key);
    if (!before && m._PyErr_Occurred()) m._PyErr_Clear();
    if (before) m._Py_IncRef(before);
    m._Py_IncRef(key);
    this.#changed.set(id, { dict, key, before });
  }

  /**
   * Whether the job left a watched namespace changed: `touched`, or a key
   * it changed that does not hold its old value (the same object) now.
   */
  settle(): boolean {
    const m = this.#m;
    for (const { dict, key, before } of this.#changed.values()) {
      if (!this.touched) {
        const now = m._PyDict_GetItemWithError(dict, key);
        if (!now && m._PyErr_Occurred()) m._PyErr_Clear();
        if (now !== before) this.touched = true;
      }
      if (before) m._Py_DecRef(before);
      m._Py_DecRef(key);
    }
    this.#changed.clear();
    return this.touched;
  }

  /**
   * Drop the modules the job imported from the module table, so that no job
   * sees another's (their finalizers run here, under no Python frame).
   */
  dropAddedModules(): void {
    const m = this.#m;
    for (const name of [...this.addedModules]) {
      const key = m.stringToNewUTF8(name);
      if (m._PyDict_DelItemString(this.#modules, key) < 0) m._PyErr_Clear();
      m._free(key);
    }
    this.addedModules.clear();
  }
}
