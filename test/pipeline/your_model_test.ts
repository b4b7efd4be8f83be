/**
 * A user's own model against the paper's systems, in one command: an
 * OpenAI-compatible server on loopback serves deterministic vectors, a user
 * file declares it (`--invocations`), `--config` adds it to a profile, and
 * the run writes `out/results/<config>.json` in the release's per-model
 * format. A Python helper recomputes that file from the served vectors
 * without the kit's code (test/pipeline/_check_results_file.py), the kit's
 * own release reader reads it beside the fixture bundle's files, and the
 * run's tables hold the model's McNemar tests and rank intervals. Then what
 * a user gets wrong (a clashing name, a broken file, a server that is not
 * there, a missing key, a quota used up) is one line each, and the folder
 * keeps its last complete run.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../../src/io/hash.ts";
import { readBundle } from "../../src/release/read_bundle.ts";
import { seedSnapshot } from "../../src/oracle/pool.ts";
import { ended, execret, finish } from "./_reproduce.ts";
import { openaiServer, userInvocations } from "./_openai_server.ts";
import { builtinTaskLines } from "../support/builtin_tasks.ts";

const DIMS = 16;
const BUNDLE = new URL("../fixtures/release/paper/", import.meta.url).pathname;
const CHECKER = new URL("./_check_results_file.py", import.meta.url).pathname;

const root = await Deno.makeTempDir({ prefix: "execret-your-model-" });
const server = openaiServer(DIMS);
const mine = join(root, "mine.json");
await Deno.writeTextFile(mine, JSON.stringify(userInvocations("my-model", server.url, DIMS)));

/** Run the results checker (Python, no kit code) on a results file and its pool. */
async function checkResultsFile(results: string, pool: unknown): Promise<Record<string, number>> {
  const poolPath = join(root, `pool-${crypto.randomUUID()}.json`);
  await Deno.writeTextFile(poolPath, JSON.stringify(pool));
  const { code, stdout, stderr } = await new Deno.Command("python3", {
    args: [CHECKER, results, poolPath, String(DIMS)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assertEquals(code, 0, `the results file does not recompute: ${text}`);
  return JSON.parse(text);
}

/** Rows of a read-only SQL query over the run in `out`. */
async function sql<T = Record<string, unknown>>(out: string, query: string): Promise<T[]> {
  // stdout only: stderr carries progress lines, which a slow (loaded) run prints.
  const { code, stdout, stderr } = await execret(out, ["sql", query, "--format", "json"]).output();
  const text = new TextDecoder().decode(stdout);
  assertEquals(code, 0, text + new TextDecoder().decode(stderr));
  return JSON.parse(text);
}

/** The run's McNemar rows and rank interval of `config`, checked against every other config. */
async function checkStanding(out: string, config: string): Promise<void> {
  const configs = (await sql<{ config: string }>(
    out,
    "SELECT DISTINCT config FROM metrics ORDER BY config",
  )).map((r) => r.config);
  ok(configs.includes(config), `${config} in ${configs}`);
  const pairs = await sql<{ other: string; p: number | null }>(
    out,
    `SELECT CASE WHEN config_a = '${config}' THEN config_b ELSE config_a END AS other,
            p_mcnemar AS p
     FROM pairwise WHERE metric = 'exec' AND k = 1
       AND (config_a = '${config}' OR config_b = '${config}') ORDER BY other`,
  );
  assertEquals(pairs.map((p) => p.other), configs.filter((c) => c !== config));
  ok(pairs.every((p) => typeof p.p === "number"), "an exact McNemar p against every config");
  const [rank] = await sql<Record<string, number>>(
    out,
    `SELECT rank, rank_ci_low, rank_ci_high, n_configs FROM model_ranks
     WHERE config = '${config}' AND metric = 'exec' AND k = 1`,
  );
  ok(rank, "a rank-interval row");
  assertEquals(rank.n_configs, configs.length);
  ok(rank.rank_ci_low <= rank.rank && rank.rank <= rank.rank_ci_high, JSON.stringify(rank));
  // The manifest names it as the user's, with its file: the "Your models" page reads that.
  const manifest = JSON.parse(await Deno.readTextFile(join(out, "manifest.json")));
  assertEquals(manifest.user_configs, { [config]: mine });
}

/** sha256 of every file of a run's outputs, stamps, manifest and settings. */
function runState(out: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(out, rel))];
    } catch {
      return;
    }
    for (const e of entries) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory) walk(path);
      else state[path] = sha256Hex(Deno.readFileSync(join(out, path)));
    }
  };
  for (const dir of ["tables", "parquet", "embeddings", "results", "stamps"]) walk(dir);
  for (const f of ["manifest.json", "run.json"]) {
    state[f] = sha256Hex(Deno.readFileSync(join(out, f)));
  }
  return state;
}

