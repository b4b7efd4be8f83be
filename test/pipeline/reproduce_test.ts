/**
 * `make reproduce` is trustworthy: a rerun gives byte-identical outputs and
 * recomputes nothing, and a run killed mid-oracle and mid-embedding resumes
 * to the same bytes as an uninterrupted run without redoing finished work.
 * Runs the real CLI on the quick profile (bm25/tfidf/use, Pyodide) over the
 * first 20 of its 71 built-in tasks, read as a `jsonl:` source: still several
 * oracle jobs and three embedding batches (queries, then documents in two) to
 * be killed between, at ~25 CPU-s a run instead of 53 with all 71 (35 with
 * 30). Both runs' caches start with the Pyodide snapshot copied from the
 * kit's own (it holds no result; making it is the oracle pool's test's, and
 * cost each run ~7 CPU-s).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { seedSnapshot } from "../../src/oracle/pool.ts";
import { digests, finish, killRun, quickSubsetProfile, reproduce } from "./_reproduce.ts";
import { measuredTables } from "../../src/tables/catalog.ts";

const TASKS = 20;

/** Start a run and SIGKILL it once a progress line of `stage` shows work done. */
async function killDuring(out: string, profile: string, stage: RegExp): Promise<string> {
  const child = reproduce(out, profile);
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`run ended before ${stage} made progress:\n${seen.slice(-1500)}`);
    seen += value;
    if (stage.test(seen)) break;
  }
  await killRun(child);
  reader.releaseLock();
  await child.stdout.cancel();
  await child.stderr.cancel().catch(() => {});
  return seen;
}

/** The manifest without what may differ between equal runs (timings, fetch times). */
function comparableManifest(out: string): unknown {
  const m = JSON.parse(Deno.readTextFileSync(join(out, "manifest.json")));
  delete m.timings;
  m.files = m.files.filter((f: { path: string }) =>
    !f.path.startsWith("embeddings/") &&
    !measuredTables().some((t) => f.path.includes(`/${t}.`))
  );
  return m;
}

/** Keys of an append-only JSONL cache, counting repeats. */
function cacheKeys(path: string): { lines: number; distinct: number } {
  const keys = Deno.readTextFileSync(path).split("\n").filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l).k as string);
  return { lines: keys.length, distinct: new Set(keys).size };
}

/** Run `profile` into `out`, killed mid-oracle, then mid-embedding, then to the end. */
async function killedTwiceThenFinished(out: string, profile: string): Promise<void> {
  await killDuring(out, profile, /oracle: [1-9]\d*\//);
  const afterOracleKill = Deno.readDirSync(join(out, "cache", "executions")).toArray();
  ok(afterOracleKill.length > 0, "the oracle cached suites before the kill");
  const killedInEmbed = await killDuring(out, profile, /embed use[^\n]*: [1-9]\d*\//);
  const resumed = await finish(reproduce(out, profile));
  // The resumed run embedded what the kill left, and only that: fewer texts, not none.
  const pending = (log: string) => Number(/embed use \((\d+) texts/.exec(log)?.[1] ?? NaN);
  const [before, after] = [pending(killedInEmbed), pending(resumed)];
  ok(after > 0 && after < before, `texts to embed: ${before} before the kill, ${after} after`);
}

Deno.test({
  name:
    "quick profile, 20 tasks: rerun is byte-identical, and a killed run resumes to the same bytes",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-repro-" });
    const profile = await quickSubsetProfile(root, TASKS, { name: "quick-subset" });
    const a = join(root, "a");
    const b = join(root, "b");
    await seedSnapshot(join(a, "cache"));
    await seedSnapshot(join(b, "cache"));
    // The interrupted run has its own out folder and cache, so it runs beside
    // the uninterrupted one (the same work either way; less wall time whenever
    // a core would idle) and is compared with it at the end.
    const interrupted = killedTwiceThenFinished(b, profile);
    // Awaited below; a failure of the checks of `a` first must not leave it unhandled.
    interrupted.catch(() => {});
    await finish(reproduce(a, profile));
    const first = digests(a);
    ok(Object.keys(first).length >= 10, "tables and embeddings written");
    ok(first["embeddings/use.arrow"], "the dense config wrote its embeddings");
    ok(first["tables/executions.arrow"] && first["tables/execution_times.arrow"]);

    const again = await finish(reproduce(a, profile));
    for (const stage of ["tasks", "mutate", "oracle", "embed", "score", "stats"]) {
      ok(again.includes(`${stage}: up to date`), `warm rerun skips ${stage}`);
    }
    assertEquals(digests(a), first);
    assertEquals(
      JSON.parse(Deno.readTextFileSync(join(a, "manifest.json"))).files.length > 0,
      true,
    );

    // Killed mid-oracle, then mid-embedding, then completed: same bytes.
    await interrupted;
    assertEquals(digests(b, true), digests(a, true));
    assertEquals(comparableManifest(b), comparableManifest(a));
    // Nothing finished before a kill ran again: every cached suite appears once.
    for (const f of Deno.readDirSync(join(b, "cache", "executions"))) {
      const { lines, distinct } = cacheKeys(join(b, "cache", "executions", f.name));
      assertEquals(lines, distinct, `${f.name}: a suite was executed twice`);
    }
    await Deno.remove(root, { recursive: true });
  },
});
