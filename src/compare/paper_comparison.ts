import {
  type PaperComparisonRow,
  type RankingAgreementRow,
  type RankingDifferenceRow,
} from "../tables/release.ts";
import type { MetricRow, PairwiseRow, RankingRow } from "../tables/schema.ts";
import { metricKey } from "../release/metric_key.ts";
import type { Bundle, ReleasedPairEntry } from "../release/bundle_types.ts";
import {
  pValueTolerance,
  releasedPrecision,
  significantDigits,
  toleranceFor,
} from "./released_precision.ts";

/** The kit's rows this comparison reads (columns of `metrics`, `pairwise`, `rankings`). */
export type KitMetric = Pick<MetricRow, "config" | "metric" | "k" | "value" | "ci_low" | "ci_high">;

/** A row of the kit's `pairwise` table. */
export type KitPair = Omit<PairwiseRow, "p_holm">;

/** A row of the kit's `rankings` table. */
export type KitRanking = Pick<RankingRow, "config" | "query_id" | "rank" | "corpus_id" | "in_top">;

/** What {@link comparePaper} compares. */
export interface PaperComparisonInput {
  bundle: Bundle;
  /** Released model id → the kit config that scored it. */
  configOf: ReadonlyMap<string, string>;
  /** Kit configs that are the kit's own implementation of a released system (BM25). */
  kitOwn: ReadonlySet<string>;
  metrics: readonly KitMetric[];
  pairwise: readonly KitPair[];
  rankings: readonly KitRanking[];
  /** The kit's query id of a released query id (default `release/<id>`). */
  queryIdOf?: (released: string) => string;
}

/** The three tables of the comparison. */
export interface PaperComparison {
  comparison: PaperComparisonRow[];
  agreement: RankingAgreementRow[];
  differences: RankingDifferenceRow[];
}

const FAMILY: Record<string, string> = { exec_ndcg_gap: "gap" };

/** What names a comparison row's number: its section, system (pair) and metric. */
type ComparisonKey =
  & Pick<PaperComparisonRow, "section" | "model" | "config" | "metric" | "k">
  & Partial<Pick<PaperComparisonRow, "model_b" | "config_b">>;
const COUNTS = ["a_only", "b_only", "both", "neither"] as const;

/**
 * Put every released number beside the kit's: per system the aggregate
 * metrics of `results/<model>.json` and the intervals of
 * `tests/confidence_intervals.json`; per pair of systems the rates, delta,
 * McNemar counts and exact p, and the paired bootstrap interval of
 * `tests/pairwise_tests.json`; and per system the agreement of the kit's top
 * 10 with the released one, query by query.
 *
 * Point values must be equal to the released precision (see
 * released_precision.ts; p-values may be rounded to significant digits,
 * so either reading of their rounding is accepted). Bootstrap endpoints come
 * from another random generator, so they are accepted within a Monte Carlo
 * band: the rounding, plus a tenth of the released interval's width, plus one
 * step of the metric's lattice (1/n for a mean of n 0/1 values). A system
 * the kit scores with its own implementation (BM25) is shown with status
 * `kit_own` and never flagged: the paper's BM25 tokenisation is not the kit's.
 */
