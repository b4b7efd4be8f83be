/**
 * The digest that names a benchmark's pool: which queries it asks, which
 * snippets it holds (by the SHA-256 of their code) and which of them pass.
 * A contributed run states the digest of the pool it was made on, and is
 * scored only against a pool with the same digest: two runs are comparable
 * only when both ranked the same snippets for the same queries.
 *
 * @module
 */
import { canonicalDigest, sha256Hex } from "../io/hash.ts";
import type { BenchmarkQuery, PoolDoc } from "../score/benchmark.ts";

/**
 * `sha256:<hex>` of the pool: each query (sorted by id) with its correct and
 * distractor ids, each snippet (sorted by id) with its label and the SHA-256
 * of its code. The order rows come in does not matter.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { poolDigest } from "./pool_digest.ts";
 * const q = { query_id: "q", task_id: "t", source: "s", domain: "d", query: "?", correct_ids: ["a"], distractor_ids: ["b"] };
 * const a = { corpus_id: "a", task_id: "t", label: "correct", bug_type: null, code: "x" };
 * const b = { corpus_id: "b", task_id: "t", label: "incorrect", bug_type: "off_by_one", code: "y" };
 * strictEqual(poolDigest([q], [a, b]), poolDigest([q], [b, a]));
 * strictEqual(poolDigest([q], [a, b]).startsWith("sha256:"), true);
 * ```
 */
export function poolDigest(
  queries: readonly Pick<BenchmarkQuery, "query_id" | "correct_ids" | "distractor_ids">[],
  corpus: readonly Pick<PoolDoc, "corpus_id" | "label" | "code">[],
): string {
  const byId = <T>(key: (t: T) => string) => (a: T, b: T) => key(a) < key(b) ? -1 : 1;
  return "sha256:" + canonicalDigest({
    queries: [...queries].sort(byId((q) => q.query_id)).map((q) => [
      q.query_id,
      [...q.correct_ids].sort(),
      [...(q.distractor_ids ?? [])].sort(),
    ]),
    corpus: [...corpus].sort(byId((d) => d.corpus_id)).map((d) => [
      d.corpus_id,
      d.label,
      sha256Hex(d.code),
    ]),
  });
}
