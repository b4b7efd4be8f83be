/**
 * The paper's release: fetch and verify the bundle, read it (one reader,
 * refusing only what makes recomputation impossible and counting everything
 * else as findings), and the release run's stages: tasks from its queries,
 * its own pool re-executed in the sandbox, its saved matrices as embedding
 * files, and every released number set beside the kit's.
 *
 * @module
 */
export { readBundle, resolveBundleDir } from "./read_bundle.ts";
export type { Bundle, ReleasedRun } from "./read_bundle.ts";
export { BundleError } from "./bundle_problem.ts";
export { FINDING_KINDS } from "./findings.ts";
export type { FindingKind, FindingRow } from "./findings.ts";
export { RELEASE_MUTATIONS } from "./compare_mutants.ts";
