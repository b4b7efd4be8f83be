/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * Pyodide for the interpreters-alone passes of oracle_floor.ts, in a worker
 * allowed to read Pyodide's files and nothing else, like the oracle's own
 * workers: the suites are untrusted code even here.
 */
import { loadPyodide } from "pyodide";

interface Init {
  type: "init";
  indexURL: string;
  /** The oracle's memory snapshot: the interpreter loaded, the driver defined. */
  snapshot: Uint8Array;
  floor: string;
  jobs: string;
}

let floorPass: (() => string) | undefined;

self.onmessage = async (e: MessageEvent) => {
  const msg = e.data as Init | { type: "pass" };
  try {
    if (msg.type === "init") {
      const py = await loadPyodide({
        indexURL: msg.indexURL,
        stdout: () => {},
        stderr: () => {},
        _loadSnapshot: msg.snapshot,
      });
      py.runPython(msg.floor);
      const setup = py.globals.get("_floor_setup");
      setup(msg.jobs);
      setup.destroy();
      floorPass = py.globals.get("_floor_pass");
      self.postMessage({
        type: "ready",
        version: py.runPython("import sys; sys.version.split()[0]"),
      });
    } else {
      self.postMessage({ type: "pass", line: floorPass!() });
    }
  } catch (error) {
    self.postMessage({ type: "failed", error: String((error as Error)?.message ?? error) });
  }
};