/**
 * The README's three leaderboard steps after a run with the user's model:
 * `leaderboard add my-model` writes the entry (into a leaderboard folder of
 * the test's), `leaderboard verify` in the same run says it is the run's own
 * config, and a run of the same profile without the model (as the Pages
 * workflow builds the board, with no user invocation file) puts the entry
 * on its board, ranked with an interval, and on the Leaderboard page's data.
 * There it is `scored`, not `re-embedded`: the board a run builds re-runs
 * only models that run here offline (stage.ts), so that it is the same on
 * every machine whatever it can reach; `verify` re-ran this one.
 */
async function enterOnBoard(
  out: string,
  env: Record<string, string>,
  again: string[],
): Promise<void> {
  const board = join(root, `board-${crypto.randomUUID()}`);
  const withBoard = { ...env, EXECRET_LEADERBOARD: board };
  const added = await finish(
    execret(out, ["leaderboard", "add", "my-model", "--revision", "1"], withBoard),
  );
  match(added, /wrote .*my-model\/run\.trec\.gz/);
  const verified = await finish(execret(out, ["leaderboard", "verify"], withBoard));
  match(verified, /ok \S*my-model: re-embedded .*the run's own config my-model/);
  // The published board: the same profile, without the user's model.
  await finish(execret(out, again, withBoard));
  const [row] = await sql<Record<string, unknown>>(
    out,
    "SELECT kind, level, rank, rank_ci_low, rank_ci_high, conservative_rank FROM leaderboard WHERE config = 'my-model'",
  );
  ok(row, "the entry is on the board");
  assertEquals([row.kind, row.level], ["entry", "scored"]);
  ok(
    (row.rank_ci_low as number) <= (row.rank as number) &&
      (row.rank as number) <= (row.rank_ci_high as number),
  );
  const page = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--cached-only",
      new URL("../../src/site/site_data.ts", import.meta.url).pathname,
      "page_leaderboard.json",
    ],
    env: { EXECRET_OUT: out, ...withBoard },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(page.code, 0, new TextDecoder().decode(page.stderr));
  const text = new TextDecoder().decode(page.stdout);
  // The board's rows (columns config, kind, ...) as the page reads them.
  const onPage = Object.entries(JSON.parse(text)).find(([q]) => q.includes("FROM leaderboard l"));
  ok(onPage, "the Leaderboard page's data has the board");
  const rows = Object.values(onPage[1] as Record<string, { rows: unknown[][] }>)[0].rows;
  ok(
    rows.some((r) => r[0] === "my-model" && r[1] === "entry"),
    "the board on the page holds the entry",
  );
}

const jsonl = (path: string) =>
  Deno.readTextFileSync(path).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

Deno.test({
  name: "the release profile with a user's model: its results file recomputes, beside the paper's",
  sanitizeResources: false,
  async fn() {
    const out = join(root, "release");
    await seedSnapshot(join(out, "cache"));
    const args = ["reproduce", "--profile", "release", "--no-site"]
      .concat(["--invocations", mine, "--config", "my-model"]);
    await finish(execret(out, args, { EXECRET_RELEASE_MIRROR: BUNDLE }));
    const results = join(out, "results", "my-model.json");
    const pool = {
      queries: jsonl(join(BUNDLE, "data", "queries.jsonl")).map((q) => ({
        query_id: q.query_id,
        query: q.query,
        correct_corpus_ids: q.correct_corpus_ids,
      })),
      corpus: jsonl(join(BUNDLE, "data", "corpus.jsonl")).map((c) => ({
        corpus_id: c.corpus_id,
        code: c.code,
        label: c.label,
        bug_type: c.bug_type ?? "",
      })),
      ks: [1, 3, 5, 10],
    };
    const summary = await checkResultsFile(results, pool);
    assertEquals(summary.top_results, pool.queries.length * 10);
    await checkStanding(out, "my-model");
    // Every paper system has a result file of its own too.
    const files = [...Deno.readDirSync(join(out, "results"))].map((e) => e.name).sort();
    ok(files.some((f) => f.startsWith("paper-")), files.join(", "));

    // Dropped into a copy of the release, the kit's reader of the release reads it
    // as the release's own: no problem, and nothing noticed but what is documented.
    const copy = join(root, "bundle-copy");
    const cp = await new Deno.Command("cp", { args: ["-r", BUNDLE, copy] }).output();
    assertEquals(cp.code, 0);
    await Deno.copyFile(results, join(copy, "results", "my-model.json"));
    const bundle = await readBundle(copy);
    ok(bundle.runs.some((r) => r.model === "my-model"), "the reader read the new file");
    const mineFindings = bundle.findings.filter((f) => f.file.endsWith("my-model.json"));
    assertEquals(mineFindings.filter((f) => !f.documented), [], "only documented findings");
    // Last: the published board's run has no my-model config, so no results file for it.
    await enterOnBoard(out, { EXECRET_RELEASE_MIRROR: BUNDLE }, [
      "reproduce",
      "--profile",
      "release",
      "--no-site",
    ]);
  },
});

