/**
 * One Pyodide slot in a process of its own: `deno run` with permission to
 * read Pyodide's files and its memory snapshot, nothing else. Its main thread
 * runs the in-process slot of `pyodide_slots.ts` (a locked-down worker thread
 * plus the watcher that interrupts and kills it) and speaks JSON lines with the
 * parent (`pyodide_process.ts`): batches and cuts in on stdin; results (many
 * jobs' to a message), idle, stalls, the jobs a cut left unstarted, and
 * deaths out on stdout.
 *
 * Why a process: Deno's `worker.terminate()` does not stop a thread that is
 * busy (measured on 2.9.6: a worker in `while (true) {}` or in a wasm loop
 * keeps a core at 100% after terminate, and the process never exits), so a
 * snippet stuck in C code or swallowing interrupts would leave a spinning
 * thread behind for the rest of the run. After a death this process exits,
 * and the thread goes with it.
 *
 * A worker that retires (a job of its batch tampered) or that the pool
 * recycles for its memory is idle, not stuck, and is stopped by
 * `terminate()`: the parent then asks for a fresh worker in this process
 * (`renew`) instead of starting another. A new process costs ~0.9 CPU-s
 * (Deno, Pyodide's JS and the compiling of its wasm); a worker in a process
 * that has compiled Pyodide once costs ~0.3, since V8 shares compiled wasm
 * code between the isolates of one process.
 *
 * Usage: pyodide_host.ts SNAPSHOT_PATH TIMEOUT_MS
 */
import { outcomeToWire } from "./outcome.ts";
import { pyodideSlotFactory } from "./pyodide_slots.ts";
import type { Slot, WireJob } from "./slot.ts";

const encoder = new TextEncoder();
let pending = "";
let results: [number, unknown[][]][] = [];
let flushTimer: ReturnType<typeof setTimeout> | undefined;

/** Write every message queued so far, the results gathered first. */
function flush(): void {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (results.length > 0) {
    pending = JSON.stringify({ t: "results", r: results }) + "\n" + pending;
    results = [];
  }
  if (pending === "") return;
  const bytes = encoder.encode(pending);
  pending = "";
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/**
 * Results are gathered for a few milliseconds and go out as one message (one
 * line to encode and parse, one write and one wake-up of the parent for many
 * jobs).
 */
function result(id: number, outcomes: unknown[][]): void {
  results.push([id, outcomes]);
  if (results.length >= 1024) flush();
  else flushTimer ??= setTimeout(flush, 10);
}

/** Send one message at once, after the results gathered so far. */
function emit(message: { t: string; [field: string]: unknown }): void {
  pending += JSON.stringify(message) + "\n";
  flush();
}

/**
 * The whole file in memory shared with the worker: posting a plain buffer
 * copies it into the worker, and `Deno.readFile` first grows a buffer of its
 * own; each fresh page costs on a VM (31 MB snapshot: ~300 ms that way).
 */
async function readShared(path: string): Promise<Uint8Array> {
  using file = await Deno.open(path);
  const size = (await file.stat()).size;
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  let at = 0;
  while (at < size) {
    const n = await file.read(bytes.subarray(at));
    if (n === null) throw new Error(`${path}: ended at byte ${at} of ${size}`);
    at += n;
  }
  return bytes;
}

async function main(): Promise<void> {
  const [snapshotPath, timeout] = Deno.args;
  let slot: Slot | undefined;
  let snapshot: Uint8Array | undefined;
  /**
   * A fresh worker from the snapshot, announced with `ready` or `failed`.
   * Every worker of the process reads the one copy of the file: a copy
   * apiece was never freed (the process grew by the snapshot's 31 MB with
   * each). A worker could write to it only from JavaScript, which no
   * snippet reaches (the harness's install; the tamper and hostile tests),
   * and from there the control block it shares with this thread would be
   * the easier target.
   */
  const start = async () => {
    try {
      snapshot ??= await readShared(snapshotPath);
      slot = await pyodideSlotFactory({ snapshot, timeoutMs: Number(timeout) })({
        result: (id, outcomes) => result(id, outcomes.map(outcomeToWire)),
        idle: (memory, retire) => {
          // A retired worker is already stopped (pyodide_slots.ts); it runs
          // nothing more, and the parent may ask for a fresh one (`renew`).
          if (retire) slot = undefined;
          emit({ t: "idle", m: memory, ...(retire ? { x: true } : {}) });
        },
        stalled: (on) => emit({ t: "stalled", on }),
        dead: (report) => {
          emit({ t: "dead", r: report });
          // The thread that died may still be spinning: only the process's end stops it.
          Deno.exit(0);
        },
      });
    } catch (e) {
      emit({ t: "failed", error: String((e as Error)?.message ?? e) });
      Deno.exit(1);
    }
    emit({ t: "ready" });
  };
  await start();
  let buffer = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const message = JSON.parse(line) as { send?: WireJob[]; cut?: boolean; renew?: boolean };
      if (message.send) slot!.send(message.send);
      else if (message.cut) emit({ t: "unstarted", ids: await (slot?.cut?.() ?? []) });
      else if (message.renew) {
        // Between batches only (retired, or recycled for its memory): the
        // worker is idle, so stopping it stops its thread.
        slot?.kill();
        slot = undefined;
        await start();
      }
    }
  }
  // The parent closed our stdin: it is gone or done with us.
  Deno.exit(0);
}

if (import.meta.main) await main();
