import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { fastSuiteFiles, ROOT, shardOf, SKIP } from "../fast_suite_files.ts";

Deno.test("the fast suite runs every test file outside the slow suite's folders", async () => {
  const files = fastSuiteFiles();
  ok(files.includes("test/architecture/fast_suite_test.ts"));
  ok(files.includes("src/score/two_path_scores_test.ts"));
  ok(!files.some((f) => f.startsWith("test/site/") || f.startsWith("test/pipeline/")));
  // The slow suite's folders are the Makefile's SLOW_TESTS.
  const make = await Deno.readTextFile(`${ROOT}Makefile`);
  const variable = (name: string): string[] =>
    (make.match(new RegExp(`^${name} := (.+)$`, "m"))?.[1].trim().split(/\s+/) ?? [])
      .flatMap((word) => {
        const ref = word.match(/^\$\((\w+)\)$/);
        return ref ? variable(ref[1]) : [word];
      });
  const slow = variable("SLOW_TESTS");
  assertEquals(slow.sort(), ["test/pipeline", "test/site"]);
  ok(slow.every((dir) => SKIP.has(dir)), `SLOW_TESTS ${slow} not all skipped`);
  // Every committed test file is in one suite or the other.
  const git = await new Deno.Command("git", {
    args: ["ls-files", "*_test.ts", "*.test.ts", "*test.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output().catch(() => null);
  if (git?.success) {
    const committed = new TextDecoder().decode(git.stdout).split("\n")
      .filter((f) => /(^|\/|[._])test\.ts$/.test(f))
      .filter((f) => !slow.some((dir) => f.startsWith(`${dir}/`)));
    assertEquals(committed.filter((f) => !files.includes(f)), []);
  }
});

Deno.test("fast suite shards split the files, each file in exactly one", () => {
  const files = ["a", "b", "c", "d", "e"];
  assertEquals(shardOf(files, undefined), files);
  assertEquals(shardOf(files, "0/2"), ["a", "c", "e"]);
  assertEquals(shardOf(files, "1/2"), ["b", "d"]);
  assertEquals(shardOf(files, "0/1"), files);
  for (const bad of ["2/2", "1", "-1/2", "0/0", "x/y"]) {
    let threw = false;
    try {
      shardOf(files, bad);
    } catch (e) {
      threw = /EXECRET_TEST_SHARD/.test((e as Error).message);
    }
    ok(threw, bad);
  }
});
