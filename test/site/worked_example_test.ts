/**
 * CONTRIBUTING's worked examples of a new page and a new table, built. A copy
 * of the kit gets exactly the changes CONTRIBUTING says each one takes:
 *
 * - the Domains page: its Markdown (`docs/domains.md`), its module
 *   (`src/site/report/domains.ts`, queries, shaping and entry) and one line
 *   `DOMAINS_PAGE,` in `PAGES` (with its import), src/site/pages.ts;
 * - the `operator_counts` table: its spec (`src/tables/operator_counts.ts`)
 *   and one entry in `TABLE_CATALOG` (with its import), src/tables/catalog.ts.
 *
 * The copy's site is then built over the fixture run, with the table written
 * as the mutate stage would write it, and both are checked where a reader
 * meets them: the page and its data, the table as a data file of the site,
 * in the SQL console's schema, in `execret sql` and among the mutate stage's
 * outputs.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import * as arrow from "apache-arrow";
import { checkedRowsOf, tableFromRows, toIpcStream, toParquet } from "../../src/io/arrow_table.ts";
import { BREAKDOWNS, MUTANTS } from "../../src/tables/schema.ts";
import { makeFixtureRunInProcess } from "../fixtures/run/fixture_process.ts";
import {
  OPERATOR_COUNTS,
  operatorCounts,
} from "../../examples/contributing/table_operator_counts.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const EXAMPLES = join(ROOT, "examples", "contributing");
/** What a site build reads from the kit (the rest, tests and docs, it does not need). */
const KIT = ["src", "docs", "data", "deno.json", "deno.lock", "observablehq.config.ts"];

/** Copy the kit's files a build reads into `to`, with its installed packages linked. */
async function copyKit(to: string): Promise<void> {
  const copy = async (from: string, into: string) => {
    const stat = await Deno.stat(from);
    if (!stat.isDirectory) return await Deno.copyFile(from, into);
    await Deno.mkdir(into, { recursive: true });
    for await (const e of Deno.readDir(from)) {
      if (e.name === ".observablehq") continue; // Framework's caches: the build makes its own
      await copy(join(from, e.name), join(into, e.name));
    }
  };
  for (const part of KIT) await copy(join(ROOT, part), join(to, part));
  await Deno.symlink(join(ROOT, "node_modules"), join(to, "node_modules"));
}

/** `text` with `insert` put after `anchor`, which must occur in it exactly once. */
function insertAfter(text: string, anchor: string, insert: string, file: string): string {
  const at = text.indexOf(anchor);
  ok(at >= 0 && text.indexOf(anchor, at + 1) < 0, `${file}: "${anchor}" is not there once`);
  return text.slice(0, at + anchor.length) + insert + text.slice(at + anchor.length);
}

/** Edit `path` under `kit` with `edit`. */
async function editFile(kit: string, path: string, edit: (text: string) => string): Promise<void> {
  const file = join(kit, path);
  await Deno.writeTextFile(file, edit(await Deno.readTextFile(file)));
}

/** Add the worked example's page and table to the kit in `kit`, as CONTRIBUTING says. */
async function addExamples(kit: string): Promise<void> {
  // The page: its Markdown, its module, one line in PAGES.
  await Deno.copyFile(join(EXAMPLES, "page_domains.md"), join(kit, "docs", "domains.md"));
  const page = (await Deno.readTextFile(join(EXAMPLES, "page_domains.ts")))
    .replaceAll('"../../src/site/', '"../').replaceAll('"../../src/', '"../../');
  await Deno.writeTextFile(join(kit, "src", "site", "report", "domains.ts"), page);
  await editFile(kit, "src/site/pages.ts", (text) => {
    const list = insertAfter(text, "export const PAGES", "", "pages.ts");
    const end = list.indexOf("\n];\n", list.indexOf("export const PAGES"));
    const added = `${list.slice(0, end)}\n  DOMAINS_PAGE,${list.slice(end)}`;
    return `import { DOMAINS_PAGE } from "./report/domains.ts";\n${added}`;
  });
  // The table: its spec, one entry in the catalog.
  const spec = (await Deno.readTextFile(join(EXAMPLES, "table_operator_counts.ts")))
    .replaceAll('"../../src/io/', '"../io/');
  await Deno.writeTextFile(join(kit, "src", "tables", "operator_counts.ts"), spec);
  await editFile(
    kit,
    "src/tables/catalog.ts",
    (text) =>
      `import { OPERATOR_COUNTS } from "./operator_counts.ts";\n` +
      insertAfter(
        text,
        `  entry("mutants", MUTANTS, "mutate"),\n`,
        `  entry("operator_counts", OPERATOR_COUNTS, "mutate"),\n`,
        "catalog.ts",
      ),
  );
}

