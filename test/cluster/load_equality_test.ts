/**
 * The oracle's verdicts do not depend on the machine's load: the cluster
 * fixture's one-machine oracle run, (a) quiet and (b) with three times as
 * many workers as cores (`--workers 3n`) beside three CPU hogs for the whole
 * run, writes the same tables, byte for byte but for the documented
 * wall-clock fields (compare_outputs.ts).
 *
 * The per-test timeout is LOAD_TIMEOUT_MS (400 ms). The fixture's
 * canonicals slow_rolling_checksum and slow_count_multiples, and every one of
 * their mutants, have tests of 30-70 ms of CPU in Pyodide (warm; up to ~215 ms
 * of the process's CPU the first time a fresh Pyodide runs such a loop), and
 * no mutant of any task takes between that and an endless loop
 * (test/fixtures/cluster/README.md). With three hogs and 3n workers on n
 * cores such a test takes several times that in wall-clock time, so a
 * wall-clock limit records some of them TIMEOUT in the loaded run (a
 * canonical's rejects its task) where the quiet run does not: the test fails
 * on such an oracle. Limits on the test's own CPU time leave every verdict
 * as it is, and the test passes.
 *
 * It runs as a `make unit` job alone (`solo` in test/run_unit.ts): its hogs
 * would slow every job beside it.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { CORES, FIXTURE, installExecret, LOAD_TIMEOUT_MS, runQuietAndLoaded } from "./equality.ts";
import { compareOutputs, formatVerdicts } from "./compare_outputs.ts";
import { readRows } from "../../src/io/arrow_table.ts";

Deno.test({
  name: `oracle tables are the same quiet and with ${3 * CORES} workers beside 3 CPU hogs`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-load-" });
    const bin = await installExecret(join(root, "prefix"));
    const t0 = performance.now();
    const { quiet, loaded, said } = await runQuietAndLoaded({
      root,
      bin,
      sources: [`jsonl:${FIXTURE}`],
      timeoutMs: LOAD_TIMEOUT_MS,
      hogs: 3,
    });
    console.log(`both runs: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const [run, lines] of Object.entries(said)) {
      console.log(`${run}: ${/^oracle: \d+ suites executed.*$/m.exec(lines.at(-1) ?? "")?.[0]}`);
    }
    const verdicts = await compareOutputs(quiet, loaded);
    console.log(formatVerdicts(verdicts));
    ok(verdicts.some((v) => v.file === "tables/executions.arrow"), "executions not compared");
    const differ = verdicts.filter((v) => !v.same);
    deepStrictEqual(differ, [], `quiet vs loaded:\n${formatVerdicts(differ)}`);
    // And both are the benchmark the fixture means: every canonical kept.
    const tasks = await readRows(join(quiet, "tables", "tasks.arrow"));
    const queries = await readRows(join(quiet, "tables", "queries.arrow"));
    ok(queries.length === tasks.length, `the quiet run kept ${queries.length} of ${tasks.length}`);
    await Deno.remove(root, { recursive: true });
  },
});
