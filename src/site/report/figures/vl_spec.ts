/**
 * What every figure of the report shares: a Vega-Lite spec is plain JSON
 * built from a page's rows by a function in this folder, drawn by the page
 * (docs/components/vega_figure.js) and written as a file with its SVG
 * (src/site/write_figures.ts). Figures are only ever made this way.
 *
 * @module
 */

/** A Vega-Lite spec (JSON). */
export type VlSpec = Record<string, unknown>;

/** The Vega-Lite schema the specs are written against (vega-lite 6). */
export const VL_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** The colours used where a figure has two kinds (below / above, base / reranked, theirs / yours). */
export const TWO_COLOURS = ["#d62728", "#1f77b4"] as const;

/**
 * A spec of total width `width` (axes and legend included: `autosize fit`)
 * and plot height `height`, with the site's font; `rest` is the figure.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const s = figureSpec(600, 200, { mark: "point", data: { values: [] } });
 * strictEqual(s.width, 600);
 * strictEqual(s.$schema, VL_SCHEMA);
 * ```
 */
export function figureSpec(width: number, height: number, rest: VlSpec): VlSpec {
  return {
    $schema: VL_SCHEMA,
    width,
    height,
    autosize: { type: "fit-x", contains: "padding" },
    background: "white",
    config: {
      font: "system-ui, -apple-system, sans-serif",
      axis: { labelFontSize: 11, titleFontSize: 11, labelLimit: 260 },
      legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 260 },
      view: { stroke: null },
    },
    ...rest,
  };
}

/** Rows as Vega-Lite inline data (values copied, so a spec never aliases a page's rows). */
export function values(
  rows: readonly Record<string, unknown>[],
): { values: Record<string, unknown>[] } {
  return { values: rows.map((r) => ({ ...r })) };
}
