import { figureSpec, values, type VlSpec } from "./vl_spec.ts";

type Row = Record<string, unknown>;

/**
 * The exec@k curves: each config's exec@k over the run's cutoffs (a line
 * with a point per k) and its 95% interval as a band.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const s = execCurvesSpec([{ config: "bm25", k: 1, value: 0.2, ci_low: 0.1, ci_high: 0.3 }], 600);
 * strictEqual((s.layer as unknown[]).length, 3);
 * ```
 */
export function execCurvesSpec(curve: readonly Row[], width: number): VlSpec {
  const ks = [...new Set(curve.map((d) => Number(d.k)))].sort((a, b) => a - b);
  const x = {
    field: "k",
    type: "quantitative",
    title: "k",
    scale: { domain: [1, Math.max(1, ...ks)] },
    axis: { values: ks, format: "d" },
  };
  const color = { field: "config", type: "nominal", title: "config" };
  return figureSpec(width, 280, {
    data: values(curve),
    layer: [
      {
        mark: { type: "area", opacity: 0.15 },
        encoding: {
          x,
          y: { field: "ci_low", type: "quantitative" },
          y2: { field: "ci_high" },
          color,
        },
      },
      {
        mark: "line",
        encoding: {
          x,
          y: { field: "value", type: "quantitative", title: "exec@k", scale: { domain: [0, 1] } },
          color,
        },
      },
      {
        mark: { type: "point", filled: true, size: 40 },
        encoding: {
          x,
          y: { field: "value", type: "quantitative", title: "exec@k" },
          color,
          tooltip: [
            { field: "config" },
            { field: "k" },
            { field: "value", title: "exec@k", format: ".3f" },
          ],
        },
      },
    ],
  });
}

/** exec@k per source or domain: a point per config with its interval, grouped by `groupBy`. */
export function breakdownSpec(
  groups: readonly Row[],
  groupBy: string,
  k: number,
  width: number,
): VlSpec {
  const y = { field: "group", type: "nominal", title: groupBy };
  const color = { field: "config", type: "nominal", title: "config" };
  const n = new Set(groups.map((d) => `${d.group}/${d.config}`)).size;
  return figureSpec(width, Math.max(40, 16 * n), {
    data: values(groups),
    encoding: { y, yOffset: { field: "config" }, color },
    layer: [
      {
        mark: { type: "rule", opacity: 0.6 },
        encoding: { x: { field: "ci_low", type: "quantitative" }, x2: { field: "ci_high" } },
      },
      {
        mark: { type: "point", filled: true, size: 50 },
        encoding: {
          x: {
            field: "value",
            type: "quantitative",
            title: `exec@${k}`,
            scale: { domain: [0, 1] },
          },
          tooltip: [{ field: "group" }, { field: "config" }, { field: "value", format: ".3f" }],
        },
      },
    ],
  });
}

/**
 * Paper vs kit: every released number of a release run (x) against the
 * kit's (y), the diagonal where they agree, flagged cells in red.
 */
export function paperVsKitSpec(rows: readonly Row[], width: number): VlSpec {
  const points = rows
    .filter((d) => d.released != null && d.kit != null && Number.isFinite(Number(d.released)))
    .map((d) => ({
      config: d.config,
      metric: `${d.metric}@${d.k}`,
      quantity: d.quantity,
      released: Number(d.released),
      kit: Number(d.kit),
      flagged: d.flagged ? "differs" : "agrees",
    }));
  const hi = Math.max(1, ...points.flatMap((d) => [d.released, d.kit]));
  const lo = Math.min(0, ...points.flatMap((d) => [d.released, d.kit]));
  return figureSpec(Math.min(width, 520), 300, {
    layer: [
      {
        data: { values: [{ a: lo, b: hi }] },
        mark: { type: "rule", color: "#999", strokeDash: [4, 4] },
        encoding: {
          x: { field: "a", type: "quantitative" },
          y: { field: "a", type: "quantitative" },
          x2: { field: "b" },
          y2: { field: "b" },
        },
      },
      {
        data: values(points),
        mark: { type: "point", filled: true, size: 40 },
        encoding: {
          x: {
            field: "released",
            type: "quantitative",
            title: "the paper's released number",
            scale: { domain: [lo, hi] },
          },
          y: {
            field: "kit",
            type: "quantitative",
            title: "the kit's",
            scale: { domain: [lo, hi] },
          },
          color: {
            field: "flagged",
            type: "nominal",
            title: "cell",
            scale: { domain: ["agrees", "differs"], range: ["#1f77b4", "#d62728"] },
          },
          tooltip: [{ field: "config" }, { field: "metric" }, { field: "quantity" }, {
            field: "released",
          }, { field: "kit" }],
        },
      },
    ],
  });
}
