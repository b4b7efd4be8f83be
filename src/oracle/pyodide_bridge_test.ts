/**
 * After driver.py's `install()`, nothing a snippet can reach leads to
 * JavaScript: no object of Pyodide's bridge (a JsProxy, its finders, its
 * event loop) among everything the gc sees held, transitively, by the
 * module table, builtins, sys, every class and the running event loop; none
 * of its modules or finders left; and what it had put into the standard
 * library (time.sleep, asyncio.run, json's JsNull marker) is the standard
 * library's again. (Pyodide itself keeps some of those objects alive from
 * JavaScript, out of Python's reach but for the gc, which is refused.)
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loadPyodide } from "pyodide";
import { CApi } from "./pyodide_capi.ts";
import { shellSnapshot } from "../../test/support/shell_cache.ts";
import { pyodideDir } from "./pyodide_slots.ts";

const PROBE = `
import gc, sys, time, asyncio, json.encoder, types, builtins
bridge = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core")
def of_bridge(o):
    t = o if isinstance(o, type) else type(o)
    return str(getattr(t, "__module__", "")).partition(".")[0] in bridge
# Everything a snippet can name, and everything they hold, as the gc sees it.
roots = [sys.modules, builtins.__dict__, sys.__dict__]
todo = [object]
while todo:
    for c in type.__subclasses__(todo.pop()):
        roots.append(c)
        todo.append(c)
running = asyncio.events._get_running_loop()
if running is not None:
    roots.append(running)
seen = {id(r): None for r in roots}
path = {id(r): "root" for r in roots}
queue = list(roots)
reached = []
while queue:
    o = queue.pop()
    if of_bridge(o) and not isinstance(o, type):
        reached.append(type(o).__qualname__ + " via " + path[id(o)])
        continue
    for r in gc.get_referents(o):
        if id(r) not in seen:
            seen[id(r)] = None
            path[id(r)] = type(o).__qualname__
            queue.append(r)
FOUND = {
    "reachable": sorted(set(reached))[:5],
    "modules": sorted(m for m in sys.modules if m.partition(".")[0] in bridge),
    "finders": [repr(f) for f in sys.meta_path + sys.path_hooks if of_bridge(f)],
    "sleep": type(time.sleep).__name__,
    "run": asyncio.run.__module__,
    "jsnull": json.encoder._JSNULL is None,
}
`;

Deno.test({
  name: "after install() no route leads from Python to JavaScript (pyodide)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const snapshot = await Deno.readFile(await shellSnapshot());
    const py = await loadPyodide({
      indexURL: pyodideDir(),
      stdout: () => {},
      stderr: () => {},
      _loadSnapshot: snapshot,
    });
    // deno-lint-ignore no-explicit-any
    const m = (py as unknown as { _module: any })._module;
    const api = new CApi(m);
    const install = py.globals.get("install");
    const h = install(true);
    install.destroy();
    const state = api.take(h.get("state"));
    const compile = api.take(h.get("compile"));
    const builtins = api.take(h.get("builtins"));
    h.destroy();
    // The probe is the harness's own: its gc calls are let through (the
    // hook lets the harness's get_objects and freeze by; referents here).
    m.HEAPU8[api.bytesOf(state) + 1] = 1;
    const ns = api.namespace(builtins);
    const code = api.compile(compile, PROBE, "snippet");
    if (typeof code !== "number") throw new Error(`probe: ${JSON.stringify(code)}`);
    const harness = { compile, builtins, assertionError: 0, keyboardInterrupt: 0 } as never;
    assertEquals(api.run(code, ns, harness), { kind: "pass" });
    const key = m.stringToNewUTF8("FOUND");
    const found = m._PyDict_GetItemString(ns, key);
    const repr = m._PyObject_Repr(found);
    const text = m.UTF8ToString(m._PyUnicode_AsUTF8(repr));
    assertEquals(
      text,
      "{'reachable': [], 'modules': [], 'finders': [], 'sleep': " +
        "'builtin_function_or_method', 'run': 'asyncio.runners', 'jsnull': True}",
    );
  },
});
