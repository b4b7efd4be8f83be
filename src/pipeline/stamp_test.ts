import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fingerprint, isFresh, writeStamp } from "./stamp.ts";

Deno.test("a stage is fresh only while its fingerprint and outputs are unchanged", async () => {
  const dir = await Deno.makeTempDir();
  const prev = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", dir);
  try {
    const input = join(dir, "in.txt");
    const output = join(dir, "tables", "out.arrow");
    await Deno.writeTextFile(input, "a");
    await Deno.mkdir(join(dir, "tables"));
    await Deno.writeTextFile(output, "result");
    const inputs = { settings: { seed: 1 }, files: [input], code: [] };
    const key = await fingerprint(inputs);
    assertEquals(await isFresh("demo", key), false);
    await writeStamp("demo", key, [output]);
    assertEquals(await isFresh("demo", key), true);
    // Settings, input bytes and output bytes each invalidate the stamp.
    assertEquals(key === await fingerprint({ ...inputs, settings: { seed: 2 } }), false);
    await Deno.writeTextFile(input, "b");
    assertEquals(key === await fingerprint(inputs), false);
    await Deno.writeTextFile(output, "tampered");
    assertEquals(await isFresh("demo", key), false);
  } finally {
    if (prev === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", prev);
  }
});
