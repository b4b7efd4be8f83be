/**
 * Bad and hostile leaderboard entries: each is refused with one line naming
 * its file and line or field, and the board of the entries beside it is
 * exactly what it is without it. Runs the leaderboard stage itself over
 * the fixture run, with two good entries beside each hostile one.
 */
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { readTableRows } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { readBenchmark } from "../score/benchmark.ts";
import { BOARD_ENTRIES } from "../tables/board.ts";
import { REJECTS } from "../tables/schema.ts";
import { runBoardStage } from "./stage.ts";
import { invocationFor } from "../embed/invocations.ts";
import { MAX_FILE_BYTES } from "./run_file.ts";
import { makeFixtureRun } from "../../test/fixtures/run/make_fixture_run.ts";
import { generatedMeta, generatedRunLines, gzip, writeEntry } from "../cli/bench/board_entries.ts";

const BENCHMARK = "fixture";
const out = await Deno.makeTempDir({ prefix: "execret_board_" });
await makeFixtureRun(out);

/** Run `body` with EXECRET_OUT at the fixture run. */
async function inRun<T>(body: () => Promise<T>): Promise<T> {
  const previous = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", out);
  try {
    return await body();
  } finally {
    if (previous === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", previous);
  }
}

const bench = await inRun(() => readBenchmark());
const goodRun = (name: string, seed: number, decimals: number | null = null) =>
  generatedRunLines(bench, { name, decimals, own: true }, seed).join("\n") + "\n";

/** A leaderboard folder with the two good entries (one with ties), and `extra` written into it. */
async function board(extra?: (root: string) => Promise<unknown>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "execret_lb_" });
  await writeEntry(
    root,
    BENCHMARK,
    "good-a",
    goodRun("good-a", 1),
    generatedMeta(bench, BENCHMARK, "good-a"),
  );
  await writeEntry(
    root,
    BENCHMARK,
    "good-b",
    goodRun("good-b", 2, 2),
    generatedMeta(bench, BENCHMARK, "good-b"),
  );
  await extra?.(root);
  return root;
}

/**
 * The stage over `root`: the entries on the board and the refusals. The
 * fixture run's scores are made up, so an entry with one of its configs'
 * models would fail a spot check that runs the real model: `offline` says
 * whether such models run here.
 */
async function stage(root: string, offline = true) {
  return await inRun(async () => {
    const counts = await runBoardStage({
      benchmark: BENCHMARK,
      ks: [1, 3, 5, 10],
      root,
      quiet: true,
      ...(offline ? {} : { reachable: () => false }),
    });
    const entries = await readTableRows(tablePath("board_entries"), BOARD_ENTRIES);
    const rejects = await readTableRows(tablePath("rejects_leaderboard"), REJECTS);
    const perQuery = await Deno.readFile(tablePath("board_per_query"));
    return { counts, entries, rejects, perQuery };
  });
}

const baseline = await stage(await board());

Deno.test("leaderboard: the good entries are on the board, ties and all", () => {
  deepStrictEqual(baseline.counts, { verified: 2, refused: 0 });
  deepStrictEqual(baseline.entries.map((e) => [e.config, e.level, e.own_scored]), [
    ["good-a", "scored", true],
    ["good-b", "scored", true],
  ]);
});

/** One hostile entry: what to write, and the refusal expected. */
interface Hostile {
  name: string;
  write(root: string): Promise<unknown>;
  refusal: RegExp;
}

const meta = (name: string, more: Record<string, unknown> = {}) =>
  generatedMeta(bench, BENCHMARK, name, more);
const lines = (name: string) => goodRun(name, 7).split("\n").filter((l) => l !== "");
const q0 = bench.queries[0].query_id;

