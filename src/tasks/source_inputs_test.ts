import { deepStrictEqual as assertEquals, notDeepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { sourceInputDigests } from "./tasks_stage.ts";
import { TASK_SOURCES as registry } from "./source_registry.ts";

Deno.test("what a task source reads is part of the tasks stage's stamp, by content", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-inputs-" });
  const file = join(dir, "tasks.jsonl");
  await Deno.writeTextFile(file, '{"task_id": "a"}\n');
  // A release bundle in the layout with data/, and one with its files at the top.
  const bundle = join(dir, "bundle");
  await Deno.mkdir(join(bundle, "data"), { recursive: true });
  await Deno.writeTextFile(join(bundle, "data", "queries.jsonl"), "q1\n");
  await Deno.writeTextFile(join(bundle, "data", "corpus.jsonl"), "c1\n");
  const flat = join(dir, "flat");
  await Deno.mkdir(flat);
  await Deno.writeTextFile(join(flat, "queries.jsonl"), "q1\n");
  const sources = ["builtin", "mbpp", `jsonl:${file}`, `release:${bundle}`, `release:${flat}`];
  const before = await sourceInputDigests(sources, { registry });
  ok(before[file] && before[join(bundle, "data", "queries.jsonl")], JSON.stringify(before));
  ok(Object.keys(before).some((p) => p.endsWith("data/builtin_tasks.jsonl")));
  // mbpp is fixed by the digest data/sources.json pins, which the stamp covers already.
  ok(!Object.keys(before).some((p) => p.includes("mbpp")));

  for (
    const edit of [
      file,
      join(bundle, "data", "corpus.jsonl"),
      join(flat, "queries.jsonl"),
    ]
  ) {
    const was = await sourceInputDigests(sources, { registry });
    await Deno.writeTextFile(edit, "edited\n", { append: true });
    const now = await sourceInputDigests(sources, { registry });
    notDeepStrictEqual(now, was, `an edit of ${edit} changes the digests`);
    assertEquals(
      Object.keys(now).filter((k) => now[k] !== was[k]),
      [edit],
      "and only that file's",
    );
  }
  // A file the bundle does not have yet counts as absent, and its arrival counts.
  assertEquals(before[join(flat, "corpus.jsonl")], null);
  await Deno.writeTextFile(join(flat, "corpus.jsonl"), "c1\n");
  ok((await sourceInputDigests(sources, { registry }))[join(flat, "corpus.jsonl")]);
  await Deno.remove(dir, { recursive: true });
});
