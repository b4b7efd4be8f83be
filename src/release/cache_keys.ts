import { sha256Hex } from "../io/hash.ts";
import type { Bundle, CacheEntry } from "./bundle_types.ts";

/**
 * How a test list may have been serialised before hashing into
 * `tests_sha256`. The bundle documents the keys as SHA-256 of the code and of
 * the tests but not the exact JSON encoding; a Python pipeline's
 * `json.dumps(tests)` and a JavaScript `JSON.stringify(tests)` differ in
 * spacing (and in escaping non-ASCII), so the importer tries both and keeps
 * whichever the bundle's own keys follow.
 */
export const TESTS_HASH_RULES = {
  /** Python `json.dumps(tests)`: ", " between items, non-ASCII as \uXXXX. */
  python_json_dumps: (tests: readonly string[]) => sha256Hex(pythonJsonDumps(tests)),
  /** JavaScript `JSON.stringify(tests)`: no spaces, UTF-8 kept. */
  json_stringify: (tests: readonly string[]) => sha256Hex(JSON.stringify(tests)),
  /** Python `json.dumps(tests, separators=(",", ":"))`: no spaces, non-ASCII escaped. */
  python_json_compact: (tests: readonly string[]) => sha256Hex(pythonJsonDumps(tests, ",")),
  /** The tests as one program, one per line. */
  newline_joined: (tests: readonly string[]) => sha256Hex(tests.join("\n")),
} as const;

/** Name of a rule of {@link TESTS_HASH_RULES}. */
export type TestsHashRule = keyof typeof TESTS_HASH_RULES;

/** `code_sha256`: SHA-256 of the code as UTF-8 (the release runs no setup). */
export function codeSha256(code: string): string {
  return sha256Hex(code);
}

/**
 * Python's `json.dumps` of a list of strings (default settings, or another
 * item separator as with `separators=(",", ":")`).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(
 *   pythonJsonDumps(["assert f('é') == 1", "x"]),
 *   '["assert f(\'\\u00e9\') == 1", "x"]',
 * );
 * ```
 */
export function pythonJsonDumps(items: readonly string[], separator = ", "): string {
  // JSON.stringify escapes exactly what Python escapes below U+007F except DEL (quote,
  // backslash, control characters, same short forms, lowercase hex); only
  // non-ASCII and DEL differ, which Python writes as \uXXXX UTF-16 code units.
  const one = (s: string) =>
    JSON.stringify(s).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  return `[${items.map(one).join(separator)}]`;
}

/** Which rule the bundle follows, and how many own-task pairs it finds under each. */
export interface DetectedRule {
  rule: TestsHashRule;
  /** Own-task (snippet, query) pairs found in the cache under each rule. */
  hits: Record<TestsHashRule, number>;
  /** Own-task pairs looked up. */
  pairs: number;
}

/**
 * Find the tests-hash rule of a bundle: the one under which most of the
 * own-task pairs (each query's correct and paired distractor ids against its
 * test suite) are in the execution cache. Ties go to Python's rule, the
 * documented one of the fixture.
 */
export function detectTestsRule(bundle: Bundle): DetectedRule {
  const rules = Object.keys(TESTS_HASH_RULES) as TestsHashRule[];
  const hits = Object.fromEntries(rules.map((r) => [r, 0])) as Record<TestsHashRule, number>;
  let pairs = 0;
  for (const q of bundle.queries) {
    const keys = rules.map((r) => TESTS_HASH_RULES[r](q.test_suite));
    for (const id of [...q.correct_corpus_ids, ...q.paired_distractor_corpus_ids]) {
      const code = codeSha256(bundle.corpus.get(id)!.code);
      pairs++;
      rules.forEach((r, i) => {
        if (bundle.cache.has(`${code}/${keys[i]}`)) hits[r]++;
      });
    }
  }
  const rule = rules.reduce((best, r) => hits[r] > hits[best] ? r : best, rules[0]);
  return { rule, hits, pairs };
}

// A release looks up the same few thousand codes and test suites hundreds of
// thousands of times (every model's top results); hash each text once.
const codeKeys = new Map<string, string>();
const testKeys = new Map<string, string>();

/** The cache entry of (code, tests) under a rule, if the bundle has one. */
export function cacheEntryFor(
  bundle: Bundle,
  rule: TestsHashRule,
  code: string,
  tests: readonly string[],
): CacheEntry | undefined {
  let c = codeKeys.get(code);
  if (c === undefined) codeKeys.set(code, c = codeSha256(code));
  const suite = `${rule}\u0000${JSON.stringify(tests)}`;
  let t = testKeys.get(suite);
  if (t === undefined) testKeys.set(suite, t = TESTS_HASH_RULES[rule](tests));
  return bundle.cache.get(`${c}/${t}`);
}

/** A released outcome in the kit's vocabulary: `FAIL:<msg>` is a FAIL. */
export function kitOutcome(released: string): string {
  return released.startsWith("FAIL:") ? "FAIL" : released;
}
