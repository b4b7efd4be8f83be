import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { PAGES } from "./pages.ts";

const DOCS = new URL("../../docs/", import.meta.url);

/** The page file of `path`: `docs/<path>.md`, or the page loader that makes it (`.md.ts`). */
function pageFile(path: string): string | null {
  const name = path === "/" ? "index" : path.slice(1);
  for (const file of [`${name}.md`, `${name}.md.ts`]) {
    try {
      Deno.statSync(new URL(file, DOCS));
      return file;
    } catch {
      // not this one
    }
  }
  return null;
}

Deno.test("the page list and docs/ agree: every entry has its page, every page its entry", () => {
  for (const p of PAGES) ok(pageFile(p.path), `${p.path}: no docs/${p.path}.md`);
  const listed = new Set(PAGES.map((p) => pageFile(p.path)));
  const pages = [...Deno.readDirSync(DOCS)]
    .filter((e) => e.isFile && /\.md(\.ts)?$/.test(e.name))
    .map((e) => e.name);
  assertEquals(pages.filter((f) => !listed.has(f)), []);
});

Deno.test("each page's data file has a name of its own", () => {
  const ids = PAGES.flatMap((p) => p.data ? [p.data.id] : []);
  assertEquals(new Set(ids).size, ids.length);
});
