import { figureSpec, TWO_COLOURS, values, type VlSpec } from "./vl_spec.ts";

type Row = Record<string, unknown>;

/** Height of a figure with a band per config. */
const perConfig = (configs: readonly unknown[], each = 26) => Math.max(40, each * configs.length);

/**
 * Where the canonical lands: per config, the share of its queries whose
 * canonical is at each rank (11 = below the top 10, shown "> 10"), with the
 * query count in each cell.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const s = canonicalRanksSpec([{ config: "bm25", rank: 1, queries: 3 }], ["bm25"], 600);
 * strictEqual((s.data as { values: { share: number }[] }).values[0].share, 1);
 * ```
 */
export function canonicalRanksSpec(
  ranks: readonly Row[],
  configs: readonly string[],
  width: number,
): VlSpec {
  const total = new Map<string, number>();
  for (const d of ranks) {
    total.set(String(d.config), (total.get(String(d.config)) ?? 0) + Number(d.queries));
  }
  const rows = ranks.filter((d) => configs.includes(String(d.config))).map((d) => ({
    config: d.config,
    rank: Number(d.rank),
    queries: Number(d.queries),
    share: Number(d.queries) / (total.get(String(d.config)) || 1),
  }));
  const x = {
    field: "rank",
    type: "ordinal",
    title: "rank of the canonical",
    scale: { domain: Array.from({ length: 11 }, (_, i) => i + 1) },
    axis: { labelExpr: "datum.value == 11 ? '> 10' : datum.value", labelAngle: 0 },
  };
  const y = { field: "config", type: "nominal", title: null, scale: { domain: configs } };
  return figureSpec(width, perConfig(configs), {
    data: values(rows),
    encoding: { x, y },
    layer: [
      {
        mark: "rect",
        encoding: {
          color: {
            field: "share",
            type: "quantitative",
            title: "share of queries",
            scale: { scheme: "blues", domain: [0, 1] },
          },
          tooltip: [{ field: "config" }, { field: "rank" }, { field: "queries" }, {
            field: "share",
            format: ".1%",
          }],
        },
      },
      {
        mark: { type: "text", fontSize: 10 },
        encoding: {
          text: { field: "queries" },
          color: { condition: { test: "datum.share > 0.5", value: "white" }, value: "black" },
        },
      },
    ],
  });
}

/**
 * Margins, each config on its own scale (similarities differ in range: BM25
 * scores are unbounded, cosine lies in [-1, 1]): per config (a row of
 * `MARGIN_BOX_SQL`), its range as a rule, its quartiles as a box and its
 * median as a tick, all divided by the config's largest |margin| so zero
 * and the sign are kept; the config's label says what it was divided by.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const s = marginsSpec([{ config: "bm25", scale: 4, lo: -4, q1: -1, med: 0, q3: 1, hi: 2, n: 9 }], 600);
 * const box = (s.layer as { data: { values: Record<string, unknown>[] } }[])[0].data.values[0];
 * strictEqual(box.label, "bm25 (÷ 4.00)");
 * strictEqual(box.lo, -1);
 * ```
 */
export function marginsSpec(boxes: readonly Row[], width: number): VlSpec {
  const rows = boxes.map((d) => {
    const scale = Number(d.scale) || 1;
    const at = (v: unknown) => Number(v) / scale;
    return {
      config: d.config,
      label: `${d.config} (÷ ${scale.toPrecision(3)})`,
      n: d.n,
      lo: at(d.lo),
      q1: at(d.q1),
      med: at(d.med),
      q3: at(d.q3),
      hi: at(d.hi),
    };
  });
  const labels = rows.map((d) => d.label);
  const x = {
    type: "quantitative",
    title: "margin ÷ the config's largest |margin|",
    scale: { domain: [-1, 1] },
  };
  const y = { field: "label", type: "nominal", title: null, scale: { domain: labels } };
  const tooltip = [
    { field: "config" },
    { field: "n", title: "queries" },
    { field: "q1", format: ".3f" },
    { field: "med", title: "median", format: ".3f" },
    { field: "q3", format: ".3f" },
  ];
  return figureSpec(width, perConfig(labels), {
    layer: [
      {
        data: values(rows),
        mark: { type: "rule", color: "#666" },
        encoding: { x: { ...x, field: "lo" }, x2: { field: "hi" }, y },
      },
      {
        data: values(rows),
        mark: { type: "bar", size: 14, color: "#9ecae1" },
        encoding: { x: { ...x, field: "q1" }, x2: { field: "q3" }, y, tooltip },
      },
      {
        data: values(rows),
        mark: { type: "tick", color: "black", thickness: 2, size: 14 },
        encoding: { x: { ...x, field: "med" }, y, tooltip },
      },
      {
        data: { values: [{ x: 0 }] },
        mark: { type: "rule", color: TWO_COLOURS[0] },
        encoding: { x: { field: "x", type: "quantitative" } },
      },
    ],
  });
}

