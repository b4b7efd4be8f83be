import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { splitIdentifier, tokenizeCode } from "./tokenize_code.ts";

Deno.test("splitIdentifier splits snake_case and camelCase, keeping acronyms together", () => {
  assertEquals(splitIdentifier("is_even"), ["is", "even"]);
  assertEquals(splitIdentifier("getHTTPCode"), ["get", "http", "code"]);
  assertEquals(splitIdentifier("max_len2"), ["max", "len", "2"]);
  assertEquals(splitIdentifier("__init__"), ["init"]);
});

Deno.test("tokenizeCode keeps operators as tokens and whole identifiers beside their parts", () => {
  assertEquals(
    tokenizeCode("def is_even(n): return n % 2 == 0"),
    ["def", "is", "even", "is_even", "(", "n", ")", ":", "return", "n", "%", "2", "==", "0"],
  );
  // A single-edit bug changes exactly the operator token.
  assertEquals(tokenizeCode("i <= n"), ["i", "<=", "n"]);
  assertEquals(tokenizeCode("x **= 2 // y"), ["x", "**=", "2", "//", "y"]);
  assertEquals(tokenizeCode("camelCase"), ["camel", "case", "camelcase"]);
});
