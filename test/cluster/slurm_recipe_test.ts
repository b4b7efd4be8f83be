/**
 * REFERENCE.md's Slurm recipe, run as written on a real one-node Slurm
 * cluster (test/cluster/slurm_cluster.ts: Debian's slurm-wlm on loopback),
 * writes the same tables as a one-machine run of the same inputs: every file
 * under out/tables/ and out/parquet/ byte for byte, and the embedding file,
 * except the wall-clock fields REFERENCE.md documents (compare_outputs.ts).
 *
 * The recipe is the Slurm bullet's sh block, saved as slurm.sh and run as
 * `N=2 C=1 sh slurm.sh --source jsonl:<fixture>` (2 shards of 1 CPU each, on
 * the 2-core test machine) with the `execret` launcher of
 * scripts/install_execret.sh on PATH, from a folder outside the checkout;
 * the one-machine run is `execret tasks --source jsonl:<fixture>`, `mutate`,
 * `oracle`, `embed --config use` in another folder. The fixture
 * (test/fixtures/cluster/tasks.jsonl) has tests that burn CPU and mutants
 * that loop forever, so the shards record timeouts.
 */
import { deepStrictEqual, match, ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startSlurmCluster } from "./slurm_cluster.ts";
import {
  FIXTURE,
  installExecret,
  runOneMachine,
  runSlurmRecipe,
  seedSnapshots,
  slurmRecipe,
  tails,
} from "./equality.ts";
import { compareOutputs, formatVerdicts } from "./compare_outputs.ts";
import { readRows } from "../../src/io/arrow_table.ts";

const N = 2;

Deno.test("the recipe is the Slurm bullet's sh block, with its afterok chain for oracle and embed", () => {
  const recipe = slurmRecipe();
  match(recipe, /^execret tasks "\$@"/m);
  match(
    recipe,
    /--array=0-\$\(\(N - 1\)\) --cpus-per-task=\$C --wrap \\\n\s*'EXECRET_CACHE=shard-\$SLURM_ARRAY_TASK_ID execret oracle --workers \$SLURM_CPUS_ON_NODE --shard/,
  );
  strictEqual(recipe.match(/--dependency=afterok:/g)?.length, 3);
  match(recipe, /execret merge-cache \$shards && execret oracle"/);
  match(recipe, /execret merge-cache \$shards && execret embed --config use"/);
});

Deno.test({
  name: "REFERENCE.md's Slurm recipe on a one-node cluster writes a one-machine run's tables",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-slurm-recipe-" });
    const bin = await installExecret(join(root, "prefix"));
    const sharded = join(root, "sharded"), single = join(root, "single");
    await Deno.mkdir(sharded);
    await Deno.mkdir(single);
    await seedSnapshots([
      ...Array.from({ length: N }, (_, i) => join(sharded, `shard-${i}`)),
      join(sharded, "out", "cache"),
      join(single, "out", "cache"),
    ]);
    const t0 = performance.now();
    const cluster = await startSlurmCluster();
    const ready = performance.now();
    let run;
    try {
      // The one-machine run goes on while the cluster works through the
      // chain: most of the chain's time is waiting (for jobs to start, for
      // the slower shard, for the fixture's loops to time out).
      [run] = await Promise.all([
        runSlurmRecipe({
          cluster,
          work: sharded,
          bin,
          sources: [`jsonl:${FIXTURE}`],
          shards: N,
          cpusPerShard: 1,
          deadlineMs: 240_000,
        }),
        runOneMachine({ work: single, bin, sources: [`jsonl:${FIXTURE}`], configs: ["use"] }),
      ]);
    } finally {
      await cluster.stop();
    }
    console.log(
      `cluster up in ${((ready - t0) / 1000).toFixed(1)} s; the recipe's chain took ` +
        `${run.seconds.toFixed(1)} s from slurm.sh to the last job's end; ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s with the one-machine run and the stop`,
    );
    const outputs = run.jobOutputs;
    const all = Object.values(outputs).join("\n");
    // Each shard took its own tasks, and together every task.
    const shards = [
      ...all.matchAll(/oracle shard (\d+)\/(\d+): (\d+) tasks, (\d+) suites executed/g),
    ];
    deepStrictEqual(shards.map((m) => `${m[1]}/${m[2]}`).sort(), ["0/2", "1/2"], tails(outputs));
    const tasks = await readRows(join(sharded, "out", "tables", "tasks.arrow"));
    strictEqual(shards.reduce((n, m) => n + Number(m[3]), 0), tasks.length);
    assert(shards.every((m) => Number(m[4]) > 0), "a shard executed nothing");
    // The final runs found everything cached: the shards did all of it.
    match(all, /oracle: 0 suites executed, [1-9]\d* from cache/, tails(outputs));
    match(all, /use: \d+ vectors × 512 → .*\(0 embedded, [1-9]\d* cached/, tails(outputs));
    // Some suite ran into the timeout (the fixture's loops), in the shards too.
    const executions = await readRows<{ outcome: string }>(
      join(sharded, "out", "tables", "executions.arrow"),
    );
    assert(executions.some((e) => e.outcome === "TIMEOUT"), "no TIMEOUT in the run");

    const verdicts = await compareOutputs(join(single, "out"), join(sharded, "out"));
    console.log(formatVerdicts(verdicts));
    for (
      const expected of [
        "tables/executions.arrow",
        "parquet/queries.parquet",
        "embeddings/use.arrow",
      ]
    ) {
      assert(verdicts.some((v) => v.file === expected), `${expected} was not compared`);
    }
    const differ = verdicts.filter((v) => !v.same);
    deepStrictEqual(differ, [], formatVerdicts(differ));
    await Deno.remove(root, { recursive: true });
  },
});
