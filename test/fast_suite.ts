/**
 * The fast suite as one test module: `make unit` runs this file instead of
 * letting `deno test` find the fast suite's ~120 test files (the list and the
 * reason are in fast_suite_files.ts), so every test file is evaluated once in
 * one isolate and registers its tests as it would alone.
 *
 * @module
 */
import { fastSuiteFiles, ROOT } from "./fast_suite_files.ts";

for (const file of fastSuiteFiles()) await import(new URL(file, `file://${ROOT}`).href);
