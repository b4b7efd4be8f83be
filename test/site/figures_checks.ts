/**
 * Every figure file of the fixture run's site build (src/site/write_figures.ts):
 * each paper figure the run can draw has its Vega-Lite spec and its SVG, in
 * the run's out/figures and beside the site's pages, and each SVG, rendered
 * by Vega headlessly, holds the run's numbers: one mark per row of the
 * table it draws, labelled (Vega's aria-label) with that row's values.
 * site_test.ts runs it on the site it checks in Chromium: `deno test` gives
 * each test module an isolate of its own, so a test file of its own built
 * the fixture site a second time (~12 CPU-s).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { readRows } from "../../src/io/arrow_table.ts";
import { FIGURE_FILES } from "../../src/site/figure_files.ts";

type Row = Record<string, unknown>;

/** A number as Vega writes it in an aria-label (12 significant digits, no trailing zeros). */
const aria = (v: unknown) => String(Number(Number(v).toPrecision(12)));

/**
 * The aria-labels of an SVG's marks, each with its kind (`point`, `rect`,
 * `line mark` …) as `<kind>| <label>`; axes and legends have none.
 */
function labels(svg: string): string[] {
  return [
    ...svg.matchAll(/aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="([^"]*)"/g),
  ]
    .map((m) =>
      `${m[2]}| ${m[1].replaceAll("&amp;", "&").replaceAll("&gt;", ">").replaceAll("&lt;", "<")}`
    );
}

/** The labels that contain every part of `parts`. */
const having = (all: string[], ...parts: string[]) =>
  all.filter((l) => parts.every((p) => l.includes(p)));

/** Check the figures of the fixture run in `out` and of its site built in `site`. */
export async function checkFigures(out: string, site: string): Promise<void> {
  const table = (name: string) => readRows<Row>(join(out, "tables", `${name}.arrow`));
  const metrics = await table("metrics");
  const rankings = await table("rankings");
  const figures = join(out, "figures");
  const written = [...Deno.readDirSync(figures)].map((e) => e.name).sort();
  // The fixture is neither a release nor a rerank run: those figures have nothing to draw.
  const expected = FIGURE_FILES.map((f) => f.name).filter((n) =>
    !["paper_vs_kit", "closing_the_gap_before_after", "closing_the_gap_cost"].includes(n)
  );
  assertEquals(written, expected.flatMap((n) => [`${n}.svg`, `${n}.vl.json`]).sort());
  // The same files beside the site's pages, where each figure links to them.
  assertEquals([...Deno.readDirSync(join(site, "figures"))].map((e) => e.name).sort(), written);
  const svg = (name: string) => labels(Deno.readTextFileSync(join(figures, `${name}.svg`)));
  for (const name of expected) {
    const spec = JSON.parse(Deno.readTextFileSync(join(figures, `${name}.vl.json`)));
    ok(String(spec.$schema).includes("vega-lite"), `${name}.vl.json is a Vega-Lite spec`);
  }

  // exec@k curves: a point per config and k, at its exec@k.
  const exec = metrics.filter((m) => m.metric === "exec");
  const curve = svg("exec_curves");
  assertEquals(having(curve, "point| ").length, exec.length);
  for (const m of exec) {
    assertEquals(
      having(curve, `point| k: ${m.k}; exec@k: ${aria(m.value)}; config: ${m.config}`).length,
      1,
    );
  }

  // Where the canonical lands: a cell per config and rank (past 10 pooled as 11) with its count.
  const lands = new Map<string, number>();
  for (const r of rankings.filter((r) => r.label === "correct" && r.own_task)) {
    const key = `${Math.min(Number(r.rank), 11)}; config: ${r.config}`;
    lands.set(key, (lands.get(key) ?? 0) + 1);
  }
  const ranks = having(svg("canonical_ranks"), "rect mark| rank of the canonical: ");
  assertEquals(ranks.length, lands.size);
  for (const [key, n] of lands) {
    assertEquals(
      having(ranks, `rank of the canonical: ${key};`, `; queries: ${n};`).length,
      1,
      key,
    );
  }

  // Fool rate per bug type: a cell per config and bug type at the stats stage's rate.
  const fool = metrics.filter((m) => String(m.metric).startsWith("outrank:"));
  ok(fool.length > 0);
  const cells = svg("fool_rate");
  for (const m of fool) {
    const bug = String(m.metric).slice("outrank:".length);
    assertEquals(
      having(
        cells,
        `rect mark| bug type: ${bug}; config: ${m.config}; fool rate: ${aria(m.value)};`,
      )
        .length,
      1,
      `${m.config} ${bug}`,
    );
  }

  // What takes rank 1: the bars of each config add up to its rank-1 misses.
  const misses = having(svg("rank1_causes"), "bar| rank-1 misses: ");
  for (const config of new Set(rankings.map((r) => String(r.config)))) {
    const n = rankings.filter((r) =>
      r.config === config && r.rank === 1 && !(r.label === "correct" && r.own_task)
    ).length;
    const drawn = having(misses, `; config: ${config}; `).reduce(
      (s, l) =>
        s + Number(/rank-1 misses: (\d+)/.exec(l)![1]),
      0,
    );
    assertEquals(drawn, n, config);
  }

  // Margins: a box per config, each labelled with what its margins were divided by.
  const boxes = Deno.readTextFileSync(join(figures, "margins.svg"));
  for (const config of new Set(metrics.map((m) => String(m.config)))) {
    ok(boxes.includes(`${config} (÷ `), `margins: ${config}'s box`);
  }
}
