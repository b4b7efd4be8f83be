import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { withBuildLock } from "./build_lock.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("builds of one root run one at a time, the second told it waits", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-build-lock-" });
  const other = await Deno.makeTempDir({ prefix: "execret-build-lock-" });
  try {
    const events: string[] = [];
    const build = (name: string, ms: number) => async () => {
      events.push(`${name} start`);
      await sleep(ms);
      events.push(`${name} end`);
      return name;
    };
    let waited = 0;
    const first = withBuildLock(root, build("a", 1300));
    // The second asks once the first holds the lock, however slow the machine.
    while (!events.includes("a start")) await sleep(10);
    const second = withBuildLock(root, build("b", 10), () => waited++);
    // Another root is not held up by either.
    const third = withBuildLock(other, build("c", 10));
    assertEquals(await Promise.all([first, second, third]), ["a", "b", "c"]);
    assertEquals(events, ["a start", "c start", "c end", "a end", "b start", "b end"]);
    strictEqual(waited, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(other, { recursive: true });
  }
});

Deno.test("a build that fails releases the lock", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-build-lock-" });
  try {
    const failed = await withBuildLock(root, () => Promise.reject(new Error("boom")))
      .catch((e: Error) => e.message);
    strictEqual(failed, "boom");
    let waited = false;
    strictEqual(await withBuildLock(root, () => Promise.resolve(1), () => waited = true), 1);
    strictEqual(waited, false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a build in another process holds the lock until that process is killed", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-build-lock-" });
  try {
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { withBuildLock } from "${new URL("./build_lock.ts", import.meta.url).href}";
         await withBuildLock(${JSON.stringify(root)}, async () => {
           console.log("held");
           await new Promise(() => setInterval(() => {}, 1000));
         });`,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
    strictEqual((await reader.read()).value?.trim(), "held");
    let waited = false;
    const mine = withBuildLock(root, () => Promise.resolve("mine"), () => {
      waited = true;
      holder.kill("SIGKILL");
    });
    strictEqual(await mine, "mine");
    strictEqual(waited, true);
    await holder.status;
    await reader.cancel();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
