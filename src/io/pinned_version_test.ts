import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { pinnedVersion } from "./pinned_version.ts";

Deno.test("a pinned version is read from deno.json, scoped or not", () => {
  const imports = denoJson.imports as Record<string, string>;
  assertEquals(`npm:pyodide@${pinnedVersion("pyodide")}`, imports.pyodide);
  assertEquals(
    `npm:@observablehq/framework@${pinnedVersion("@observablehq/framework")}`,
    imports["@observablehq/framework"],
  );
  throws(() => pinnedVersion("left-pad"), /left-pad is not pinned/);
});
