import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { withStageLock } from "./stage_lock.ts";

Deno.test("the stage lock serialises concurrent holders and clears stale locks", async () => {
  const dir = await Deno.makeTempDir();
  Deno.env.set("EXECRET_OUT", dir);
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
  // A lock left by a process that no longer exists is taken over.
  await Deno.writeTextFile(join(dir, "locks", "demo.lock"), "999999999");
  assertEquals(await withStageLock("demo", () => Promise.resolve(7)), 7);
  Deno.env.delete("EXECRET_OUT");
});
