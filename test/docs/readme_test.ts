/**
 * The README is a user's page: short (the reference and the internals live in
 * REFERENCE.md and CONTRIBUTING.md); every link it and REFERENCE.md make
 * to a file of the repository, or to a heading in one, leads somewhere; and
 * every SQL query its shell blocks show runs over a run's tables.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { makeFixtureRunInProcess } from "../fixtures/run/fixture_process.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, ROOT));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

/** `path:line: link` for each relative link of `path` whose file or heading does not exist. */
export function brokenLinks(path: string, text: string, readFile: (p: string) => string): string[] {
  const broken: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split("#");
      let body: string;
      try {
        body = file === "" ? text : readFile(file);
      } catch {
        broken.push(`${path}:${i + 1}: ${target}`);
        continue;
      }
      if (anchor === undefined) continue;
      const anchors = [...body.matchAll(/^#{1,6}\s+(.+)$/gm)].map((h) => anchorOf(h[1]));
      if (!anchors.includes(anchor)) broken.push(`${path}:${i + 1}: ${target}`);
    }
  });
  return broken;
}

Deno.test("anchorOf and brokenLinks: GitHub's anchors; a missing file or heading is named", () => {
  deepStrictEqual(anchorOf("Closing the gap: rerankers"), "closing-the-gap-rerankers");
  const files: Record<string, string> = { "B.md": "# B\n\n## Stamps and reruns\n" };
  const readFile = (p: string) => {
    if (!(p in files)) throw new Error(p);
    return files[p];
  };
  deepStrictEqual(
    brokenLinks("A.md", "[x](B.md#stamps-and-reruns) [y](B.md#nope)\n[z](C.md)", readFile),
    ["A.md:1: B.md#nope", "A.md:2: C.md"],
  );
});

Deno.test("the README stays short, and its links and the reference's lead somewhere", () => {
  const readme = read("README.md");
  const lines = readme.split("\n").length;
  ok(lines <= 150, `README.md has ${lines} lines: move reference material to REFERENCE.md`);
  deepStrictEqual(
    ["README.md", "REFERENCE.md"].flatMap((p) => brokenLinks(p, read(p), read)),
    [],
  );
});

/** The queries of `make sql Q="…"` and `execret sql "…"` lines in a Markdown text's sh blocks. */
export function sqlQueries(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) =>
    [...b.matchAll(/(?:make sql Q=|execret sql )"([^"]+)"/g)].map((m) => m[1])
  );
}

Deno.test("sqlQueries finds both spellings of the SQL command in sh blocks only", () => {
  const md =
    'x `make sql Q="no"`\n```sh\nmake sql Q="SELECT 1"\nexecret sql "SELECT 2"  # c\n```\n';
  deepStrictEqual(sqlQueries(md), ["SELECT 1", "SELECT 2"]);
});

Deno.test("every SQL query of the README's shell blocks runs over a run's tables", async () => {
  const queries = sqlQueries(read("README.md"));
  ok(queries.length >= 2, `only ${queries.length} queries found`);
  const out = await Deno.makeTempDir({ prefix: "execret-readme-sql-" });
  try {
    await makeFixtureRunInProcess(out);
    for (const q of queries) {
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--cached-only", new URL("src/cli/main.ts", ROOT).pathname, "sql", q],
        env: { EXECRET_OUT: out, NO_COLOR: "1" },
        stdout: "null",
        stderr: "piped",
      }).output();
      deepStrictEqual([q, code], [q, 0], new TextDecoder().decode(stderr));
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
