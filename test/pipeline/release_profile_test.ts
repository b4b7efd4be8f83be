/**
 * The release profile reproduces the paper's own numbers from its bundle:
 * on the fixture bundle (test/fixtures/release/paper, written by
 * scripts/make_release_fixture.py with numpy/scipy, independently of the
 * kit), every released metric and McNemar p of the dense systems equals the
 * kit's at the released precision, every top 10 is identical, the oracle's
 * agreement table covers every released snippet, and `execret check` passes.
 * The base run and a regenerated benchmark make one site of both runs
 * (test/site/runs_site.ts): the base run's pages there show the paper's
 * numbers beside the kit's (test/site/release_site_page.ts), and every page
 * of both runs is checked at 20 Mbit/s. Then one changed embedding value,
 * cache outcome or released metric in a copy is flagged, and nothing else
 * is; the Leaderboard shown the changed metric's run's tables flags that
 * cell too (the base run's page of that site, in the site test's browser:
 * checkFlaggedCell). Each run and the site are made once for every check
 * that reads them.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import * as arrow from "apache-arrow";
import { sha256Hex } from "../../src/io/hash.ts";
import { launchChromium } from "../../src/site/browser.ts";
import { seedSnapshot } from "../../src/oracle/pool.ts";
import { rewriteNpz } from "../support/npz_fixture.ts";
import {
  alterReleasedExec1,
  checkFlaggedCell,
  checkReleaseSite,
} from "../site/release_site_page.ts";
import { buildReleaseRunsSite, checkRunsSite, type RunsSite } from "../site/runs_site.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = join(ROOT, "src/cli/main.ts");
const FIXTURE = join(ROOT, "test/fixtures/release/paper");
const tmp = await Deno.makeTempDir({ prefix: "execret-release-profile-" });
globalThis.addEventListener("unload", () => Deno.removeSync(tmp, { recursive: true }));
const cache = join(tmp, "cache");
// The Pyodide snapshot from the kit's own cache: it holds no result (making it is the pool's test's).
await seedSnapshot(cache);

// The release profile as shipped, with a smaller bootstrap.
const profile = join(tmp, "release-test.json");
const release = JSON.parse(await Deno.readTextFile(join(ROOT, "data/profiles/release.json")));
await Deno.writeTextFile(
  profile,
  JSON.stringify({ ...release, name: "release-test", bootstrap: 1000 }),
);

/** Run the profile on `bundle` into `out`, without its site (runsSite builds the one site). */
async function run(bundle: string, out: string): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-worker-options", "--cached-only", MAIN, "reproduce"]
      .concat(["--profile", profile, "--no-site"]),
    env: {
      EXECRET_OUT: out,
      EXECRET_CACHE: cache,
      EXECRET_RELEASE_MIRROR: bundle,
      EXECRET_PROGRESS_SECONDS: "5",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`reproduce exited ${code}:\n${text.slice(-3000)}`);
  return text;
}

function rows(out: string, table: string): Record<string, unknown>[] {
  const t = arrow.tableFromIPC(Deno.readFileSync(join(out, "tables", `${table}.arrow`)));
  return t.toArray().map((r) => r.toJSON() as Record<string, unknown>);
}

async function copyBundle(): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: tmp, prefix: "bundle-" });
  const walk = async (from: string) => {
    for await (const e of Deno.readDir(from)) {
      const src = join(from, e.name);
      const dst = join(dir, relative(FIXTURE, src));
      if (e.isDirectory) {
        await Deno.mkdir(dst, { recursive: true });
        await walk(src);
      } else await Deno.copyFile(src, dst);
    }
  };
  await walk(FIXTURE);
  return dir;
}

/** Rewrite a bundle copy's SHA256SUMS after an edit (the mirror is verified against it). */
async function resum(dir: string): Promise<void> {
  const sums = join(dir, "SHA256SUMS");
  const lines = (await Deno.readTextFile(sums)).split("\n").filter((l) => l.trim() !== "");
  const fixed = lines.map((l) => {
    const path = l.slice(66);
    return `${sha256Hex(Deno.readFileSync(join(dir, path)))}  ${path}`;
  });
  await Deno.writeTextFile(sums, fixed.join("\n") + "\n");
}

