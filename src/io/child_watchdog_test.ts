import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startDeadline, watchChild } from "./child_watchdog.ts";

Deno.test("watchChild: every line written before the exit is handed on before the report", async () => {
  const lines: string[] = [];
  const child = watchChild({
    command: "sh",
    args: ["-c", "for i in 1 2 3 4 5; do echo line $i; done; exit 7"],
    env: {},
    onLine: (line) => lines.push(line),
  });
  const exit = await child.exited;
  deepStrictEqual(lines, ["line 1", "line 2", "line 3", "line 4", "line 5"]);
  deepStrictEqual(exit, { code: 7, signal: null, stderrTail: "" });
});

Deno.test("watchChild: a silent child past its deadline is reported, and killed by the caller", async () => {
  const child = watchChild({ command: "sleep", args: ["60"], env: {}, onLine: () => {} });
  let budgetAsked = 0;
  await new Promise<void>((resolve) =>
    child.arm({
      tickMs: 5,
      budgetMs: () => (++budgetAsked, 20),
      onExpired: () => {
        child.kill();
        resolve();
      },
    })
  );
  ok(budgetAsked > 0);
  ok(child.silentMs() > 20);
  strictEqual((await child.exited).signal, "SIGKILL");
});

Deno.test("watchChild: no deadline while the budget is null; close() lets a worker exit", async () => {
  const lines: string[] = [];
  const child = watchChild({
    command: "sh",
    args: ["-c", "while read x; do echo $x; done; echo bye >&2"],
    env: {},
    stderrTail: 10,
    onLine: (line) => lines.push(line),
  });
  let expired = false;
  child.arm({ tickMs: 1, budgetMs: () => null, onExpired: () => (expired = true) });
  ok(await child.writeLine("a"));
  const exit = await child.close();
  strictEqual(expired, false);
  deepStrictEqual([lines, exit.code, exit.stderrTail], [["a"], 0, "bye"]);
  strictEqual(await child.writeLine("late"), false);
});

Deno.test("startDeadline: the start's value, or the late value when it does not come", async () => {
  strictEqual(await startDeadline(Promise.resolve(true), 60_000, false), true);
  strictEqual(await startDeadline(new Promise<boolean>(() => {}), 1, false), false);
});
