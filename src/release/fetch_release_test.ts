import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../io/hash.ts";
import {
  DEFAULT_RELEASE_REPO,
  DEFAULT_RELEASE_REVISION,
  fetchRelease,
  fetchReleaseBundle,
  parseReleaseSpec,
  releaseCacheDir,
} from "./fetch_release.ts";
import { parseSha256Sums } from "./sha256sums.ts";

import {
  BIG,
  exists,
  FAST,
  listFiles,
  REPO,
  REV,
  SPEC,
  throwsUserError,
  userError,
  withEnv,
  withHub,
} from "../../test/support/fetch_hub.ts";

Deno.test("parseReleaseSpec: defaults, repo, revision and bad specs", () => {
  const paper = { repo: DEFAULT_RELEASE_REPO, revision: DEFAULT_RELEASE_REVISION };
  assertEquals(parseReleaseSpec(), paper);
  assertEquals(parseReleaseSpec(""), paper);
  assertEquals(parseReleaseSpec(DEFAULT_RELEASE_REPO), paper);
  assertEquals(parseReleaseSpec("@main"), { repo: DEFAULT_RELEASE_REPO, revision: "main" });
  assertEquals(parseReleaseSpec("me/other"), { repo: "me/other", revision: "main" });
  assertEquals(parseReleaseSpec("me/other@v1.0"), { repo: "me/other", revision: "v1.0" });
  for (const bad of ["noslash", "a/b/c", "me/other@", "me/x@../../etc", "../x@1"]) {
    throwsUserError(() => parseReleaseSpec(bad));
  }
});

Deno.test("releaseCacheDir: one folder per repo and revision under the cache", async () => {
  await withEnv({ EXECRET_CACHE: "/tmp/c" }, () => {
    assertEquals(releaseCacheDir("a/b", "ace5c3f"), "/tmp/c/releases/a__b@ace5c3f");
    assertEquals(releaseCacheDir("a/b", "refs/pr/1"), "/tmp/c/releases/a__b@refs__pr__1");
    return Promise.resolve();
  });
});

Deno.test("parseSha256Sums: both modes, comments, CRLF; bad lines name file:line", () => {
  const h = "ab".repeat(32);
  const H = "CD".repeat(32);
  assertEquals(
    parseSha256Sums(`# c\n\n${h}  a.txt\r\n${H} *dir/b.bin\n${h}  SHA256SUMS\n`, "S"),
    [
      { path: "a.txt", sha256: h, line: 3 },
      { path: "dir/b.bin", sha256: H.toLowerCase(), line: 4 },
    ],
  );
  const cases: [string, RegExp][] = [
    [`${h}  a\n${h.slice(1)}  b\n`, /^S:2: malformed/],
    [`${h}\n`, /^S:1: malformed/],
    [`${h}  ../up\n`, /^S:1: unsafe path/],
    [`${h}  /abs\n`, /^S:1: unsafe path/],
    [`${h}  a//b\n`, /^S:1: unsafe path/],
    [`${h}  a\n${h}  a\n`, /^S:2: a listed twice \(first at line 1\)/],
    [`${h}  x.part\n`, /^S:1: "x.part" clashes/],
    ["# only a comment\n", /^S: lists no files/],
  ];
  for (const [text, message] of cases) {
    assertMatch(throwsUserError(() => parseSha256Sums(text, "S")).message, message);
  }
});

Deno.test("fetchRelease: downloads and verifies every file, then a rerun makes no request", async () => {
  await withHub(async (hub, bundle, cache) => {
    const dir = await fetchRelease(SPEC, FAST);
    assertEquals(dir, releaseCacheDir(REPO, REV));
    assert(dir.startsWith(cache));
    for (const [path, bytes] of bundle.files) {
      assertEquals(await Deno.readFile(join(dir, path)), bytes, path);
    }
    assertEquals(
      await Deno.readFile(join(dir, "SHA256SUMS")),
      await Deno.readFile(join(bundle.dir, "SHA256SUMS")),
    );
    // Nothing partial is left behind; the marker holds the list's digest.
    assertEquals(
      await listFiles(dir),
      [
        ".complete",
        ".lock",
        "README.md",
        "SHA256SUMS",
        "data/queries.jsonl",
        BIG,
        "results/a.json",
      ].sort(),
    );
    assertEquals(
      (await Deno.readTextFile(join(dir, ".complete"))).trim(),
      sha256Hex(await Deno.readFile(join(bundle.dir, "SHA256SUMS"))),
    );
    assertEquals(hub.seen.map((s) => s.path).sort(), ["SHA256SUMS", ...bundle.files.keys()].sort());
    assert(hub.seen.every((s) => s.auth === null && s.range === null));

    hub.seen.length = 0;
    const again = await fetchReleaseBundle(SPEC, FAST);
    assertEquals(hub.seen.length, 0);
    assertEquals(again.via, "cache");
    assertEquals(again.files, 4);
    assertEquals(again.bytes, [...bundle.files.values()].reduce((n, b) => n + b.length, 0));

    // A file lost after completion: only the list and that file are fetched again.
    await Deno.remove(join(dir, "results/a.json"));
    const repaired = await fetchReleaseBundle(SPEC, FAST);
    assertEquals(repaired.via, "download");
    assertEquals(hub.seen.map((s) => s.path), ["SHA256SUMS", "results/a.json"]);
  });
});

