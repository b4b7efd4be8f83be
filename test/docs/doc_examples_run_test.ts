/**
 * Runs every `@example` block of the kit's modules, each as its own test, in
 * this one process. `deno test --doc` does the same but loads each snippet as
 * a separate test module in a fresh isolate (≈0.8 CPU-seconds apiece here,
 * over a minute for all of them), so this runner gives each snippet what the
 * doc runner gives it (the module's exports in scope, relative imports from
 * the module's folder) and imports it once into a shared module graph.
 * `make lint` still type-checks the snippets with Deno's own
 * `deno check --doc`; test/architecture/doc_examples_test.ts keeps each one a
 * plain ```` ```ts ```` block that asserts.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { exampleModules, examplesOf, ROOT } from "./doc_examples.ts";

/** Names a snippet binds itself (by import or top-level declaration), which must not be injected. */
function ownNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from/g)) {
    for (const part of m[1].split(",")) {
      const local = part.trim().split(/\s+as\s+/).pop()?.replace(/^type\s+/, "").trim();
      if (local) names.add(local);
    }
  }
  for (const m of code.matchAll(/import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from/g)) {
    names.add(m[1]);
  }
  for (
    const m of code.matchAll(
      /^(?:export\s+)?(?:const|let|var|function\*?|async\s+function|class)\s+([A-Za-z_$][\w$]*)/gm,
    )
  ) names.add(m[1]);
  return names;
}

/**
 * The module text of a snippet: the module's runtime exports imported by
 * name (what `deno test --doc` puts in scope), then the snippet with its
 * relative specifiers made absolute, as they resolve from the module.
 */
export function snippetModule(moduleUrl: string, exportNames: string[], code: string): string {
  const own = ownNames(code);
  const injected = exportNames.filter((n) => n !== "default" && !own.has(n));
  const body = code.replace(
    /(from\s+|import\s*\(\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
    (_m, head, quote, spec) => `${head}${quote}${new URL(spec, moduleUrl).href}${quote}`,
  );
  const head = injected.length ? `import { ${injected.join(", ")} } from "${moduleUrl}";\n` : "";
  return head + body + "\n";
}

Deno.test("examplesOf takes the code of each @example ```ts block, and snippetModule scopes it", () => {
  const text = [
    "/**",
    " * Doc.",
    " *",
    " * @example",
    " * ```ts",
    ' * import { strictEqual } from "node:assert/strict";',
    ' * import { helper } from "./helper.ts";',
    " * strictEqual(twice(helper(1)), 2);",
    " * ```",
    " */",
  ].join("\n");
  const [ex] = examplesOf(text);
  deepStrictEqual(ex.line, 4);
  ok(ex.code.startsWith('import { strictEqual } from "node:assert/strict";'), ex.code);
  const mod = snippetModule("file:///k/src/m.ts", ["twice", "helper", "default"], ex.code);
  ok(mod.startsWith('import { twice } from "file:///k/src/m.ts";\n'), mod);
  ok(mod.includes('from "file:///k/src/helper.ts"'), mod);
});

const scratch = await Deno.makeTempDir({ prefix: "execret-doc-examples-" });
let count = 0;
for (const file of exampleModules()) {
  const examples = examplesOf(Deno.readTextFileSync(`${ROOT}${file}`)).filter((e) =>
    e.fence === "ts"
  );
  if (examples.length === 0) continue;
  const moduleUrl = pathToFileURL(`${ROOT}${file}`).href;
  for (const ex of examples) {
    const n = count++;
    Deno.test(`@example ${file}:${ex.line}`, async () => {
      const exportNames = Object.keys(await import(moduleUrl));
      const path = `${scratch}/example_${n}.ts`;
      await Deno.writeTextFile(path, snippetModule(moduleUrl, exportNames, ex.code));
      await import(pathToFileURL(path).href);
    });
  }
}

Deno.test("the runner found the kit's examples", () => {
  ok(count >= 50, `only ${count} @example blocks found`);
});
