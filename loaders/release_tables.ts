import type { TableSpec } from "../src/io/arrow_table.ts";
import {
  ORACLE_AGREEMENT,
  ORACLE_DISAGREEMENTS,
  ORACLE_NOT_IN_RELEASE,
  PAPER_COMPARISON,
  RANKING_AGREEMENT,
  RANKING_DIFFERENCES,
  RELEASE_FINDINGS,
  RELEASE_MUTATIONS,
} from "../src/tables/release.ts";

/**
 * The tables only a release run writes (its oracle and compare stages),
 * with the spec of the empty table a loader writes on any other run, so
 * the pages' release sections find no rows and stay hidden instead of
 * failing the build.
 */
export const RELEASE_TABLES: Record<string, TableSpec> = {
  paper_comparison: PAPER_COMPARISON,
  ranking_agreement: RANKING_AGREEMENT,
  ranking_differences: RANKING_DIFFERENCES,
  oracle_agreement: ORACLE_AGREEMENT,
  oracle_disagreements: ORACLE_DISAGREEMENTS,
  release_mutations: RELEASE_MUTATIONS,
  release_findings: RELEASE_FINDINGS,
  oracle_not_in_release: ORACLE_NOT_IN_RELEASE,
};
