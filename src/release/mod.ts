/**
 * Auditing the paper from its released bundle: read and validate the
 * bundle, load it as the kit's tables, recompute and check every released
 * number, re-execute the released snippets and compare the released
 * distractors with the kit's mutation engine (`execret import-release`).
 *
 * @module
 */
export { readBundle, resolveBundleDir } from "./read_bundle.ts";
export type { Bundle, ReleasedRun } from "./read_bundle.ts";
export { BundleError } from "./bundle_problem.ts";
export { importRelease, releaseTablePath, releaseTablesDir } from "./import_release.ts";
export type { ImportOptions, ImportResult } from "./import_release.ts";
export { auditNumbers } from "./audit_numbers.ts";
export { AUDIT, summarizeAudit } from "./audit_row.ts";
export type { AuditRow } from "./audit_row.ts";
export { AUDIT_EXECUTIONS } from "./reexecute.ts";
export { AUDIT_MUTATIONS } from "./compare_mutants.ts";
