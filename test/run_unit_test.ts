import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { runJobs } from "./run_unit.ts";

Deno.test("runJobs keeps `slots` jobs running, starts the next as one ends, in order", async () => {
  const events: string[] = [];
  let running = 0;
  let most = 0;
  const ms = [60, 10, 10, 10, 30];
  const codes = await runJobs(ms.map((m, i) => ({ m, i })), 2, async ({ m, i }) => {
    events.push(`start ${i}`);
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, m));
    running--;
    if (i === 3) throw new Error("a job that cannot start");
    return i === 1 ? 1 : 0;
  });
  assertEquals(codes, [0, 1, 0, 1, 0]);
  assertEquals(most, 2);
  // 0 and 1 at once; 1 ends first, so 2 takes its slot, then 3, then 4.
  assertEquals(events, ["start 0", "start 1", "start 2", "start 3", "start 4"]);
  assertEquals(await runJobs([], 3, () => Promise.resolve(0)), []);
});
