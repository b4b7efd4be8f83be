/**
 * A contributed run in the TREC run format, read and checked line by line:
 * `query_id Q0 doc_id rank score tag`, one ranked document a line, plain or
 * gzip-compressed. The kit scores a run from these lists alone, never from
 * numbers a contributor states elsewhere (as TREC scores its participants'
 * runs centrally).
 *
 * What a query's lines must be: its top ranks `1..k` with no gap or
 * repeat (k at least {@link MIN_DEPTH}, or the pool's size when smaller),
 * scores never increasing down the ranks (ties allowed: the kit breaks
 * them its own way and scores them tie-aware, as its own runs), each
 * document once; after them, optionally, the query's own canonical and
 * distractors at their true ranks below k, so that the metrics that compare
 * a canonical with its own buggy copies can be computed. Every problem is
 * one line naming the file and the line.
 *
 * @module
 */

/** Documents a run must rank per query, at least (fewer only when the pool is smaller). */
export const MIN_DEPTH = 10;

/** Largest run file accepted, compressed or not (MTEB's results repository takes 10 MB files). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Largest run text accepted after decompression (a gzip bomb stops here). */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

/** One ranked document of a run. */
export interface RunLine {
  doc: string;
  rank: number;
  score: number;
  /** 1-based line in the file. */
  line: number;
}

/** A query's lines, in file order. */
export interface RunQuery {
  id: string;
  /** Its first line in the file. */
  line: number;
  lines: RunLine[];
}

/** A parsed run: queries in file order, and the run's tag. */
export interface ParsedRun {
  tag: string;
  queries: Map<string, RunQuery>;
}

/** A run file as read: its path as shown, its bytes' digest and its parsed lists. */
export interface ScoredRunFile {
  path: string;
  sha256: string;
  parsed: ParsedRun;
}

/** A run that cannot be scored: one line, naming the file and the line. */
export class RunFileError extends Error {
  constructor(readonly file: string, readonly line: number | null, readonly reason: string) {
    super(line === null ? `${file}: ${reason}` : `${file}:${line}: ${reason}`);
    this.name = "RunFileError";
  }
}

/**
 * The run's text: gunzipped when it starts with gzip's magic bytes, refused
 * when the file or its text is over the size limits or not whole.
 */
export async function readRunText(file: string, bytes: Uint8Array): Promise<string> {
  if (bytes.length > MAX_FILE_BYTES) {
    throw new RunFileError(
      file,
      null,
      `${bytes.length} bytes, over the limit of ${MAX_FILE_BYTES} (10 MB)`,
    );
  }
  let text = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      text = await gunzipLimited(bytes, MAX_TEXT_BYTES);
    } catch (e) {
      if (e instanceof RunFileError) throw new RunFileError(file, null, e.reason);
      throw new RunFileError(file, null, `not a whole gzip file (${(e as Error).message})`);
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(text);
  } catch {
    throw new RunFileError(file, null, "not UTF-8 text");
  }
}

async function gunzipLimited(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > limit) {
      throw new RunFileError("", null, `decompresses to over ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Parse run text into queries, checking each line's form: six fields,
 * `Q0`, a positive integer rank, a finite score, one tag for the whole run,
 * ids without whitespace. The ranking's shape is {@link checkRunQuery}'s.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseRun } from "./run_file.ts";
 * const run = parseRun("r.trec", "q1 Q0 d1 1 0.9 m\nq1 Q0 d2 2 0.5 m\n");
 * deepStrictEqual([run.tag, run.queries.get("q1")!.lines.map((l) => l.doc)], ["m", ["d1", "d2"]]);
 * ```
 */
export function parseRun(file: string, text: string): ParsedRun {
  const queries = new Map<string, RunQuery>();
  let tag: string | null = null;
  let last: string | null = null;
  const rows = text.split("\n");
  if (rows.at(-1) === "") rows.pop();
  rows.forEach((row, i) => {
    const line = i + 1;
    const fail = (reason: string): never => {
      throw new RunFileError(file, line, reason);
    };
    const fields = row.trim().split(/\s+/);
    if (fields.length !== 6) {
      fail(`expected 6 fields (query_id Q0 doc_id rank score tag), got ${fields.length}`);
    }
    const [query, q0, doc, rankText, scoreText, lineTag] = fields;
    if (q0 !== "Q0") fail(`second field must be Q0, got "${q0}"`);
    if (!/^[1-9][0-9]{0,8}$/.test(rankText)) fail(`rank "${rankText}" is not a positive integer`);
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(scoreText)) {
      fail(`score "${scoreText}" is not a finite number`);
    }
    const score = Number(scoreText);
    if (!Number.isFinite(score)) fail(`score "${scoreText}" is not a finite number`);
    if (tag === null) tag = lineTag;
    else if (lineTag !== tag) fail(`tag "${lineTag}" differs from the run's "${tag}"`);
    let q = queries.get(query);
    if (!q) {
      q = { id: query, line, lines: [] };
      queries.set(query, q);
    } else if (last !== query) {
      fail(`query ${query} continues here after other queries' lines (line ${q.line} began it)`);
    }
    last = query;
    q.lines.push({ doc, rank: Number(rankText), score, line });
  });
  if (tag === null) throw new RunFileError(file, null, "holds no line");
  return { tag, queries };
}

/**
 * Check one query's lines against its pool: every document is in the pool
 * and listed once; ranks 1..k come first, in order, with k at least
 * {@link MIN_DEPTH} (or the pool's size); scores do not increase down the
 * ranks; lines after rank k may only give the query's own snippets
 * (`own`), at ranks below k, increasing. Returns k.
 */
export function checkRunQuery(
  file: string,
  q: RunQuery,
  pool: ReadonlySet<string>,
  own: ReadonlySet<string>,
): number {
  const fail = (line: number, reason: string): never => {
    throw new RunFileError(file, line, reason);
  };
  const seen = new Map<string, number>();
  let k = 0;
  let inTop = true;
  let previous: RunLine | null = null;
  for (const l of q.lines) {
    if (!pool.has(l.doc)) fail(l.line, `doc ${l.doc} is not in the benchmark's pool`);
    const before = seen.get(l.doc);
    if (before !== undefined) {
      fail(l.line, `doc ${l.doc} is listed twice for query ${q.id} (also line ${before})`);
    }
    seen.set(l.doc, l.line);
    if (previous !== null && l.score > previous.score) {
      fail(l.line, `score ${l.score} is above the score of the rank before it (${previous.score})`);
    }
    if (inTop && l.rank === k + 1) {
      k++;
    } else if (k === 0) {
      fail(l.line, `query ${q.id} must start at rank 1, not ${l.rank}`);
    } else if (l.rank <= previous!.rank) {
      fail(l.line, `rank ${l.rank} repeats or goes back (after rank ${previous!.rank})`);
    } else if (!own.has(l.doc)) {
      // A jump ends the ranked list at k: only the query's own snippets follow.
      fail(
        l.line,
        `rank ${l.rank} leaves a gap after rank ${
          previous!.rank
        }; below the ranked list only the query's own snippets may be listed`,
      );
    } else {
      inTop = false;
    }
    previous = l;
  }
  if (k < Math.min(MIN_DEPTH, pool.size)) {
    fail(
      q.line,
      `query ${q.id} ranks ${k} documents; at least ${Math.min(MIN_DEPTH, pool.size)} are needed`,
    );
  }
  return k;
}
