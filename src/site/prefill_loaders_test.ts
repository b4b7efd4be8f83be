import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { cachePathOf, loaderFiles, prefillLoaders } from "./prefill_loaders.ts";

const STDOUT = new URL("./stdout.ts", import.meta.url).href;

Deno.test({
  name:
    "prefilled loader outputs are the bytes each loader prints alone; a failing one is left out",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-prefill-" });
    try {
      await Deno.mkdir(join(root, "data"));
      const write = (name: string, body: string) =>
        Deno.writeTextFile(join(root, "data", name), body);
      await write(
        "numbers.json.ts",
        `import { writeAll } from "${STDOUT}";\n` +
          `const e = new TextEncoder();\n` +
          `await writeAll(e.encode("[1,"));\n` +
          `await writeAll(e.encode(JSON.stringify(Deno.env.get("PREFILL_TEST") ?? null) + "]"));\n`,
      );
      await write("broken.txt.ts", `throw new Error("no table here");\n`);
      await write("helper.ts", `export const x = 1;\n`); // not a loader: one extension
      assertEquals(loaderFiles(root).map((f) => f.slice(root.length + 1)), [
        "data/broken.txt.ts",
        "data/numbers.json.ts",
      ]);

      // What Framework would cache: the loader's stdout as its own process.
      const alone = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--cached-only", join(root, "data", "numbers.json.ts")],
        env: { PREFILL_TEST: "x" },
      }).output();
      ok(alone.success);

      Deno.env.set("PREFILL_TEST", "x");
      const result = await prefillLoaders(root);
      Deno.env.delete("PREFILL_TEST");
      assertEquals(result.filled, [join(root, "data", "numbers.json.ts")]);
      assertEquals(result.failed, [join(root, "data", "broken.txt.ts")]);
      const cached = cachePathOf(root, join(root, "data", "numbers.json.ts"));
      assertEquals(cached, join(root, ".observablehq", "cache", "data", "numbers.json"));
      assertEquals(await Deno.readFile(cached), alone.stdout);
      assertEquals(new TextDecoder().decode(alone.stdout), '[1,"x"]');
      // Framework runs the failed loader itself: nothing cached for it.
      ok(
        !(await Deno.stat(join(root, ".observablehq", "cache", "data", "broken.txt"))
          .then(() => true, () => false)),
      );
      // Framework uses a cache entry while it is newer than its loader.
      const [loader, entry] = [join(root, "data", "numbers.json.ts"), cached].map((p) =>
        Deno.statSync(p).mtime!.getTime()
      );
      ok(entry >= loader);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
