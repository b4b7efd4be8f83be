import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { fastSuiteFiles, ROOT, shardOf } from "../fast_suite_files.ts";
import { FAST_SUITE, OWN_JOB_PATHS, UNIT_JOBS } from "../run_unit.ts";

Deno.test("make unit runs every committed test file in exactly one job", async () => {
  const files = fastSuiteFiles();
  ok(files.includes("test/architecture/fast_suite_test.ts"));
  ok(files.includes("src/score/two_path_scores_test.ts"));
  // The files of the jobs of their own are not in the fast suite, and exist.
  for (const path of OWN_JOB_PATHS) {
    ok(!files.some((f) => f === path || f.startsWith(`${path}/`)), path);
    ok(await Deno.stat(`${ROOT}${path}`).then(() => true, () => false), `${path} is missing`);
  }
  ok(UNIT_JOBS.some((j) => j.paths.includes(FAST_SUITE)));
  const make = await Deno.readTextFile(`${ROOT}Makefile`);
  ok(/^unit: deps\b.*\n\t.*test\/run_unit\.ts/m.test(make), "make unit runs test/run_unit.ts");
  const git = await new Deno.Command("git", {
    args: ["ls-files", "*_test.ts", "*.test.ts", "*test.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output().catch(() => null);
  if (git?.success) {
    const committed = new TextDecoder().decode(git.stdout).split("\n")
      .filter((f) => /(^|\/|[._])test\.ts$/.test(f));
    // In the fast suite (whose shards split it: below) or in one job of its own.
    const own = (f: string) => OWN_JOB_PATHS.filter((p) => p === f || f.startsWith(`${p}/`));
    assertEquals(
      committed.filter((f) => (files.includes(f) ? 1 : 0) + own(f).length !== 1),
      [],
    );
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
