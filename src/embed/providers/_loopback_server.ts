/**
 * A real HTTP server on 127.0.0.1 (random port) for testing hosted
 * providers offline: it records every request and answers with the test's
 * handler, which asserts the wire format and can inject faults.
 */

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: SeenRequest[];
  /** Release hanging handlers and stop the server. */
  close(): Promise<void>;
  /** A promise that resolves when close() starts, for handlers that hang on purpose. */
  closing: Promise<void>;
}

/** Start a server; `handle` gets each request (0-based index n) and returns the answer. */
export function startLoopback(
  handle: (req: SeenRequest, n: number, server: LoopbackServer) => Response | Promise<Response>,
): LoopbackServer {
  let release!: () => void;
  const closing = new Promise<void>((r) => release = r);
  const requests: SeenRequest[] = [];
  const ac = new AbortController();
  // deno-lint-ignore prefer-const
  let self: LoopbackServer;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen: () => {},
  }, async (req) => {
    const text = await req.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text);
    } catch {
      // Left empty; the handler's assertions will notice.
    }
    const seen = {
      method: req.method,
      path: new URL(req.url).pathname,
      headers: req.headers,
      body,
    };
    requests.push(seen);
    try {
      return await handle(seen, requests.length - 1, self);
    } catch (e) {
      // A failed assertion inside the handler becomes a 418 the test sees in its error.
      return new Response(`assertion failed in loopback server: ${(e as Error).message}`, {
        status: 418,
      });
    }
  });
  const addr = server.addr as Deno.NetAddr;
  self = {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    closing,
    async close() {
      release();
      ac.abort();
      await server.finished;
    },
  };
  return self;
}

/** JSON response helper. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A deterministic fake vector for a text (never zero, so normalising is defined). */
export function fakeVector(text: string, dims: number): number[] {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return Array.from({ length: dims }, (_, j) => ((h >>> (j % 24)) & 0xff) / 255 + 0.01 * (j + 1));
}
