/**
 * A one-node Slurm cluster for tests, from Debian's `slurm-wlm` and `munge`
 * (scripts/ensure_slurm.sh installs them): everything it writes is in one
 * temp folder, it listens on loopback only, on ports free when it starts, and
 * it touches nothing of the machine's own Slurm or MUNGE (no /etc/slurm,
 * /etc/munge or /run/munge file is read or written).
 *
 * - `munged --foreground` with its key (1 KiB of random bytes), socket, pid,
 *   log and seed files in the folder;
 * - `slurmctld -D` and `slurmd -D -N localhost` on a slurm.conf in the folder
 *   (written for Slurm 22.05, bookworm's): one node `localhost` with as many
 *   CPUs as the machine's cores, no cgroups (`proctrack/linuxproc`,
 *   `task/none`, no accounting), `SlurmUser=root` (jobs run as the caller,
 *   root), `AuthInfo=socket=` the folder's munge socket, state, spool, pid
 *   and log files in the folder;
 * - ready once `sinfo` shows the node idle; `env` (SLURM_CONF) points the
 *   client commands (`sbatch`, `squeue`, `sinfo`, `scancel`) at it.
 *
 * `stop()` cancels every job, then stops slurmd, slurmctld and munged and
 * removes the folder. Should the test process die before calling it, a
 * guard process (a `sh` reading a pipe from this process) sees the pipe
 * close and does the same, so no daemon, job or folder outlives its test.
 *
 * @module
 */
import { join } from "node:path";

