/**
 * The fast suite as one test module: `make unit` runs this file instead of
 * letting `deno test` find the fast suite's ~120 test files (the list and the
 * reason are in fast_suite_files.ts), so every test file is evaluated once in
 * one isolate and registers its tests as it would alone.
 *
 * `EXECRET_TEST_SHARD=i/n` runs every n-th file from the i-th (0-based), so
 * `make unit` (test/run_unit.ts) can run the fast suite as several jobs side
 * by side with the longer ones.
 *
 * @module
 */
import { fastSuiteFiles, ROOT, shardOf } from "./fast_suite_files.ts";

const files = shardOf(fastSuiteFiles(), Deno.env.get("EXECRET_TEST_SHARD"));
for (const file of files) await import(new URL(file, `file://${ROOT}`).href);
