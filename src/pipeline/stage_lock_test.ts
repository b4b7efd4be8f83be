import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withStageLock } from "./stage_lock.ts";

Deno.test("the stage lock serialises concurrent holders", async () => {
  const dir = await Deno.makeTempDir();
  Deno.env.set("EXECRET_OUT", dir);
  try {
    const order: string[] = [];
    const hold = (name: string, ms: number) =>
      withStageLock("demo", async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`${name}-`);
      });
    await Promise.all([hold("a", 300), hold("b", 10)]);
    // Each holder finishes before the other starts: no interleaving.
    assertEquals(order.length, 4);
    assertEquals(order[0].slice(1), "+");
    assertEquals(order[1], order[0].replace("+", "-"));
  } finally {
    Deno.env.delete("EXECRET_OUT");
  }
});

Deno.test("a lock held by a process that is killed is free at once", async () => {
  const dir = await Deno.makeTempDir();
  const module = new URL("./stage_lock.ts", import.meta.url).href;
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const { withStageLock } = await import(${JSON.stringify(module)});
       await withStageLock("demo", async () => {
         console.log("locked");
         await new Promise((r) => setTimeout(r, 60_000));
       });`,
    ],
    env: { EXECRET_OUT: dir },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the holder exited before taking the lock");
    seen += value;
  }
  Deno.env.set("EXECRET_OUT", dir);
  try {
    // While the holder lives, the lock is taken.
    const waiting = withStageLock("demo", () => Promise.resolve("second"));
    const early = await Promise.race([
      waiting,
      new Promise((r) => setTimeout(() => r("still waiting"), 500)),
    ]);
    assertEquals(early, "still waiting");
    holder.kill("SIGKILL");
    await holder.status;
    const started = performance.now();
    assertEquals(await waiting, "second");
    ok(performance.now() - started < 5000, "the kill released the lock");
  } finally {
    reader.releaseLock();
    await holder.stdout.cancel().catch(() => {});
    Deno.env.delete("EXECRET_OUT");
  }
});