/** A running one-node cluster. */
export interface SlurmCluster {
  /** The temp folder holding its configuration, state and logs. */
  dir: string;
  /** Its slurm.conf. */
  conf: string;
  /** Environment for Slurm's client commands: SLURM_CONF. */
  env: Record<string, string>;
  /** The last lines of the daemons' logs, for a failure message. */
  logs(): Promise<string>;
  /** Cancel every job, stop the daemons, remove the folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** The commands a cluster needs: the daemons of slurmd/slurmctld/munge and the client tools. */
export const SLURM_COMMANDS = ["munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scancel"];

/** A TCP port on 127.0.0.1 that nothing listens on now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The slurm.conf of a one-node cluster whose files live under `dir`. */
export function slurmConf(
  dir: string,
  opts: { ctldPort: number; slurmdPort: number; cpus: number },
): string {
  return [
    "# A one-node test cluster (test/cluster/slurm_cluster.ts); Slurm 22.05.",
    "ClusterName=execret",
    "SlurmctldHost=localhost(127.0.0.1)",
    `SlurmctldPort=${opts.ctldPort}`,
    `SlurmdPort=${opts.slurmdPort}`,
    "SlurmUser=root",
    "SlurmdUser=root",
    "AuthType=auth/munge",
    "CredType=cred/munge",
    `AuthInfo=socket=${join(dir, "munge", "munge.socket")}`,
    `StateSaveLocation=${join(dir, "state")}`,
    `SlurmdSpoolDir=${join(dir, "spool")}`,
    `SlurmctldPidFile=${join(dir, "slurmctld.pid")}`,
    `SlurmdPidFile=${join(dir, "slurmd.pid")}`,
    `SlurmctldLogFile=${join(dir, "log", "slurmctld.log")}`,
    `SlurmdLogFile=${join(dir, "log", "slurmd.log")}`,
    // No cgroups: the test machine may be a container or a VM without them.
    "ProctrackType=proctrack/linuxproc",
    "TaskPlugin=task/none",
    "JobAcctGatherType=jobacct_gather/none",
    "AccountingStorageType=accounting_storage/none",
    "JobCompType=jobcomp/none",
    "MpiDefault=none",
    // A cancelled job's processes get SIGKILL 5 s after SIGTERM (default 30 s).
    "KillWait=5",
    "SelectType=select/cons_tres",
    "SelectTypeParameters=CR_CPU",
    "ReturnToService=2",
    "SchedulerType=sched/backfill",
    "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0",
    `NodeName=localhost NodeAddr=127.0.0.1 CPUs=${opts.cpus} State=UNKNOWN`,
    "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
    "",
  ].join("\n");
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function tail(path: string, lines = 15): Promise<string> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").slice(-lines).join("\n");
}

/** Run a Slurm client command; its stdout, or throws with its stderr. */
export async function slurmCommand(
  env: Record<string, string>,
  cmd: string,
  args: string[],
): Promise<string> {
  const r = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  if (r.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")}: exit ${r.code}: ${dec.decode(r.stderr).trim()}`);
  }
  return dec.decode(r.stdout);
}

/**
 * Start a one-node cluster (see the module's doc). Throws, with the daemons'
 * logs, when the node is not idle within `readyMs`; everything started is
 * stopped first.
 */
export async function startSlurmCluster(
  opts: { cpus?: number; readyMs?: number } = {},
): Promise<SlurmCluster> {
  const dir = await Deno.makeTempDir({ prefix: "execret-slurm-" });
  // munged refuses a socket in a folder others cannot search.
  await Deno.chmod(dir, 0o755);
  for (const sub of ["munge", "state", "spool", "log"]) {
    await Deno.mkdir(join(dir, sub), { mode: 0o755 });
  }
  const munge = join(dir, "munge");
  const key = join(munge, "munge.key");
  await Deno.writeFile(key, crypto.getRandomValues(new Uint8Array(1024)), { mode: 0o400 });
  await Deno.chmod(key, 0o400);
  const conf = join(dir, "slurm.conf");
  const cpus = opts.cpus ?? navigator.hardwareConcurrency ?? 1;
  await Deno.writeTextFile(
    conf,
    slurmConf(dir, { ctldPort: freePort(), slurmdPort: freePort(), cpus }),
  );
  const env = { SLURM_CONF: conf };
  const children: Deno.ChildProcess[] = [];
  const spawn = async (name: string, cmd: string, args: string[]) => {
    const log = await Deno.open(join(dir, "log", `${name}.out`), {
      write: true,
      create: true,
      truncate: true,
    });
    const child = new Deno.Command(cmd, {
      args,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const err = await Deno.open(join(dir, "log", `${name}.out`), { append: true });
    child.stdout.pipeTo(log.writable).catch(() => {});
    child.stderr.pipeTo(err.writable).catch(() => {});
    children.push(child);
    return child;
  };
  const logs = async () => {
    const parts: string[] = [];
    for (const f of ["munged.out", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"]) {
      const text = await tail(join(dir, "log", f));
      if (text.trim()) parts.push(`--- ${f}\n${text}`);
    }
    return parts.join("\n");
  };

  let guard: Deno.ChildProcess | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    // The guard would do what follows should this process die; it is not needed now.
    try {
      guard?.kill("SIGKILL");
      await guard?.status;
    } catch { /* already gone */ }
    if (children.length > 1) {
      await slurmCommand(env, "scancel", ["--quiet", "--user=root"]).catch(() => {});
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const left = await slurmCommand(env, "squeue", ["-h", "-o", "%i"]).catch(() => "");
        if (left.trim() === "") break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // slurmd, slurmctld, munged: the reverse of their start.
    for (const child of [...children].reverse()) {
      try {
        child.kill("SIGTERM");
      } catch { /* already exited */ }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* exited meanwhile */ }
      }, 5_000);
      await child.status;
      clearTimeout(timer);
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };

  try {
    await spawn("munged", "munged", [
      "--foreground",
      `--socket=${join(munge, "munge.socket")}`,
      `--key-file=${key}`,
      `--pid-file=${join(munge, "munged.pid")}`,
      `--log-file=${join(dir, "log", "munged.log")}`,
      `--seed-file=${join(munge, "munged.seed")}`,
    ]);
    await waitFor(() => exists(join(munge, "munge.socket")), 10_000, children, "munged's socket");
    await spawn("slurmctld", "slurmctld", ["-D", "-f", conf]);
    await spawn("slurmd", "slurmd", ["-D", "-f", conf, "-N", "localhost"]);
    const [munged, slurmctld, slurmd] = children.map((c) => c.pid);
    // If this process dies, its end of the guard's stdin closes: the guard
    // cancels the jobs and stops the daemons (by the pids it was given).
    guard = new Deno.Command("sh", {
      args: [
        "-c",
        // Cancel every job and wait (15 s at most) until Slurm has ended them
        // (squeue lists a job until its processes are gone), then stop the daemons.
        "read _ignored; scancel --quiet --user=root; i=0; " +
        'while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 75 ]; do sleep 0.2; i=$((i + 1)); done; ' +
        'kill "$@"; sleep 3; kill -9 "$@"; rm -rf "$GUARDED_DIR"',
        "guard",
        String(slurmd),
        String(slurmctld),
        String(munged),
      ],
      env: { ...env, GUARDED_DIR: dir },
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitFor(
      async () => {
        const state = await slurmCommand(env, "sinfo", ["-h", "-o", "%T"]).catch(() => "");
        return state.trim() === "idle";
      },
      opts.readyMs ?? 30_000,
      children,
      "the node to be idle in sinfo",
    );
  } catch (e) {
    const said = await logs();
    await stop();
    throw new Error(`${(e as Error).message}\n${said}`);
  }
  return { dir, conf, env, logs, stop };
}

/** Poll `ready` every 100 ms until true; throws after `ms` or when a daemon has exited. */
async function waitFor(
  ready: () => Promise<boolean>,
  ms: number,
  children: Deno.ChildProcess[],
  what: string,
): Promise<void> {
  const exited: string[] = [];
  children.forEach((c, i) => c.status.then((s) => exited.push(`daemon ${i} exit ${s.code}`)));
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (exited.length) throw new Error(`waiting for ${what}: ${exited.join(", ")}`);
    if (Date.now() > deadline) throw new Error(`waiting for ${what}: not after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
