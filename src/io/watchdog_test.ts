import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type Deadline, watchdog, watchWorker } from "./watchdog.ts";

/** A watchdog over nothing: kill counts its calls, exited resolves on the first. */
function dummy() {
  let kills = 0;
  let end!: (n: number) => void;
  const dog = watchdog({ kill: () => end(++kills), exited: new Promise<number>((r) => (end = r)) });
  return { dog, kills: () => kills };
}

/** Arm `deadline` (its onExpired wrapped) and resolve with the tick count at expiry. */
function expiry(dog: ReturnType<typeof dummy>["dog"], deadline: Omit<Deadline, "onExpired">) {
  return new Promise<void>((resolve) =>
    dog.arm({
      ...deadline,
      onExpired: () => {
        dog.kill();
        resolve();
      },
    })
  );
}

Deno.test("watchdog: a tick whose poll sees progress checks nothing; the first silent one expires", async () => {
  const { dog, kills } = dummy();
  let ticks = 0;
  let budgetAsked = 0;
  await expiry(dog, {
    tickMs: 1,
    // Progress on the first five ticks, then none.
    poll: () => ++ticks <= 5 && dog.heartbeat(),
    budgetMs: () => (++budgetAsked, -1),
  });
  deepStrictEqual([ticks, budgetAsked, kills(), dog.killed], [6, 1, 1, true]);
});

Deno.test("watchdog: the soft stage repeats each tick until the budget passes, then stops", async () => {
  const { dog } = dummy();
  let soft = 0;
  let softAfterExpiry = 0;
  await expiry(dog, {
    tickMs: 1,
    // Three soft ticks, then the budget runs out.
    budgetMs: () => (soft < 3 ? 60_000 : -1),
    softMs: () => -1,
    onSoft: () => soft++,
  });
  const at = soft;
  dog.arm({
    tickMs: 1,
    budgetMs: () => null,
    softMs: () => -1,
    onSoft: () => softAfterExpiry++,
    onExpired: () => {},
  });
  await new Promise((r) => setTimeout(r, 20));
  dog.disarm();
  deepStrictEqual([at, softAfterExpiry], [3, 0]);
});

Deno.test("watchdog: not timed while the budget is null; kill stops the deadline and kills once", async () => {
  const { dog, kills } = dummy();
  let expired = false;
  let asked = 0;
  dog.arm({ tickMs: 1, budgetMs: () => (++asked, null), onExpired: () => (expired = true) });
  while (asked < 5) await new Promise((r) => setTimeout(r, 2));
  dog.kill();
  dog.kill();
  const askedAtKill = asked;
  await new Promise((r) => setTimeout(r, 20));
  deepStrictEqual([expired, kills(), asked, await dog.exited], [false, 1, askedAtKill, 1]);
});

Deno.test("watchWorker: an uncaught error ends the worker with its message", async () => {
  const code = 'self.onmessage = () => { throw new Error("bad job"); };';
  const worker = new Worker(`data:text/javascript,${encodeURIComponent(code)}`, { type: "module" });
  const dog = watchWorker(worker);
  worker.postMessage("go");
  const exit = await dog.exited;
  dog.kill();
  ok(exit.error?.endsWith("bad job"), String(exit.error));
});

// Not a busy worker: Deno's terminate() leaves a thread in a loop spinning (see pyodide_host.ts).
Deno.test("watchWorker: kill terminates a worker and ends it without an error", async () => {
  const code = "self.onmessage = () => {};";
  const worker = new Worker(`data:text/javascript,${encodeURIComponent(code)}`, { type: "module" });
  const dog = watchWorker(worker);
  worker.postMessage("go");
  dog.kill();
  deepStrictEqual(await dog.exited, { error: null });
  strictEqual(dog.killed, true);
});

Deno.test("watchdog: with a clock, the budget counts the clock's time, not wall time; wallMs is the backstop", async () => {
  // A clock that stands still for 40 ms of wall time (a worker waiting for a
  // core), then runs: the budget of 10 clock-ms is passed only once it runs.
  const { dog } = dummy();
  const start = performance.now();
  let clock = 0;
  let ticks = 0;
  await expiry(dog, {
    tickMs: 1,
    clockMs: () => clock,
    poll: () => {
      ticks++;
      if (performance.now() - start > 40) clock += 5;
    },
    budgetMs: () => 10,
  });
  const waited = performance.now() - start;
  ok(waited >= 40, `expired after ${waited} ms of wall time, before the clock ran`);
  ok(clock > 10 && clock <= 20, `clock at expiry: ${clock}`);
  strictEqual(dog.usedMs(), clock);

  // A clock that never moves (a worker blocked, not computing): only wallMs ends it.
  const blocked = dummy();
  const t0 = performance.now();
  await expiry(blocked.dog, { tickMs: 1, clockMs: () => 0, budgetMs: () => 10, wallMs: () => 30 });
  const wall = performance.now() - t0;
  ok(wall >= 30, `the wall backstop fired after ${wall} ms`);
  strictEqual(blocked.dog.usedMs(), 0);
  ok(ticks > 0);
});

Deno.test("watchdog: arm starts the clock's count afresh, heartbeat too, at the first look after it", async () => {
  const { dog } = dummy();
  let clock = 1000;
  let reads = 0;
  let expiredAt: number | null = null;
  let fired!: () => void;
  const expired = new Promise<void>((r) => (fired = r));
  dog.arm({
    tickMs: 1,
    clockMs: () => (reads++, clock),
    budgetMs: () => 50,
    onExpired: () => {
      expiredAt = clock;
      fired();
    },
  });
  strictEqual(reads, 0, "arm reads no clock");
  strictEqual(dog.usedMs(), 0);
  clock += 30;
  strictEqual(dog.usedMs(), 30);
  // Beats read no clock (a native worker beats once a job); the count
  // restarts at the next look, so what was used before it is not charged.
  const before = reads;
  for (let i = 0; i < 1000; i++) dog.heartbeat();
  strictEqual(reads, before, "a heartbeat reads no clock");
  clock += 5;
  strictEqual(dog.usedMs(), 0);
  clock += 40;
  strictEqual(dog.usedMs(), 40);
  // Within the budget, however long the wall-clock wait.
  await new Promise((r) => setTimeout(r, 20));
  strictEqual(expiredAt, null);
  clock += 20;
  await expired;
  strictEqual(expiredAt, 1095);
  dog.kill();
});

Deno.test("watchdog: a starved worker (its clock slow, not still) is not stopped by the wall backstop", async () => {
  // 3% of wall time on its clock, as on a machine with thirty runnable
  // threads a core: past the backstop it runs on until its budget.
  const { dog } = dummy();
  const t0 = performance.now();
  const clock = () => 0.03 * (performance.now() - t0);
  let backstopped = 0;
  await expiry(dog, {
    tickMs: 1,
    clockMs: clock,
    budgetMs: () => 3,
    wallMs: () => (performance.now() - t0 > 20 ? (backstopped++, 20) : 20),
  });
  const wall = performance.now() - t0;
  ok(wall >= 100, `expired after ${wall} ms, before its 3 clock-ms budget (100 ms of wall)`);
  ok(backstopped > 0, "the backstop was past and asked");
});
