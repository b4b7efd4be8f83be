import { figureSpec, TWO_COLOURS, values, type VlSpec } from "./vl_spec.ts";
import type { PointLabel } from "../closing_the_gap.ts";

type Row = Record<string, unknown>;

/**
 * The pairwise matrix: row − column difference at one metric and k, a
 * diverging colour around zero, the difference and its stars in each cell;
 * column names slanted on top so long ones do not run into each other.
 */
export function pairMatrixSpec(
  cells: readonly Row[],
  metric: string,
  k: number,
  width: number,
  stars: (p: number | null | undefined) => string,
): VlSpec {
  const rows = cells.map((d) => ({
    row: d.row,
    col: d.col,
    delta: d.delta == null ? null : Number(d.delta),
    label: d.delta == null
      ? ""
      : `${Number(d.delta).toFixed(3)}${
        d.p_holm != null ? stars(Number(d.p_holm)) : d.significant ? "†" : ""
      }`,
  }));
  const maxAbs = Math.max(1e-9, ...rows.map((d) => Math.abs(d.delta ?? 0)));
  const names = [...new Set(rows.map((d) => d.row))];
  return figureSpec(width, Math.max(40, 34 * names.length), {
    data: values(rows),
    encoding: {
      x: {
        field: "col",
        type: "nominal",
        title: null,
        axis: { orient: "top", labelAngle: -45 },
        scale: { domain: names },
      },
      y: { field: "row", type: "nominal", title: null, scale: { domain: names } },
    },
    layer: [
      {
        mark: "rect",
        encoding: {
          color: {
            field: "delta",
            type: "quantitative",
            title: `Δ ${metric}@${k} (row − column)`,
            scale: { scheme: "redblue", domain: [-maxAbs, maxAbs] },
          },
          tooltip: [{ field: "row" }, { field: "col" }, { field: "delta", format: ".3f" }],
        },
      },
      {
        mark: { type: "text", fontSize: 11 },
        encoding: {
          text: { field: "label" },
          color: {
            condition: { test: `abs(datum.delta) > ${0.6 * maxAbs}`, value: "white" },
            value: "black",
          },
        },
      },
    ],
  });
}

/** exec@1 before → after: a rule from the base's exec@1 to the reranked config's, a point at each end. */
export function beforeAfterSpec(rows: readonly Row[], width: number): VlSpec {
  const data = rows.map((d) => ({
    pair: `${d.config} vs ${d.base}`,
    before: d.before == null ? null : Number(d.before),
    after: d.after == null ? null : Number(d.after),
  }));
  const y = {
    field: "pair",
    type: "nominal",
    title: null,
    scale: { domain: data.map((d) => d.pair) },
  };
  const x = { type: "quantitative", title: "exec@1", scale: { domain: [0, 1] } };
  return figureSpec(width, Math.max(40, 28 * data.length), {
    data: values(data),
    encoding: { y },
    layer: [
      {
        mark: { type: "rule", color: TWO_COLOURS[1] },
        encoding: { x: { ...x, field: "before" }, x2: { field: "after" } },
      },
      {
        mark: { type: "point", filled: true, color: "#999", size: 50 },
        encoding: {
          x: { ...x, field: "before" },
          tooltip: [{ field: "pair" }, { field: "before", format: ".3f" }],
        },
      },
      {
        mark: { type: "point", filled: true, color: TWO_COLOURS[1], size: 50 },
        encoding: {
          x: { ...x, field: "after" },
          tooltip: [{ field: "pair" }, { field: "after", format: ".3f" }],
        },
      },
    ],
  });
}

/**
 * exec@1 against oracle seconds per query: a point per config (bases at
 * zero cost), labelled once per position and moved up where labels would
 * overlap (src/site/report/closing_the_gap.ts `dodgeLabels`).
 */
