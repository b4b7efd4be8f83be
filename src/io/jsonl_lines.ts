/** One non-blank line of a JSONL file: its parsed value, or why it could not be parsed. */
export type JsonlLine =
  | { line: number; value: unknown; error?: undefined }
  | { line: number; value?: undefined; error: string };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Split JSONL bytes into parsed lines. Handles what real files do: LF or CRLF
 * line endings, no final newline, a UTF-8 byte-order mark, blank lines
 * (skipped). A line that is not valid UTF-8 or not valid JSON is returned
 * with an `error` ("invalid UTF-8", "malformed JSON: ...") instead of a value,
 * so the caller can turn it into a reject with its line number.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   jsonlLines(new TextEncoder().encode('{"a":1}\r\n\r\n[2]')),
 *   [{ line: 1, value: { a: 1 } }, { line: 3, value: [2] }],
 * );
 * ```
 */
export function jsonlLines(bytes: Uint8Array): JsonlLine[] {
  const out: JsonlLine[] = [];
  let start = 0;
  let line = 0;
  // A BOM only at the very start of the file.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  while (start <= bytes.length) {
    line++;
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    let stop = end;
    if (stop > start && bytes[stop - 1] === 0x0d) stop--;
    const parsed = parseLine(bytes.subarray(start, stop), line);
    if (parsed) out.push(parsed);
    start = end + 1;
  }
  return out;
}

function parseLine(raw: Uint8Array, line: number): JsonlLine | null {
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    return { line, error: "invalid UTF-8" };
  }
  if (text.trim() === "") return null;
  try {
    return { line, value: JSON.parse(text) };
  } catch (e) {
    return { line, error: `malformed JSON: ${describeJsonError((e as Error).message, text)}` };
  }
}

/**
 * A short, engine-independent description of a JSON syntax error: the
 * 1-based column where parsing stopped when the engine says so, else the
 * line's length (the error was at its end).
 */
function describeJsonError(message: string, text: string): string {
  const at = /position (\d+)/.exec(message);
  if (at) return `unexpected input at column ${Number(at[1]) + 1}`;
  if (/end of (JSON )?input|Unterminated/i.test(message)) {
    return `unexpected end of line at column ${text.length + 1}`;
  }
  return "unexpected input";
}
