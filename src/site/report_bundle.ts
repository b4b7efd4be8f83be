/**
 * Bundle `src/site/report/mod.ts` (the pages' query builders and formatters) into
 * one browser ES module on stdout. Framework only imports modules from inside
 * its root, so the page helpers live in src/ (with unit tests) and reach the
 * pages as a file attachment made by the `docs/data/report.js.ts` loader.
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { writeAll } from "./stdout.ts";

/** The bundled module's source text. */
export async function bundleReportModule(): Promise<string> {
  try {
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL("./report/mod.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "error",
    });
    return result.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
}

if (import.meta.main) {
  await writeAll(new TextEncoder().encode(await bundleReportModule()));
}
