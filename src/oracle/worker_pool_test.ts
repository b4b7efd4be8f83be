import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { TestOutcome } from "./outcome.ts";
import { type Slot, type SlotEvents, type WireJob, WorkerPool } from "./worker_pool.ts";

/**
 * A slot that answers like the Pyodide one: one message per result, then a
 * separate idle message a few milliseconds later. Records every job it is sent.
 */
function fakeFactory(sent: number[]) {
  return (events: SlotEvents): Promise<Slot> =>
    Promise.resolve({
      send(jobs: WireJob[]) {
        for (const j of jobs) sent.push(Number(j.code));
        setTimeout(() => {
          for (const j of jobs) {
            events.result(j.id, j.tests.map((): TestOutcome => ({ outcome: "pass", ms: 0 })));
          }
          setTimeout(() => events.idle(0), 5);
        }, 1);
      },
      kill() {},
    });
}

Deno.test("a job queued between a batch's last result and its idle message is sent once", async () => {
  const sent: number[] = [];
  const pool = new WorkerPool(fakeFactory(sent), 2, { batchMax: 4, memoryLimitBytes: 1 << 30 });
  await pool.start();
  try {
    // Each finished job queues the next one, as the oracle stage does with a
    // task's candidates: the new job lands while its slot's idle is in flight.
    let next = 0;
    const chain = async (): Promise<void> => {
      while (next < 40) {
        const id = next++;
        await pool.run({ setup: "", code: String(id), tests: ["assert 1"] });
      }
    };
    await Promise.all([chain(), chain(), chain()]);
  } finally {
    pool.close();
  }
  assertEquals([...sent].sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i));
  assertEquals(pool.stats.jobs, 40);
});
