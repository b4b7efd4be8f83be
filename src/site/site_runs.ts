/**
 * One site of several runs (`make site RUNS="release=out-release regenerated=out"`):
 * each run's pages under `/<run>/`, each page saying which run it shows, one
 * navigation over all of them, a landing page with each run's headline and
 * one SQL console over every run's tables. src/site/build_site.ts builds it.
 *
 * Framework runs a page's data loaders against one run (EXECRET_OUT), so
 * the site is staged: a Framework root of its own (`<site>-src/`) holds a
 * copy of the pages per run, whose `data/` files are the loaders' outputs
 * for that run made beforehand (src/site/prefill_site_data.ts `--into`, one
 * process per run), and Framework builds that root with no loader to run.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import baseConfig from "../../observablehq.config.ts";
import { sqlPage } from "./sql_page.ts";

const PREFILL = new URL("./prefill_site_data.ts", import.meta.url).pathname;

/** One run of the site: its name (its URL folder and SQL schema) and its out folder. */
export interface SiteRun {
  name: string;
  out: string;
}

/** A run's name: a lower-case identifier, usable as a URL folder and an SQL schema. */
const RUN_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * `name=dir` as a {@link SiteRun}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(parseRun("release=out-release"), { name: "release", out: "out-release" });
 * ```
 */
export function parseRun(text: string): SiteRun {
  const at = text.indexOf("=");
  const name = text.slice(0, at), out = text.slice(at + 1);
  if (at < 0 || !RUN_NAME.test(name) || out === "") {
    throw new Error(`--run "${text}": expected <name>=<out folder>, name matching ${RUN_NAME}`);
  }
  if (name === "main" || name === "data" || name === "sql") {
    throw new Error(`--run "${text}": "${name}" is taken (a schema or page of the site)`);
  }
  return { name, out };
}

/** What a page says about its run: a title, and the profile it was made with. */
export interface RunLabel {
  title: string;
  profile: string;
  description: string;
}

/** The label of the run in `out`, from its manifest (a release run is the paper's reproduction). */
export async function runLabel(out: string): Promise<RunLabel> {
  let profile = "unknown", description = "";
  try {
    const manifest = JSON.parse(await Deno.readTextFile(join(out, "manifest.json")));
    profile = String(manifest.profile?.name ?? profile);
    description = String(manifest.profile?.description ?? "");
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw new Error(`${out}/manifest.json: ${e}`);
  }
  const release = profile === "release" || profile.startsWith("release-");
  const title = release
    ? "The paper's release, reproduced"
    : `The regenerated benchmark (profile ${profile})`;
  return { title, profile, description };
}

/** The run banner set under each copied page's front matter. */
export function runBanner(run: SiteRun, label: RunLabel): string {
  return `<div class="run-banner" data-testid="run-banner" data-run="${run.name}">This page shows ` +
    `<strong>${label.title}</strong> — run <code>${run.name}</code>, profile ` +
    `<code>${label.profile}</code>. <a href="../">Every run</a> · <a href="../sql">SQL over every run</a></div>`;
}

/** `markdown` with `insert` after its front matter (or at the top when it has none). */
function afterFrontMatter(markdown: string, insert: string): string {
  const m = /^---\n[\s\S]*?\n---\n/.exec(markdown);
  const at = m ? m[0].length : 0;
  return `${markdown.slice(0, at)}\n${insert}\n${markdown.slice(at)}`;
}

/** The landing page: each run with its headline (from its Overview's data) and its pages. */
export function landingPage(runs: readonly SiteRun[], labels: readonly RunLabel[]): string {
  const list = runs.map((r, i) =>
    `  { name: ${JSON.stringify(r.name)}, title: ${JSON.stringify(labels[i].title)}, profile: ${
      JSON.stringify(labels[i].profile)
    }, data: await FileAttachment("./${r.name}/data/page_overview.json").json() },`
  ).join("\n");
  return `---
title: Every run
toc: false
---

<!-- deno-fmt-ignore-file -->

# Is the correct function ranked first?

When a search pool holds a correct Python function and near-identical buggy copies of it, does an
embedding retriever put the correct one at rank 1? This site shows ${runs.length} runs of the
ExecRetrieval Kit, each with every page of the report; the sidebar lists them run by run, and each
page says which run it shows. The [SQL console](./sql) holds every run's tables.

\`\`\`js
const R = await import(await FileAttachment("./${runs[0].name}/data/report.js").url());
const runs = [
${list}
];
\`\`\`

\`\`\`js
const rows = await Promise.all(runs.map(async (run) =>
  ({ ...run, h: R.plainRows(await R.pageSql(run.data)([R.HEADLINE_SQL]))[0] })
));
display(html\`<div class="grid grid-cols-2" data-testid="runs">\${rows.map((r) => html\`<div class="card" data-testid="run-\${r.name}">
  <h2><a href="./\${r.name}/">\${r.title}</a></h2>
  <p class="muted">run <code>\${r.name}</code>, profile <code>\${r.profile}</code></p>
  \${r.h ? html\`<p>Best by exec@1: <strong>\${r.h.config}</strong> — exec@1 <span class="big">\${R.fmt(r.h.exec1)}</span>,
    exec@\${r.h.top_k} \${R.fmt(r.h.exec_top)}</p>\` : html\`<p class="warning">This run has no metrics.</p>\`}
</div>\`)}</div>\`);
\`\`\`

<style>
.big { font-size: 1.5rem; font-weight: 600; }
</style>
`;
}

