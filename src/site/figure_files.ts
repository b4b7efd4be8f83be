/**
 * The figures written as files for each run (src/site/write_figures.ts):
 * every paper figure's Vega-Lite spec made from its page's build-time data
 * (src/site/pages.ts) with the page's default choices (every
 * config, the first k, grouped by source …), by the same builder the page
 * draws with (src/site/report/figures/).
 */
import { plainRows } from "./report/rows.ts";
import type { PageData } from "./report/page_sql.ts";
import { pageSql } from "./report/page_sql.ts";
import * as Q from "./report/queries.ts";
import * as RQ from "./report/release_queries.ts";
import * as G from "./report/closing_the_gap.ts";
import { pairMatrix, type PairRow } from "./report/pivot.ts";
import { stars } from "./report/format.ts";
import type { VlSpec } from "./report/figures/vl_spec.ts";
import {
  canonicalRanksSpec,
  foolRateSpec,
  marginsSpec,
  missCausesSpec,
} from "./report/figures/gap_figures.ts";
import {
  breakdownSpec,
  execCurvesSpec,
  paperVsKitSpec,
} from "./report/figures/leaderboard_figures.ts";
import { beforeAfterSpec, costSpec, pairMatrixSpec } from "./report/figures/other_figures.ts";

type Sql = ReturnType<typeof pageSql>;
type Row = Record<string, unknown>;

/** One figure file: its name, the page whose data it is drawn from, and how. */
export interface FigureFile {
  name: string;
  page: string;
  /** The spec, or null when the run has nothing to draw (a release figure on another run). */
  make(sql: Sql, width: number): Promise<VlSpec | null>;
}

const rows = async (sql: Sql, text: string, ...params: (string | number)[]) =>
  plainRows(await sql([text], ...params));
const configsOf = (r: readonly Row[]) => [...new Set(r.map((d) => String(d.config)))];

/** Every figure file, in page order. */
export const FIGURE_FILES: readonly FigureFile[] = [
  {
    name: "exec_curves",
    page: "leaderboard",
    make: async (sql, w) => execCurvesSpec(await rows(sql, Q.EXEC_CURVE_SQL), w),
  },
  {
    name: "exec_by_source",
    page: "leaderboard",
    make: async (sql, w) => {
      const k = (await rows(sql, Q.KS_SQL))[0]?.k as number | undefined;
      if (k === undefined) return null;
      const groups = await rows(sql, Q.BREAKDOWN_SQL, "source", k);
      return groups.length ? breakdownSpec(groups, "source", k, w) : null;
    },
  },
  {
    name: "paper_vs_kit",
    page: "leaderboard",
    make: async (sql, w) => {
      const released = await rows(sql, RQ.RELEASE_SCALAR_SQL);
      return released.length ? paperVsKitSpec(released, w) : null;
    },
  },
  {
    name: "canonical_ranks",
    page: "gap",
    make: async (sql, w) => {
      const ranks = await rows(sql, Q.CANONICAL_RANK_SQL);
      return canonicalRanksSpec(ranks, configsOf(ranks), w);
    },
  },
  {
    name: "margins",
    page: "gap",
    make: async (sql, w) => marginsSpec(await rows(sql, Q.MARGIN_BOX_SQL), w),
  },
  {
    name: "fool_rate",
    page: "gap",
    make: async (sql, w) => {
      const outrank = await rows(sql, Q.OUTRANK_SQL);
      const fool = outrank.length ? outrank : await rows(sql, Q.FOOL_RATE_SQL);
      return foolRateSpec(fool, configsOf(await rows(sql, Q.CANONICAL_RANK_SQL)), w);
    },
  },
  {
    name: "rank1_causes",
    page: "gap",
    make: async (sql, w) => {
      const misses = await rows(sql, Q.MISS_ATTRIBUTION_SQL);
      return missCausesSpec(misses, configsOf(await rows(sql, Q.CANONICAL_RANK_SQL)), w);
    },
  },
  {
    name: "pairwise_exec1",
    page: "significance",
    make: async (sql, w) => {
      const pairs = await rows(sql, Q.PAIRWISE_SQL, "exec", 1).catch(() => []);
      return pairs.length
        ? pairMatrixSpec(
          pairMatrix(pairs as unknown as PairRow[]) as unknown as Row[],
          "exec",
          1,
          w,
          stars,
        )
        : null;
    },
  },
  {
    name: "closing_the_gap_before_after",
    page: "closing_the_gap",
    make: async (sql, w) => {
      const before = await beforeAfter(sql);
      return before.length ? beforeAfterSpec(before as unknown as Row[], w) : null;
    },
  },
  {
    name: "closing_the_gap_cost",
    page: "closing_the_gap",
    make: async (sql, w) => {
      const before = await beforeAfter(sql);
      if (!before.length) return null;
      const cost = await rows(sql, G.RERANK_COST_SQL);
      const points = G.costPointsOf(before, cost);
      return costSpec(points, G.labelsOf(points), w);
    },
  },
];

async function beforeAfter(sql: Sql): Promise<G.BeforeAfter[]> {
  const cost = await rows(sql, G.RERANK_COST_SQL);
  return G.beforeAfterRows(
    cost.map((d) => String(d.config)),
    await rows(sql, G.EXEC_AT_K_SQL, 1) as never,
    await rows(sql, G.EXEC_PAIRS_SQL, 1) as never,
  );
}

/** Every figure of a run whose page data (`page_<page>.json`) `read` returns, by name; none missing. */
export async function figureSpecs(
  read: (page: string) => Promise<PageData>,
  width = 720,
): Promise<Map<string, VlSpec>> {
  const out = new Map<string, VlSpec>();
  const cache = new Map<string, Sql>();
  for (const f of FIGURE_FILES) {
    if (!cache.has(f.page)) cache.set(f.page, pageSql(await read(f.page)));
    const spec = await f.make(cache.get(f.page)!, width);
    if (spec) out.set(f.name, spec);
  }
  return out;
}
