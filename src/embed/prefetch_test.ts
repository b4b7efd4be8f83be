import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { readRows, readTable, withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, QUERIES, TASKS } from "../tables/schema.ts";
import { runEmbedStage } from "./embed_stage.ts";
import { prefetchDir, prefetchQueries } from "./prefetch.ts";
import { TINY_INVOCATION, TINY_MODELS } from "../../test/support/tiny_model.ts";
import { decodeSegment } from "./vector_cache.ts";

const QUERY_TEXTS = [
  "add",
  "sum two ints",
  "reverse a string",
  "count the vowels of s",
  "is n a prime number or not",
  "the longest common prefix of a list",
  "merge two sorted lists into one sorted list",
];
const CODES = [
  "def f(a, b):\n    return a + b",
  "def f(a, b):\n    return a - b",
  "def r(s):\n    return s[::-1]",
];
const env = { EXECRET_MODELS: TINY_MODELS };

/**
 * A fresh out folder holding the tasks table (every query) and the oracle's
 * queries and corpus tables, keeping the tasks whose index is not in `dropped`.
 */
async function setup(dropped: number[]): Promise<{ out: string; table: string }> {
  const out = await Deno.makeTempDir({ prefix: "execret-prefetch-" });
  Deno.env.set("EXECRET_OUT", out);
  Deno.env.delete("EXECRET_CACHE");
  const tasks = QUERY_TEXTS.map((query, i) => ({
    task_id: `t/${i}`,
    source: "builtin",
    source_id: String(i),
    domain: "strings",
    domain_inferred: false,
    query,
    entry_point: "f",
    canonical: CODES[i % CODES.length],
    setup: "",
    tests: [],
    extra_tests: [],
    locator: `tasks.jsonl:${i + 1}`,
  }));
  await writeTable("tasks", withNulls(TASKS, tasks), TASKS, { parquet: false });
  const kept = tasks.filter((_, i) => !dropped.includes(i));
  await writeTable(
    "queries",
    withNulls(
      QUERIES,
      kept.map((t) => ({ query_id: t.task_id, task_id: t.task_id, query: t.query })),
    ),
    QUERIES,
    { parquet: false },
  );
  await writeTable(
    "corpus",
    withNulls(
      CORPUS,
      kept.map((t) => ({ corpus_id: `${t.task_id}#c`, task_id: t.task_id, code: t.canonical })),
    ),
    CORPUS,
    { parquet: false },
  );
  const table = join(out, "invocations.json");
  await Deno.writeTextFile(table, JSON.stringify({ invocations: [TINY_INVOCATION] }));
  return { out, table };
}

/** The embedding file's rows (float32 bits) and metadata, all but created_at. */
async function fileContent(out: string): Promise<unknown> {
  const path = join(out, "embeddings", "tiny.arrow");
  const meta = Object.fromEntries((await readTable(path)).schema.metadata);
  delete meta.created_at;
  const rows = await readRows<{ id: string; role: string; vector: Float32Array }>(path);
  return {
    meta,
    rows: rows.map((r) => [r.role, r.id, [...new Uint32Array(new Float32Array(r.vector).buffer)]]),
  };
}

/** The embed stage on the tiny config, in-process; its result for that config. */
async function embedTiny(table: string) {
  const { configs: [result] } = await runEmbedStage({
    configs: ["tiny"],
    quiet: true,
    invocationsPath: table,
    provider: { env },
    workers: 1,
  });
  return result;
}

/** Embed with or without a prefetch first; the file's content and the stage's counts. */
async function run(dropped: number[], prefetch: boolean) {
  const { out, table } = await setup(dropped);
  let fetched = 0;
  if (prefetch) {
    const done = await prefetchQueries({
      configs: ["tiny"],
      invocationsPath: table,
      provider: { env },
    });
    fetched = done.tiny;
  }
  const result = await embedTiny(table);
  const content = await fileContent(out);
  return { out, fetched, result, content };
}

Deno.test("prefetched query batches are adopted and the file equals a run without them", async () => {
  const plain = await run([], false);
  const ahead = await run([], true);
  try {
    strictEqual(ahead.fetched, 7, "every task's query embedded ahead");
    strictEqual(ahead.result.prefetched, 7, "the stage adopted them all");
    strictEqual(ahead.result.embedded, 3, "and embedded only the canonicals");
    strictEqual(plain.result.prefetched, 0);
    strictEqual(plain.result.embedded, 10);
    assertEquals(ahead.content, plain.content);
  } finally {
    await Deno.remove(plain.out, { recursive: true });
    await Deno.remove(ahead.out, { recursive: true });
  }
});

Deno.test("a task the oracle drops: only batches before it are adopted, the file is unchanged", async () => {
  // Batches of 2 in length order: [0,1] [2,3] [4,5] [6]. Dropping task 3 keeps
  // [0,1]; the stage's later batches ([2,4] [5,6]) were never prefetched.
  const plain = await run([3], false);
  const ahead = await run([3], true);
  try {
    strictEqual(ahead.fetched, 7);
    strictEqual(ahead.result.prefetched, 2);
    strictEqual(ahead.result.embedded, 4 + 3);
    assertEquals(ahead.content, plain.content);
  } finally {
    await Deno.remove(plain.out, { recursive: true });
    await Deno.remove(ahead.out, { recursive: true });
  }
});

Deno.test("a damaged or foreign prefetched segment is passed over, not adopted", async () => {
  const plain = await run([], false);
  const { out, table } = await setup([]);
  try {
    await prefetchQueries({ configs: ["tiny"], invocationsPath: table, provider: { env } });
    const dir = prefetchDir("tiny");
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    strictEqual(names.length, 4);
    // One cut short (as a write stopped midway would be, were writes not atomic),
    // one holding another batch's vectors under its name.
    const sizes = names.map((n) => decodeSegment(Deno.readFileSync(join(dir, n))).keys.length);
    const first = await Deno.readFile(join(dir, names[0]));
    await Deno.writeFile(join(dir, names[0]), first.subarray(0, first.length - 9));
    await Deno.copyFile(join(dir, names[2]), join(dir, names[1]));
    const result = await embedTiny(table);
    strictEqual(result.prefetched, 7 - sizes[0] - sizes[1]);
    strictEqual(result.embedded! + result.prefetched!, 10);
    assertEquals(await fileContent(out), plain.content);
  } finally {
    await Deno.remove(plain.out, { recursive: true });
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a prefetch abandoned mid-batch stores nothing more", async () => {
  const { out, table } = await setup([]);
  try {
    let asked = 0;
    // Abandoned once the second batch is embedded: only the first is stored.
    const done = await prefetchQueries({
      configs: ["tiny"],
      invocationsPath: table,
      provider: { env },
      abandoned: () => ++asked === 2,
    });
    strictEqual(asked, 2);
    strictEqual(done.tiny, 2);
    strictEqual([...Deno.readDirSync(prefetchDir("tiny"))].length, 1);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