/** The staged site's Framework config: one section of pages per run, then the SQL console. */
export function stagedConfig(
  stage: string,
  output: string,
  runs: readonly SiteRun[],
  labels: readonly RunLabel[],
): Record<string, unknown> {
  const perRun = baseConfig.pages.filter((p) => p.path !== "/sql");
  return {
    title: baseConfig.title,
    root: stage,
    output,
    pages: [
      { name: "Every run", path: "/" },
      ...runs.map((run, i) => ({
        name: labels[i].title,
        open: true,
        pages: perRun.map((p) => ({
          name: p.name,
          path: p.path === "/" ? `/${run.name}/` : `/${run.name}${p.path}`,
        })),
      })),
      { name: "SQL over every run", path: "/sql" },
    ],
    duckdb: baseConfig.duckdb,
    globalStylesheets: baseConfig.globalStylesheets,
    search: baseConfig.search,
    head: `${baseConfig.head}<style>.run-banner { margin: 0 0 1rem; padding: 0.4rem 0.7rem; ` +
      `border-left: 4px solid var(--theme-foreground-focus); background: var(--theme-background-alt); }</style>`,
    footer:
      "ExecRetrieval Kit — every number on these pages is read from the tables of the run it names.",
  };
}

/** Every page path of the site of `runs`, in sidebar order (the SQL console last). */
export function sitePaths(runs: readonly SiteRun[]): string[] {
  const paths: string[] = [];
  const walk = (pages: readonly { path?: string; pages?: unknown[] }[]) => {
    for (const p of pages) {
      if (p.path) paths.push(p.path);
      if (p.pages) walk(p.pages as { path?: string }[]);
    }
  };
  const labels = runs.map(() => ({ title: "", profile: "", description: "" }));
  walk(stagedConfig("", "", runs, labels).pages as { path?: string; pages?: unknown[] }[]);
  return paths;
}

/** Options of {@link stageRuns}. */
export interface StageOptions {
  /** The pages' root (default docs). */
  root?: string;
  /** The staged Framework root to write. */
  stage: string;
  /** The built site's folder (the staged config's `output`). */
  output: string;
  runs: readonly SiteRun[];
  /** Environment for the loaders besides each run's EXECRET_OUT. */
  env?: Record<string, string>;
  quiet?: boolean;
}

/**
 * Write the staged root: per run, the pages (banner added; the SQL page
 * aside), the components and the loaders' outputs; the landing page, the
 * SQL console over every run, and the config. Resolves to the config's
 * path and the loaders' output; throws when a run's loader fails.
 */
export async function stageRuns(
  options: StageOptions,
): Promise<{ config: string; output: string }> {
  const root = options.root ?? "docs";
  const { stage, runs } = options;
  if (runs.length === 0) throw new Error("site: no run to show");
  const names = new Set(runs.map((r) => r.name));
  if (names.size !== runs.length) throw new Error(`site: two runs share a name (${[...names]})`);
  await Deno.mkdir(stage, { recursive: true });
  // Keep Framework's npm cache (.observablehq) between builds; everything else is made anew.
  for (const e of Deno.readDirSync(stage)) {
    if (e.name !== ".observablehq") await Deno.remove(join(stage, e.name), { recursive: true });
  }
  const labels = await Promise.all(runs.map((r) => runLabel(r.out)));
  const pages = [...Deno.readDirSync(root)].filter((e) => e.isFile && e.name.endsWith(".md"));
  let log = "";
  for (const [i, run] of runs.entries()) {
    const dir = join(stage, run.name);
    await Deno.mkdir(join(dir, "components"), { recursive: true });
    for (const page of pages) {
      const text = await Deno.readTextFile(join(root, page.name));
      await Deno.writeTextFile(
        join(dir, page.name),
        afterFrontMatter(text, runBanner(run, labels[i])),
      );
    }
    for (const e of Deno.readDirSync(join(root, "components"))) {
      await Deno.copyFile(join(root, "components", e.name), join(dir, "components", e.name));
    }
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--cached-only", PREFILL, "--root", root, "--into", join(dir, "data")],
      env: { ...options.env, EXECRET_OUT: resolve(run.out) },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    log += text;
    if (!options.quiet) await Deno.stderr.write(stderr);
    if (code !== 0) {
      throw new Error(`site: run ${run.name} (${run.out}): a data loader failed\n${text}`);
    }
  }
  await Deno.writeTextFile(join(stage, "index.md"), landingPage(runs, labels));
  await Deno.writeTextFile(join(stage, "sql.md"), sqlPage(runs));
  const config = join(stage, "observablehq.config.js");
  const body = stagedConfig(resolve(stage), resolve(options.output), runs, labels);
  await Deno.writeTextFile(config, `export default ${JSON.stringify(body, null, 2)};\n`);
  return { config, output: log };
}

/** The staged root of a site built into `output`: `<output>-src` beside it. */
export function stageOf(output: string): string {
  return join(resolve(output, ".."), `${basename(resolve(output))}-src`);
}
