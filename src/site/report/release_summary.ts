/**
 * The Overview's and Benchmark page's summaries of a release run: the
 * paper's headline numbers regenerated from the released systems, the
 * one-line status of the comparison, and the kit's mutation engine and
 * oracle set against the released distractors and execution cache.
 */

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === "number" && !Number.isNaN(v) ? v : null);

/** Prefix of the configs that score a released dense system from its saved embeddings. */
export const PAPER_CONFIG_PREFIX = "paper-";

/** A range of a share over several systems. */
export interface ShareRange {
  min: number | null;
  max: number | null;
  /** The systems it is over, with each one's value. */
  values: { config: string; value: number | null }[];
}

/** The paper's headline numbers as this run regenerates them. */
export interface ReleaseHeadline {
  /** The released system with the highest exec@1 (ties: higher exec@top, then name). */
  top: string;
  exec1: number | null;
  exec1Low: number | null;
  exec1High: number | null;
  /** The largest cutoff the run has up to 10 (the paper's exec@10). */
  topK: number;
  execTop: number | null;
  /** The leading released systems by exec@1 the shares are taken over. */
  leading: string[];
  /** Share of rank-1 misses that are the query's own distractors (`miss_own_distractor`, k = 1). */
  ownMisses: ShareRange;
  /** Share of queries whose canonical is below one of its distractors (`below_distractor`, k = 0). */
  belowDistractor: ShareRange;
}

function range(configs: readonly string[], valueOf: (config: string) => number | null): ShareRange {
  const values = configs.map((config) => ({ config, value: valueOf(config) }));
  const present = values.map((d) => d.value).filter((v): v is number => v != null);
  return {
    min: present.length ? Math.min(...present) : null,
    max: present.length ? Math.max(...present) : null,
    values,
  };
}

/**
 * The paper's headline numbers from the `metrics` rows of a release run,
 * over the released systems (`paper-*` configs) only: the top system by
 * exec@1 with its exec@1 and exec@10, and over the `leading` systems by
 * exec@1 (the paper's four), the ranges of the own-distractor share of
 * rank-1 misses and of the canonical-below-a-distractor share. `null` when
 * the run scores no released system (a default run).
 */
export function releaseHeadline(metrics: readonly Row[], leading = 4): ReleaseHeadline | null {
  const get = (config: string, metric: string, k: number) =>
    metrics.find((m) => m.config === config && m.metric === metric && m.k === k);
  const ks = [...new Set(metrics.filter((m) => m.metric === "exec").map((m) => Number(m.k)))];
  const upTo10 = ks.filter((k) => k <= 10);
  const topK = upTo10.length ? Math.max(...upTo10) : Math.max(1, ...ks);
  const configs = [
    ...new Set(
      metrics.filter((m) =>
        String(m.config).startsWith(PAPER_CONFIG_PREFIX) && m.metric === "exec" && m.k === 1
      ).map((m) => String(m.config)),
    ),
  ];
  if (!configs.length) return null;
  const value = (config: string, metric: string, k: number) => num(get(config, metric, k)?.value);
  const byExec1 = configs.sort((a, b) =>
    (value(b, "exec", 1) ?? -1) - (value(a, "exec", 1) ?? -1) ||
    (value(b, "exec", topK) ?? -1) - (value(a, "exec", topK) ?? -1) ||
    (a < b ? -1 : a > b ? 1 : 0)
  );
  const top = byExec1[0];
  const lead = byExec1.slice(0, leading);
  return {
    top,
    exec1: value(top, "exec", 1),
    exec1Low: num(get(top, "exec", 1)?.ci_low),
    exec1High: num(get(top, "exec", 1)?.ci_high),
    topK,
    execTop: value(top, "exec", topK),
    leading: lead,
    ownMisses: range(lead, (c) => value(c, "miss_own_distractor", 1)),
    belowDistractor: range(lead, (c) => value(c, "below_distractor", 0)),
  };
}

/** The Overview's one-line status of a release run. */
export interface ReleaseStatus {
  /** Released numbers set beside a replay of the same system (the kit's own BM25 excluded). */
  compared: number;
  /** Of those, the ones differing beyond the released precision or missing from the run. */
  flagged: number;
  /** Released numbers set beside the kit's own implementation (shown, never flagged). */
  kitOwn: number;
  /** Released systems whose every top 10 the kit reproduces, and how many systems there are. */
  identical: number;
  systems: number;
  /** Released snippets whose every test outcome the kit's sandbox agrees with, of all re-executed. */
  oracleAgree: number;
  oracleTotal: number;
}

