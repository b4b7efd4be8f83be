/** Test helpers of fetch_release: a generated bundle and a loopback stand-in for the Hub. */
import { dirname, join } from "node:path";
import { UserError } from "../../src/io/user_error.ts";
import { sha256Hex } from "../../src/io/hash.ts";

export const REPO = "tester/bundle";
export const REV = "abc1234";
export const SPEC = `${REPO}@${REV}`;
export const BIG = "embeddings/big.npz";
export const FAST = { quiet: true, retries: 1, retryDelayMs: 1 };

/** How the loopback hub misbehaves for one file. */
export type Fault =
  | "corrupt" // other bytes of the same length
  | "missing" // 404
  | "truncate" // full Content-Length, then the connection closes halfway
  | "truncate-once"
  | "ignore-range" // 200 with the whole file whatever the Range
  | "busy-once" // 503 the first time
  | "stall"; // half the bytes, then silence with the connection open

export interface Seen {
  path: string;
  range: string | null;
  auth: string | null;
}

/** A generated bundle (with a nested path and a ~1 MB binary) and its SHA256SUMS. */
export async function makeBundle(): Promise<{ dir: string; files: Map<string, Uint8Array> }> {
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
export function serveHub(dir: string) {
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
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>) {
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
export async function withHub(
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
export async function userError(fn: () => Promise<unknown>): Promise<UserError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error("expected a UserError, but it succeeded");
}

/** Synchronous twin of {@link userError}. */
export function throwsUserError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error("expected a UserError, but it succeeded");
}

export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Every path under `dir`, relative, sorted. */
export async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await listFiles(path, base));
    else out.push(path.slice(base.length + 1));
  }
  return out.sort();
}
