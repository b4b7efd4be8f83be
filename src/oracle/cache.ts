import { join } from "node:path";
import { cacheDir } from "../io/paths.ts";
import { sha256Hex } from "../io/hash.ts";
import {
  complete,
  outcomesFromWire,
  outcomeToWire,
  stoppedAtTimeout,
  type TestOutcome,
} from "./outcome.ts";

/** sha256 of the code as executed: the snippet, then the setup (just the snippet when no setup). */
export function suiteCodeSha(setup: string, code: string): string {
  return sha256Hex(setup === "" ? code : `${code}\n${setup}`);
}

/** sha256 of the JSON list of test statements. */
export function testsSha(tests: readonly string[]): string {
  return sha256Hex(JSON.stringify(tests));
}

/** Cache key of one suite run; `rep` tells apart repeated runs of the same suite (flakiness). */
export function suiteKey(codeSha: string, testsSha: string, rep = 0): string {
  return rep === 0 ? `${codeSha}:${testsSha}` : `${codeSha}:${testsSha}:${rep}`;
}

/**
 * The file name of one runtime's execution cache at one per-test limit.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { cacheFileName } from "./cache.ts";
 * strictEqual(cacheFileName("cpython-3.11.7+netns", 1000), "cpython-3.11.7+netns-cpu1000.jsonl");
 * strictEqual(cacheFileName("py/odide 1", 300), "py_odide_1-cpu300.jsonl");
 * ```
 */
export function cacheFileName(runtime: string, timeoutMs: number): string {
  return `${runtime.replace(/[^A-Za-z0-9._+-]/g, "_")}-cpu${timeoutMs}.jsonl`;
}

/**
 * Append-only cache of suite results, one JSON line per suite, in
 * `<cache>/executions/<runtime>-cpu<timeout>.jsonl` (the timeout is a limit
 * of CPU time: a cache of verdicts made under the earlier wall-clock limit,
 * `-t<timeout>`, is never read). Each line is written
 * whole as its suite completes, so a killed run loses at most the line it
 * was writing; a torn last line is ignored on read and sealed off before the
 * next append.
 *
 * A suite stopped at its first TIMEOUT (NOT_RUN after it) is stored under the
 * same key as a complete run: it answers only requests that stop at a
 * TIMEOUT too, and a later complete run of that suite is appended after it and
 * wins. A complete result answers both kinds, cut to NOT_RUN after its first
 * TIMEOUT for a stopping request, so a candidate's outcomes do not depend on
 * which kind of run the cache happened to see first.
 */
export class ExecutionCache {
  #entries = new Map<string, TestOutcome[]>();
  #file: Deno.FsFile | null = null;
  #encoder = new TextEncoder();

  private constructor(readonly path: string) {}

  /** Open (creating if needed) the cache of one runtime at one timeout. */
  static async open(runtime: string, timeoutMs: number, dir?: string): Promise<ExecutionCache> {
    const folder = dir ?? join(cacheDir(), "executions");
    const cache = new ExecutionCache(join(folder, cacheFileName(runtime, timeoutMs)));
    await Deno.mkdir(folder, { recursive: true });
    let text = "";
    try {
      text = await Deno.readTextFile(cache.path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      try {
        const { k, r } = JSON.parse(line) as { k: string; r: unknown[][] };
        if (typeof k !== "string" || !Array.isArray(r)) continue;
        const outcomes = outcomesFromWire(r);
        if (cache.#supersedes(k, outcomes)) cache.#entries.set(k, outcomes);
      } catch {
        // A torn line from a killed run: that suite simply runs again.
      }
    }
    cache.#file = await Deno.open(cache.path, { append: true, create: true });
    if (text.length > 0 && !text.endsWith("\n")) cache.#write("\n");
    return cache;
  }

  /** Number of suites known. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The outcomes of a suite, or undefined when unknown. Without
   * `stopAtTimeout` only a complete result answers; with it, any result does,
   * seen as stopped at its first TIMEOUT.
   */
  get(key: string, stopAtTimeout = false): TestOutcome[] | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (stopAtTimeout) return stoppedAtTimeout(hit);
    return complete(hit) ? hit : undefined;
  }

  /** A result replaces what is known only where there was nothing, or a stopped run it completes. */
  #supersedes(key: string, outcomes: readonly TestOutcome[]): boolean {
    const known = this.#entries.get(key);
    return !known || (!complete(known) && complete(outcomes));
  }

  /** Record one suite's result and append it to the file at once. */
  put(key: string, outcomes: readonly TestOutcome[]): void {
    if (!this.#supersedes(key, outcomes)) return;
    // Times rounded to µs, so a table built from the cache has no float noise.
    const us = (ms: number) => Math.round(ms * 1000) / 1000;
    const rounded = outcomes.map((o): TestOutcome =>
      o.cpuMs === undefined
        ? { outcome: o.outcome, ms: us(o.ms) }
        : { outcome: o.outcome, ms: us(o.ms), cpuMs: us(o.cpuMs) }
    );
    this.#entries.set(key, rounded);
    this.#write(JSON.stringify({ k: key, r: rounded.map(outcomeToWire) }) + "\n");
  }

  #write(line: string): void {
    const bytes = this.#encoder.encode(line);
    let written = 0;
    while (written < bytes.length) written += this.#file!.writeSync(bytes.subarray(written));
  }

  close(): void {
    this.#file?.close();
    this.#file = null;
  }
}
