/** Every check `execret check` runs on a finished run: the integrity audit, in pipeline order. */
import type { Check } from "./check.ts";
import {
  manifestDigests,
  queriesMatchCorpus,
  rankingsComplete,
  uniqueIds,
} from "./table_checks.ts";
import {
  distractorsOneEdit,
  embeddingsHealthy,
  metricsMatchRankings,
  poolVerifiedByExecutions,
} from "./stage_checks.ts";

/** Every check, in pipeline order. */
export const ALL_CHECKS: Check[] = [
  uniqueIds,
  queriesMatchCorpus,
  poolVerifiedByExecutions,
  distractorsOneEdit,
  embeddingsHealthy,
  rankingsComplete,
  metricsMatchRankings,
  manifestDigests,
];