const flagged = (out: string) =>
  rows(out, "paper_comparison").filter((r) => r.flagged).map((r) =>
    [r.section, r.config, r.config_b, r.metric, r.k, r.quantity].join(" ")
  );

const base = join(tmp, "base");
/** The run of the fixture bundle itself, made once for every test that reads it. */
let baseRun: Promise<string> | undefined;
const runBase = () => baseRun ??= run(FIXTURE, base);

/**
 * The site of the base run and a regenerated benchmark, built once: the
 * release's pages are checked under its `/release/` and every page of both
 * runs through the paced link. The base run builds no site of its own: it
 * would be the same pages at the root, ~14 CPU-s of build (its own-site
 * build is the same code as every `make reproduce`'s, which the rerank and
 * site tests build).
 */
let runsSiteBuilt: Promise<RunsSite> | undefined;
const runsSite = () =>
  runsSiteBuilt ??= (async () => {
    await runBase();
    return await buildReleaseRunsSite(
      base,
      await Deno.makeTempDir({ dir: tmp, prefix: "runs-site-" }),
    );
  })();

/**
 * The three runs of an edited bundle copy, each made once, after the base
 * run: it fills the oracle cache they share, so none of them executes a
 * suite. Started together while Chromium checks the base run's site (see
 * {@link startEditedRuns}): they share no folder but the cache, which they
 * only read, and none builds a site.
 */
let metricRun: Promise<{ out: string; changed: number }> | undefined;
const runMetric = () =>
  metricRun ??= (async () => {
    await runBase();
    const dir = await copyBundle();
    // One unit of its last decimal, edited as text (re-signed in SHA256SUMS).
    const changed = await alterReleasedExec1(dir, "acme__embed-small.json");
    const out = join(tmp, "metric");
    await run(dir, out);
    return { out, changed };
  })();

let cacheOutcomeRun: Promise<{ out: string; corpusId: string }> | undefined;
const runCacheOutcome = () =>
  cacheOutcomeRun ??= (async () => {
    await runBase();
    const dir = await copyBundle();
    const file = join(dir, "data/execution_cache.jsonl");
    const corpus = (await Deno.readTextFile(join(dir, "data/corpus.jsonl")))
      .split("\n").filter((l) => l).map((l) => JSON.parse(l));
    const canonical = corpus.find((c) => c.label === "correct");
    const lines = (await Deno.readTextFile(file)).split("\n").filter((l) => l);
    const i = lines.findIndex((l) => JSON.parse(l).code_sha256 === sha256Hex(canonical.code));
    ok(i >= 0, "the first canonical is in the cache");
    const entry = JSON.parse(lines[i]);
    const list = entry.test_results ?? entry.outcomes;
    list[0] = "FAIL";
    if ("passes_all_tests" in entry) entry.passes_all_tests = false;
    lines[i] = JSON.stringify(entry);
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    await resum(dir);
    const out = join(tmp, "cache-outcome");
    await run(dir, out);
    return { out, corpusId: canonical.corpus_id };
  })();

let embeddingRun: Promise<string> | undefined;
const runEmbedding = () =>
  embeddingRun ??= (async () => {
    await runBase();
    const dir = await copyBundle();
    const npz = join(dir, "embeddings/acme__embed-small.npz");
    // One value of the first query's vector (the archive rewritten stored, which np.load reads too).
    const edited = await rewriteNpz(await Deno.readFile(npz), npz, (arrays) => {
      const queries = [...arrays.values()].find((a) =>
        a.data instanceof Float32Array && a.shape[0] < 50
      );
      ok(queries, `${npz}: no query matrix`);
      queries.data[0] = 100;
    });
    await Deno.writeFile(npz, edited);
    // The release's own summary of that matrix still holds (shape, finite, non-zero).
    await resum(dir);
    const out = join(tmp, "embedding");
    await run(dir, out);
    return out;
  })();

