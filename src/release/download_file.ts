import { createHash, type Hash } from "node:crypto";
import { UserError } from "../io/user_error.ts";

/** How downloads behave on a flaky network. */
export interface RetryOptions {
  /** Extra attempts after a transient failure (5xx, 429, reset, stall); default 4. */
  retries?: number;
  /** First backoff delay in ms, doubled each retry; default 1000. */
  retryDelayMs?: number;
  /** Give up on a response that sends nothing for this long (ms); default 60000. */
  stallMs?: number;
}

/** What {@link downloadVerified} reports while it streams. */
export interface DownloadEvents {
  /** A response started: bytes already in the `.part`, and the full size if known. */
  start?(offset: number, total: number | undefined): void;
  /** `n` more bytes written. */
  bytes?(n: number): void;
}

/** A failure worth another attempt; `retryAfterMs` when the server said when. */
class TransientError extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

/**
 * GET `url` into memory with retries (for the small `SHA256SUMS` list).
 * Throws a one-line {@link UserError} naming `label` on a non-transient HTTP
 * status or when the retries run out.
 */
export async function fetchBytes(
  label: string,
  url: string,
  headers: Record<string, string>,
  options: RetryOptions = {},
): Promise<Uint8Array> {
  return await withRetries(label, options, async () => {
    const stall = stallTimer(options.stallMs ?? 60_000);
    let res: Response | undefined;
    try {
      res = await send(url, { ...headers, "accept-encoding": "identity" }, options, stall.signal);
      if (!res.ok) await failStatus(label, url, res);
      return new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      if (e instanceof UserError || e instanceof TransientError) throw e;
      throw new TransientError(`connection failed while reading (${message(e)})`);
    } finally {
      stall.clear();
      res?.body?.cancel().catch(() => {});
    }
  });
}

/**
 * Download `url` to `dest` so that `dest` only ever holds the whole file
 * with SHA-256 `sha256`: bytes stream into `<dest>.part` (resumed with an
 * HTTP Range request when one is already there; a server that ignores the
 * range answers 200 and the file restarts from 0), the digest of the whole
 * file is checked, and only then is the `.part` renamed into place.
 *
 * Transient failures (5xx, 429, connection reset, a body cut short, a stall)
 * are retried with exponential backoff, resuming where the `.part` ended.
 * When retries run out the error names `label` and the `.part` is kept so a
 * later run resumes. A digest mismatch deletes the `.part` (after one fresh
 * retry when the download had resumed an old `.part`, which may be stale)
 * and throws naming `label` and both digests. Other HTTP statuses (404,
 * 401…) throw at once naming `label` and the status. Resolves to the size.
 */
export async function downloadVerified(
  label: string,
  url: string,
  dest: string,
  sha256: string,
  headers: Record<string, string>,
  options: RetryOptions = {},
  events: DownloadEvents = {},
): Promise<number> {
  const part = `${dest}.part`;
  // One free restart from byte 0 when an old .part turns out not to fit.
  let freshRestartLeft = true;
  return await withRetries(label, options, async () => {
    for (;;) {
      const offset = await sizeOrZero(part);
      const outcome = await attempt(label, url, part, offset, sha256, headers, options, events);
      if (outcome.kind === "done") {
        await Deno.rename(part, dest);
        return outcome.size;
      }
      await Deno.remove(part).catch(() => {});
      if (outcome.kind === "stale" && freshRestartLeft) {
        freshRestartLeft = false;
        continue;
      }
      if (outcome.kind === "stale" && outcome.actual === undefined) {
        throw new UserError(`${label}: the server keeps answering a range that does not fit`);
      }
      throw new UserError(
        `${label}: SHA-256 mismatch: expected ${sha256}, got ${outcome.actual}; ` +
          `the download was deleted`,
      );
    }
  }, async () => (await sizeOrZero(part)) > 0 ? "; the .part file is kept: rerun to resume" : "");
}

type Outcome =
  | { kind: "done"; size: number }
  /** The digest is wrong after a download that started from 0. */
  | { kind: "mismatch"; actual: string }
  /** A resumed `.part` did not fit (wrong digest, or the range was refused). */
  | { kind: "stale"; actual?: string };

