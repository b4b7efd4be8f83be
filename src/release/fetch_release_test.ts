import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { dirname, join } from "node:path";
import { UserError } from "../io/user_error.ts";
import { fetchReleaseCommand } from "../cli/commands/fetch_release.ts";
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

const REPO = "tester/bundle";
const REV = "abc1234";
const SPEC = `${REPO}@${REV}`;
const BIG = "embeddings/big.npz";
const FAST = { quiet: true, retries: 1, retryDelayMs: 1 };

/** How the loopback hub misbehaves for one file. */
type Fault =
  | "corrupt" // other bytes of the same length
  | "missing" // 404
  | "truncate" // full Content-Length, then the connection closes halfway
  | "truncate-once"
  | "ignore-range" // 200 with the whole file whatever the Range
  | "busy-once" // 503 the first time
  | "stall"; // half the bytes, then silence with the connection open

interface Seen {
  path: string;
  range: string | null;
  auth: string | null;
}

/** A generated bundle (with a nested path and a ~1 MB binary) and its SHA256SUMS. */
async function makeBundle(): Promise<{ dir: string; files: Map<string, Uint8Array> }> {
  const dir = await Deno.makeTempDir({ prefix: "execret-bundle-" });
  const big = new Uint8Array(1_000_003);
  for (let i = 0; i < big.length; i += 65536) {
    crypto.getRandomValues(big.subarray(i, Math.min(i + 65536, big.length)));
  }
  const enc = new TextEncoder();
  const files = new Map<string, Uint8Array>([
    ["README.md", enc.encode("# test bundle\n")],
    ["results/a.json", enc.encode(JSON.stringify({ model: "a", exec_at_1: 0.5 }) + "\n")],
    ["data/queries.jsonl", enc.encode('{"id":"q1"}\n{"id":"q2"}\n')],
    [BIG, big],
  ]);
  for (const [path, bytes] of files) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeFile(join(dir, path), bytes);
  }
  const sums = [...files].map(([path, bytes]) => `${sha256Hex(bytes)}  ${path}\n`).join("");
  await Deno.writeTextFile(join(dir, "SHA256SUMS"), `# made by the test\n${sums}`);
  return { dir, files };
}

/** A loopback stand-in for the Hub's resolve endpoint, serving `dir`, honouring Range. */
function serveHub(dir: string) {
  const seen: Seen[] = [];
  const faults = new Map<string, Fault>();
  const redirects = new Map<string, string>();
  const prefix = `/datasets/${REPO}/resolve/${REV}/`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (!url.pathname.startsWith(prefix)) return new Response("no such repo", { status: 404 });
    const path = decodeURIComponent(url.pathname.slice(prefix.length));
    const range = req.headers.get("range");
    seen.push({ path, range, auth: req.headers.get("authorization") });
    const target = redirects.get(path);
    if (target) return Response.redirect(target, 302);
    const fault = faults.get(path);
    if (fault === "missing") return new Response("not found", { status: 404 });
    if (fault === "busy-once") {
      faults.delete(path);
      return new Response("busy", { status: 503 });
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await Deno.readFile(join(dir, path));
    } catch {
      return new Response("not found", { status: 404 });
    }
    if (fault === "corrupt") bytes = bytes.map((b) => b ^ 0xff);
    let status = 200;
    const headers = new Headers({ "content-type": "application/octet-stream" });
    const from = range && fault !== "ignore-range" ? /^bytes=(\d+)-$/.exec(range) : null;
    if (from) {
      const start = Number(from[1]);
      if (start >= bytes.length) {
        return new Response(null, {
          status: 416,
          headers: { "content-range": `bytes */${bytes.length}` },
        });
      }
      headers.set("content-range", `bytes ${start}-${bytes.length - 1}/${bytes.length}`);
      bytes = bytes.subarray(start);
      status = 206;
    }
    headers.set("content-length", String(bytes.length));
    if (fault === "stall") {
      const half = bytes.subarray(0, Math.floor(bytes.length / 2));
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(half);
        },
        pull: () => new Promise<void>(() => {}),
      });
      return new Response(body, { status, headers });
    }
    if (fault === "truncate" || fault === "truncate-once") {
      if (fault === "truncate-once") faults.delete(path);
      const half = bytes.subarray(0, Math.floor(bytes.length / 2));
      // Promise the whole length, send half, close: the client sees a cut connection.
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(half);
        },
        pull(c) {
          c.close();
        },
      });
      return new Response(body, { status, headers });
    }
    return new Response(bytes, { status, headers });
  });
  return {
    endpoint: `http://127.0.0.1:${server.addr.port}`,
    seen,
    faults,
    redirects,
    close: () => server.shutdown(),
  };
}

/** Set env vars for the length of `fn` and put the old values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>) {
  const old = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const set = (k: string, v: string | undefined) =>
    v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  for (const [k, v] of Object.entries(vars)) set(k, v);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(old)) set(k, v);
  }
}

/** A bundle, a hub serving it and a fresh cache, torn down after `fn`. */
async function withHub(
  fn: (
    hub: ReturnType<typeof serveHub>,
    bundle: { dir: string; files: Map<string, Uint8Array> },
    cache: string,
  ) => Promise<void>,
  env: Record<string, string | undefined> = {},
): Promise<void> {
  const bundle = await makeBundle();
  const cache = await Deno.makeTempDir({ prefix: "execret-cache-" });
  const hub = serveHub(bundle.dir);
  try {
    await withEnv({
      HF_ENDPOINT: hub.endpoint,
      HF_TOKEN: undefined,
      EXECRET_CACHE: cache,
      EXECRET_RELEASE_MIRROR: undefined,
      ...env,
    }, () => fn(hub, bundle, cache));
  } finally {
    await hub.close();
    await Deno.remove(bundle.dir, { recursive: true });
    await Deno.remove(cache, { recursive: true });
  }
}

/** The UserError `fn` rejects with (fails the test if it resolves or throws another). */
async function userError(fn: () => Promise<unknown>): Promise<UserError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error("expected a UserError, but it succeeded");
}

/** Synchronous twin of {@link userError}. */
function throwsUserError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error("expected a UserError, but it succeeded");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Every path under `dir`, relative, sorted. */
async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await listFiles(path, base));
    else out.push(path.slice(base.length + 1));
  }
  return out.sort();
}

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
