import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  bootstrapMeans,
  percentileInterval,
  resampleCounts,
  resampler,
} from "../stats/bootstrap.ts";
import { mcnemar_exact } from "../stats/mcnemar.ts";
import type { AuditStats } from "./audit_numbers.ts";

/**
 * The kit's own statistics over `n` queries, as the audit uses them: one
 * set of resample counts (seed 20260510, 5,000 resamples, the kit's
 * generator) shared by every series, as in the stats stage, whose paired
 * intervals are likewise the difference of two series' resample means.
 */
export function kitAuditStats(n: number): AuditStats {
  const B = BOOTSTRAP_RESAMPLES;
  const r = resampler(resampleCounts(n, B, BOOTSTRAP_SEED), n, B);
  return {
    seed: BOOTSTRAP_SEED,
    resamples: B,
    resampleMeans(series) {
      if (series.length === 0) return [];
      const [{ S, samples }] = bootstrapMeans(series, r);
      return series.map((_, s) => Float64Array.from({ length: B }, (_, b) => samples[b * S + s]));
    },
    percentileInterval: (samples) => percentileInterval(samples),
    mcnemarExact: mcnemar_exact,
  };
}
