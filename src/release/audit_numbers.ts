import { mcnemar_table, type McNemarTable } from "../stats/mcnemar.ts";
import type { AuditRow } from "./audit_row.ts";
import { bootstrapWindow, inWindow } from "./bootstrap_tolerance.ts";
import type { Bundle, ReleasedRun } from "./read_bundle.ts";
import { meanOf, type MetricKey, metricKey, perQueryValues } from "./per_query_values.ts";
import {
  pValueTolerance,
  type ReleasedPrecision,
  releasedPrecision,
  significantDigits,
  toleranceFor,
} from "./released_precision.ts";

/** A bootstrap percentile interval with the sorted replicates behind it. */
export interface BootstrapInterval {
  low: number;
  high: number;
  /** Replicate statistics, ascending. */
  sorted: ArrayLike<number>;
}

/** The kit's statistics the audit recomputes with (see `kit_stats.ts`). */
export interface AuditStats {
  seed: number;
  resamples: number;
  /**
   * The B resample means of each per-query series (all on the same
   * resamples, so the difference of two series' resample means is their
   * paired bootstrap).
   */
  resampleMeans(series: readonly Float64Array[]): Float64Array[];
  /** 95 % percentile interval of resample statistics. */
  percentileInterval(samples: ArrayLike<number>): [number, number];
  /** Exact two-sided McNemar p from the discordant counts. */
  mcnemarExact(aOnly: number, bOnly: number): number;
}

const COUNT_FIELDS = ["a_only", "b_only", "both", "neither"] as const;

/**
 * Check every released number of the bundle against the kit's recomputation
 * from the released rankings: the aggregate metrics of each results file and
 * of the leaderboard, the confidence intervals, and every pairwise entry
 * (rates, delta, McNemar counts and exact p, paired bootstrap interval).
 * Point values and counts must agree to the released precision (see
 * `released_precision.ts`); bootstrap endpoints within the Monte Carlo
 * window of `bootstrap_tolerance.ts`.
 */