Deno.test("fetchRelease: HF_TOKEN goes to the Hub as a bearer token, not to a redirect's CDN", async () => {
  await withHub(async (hub, bundle) => {
    // The Hub sends large files to a CDN on another origin, as huggingface.co does.
    const cdnSeen: { auth: string | null; range: string | null }[] = [];
    const cdn = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      cdnSeen.push({ auth: req.headers.get("authorization"), range: req.headers.get("range") });
      return new Response(bundle.files.get(BIG)!.slice());
    });
    hub.redirects.set(BIG, `http://127.0.0.1:${cdn.addr.port}/signed/big`);
    try {
      const dir = await fetchRelease(SPEC, FAST);
      assertEquals(await Deno.readFile(join(dir, BIG)), bundle.files.get(BIG)!);
    } finally {
      await cdn.shutdown();
    }
    assertEquals(hub.seen.length, 5);
    assert(hub.seen.every((s) => s.auth === "Bearer hf_secret"));
    assertEquals(cdnSeen, [{ auth: null, range: null }]);
  }, { HF_TOKEN: "hf_secret" });
});

Deno.test("fetchRelease: a corrupted file fails naming it and both digests, leaving nothing", async () => {
  await withHub(async (hub, bundle) => {
    hub.faults.set("results/a.json", "corrupt");
    const good = sha256Hex(bundle.files.get("results/a.json")!);
    const bad = sha256Hex(bundle.files.get("results/a.json")!.map((b) => b ^ 0xff));
    const error = await userError(() => fetchRelease(SPEC, FAST));
    assertMatch(error.message, /^results\/a\.json: SHA-256 mismatch/);
    assert(error.message.includes(good) && error.message.includes(bad), error.message);
    assert(!error.message.includes("\n"));
    const dir = releaseCacheDir(REPO, REV);
    assert(!await exists(join(dir, "results/a.json")));
    assert(!await exists(join(dir, "results/a.json.part")));
    assert(!await exists(join(dir, ".complete")));
  });
});

Deno.test("fetchRelease: a missing file (404) fails naming it and the status", async () => {
  await withHub(async (hub) => {
    hub.faults.set("data/queries.jsonl", "missing");
    const error = await userError(() => fetchRelease(SPEC, FAST));
    assertMatch(error.message, /^data\/queries\.jsonl: HTTP 404/);
    const dir = releaseCacheDir(REPO, REV);
    assert(!await exists(join(dir, "data/queries.jsonl")));
    assert(!await exists(join(dir, ".complete")));
  });
});

Deno.test("fetchRelease: a cut connection keeps the .part; the next run resumes with Range", async () => {
  await withHub(async (hub, bundle) => {
    hub.faults.set(BIG, "truncate");
    const error = await userError(() => fetchRelease(SPEC, FAST));
    assertMatch(error.message, /^embeddings\/big\.npz: download stopped after \d+ of \d+ bytes/);
    assertMatch(error.message, /rerun to resume$/);
    const dir = releaseCacheDir(REPO, REV);
    assert(!await exists(join(dir, BIG)));
    const kept = (await Deno.stat(join(dir, `${BIG}.part`))).size;
    const full = bundle.files.get(BIG)!.length;
    assert(kept > 0 && kept < full, `kept ${kept} of ${full}`);

    hub.faults.delete(BIG);
    hub.seen.length = 0;
    const result = await fetchReleaseBundle(SPEC, FAST);
    assertEquals(result.via, "download");
    const big = hub.seen.filter((s) => s.path === BIG);
    assertEquals(big.map((s) => s.range), [`bytes=${kept}-`]);
    // Files finished by the first run were not fetched again.
    assertEquals(hub.seen.map((s) => s.path).sort(), ["SHA256SUMS", BIG]);
    assertEquals(result.downloaded, full - kept);
    assertEquals(await Deno.readFile(join(dir, BIG)), bundle.files.get(BIG)!);
    assert(!await exists(join(dir, `${BIG}.part`)));
  });
});

Deno.test("fetchRelease: a response that goes silent is given up on, keeping the .part", async () => {
  await withHub(async (hub) => {
    hub.faults.set(BIG, "stall");
    const error = await userError(() => fetchRelease(SPEC, { ...FAST, retries: 0, stallMs: 300 }));
    assertMatch(
      error.message,
      /^embeddings\/big\.npz: download stopped after \d+ of \d+ bytes \(stalled\)/,
    );
    assert((await Deno.stat(join(releaseCacheDir(REPO, REV), `${BIG}.part`))).size > 0);
  });
});
