/**
 * Bundles that differ from the fixture in the small ways the release's
 * documentation leaves open all import: the leaderboard and invocation table
 * at the root instead of in results/, canonicals with `bug_type: ""` instead
 * of no key, per-model files in provider subfolders, the cache's per-test
 * list called `outcomes` without `passes_all_tests`. (The fixture's three
 * `.npz` files already cover ids present and absent, compressed and not.)
 * What the documentation does state is checked line by line in
 * test/fixtures/release/conformance_*_test.ts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readEmbeddingFile } from "../embed/embedding_file.ts";
import { pythonSyntax } from "../tasks/python_syntax.ts";
import { readRelease } from "../tasks/release_tasks.ts";
import { releasedSystems } from "./bundle_source.ts";
import { readBundle } from "./read_bundle.ts";
import { writeReleasedEmbeddings } from "../embed/release_embeddings.ts";

const FIXTURE = fileURLToPath(new URL("../../test/fixtures/release/paper", import.meta.url));

async function copy(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copy(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function variant(edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "execret-layout-" });
  await copy(FIXTURE, dir);
  await edit(dir);
  return dir;
}

async function editLines(path: string, change: (row: Record<string, unknown>) => void) {
  const lines = (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "");
  const out = lines.map((l) => {
    const row = JSON.parse(l);
    change(row);
    return JSON.stringify(row);
  });
  await Deno.writeTextFile(path, out.join("\n") + "\n");
}

/** What must hold for every layout: the same bundle, the same systems, the same vectors. */
async function importsLikeTheFixture(dir: string): Promise<void> {
  const bundle = await readBundle(dir);
  assertEquals(bundle.queries.length, 24);
  assertEquals(bundle.corpus.size, 119);
  assertEquals(bundle.runs.map((r) => r.model).sort(), [
    "BM25",
    "acme/embed-small",
    "nimbus/code-v2",
    "sentence-transformers/dotty-base-dot-v1",
  ]);
  const systems = releasedSystems(bundle);
  assertEquals(systems.map((s) => [s.config, s.similarity]), [
    ["paper-code-v2", "cosine"],
    ["paper-dotty-base-dot-v1", "dot"],
    ["paper-embed-small", "cosine"],
  ]);
  const canonical = [...bundle.corpus.values()].find((s) => s.label === "correct")!;
  assertEquals(canonical.bug_type, null);
  const { tasks, rejects } = await readRelease(dir, await pythonSyntax());
  assertEquals(rejects, []);
  assertEquals(tasks.length, 24);

  const out = await Deno.makeTempDir({ prefix: "execret-layout-out-" });
  const previous = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", out);
  try {
    await writeReleasedEmbeddings(dir, { quiet: true });
    for (const s of systems) {
      const file = await readEmbeddingFile(join(out, "embeddings", `${s.config}.arrow`));
      assertEquals(file.ids.length, 24 + 119);
      assertEquals(file.ids[0], "release/q_0001");
    }
  } finally {
    if (previous === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", previous);
  }
}

Deno.test("the fixture bundle imports as released", async () => {
  await importsLikeTheFixture(FIXTURE);
});

Deno.test("the two top-level JSON files may sit at the bundle's root", async () => {
  const dir = await variant(async (d) => {
    for (const f of ["full_leaderboard.json", "invocation_table.json"]) {
      await Deno.rename(join(d, "results", f), join(d, f));
    }
  });
  await importsLikeTheFixture(dir);
});

Deno.test('canonicals may carry bug_type "" instead of no key', async () => {
  const dir = await variant((d) =>
    editLines(join(d, "data/corpus.jsonl"), (row) => {
      if (row.label === "correct") row.bug_type = "";
    })
  );
  await importsLikeTheFixture(dir);
});

Deno.test("per-model files may sit in provider subfolders", async () => {
  const dir = await variant(async (d) => {
    for (const [sub, ext] of [["results", "json"], ["embeddings", "npz"]]) {
      for (const flat of ["acme__embed-small", "nimbus__code-v2"]) {
        const [provider, name] = flat.split("__");
        await Deno.mkdir(join(d, sub, provider), { recursive: true });
        await Deno.rename(join(d, sub, `${flat}.${ext}`), join(d, sub, provider, `${name}.${ext}`));
        // The bundle's own list follows the files (a missing listed file is refused).
        const sums = join(d, "SHA256SUMS");
        await Deno.writeTextFile(
          sums,
          (await Deno.readTextFile(sums)).replace(
            `  ${sub}/${flat}.${ext}`,
            `  ${sub}/${provider}/${name}.${ext}`,
          ),
        );
      }
    }
  });
  await importsLikeTheFixture(dir);
  const bundle = await readBundle(dir);
  ok(bundle.embeddings.get("acme/embed-small")!.endsWith(join("acme", "embed-small.npz")));
});

Deno.test("the cache's per-test list may be called outcomes, without passes_all_tests", async () => {
  const dir = await variant((d) =>
    editLines(join(d, "data/execution_cache.jsonl"), (row) => {
      row.outcomes = row.test_results;
      delete row.test_results;
      delete row.passes_all_tests;
    })
  );
  await importsLikeTheFixture(dir);
});

Deno.test("a cache row whose passes_all_tests contradicts its outcomes is a finding, not a refusal", async () => {
  const dir = await variant((d) =>
    editLines(join(d, "data/execution_cache.jsonl"), (row) => {
      row.passes_all_tests = !row.passes_all_tests;
    })
  );
  await importsLikeTheFixture(dir);
  const found = (await readBundle(dir)).findings.find((f) => f.kind === "pass_flag_disagrees");
  assertEquals([found?.file, found?.count], ["data/execution_cache.jsonl", 119]);
});

Deno.test("an .npz that matches no released model is a finding and not scored", async () => {
  const dir = await variant((d) =>
    Deno.copyFile(join(d, "embeddings/nimbus__code-v2.npz"), join(d, "embeddings/stray.npz"))
  );
  await importsLikeTheFixture(dir);
  const found = (await readBundle(dir)).findings.find((f) => f.kind === "npz_unmatched");
  assertEquals([found?.file, found?.example], [
    "embeddings/stray.npz",
    "matches no model of results/",
  ]);
});
