import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { fetchReleaseCommand } from "../cli/commands/fetch_release.ts";
import { sha256Hex } from "../io/hash.ts";
import { fetchRelease, fetchReleaseBundle, releaseCacheDir } from "./fetch_release.ts";

import {
  BIG,
  FAST,
  listFiles,
  REPO,
  REV,
  SPEC,
  userError,
  withEnv,
  withHub,
} from "../../test/support/fetch_hub.ts";

Deno.test("fetchRelease: within one run, a cut connection and a 503 are retried", async () => {
  await withHub(async (hub, bundle) => {
    hub.faults.set(BIG, "truncate-once");
    hub.faults.set("README.md", "busy-once");
    const dir = await fetchRelease(SPEC, FAST);
    assertEquals(await Deno.readFile(join(dir, BIG)), bundle.files.get(BIG)!);
    const ranges = hub.seen.filter((s) => s.path === BIG).map((s) => s.range);
    assertEquals(ranges.length, 2);
    assertEquals(ranges[0], null);
    assertMatch(ranges[1]!, /^bytes=[1-9]\d*-$/);
    assertEquals(hub.seen.filter((s) => s.path === "README.md").length, 2);
  });
});

Deno.test("fetchRelease: leftover .part files — ignored range, stale bytes, already whole", async () => {
  await withHub(async (hub, bundle) => {
    const dir = releaseCacheDir(REPO, REV);
    const big = bundle.files.get(BIG)!;
    const a = bundle.files.get("results/a.json")!;
    const queries = bundle.files.get("data/queries.jsonl")!;
    await Deno.mkdir(join(dir, "embeddings"), { recursive: true });
    await Deno.mkdir(join(dir, "results"), { recursive: true });
    await Deno.mkdir(join(dir, "data"), { recursive: true });
    // A server that answers 200 to a Range request: restart from 0.
    await Deno.writeFile(join(dir, `${BIG}.part`), big.subarray(0, 1000));
    hub.faults.set(BIG, "ignore-range");
    // A .part from other content: the resumed digest fails, one fresh download fixes it.
    await Deno.writeFile(join(dir, "results/a.json.part"), new Uint8Array(5).fill(42));
    // A .part that is already the whole file (killed before the rename): 416, then verified.
    await Deno.writeFile(join(dir, "data/queries.jsonl.part"), queries);
    await fetchRelease(SPEC, FAST);
    assertEquals(await Deno.readFile(join(dir, BIG)), big);
    assertEquals(await Deno.readFile(join(dir, "results/a.json")), a);
    assertEquals(await Deno.readFile(join(dir, "data/queries.jsonl")), queries);
    assertEquals(
      hub.seen.filter((s) => s.path === "results/a.json").map((s) => s.range),
      ["bytes=5-", null],
    );
    assertEquals(
      hub.seen.filter((s) => s.path === "data/queries.jsonl").map((s) => s.range),
      [`bytes=${queries.length}-`],
    );
    assert(!(await listFiles(dir)).some((p) => p.endsWith(".part")));
  });
});

Deno.test("fetchRelease: a malformed SHA256SUMS line fails with file:line", async () => {
  await withHub(async (_hub, bundle) => {
    const path = join(bundle.dir, "SHA256SUMS");
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines[2] = lines[2].slice(3); // digest too short on line 3
    await Deno.writeTextFile(path, lines.join("\n"));
    const error = await userError(() => fetchRelease(SPEC, FAST));
    assertMatch(error.message, new RegExp(`^${REPO}@${REV}/SHA256SUMS:3: malformed line`));
  });
});

Deno.test("fetchRelease: EXECRET_RELEASE_MIRROR is verified in place, without network", async () => {
  await withHub(async (hub, bundle) => {
    await withEnv({ EXECRET_RELEASE_MIRROR: bundle.dir }, async () => {
      const result = await fetchReleaseBundle(SPEC, FAST);
      assertEquals(result.dir, bundle.dir);
      assertEquals(result.via, "mirror");
      assertEquals(result.files, 4);
      assertEquals(hub.seen.length, 0);

      await Deno.writeTextFile(join(bundle.dir, "results/a.json"), "{}\n");
      const corrupt = await userError(() => fetchRelease(SPEC, FAST));
      assertMatch(corrupt.message, /results\/a\.json: SHA-256 mismatch: expected [0-9a-f]{64} /);
      assert(corrupt.message.includes(sha256Hex("{}\n")));

      await Deno.remove(join(bundle.dir, "results/a.json"));
      const missing = await userError(() => fetchRelease(SPEC, FAST));
      assertMatch(missing.message, /results\/a\.json: missing \(listed at .*SHA256SUMS:\d+\)/);
    });
  });
});

Deno.test("execret fetch-release --json prints dir, files and bytes", async () => {
  await withHub(async (_hub, bundle) => {
    const printed: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => printed.push(args.join(" "));
    let code: number;
    try {
      code = await fetchReleaseCommand.run([SPEC, "--json", "--quiet"]);
    } finally {
      console.log = log;
    }
    assertEquals(code, 0);
    assertEquals(JSON.parse(printed.join("\n")), {
      dir: releaseCacheDir(REPO, REV),
      files: 4,
      bytes: [...bundle.files.values()].reduce((n, b) => n + b.length, 0),
    });
    await userError(() => fetchReleaseCommand.run(["a/b", "c/d"]));
  });
});