/**
 * Start the edited bundles' runs; a failure is for the tests that check them
 * to report. Resolves when every one has ended, however.
 */
function startEditedRuns(): Promise<unknown> {
  return Promise.allSettled([
    runMetric(),
    runCacheOutcome(),
    runEmbedding(),
  ]);
}

Deno.test({
  name: "L12: the release profile regenerates every released number of the dense systems",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const log = await runBase();
    ok(log.includes("execret check: all 8 checks pass"), log.slice(-1500));
    const comparison = rows(base, "paper_comparison");
    const dense = comparison.filter((r) => String(r.config).startsWith("paper-"));
    ok(dense.length > 300, `${dense.length} released numbers of dense systems compared`);
    assertEquals(dense.filter((r) => r.status !== "equal"), []);
    // The released metrics and McNemar p of the dense systems, at their precision.
    const points = dense.filter((r) =>
      r.section === "metric" || (r.section === "pairwise" && r.quantity === "p_mcnemar")
    );
    ok(points.some((r) => r.quantity === "p_mcnemar"), "McNemar p compared");
    ok(points.every((r) => r.equal === true));
    // Each exec@k pair's counts, rates, delta, p and interval beside the kit's (tests/README.md).
    const execPair = dense.filter((r) => r.section === "pairwise" && r.metric === "exec");
    assertEquals([...new Set(execPair.map((r) => r.quantity))].sort(), [
      "a_only",
      "a_rate",
      "b_only",
      "b_rate",
      "both",
      "ci_high",
      "ci_low",
      "delta",
      "neither",
      "p_mcnemar",
    ]);
    // execution_precision@k and ndcg@k carry their interval only, and it is compared.
    assertEquals(
      [
        ...new Set(
          dense.filter((r) => r.section === "pairwise" && r.metric !== "exec").map((r) =>
            r.quantity
          ),
        ),
      ].sort(),
      ["ci_high", "ci_low"],
    );
    // BM25 is the kit's own, shown beside the released one and never flagged.
    ok(comparison.some((r) => r.config === "bm25" && r.status === "kit_own"));
    assertEquals(flagged(base), []);
    // Every released dense system's top 10 is the kit's, query by query.
    const agreement = rows(base, "ranking_agreement").filter((r) => !r.kit_own);
    assertEquals(agreement.length, 3);
    for (const a of agreement) assertEquals(a.share_identical, 1, String(a.config));
    // The oracle re-executed every released own-task snippet, and agrees.
    const queries = (await Deno.readTextFile(join(FIXTURE, "data/queries.jsonl")))
      .split("\n").filter((l) => l).map((l) => JSON.parse(l));
    const own = queries.flatMap((q) => [
      ...q.correct_corpus_ids,
      ...q.paired_distractor_corpus_ids,
    ]);
    const oracle = rows(base, "oracle_agreement");
    assertEquals(oracle.map((r) => r.corpus_id).sort(), [...own].sort());
    ok(oracle.every((r) => r.agree === true));
    assertEquals(rows(base, "oracle_disagreements"), []);
    // What the reader noticed is the documented empty lists only, one row per results file.
    const findings = rows(base, "release_findings");
    assertEquals(findings.map((f) => [f.kind, f.documented]), [
      ["not_in_cache", true],
      ["not_in_cache", true],
      ["not_in_cache", true],
      ["not_in_cache", true],
    ]);
  },
});

