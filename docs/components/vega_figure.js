// deno-lint-ignore-file no-import-prefix no-unversioned-import -- a Framework component: it imports
// `npm:` names, which Framework resolves to the versions src/site/fill_framework_cache.ts bundles from
// node_modules (pinned in deno.json).
// Draw a Vega-Lite spec (built by src/site/report/figures/) as SVG, with links to the spec and to the
// SVG under the figure. Every figure of the site is drawn here: Vega-Lite is the one way.
import * as vega from "npm:vega";
import { compile } from "npm:vega-lite";
import { html } from "npm:htl";

/**
 * A figure element for `spec`. `testid` names it for tests; `file`, when given, is the figure's
 * name under `./figures/` (its .vl.json and .svg as the build wrote them for this run's default
 * view), linked beside the links to what is drawn now.
 */
export async function vegaFigure(spec, { testid, file } = {}) {
  const drawn = document.createElement("div");
  const view = new vega.View(vega.parse(compile(spec).spec), {
    renderer: "svg",
    container: drawn,
    hover: true,
  });
  await view.runAsync();
  const specUrl = URL.createObjectURL(
    new Blob([JSON.stringify(spec, null, 2)], { type: "application/json" }),
  );
  const svgUrl = URL.createObjectURL(new Blob([await view.toSVG()], { type: "image/svg+xml" }));
  // A div, not a figure: Framework caps figures at 640 px, which would cut wider charts.
  return html`<div class="chart vega-figure" data-testid=${testid ?? null}>${drawn}
    <div class="figure-files">As drawn: <a href=${specUrl} download=${`${
    file ?? "figure"
  }.vl.json`}>Vega-Lite spec</a>
    · <a href=${svgUrl} download=${`${file ?? "figure"}.svg`}>SVG</a>${
    file
      ? html`
        · this run's file:
          <a href=${`./figures/${file}.vl.json`}>${file}.vl.json</a>, <a href=${`./figures/${file}.svg`}>${file}.svg</a>
      `
      : ""
  }</figcaption>
  </figure>`;
}
