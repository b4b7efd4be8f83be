import { deepStrictEqual, ok } from "node:assert/strict";
import { DRIVER_FILES, driverSource } from "./driver_source.ts";

Deno.test("the driver's files are every driver*.py of src/oracle/, head first", () => {
  const found = [...Deno.readDirSync(new URL("./", import.meta.url))]
    .map((e) => e.name)
    .filter((n) => /^driver.*\.py$/.test(n))
    .sort();
  deepStrictEqual([...DRIVER_FILES].sort(), found);
  deepStrictEqual(DRIVER_FILES[0], "driver.py");
});

Deno.test("the joined driver is one Python program: it compiles, install() before the worker", async () => {
  const text = driverSource();
  ok(text.indexOf("def install(") < text.indexOf("def _native_main("));
  const out = await new Deno.Command("python3", {
    args: ["-I", "-c", "import sys; compile(sys.stdin.read(), '<driver>', 'exec')"],
    stdin: "piped",
    stderr: "piped",
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { success, stderr } = await out.output();
  ok(success, new TextDecoder().decode(stderr));
});
