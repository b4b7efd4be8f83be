import { strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { fileDigest, settledFileDigest } from "./file_digest.ts";

Deno.test("settledFileDigest sees an edit that keeps size and modification time", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "inputs.jsonl");
    await Deno.writeTextFile(path, "aaaa\n");
    // Its modification time says long ago; its change time says now, so nothing is kept yet.
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(path, old, old);
    strictEqual(await settledFileDigest(path), await fileDigest(path));
    // Same size, modification time put back: only the change time tells.
    await Deno.writeTextFile(path, "bbbb\n");
    await Deno.utime(path, old, old);
    strictEqual(await settledFileDigest(path), await fileDigest(path));
    await Deno.remove(path);
    strictEqual(await settledFileDigest(path), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
