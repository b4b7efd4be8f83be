/**
 * The real MBPP and HumanEval files, obtained as the kit obtains them
 * (real_task_sets.ts: EXECRET_MIRROR, else the source cache `make reproduce`
 * fills, else the official download). Without any of them these tests fail
 * with one line naming EXECRET_MIRROR instead of passing silently.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { DOMAINS } from "../tables/schema.ts";
import { loadManifest, obtainSource } from "./external.ts";
import { pythonSyntax } from "./python_syntax.ts";
import { realTaskSetsFolder } from "../../test/support/real_task_sets.ts";
import { buildTasks, summarize } from "./tasks_stage.ts";

/**
 * Rejects expected from the pinned files, each with its reason. A change here
 * is a change to the documented task counts (data/TASKS_SCHEMA.md).
 */
const DOCUMENTED_REJECTS: { locator: string; reason: string }[] = [];

/** HumanEval tasks whose check() is not a flat list of asserts, kept whole. */
const HUMANEVAL_WHOLE = [32, 38, 44, 50, 53, 129, 151];

Deno.test("real MBPP + HumanEval: 974 + 164 tasks, minus documented rejects", async () => {
  const folder = await realTaskSetsFolder(); // before the clock: a download is not the load
  const started = performance.now();
  const built = await buildTasks({ sources: ["mbpp", "humaneval"], mirror: folder, quiet: true });
  const seconds = (performance.now() - started) / 1000;
  const result = summarize(built);
  assertEquals(
    built.rejects.map((r) => ({ locator: r.locator, reason: r.reason })),
    DOCUMENTED_REJECTS,
  );
  for (const r of built.rejects) assertEquals(r.reason.length > 0, true);
  assertEquals(result.bySource, {
    mbpp: 974 - DOCUMENTED_REJECTS.filter((r) => r.locator.startsWith("mbpp")).length,
    humaneval: 164 - DOCUMENTED_REJECTS.filter((r) => r.locator.startsWith("HumanEval")).length,
  });
  assertEquals(result.notes.humaneval, {
    tests_split: 164 - HUMANEVAL_WHOLE.length,
    tests_whole: HUMANEVAL_WHOLE.length,
  });
  assertEquals(
    built.rows.filter((r) =>
      r.source === "humaneval" && r.tests.length === 1 && r.tests[0].includes("def check(")
    )
      .map((r) => Number(r.source_id.split("/")[1])),
    HUMANEVAL_WHOLE,
  );
  for (const row of built.rows) {
    assertEquals((DOMAINS as readonly string[]).includes(row.domain), true);
    assertEquals(row.domain_inferred, true);
  }
  // Rows in id order, numerically.
  assertEquals(built.rows.slice(0, 3).map((r) => r.task_id), ["mbpp/1", "mbpp/2", "mbpp/3"]);
  assertEquals(built.rows[result.bySource.mbpp].task_id, "humaneval/0");
  assertEquals(built.rows.at(-1)!.task_id, "humaneval/163");
  // Loading ~1,100 tasks takes a few seconds at most.
  assertEquals(seconds < 15, true, `took ${seconds.toFixed(1)} s`);
});

Deno.test("real MBPP: CRLF and tabs kept, setup code, challenge tests, derived entry points", async () => {
  const built = await buildTasks({
    sources: ["mbpp"],
    mirror: await realTaskSetsFolder(),
    quiet: true,
  });
  const byId = new Map(built.rows.map((r) => [r.source_id, r]));
  assertEquals(byId.get("1")!.canonical.includes("\r\n\ttc[0][0] = cost[0][0]"), true);
  // The only two MBPP tasks with setup code build trees from the code's Node
  // class; the setup runs after the code, so both are kept.
  assertEquals(built.rows.filter((r) => r.setup !== "").map((r) => r.source_id), ["367", "927"]);
  assertEquals([byId.get("367")!.entry_point, byId.get("927")!.entry_point], [
    "is_tree_balanced",
    "max_height",
  ]);
  assertEquals(built.rows.filter((r) => r.extra_tests.length > 0).length, 11);
  assertEquals(byId.get("601")!.entry_point, "max_chain_length");
  assertEquals(byId.get("2")!.entry_point, "similar_elements");
  assertEquals(
    byId.get("2")!.query,
    "Write a function to find the similar elements from the given two tuple lists.",
  );
});

Deno.test("real HumanEval: docstring queries, split asserts bound to the entry point", async () => {
  const built = await buildTasks({
    sources: ["humaneval"],
    mirror: await realTaskSetsFolder(),
    quiet: true,
  });
  const byId = new Map(built.rows.map((r) => [r.source_id, r]));
  const first = byId.get("HumanEval/0")!;
  assertEquals(
    first.query,
    "Check if in given list of numbers, are any two numbers closer to each other than\ngiven threshold.",
  );
  assertEquals(
    first.tests[0],
    "assert has_close_elements([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3) == True",
  );
  assertEquals(
    first.canonical.startsWith("from typing import List\n\n\ndef has_close_elements("),
    true,
  );
  assertEquals(
    byId.get("HumanEval/115")!.query.startsWith("You are given a rectangular grid of wells."),
    true,
  );
  // No split test still refers to `candidate` as a name.
  const syntax = await pythonSyntax();
  for (const row of built.rows) {
    if (row.tests.length === 1 && row.tests[0].includes("def check(")) continue;
    for (const test of row.tests) {
      const names = syntax.withTree(
        test,
        (root) => root.descendantsOfType("identifier").map((n) => n?.text),
      );
      assertEquals(names.includes("candidate"), false, `${row.task_id}: ${test}`);
    }
  }
});

Deno.test("real files served on loopback download, verify against the pins and cache", async () => {
  const folder = await realTaskSetsFolder();
  const manifest = await loadManifest();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const name = new URL(request.url).pathname.slice(1);
    return new Response(await Deno.readFile(join(folder, name)));
  });
  const cache = await Deno.makeTempDir();
  try {
    for (const name of ["mbpp", "humaneval"]) {
      const spec = manifest[name];
      const url = `http://127.0.0.1:${server.addr.port}/${spec.file}`;
      const file = await obtainSource(spec, { url, cache, quiet: true });
      assertEquals([file.via, file.records.length], ["download", spec.rows]);
      assertEquals(
        await Deno.readFile(join(cache, spec.file)),
        await Deno.readFile(join(folder, spec.file)),
      );
      assertEquals((await obtainSource(spec, { url, cache, quiet: true })).via, "cache");
    }
  } finally {
    await server.shutdown();
    await Deno.remove(cache, { recursive: true });
  }
});
