import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { importReleaseCommand, reproduceArgs } from "./import_release.ts";

Deno.test("import-release DIR is reproduce --profile release --source release:DIR", () => {
  assertEquals(reproduceArgs(["/data/execretrieval", "--no-site", "--json"]), [
    "--profile",
    "release",
    "--source",
    "release:/data/execretrieval",
    "--no-site",
    "--json",
  ]);
  throws(() => reproduceArgs([]), /exactly one bundle folder/);
  throws(() => reproduceArgs(["a", "b"]), /exactly one bundle folder/);
});

Deno.test("import-release --help names the command it stands for", async () => {
  const printed: string[] = [];
  const log = console.log;
  console.log = (s: string) => printed.push(s);
  try {
    assertEquals(await importReleaseCommand.run(["--help"]), 0);
  } finally {
    console.log = log;
  }
  assertEquals(
    printed.join("\n").includes("execret reproduce --profile release --source release:DIR"),
    true,
  );
});
