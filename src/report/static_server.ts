import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".arrow": "application/vnd.apache.arrow.stream",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** A running loopback server; `close()` stops it. */
export interface SiteServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serve a built site folder on 127.0.0.1 (port 0 picks a free one). Clean
 * URLs map to `<path>.html` as Framework's own preview does. Only for local
 * viewing and tests: no caching headers, no directory listings.
 */
export function serveSite(dir: string, port = 0): SiteServer {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port, onListen: () => {} },
    async (req) => {
      const path = decodeURIComponent(new URL(req.url).pathname);
      const rel = normalize(path).replace(/^(\.\.(\/|$))+/, "");
      const candidates = rel.endsWith("/")
        ? [join(dir, rel, "index.html")]
        : [join(dir, rel), join(dir, `${rel}.html`)];
      for (const file of candidates) {
        try {
          const body = await Deno.readFile(file);
          const type = TYPES[extname(file)] ?? "application/octet-stream";
          return new Response(body, { headers: { "content-type": type } });
        } catch {
          // try the next candidate
        }
      }
      return new Response("not found", { status: 404 });
    },
  );
  const { port: actual } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${actual}`, close: () => server.shutdown() };
}
