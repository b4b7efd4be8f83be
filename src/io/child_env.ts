/**
 * The environment of the kit's locked-down Deno child processes (Pyodide
 * hosts, embed workers), which start with a cleared one: where Deno keeps its
 * caches, and `GLIBC_TUNABLES` when set. That one tunes how memory is mapped,
 * not what is computed: `make test` sets `glibc.malloc.hugetlb=1`
 * (test/run_unit.ts), and a child that dropped it would pay for every fresh
 * page as before.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { childDenoEnv } from "./child_env.ts";
 * strictEqual(childDenoEnv().NO_COLOR, "1");
 * strictEqual("PATH" in childDenoEnv(), false);
 * ```
 */
export function childDenoEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of ["HOME", "DENO_DIR", "XDG_CACHE_HOME", "GLIBC_TUNABLES"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}
