/**
 * What ran before in an output folder changes nothing in the next run's
 * tables. A run of one profile (24 tasks), then a run of another (the first
 * 12 of them, so every text it embeds was embedded before, in other
 * batches) in the same folder, gives byte for byte the tables and embedding
 * files of a cold run of the second profile in a folder of its own. On main
 * it did not: the Universal Sentence Encoder's vector of a text depends on
 * its batch, and the vector cache served each text as the first profile's
 * batch had embedded it. Then a bm25-only run over other tasks in the same
 * folder completes, and its check does not look at the embedding file the
 * earlier runs left (on main it failed on it).
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { seedSnapshot } from "../../src/oracle/pool.ts";
import { digests, finish, quickSubsetProfile, reproduce } from "./_reproduce.ts";
import { builtinTaskLines } from "../support/builtin_tasks.ts";

Deno.test({
  name: "a warm run of a second profile equals its cold run byte for byte; stale files go",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-warm-" });
    const first = await quickSubsetProfile(root, 24, { name: "first" });
    const second = await quickSubsetProfile(root, 12, { name: "second" });
    const warm = join(root, "warm");
    const cold = join(root, "cold");
    await seedSnapshot(join(warm, "cache"));
    await seedSnapshot(join(cold, "cache"));
    // The cold run has its own folder and cache, so it runs beside the two warm ones.
    const coldRun = finish(reproduce(cold, second));
    coldRun.catch(() => {});
    await finish(reproduce(warm, first));
    const firstTables = digests(warm, true);
    await finish(reproduce(warm, second));
    await coldRun;
    const [w, c] = [digests(warm, true), digests(cold, true)];
    ok(w["embeddings/use.arrow"] && w["tables/rankings.arrow"], "use embedded and scored");
    ok(
      w["tables/queries.arrow"] !== firstTables["tables/queries.arrow"],
      "the second profile's benchmark differs from the first's",
    );
    assertEquals(w, c);

    // A bm25-only profile over other tasks, in the same folder.
    const sparse = join(root, "sparse.jsonl");
    const lines = (await Deno.readTextFile(join(root, "first.jsonl"))).split("\n");
    const others = (await builtinTaskLines()).filter((l) => !lines.includes(l)).slice(0, 6);
    await Deno.writeTextFile(sparse, others.join("\n") + "\n");
    const bm25 = join(root, "bm25.json");
    const quick = JSON.parse(await Deno.readTextFile(second));
    await Deno.writeTextFile(
      bm25,
      JSON.stringify({ ...quick, name: "bm25", sources: [`jsonl:${sparse}`], configs: ["bm25"] }),
    );
    const text = await finish(reproduce(warm, bm25));
    match(text, /execret check: all \d+ checks pass/);
    match(text, /removed \d+ file\(s\) an earlier run left in .*embeddings\/use\.arrow/);
    await Deno.stat(join(warm, "embeddings", "use.arrow")).then(
      () => ok(false, "the earlier run's use.arrow is still there"),
      (e) => ok(e instanceof Deno.errors.NotFound),
    );
    await Deno.remove(root, { recursive: true });
  },
});
