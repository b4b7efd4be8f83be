import { UserError } from "../io/user_error.ts";

/** One file a `SHA256SUMS` list names: its relative path and expected digest. */
export interface Sha256Entry {
  /** Relative path inside the bundle, `/`-separated. */
  path: string;
  /** Lowercase hex SHA-256. */
  sha256: string;
  /** 1-based line in the list, for error messages. */
  line: number;
}

/** Names the kit keeps beside a downloaded bundle; a bundle file may not take them. */
const RESERVED = new Set([".complete", ".lock"]);

/**
 * Parse a `sha256sum`-format list: `<64 hex>  <path>` (text mode) or
 * `<64 hex> *<path>` (binary mode) per line; blank lines and `#` comments are
 * skipped, as is a line naming the list itself (a list made by
 * `find | xargs sha256sum` may hash itself while it is being written). A line
 * that starts with `\` has its path escaped the way GNU sha256sum escapes
 * names holding `\` or a newline. A malformed line, an unsafe path (absolute,
 * `..`, empty segment) or a path listed twice throws a one-line
 * {@link UserError} naming `label:line`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   parseSha256Sums(`${"ab".repeat(32)}  results/a.json\n`, "SHA256SUMS"),
 *   [{ path: "results/a.json", sha256: "ab".repeat(32), line: 1 }],
 * );
 * ```
 */
export function parseSha256Sums(text: string, label: string): Sha256Entry[] {
  const entries: Sha256Entry[] = [];
  const seen = new Map<string, number>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let raw = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const escaped = raw.startsWith("\\");
    if (escaped) raw = raw.slice(1);
    const m = /^([0-9a-fA-F]{64}) ([ *])(.+)$/.exec(raw);
    if (!m) {
      throw new UserError(
        `${label}:${lineNo}: malformed line (expected "<64 hex digits>  <path>")`,
      );
    }
    const path = escaped ? unescapeName(m[3], label, lineNo) : m[3];
    if (path === "SHA256SUMS") continue;
    checkPath(path, label, lineNo);
    const first = seen.get(path);
    if (first !== undefined) {
      throw new UserError(`${label}:${lineNo}: ${path} listed twice (first at line ${first})`);
    }
    seen.set(path, lineNo);
    entries.push({ path, sha256: m[1].toLowerCase(), line: lineNo });
  }
  if (entries.length === 0) throw new UserError(`${label}: lists no files`);
  return entries;
}

/** Undo GNU sha256sum's escaping of `\\` and `\n` in a name. */
function unescapeName(name: string, label: string, line: number): string {
  return name.replace(/\\(.?)/g, (_, c: string) => {
    if (c === "\\") return "\\";
    if (c === "n") return "\n";
    throw new UserError(`${label}:${line}: bad escape "\\${c}" in file name`);
  });
}

/** A path must stay inside the bundle folder: a list is data from the network. */
function checkPath(path: string, label: string, line: number): void {
  const segments = path.split("/");
  const unsafe = path.startsWith("/") || path.includes("\\") || path.includes("\0") ||
    /^[A-Za-z]:/.test(path) ||
    segments.some((s) => s === "" || s === "." || s === "..");
  if (unsafe) throw new UserError(`${label}:${line}: unsafe path "${path}"`);
  if (RESERVED.has(path) || path.endsWith(".part")) {
    throw new UserError(`${label}:${line}: "${path}" clashes with the kit's download files`);
  }
}
