/**
 * Imports point one way: no module of the kit imports, directly or through
 * others (type-only imports included), a module that imports it back. Checked
 * on the module graphs `deno info` gives for the CLI, the site's loaders and
 * the tests' shared helpers.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ENTRIES = ["src/cli/main.ts", "src/site/site_data.ts", "src/site/build_site.ts"];

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

async function graph(entry: string): Promise<Map<string, string[]>> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-remote", "--no-lock", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  ok(success, new TextDecoder().decode(stderr));
  const info = JSON.parse(new TextDecoder().decode(stdout)) as { modules: InfoModule[] };
  const local = `file://${ROOT}`;
  const edges = new Map<string, string[]>();
  for (const m of info.modules) {
    if (!m.specifier.startsWith(local)) continue;
    const deps = (m.dependencies ?? []).flatMap((d) => [d.code?.specifier, d.type?.specifier])
      .filter((s): s is string => s !== undefined && s.startsWith(local))
      .map((s) => s.slice(local.length));
    edges.set(m.specifier.slice(local.length), [...new Set(deps)]);
  }
  return edges;
}

/** Strongly connected components of more than one module (Tarjan). */
function cycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return out;
}

Deno.test("the cycle finder finds a cycle", () => {
  const edges = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  assertEquals(cycles(edges), [["a", "b", "c"]]);
});

for (const entry of ENTRIES) {
  Deno.test(`no import cycle in the module graph of ${entry}`, async () => {
    const edges = await graph(entry);
    ok(edges.size > 5, `${entry}: ${edges.size} modules`);
    assertEquals(cycles(edges), []);
  });
}
