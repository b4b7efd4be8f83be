/**
 * Fill Observable Framework's npm cache from node_modules, so the report site
 * builds with no network.
 *
 * Framework resolves every `npm:` import to `/_npm/<name>@<version>/…` and
 * downloads missing files from a CDN at build time (dist/npm.js
 * `populateNpmCache`). A version with no range is read from the folders of
 * `<root>/.observablehq/cache/_npm/` before the registry is asked
 * (`resolveNpmVersion`), and a file that exists there is never fetched. So:
 *
 * - each package the pages (or Framework's client) really load is bundled by
 *   esbuild into one browser ESM file at `_npm/<name>@<version>/_esm.js`;
 *   a dependency shared with another cached bundle is kept as a relative
 *   import of that bundle (Framework follows relative imports in the cache);
 * - DuckDB-wasm's wasm and worker files are copied beside its bundle, where
 *   the client's `import.meta.resolve("npm:@duckdb/duckdb-wasm/dist/…")` points;
 * - every other `npm:` name that Framework's client code mentions (lazy
 *   recommended libraries, sample datasets) gets an empty folder, which is
 *   all the client bundler needs to resolve a version without the registry.
 *
 * Usage: deno run -A src/site/fill_framework_cache.ts [--root docs]
 */
import * as esbuild from "esbuild";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";

/** A package bundled into the cache. */
interface Bundle {
  name: string;
  /** Dependencies kept as imports of their own cached bundle (name → that bundle's name). */
  shared?: string[];
  /** Files copied from the package beside the bundle. */
  copy?: string[];
  /** Whether the package has a default export to re-export. */
  hasDefault?: boolean;
  /** Exact version when the package is a dependency of another, not a top-level install. */
  version?: string;
}

/** DuckDB-wasm version Framework 1.13.x hard-codes (dist/duckdb.js DUCKDB_WASM_VERSION). */
export const DUCKDB_WASM_VERSION = "1.29.0";

/** What the pages and the client load. Order matters: shared deps first. */
export const BUNDLES: Bundle[] = [
  // DuckDB-wasm 1.29.0 depends on apache-arrow ^17; the client's duckdb.js and
  // the DuckDB bundle must share one Arrow so result tables are one class.
  { name: "apache-arrow", version: "17.0.0" },
  {
    name: "@duckdb/duckdb-wasm",
    version: DUCKDB_WASM_VERSION,
    shared: ["apache-arrow"],
    copy: [
      "dist/duckdb-mvp.wasm",
      "dist/duckdb-eh.wasm",
      "dist/duckdb-browser-mvp.worker.js",
      "dist/duckdb-browser-eh.worker.js",
    ],
  },
  // @observablehq/inputs imports these two (Framework adds them as implicit dependencies).
  { name: "htl" },
  { name: "isoformat" },
  // Every figure is a Vega-Lite spec drawn by Vega (docs/components/vega_figure.js).
  { name: "vega" },
  { name: "vega-lite" },
];

/** Folder of an installed package (Deno's node_modules/.deno layout, or plain). */
export function packageDir(name: string, version?: string): string {
  const flat = join("node_modules", name);
  if (!version && existsSync(join(flat, "package.json"))) return Deno.realPathSync(flat);
  const prefix = `${name.replace("/", "+")}@`;
  const candidates = [...Deno.readDirSync("node_modules/.deno")]
    .map((e) => e.name)
    .filter((n) => n.startsWith(prefix) && (!version || n === prefix + version))
    .sort();
  if (candidates.length === 0) {
    throw new Error(`${name}${version ? `@${version}` : ""} is not installed (run deno install)`);
  }
  return join("node_modules/.deno", candidates[candidates.length - 1], "node_modules", name);
}

function versionOf(dir: string): string {
  return JSON.parse(Deno.readTextFileSync(join(dir, "package.json"))).version;
}

/**
 * The `npm:` names Framework's client code mentions, e.g. `npm:d3`,
 * `npm:@observablehq/sample-datasets/cars.csv` → `@observablehq/sample-datasets`.
 */
export function clientNpmNames(clientSource: string): string[] {
  const names = new Set<string>();
  for (const m of clientSource.matchAll(/["']npm:((?:@[\w.-]+\/)?[\w.-]+)/g)) names.add(m[1]);
  return [...names].sort();
}

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const p = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(p);
    else if (p.endsWith(".js")) yield p;
  }
}

async function bundle(
  b: Bundle,
  npmDir: string,
  versions: Map<string, string>,
  quiet: boolean,
): Promise<void> {
  const dir = packageDir(b.name, b.version);
  const version = versionOf(dir);
  versions.set(b.name, version);
  const outDir = join(npmDir, `${b.name}@${version}`);
  const outFile = join(outDir, "_esm.js");
  const shared = new Map(
    (b.shared ?? []).map((dep) => {
      const target = join(npmDir, `${dep}@${versions.get(dep)}`, "_esm.js");
      return [dep, relative(outDir, target)];
    }),
  );
  const entry = `export * from ${JSON.stringify(b.name)};\n` +
    (b.hasDefault ? `export { default } from ${JSON.stringify(b.name)};\n` : "");
  await esbuild.build({
    // Resolving from the package's own folder finds it (and its pinned
    // dependencies) through the enclosing node_modules, as Node would.
    stdin: { contents: entry, resolveDir: dir },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    outfile: outFile,
    logLevel: "error",
    plugins: [{
      name: "shared-bundles",
      setup(build) {
        build.onResolve({ filter: /.*/ }, (args) => {
          const path = shared.get(args.path);
          return path ? { path: path.startsWith(".") ? path : `./${path}`, external: true } : null;
        });
      },
    }],
  });
  for (const file of b.copy ?? []) {
    await Deno.mkdir(dirname(join(outDir, file)), { recursive: true });
    await Deno.copyFile(join(dir, file), join(outDir, file));
  }
  if (!quiet) console.log(`cached ${b.name}@${version}`);
}

function hasAnyVersion(npmDir: string, name: string): boolean {
  const parent = dirname(join(npmDir, name));
  if (!existsSync(parent)) return false;
  const base = name.split("/").pop()!;
  return [...Deno.readDirSync(parent)].some((e) => e.name.startsWith(`${base}@`));
}

/** Fill `<root>/.observablehq/cache/_npm`; returns the bundled names with their versions. */
export async function fillFrameworkCache(
  root: string,
  options: { quiet?: boolean } = {},
): Promise<Map<string, string>> {
  const npmDir = join(root, ".observablehq", "cache", "_npm");
  await Deno.mkdir(npmDir, { recursive: true });
  const versions = new Map<string, string>();
  try {
    for (const b of BUNDLES) await bundle(b, npmDir, versions, options.quiet ?? false);
  } finally {
    await esbuild.stop();
  }
  const clientDir = join(packageDir("@observablehq/framework"), "dist", "client");
  const source = [...walk(clientDir)].map((f) => Deno.readTextFileSync(f)).join("\n");
  for (const name of clientNpmNames(source)) {
    if (versions.has(name)) continue;
    // Use the installed version when there is one, so the path is the real
    // package's; the folder stays empty because no page loads it.
    let version = "0.0.0";
    try {
      version = versionOf(packageDir(name));
    } catch { /* not installed: any version will do for an unused name */ }
    if (!hasAnyVersion(npmDir, name)) {
      await Deno.mkdir(join(npmDir, `${name}@${version}`), { recursive: true });
    }
  }
  return versions;
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { root: { type: "string" } } });
  await fillFrameworkCache(values.root ?? "docs");
}
