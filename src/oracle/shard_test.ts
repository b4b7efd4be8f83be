import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { writeTable } from "../io/arrow_table.ts";
import { sha256Hex } from "../io/hash.ts";
import { MUTANTS, TASKS } from "../tables/schema.ts";
import { runOracleStage } from "./oracle_stage.ts";
import { mergeCaches } from "../pipeline/merge_cache.ts";
import { parseShard, shardOf } from "../common/shard.ts";
import { cacheFileName } from "./cache.ts";

const TESTS = ["assert f(1, 2) == 3", "assert f(0, 0) == 0", "assert f(-2, 5) == 3"];
const BODIES = [
  "return a + b", // canonical
  "return b + a", // equivalent
  "return a + b + 1",
  "return a - b",
  "while a == -2:\n        pass\n    return a + b", // fails only by TIMEOUT
  "return a * b",
  "return a + b if a < 0 else a / 0",
];
const code = (body: string) => `def f(a, b):\n    ${body}\n`;
// Task ids spread over both shards of two (checked below, so a change of hash shows).
const IDS = ["t0", "t1", "t2", "t3", "t4", "t5"];

async function fixture(): Promise<void> {
  const tasks = IDS.map((id, i) => ({
    task_id: `builtin/${id}`,
    source: "builtin",
    source_id: id,
    domain: "math_numerical",
    domain_inferred: false,
    query: `add two numbers (${id})`,
    entry_point: "f",
    // Task t5's canonical is wrong: a rejected task in some shard.
    canonical: code(i === 5 ? "return a" : BODIES[0]),
    setup: "",
    // Each task its own tests, so shards share no suite except by content.
    tests: [...TESTS, `assert f(${i}, 1) == ${i + 1}`],
    extra_tests: [],
    locator: `tasks.jsonl:${i + 1}`,
  }));
  const mutants = IDS.flatMap((id, i) =>
    // Rotate the candidate order per task, so tasks differ in how many candidates run.
    BODIES.slice(1).map((_, j) => {
      const body = BODIES[1 + ((i + j) % (BODIES.length - 1))];
      const c = code(body);
      return {
        snippet_id: `builtin/${id}#m${j}`,
        task_id: `builtin/${id}`,
        bug_type: "off_by_one",
        operator: "op",
        extension: false,
        order: j,
        line: 2,
        column: 5,
        before: "    return a + b",
        after: c.split("\n")[1],
        code: c,
        code_sha256: sha256Hex(c),
      };
    })
  );
  await writeTable("tasks", tasks, TASKS);
  await writeTable("mutants", mutants, MUTANTS);
}

// execution_times holds wall-clock ms: two runs differ there, sharded or not.
const TABLES = ["executions", "queries", "corpus", "validation", "rejects_oracle"];

async function tableBytes(out: string): Promise<Record<string, Uint8Array>> {
  return Object.fromEntries(
    await Promise.all(
      TABLES.map(async (n) => [n, await Deno.readFile(join(out, "tables", `${n}.arrow`))]),
    ),
  );
}

Deno.test("shard: parse i/n and hash ids stably", () => {
  assertEquals(parseShard("1/4"), { index: 1, count: 4 });
  for (const bad of ["4/4", "1", "a/2", "0/0", "-1/2"]) {
    let threw = false;
    try {
      parseShard(bad);
    } catch {
      threw = true;
    }
    ok(threw, bad);
  }
  // sha256("builtin/t0") starts with these 4 bytes; the shard is them mod n.
  const first4 = parseInt(sha256Hex("builtin/t0").slice(0, 8), 16);
  assertEquals(shardOf("builtin/t0", 7), first4 % 7);
});

Deno.test({
  name: "oracle shards: two shards, merged caches, unsharded run executes nothing, same tables",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret_oracle_shard_" });
    const saved = ["EXECRET_OUT", "EXECRET_CACHE"].map((k) => [k, Deno.env.get(k)] as const);
    const options = { runtime: "native" as const, workers: 2, timeoutMs: 300, quiet: true };
    try {
      // One machine, empty cache.
      const single = join(root, "single");
      Deno.env.set("EXECRET_OUT", single);
      Deno.env.set("EXECRET_CACHE", join(single, "cache"));
      await fixture();
      const reference = await runOracleStage(options);
      ok(reference.run.executed > 0);
      const count = (gate: string) =>
        reference.validation.find((v) => v.gate === gate && v.source === "all")?.count ?? 0;
      // The fixture exercises the gates a shard must reproduce.
      ok(count("canonical_fail") === 1 && count("equivalent") > 0 && count("not_needed") > 0);
      const expected = await tableBytes(single);

      // Two shards, each with its own cache folder, as on two machines.
      const sharded = join(root, "sharded");
      Deno.env.set("EXECRET_OUT", sharded);
      await fixture();
      const tasksIn: number[] = [];
      for (const i of [0, 1]) {
        Deno.env.set("EXECRET_CACHE", join(root, `shard${i}`));
        const r = await runOracleStage({ ...options, shard: parseShard(`${i}/2`) });
        assertEquals(r.shard?.tasks, IDS.filter((id) => shardOf(`builtin/${id}`, 2) === i).length);
        ok(r.shard!.tasks > 0, `shard ${i} has tasks`);
        ok(r.run.executed > 0);
        tasksIn.push(r.shard!.tasks);
      }
      assertEquals(tasksIn[0] + tasksIn[1], IDS.length);
      // A shard writes no table.
      assertEquals(
        await Deno.stat(join(sharded, "tables", "executions.arrow")).catch(() => null),
        null,
      );

      // Merge in either order: the same cache bytes.
      const merged = join(sharded, "cache");
      const other = join(root, "other");
      const m = await mergeCaches([join(root, "shard0"), join(root, "shard1")], merged);
      assertEquals(m.executionFiles, 1);
      await mergeCaches([join(root, "shard1"), join(root, "shard0")], other);
      const file = cacheFileName(reference.runtime, 300);
      assertEquals(
        await Deno.readTextFile(join(other, "executions", file)),
        await Deno.readTextFile(join(merged, "executions", file)),
      );
      // Merging again changes nothing.
      const once = await Deno.readTextFile(join(merged, "executions", file));
      await mergeCaches([join(root, "shard0"), join(root, "shard1")], merged);
      assertEquals(await Deno.readTextFile(join(merged, "executions", file)), once);

      // The final unsharded run: everything from the cache, the same tables.
      Deno.env.set("EXECRET_CACHE", merged);
      const final = await runOracleStage(options);
      assertEquals(final.run.executed, 0);
      assertEquals(final.run.cached, reference.run.executed + reference.run.cached);
      assertEquals(final.validation, reference.validation);
      const got = await tableBytes(sharded);
      for (const name of TABLES) assertEquals(got[name], expected[name], name);
    } finally {
      for (const [k, v] of saved) {
        if (v === undefined) Deno.env.delete(k);
        else Deno.env.set(k, v);
      }
      await Deno.remove(root, { recursive: true });
    }
  },
});
