import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { join } from "node:path";
import { readFixture } from "../../test/support/source_fixtures.ts";
import {
  obtainSource,
  recordsDigest,
  SourceError,
  type SourceSpec,
  verifySourceBytes,
} from "./external.ts";
import { jsonlLines } from "../io/jsonl_lines.ts";

const MBPP_BYTES = await readFixture("mbpp_small.jsonl");
const HUMANEVAL_BYTES = await readFixture("humaneval_small.jsonl");

/** A spec pinning the small MBPP-shaped fixture the way data/sources.json pins MBPP. */
function mbppSpec(overrides: Partial<SourceSpec> = {}): SourceSpec {
  const records = jsonlLines(MBPP_BYTES).map((l) => l.value as Record<string, unknown>);
  return {
    title: "MBPP fixture",
    url: "http://127.0.0.1:9/never-used",
    url_env: `EXECRET_TEST_URL_${crypto.randomUUID().replaceAll("-", "_")}`,
    file: "mbpp.jsonl",
    gzip: false,
    rows: 7,
    id_field: "task_id",
    id_prefix: "",
    id_first: 1,
    id_last: 7,
    fields: { task_id: "number", text: "string", code: "string", test_list: "string[]" },
    digest: recordsDigest(records),
    license: "test",
    ...overrides,
  };
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function sourceError(message: string) {
  return (e: unknown) => {
    if (!(e instanceof SourceError)) return false;
    assertEquals(e.message, message);
    return true;
  };
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return names.sort();
}

Deno.test("verifySourceBytes accepts the pinned content and returns records in id order", async () => {
  const shuffled = new TextEncoder().encode(
    new TextDecoder().decode(MBPP_BYTES).split("\r\n").reverse().join("\n") + "\n",
  );
  const records = await verifySourceBytes(shuffled, mbppSpec(), "mbpp.jsonl");
  // Line endings and row order differ from the pinned file; the content digest does not.
  assertEquals(records.map((r) => [r.value.task_id, r.line]), [
    [1, 7],
    [2, 6],
    [3, 5],
    [4, 4],
    [5, 3],
    [6, 2],
    [7, 1],
  ]);
});

Deno.test("verifySourceBytes names the file and the first problem in one line", async () => {
  const text = new TextDecoder().decode(MBPP_BYTES);
  const lines = text.split("\r\n");
  const enc = (s: string) => new TextEncoder().encode(s);
  await assertRejects(
    verifySourceBytes(MBPP_BYTES, mbppSpec({ digest: "sha256:0000" }), "mbpp.jsonl"),
    sourceError(
      `mbpp.jsonl: content digest ${mbppSpec().digest} does not match the pinned sha256:0000 (data/sources.json)`,
    ),
  );
  await assertRejects(
    verifySourceBytes(enc(lines.slice(0, 5).join("\n")), mbppSpec(), "m.jsonl"),
    sourceError("m.jsonl: expected 7 rows, found 5"),
  );
  await assertRejects(
    verifySourceBytes(enc([...lines.slice(0, 6), "{oops"].join("\n")), mbppSpec(), "m.jsonl"),
    sourceError("m.jsonl:7: malformed JSON: unexpected input at column 2"),
  );
  await assertRejects(
    verifySourceBytes(enc([...lines.slice(0, 6), lines[0]].join("\n")), mbppSpec(), "m.jsonl"),
    sourceError("m.jsonl:7: duplicate id 1 (first at line 1)"),
  );
  await assertRejects(
    verifySourceBytes(enc(lines.join("\n")), mbppSpec({ id_first: 0, id_last: 6 }), "m.jsonl"),
    sourceError("m.jsonl:7: unexpected id 7"),
  );
  const noText = lines.map((l, i) => i === 2 ? l.replace('"text": ', '"txt": ') : l).join("\n");
  await assertRejects(
    verifySourceBytes(enc(noText), mbppSpec(), "m.jsonl"),
    sourceError("m.jsonl:3: field text missing or not string"),
  );
});

Deno.test("verifySourceBytes gunzips gzip sources and rejects a corrupt archive", async () => {
  const records = jsonlLines(HUMANEVAL_BYTES).map((l) => l.value as Record<string, unknown>);
  const spec = mbppSpec({
    file: "HumanEval.jsonl.gz",
    gzip: true,
    rows: 5,
    id_prefix: "HumanEval/",
    id_first: 0,
    id_last: 4,
    fields: { task_id: "string", prompt: "string", test: "string" },
    digest: recordsDigest(records),
  });
  const gz = await gzip(HUMANEVAL_BYTES);
  assertEquals((await verifySourceBytes(gz, spec, "he.gz")).length, 5);
  await assertRejects(
    verifySourceBytes(gz.subarray(0, gz.length - 30), spec, "he.gz"),
    (e: unknown) =>
      e instanceof SourceError && e.message.startsWith("he.gz: not a valid gzip file ("),
  );
});

Deno.test("obtainSource reads the mirror folder, and names a missing mirror file", async () => {
  const mirror = await Deno.makeTempDir();
  await Deno.writeFile(join(mirror, "mbpp.jsonl"), MBPP_BYTES);
  const file = await obtainSource(mbppSpec(), { mirror, quiet: true });
  assertEquals([file.via, file.origin, file.records.length], [
    "mirror",
    join(mirror, "mbpp.jsonl"),
    7,
  ]);
  await assertRejects(
    obtainSource(mbppSpec({ file: "absent.jsonl" }), { mirror, quiet: true }),
    sourceError(
      `${join(mirror, "absent.jsonl")}: not found (mirror folder from EXECRET_MIRROR or --mirror)`,
    ),
  );
  await Deno.remove(mirror, { recursive: true });
});

/** A loopback HTTP server with a few routes; nothing here leaves the machine. */
function serve() {
  const half = MBPP_BYTES.subarray(0, Math.floor(MBPP_BYTES.length / 2));
  let hits = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      hits++;
      const path = new URL(request.url).pathname;
      if (path === "/mbpp.jsonl") return new Response(MBPP_BYTES as BlobPart);
      if (path === "/truncated.jsonl") return new Response(half as BlobPart);
      return new Response("not here", { status: 404 });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { base, server, hits: () => hits };
}

/**
 * A raw loopback listener that promises the whole file (Content-Length), sends
 * half of it and closes the connection: a download cut off mid-body.
 */
function serveDying() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const half = MBPP_BYTES.subarray(0, Math.floor(MBPP_BYTES.length / 2));
  const done = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(4096));
      const head = `HTTP/1.1 200 OK\r\ncontent-length: ${MBPP_BYTES.length}\r\n\r\n`;
      await conn.write(new TextEncoder().encode(head));
      await conn.write(half);
      conn.close();
    }
  })();
  const addr = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}/dies.jsonl`,
    async close() {
      listener.close();
      await done.catch(() => {});
    },
  };
}

Deno.test("obtainSource downloads over HTTP, verifies, caches atomically, then uses the cache", async () => {
  const { base, server, hits } = serve();
  const cache = await Deno.makeTempDir();
  try {
    const spec = mbppSpec();
    const first = await obtainSource(spec, { url: `${base}/mbpp.jsonl`, cache, quiet: true });
    assertEquals([first.via, first.origin, first.records.length], [
      "download",
      `${base}/mbpp.jsonl`,
      7,
    ]);
    assertEquals(await Deno.readFile(join(cache, "mbpp.jsonl")), MBPP_BYTES);
    assertEquals(await listDir(cache), ["mbpp.jsonl"]);
    // The second run never asks the server: the cached copy still verifies.
    const second = await obtainSource(spec, { url: `${base}/missing`, cache, quiet: true });
    assertEquals([second.via, second.origin], ["cache", join(cache, "mbpp.jsonl")]);
    assertEquals(hits(), 1);
  } finally {
    await server.shutdown();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("the download address can be overridden by the spec's environment variable", async () => {
  const { base, server } = serve();
  const cache = await Deno.makeTempDir();
  const spec = mbppSpec();
  Deno.env.set(spec.url_env, `${base}/mbpp.jsonl`); // a name unique to this test
  try {
    const file = await obtainSource(spec, { cache, quiet: true });
    assertEquals([file.via, file.origin], ["download", `${base}/mbpp.jsonl`]);
  } finally {
    Deno.env.delete(spec.url_env);
    await server.shutdown();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("failed, truncated and broken downloads leave no cache file", async () => {
  const { base, server } = serve();
  const cache = await Deno.makeTempDir();
  const spec = mbppSpec();
  try {
    await assertRejects(
      obtainSource(spec, { url: `${base}/gone`, cache, quiet: true }),
      sourceError(
        `mbpp.jsonl: download from ${base}/gone failed (HTTP 404); ` +
          "set EXECRET_MIRROR to a folder holding mbpp.jsonl to work offline",
      ),
    );
    assertEquals(await listDir(cache), []);
    // A well-formed response holding half the file fails verification.
    await assertRejects(
      obtainSource(spec, { url: `${base}/truncated.jsonl`, cache, quiet: true }),
      sourceError(
        `mbpp.jsonl (from ${base}/truncated.jsonl): expected 7 rows, found 3 (1 malformed)`,
      ),
    );
    assertEquals(await listDir(cache), []);
    // A connection that breaks mid-body is a failed download.
    const dying = serveDying();
    try {
      await assertRejects(
        obtainSource(spec, { url: dying.url, cache, quiet: true }),
        (e: unknown) =>
          e instanceof SourceError &&
          e.message.startsWith(`mbpp.jsonl: download from ${dying.url} failed (`),
      );
    } finally {
      await dying.close();
    }
    assertEquals(await listDir(cache), []);
  } finally {
    await server.shutdown();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a corrupt cache file is replaced by a fresh verified download", async () => {
  const { base, server } = serve();
  const cache = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(cache, "mbpp.jsonl"), '{"task_id": 1}\n');
    const file = await obtainSource(mbppSpec(), { url: `${base}/mbpp.jsonl`, cache, quiet: true });
    assertEquals(file.via, "download");
    assertEquals(await Deno.readFile(join(cache, "mbpp.jsonl")), MBPP_BYTES);
  } finally {
    await server.shutdown();
    await Deno.remove(cache, { recursive: true });
  }
});
