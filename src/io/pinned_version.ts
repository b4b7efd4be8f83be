import denoJson from "../../deno.json" with { type: "json" };

/**
 * The exact version deno.json pins for an npm package, so code that needs a
 * version (cache keys, a subprocess's `npm:` specifier) cannot drift from the
 * one installed. Throws when the package is not pinned exactly.
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * match(pinnedVersion("pyodide"), /^\d+\.\d+\.\d+$/); // e.g. "314.0.7"
 * ```
 */
export function pinnedVersion(name: string): string {
  const spec = (denoJson.imports as Record<string, string>)[name];
  const m = spec === undefined ? null : /^npm:(?:@[^/]+\/)?[^@]+@(\d[^\s]*)$/.exec(spec);
  if (!m) throw new Error(`deno.json: ${name} is not pinned to an exact npm version (${spec})`);
  return m[1];
}
