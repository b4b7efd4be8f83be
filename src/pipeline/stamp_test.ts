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
    const code = join(dir, "stage.ts");
    await Deno.writeTextFile(code, "export const v = 1;\n");
    await Deno.writeTextFile(join(dir, "deno.json"), "{}\n");
    const inputs = { settings: { seed: 1 }, files: [input], entry: "stage.ts" };
    const key = await fingerprint(inputs, dir);
    assertEquals(await isFresh("demo", key), false);
    await writeStamp("demo", key, [output]);
    assertEquals(await isFresh("demo", key), true);
    // Settings, input bytes, code and output bytes each invalidate the stamp.
    assertEquals(key === await fingerprint({ ...inputs, settings: { seed: 2 } }, dir), false);
    await Deno.writeTextFile(input, "b");
    const key2 = await fingerprint(inputs, dir);
    assertEquals(key === key2, false);
    await Deno.writeTextFile(code, "export const v = 2;\n");
    assertEquals(key2 === await fingerprint(inputs, dir), false);
    await Deno.writeTextFile(output, "tampered");
    assertEquals(await isFresh("demo", key), false);
  } finally {
    if (prev === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", prev);
  }
});
