/**
 * A Vega-Lite spec as SVG, rendered headlessly with Vega's SVG renderer (no
 * browser, no canvas: Vega estimates text widths), for the figure files the
 * build writes beside each run (src/site/write_figures.ts).
 */
import * as vega from "vega";
import { compile } from "vega-lite";
import type { VlSpec } from "./report/figures/vl_spec.ts";

/**
 * The SVG text of `spec`.
 *
 * @example
 * ```ts
 * import { ok } from "node:assert/strict";
 * const svg = await renderSvg({
 *   data: { values: [{ a: "x", b: 3 }] },
 *   mark: "bar",
 *   encoding: { x: { field: "a", type: "nominal" }, y: { field: "b", type: "quantitative" } },
 * });
 * ok(svg.startsWith("<svg"));
 * ```
 */
export async function renderSvg(spec: VlSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
