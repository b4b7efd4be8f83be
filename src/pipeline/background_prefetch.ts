import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { eachLine, processCpuSeconds } from "../io/child_process.ts";

const PREFETCH = fileURLToPath(new URL("../embed/prefetch.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/** How a background prefetch ended. */
export interface PrefetchEnd {
  /** Texts it embedded and stored before it finished or was stopped. */
  texts: number;
  /** It ran to the end (not stopped, not failed). */
  finished: boolean;
  /** CPU seconds it used (0 where /proc cannot be read). */
  cpuSeconds: number;
  /** Why it failed: exit code and its last line on stderr. */
  error?: string;
}

/** A running background prefetch. */
export interface BackgroundPrefetch {
  /** Settles when the process has exited by itself (or could not start). */
  exited: Promise<void>;
  /** Stop it (if still running) and say how it went; never throws. */
  stop(): Promise<PrefetchEnd>;
}

/**
 * The command that embeds `configs`' queries ahead of the embed stage (see
 * src/embed/prefetch.ts), under `nice -n 19`: it takes only CPU the oracle
 * leaves idle, so the oracle's per-test timeouts, which decide outcomes, see
 * the same machine as without it.
 */
export function prefetchCommand(configs: readonly string[]): string[] {
  return [
    "nice",
    "-n",
    "19",
    Deno.execPath(),
    "run",
    "--allow-all",
    "--cached-only",
    "--config",
    CONFIG,
    PREFETCH,
    ...configs,
  ];
}

/**
 * Start `command` (default: {@link prefetchCommand}) in the background. Its
 * stdout is read as one JSON line `{texts}` per stored batch. Whatever it
 * does (fails to start, crashes, is still running when stopped) the caller
 * goes on: the embed stage adopts only whole batches it wrote atomically and
 * embeds the rest itself.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { startBackgroundPrefetch } from "./background_prefetch.ts";
 * const run = startBackgroundPrefetch([], ["no-such-command-here"]);
 * const end = await run.stop();
 * strictEqual(end.texts, 0);
 * strictEqual(end.error?.startsWith("cannot start no-such-command-here"), true);
 * ```
 */
export function startBackgroundPrefetch(
  configs: readonly string[],
  command: readonly string[] = prefetchCommand(configs),
): BackgroundPrefetch {
  let texts = 0;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command[0], {
      args: command.slice(1),
      cwd: dirname(CONFIG),
      env: { NO_COLOR: "1" }, // plain error lines (Deno colours them even into a pipe)
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    const error = `cannot start ${command[0]}: ${(e as Error).message.split("\n")[0]}`;
    return {
      exited: Promise.resolve(),
      stop: () => Promise.resolve({ texts, finished: false, cpuSeconds: 0, error }),
    };
  }
  let lastError = "";
  let denoError: string | undefined;
  const reading = Promise.all([
    eachLine(child.stdout, (line) => {
      try {
        texts += Number((JSON.parse(line) as { texts?: unknown }).texts) || 0;
      } catch {
        // not a progress line
      }
    }),
    eachLine(child.stderr, (line) => {
      // Deno's own "error: …" line when there is one, not the source excerpt
      // and stack frames it prints after it; else the last line.
      if (line.startsWith("error: ")) denoError ??= line;
      else if (line.trim() !== "") lastError = line;
    }),
  ]).catch(() => {});
  let exited = false;
  let cpu = 0;
  // Sampled while it runs: once it has exited, /proc no longer has its counters.
  const sampler = setInterval(() => {
    if (!exited) cpu = Math.max(cpu, processCpuSeconds(child.pid));
  }, 1000);
  Deno.unrefTimer(sampler);
  const status = child.status.then((s) => {
    exited = true;
    clearInterval(sampler);
    return s;
  });
  return {
    exited: status.then(() => {}),
    async stop() {
      let stopped = false;
      if (!exited) {
        cpu = Math.max(cpu, processCpuSeconds(child.pid));
        try {
          child.kill("SIGTERM");
          stopped = true;
        } catch {
          // exited meanwhile
        }
      }
      const s = await status;
      await reading;
      if (stopped) return { texts, finished: false, cpuSeconds: cpu };
      if (s.success) return { texts, finished: true, cpuSeconds: cpu };
      const said = denoError ?? lastError;
      return {
        texts,
        finished: false,
        cpuSeconds: cpu,
        error: `exit code ${s.code}${said ? `: ${said}` : ""}`,
      };
    },
  };
}
