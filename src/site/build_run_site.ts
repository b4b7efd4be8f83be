import { join } from "node:path";
import { outDir } from "../io/paths.ts";
import { UserError } from "../io/user_error.ts";

/**
 * Build the site of the run `reproduce` just made: src/site/build_site.ts
 * (offline npm cache, network guard, Framework build) as a child process, so Framework's own process and
 * its data loaders get the permissions the build script chooses. Resolves to
 * the output folder. With `readOnly` the loaders show the tables as they are
 * (EXECRET_SITE_READ_ONLY=1) instead of making stale ones current: `reproduce`
 * builds the site right after writing the manifest, and the site must show
 * exactly the tables that manifest lists.
 *
 * The site is built beside its folder and moved in only when the build
 * succeeds, so a failed build (one line, a {@link UserError}) leaves the
 * previous site as it was.
 */
export async function buildRunSite(
  options: { quiet?: boolean; readOnly?: boolean } = {},
): Promise<string> {
  const output = Deno.env.get("EXECRET_SITE_OUT") ?? join(outDir(), "site");
  const building = `${output}.building`;
  await Deno.remove(building, { recursive: true }).catch(() => {});
  const script = new URL("./build_site.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", script],
    env: {
      EXECRET_SITE_OUT: building,
      ...(options.readOnly ? { EXECRET_SITE_READ_ONLY: "1" } : {}),
    },
    stdout: options.quiet ? "null" : "inherit",
    stderr: "piped",
  }).spawn();
  // Shown as it comes (unless quiet), its end kept for the error line.
  let stderr = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stderr) {
    if (!options.quiet) await Deno.stderr.write(chunk);
    stderr = (stderr + decoder.decode(chunk, { stream: true })).slice(-4000);
  }
  const result = await child.status;
  if (!result.success) {
    await Deno.remove(building, { recursive: true }).catch(() => {});
    // The line that says what went wrong, not the bug-report footer after it.
    const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    const last = lines.findLast((l) => /error/i.test(l)) ?? lines.pop() ?? "";
    throw new UserError(
      `site build failed (exit ${result.code})${last ? `: ${last}` : ""}; ` +
        `the run's tables are complete, ${output} keeps its earlier site`,
    );
  }
  await Deno.remove(output, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  await Deno.rename(building, output);
  return output;
}
