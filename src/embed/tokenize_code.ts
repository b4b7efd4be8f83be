/**
 * Code-aware tokens for the lexical retrievers: identifiers are split on
 * snake_case and camelCase (and kept whole too, so an exact name still
 * matches best), numbers are tokens, and operators are tokens — a buggy copy
 * that turns `<` into `<=` differs from the canonical by exactly one token.
 * Everything is lowercased. Whitespace and comment markers carry no signal.
 */

// Longest operators first so `**=` is not read as `*`, `*`, `=`.
const OPERATORS = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "...",
  "->",
  ":=",
  "==",
  "!=",
  "<=",
  ">=",
  "**",
  "//",
  "<<",
  ">>",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "@=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "=",
  "&",
  "|",
  "^",
  "~",
  "@",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ":",
  ",",
  ".",
  ";",
];

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const TOKEN = new RegExp(
  [
    String.raw`[A-Za-z_\p{L}][A-Za-z0-9_\p{L}\p{N}]*`, // identifier
    String.raw`\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`, // number
    ...OPERATORS.map(escape),
  ].join("|"),
  "gu",
);

/** Parts of an identifier split on `_` and case changes, lowercased (`getHTTPCode` → get, http, code). */
export function splitIdentifier(word: string): string[] {
  return word
    .split("_")
    .flatMap((part) => part.match(/\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu) ?? [])
    .map((p) => p.toLowerCase());
}

/**
 * Tokens of a text (code or prose). An identifier yields its parts and, when
 * it has more than one part, itself lowercased.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   tokenizeCode("def is_even(n): return n % 2 == 0"),
 *   ["def", "is", "even", "is_even", "(", "n", ")", ":", "return", "n", "%", "2", "==", "0"],
 * );
 * ```
 */
export function tokenizeCode(text: string): string[] {
  const out: string[] = [];
  for (const [tok] of text.matchAll(TOKEN)) {
    if (/^[A-Za-z_\p{L}]/u.test(tok)) {
      const parts = splitIdentifier(tok);
      out.push(...parts);
      const whole = tok.toLowerCase();
      if (parts.length !== 1 || parts[0] !== whole) {
        if (whole.replace(/_/g, "") !== "") out.push(whole);
      }
    } else {
      out.push(tok);
    }
  }
  return out;
}
