/**
 * The "Closing the gap" page: what rerankers do to exec@1, at what cost,
 * and what they cannot fix. SQL runs unchanged in the browser (DuckDB-wasm
 * over the Arrow streams) and in the tests (DuckDB node-api); the rest are
 * plain functions over its rows.
 */

/** The reranked configs of the run, with their mean cost per query. */
export const RERANK_COST_SQL = `
SELECT c.config,
       count(*) AS queries,
       avg(c.suites) AS suites,
       avg(c.tests) AS tests,
       coalesce(avg(t.oracle_ms), 0) / 1000 AS oracle_seconds,
       avg(c.api_calls) AS api_calls,
       avg(c.tokens) AS tokens
FROM rerank_cost c LEFT JOIN rerank_times t ON t.config = c.config AND t.query_id = c.query_id
GROUP BY c.config
ORDER BY c.config`;

/** exec@k of every config, with its interval ($1 = k). */
export const EXEC_AT_K_SQL = `
SELECT config, value, ci_low, ci_high FROM metrics WHERE metric = 'exec' AND k = $1 ORDER BY config`;

/** The McNemar rows at exec@k ($1 = k). */
export const EXEC_PAIRS_SQL = `
SELECT config_a, config_b, a_only, b_only, p_mcnemar, p_holm
FROM pairwise WHERE metric = 'exec' AND k = $1 ORDER BY config_a, config_b`;

/**
 * Rank-1 misses of the execution rerankers, by what won: a distractor of the
 * query's own task (by bug type) or another task's snippet, and whether it
 * passes every visible test (score 1: the reranker could not tell it from
 * the canonical) or no candidate of the top k did. One example query each.
 */
export const RESIDUAL_MISSES_SQL = `
SELECT config,
       CASE WHEN own_task AND label = 'incorrect' THEN coalesce(bug_type, 'unknown')
            ELSE 'another task''s snippet' END AS winner,
       score = 1 AS passes_visible,
       count(*) AS misses,
       min(query_id) AS example
FROM rerank_rankings
WHERE rank = 1 AND in_top AND NOT (label = 'correct' AND own_task)
  AND (config LIKE '%+exec' OR config LIKE '%+exec@%')
GROUP BY 1, 2, 3
ORDER BY config, passes_visible DESC, misses DESC, winner`;

/** How the visible tests were chosen: tasks, visible and hidden tests per method. */
export const TEST_SPLIT_SQL = `
SELECT how,
       count(DISTINCT task_id) AS tasks,
       count(*) FILTER (WHERE visible) AS visible,
       count(*) FILTER (WHERE NOT visible) AS hidden
FROM test_split
GROUP BY how
ORDER BY how`;

/**
 * The base config(s) a reranked config's name names: `<base>+exec`,
 * `<base>+rerank:<name>` (one base), `rrf:<a>+<b>` (two); an optional `@k`
 * at the end. Empty for a name that is not a reranked config.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(rerankedBases("rrf:bm25+use@5"), ["bm25", "use"]);
 * ```
 */
export function rerankedBases(config: string): string[] {
  const name = config.replace(/@\d+$/, "");
  if (name.startsWith("rrf:")) return name.slice(4).split("+");
  const hosted = name.lastIndexOf("+rerank:");
  if (hosted > 0) return [name.slice(0, hosted)];
  if (name.endsWith("+exec") && name.length > 5) return [name.slice(0, -5)];
  return [];
}

/** One line of the before → after table. */
export interface BeforeAfter {
  config: string;
  base: string;
  before: number;
  before_low: number;
  before_high: number;
  after: number;
  after_low: number;
  after_high: number;
  delta: number;
  /** Queries the reranked config gets right and the base does not, and the reverse. */
  gained: number | null;
  lost: number | null;
  p_mcnemar: number | null;
  p_holm: number | null;
}

type Num = number | null | undefined;

/**
 * exec@k before (the base) and after (the reranked config) for each
 * reranked config and each of its bases, with both intervals and the
 * McNemar test of the pair (pairwise holds each pair once, in name order;
 * gained/lost are read the right way round). A config or base without an
 * exec@k row is left out.
 */
