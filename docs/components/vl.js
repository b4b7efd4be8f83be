// Render a Vega-Lite spec to an SVG inside a div (vega-embed, no action menu,
// so the page makes no request for the editor or the schema).
// This is a browser module resolved by Framework, whose `npm:` imports take
// their version from the filled cache (scripts/fill_framework_cache.ts), not
// from deno.json; hence the lint exceptions.
// deno-lint-ignore-file no-import-prefix no-unversioned-import
import vegaEmbed from "npm:vega-embed";

export async function vl(spec) {
  const div = document.createElement("div");
  div.className = "vl-figure";
  await vegaEmbed(div, spec, { actions: false, renderer: "svg" });
  return div;
}
