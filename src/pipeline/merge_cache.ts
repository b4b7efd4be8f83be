import { join } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { cacheDir } from "../io/paths.ts";
import { asOutcome, complete } from "../oracle/outcome.ts";

/** What {@link mergeCaches} did. */
export interface MergeCacheResult {
  /** Execution cache files written, and the suites they hold. */
  executionFiles: number;
  suites: number;
  /** Vector segments copied, and those already present with the same bytes. */
  segmentsCopied: number;
  segmentsPresent: number;
}

async function listDir(dir: string): Promise<Deno.DirEntry[]> {
  try {
    const out: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(dir)) out.push(e);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Pick one line per key from every execution-cache line seen: a complete
 * result over one stopped at a TIMEOUT (as the cache itself does), then the
 * smallest line, so the choice depends only on the set of lines, never on
 * the order of folders or of lines within them.
 */
function better(a: { line: string; complete: boolean }, b: { line: string; complete: boolean }) {
  if (a.complete !== b.complete) return a.complete;
  return a.line < b.line;
}

/**
 * Merge shard cache folders (each an `EXECRET_CACHE` of one `--shard` run)
 * into `target` (default the local cache). Execution caches
 * (`executions/*.jsonl`): the union of lines, one per suite key, sorted by
 * key, written atomically. Vector caches (`vectors/<config>/*.seg`): segments
 * copied by name; two different segments under one name are an error. The
 * result is the same whatever order the folders come in.
 */
export async function mergeCaches(
  sources: readonly string[],
  target = cacheDir(),
): Promise<MergeCacheResult> {
  const result: MergeCacheResult = {
    executionFiles: 0,
    suites: 0,
    segmentsCopied: 0,
    segmentsPresent: 0,
  };
  for (const dir of sources) {
    const st = await Deno.stat(dir).catch(() => null);
    if (!st?.isDirectory) throw new Error(`merge-cache: ${dir} is not a folder`);
  }
  // Execution caches, file by file (one per runtime and timeout).
  const names = new Set<string>();
  for (const dir of sources) {
    for (const e of await listDir(join(dir, "executions"))) {
      if (e.isFile && e.name.endsWith(".jsonl")) names.add(e.name);
    }
  }
  for (const name of [...names].sort()) {
    const best = new Map<string, { line: string; complete: boolean }>();
    for (const dir of [target, ...sources]) {
      let text = "";
      try {
        text = await Deno.readTextFile(join(dir, "executions", name));
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
      for (const line of text.split("\n")) {
        if (line === "") continue;
        let parsed: { k: unknown; r: unknown };
        try {
          parsed = JSON.parse(line);
        } catch {
          continue; // a torn line from a killed shard: that suite runs again
        }
        if (typeof parsed.k !== "string" || !Array.isArray(parsed.r)) continue;
        const outcomes = (parsed.r as [unknown, unknown][]).map(([o, ms]) => ({
          outcome: asOutcome(o),
          ms: Number(ms),
        }));
        const entry = { line, complete: complete(outcomes) };
        const known = best.get(parsed.k);
        if (!known || better(entry, known)) best.set(parsed.k, entry);
      }
    }
    const keys = [...best.keys()].sort();
    await Deno.mkdir(join(target, "executions"), { recursive: true });
    await atomicWrite(
      join(target, "executions", name),
      keys.map((k) => best.get(k)!.line + "\n").join(""),
    );
    result.executionFiles++;
    result.suites += keys.length;
  }
  // Vector segments: content-named per batch and fetch time, so copying by name suffices.
  for (const dir of sources) {
    for (const config of await listDir(join(dir, "vectors"))) {
      if (!config.isDirectory) continue;
      const into = join(target, "vectors", config.name);
      await Deno.mkdir(into, { recursive: true });
      for (const seg of await listDir(join(dir, "vectors", config.name))) {
        if (!seg.isFile || !seg.name.endsWith(".seg")) continue;
        const from = join(dir, "vectors", config.name, seg.name);
        const to = join(into, seg.name);
        const bytes = await Deno.readFile(from);
        const existing = await Deno.readFile(to).catch((e) => {
          if (e instanceof Deno.errors.NotFound) return null;
          throw e;
        });
        if (existing === null) {
          await atomicWrite(to, bytes);
          result.segmentsCopied++;
        } else if (sameBytes(existing, bytes)) {
          result.segmentsPresent++;
        } else {
          throw new Error(`merge-cache: ${from} differs from ${to} under the same name`);
        }
      }
    }
  }
  return result;
}