/** Run `args` with the copy's Deno setup in `kit`; resolves to stdout, failing on a non-zero exit. */
async function inKit(kit: string, env: Record<string, string>, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: kit,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  assertEquals(code, 0, `${args.join(" ")}:\n${new TextDecoder().decode(stderr).slice(-3000)}`);
  return text;
}

/** The built site's data file `name` (its file name carries a content hash). */
async function siteData(site: string, name: string): Promise<Uint8Array> {
  const [stem, ext] = [name.slice(0, name.lastIndexOf(".")), name.slice(name.lastIndexOf("."))];
  const dir = join(site, "_file", "data");
  for await (const e of Deno.readDir(dir)) {
    if (new RegExp(`^${stem}\\.[0-9a-f]{8}\\${ext}$`).test(e.name)) {
      return await Deno.readFile(join(dir, e.name));
    }
  }
  throw new Error(`${dir}: no ${name}`);
}

Deno.test({
  name: "CONTRIBUTING's new page and new table, added as it says, reach the built site",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "execret-worked-" });
    try {
      const [kit, run, site] = ["kit", "run", "site"].map((d) => join(tmp, d));
      await copyKit(kit);
      await addExamples(kit);
      await makeFixtureRunInProcess(run);
      // The new table, as the mutate stage would write it (Arrow, and its Parquet copy).
      const mutants = checkedRowsOf(
        arrow.tableFromIPC(await Deno.readFile(join(run, "tables", "mutants.arrow"))),
        MUTANTS,
        "mutants",
      );
      const counts = toIpcStream(tableFromRows(operatorCounts(mutants), OPERATOR_COUNTS));
      await Deno.writeFile(join(run, "tables", "operator_counts.arrow"), counts);
      await Deno.writeFile(join(run, "parquet", "operator_counts.parquet"), toParquet(counts));

      const env = { EXECRET_OUT: run, EXECRET_SITE_OUT: site, EXECRET_SITE_READ_ONLY: "1" };
      await inKit(kit, env, ["run", "-A", "--cached-only", "src/site/build_site.ts"]);

      // The page: built, in the sidebar, with the cells of its query.
      const html = await Deno.readTextFile(join(site, "domains.html"));
      ok(html.includes("exec@1 per domain"), "the page's heading");
      ok((await Deno.readTextFile(join(site, "index.html"))).includes('href="./domains"'));
      const data = JSON.parse(new TextDecoder().decode(await siteData(site, "page_domains.json")));
      const [result] = Object.values(Object.values(data)[0] as Record<string, { rows: unknown[] }>);
      const breakdowns = checkedRowsOf(
        arrow.tableFromIPC(await Deno.readFile(join(run, "tables", "breakdowns.arrow"))),
        BREAKDOWNS,
        "breakdowns",
      ).filter((b) => b.group_by === "domain" && b.metric === "exec" && b.k === 1);
      ok(breakdowns.length > 0, "the fixture run has per-domain exec@1");
      assertEquals(result.rows.length, breakdowns.length);

      // The table: a data file of the site, byte for byte; in the console's schema and page.
      assertEquals(await siteData(site, "operator_counts.arrow"), counts);
      const schema = JSON.parse(new TextDecoder().decode(await siteData(site, "sql_schema.json")));
      assertEquals(
        schema.columns.filter((c: { table_name: string }) => c.table_name === "operator_counts")
          .map((c: { column_name: string }) => c.column_name),
        ["bug_type", "operator", "mutants"],
      );
      ok((await Deno.readTextFile(join(site, "sql.html"))).includes("operator_counts"));
      // … in `execret sql`, and among the mutate stage's outputs.
      const sql = await inKit(kit, env, [
        "run",
        "-A",
        "--cached-only",
        "src/cli/main.ts",
        "sql",
        "--format",
        "json",
        "SELECT sum(mutants)::INT AS n FROM operator_counts",
      ]);
      assertEquals(JSON.parse(sql), [{ n: mutants.length }]);
      const stages = await inKit(kit, env, [
        "eval",
        'import { STAGES } from "./src/pipeline/stages.ts";' +
        'console.log(JSON.stringify(STAGES.find((s) => s.name === "mutate").tables));',
      ]);
      assertEquals(JSON.parse(stages), ["mutants", "operator_counts", "rejects_mutate"]);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