/** One config's margins in its own units, as `MARGIN_BINS_SQL` bins them, below zero in red. */
export function marginHistogramSpec(bins: readonly Row[], width: number): VlSpec {
  return figureSpec(width, 180, {
    data: values(bins),
    mark: "bar",
    encoding: {
      x: {
        field: "bin_start",
        type: "quantitative",
        title: "canonical − best own distractor (score)",
      },
      x2: { field: "bin_end" },
      y: { field: "queries", type: "quantitative", aggregate: "sum", title: "queries" },
      color: {
        field: "side",
        type: "nominal",
        title: null,
        scale: { domain: ["below", "above"], range: [...TWO_COLOURS] },
      },
      tooltip: [{ field: "side" }, { field: "queries", aggregate: "sum" }],
    },
  });
}

/** Fool rate per config and bug type, as a coloured grid with the rate in each cell. */
export function foolRateSpec(
  fool: readonly Row[],
  configs: readonly string[],
  width: number,
): VlSpec {
  const rows = fool.filter((d) => configs.includes(String(d.config))).map((d) => ({
    config: d.config,
    bug_type: d.bug_type,
    fool_rate: d.fool_rate == null ? null : Number(d.fool_rate),
    // A config with no distractor of the type (a reranked one) shows a dash, not "null".
    label: d.fool_rate == null ? "–" : Number(d.fool_rate).toFixed(2),
  }));
  return figureSpec(width, perConfig(configs, 34), {
    data: values(rows),
    encoding: {
      x: { field: "bug_type", type: "nominal", title: "bug type", axis: { labelAngle: -30 } },
      y: { field: "config", type: "nominal", title: null, scale: { domain: configs } },
    },
    layer: [
      {
        mark: "rect",
        encoding: {
          color: {
            field: "fool_rate",
            type: "quantitative",
            title: "fool rate",
            scale: { scheme: "orangered", domain: [0, 1] },
          },
          tooltip: [{ field: "config" }, { field: "bug_type" }, {
            field: "fool_rate",
            format: ".2f",
          }],
        },
      },
      {
        mark: { type: "text", fontSize: 11 },
        encoding: {
          text: { field: "label" },
          color: { condition: { test: "datum.fool_rate > 0.5", value: "white" }, value: "black" },
        },
      },
    ],
  });
}

/** What takes rank 1 when the canonical does not: a bar per config, stacked by cause. */
export function missCausesSpec(
  misses: readonly Row[],
  configs: readonly string[],
  width: number,
): VlSpec {
  const rows = misses.filter((d) => configs.includes(String(d.config)));
  return figureSpec(width, perConfig(configs, 30), {
    data: values(rows),
    mark: "bar",
    encoding: {
      y: { field: "config", type: "nominal", title: null, scale: { domain: configs } },
      x: { field: "misses", type: "quantitative", aggregate: "sum", title: "rank-1 misses" },
      color: {
        field: "cause",
        type: "nominal",
        title: "cause",
        legend: { orient: "bottom", columns: 2 },
      },
      tooltip: [{ field: "config" }, { field: "cause" }, { field: "misses" }],
    },
  });
}
