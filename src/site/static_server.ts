/**
 * A loopback server for a BUILT site, under a base path as GitHub Pages serves
 * a project site. Why the kit keeps its own ~50 lines instead of a library:
 * Deno std's `file_server` is published on JSR, which these machines cannot
 * reach; Framework's `observable preview` serves the sources (rebuilding and
 * running data loaders on request) at `/` only, so it cannot show what the
 * built `dist` does under `/<repo>/`; and `send` (installed with Framework)
 * is Node `http` middleware that would still need the base-path, clean-URL
 * and 404 rules written here. Tested in `static_server_test.ts`.
 *
 * @module
 */
import { extname, join, normalize } from "node:path";
import { pacedLink } from "./paced_body.ts";

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
  /** Where the site's root is: origin plus base path, no trailing slash (`http://127.0.0.1:PORT/repo`). */
  url: string;
  close(): Promise<void>;
}

/** Options of {@link serveSite}. */
export interface ServeOptions {
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /**
   * Path the site lives under, e.g. `/execret-kit/` as GitHub Pages serves a
   * project site at `/<repo>/`; default `/`. Anything outside it is a 404,
   * so a page that links or fetches by absolute path fails as it would there.
   */
  base?: string;
  /**
   * Send every body through one link of this many bytes per second (see
   * paced_body.ts), as a visitor's connection would; default: unpaced.
   */
  bytesPerSecond?: number;
  /** Send `cache-control: no-store`, so every page load fetches what it needs afresh. */
  noStore?: boolean;
  /** Called once per response, when its last byte is sent (or its reader stopped). */
  onServed?(entry: ServedEntry): void;
}

/** One response, as {@link ServeOptions.onServed} reports it. */
export interface ServedEntry {
  /** Path as requested, without origin (base path included). */
  path: string;
  status: number;
  /** Body bytes sent. */
  bytes: number;
  /** performance.now() when the request came in, and when its last byte was sent. */
  start: number;
  end: number;
}

/** `/x/y/` from `x/y`, `/x/y` or `/x/y/`; `/` from `` or `/`. */
function normalizeBase(base: string): string {
  const trimmed = base.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "/" : `/${trimmed}/`;
}

/**
 * Serve a built site folder on 127.0.0.1 under a base path. Clean URLs map
 * to `<path>.html` and the base without its slash redirects to it, as
 * Framework's own preview and GitHub Pages do. Only for local viewing and
 * tests: no directory listings. Files are cacheable for ten minutes, as
 * GitHub Pages serves them (`max-age=600`, `Last-Modified`): Chromium then
 * downloads DuckDB-wasm once, not once a page (it still compiles it for
 * every page: see launchChromium). Serve a rebuilt site on a new server, so
 * under a new origin, rather than to a browser that has the old one cached.
 *
 * With `base: "/execret-kit/"`, `server.url` is
 * `http://127.0.0.1:<port>/execret-kit` and the pages are at `server.url +
 * "/leaderboard"`; `await server.close()` stops it.
 */
export function serveSite(dir: string, options: ServeOptions = {}): SiteServer {
  const base = normalizeBase(options.base ?? "/");
  const link = options.bytesPerSecond ? pacedLink(options.bytesPerSecond) : undefined;
  const served = (path: string, status: number, start: number) => (bytes: number) =>
    options.onServed?.({ path, status, bytes, start, end: performance.now() });
  const notFound = (path: string, start: number) => {
    served(path, 404, start)(0);
    return new Response("not found", { status: 404 });
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    async (req) => {
      const start = performance.now();
      const url = new URL(req.url);
      const path = decodeURIComponent(url.pathname);
      if (base !== "/" && path === base.slice(0, -1)) {
        served(path, 301, start)(0);
        return Response.redirect(new URL(base + url.search, url), 301);
      }
      if (!path.startsWith(base)) return notFound(path, start);
      const rel = normalize(path.slice(base.length - 1)).replace(/^(\.\.(\/|$))+/, "");
      const candidates = rel.endsWith("/")
        ? [join(dir, rel, "index.html")]
        : [join(dir, rel), join(dir, `${rel}.html`)];
      for (const file of candidates) {
        let handle: Deno.FsFile;
        try {
          handle = await Deno.open(file);
        } catch {
          continue; // try the next candidate
        }
        const info = await handle.stat();
        if (!info.isFile) {
          handle.close();
          continue;
        }
        // Streamed from the file: Deno.serve sends a whole-file Uint8Array
        // body ~20× slower (DuckDB-wasm's 35 MB took 0.6 s against 0.03 s),
        // and every site page that queries DuckDB fetches it.
        const done = served(path, 200, start);
        let body: ReadableStream<Uint8Array>;
        if (link) body = link.body(handle, done);
        else if (options.onServed) {
          // Counted as it passes, so the entry comes when the last byte has gone.
          let bytes = 0;
          body = handle.readable.pipeThrough(
            new TransformStream({
              transform(chunk, controller) {
                bytes += chunk.length;
                controller.enqueue(chunk);
              },
              flush: () => done(bytes),
            }),
          );
        } else body = handle.readable;
        return new Response(body, {
          headers: {
            "content-type": TYPES[extname(file)] ?? "application/octet-stream",
            "content-length": String(info.size),
            // Without these every page fetched and compiled DuckDB-wasm afresh.
            "cache-control": options.noStore ? "no-store" : "max-age=600",
            "last-modified": (info.mtime ?? new Date(0)).toUTCString(),
          },
        });
      }
      return notFound(path, start);
    },
  );
  const { port: actual } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${actual}${base.slice(0, -1)}`,
    close: () => server.shutdown(),
  };
}