export function comparePaper(input: PaperComparisonInput): PaperComparison {
  const { bundle, configOf, kitOwn } = input;
  const qid = input.queryIdOf ?? ((id: string) => `release/${id}`);
  const kitMetric = new Map(input.metrics.map((m) => [`${m.config}|${m.metric}|${m.k}`, m]));
  const n = bundle.queries.length;
  const lattice = n > 0 ? 1 / n : 0;
  const rows: PaperComparisonRow[] = [];
  const push = (
    base: ComparisonKey,
    quantity: string,
    released: number,
    kit: number | null | undefined,
    tolerance: number,
    own: boolean,
    locator: string,
  ) => {
    const have = kit !== null && kit !== undefined && Number.isFinite(kit);
    const difference = have ? kit - released : null;
    const equal = have ? Math.abs(difference!) <= tolerance : null;
    const status = !have ? "missing" : own ? "kit_own" : equal ? "equal" : "differs";
    rows.push({
      model_b: null,
      config_b: null,
      ...base,
      quantity,
      released,
      kit: have ? kit : null,
      difference,
      tolerance,
      equal,
      status,
      flagged: status === "differs" || (status === "missing" && !own),
      locator,
    });
  };

  // Aggregates of each results file.
  const metricPrecision = releasedPrecision(bundle.runs.flatMap((r) => Object.values(r.metrics)));
  for (const run of bundle.runs) {
    const config = configOf.get(run.model);
    if (config === undefined) continue;
    for (const [name, released] of Object.entries(run.metrics)) {
      const key = metricKey(name);
      if (!key) continue;
      const metric = FAMILY[key.family] ?? key.family;
      const kit = kitMetric.get(`${config}|${metric}|${key.k}`)?.value;
      push(
        { section: "metric", model: run.model, config, metric, k: key.k },
        "value",
        released,
        kit,
        toleranceFor(metricPrecision, released, kit ?? released),
        kitOwn.has(config),
        `${run.file}: metrics["${name}"]`,
      );
    }
  }

  // Per-system bootstrap intervals.
  const ciPrecision = releasedPrecision(
    [...bundle.intervals.values()].flatMap((m) =>
      [...m.values()].flatMap((e) => [e.mean, e.ci95_low, e.ci95_high])
    ),
  );
  for (const [model, byMetric] of bundle.intervals) {
    const config = configOf.get(model);
    if (config === undefined) continue;
    for (const [name, e] of byMetric) {
      const key = metricKey(name);
      if (!key) continue;
      const metric = FAMILY[key.family] ?? key.family;
      const kit = kitMetric.get(`${config}|${metric}|${key.k}`);
      const base = { section: "interval", model, config, metric, k: key.k };
      const at = `${bundle.files.intervals}: "${model}"."${name}"`;
      const own = kitOwn.has(config);
      const band = toleranceFor(ciPrecision, e.mean, kit?.value ?? e.mean) +
        0.1 * Math.abs(e.ci95_high - e.ci95_low) + lattice;
      push(
        base,
        "value",
        e.mean,
        kit?.value,
        toleranceFor(ciPrecision, e.mean, kit?.value ?? e.mean),
        own,
        `${at}.mean`,
      );
      push(base, "ci_low", e.ci95_low, kit?.ci_low, band, own, `${at}.ci95_low`);
      push(base, "ci_high", e.ci95_high, kit?.ci_high, band, own, `${at}.ci95_high`);
    }
  }

  // Pairwise tests.
  const kitPair = new Map(
    input.pairwise.map((p) => [`${p.config_a}|${p.config_b}|${p.metric}|${p.k}`, p]),
  );
  const entries = bundle.pairs.flatMap((p) => Object.values(p.metrics));
  const ratePrecision = releasedPrecision(
    entries.flatMap((e) => [e.a_rate, e.b_rate, e.delta].filter((v) => v !== undefined)),
  );
  const pValues = entries.flatMap((e) =>
    e.mcnemar_exact_p === undefined ? [] : [e.mcnemar_exact_p]
  );
  const pDecimals = releasedPrecision(pValues);
  const pDigits = significantDigits(pValues);
  const pairCiPrecision = releasedPrecision(entries.flatMap((e) => e.bootstrap_ci_95));
  for (const pair of bundle.pairs) {
    const ca = configOf.get(pair.a);
    const cb = configOf.get(pair.b);
    if (ca === undefined || cb === undefined) continue;
    const own = kitOwn.has(ca) || kitOwn.has(cb);
    for (const [name, e] of Object.entries(pair.metrics)) {
      const key = metricKey(name);
      if (!key) continue;
      const metric = FAMILY[key.family] ?? key.family;
      const kit = orientedPair(kitPair, ca, cb, metric, key.k);
      const base = {
        section: "pairwise",
        model: pair.a,
        config: ca,
        model_b: pair.b,
        config_b: cb,
        metric,
        k: key.k,
      };
      const at = `${bundle.files.pairwise}: "${pair.key}"."${name}"`;
      // Only exec@k carries its rates (tests/README.md); they are compared where written.
      const rate = (q: "a_rate" | "b_rate" | "delta") => {
        const released = e[q];
        if (released === undefined) return;
        push(
          base,
          q,
          released,
          kit?.[q],
          toleranceFor(ratePrecision, released, kit?.[q] ?? released),
          own,
          `${at}.${q}`,
        );
      };
      rate("a_rate");
      rate("b_rate");
      rate("delta");
      for (const c of COUNTS) {
        const released = (e as ReleasedPairEntry)[c];
        if (released !== undefined) push(base, c, released, kit?.[c], 0, own, `${at}.${c}`);
      }
      if (e.mcnemar_exact_p !== undefined) {
        const p = e.mcnemar_exact_p;
        const ours = kit?.p_mcnemar;
        const tolerance = pValueTolerance(pDecimals, pDigits, p, ours ?? p);
        push(base, "p_mcnemar", p, ours, tolerance, own, `${at}.mcnemar_exact_p`);
      }
      const [lo, hi] = e.bootstrap_ci_95;
      const band = toleranceFor(pairCiPrecision, lo, kit?.ci_low ?? lo) + 0.1 * Math.abs(hi - lo) +
        lattice;
      push(base, "ci_low", lo, kit?.ci_low, band, own, `${at}.bootstrap_ci_95[0]`);
      push(base, "ci_high", hi, kit?.ci_high, band, own, `${at}.bootstrap_ci_95[1]`);
    }
  }

  const { agreement, differences } = compareRankings(input, qid);
  return { comparison: rows, agreement, differences };
}