/**
 * Counts for the status line from `paper_comparison`, `ranking_agreement`
 * and `oracle_agreement` rows. The kit's own BM25 counts in neither the
 * compared numbers nor the systems: it is another implementation, not a
 * replay.
 */
export function releaseStatus(
  comparison: readonly Row[],
  agreement: readonly Row[],
  oracle: readonly Row[],
): ReleaseStatus {
  const replayed = comparison.filter((r) => r.status !== "kit_own");
  const systems = agreement.filter((r) => !r.kit_own);
  return {
    compared: replayed.length,
    flagged: replayed.filter((r) => r.flagged === true).length,
    kitOwn: comparison.length - replayed.length,
    identical: systems.filter((r) => num(r.queries) != null && r.identical_top10 === r.queries)
      .length,
    systems: systems.length,
    oracleAgree: oracle.filter((r) => r.agree === true).length,
    oracleTotal: oracle.length,
  };
}

/**
 * The status line: "N released numbers compared, M flagged; top-10 lists
 * identical for X of Y systems; oracle agreement A of B snippets."
 */
export function releaseStatusText(s: ReleaseStatus): string {
  return `${s.compared} released numbers compared, ${s.flagged} flagged; ` +
    `top-10 lists identical for ${s.identical} of ${s.systems} systems; ` +
    `oracle agreement ${s.oracleAgree} of ${s.oracleTotal} snippets.`;
}

/** One bug type's released distractors and how many the kit's engine reproduces. */
export interface MutationLine {
  bug_type: string;
  distractors: number;
  exact: number;
  trailing_whitespace: number;
  /** Share reproduced exactly (byte for byte). */
  exact_share: number | null;
  /** Reproduced (exactly or but for trailing whitespace) and filed by the engine under the same type. */
  same_bug_type: number;
}

/**
 * Per released bug type (and "all"), from `release_mutations` rows: the
 * released distractors, how many the kit's engine makes from the released
 * canonical exactly or but for trailing whitespace, and under the same type.
 */
export function mutationReproduction(rows: readonly Row[]): MutationLine[] {
  const line = (bug_type: string, list: readonly Row[]): MutationLine => {
    const exact = list.filter((r) => r.reproduced === "exact").length;
    return {
      bug_type,
      distractors: list.length,
      exact,
      trailing_whitespace: list.filter((r) => r.reproduced === "trailing_whitespace").length,
      exact_share: list.length ? exact / list.length : null,
      same_bug_type: list.filter((r) => r.same_bug_type === true).length,
    };
  };
  const types = [...new Set(rows.map((r) => String(r.released_bug_type ?? "")))].sort();
  const lines = types.map((t) =>
    line(t, rows.filter((r) => String(r.released_bug_type ?? "") === t))
  );
  return rows.length ? [...lines, line("all", rows)] : [];
}

/** One label's snippets re-executed by the kit against the release's execution cache. */
export interface OracleLine {
  label: string;
  snippets: number;
  agree: number;
  tests: number;
  tests_agreeing: number;
  /** Snippets the release's cache lacks (no released verdict to compare). */
  not_in_cache: number;
}

/** Per released label (correct, incorrect) and "all", from `oracle_agreement` rows. */
export function oracleByLabel(rows: readonly Row[]): OracleLine[] {
  const line = (label: string, list: readonly Row[]): OracleLine => ({
    label,
    snippets: list.length,
    agree: list.filter((r) => r.agree === true).length,
    tests: list.reduce((s, r) => s + (num(r.tests) ?? 0), 0),
    tests_agreeing: list.reduce((s, r) => s + (num(r.tests_agreeing) ?? 0), 0),
    not_in_cache: list.filter((r) => r.released_pass == null).length,
  });
  const labels = [...new Set(rows.map((r) => String(r.label)))].sort();
  const lines = labels.map((l) => line(l, rows.filter((r) => String(r.label) === l)));
  return rows.length ? [...lines, line("all", rows)] : [];
}