Deno.test({
  name: "the default profile with a user's model: the same file, tests and ranks",
  sanitizeResources: false,
  async fn() {
    const out = join(root, "default");
    await seedSnapshot(join(out, "cache"));
    const tasks = join(root, "tasks.jsonl");
    // Eight tasks none of whose mutants loops: no test waits out the default 1,000 ms.
    const lines = await builtinTaskLines({ loops: false });
    await Deno.writeTextFile(tasks, lines.slice(0, 8).join("\n") + "\n");
    const args = ["reproduce", "--profile", "default", "--no-site", "--source", `jsonl:${tasks}`]
      .concat(["--invocations", mine, "--config", "my-model"]);
    await finish(execret(out, args));
    const queries = await sql<{ query_id: string; query: string; correct_ids: string[] }>(
      out,
      "SELECT query_id, query, correct_ids FROM queries ORDER BY query_id",
    );
    const corpus = await sql<{ corpus_id: string; code: string; label: string; bug_type: string }>(
      out,
      "SELECT corpus_id, code, label, coalesce(bug_type, '') AS bug_type FROM corpus",
    );
    await checkResultsFile(join(out, "results", "my-model.json"), {
      queries: queries.map((q) => ({
        query_id: q.query_id,
        query: q.query,
        correct_corpus_ids: q.correct_ids,
      })),
      corpus,
      ks: [1, 3, 5, 10],
    });
    await checkStanding(out, "my-model");
    await enterOnBoard(out, {}, [
      "reproduce",
      "--profile",
      "default",
      "--no-site",
      "--source",
      `jsonl:${tasks}`,
    ]);
  },
});

Deno.test({
  name: "what a user gets wrong is one line naming the file or config; out/ keeps its run",
  sanitizeResources: false,
  async fn(t) {
    const out = join(root, "default");
    const before = runState(out);
    const tasks = join(root, "tasks.jsonl");
    const run = async (invocations: string, pattern: RegExp, env: Record<string, string> = {}) => {
      const args = ["reproduce", "--profile", "default", "--no-site", "--source", `jsonl:${tasks}`]
        .concat(["--invocations", invocations, "--config", "my-model"]);
      const r = await ended(execret(out, args, env));
      assertEquals(r.code, 1, r.text.slice(-600));
      ok(!/^\s+at /m.test(r.text), `a stack trace:\n${r.text.slice(-1500)}`);
      const last = r.text.trim().split("\n").pop()!;
      match(last, /^execret reproduce: /);
      match(last, pattern);
      assertEquals(runState(out), before, `out/ changed after: ${last}`);
      return last;
    };
    const file = async (name: string, content: unknown) => {
      const path = join(root, name);
      await Deno.writeTextFile(
        path,
        typeof content === "string" ? content : JSON.stringify(content),
      );
      return path;
    };
    await t.step("a name the built-in table has", async () => {
      const clash = await file("clash.json", userInvocations("use", server.url, DIMS));
      await run(clash, /clash\.json: config "use" is also in .*data\/invocations\.json/);
    });
    await t.step("a file that is not valid", async () => {
      await run(await file("broken.json", '{"invocations": ['), /broken\.json: not valid JSON/);
      const bad = await file("bad.json", {
        invocations: [{ name: "my-model", provider: "openai" }],
      });
      await run(bad, /bad\.json: entry 0 \(my-model\): missing "model"/);
    });
    await t.step("a server that is not there", async () => {
      const gone = openaiServer(DIMS);
      await gone.close();
      // Another model id: the vectors of the one served above are in the cache, rightly.
      const path = await file(
        "gone.json",
        userInvocations("my-model", gone.url, DIMS, { model: "gone-model" }),
      );
      await run(path, /my-model: gave up after \d+ attempts: connection failed/);
    });
    await t.step("a missing key", async () => {
      const keyed = userInvocations("my-model", server.url, DIMS, {
        model: "keyed-model",
        key_env: "MY_MODEL_KEY",
        key_required: true,
      });
      await run(await file("keyed.json", keyed), /my-model needs .*MY_MODEL_KEY/);
    });
    await t.step("a quota used up stops at once", async () => {
      const quota = openaiServer(DIMS, { kind: "quota" });
      try {
        const path = await file(
          "quota.json",
          userInvocations("my-model", quota.url, DIMS, { model: "quota-model" }),
        );
        await run(path, /my-model: openai: quota or billing limit reached \(insufficient_quota\)/);
        ok(quota.requests() <= 4, `${quota.requests()} requests: it did not retry`);
      } finally {
        await quota.close();
      }
    });
  },
});

Deno.test({
  name: "(teardown) the loopback server and the temp folder",
  sanitizeResources: false,
  async fn() {
    await server.close();
    await Deno.remove(root, { recursive: true });
  },
});
