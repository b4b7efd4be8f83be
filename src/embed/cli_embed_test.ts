import { ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { embedCommand } from "../cli/commands/embed.ts";
import { writeEmbeddingFile } from "./embedding_file.ts";
import { invocationFor } from "./invocations.ts";

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  try {
    return { code: await fn(), out: lines.join("\n") };
  } finally {
    console.log = log;
  }
}

Deno.test("execret embed --list shows every config with what it needs", async () => {
  const { code, out } = await capture(() => embedCommand.run(["--list"]));
  strictEqual(code, 0);
  ok(/^bm25 +bm25 .* available$/m.test(out), out);
  ok(/^use +use .*512 +cosine +available$/m.test(out));
  ok(/^multi-qa-mpnet-base-dot-v1 .* dot /m.test(out));
});

Deno.test("execret embed: sparse configs need no file; bad flags and names are one-line errors", async () => {
  const { code, out } = await capture(() => embedCommand.run(["--config", "bm25,tfidf"]));
  strictEqual(code, 0);
  ok(out.includes("bm25: sparse retriever, scored at score time (no file)"));
  await rejects(embedCommand.run([]), /give at least one --config NAME/);
  await rejects(embedCommand.run(["--config", "nope"]), /unknown config "nope"/);
  await rejects(embedCommand.run(["--bogus"]), /bogus/);
});

Deno.test("execret embed --check exits 1 on non-finite or zero-norm vectors, 0 when sound", async () => {
  const out = await Deno.makeTempDir();
  Deno.env.set("EXECRET_OUT", out);
  try {
    const inv = { ...await invocationFor("use"), dims: 2 };
    const dir = join(out, "embeddings");
    await writeEmbeddingFile(join(dir, "good.arrow"), { ...inv, name: "good" }, [
      { id: "q", role: "query", vector: Float32Array.of(0.6, 0.8) },
    ], "2026-01-01T00:00:00.000Z");
    const good = await capture(() => embedCommand.run(["--check"]));
    strictEqual(good.code, 0);
    ok(good.out.includes("good: 1 rows (1 queries, 0 documents) × 2 dims"), good.out);
    await writeEmbeddingFile(join(dir, "bad.arrow"), { ...inv, name: "bad" }, [
      { id: "q", role: "query", vector: Float32Array.of(0, 0) },
      { id: "d", role: "document", vector: Float32Array.of(Infinity, 0) },
    ], "2026-01-01T00:00:00.000Z");
    const bad = await capture(() => embedCommand.run(["--check"]));
    strictEqual(bad.code, 1);
    ok(bad.out.includes("bad: 2 rows") && bad.out.includes("1 non-finite; 1 zero-norm"), bad.out);
    await rejects(
      embedCommand.run(["--check", "--config", "absent"]),
      /absent\.arrow: table not found/,
    );
  } finally {
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});
