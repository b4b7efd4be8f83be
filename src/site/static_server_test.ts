import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { type ServedEntry, serveSite } from "./static_server.ts";

/** Status, body (or redirect target) of a GET that does not follow redirects. */
async function get(url: string): Promise<[number, string]> {
  const res = await fetch(url, { redirect: "manual" });
  const body = await res.text();
  return [res.status, res.status === 301 ? res.headers.get("location")! : body];
}

Deno.test("serveSite serves the site under its base path only, as GitHub Pages does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-serve-" });
  await Deno.writeTextFile(join(dir, "index.html"), "home");
  await Deno.writeTextFile(join(dir, "sql.html"), "sql page");
  await Deno.mkdir(join(dir, "_file"));
  await Deno.writeTextFile(join(dir, "_file", "t.arrow"), "table");
  // A folder named as a page's clean URL does not hide the page.
  await Deno.mkdir(join(dir, "sql"));
  const wasm = new Uint8Array(3 << 20).map((_, i) => (i * 7919) & 255);
  await Deno.writeFile(join(dir, "_file", "big.wasm"), wasm);
  const server = serveSite(dir, { base: "execret-kit" });
  const origin = new URL(server.url).origin;
  try {
    assertEquals(server.url, `${origin}/execret-kit`);
    assertEquals(await get(`${server.url}/`), [200, "home"]);
    assertEquals(await get(`${server.url}/sql`), [200, "sql page"]);
    assertEquals(await get(`${server.url}/sql.html`), [200, "sql page"]);
    assertEquals(await get(`${server.url}/_file/t.arrow`), [200, "table"]);
    const big = await fetch(`${server.url}/_file/big.wasm`);
    assertEquals(
      [big.headers.get("content-type"), big.headers.get("content-length")],
      ["application/wasm", String(wasm.length)],
    );
    assertEquals(new Uint8Array(await big.arrayBuffer()), wasm);
    // Cacheable as on GitHub Pages, with the file's own modification time.
    const mtime = (await Deno.stat(join(dir, "_file", "big.wasm"))).mtime!;
    assertEquals(
      [big.headers.get("cache-control"), big.headers.get("last-modified")],
      ["max-age=600", mtime.toUTCString()],
    );
    assertEquals((await get(`${server.url}/sql/`))[0], 404);
    assertEquals(await get(server.url), [301, `${origin}/execret-kit/`]);
    // Outside the base: what an absolute link would reach on a project site.
    assertEquals((await get(`${origin}/sql`))[0], 404);
    assertEquals((await get(`${origin}/_file/t.arrow`))[0], 404);
    assertEquals((await get(`${server.url}/../index.html`))[0], 404);
    assertEquals((await get(`${server.url}/nope`))[0], 404);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveSite without a base serves from the root", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-serve-" });
  await Deno.writeTextFile(join(dir, "index.html"), "home");
  const server = serveSite(dir);
  try {
    assertEquals(server.url, new URL(server.url).origin);
    assertEquals(await get(`${server.url}/`), [200, "home"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveSite paces bodies on one shared link and logs each response", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-serve-" });
  const file = new Uint8Array(200_000).map((_, i) => (i * 31) & 255);
  await Deno.writeFile(join(dir, "a.bin"), file);
  await Deno.writeFile(join(dir, "b.bin"), file);
  const served: ServedEntry[] = [];
  // 1 MB/s: the two files together cannot take less than 0.4 s, however they interleave.
  const rate = 1_000_000;
  const server = serveSite(dir, {
    bytesPerSecond: rate,
    noStore: true,
    onServed: (e) => served.push(e),
  });
  try {
    const t0 = performance.now();
    const [a, b] = await Promise.all(["a.bin", "b.bin"].map((f) => fetch(`${server.url}/${f}`)));
    assertEquals(a.headers.get("cache-control"), "no-store");
    const bodies = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    const elapsed = performance.now() - t0;
    for (const body of bodies) assertEquals(new Uint8Array(body), file);
    assertEquals((await get(`${server.url}/missing`))[0], 404);
    assertEquals(
      served.map((e) => [e.path, e.status, e.bytes]).sort(),
      [["/a.bin", 200, file.length], ["/b.bin", 200, file.length], ["/missing", 404, 0]],
    );
    // A lower bound only (timers may fire late, never early by more than rounding).
    const least = (2 * file.length / rate) * 1000;
    assertEquals(elapsed >= 0.9 * least, true, `${elapsed} ms for ${least} ms of bytes`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