/**
 * The kit's pair row for (a, b) whichever order the kit keeps them in:
 * swapped, A's and B's numbers trade places and the delta and interval
 * change sign.
 */
function orientedPair(
  byKey: ReadonlyMap<string, KitPair>,
  a: string,
  b: string,
  metric: string,
  k: number,
): KitPair | undefined {
  const same = byKey.get(`${a}|${b}|${metric}|${k}`);
  if (same) return same;
  const r = byKey.get(`${b}|${a}|${metric}|${k}`);
  if (!r) return undefined;
  return {
    ...r,
    config_a: a,
    config_b: b,
    a_rate: r.b_rate,
    b_rate: r.a_rate,
    delta: -r.delta,
    ci_low: -r.ci_high,
    ci_high: -r.ci_low,
    a_only: r.b_only,
    b_only: r.a_only,
  };
}

function compareRankings(
  input: PaperComparisonInput,
  qid: (id: string) => string,
): { agreement: RankingAgreementRow[]; differences: RankingDifferenceRow[] } {
  const kitTop = new Map<string, string[]>();
  for (const r of input.rankings) {
    if (!r.in_top) continue;
    const key = `${r.config}\u0000${r.query_id}`;
    let list = kitTop.get(key);
    if (!list) kitTop.set(key, list = []);
    list[r.rank - 1] = r.corpus_id;
  }
  const agreement: RankingAgreementRow[] = [];
  const differences: RankingDifferenceRow[] = [];
  for (const run of input.bundle.runs) {
    const config = input.configOf.get(run.model);
    if (config === undefined) continue;
    let identical = 0;
    let sameFirst = 0;
    let firstMin: number | null = null;
    for (const pq of run.per_query) {
      const released = pq.top_results.map((r) => r.corpus_id);
      const ours = kitTop.get(`${config}\u0000${qid(pq.query_id)}`) ?? [];
      const depth = Math.max(released.length, ours.length);
      let first = 0;
      for (let i = 0; i < depth; i++) {
        if (released[i] !== ours[i]) {
          first = i + 1;
          break;
        }
      }
      if (released[0] !== undefined && released[0] === ours[0]) sameFirst++;
      if (first === 0) {
        identical++;
        continue;
      }
      firstMin = firstMin === null ? first : Math.min(firstMin, first);
      differences.push({
        config,
        query_id: qid(pq.query_id),
        first_differing_rank: first,
        released_corpus_id: released[first - 1] ?? null,
        kit_corpus_id: ours[first - 1] ?? null,
      });
    }
    const queries = run.per_query.length;
    agreement.push({
      model: run.model,
      config,
      queries,
      identical_top10: identical,
      share_identical: queries ? identical / queries : 0,
      same_rank1: sameFirst,
      first_differing_rank_min: firstMin,
      kit_own: input.kitOwn.has(config),
    });
  }
  const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  agreement.sort((a, b) => byString(a.config, b.config));
  differences.sort((a, b) => byString(a.config, b.config) || byString(a.query_id, b.query_id));
  return { agreement, differences };
}
