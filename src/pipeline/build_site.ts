import { join } from "node:path";
import { outDir } from "../io/paths.ts";

/**
 * Build the report site (scripts/build_site.ts: offline npm cache, network
 * guard, Framework build) as a child process, so Framework's own process and
 * its data loaders get the permissions the build script chooses. Resolves to
 * the output folder. With `readOnly` the loaders show the tables as they are
 * (EXECRET_SITE_READ_ONLY=1) instead of making stale ones current: `reproduce`
 * builds the site right after writing the manifest, and the site must show
 * exactly the tables that manifest lists.
 */
export async function buildSite(
  options: { quiet?: boolean; readOnly?: boolean } = {},
): Promise<string> {
  const output = Deno.env.get("EXECRET_SITE_OUT") ?? join(outDir(), "site");
  const script = new URL("../../scripts/build_site.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", script],
    env: {
      EXECRET_SITE_OUT: output,
      ...(options.readOnly ? { EXECRET_SITE_READ_ONLY: "1" } : {}),
    },
    stdout: options.quiet ? "null" : "inherit",
    stderr: options.quiet ? "piped" : "inherit",
  });
  const result = await child.output();
  if (!result.success) {
    const err = options.quiet
      ? new TextDecoder().decode(result.stderr).trim().split("\n").pop()
      : "";
    throw new Error(`site build failed (exit ${result.code})${err ? `: ${err}` : ""}`);
  }
  return output;
}
