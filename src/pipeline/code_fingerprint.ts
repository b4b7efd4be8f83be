import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson, sha256Hex } from "../io/hash.ts";

/** The repository this file lives in (stage entries and assets are relative to it). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What `deno info --json` says a module graph is made of. */
export interface ModuleGraph {
  /** Repository files in the graph (paths relative to the root), sorted. */
  local: string[];
  /** npm packages the graph imports, as `name@version`, sorted. */
  packages: string[];
}

interface InfoModule {
  specifier: string;
  kind?: string;
  error?: string;
}

// deno info takes 20-25 ms per entry on this machine (2026-12-08, its
// module cache warm), a process of its own each time; a process fingerprints
// the same entries again and again (ensureStage, loaders), and the code it
// runs cannot change under it, so each graph is listed once.
const graphs = new Map<string, Promise<ModuleGraph>>();

/** `node_modules/.deno/@scope+name@1.2.3/…` → `@scope/name@1.2.3`. */
function packageOf(path: string): string | null {
  const m = path.match(/node_modules\/\.deno\/([^/]+)\//);
  if (!m) return null;
  return m[1].startsWith("@") ? m[1].replace("+", "/") : m[1];
}

async function listGraph(root: string, entry: string): Promise<ModuleGraph> {
  // deno.json's nodeModulesDir "manual": read the installed node_modules,
  // never install or fetch; no remote modules and no lockfile writes either.
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "info",
      "--json",
      "--no-remote",
      "--no-lock",
      "--config",
      join(root, "deno.json"),
      join(root, entry),
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  if (!out.success) {
    const why = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    throw new Error(`deno info ${entry} failed: ${why}`);
  }
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  const local = new Set<string>();
  const packages = new Set<string>();
  for (const m of info.modules) {
    if (m.error) throw new Error(`${entry}: module graph: ${m.specifier}: ${m.error}`);
    if (m.kind === "npm") {
      packages.add(m.specifier.replace(/^npm:\/?/, ""));
    } else if (m.specifier.startsWith("file:")) {
      const path = fileURLToPath(m.specifier);
      const pkg = packageOf(path);
      if (pkg) packages.add(pkg);
      else {
        const rel = relative(root, path);
        if (!rel.startsWith("..") && !isAbsolute(rel)) local.add(rel.split(sep).join("/"));
      }
    }
    // node: built-ins come with the Deno version; remote modules are refused above.
  }
  return { local: [...local].sort(), packages: [...packages].sort() };
}

/**
 * The module graph of `entry` (relative to `root`), from `deno info --json`:
 * its repository files and the npm packages it imports, with versions.
 * Cached per process.
 */
export function moduleGraph(entry: string, root: string = REPO_ROOT): Promise<ModuleGraph> {
  const key = `${root}\0${entry}`;
  let g = graphs.get(key);
  if (!g) {
    g = listGraph(root, entry);
    graphs.set(key, g);
    g.catch(() => graphs.delete(key));
  }
  return g;
}

/** The version of an npm package as pinned in the root's deno.json imports. */
async function pinnedVersion(root: string, name: string): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  const spec: unknown = config.imports?.[name];
  const m = typeof spec === "string" ? spec.match(/^npm:(.+)$/) : null;
  if (!m) throw new Error(`deno.json: no npm import "${name}" (named as a stage asset)`);
  return m[1];
}

/**
 * Fingerprint of the code a stage runs: every repository module in the
 * import graph of `entry` and of each `.ts` asset (worker entries, which
 * `new Worker` loads outside the import graph), the npm packages those
 * graphs import (by version), each other asset file's bytes (e.g. the
 * Python driver), and each `npm:<name>` asset's pinned version (packages
 * whose files are read rather than imported, e.g. the grammar wasm).
 */
export async function codeFingerprint(
  entry: string,
  assets: string[] = [],
  root: string = REPO_ROOT,
): Promise<string> {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const files: Record<string, string> = {};
  for (const e of [entry, ...assets.filter((a) => a.endsWith(".ts"))]) {
    const g = await moduleGraph(e, root);
    g.local.forEach((m) => modules.add(m));
    g.packages.forEach((p) => packages.add(p));
  }
  for (const a of assets) {
    if (a.startsWith("npm:")) packages.add(await pinnedVersion(root, a.slice(4)));
    else if (!a.endsWith(".ts")) modules.add(a);
  }
  for (const m of [...modules].sort()) {
    try {
      files[m] = sha256Hex(await Deno.readFile(join(root, m)));
    } catch (e) {
      throw new Error(`${m}: cannot read stage code (${(e as Error).message})`);
    }
  }
  return sha256Hex(canonicalJson({ files, packages: [...packages].sort() }));
}