export function auditNumbers(bundle: Bundle, stats: AuditStats): AuditRow[] {
  const values = new Map<string, number[]>();
  const runs = new Map(bundle.runs.map((r) => [r.model, r]));
  const id = (run: ReleasedRun, key: MetricKey) => `${run.model}\u0000${key.name}`;
  const valuesOf = (run: ReleasedRun, key: MetricKey): number[] => {
    let v = values.get(id(run, key));
    if (!v) values.set(id(run, key), v = perQueryValues(bundle, run, key));
    return v;
  };
  // Every (model, metric) series is resampled once, all in one batch: the
  // release has hundreds of pairs × metrics, each reusing two of them.
  const keys = releasedMetricKeys(bundle);
  const batch = bundle.runs.flatMap((run) => keys.map((key) => ({ run, key })));
  const resampled = new Map<string, Float64Array>();
  stats.resampleMeans(batch.map(({ run, key }) => Float64Array.from(valuesOf(run, key))))
    .forEach((samples, i) => resampled.set(id(batch[i].run, batch[i].key), samples));
  const interval = (samples: Float64Array): BootstrapInterval => {
    const [low, high] = stats.percentileInterval(samples);
    return { low, high, sorted: Float64Array.from(samples).sort() };
  };
  const meanInterval = (run: ReleasedRun, key: MetricKey) => interval(resampled.get(id(run, key))!);
  const pairedInterval = (a: ReleasedRun, b: ReleasedRun, key: MetricKey) => {
    const sa = resampled.get(id(a, key))!;
    const sb = resampled.get(id(b, key))!;
    return interval(sa.map((x, i) => x - sb[i]));
  };
  const rows: AuditRow[] = [];

  // Aggregates of each results file.
  const metricsPrecision = releasedPrecision(bundle.runs.flatMap((r) => Object.values(r.metrics)));
  for (const run of bundle.runs) {
    for (const [name, released] of Object.entries(run.metrics)) {
      const key = metricKey(name);
      const recomputed = key ? meanOf(valuesOf(run, key)) : null;
      rows.push(point("metrics", run.model, key, name, "value", released, recomputed, {
        precision: metricsPrecision,
        locator: `${run.file}: metrics["${name}"]`,
      }));
    }
  }

  // The leaderboard repeats the aggregates; it must agree with the rankings too.
  const boardFile = bundle.files.leaderboard;
  const boardValues = bundle.leaderboard.flatMap((row) =>
    Object.entries(row).filter(([k, v]) => metricKey(k) && typeof v === "number").map(([, v]) =>
      v as number
    )
  );
  const boardPrecision = releasedPrecision(boardValues);
  for (const row of bundle.leaderboard) {
    const run = runs.get(String(row.model));
    if (!run) continue; // models without results are reported by readBundle
    for (const [name, released] of Object.entries(row)) {
      const key = metricKey(name);
      if (!key || typeof released !== "number") continue;
      rows.push(
        point("leaderboard", run.model, key, name, "value", released, meanOf(valuesOf(run, key)), {
          precision: boardPrecision,
          locator: `${boardFile}: model ${run.model}, "${name}"`,
        }),
      );
    }
  }

  // Confidence intervals: mean and settings exactly, endpoints within the window.
  const ciFile = bundle.files.intervals;
  const allIntervals = [...bundle.intervals.values()].flatMap((m) => [...m.values()]);
  const meanPrecision = releasedPrecision(allIntervals.map((e) => e.mean));
  const ciPrecision = releasedPrecision(allIntervals.flatMap((e) => [e.ci95_low, e.ci95_high]));
  for (const [model, metrics] of bundle.intervals) {
    const run = runs.get(model)!;
    for (const [name, e] of metrics) {
      const key = metricKey(name);
      const at = `${ciFile}: model ${model}, "${name}"`;
      const v = key ? valuesOf(run, key) : null;
      rows.push(point("intervals", model, key, name, "mean", e.mean, v && meanOf(v), {
        precision: meanPrecision,
        locator: `${at}.mean`,
      }));
      rows.push(exact("intervals", model, key, name, "n", e.n, bundle.queries.length, `${at}.n`));
      rows.push(
        exact(
          "intervals",
          model,
          key,
          name,
          "bootstrap_samples",
          e.bootstrap_samples,
          stats.resamples,
          `${at}.bootstrap_samples`,
        ),
      );
      rows.push(exact("intervals", model, key, name, "seed", e.seed, stats.seed, `${at}.seed`));
      const ci = key ? meanInterval(run, key) : null;
      rows.push(...endpoints("intervals", model, key, name, [e.ci95_low, e.ci95_high], ci, {
        precision: ciPrecision,
        locator: at,
        names: ["ci95_low", "ci95_high"],
      }));
    }
  }

  // Pairwise tests.
  const pairFile = bundle.files.pairwise;
  const entries = bundle.pairs.flatMap((p) => Object.values(p.metrics));
  const ratePrecision = releasedPrecision(entries.flatMap((e) => [e.a_rate, e.b_rate, e.delta]));
  const pValues = entries.flatMap((e) =>
    e.mcnemar_exact_p === undefined ? [] : [e.mcnemar_exact_p]
  );
  const pPrecision = releasedPrecision(pValues);
  const pDigits = significantDigits(pValues);
  const pairCiPrecision = releasedPrecision(entries.flatMap((e) => e.bootstrap_ci_95));
  for (const pair of bundle.pairs) {
    const a = runs.get(pair.a)!;
    const b = runs.get(pair.b)!;
    for (const [name, e] of Object.entries(pair.metrics)) {
      const key = metricKey(name);
      const at = `${pairFile}: "${pair.key}", "${name}"`;
      const av = key ? valuesOf(a, key) : null;
      const bv = key ? valuesOf(b, key) : null;
      const ar = av && meanOf(av);
      const br = bv && meanOf(bv);
      const rate = (q: string, released: number, recomputed: number | null) =>
        rows.push(point("pairwise", pair.key, key, name, q, released, recomputed, {
          precision: ratePrecision,
          locator: `${at}.${q}`,
        }));
      rate("a_rate", e.a_rate, ar);
      rate("b_rate", e.b_rate, br);
      rate("delta", e.delta, ar === null || br === null ? null : ar - br);
      // Counts on the per-query hit (value > 0): for exec@k exactly the McNemar table.
      const counts = av && bv ? contingency(av, bv) : null;
      for (const c of COUNT_FIELDS) {
        const released = e[c];
        if (released === undefined) continue;
        rows.push(
          exact("pairwise", pair.key, key, name, c, released, counts && counts[c], `${at}.${c}`),
        );
      }
      if (e.mcnemar_exact_p !== undefined) {
        const p = counts && key?.family === "exec"
          ? stats.mcnemarExact(counts.a_only, counts.b_only)
          : null;
        rows.push(point("pairwise", pair.key, key, name, "mcnemar_exact_p", e.mcnemar_exact_p, p, {
          precision: pPrecision,
          locator: `${at}.mcnemar_exact_p`,
          tolerance: p === null
            ? undefined
            : pValueTolerance(pPrecision, pDigits, e.mcnemar_exact_p, p),
        }));
      }
      const ci = key ? pairedInterval(a, b, key) : null;
      rows.push(...endpoints("pairwise", pair.key, key, name, e.bootstrap_ci_95, ci, {
        precision: pairCiPrecision,
        locator: `${at}.bootstrap_ci_95`,
        names: ["ci95_low", "ci95_high"],
      }));
    }
  }
  return rows;
}