export function costSpec(
  points: readonly {
    config: string;
    exec1: number;
    oracle_seconds: number;
    tests: number;
    reranked: boolean;
  }[],
  labels: readonly PointLabel[],
  width: number,
): VlSpec {
  const x = { type: "quantitative", title: "oracle seconds per query" };
  const y = { type: "quantitative", title: "exec@1", scale: { domain: [0, 1] } };
  return figureSpec(width, 280, {
    layer: [
      {
        data: values(points.map((p) => ({ ...p, kind: p.reranked ? "reranked" : "base" }))),
        mark: { type: "point", filled: true, size: 70 },
        encoding: {
          x: { ...x, field: "oracle_seconds" },
          y: { ...y, field: "exec1" },
          color: {
            field: "kind",
            type: "nominal",
            title: null,
            scale: { domain: ["base", "reranked"], range: ["#4269d0", "#efb118"] },
          },
          tooltip: [{ field: "config" }, { field: "exec1", format: ".3f" }, {
            field: "tests",
            format: ".1f",
          }],
        },
      },
      {
        data: values(labels.map((l) => ({ ...l }))),
        mark: { type: "text", align: "left", dx: 8, fontSize: 11 },
        encoding: {
          x: { ...x, field: "x" },
          y: { ...y, field: "labelY" },
          text: { field: "text" },
        },
      },
    ],
  });
}

/** Distractors per bug type, stacked by source, longest first. */
export function bugMixSpec(bugMix: readonly Row[], width: number): VlSpec {
  const types = new Set(bugMix.map((d) => d.bug_type));
  return figureSpec(width, Math.max(40, 26 * types.size), {
    data: values(bugMix),
    mark: "bar",
    encoding: {
      y: { field: "bug_type", type: "nominal", title: null, sort: "-x" },
      x: { field: "distractors", type: "quantitative", aggregate: "sum", title: "distractors" },
      color: { field: "source", type: "nominal", title: "source" },
      tooltip: [{ field: "bug_type" }, { field: "source" }, { field: "distractors" }],
    },
  });
}

/** How many queries have each number of distractors in the pool. */
export function distractorsPerTaskSpec(perTask: readonly Row[], width: number): VlSpec {
  return figureSpec(width, 180, {
    data: values(perTask),
    mark: { type: "bar", color: "steelblue" },
    encoding: {
      x: {
        field: "distractors",
        type: "ordinal",
        title: "distractors in the pool for the task",
        axis: { labelAngle: 0 },
      },
      y: { field: "queries", type: "quantitative", title: "queries" },
      tooltip: [{ field: "distractors" }, { field: "queries" }],
    },
  });
}

/** Ranks with their 95% interval, the user's own configs in orange. */
export function rankIntervalsSpec(lines: readonly Row[], title: string, width: number): VlSpec {
  const n = Math.max(1, ...lines.map((d) => Number(d.n ?? 0)));
  const rows = lines.map((d) => ({ ...d, whose: d.mine ? "yours" : "the run's" }));
  const color = {
    field: "whose",
    type: "nominal",
    title: null,
    scale: { domain: ["the run's", "yours"], range: ["#4269d0", "#ff725c"] },
  };
  const x = {
    type: "quantitative",
    title,
    scale: { domain: [0.5, n + 0.5] },
    axis: { tickMinStep: 1, format: "d" },
  };
  const y = {
    field: "config",
    type: "nominal",
    title: null,
    scale: { domain: lines.map((d) => d.config) },
  };
  return figureSpec(width, Math.max(40, 22 * lines.length), {
    data: values(rows),
    encoding: { y, color },
    layer: [
      {
        mark: { type: "rule", strokeWidth: 3 },
        encoding: { x: { ...x, field: "low" }, x2: { field: "high" } },
      },
      {
        mark: { type: "point", filled: true, size: 60 },
        encoding: {
          x: { ...x, field: "rank" },
          tooltip: [{ field: "config" }, { field: "rank" }, { field: "low" }, { field: "high" }],
        },
      },
    ],
  });
}
