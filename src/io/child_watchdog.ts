/**
 * The kit's watchdog (`watchdog.ts`) for its worker processes (Pyodide hosts,
 * native Python workers, embed workers): it starts the child, hands each line
 * of its stdout to the caller, keeps the tail of its stderr, and reports its
 * exit once the lines it wrote before exiting are read; kill is SIGKILL.
 *
 * @module
 */
import { eachLine, killChild, processCpuSeconds } from "./child_process.ts";
import { type Watchdog, watchdog } from "./watchdog.ts";

/** How long an exit report waits for the lines the child wrote before it went. */
const LAST_LINES_MS = 1000;

/** A worker process's end, reported once its earlier lines were handed on. */
export interface ChildExit {
  code: number;
  signal: Deno.Signal | null;
  /** The last characters of its stderr, trimmed ("" when stderr is not kept). */
  stderrTail: string;
}

/** Options of {@link watchChild}. */
export interface WatchOptions {
  command: string;
  args: string[];
  /** The child's whole environment (it starts with a cleared one). */
  env: Record<string, string>;
  /** Keep this many of stderr's last characters for the exit report; 0 discards stderr. */
  stderrTail?: number;
  /** Each line the child writes to stdout, in order, until it is killed. */
  onLine(line: string): void;
}

/** A running worker process under watch: the watchdog's deadline and kill, and its pipes. */
export interface WatchedChild extends Watchdog<ChildExit> {
  pid: number;
  /** Write one line (newline added) to the child's stdin; false when it could not (the child is gone). */
  writeLine(text: string): Promise<boolean>;
  /** Close the child's stdin (a worker's cue to exit) and wait for its exit report. */
  close(): Promise<ChildExit>;
  /** CPU seconds the child has used so far (0 where /proc cannot say). */
  cpuSeconds(): number;
}

/**
 * Start `options.command` under watch.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { watchChild } from "./child_watchdog.ts";
 * const lines: string[] = [];
 * const child = watchChild({
 *   command: "sh",
 *   args: ["-c", "read x; echo got $x; echo oops >&2; exit 3"],
 *   env: {},
 *   stderrTail: 100,
 *   onLine: (line) => lines.push(line),
 * });
 * await child.writeLine("hi");
 * const exit = await child.exited;
 * deepStrictEqual([lines, exit.code, exit.stderrTail], [["got hi"], 3, "oops"]);
 * ```
 */
export function watchChild(options: WatchOptions): WatchedChild {
  const keep = options.stderrTail ?? 0;
  const child = new Deno.Command(options.command, {
    args: options.args,
    stdin: "piped",
    stdout: "piped",
    stderr: keep > 0 ? "piped" : "null",
    clearEnv: true,
    env: options.env,
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const reading = eachLine(child.stdout, (line) => {
    if (!dog.killed) options.onLine(line);
  }).catch(() => {});
  let tail = "";
  if (keep > 0) {
    (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
        tail = (tail + chunk).slice(-keep);
      }
    })().catch(() => {});
  }
  const exited = child.status.then(async (status) => {
    // Lines the child wrote before it went (a death report) come first.
    await Promise.race([reading, new Promise((r) => setTimeout(r, LAST_LINES_MS))]);
    return { code: status.code, signal: status.signal, stderrTail: tail.trim() };
  });
  const dog = watchdog({
    kill() {
      killChild(child);
      writer.close().catch(() => {});
    },
    exited,
  });

  return Object.assign(dog, {
    pid: child.pid,
    writeLine: (text: string) =>
      writer.write(encoder.encode(text + "\n")).then(() => true, () => false),
    async close() {
      await writer.close().catch(() => {});
      return await exited;
    },
    cpuSeconds: () => processCpuSeconds(child.pid),
  });
}

/**
 * `started`, or `late` if it has not settled within `ms`: a worker's start
 * deadline.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { startDeadline } from "./child_watchdog.ts";
 * strictEqual(await startDeadline(new Promise<string>(() => {}), 10, "late"), "late");
 * strictEqual(await startDeadline(Promise.resolve("ready"), 10_000, "late"), "ready");
 * ```
 */
export async function startDeadline<T>(started: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([started, new Promise<T>((r) => (timer = setTimeout(r, ms, late)))]);
  } finally {
    clearTimeout(timer);
  }
}
