/**
 * The oracle's Python driver, kept in several files (driver.py and its parts)
 * and run as one program: both runtimes run the text {@link driverSource}
 * joins, so the files share one namespace as when they were one file.
 *
 * @module
 */

/** The driver's files, in the order they run: each uses what the ones before it define. */
export const DRIVER_FILES: readonly string[] = [
  "driver.py",
  "driver_policy.py",
  "driver_preload.py",
  "driver_sandbox.py",
  "driver_harness.py",
  "driver_native.py",
];

/** The driver's files from the project root, for the stages' fingerprints. */
export const DRIVER_PATHS: readonly string[] = DRIVER_FILES.map((f) => `src/oracle/${f}`);

/**
 * The Python driver both runtimes run: its files joined in order.
 *
 * @example
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { driverSource } from "./driver_source.ts";
 * ok(driverSource().includes("def install("));
 * ```
 */
export function driverSource(): string {
  return DRIVER_FILES.map((f) => Deno.readTextFileSync(new URL(`./${f}`, import.meta.url))).join(
    "",
  );
}