const HOSTILE: Hostile[] = [
  {
    name: "malformed gzip",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        Uint8Array.of(0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7),
        meta("bad"),
      ),
    refusal: /bad\/run\.trec\.gz: not a whole gzip file/,
  },
  {
    name: "truncated gzip",
    async write(root) {
      const whole = await gzip(lines("bad").join("\n") + "\n");
      return writeEntry(root, BENCHMARK, "bad", whole.subarray(0, whole.length >> 1), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz: not a whole gzip file/,
  },
  {
    name: "a run for another pool",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        lines("bad").join("\n"),
        meta("bad", { pool_digest: "sha256:" + "ab".repeat(32) }),
      ),
    refusal:
      /bad\/meta\.json: pool_digest: sha256:abab\S* is not the kit's fixture pool .*another pool/,
  },
  {
    name: "missing queries",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        lines("bad").filter((l) => !l.startsWith(`${q0} `)).join("\n"),
        meta("bad"),
      ),
    refusal: new RegExp(
      `bad/run\\.trec\\.gz: 1 of the benchmark's ${bench.queries.length} queries are missing \\(${q0}\\)`,
    ),
  },
  {
    name: "a duplicate doc id",
    write(root) {
      const l = lines("bad");
      const doc = l[0].split(" ")[2];
      l[1] = l[1].split(" ").map((f, i) => (i === 2 ? doc : f)).join(" ");
      return writeEntry(root, BENCHMARK, "bad", l.join("\n"), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz:2: doc \S+ is listed twice for query \S+ \(also line 1\)/,
  },
  {
    name: "an unknown doc id",
    write(root) {
      const l = lines("bad");
      l[2] = l[2].split(" ").map((f, i) => (i === 2 ? "nowhere#c" : f)).join(" ");
      return writeEntry(root, BENCHMARK, "bad", l.join("\n"), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz:3: doc nowhere#c is not in the benchmark's pool/,
  },
  {
    name: "a NaN score",
    write(root) {
      const l = lines("bad");
      l[4] = l[4].split(" ").map((f, i) => (i === 4 ? "NaN" : f)).join(" ");
      return writeEntry(root, BENCHMARK, "bad", l.join("\n"), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz:5: score "NaN" is not a finite number/,
  },
  {
    name: "an infinite score",
    write(root) {
      const l = lines("bad");
      l[0] = l[0].split(" ").map((f, i) => (i === 4 ? "1e999" : f)).join(" ");
      return writeEntry(root, BENCHMARK, "bad", l.join("\n"), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz:1: score "1e999" is not a finite number/,
  },
  {
    name: "a file over the size limit",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        new Uint8Array(MAX_FILE_BYTES + 1).fill(0x20),
        meta("bad"),
      ),
    refusal: /bad\/run\.trec\.gz: 10485761 bytes, over the limit of 10485760 \(10 MB\)/,
  },
  {
    name: "a claimed exec@1 its lists do not give",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        lines("bad").join("\n"),
        meta("bad", { claims: { "exec@1": "0.999" } }),
      ),
    refusal: /bad\/meta\.json: claims\.exec@1: 0\.999, but the run's lists give 0\.\d{6}/,
  },
  {
    name: "a run file named with ../",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        lines("bad").join("\n"),
        meta("bad", { run: "../good-a/run.trec.gz" }),
      ),
    refusal: /bad\/meta\.json: run: must be a file name in the entry's folder/,
  },
  {
    name: "a model named with ../",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        lines("bad").join("\n"),
        meta("bad", { model: "../../etc/passwd" }),
      ),
    refusal: /bad\/meta\.json: model: may not hold "\.\."/,
  },
  {
    name: "HTML in a metadata field",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bad",
        lines("bad").join("\n"),
        meta("bad", { submitted_by: "<b>me</b>" }),
      ),
    refusal: /bad\/meta\.json: submitted_by: holds markup/,
  },
  {
    name: "script in a nested metadata field",
    write(root) {
      const m = meta("bad");
      (m.invocation as Record<string, unknown>).notes = "see <script>alert(1)</script>";
      return writeEntry(root, BENCHMARK, "bad", lines("bad").join("\n"), m);
    },
    refusal: /bad\/meta\.json: invocation\.notes: holds markup/,
  },
  {
    name: "two entries for one model and revision",
    write: (root) =>
      writeEntry(
        root,
        BENCHMARK,
        "good-c",
        lines("good-c").join("\n"),
        meta("good-c", { model: "gen/good-a" }),
      ),
    refusal:
      /good-c\/meta\.json: model: gen\/good-a at revision 1 is already entered by \S*good-a\/meta\.json/,
  },
  {
    name: "an entry named as another config of the run",
    write: (root) => writeEntry(root, BENCHMARK, "bm25", lines("bm25").join("\n"), meta("bm25")),
    refusal: /bm25: the run already has another config named bm25; rename the entry's folder/,
  },
  {
    name: "ranks with a gap",
    write(root) {
      const l = lines("bad");
      l[3] = l[3].split(" ").map((f, i) => (i === 3 ? "5" : f)).join(" ");
      return writeEntry(root, BENCHMARK, "bad", l.join("\n"), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz:4: rank 5 leaves a gap after rank 3/,
  },
  {
    name: "scores that increase down the ranks",
    write(root) {
      const l = lines("bad");
      l[1] = l[1].split(" ").map((f, i) => (i === 4 ? "99" : f)).join(" ");
      return writeEntry(root, BENCHMARK, "bad", l.join("\n"), meta("bad"));
    },
    refusal: /bad\/run\.trec\.gz:2: score 99 is above the score of the rank before it/,
  },
];

for (const h of HOSTILE) {
  Deno.test(`leaderboard: ${h.name} is refused in one line, the rest of the board unchanged`, async () => {
    const got = await stage(await board(h.write));
    strictEqual(got.rejects.length, 1, JSON.stringify(got.rejects));
    const reason = got.rejects[0].reason;
    ok(!reason.includes("\n"), `one line: ${reason}`);
    match(reason, h.refusal);
    deepStrictEqual(got.entries, baseline.entries);
    deepStrictEqual(got.perQuery, baseline.perQuery);
  });
}

Deno.test("leaderboard: a refused entry's folder is left as it was", async () => {
  const root = await board(HOSTILE[0].write);
  const before = await Deno.readFile(join(root, BENCHMARK, "bad", "run.trec.gz"));
  await stage(root);
  deepStrictEqual(await Deno.readFile(join(root, BENCHMARK, "bad", "run.trec.gz")), before);
});

Deno.test("leaderboard: the run's own config entered as it is verifies, and stays on the board once", async () => {
  const inv = await invocationFor("bm25");
  const got = await stage(
    await board((root) =>
      writeEntry(
        root,
        BENCHMARK,
        "bm25",
        lines("bm25").join("\n"),
        meta("bm25", { invocation: inv }),
      )
    ),
    // Lists made up like the fixture's own: not re-run (made-up lists fail a real re-run).
    false,
  );
  deepStrictEqual(got.rejects, []);
  deepStrictEqual(got.entries, baseline.entries);
  deepStrictEqual(got.perQuery, baseline.perQuery);
});
