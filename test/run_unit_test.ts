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

Deno.test("runJobs runs a solo job alone: after the running ones end, before any other starts", async () => {
  const events: string[] = [];
  const live = new Set<string>();
  const beside: string[] = [];
  // a and b start; b ends first, but S waits for a; c and d wait for S.
  const jobs = [
    { name: "a", ms: 40 },
    { name: "b", ms: 5 },
    { name: "S", ms: 30, solo: true },
    { name: "c", ms: 5 },
    { name: "d", ms: 5 },
  ];
  const codes = await runJobs(jobs, 2, async ({ name, ms }) => {
    events.push(`start ${name}`);
    live.add(name);
    if (live.has("S") && live.size > 1) beside.push([...live].join("+"));
    await new Promise((r) => setTimeout(r, ms));
    live.delete(name);
    events.push(`end ${name}`);
    return name === "S" ? 3 : 0;
  }, (j) => j.solo === true);
  assertEquals(codes, [0, 0, 3, 0, 0]);
  assertEquals(beside, []);
  assertEquals(events.slice(0, 6), ["start a", "start b", "end b", "end a", "start S", "end S"]);
  assertEquals(events.slice(6).filter((e) => e.startsWith("start")), ["start c", "start d"]);
  // A solo job first, and one alone in the list.
  assertEquals(
    await runJobs([1, 2, 3], 3, (n) => Promise.resolve(n), (n) => n === 1),
    [1, 2, 3],
  );
  assertEquals(await runJobs([7], 3, (n) => Promise.resolve(n), () => true), [7]);
});
