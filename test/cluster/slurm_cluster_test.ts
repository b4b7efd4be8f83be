/**
 * test/cluster/slurm_cluster.ts: the one-node cluster runs a job, and
 * leaves nothing behind, neither after `stop()` nor when the process that
 * started it dies without calling it (its guard process cleans up).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { slurmCommand, startSlurmCluster } from "./slurm_cluster.ts";

const alive = (pid: number) => Deno.stat(`/proc/${pid}`).then(() => true, () => false);
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Process ids whose command line mentions `text` (the cluster's folder). */
export async function pidsMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const cmd = await Deno.readTextFile(`/proc/${e.name}/cmdline`).catch(() => "");
    if (cmd.includes(text)) found.push(Number(e.name));
  }
  return found;
}

Deno.test({
  name: "slurm cluster: a job array runs, and stop() leaves no process or folder",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const cluster = await startSlurmCluster();
    try {
      const id = (await slurmCommand(cluster.env, "sbatch", [
        "--parsable",
        "--array=0-1",
        `--chdir=${cluster.dir}`,
        "--wrap",
        "echo $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT",
      ])).trim();
      const deadline = Date.now() + 30_000;
      while ((await slurmCommand(cluster.env, "squeue", ["-h"])).trim() !== "") {
        ok(Date.now() < deadline, "the jobs did not end within 30 s");
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const i of [0, 1]) {
        strictEqual(
          await Deno.readTextFile(join(cluster.dir, `slurm-${id}_${i}.out`)),
          `${i}/2\n`,
        );
      }
    } finally {
      await cluster.stop();
    }
    deepStrictEqual(await pidsMentioning(cluster.dir), []);
    ok(!(await exists(cluster.dir)), cluster.dir);
  },
});

Deno.test({
  name: "slurm cluster: when its process dies, the guard cancels the jobs and stops the daemons",
  sanitizeResources: false,
  async fn() {
    const here = new URL("./slurm_cluster_test.ts", import.meta.url).href;
    const module = new URL("./slurm_cluster.ts", import.meta.url).href;
    // A job that would run for 5 minutes, findable by its own command line.
    const sleep = `sleep 300.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
    // The child finds the daemons' and the job's processes itself: once it
    // has exited, its guard cancels the job at once.
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { slurmCommand, startSlurmCluster } from "${module}";
         import { pidsMentioning } from "${here}";
         const c = await startSlurmCluster();
         await slurmCommand(c.env, "sbatch", ["--chdir=" + c.dir, "--wrap", "${sleep}"]);
         const end = Date.now() + 30_000;
         while ((await pidsMentioning("${sleep}")).length === 0 && Date.now() < end) {
           await new Promise((r) => setTimeout(r, 100));
         }
         const pids = [...await pidsMentioning(c.dir), ...await pidsMentioning("${sleep}")];
         console.log(JSON.stringify({ dir: c.dir, pids }));
         Deno.exit(0);`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(child.code, 0, new TextDecoder().decode(child.stderr));
    const { dir, pids } = JSON.parse(new TextDecoder().decode(child.stdout)) as {
      dir: string;
      pids: number[];
    };
    ok(dir.includes("execret-slurm-"), dir);
    // munged, slurmctld, slurmd, and the job's sleep (and its shell, unless it exec'd).
    ok(pids.length >= 4, `daemons and job: ${pids.join(" ")}`);
    const deadline = Date.now() + 20_000;
    let left = pids;
    while ((left.length || await exists(dir)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      left = (await Promise.all(left.map(async (p) => (await alive(p)) ? p : 0)))
        .filter((p) => p > 0);
    }
    deepStrictEqual(left, [], `still running after 20 s: ${left.join(" ")}`);
    ok(!(await exists(dir)), `${dir} is still there`);
  },
});
