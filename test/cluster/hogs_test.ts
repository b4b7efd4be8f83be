/**
 * The load test's CPU hogs (equality.ts `startHogs`) burn CPU while they run,
 * and a hog that ended early makes `stop()` fail, so a load run cannot pass
 * as loaded with idle or dead hogs.
 */
import { ok, rejects } from "node:assert/strict";
import { startHogs } from "./equality.ts";

/** CPU seconds (user + system) of a process, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

Deno.test({
  name: "CPU hogs burn CPU until stopped, and leave nothing running",
  sanitizeResources: false,
  async fn() {
    const hogs = startHogs(2);
    // An idle process would stay at its start's ~0.05 CPU-s; a busy machine
    // only delays the hogs getting there.
    let used: number[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      used = await Promise.all(hogs.pids.map(cpuSeconds));
      if (used.every((s) => s >= 0.5)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await hogs.stop();
    ok(used.every((s) => s >= 0.5), `CPU seconds after 20 s: ${used.join(", ")}`);
    for (const pid of hogs.pids) {
      ok(!(await Deno.stat(`/proc/${pid}`).then(() => true, () => false)), `${pid} still there`);
    }
  },
});

Deno.test({
  name: "a hog that ended before stop() makes it fail",
  sanitizeResources: false,
  async fn() {
    const hogs = startHogs(1, 200);
    await new Promise((r) => setTimeout(r, 1500));
    await rejects(hogs.stop(), /1 of 1 CPU hogs ended before they were stopped/);
  },
});
