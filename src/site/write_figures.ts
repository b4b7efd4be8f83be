/**
 * Write a run's figures as files: for every paper figure
 * (src/site/figure_files.ts), `<name>.vl.json` (the Vega-Lite spec with
 * the run's numbers inline) and `<name>.svg` (rendered headlessly by Vega),
 * into each of the given folders: the run's `out/figures/` and the built
 * site's `figures/` beside the run's pages, where each figure links to them
 * (and the site manifest lists them). Called by src/site/build_site.ts with
 * the page data its loaders made.
 *
 * Usage: deno run -A src/site/write_figures.ts <page data folder> <into>...
 */
import { join } from "node:path";
import { figureSpecs } from "./figure_files.ts";
import { renderSvg } from "./render_svg.ts";
import { atomicWrite } from "../io/atomic_write.ts";

/** Write the figures from the `page_<page>.json` files in `pageData`; resolves to their names. */
export async function writeFigures(pageData: string, into: readonly string[]): Promise<string[]> {
  const specs = await figureSpecs(async (page) => {
    const file = join(pageData, `page_${page}.json`);
    try {
      return JSON.parse(await Deno.readTextFile(file));
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  });
  for (const dir of into) {
    await Deno.mkdir(dir, { recursive: true });
    // A figure of an earlier run that this one has not (a release figure) must not linger.
    for (const e of Deno.readDirSync(dir)) {
      if (/\.(vl\.json|svg)$/.test(e.name)) await Deno.remove(join(dir, e.name));
    }
  }
  for (const [name, spec] of specs) {
    const json = JSON.stringify(spec, null, 2) + "\n";
    const svg = await renderSvg(spec);
    for (const dir of into) {
      await atomicWrite(join(dir, `${name}.vl.json`), json);
      await atomicWrite(join(dir, `${name}.svg`), svg);
    }
  }
  return [...specs.keys()];
}

if (import.meta.main) {
  const [pageData, ...into] = Deno.args;
  if (!pageData || into.length === 0) {
    console.error("usage: deno run -A src/site/write_figures.ts <page data folder> <into>...");
    Deno.exit(2);
  }
  console.log((await writeFigures(pageData, into)).join("\n"));
}