/** Every recomputable metric named anywhere in the bundle, in first-seen order. */
function releasedMetricKeys(bundle: Bundle): MetricKey[] {
  const names = new Set<string>();
  for (const run of bundle.runs) for (const n of Object.keys(run.metrics)) names.add(n);
  for (const m of bundle.intervals.values()) for (const n of m.keys()) names.add(n);
  for (const p of bundle.pairs) for (const n of Object.keys(p.metrics)) names.add(n);
  return [...names].map(metricKey).filter((k): k is MetricKey => k !== null);
}

/** McNemar's 2×2 table of two paired per-query vectors, on "value > 0" (a hit). */
function contingency(a: readonly number[], b: readonly number[]): McNemarTable {
  const hit = (v: readonly number[]) => v.map((x) => (x > 0 ? 1 : 0));
  return mcnemar_table(hit(a), hit(b));
}

function base(section: string, subject: string, key: MetricKey | null, name: string) {
  return {
    section,
    subject,
    metric: key?.family ?? name,
    k: key?.k ?? 0,
  };
}

function point(
  section: string,
  subject: string,
  key: MetricKey | null,
  name: string,
  quantity: string,
  released: number,
  recomputed: number | null,
  o: { precision: ReleasedPrecision; locator: string; tolerance?: number },
): AuditRow {
  const tolerance = recomputed === null
    ? null
    : o.tolerance ?? toleranceFor(o.precision, released, recomputed);
  return {
    ...base(section, subject, key, name),
    quantity,
    released,
    recomputed,
    tolerance,
    match: recomputed === null ? null : Math.abs(released - recomputed) <= tolerance!,
    locator: o.locator,
  };
}

function exact(
  section: string,
  subject: string,
  key: MetricKey | null,
  name: string,
  quantity: string,
  released: number,
  recomputed: number | null,
  locator: string,
): AuditRow {
  return {
    ...base(section, subject, key, name),
    quantity,
    released,
    recomputed,
    tolerance: recomputed === null ? null : 0,
    match: recomputed === null ? null : released === recomputed,
    locator,
  };
}

function endpoints(
  section: string,
  subject: string,
  key: MetricKey | null,
  name: string,
  released: readonly number[],
  ci: BootstrapInterval | null,
  o: { precision: ReleasedPrecision; locator: string; names: [string, string] },
): AuditRow[] {
  return ([0, 1] as const).map((i) => {
    const q = i === 0 ? 0.025 : 0.975;
    const ours = ci === null ? null : i === 0 ? ci.low : ci.high;
    const row: AuditRow = {
      ...base(section, subject, key, name),
      quantity: o.names[i],
      released: released[i],
      recomputed: ours,
      tolerance: null,
      match: null,
      locator: `${o.locator}.${o.names[i]}`,
    };
    if (ci !== null && ours !== null) {
      const rounding = toleranceFor(o.precision, released[i], ours);
      const w = bootstrapWindow(ci.sorted, q, ours, rounding);
      row.tolerance = w.halfWidth;
      row.match = inWindow(w, released[i]);
    }
    return row;
  });
}
