import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  bootstrapMeans,
  percentileInterval,
  resampleCounts,
} from "../stats/bootstrap.ts";
import { mcnemar_exact } from "../stats/mcnemar.ts";
import type { AuditStats, BootstrapInterval } from "./audit_numbers.ts";

/**
 * The kit's own statistics over `n` queries, as the audit uses them: one
 * set of resample counts (seed 20260510, 5,000 resamples, the kit's
 * generator) shared by every interval, as in the stats stage, so paired
 * intervals resample the same queries for both models.
 */
export function kitAuditStats(n: number): AuditStats {
  const B = BOOTSTRAP_RESAMPLES;
  const counts = resampleCounts(n, B, BOOTSTRAP_SEED);
  const interval = (series: Float64Array): BootstrapInterval => {
    const { samples } = bootstrapMeans([series], counts, n, B);
    const [low, high] = percentileInterval(samples);
    return { low, high, sorted: Float64Array.from(samples).sort() };
  };
  return {
    seed: BOOTSTRAP_SEED,
    resamples: B,
    bootstrapMean: (values) => interval(Float64Array.from(values)),
    pairedBootstrap: (a, b) => interval(Float64Array.from(a, (x, i) => x - b[i])),
    mcnemarExact: mcnemar_exact,
  };
}