/** One request: resume or restart the `.part`, stream it, check the digest. */
async function attempt(
  label: string,
  url: string,
  part: string,
  offset: number,
  sha256: string,
  headers: Record<string, string>,
  options: RetryOptions,
  events: DownloadEvents,
): Promise<Outcome> {
  const request: Record<string, string> = { ...headers, "accept-encoding": "identity" };
  if (offset > 0) request.range = `bytes=${offset}-`;
  const stall = stallTimer(options.stallMs ?? 60_000);
  let res: Response;
  try {
    res = await send(url, request, options, stall.signal);
  } catch (e) {
    stall.clear();
    throw e;
  }
  let file: Deno.FsFile | undefined;
  try {
    if (res.status === 416 && offset > 0) {
      // Range not satisfiable: the .part may already hold the whole file
      // (killed between the last byte and the rename).
      const actual = await hashFile(part);
      return actual === sha256 ? { kind: "done", size: offset } : { kind: "stale", actual };
    }
    if (!res.ok) await failStatus(label, url, res);
    const hash = createHash("sha256");
    let start = 0;
    if (res.status === 206) {
      const from = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(res.headers.get("content-range") ?? "");
      if (!from || Number(from[1]) !== offset) return { kind: "stale" };
      await hashInto(hash, part);
      start = offset;
      file = await Deno.open(part, { write: true, append: true });
    } else {
      file = await Deno.open(part, { write: true, create: true, truncate: true });
    }
    const length = res.headers.get("content-length");
    const total = length === null ? undefined : start + Number(length);
    events.start?.(start, total);
    let received = start;
    try {
      for await (const chunk of res.body ?? []) {
        stall.touch();
        hash.update(chunk);
        let written = 0;
        while (written < chunk.length) written += await file.write(chunk.subarray(written));
        received += chunk.length;
        events.bytes?.(chunk.length);
      }
    } catch (e) {
      throw new TransientError(
        `download stopped after ${received}${total === undefined ? "" : ` of ${total}`} bytes ` +
          `(${stall.signal.aborted ? "stalled" : `connection closed early: ${message(e)}`})`,
      );
    }
    if (total !== undefined && received < total) {
      throw new TransientError(
        `download stopped after ${received} of ${total} bytes (connection closed early)`,
      );
    }
    await file.sync();
    const actual = hash.digest("hex");
    if (actual === sha256) return { kind: "done", size: received };
    return start > 0 ? { kind: "stale", actual } : { kind: "mismatch", actual };
  } finally {
    stall.clear();
    file?.close();
    res.body?.cancel().catch(() => {});
  }
}

/**
 * Run `once`, retrying {@link TransientError}s with exponential backoff; when
 * they run out, throw a one-line UserError naming `label` (plus `suffix()`).
 */
async function withRetries<T>(
  label: string,
  options: RetryOptions,
  once: () => Promise<T>,
  suffix: () => Promise<string> = () => Promise.resolve(""),
): Promise<T> {
  const retries = options.retries ?? 4;
  let delay = options.retryDelayMs ?? 1000;
  for (let tries = 0;; tries++) {
    try {
      return await once();
    } catch (e) {
      if (!(e instanceof TransientError)) throw e;
      if (tries >= retries) {
        const attempts = tries + 1;
        // No network at all: say how to work offline, as the task sources do.
        const offline = e.message.startsWith("network error")
          ? "; set EXECRET_RELEASE_MIRROR to a folder holding the release to work offline"
          : "";
        throw new UserError(
          `${label}: ${e.message} (${attempts} attempt${
            attempts === 1 ? "" : "s"
          })${await suffix()}${offline}`,
        );
      }
      await new Promise((r) => setTimeout(r, e.retryAfterMs ?? delay));
      delay *= 2;
    }
  }
}

/** fetch, turning network failures into transient errors. */
async function send(
  url: string,
  headers: Record<string, string>,
  options: RetryOptions,
  signal?: AbortSignal,
): Promise<Response> {
  try {
    return await fetch(url, { headers, signal, redirect: "follow" });
  } catch (e) {
    const why = signal?.aborted
      ? `no response for ${(options.stallMs ?? 60_000) / 1000} s`
      : `network error: ${message(e)}`;
    throw new TransientError(why);
  }
}

/** Throw for a non-OK response: transient for 5xx/408/429, a UserError otherwise. */
async function failStatus(label: string, url: string, res: Response): Promise<never> {
  await res.body?.cancel().catch(() => {});
  const status = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
  if (res.status >= 500 || res.status === 408 || res.status === 429) {
    const after = Number(res.headers.get("retry-after"));
    const retryAfterMs = Number.isFinite(after) && after > 0 && after <= 60
      ? after * 1000
      : undefined;
    throw new TransientError(`${status} from ${url}`, retryAfterMs);
  }
  const hint = res.status === 401 || res.status === 403
    ? " (set HF_TOKEN if the repository is gated or private)"
    : "";
  throw new UserError(`${label}: ${status} from ${url}${hint}`);
}

/** An abort signal that fires when no data arrived for `ms`; `touch` on each chunk. */
function stallTimer(ms: number) {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), ms);
  return {
    signal: controller.signal,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), ms);
    },
    clear() {
      clearTimeout(timer);
    },
  };
}

/** SHA-256 (hex) of a file, streamed so large files need no memory. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  await hashInto(hash, path);
  return hash.digest("hex");
}

async function hashInto(hash: Hash, path: string): Promise<void> {
  const file = await Deno.open(path, { read: true });
  // The readable closes the file when it ends.
  for await (const chunk of file.readable) hash.update(chunk);
}

async function sizeOrZero(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return 0;
    throw e;
  }
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}
