import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  bootstrapMeans,
  percentileInterval,
  resampleCounts,
  resampler,
} from "../stats/bootstrap.ts";
import { mcnemar_exact } from "../stats/mcnemar.ts";
import type { AuditStats, BootstrapInterval } from "./audit_numbers.ts";

/**
 * The kit's own statistics over `n` queries, as the audit uses them: one
 * set of resample counts (seed 20260510, 5,000 resamples, the kit's
 * generator) shared by every interval, as in the stats stage, and a paired
 * interval as the stats stage makes it: the difference of the two models'
 * means on each resample.
 */
export function kitAuditStats(n: number): AuditStats {
  const B = BOOTSTRAP_RESAMPLES;
  const r = resampler(resampleCounts(n, B, BOOTSTRAP_SEED), n, B);
  const means = (values: readonly number[]) =>
    bootstrapMeans([Float64Array.from(values)], r)[0].samples;
  const interval = (samples: Float64Array): BootstrapInterval => {
    const [low, high] = percentileInterval(samples);
    return { low, high, sorted: Float64Array.from(samples).sort() };
  };
  return {
    seed: BOOTSTRAP_SEED,
    resamples: B,
    bootstrapMean: (values) => interval(means(values)),
    pairedBootstrap: (a, b) => {
      const sa = means(a);
      const sb = means(b);
      return interval(sa.map((x, i) => x - sb[i]));
    },
    mcnemarExact: mcnemar_exact,
  };
}
