/**
 * Every table the site reads, by the name pages and SQL give it, with how a
 * loader gets its bytes: the run's table as it is, an empty table of its
 * spec when the run may lack it (release-only and rerank tables), or a view
 * made for the site (rankings with the reranked configs, margins, outcomes).
 * The `docs/data/<name>.arrow.ts` loaders and the pages' precomputed data
 * (src/site/page_data.ts) both read tables through this one list.
 */
import type { TableSpec } from "../io/arrow_table.ts";
import {
  BREAKDOWNS,
  EXECUTION_TIMES,
  LIMIT_MARGINS,
  RANKINGS,
  VALIDATION,
} from "../tables/schema.ts";
import { RERANK_COST, RERANK_TIMES, TEST_SPLIT } from "../tables/rerank.ts";
import { BOARD_ENTRIES, LEADERBOARD } from "../tables/board.ts";
import { RELEASE_TABLES } from "./release_tables.ts";
import { tableBytes } from "./table_stream.ts";
import { unionBytes } from "./reranked_union.ts";
import { perQuerySubset } from "./per_query_subset.ts";
import { snippetOutcomesStream } from "./outcomes_table.ts";

/** Tables a run may lack, with the spec of the empty table written instead. */
const OPTIONAL: Record<string, TableSpec> = {
  ...RELEASE_TABLES,
  breakdowns: BREAKDOWNS,
  execution_times: EXECUTION_TIMES,
  limit_margins: LIMIT_MARGINS,
  validation: VALIDATION,
  rerank_cost: RERANK_COST,
  rerank_times: RERANK_TIMES,
  rerank_rankings: RANKINGS,
  test_split: TEST_SPLIT,
  board_entries: BOARD_ENTRIES,
  board_rankings: RANKINGS,
  leaderboard: LEADERBOARD,
};

/** Tables made for the site rather than read as they are. */
const MADE: Record<string, () => Promise<Uint8Array>> = {
  rankings: () => unionBytes("rankings", ["rerank_rankings", "board_rankings"]),
  per_query: () => unionBytes("per_query", ["rerank_per_query", "board_per_query"]),
  margins: () => perQuerySubset(["margin"]),
  outcomes: () => snippetOutcomesStream(),
};

/** The Arrow stream of site table `name` (see the module comment). */
export function siteTableBytes(name: string): Promise<Uint8Array> {
  const made = MADE[name];
  if (made) return made();
  return tableBytes(name, OPTIONAL[name]);
}
