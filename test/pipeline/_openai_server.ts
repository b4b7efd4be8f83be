/**
 * An OpenAI-compatible embeddings server on loopback (`POST /v1/embeddings`,
 * the wire format vLLM, TEI and Ollama speak), for tests of a user's own
 * model: each text's vector is a function of its bytes alone (the first
 * `dims` bytes of its SHA-256, as (b - 127.5) / 128, exact in float32), so a
 * test helper recomputes every similarity without the kit's code. `mode`
 * answers instead with a rate limit until a time, or a quota error.
 */
import { createHash } from "node:crypto";

/** What the server answers. */
export type ServerMode =
  | { kind: "ok" }
  | { kind: "rate_limited_until"; at: number }
  | { kind: "quota" };

/** The served vector of one text. */
export function servedVector(text: string, dims: number): number[] {
  const h = createHash("sha256").update(text, "utf8").digest();
  return Array.from({ length: dims }, (_, i) => (h[i] - 127.5) / 128);
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** Start the server; `url` is its base URL (ends in /v1). */
export function openaiServer(dims: number, mode: ServerMode = { kind: "ok" }) {
  let requests = 0;
  let limited = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const body = await req.json().catch(() => null) as
        | { input?: unknown; encoding_format?: string }
        | null;
      requests++;
      if (new URL(req.url).pathname !== "/v1/embeddings" || req.method !== "POST") {
        return json({ error: { message: "not found" } }, 404);
      }
      if (mode.kind === "quota") {
        return json({
          error: {
            message: "You exceeded your current quota, please check your plan and billing details.",
            type: "insufficient_quota",
            code: "insufficient_quota",
          },
        }, 429);
      }
      if (mode.kind === "rate_limited_until" && Date.now() < mode.at) {
        limited++;
        // As a trial key's limit comes: a 429 with no Retry-After.
        return json(
          { error: { message: "Rate limit reached for requests", type: "requests" } },
          429,
        );
      }
      const input = body?.input;
      if (!Array.isArray(input) || input.some((t) => typeof t !== "string")) {
        return json({ error: { message: "input must be a list of strings" } }, 400);
      }
      const data = (input as string[]).map((text, index) => {
        const v = servedVector(text, dims);
        const embedding = body?.encoding_format === "base64"
          ? btoa(String.fromCharCode(...new Uint8Array(Float32Array.from(v).buffer)))
          : v;
        return { object: "embedding", index, embedding };
      });
      const tokens = (input as string[]).reduce((n, t) => n + Math.ceil(t.length / 4), 0);
      return json({
        object: "list",
        data,
        model: "loopback",
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests: () => requests,
    limited: () => limited,
    close: () => server.shutdown(),
  };
}

/** An invocation table (data/invocations.json's schema) declaring `name` on `url`. */
export function userInvocations(name: string, url: string, dims: number, extra = {}): unknown {
  return {
    about: "A user's own model, served on loopback by the test.",
    invocations: [{
      name,
      provider: "openai",
      model: "loopback-model",
      similarity: "cosine",
      dims,
      normalize: true,
      query: {},
      document: {},
      key_env: "LOOPBACK_KEY",
      key_required: false,
      base_url: url,
      batch_size: 64,
      doc: "https://example.invalid/loopback",
      ...extra,
    }],
  };
}