export function beforeAfterRows(
  configs: readonly string[],
  exec: readonly { config: string; value: number; ci_low: number; ci_high: number }[],
  pairs: readonly {
    config_a: string;
    config_b: string;
    a_only: Num;
    b_only: Num;
    p_mcnemar: Num;
    p_holm: Num;
  }[],
): BeforeAfter[] {
  const m = new Map(exec.map((r) => [r.config, r]));
  const out: BeforeAfter[] = [];
  for (const config of configs) {
    const after = m.get(config);
    if (!after) continue;
    for (const base of rerankedBases(config)) {
      const before = m.get(base);
      if (!before) continue;
      const ab = pairs.find((p) => p.config_a === base && p.config_b === config);
      const ba = pairs.find((p) => p.config_a === config && p.config_b === base);
      out.push({
        config,
        base,
        before: before.value,
        before_low: before.ci_low,
        before_high: before.ci_high,
        after: after.value,
        after_low: after.ci_low,
        after_high: after.ci_high,
        delta: after.value - before.value,
        gained: (ab ? ab.b_only : ba?.a_only) ?? null,
        lost: (ab ? ab.a_only : ba?.b_only) ?? null,
        p_mcnemar: (ab ?? ba)?.p_mcnemar ?? null,
        p_holm: (ab ?? ba)?.p_holm ?? null,
      });
    }
  }
  return out;
}

/** Points of the exec@1-against-cost figure: a config's exec@1 and its mean cost per query. */
export function costPoints(
  before: readonly BeforeAfter[],
  cost: readonly { config: string; tests: number; oracle_seconds: number; api_calls: number }[],
): { config: string; exec1: number; tests: number; oracle_seconds: number; api_calls: number }[] {
  const seen = new Set<string>();
  const points = [];
  for (const r of before) {
    if (!seen.has(r.base)) {
      seen.add(r.base);
      points.push({ config: r.base, exec1: r.before, tests: 0, oracle_seconds: 0, api_calls: 0 });
    }
    if (seen.has(r.config)) continue;
    seen.add(r.config);
    const c = cost.find((x) => x.config === r.config);
    points.push({
      config: r.config,
      exec1: r.after,
      tests: c?.tests ?? 0,
      oracle_seconds: c?.oracle_seconds ?? 0,
      api_calls: c?.api_calls ?? 0,
    });
  }
  return points;
}

/** A label of the cost figure: where its point is, and the height its text is drawn at. */
export interface PointLabel {
  x: number;
  y: number;
  /** The y the text sits at: `y`, or above the label below it when they would overlap. */
  labelY: number;
  text: string;
}

/**
 * Labels for points that may share a position (every base config costs 0
 * oracle seconds, and several may have one exec@1): points at one x (within
 * 1% of the x range) get one label per distinct y, naming every config
 * there, and labels closer than `gap` (in y units) are moved up so that
 * none overlaps the one below it.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   dodgeLabels([
 *     { config: "bm25", x: 0, y: 0.075 },
 *     { config: "tfidf", x: 0, y: 0.075 },
 *     { config: "rrf", x: 0, y: 0.08 },
 *   ], 0.05).map((d) => [d.text, d.labelY]),
 *   [["bm25, tfidf", 0.075], ["rrf", 0.125]],
 * );
 * ```
 */
export function dodgeLabels(
  points: readonly { config: string; x: number; y: number }[],
  gap: number,
): PointLabel[] {
  const xs = points.map((p) => p.x);
  const near = (Math.max(0, ...xs) - Math.min(0, ...xs)) / 100;
  const columns: { x: number; points: { config: string; x: number; y: number }[] }[] = [];
  for (const p of [...points].sort((a, b) => a.x - b.x)) {
    const column = columns.find((c) => Math.abs(c.x - p.x) <= near);
    if (column) column.points.push(p);
    else columns.push({ x: p.x, points: [p] });
  }
  const labels: PointLabel[] = [];
  for (const column of columns) {
    const byY = new Map<number, { x: number; y: number; names: string[] }>();
    for (const p of column.points) {
      const at = byY.get(p.y) ?? { x: p.x, y: p.y, names: [] };
      at.names.push(p.config);
      byY.set(p.y, at);
    }
    let below = -Infinity;
    for (const at of [...byY.values()].sort((a, b) => a.y - b.y)) {
      const labelY = Math.max(at.y, below + gap);
      labels.push({ x: at.x, y: at.y, labelY, text: at.names.join(", ") });
      below = labelY;
    }
  }
  return labels;
}

/** The cost figure's points, each marked reranked or not. */
export function costPointsOf(
  before: readonly BeforeAfter[],
  cost: readonly Record<string, unknown>[],
) {
  return costPoints(before, cost as never).map((p) => ({
    ...p,
    reranked: rerankedBases(p.config).length > 0,
  }));
}

/** The cost figure's labels (see closing_the_gap.ts `dodgeLabels`). */
export function labelsOf(
  points: readonly { config: string; oracle_seconds: number; exec1: number }[],
) {
  return dodgeLabels(
    points.map((d) => ({ config: d.config, x: d.oracle_seconds, y: d.exec1 })),
    0.05,
  );
}