Deno.test({
  name: "R6: the pairs the release left without outcomes are run by the kit, apart",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await runBase();
    const empty = new Map<string, number>();
    for await (const e of Deno.readDir(join(FIXTURE, "results"))) {
      if (!e.name.endsWith(".json") || !/__|BM25/.test(e.name)) continue;
      const file = JSON.parse(await Deno.readTextFile(join(FIXTURE, "results", e.name)));
      for (const pq of file.per_query) {
        for (const r of pq.top_results) {
          if (r.test_results.length > 0) continue;
          const key = `release/${pq.query_id} ${r.corpus_id}`;
          empty.set(key, (empty.get(key) ?? 0) + 1);
        }
      }
    }
    ok(empty.size > 0, "the fixture has top-10 entries outside the execution cache");
    const ran = rows(base, "oracle_not_in_release");
    assertEquals(
      ran.map((r) => [`${r.query_id} ${r.corpus_id}`, r.listed_by]),
      [...empty.entries()].sort(([a], [b]) => a < b ? -1 : 1),
    );
    // Each is another query's snippet, failing this query's tests when the kit runs it.
    ok(ran.every((r) => r.kit_pass === false && Number(r.tests) > 0));
    // The oracle's counts (what the Release audit page shows) say the same.
    const gate = (name: string) =>
      rows(base, "validation").find((r) => r.gate === name)?.count ?? 0;
    assertEquals(
      [
        gate("not_in_release_pairs"),
        gate("not_in_release_listings"),
        gate("not_in_release_kit_pass"),
      ],
      [ran.length, [...empty.values()].reduce((a, b) => a + b, 0), 0],
    );
    // Counted apart: no disagreement, and the own pool's agreement is whole.
    assertEquals(rows(base, "oracle_disagreements"), []);
    // Every one of them executed once, beside the 119 own pairs (the fixture's codes are distinct).
    const executed = new Set(
      rows(base, "executions").map((r) => `${r.code_sha256}/${r.tests_sha256}`),
    );
    assertEquals(executed.size, 119 + ran.length);
  },
});

Deno.test({
  name: "release run: the site shows the paper's numbers beside the kit's",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await runBase();
    // The edited bundles' runs go on while the site is built and Chromium
    // checks it, instead of one after another. They end within this test,
    // even when it runs alone or fails: no run outlives its test.
    const edited = startEditedRuns();
    const { site } = await runsSite().catch(async (e) => {
      await edited;
      throw e;
    });
    // One browser for the base run's pages and the changed metric's
    // Leaderboard (a launch costs ~3 CPU-s), and one context: in one
    // process Chromium renders pages of a single context (launchChromium).
    const browser = await launchChromium();
    try {
      // 1280 px wide: the pages' tables and charts are checked for cut text at that width.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await checkReleaseSite(t, base, context, site, "release");
      await t.step(
        "the Leaderboard shown the changed metric's tables flags that cell",
        async () => {
          const { out, changed } = await runMetric();
          await checkFlaggedCell(context, site, "release", out, changed);
        },
      );
    } finally {
      await browser.close();
      await edited;
    }
  },
});

Deno.test({
  name: "one site of both runs: every page of each loads its data within its budget at 20 Mbit/s",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await checkRunsSite(await runsSite());
  },
});

Deno.test({
  name: "one changed released metric is flagged, and nothing else",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { out } = await runMetric();
    assertEquals(flagged(out), ["metric paper-embed-small  exec 1 value"]);
    // That the Leaderboard, shown this run's tables, flags exactly that cell
    // is checked in the site test above, in its browser.
  },
});

Deno.test({
  name: "one changed outcome in the release's execution cache is one disagreement",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { out, corpusId } = await runCacheOutcome();
    assertEquals(
      rows(out, "oracle_disagreements").map((r) => [r.corpus_id, r.test_index, r.released, r.kit]),
      [[corpusId, 0, "FAIL", "pass"]],
    );
    assertEquals(
      rows(out, "oracle_agreement").filter((r) => !r.agree).map((r) => r.corpus_id),
      [corpusId],
    );
  },
});

Deno.test({
  name: "one changed embedding value changes that system's ranking, and nothing else's",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = await runEmbedding();
    const differences = rows(out, "ranking_differences").filter((r) => r.config !== "bm25");
    assertEquals(differences.map((r) => [r.config, r.query_id]), [[
      "paper-embed-small",
      "release/q_0001",
    ]]);
    for (const f of flagged(out)) ok(f.includes("paper-embed-small"), f);
  },
});
