/**
 * Bundle every module of src/site/report/ (the pages' queries, shaping,
 * formats and figure builders; tests aside) into one browser ES module,
 * each export reaching the pages as `R.<name>`. Framework only imports
 * modules from inside its root, so the page helpers live in src/ (with unit
 * tests) and reach the pages as the data file `report.js`. A new module there
 * is in the bundle with no list to edit.
 */
import * as esbuild from "esbuild";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const REPORT = fileURLToPath(new URL("./report/", import.meta.url));

/** The modules of src/site/report/ (and its folders), tests aside, by path. */
export function reportModules(dir = REPORT): string[] {
  const found: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) found.push(...reportModules(path));
    else if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) found.push(path);
  }
  return found.sort();
}

/** The bundled module's source text. */
export async function bundleReportModule(): Promise<string> {
  const entry = reportModules().map((m) => `export * from "./${relative(REPORT, m)}";`);
  try {
    const result = await esbuild.build({
      stdin: {
        contents: entry.join("\n"),
        resolveDir: REPORT,
        sourcefile: "report.js",
        loader: "ts",
      },
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
