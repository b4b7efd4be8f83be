/**
 * The fixture run and its built site, made once per test module and shared
 * by its checks (site_test.ts: the pages in Chromium, and the figure files):
 * a site build costs ~12 CPU-s, the checks only read it. `deno test` gives
 * each module an isolate of its own, so a second module calling this builds
 * the site again. Removed when the module's isolate ends.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { buildSite } from "../../src/site/build_site.ts";
import { makeFixtureRunInProcess } from "../fixtures/run/fixture_process.ts";

/** Where the fixture run's tables and its built site are. */
export interface FixtureSite {
  /** The run's out folder (tables/, parquet/, manifest.json). */
  out: string;
  /** The built site. */
  site: string;
}

let made: Promise<FixtureSite> | undefined;
let tmp: string | undefined;

globalThis.addEventListener("unload", () => {
  if (tmp) Deno.removeSync(tmp, { recursive: true });
});

async function make(): Promise<FixtureSite> {
  tmp = await Deno.makeTempDir({ prefix: "execret-site-" });
  const out = join(tmp, "run");
  const site = join(tmp, "site");
  await makeFixtureRunInProcess(out);
  const built = await buildSite({
    quiet: true,
    // The fixture has no stage stamps: show its tables as they are, never recompute them.
    env: { EXECRET_OUT: out, EXECRET_SITE_OUT: site, EXECRET_SITE_READ_ONLY: "1" },
  });
  assertEquals(built.code, 0, built.output.slice(-3000));
  // Framework found every loader's output already made (src/site/prefill_loaders.ts)
  // and started no loader of its own.
  ok(/\[fresh\]/.test(built.output), built.output.slice(-3000));
  ok(!/\[(missing|stale)\]/.test(built.output), built.output.slice(-3000));
  return { out, site };
}

/** The fixture run's site, built on the first call. */
export function fixtureSite(): Promise<FixtureSite> {
  return made ??= make();
}
