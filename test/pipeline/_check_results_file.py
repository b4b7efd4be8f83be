"""Recompute a results file of a user's own model from the served vectors,
outside the kit's code, and check it against the release's documented
per-model schema (results/README.md).

The served vector of a text is the first DIMS bytes b of its SHA-256 as
(b - 127.5) / 128 (test/pipeline/_openai_server.ts). The model is cosine:
every query against every pool snippet, ranked by similarity; exec@k is 1
when one of the top k is a correct id (the query's own canonical is the only
snippet the file can mark passing), precision@k the share of correct ids in
the top k, nDCG@k binary over the correct ids, the gap exec - nDCG; means
over the queries, rounded as Python rounds, to 4 decimals.

Usage: python3 _check_results_file.py RESULTS.json POOL.json DIMS
POOL.json: {"queries": [{query_id, query, correct_corpus_ids}],
            "corpus": [{corpus_id, code, label, bug_type}], "ks": [...]}
Prints a JSON summary; exits 1 with the first disagreement.
"""
import hashlib
import json
import math
import struct
import sys

OUTCOME_PREFIXES = ("pass", "FAIL", "TIMEOUT", "ERROR:", "NOT_RUN")


def fail(message):
    print(message)
    sys.exit(1)


def vector(text, dims):
    h = hashlib.sha256(text.encode("utf-8")).digest()
    v = [(h[i] - 127.5) / 128 for i in range(dims)]
    # As float32 (what the kit stores), then unit length.
    v = [struct.unpack("f", struct.pack("f", x))[0] for x in v]
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def main():
    results_path, pool_path, dims = sys.argv[1], sys.argv[2], int(sys.argv[3])
    results = json.load(open(results_path))
    pool = json.load(open(pool_path))
    queries, corpus, ks = pool["queries"], pool["corpus"], pool["ks"]

    # Schema (results/README.md): field names, types and order.
    if list(results.keys()) != ["model", "n_queries", "n_corpus", "ks", "metrics", "per_query"]:
        fail(f"top-level keys {list(results.keys())}")
    if results["n_queries"] != len(queries) or results["n_corpus"] != len(corpus):
        fail(f"counts {results['n_queries']}/{results['n_corpus']}, pool {len(queries)}/{len(corpus)}")
    if results["ks"] != ks:
        fail(f"ks {results['ks']}")
    names = [f"{m}@{k}" for k in ks for m in ("exec", "precision", "ndcg", "exec_ndcg_gap")]
    if sorted(results["metrics"].keys()) != sorted(names):
        fail(f"metric keys {sorted(results['metrics'].keys())}")
    for name, value in results["metrics"].items():
        if not isinstance(value, float):
            fail(f"metric {name} is {type(value).__name__}, not a float")

    docs = {c["corpus_id"]: c for c in corpus}
    doc_ids = [c["corpus_id"] for c in corpus]
    doc_vecs = [vector(c["code"], dims) for c in corpus]
    per_query = {q["query_id"]: q for q in results["per_query"]}
    if len(per_query) != len(queries):
        fail(f"{len(per_query)} per_query entries for {len(queries)} queries")
    sums = {name: 0.0 for name in names}
    checked = 0
    for q in queries:
        entry = per_query.get(q["query_id"])
        if entry is None:
            fail(f"{q['query_id']}: no per_query entry")
        if list(entry.keys()) != ["query_id", "query", "correct_corpus_ids", "top_results"]:
            fail(f"{q['query_id']}: keys {list(entry.keys())}")
        if entry["query"] != q["query"] or entry["correct_corpus_ids"] != q["correct_corpus_ids"]:
            fail(f"{q['query_id']}: query text or correct ids differ")
        qv = vector(q["query"], dims)
        scores = [sum(a * b for a, b in zip(qv, dv)) for dv in doc_vecs]
        order = sorted(range(len(doc_ids)), key=lambda i: -scores[i])
        top = order[:10]
        # A tie at the edge of the top 10 would make the order a tie-break's: not expected here.
        if len(order) > 10 and abs(scores[order[9]] - scores[order[10]]) < 1e-6:
            fail(f"{q['query_id']}: a tie at rank 10")
        got = entry["top_results"]
        if len(got) != min(10, len(doc_ids)):
            fail(f"{q['query_id']}: {len(got)} top results")
        for rank, (i, r) in enumerate(zip(top, got), start=1):
            keys = ["rank", "corpus_id", "label", "bug_type", "similarity",
                    "passes_all_tests", "test_results"]
            if list(r.keys()) != keys:
                fail(f"{q['query_id']} rank {rank}: keys {list(r.keys())}")
            if r["rank"] != rank or r["corpus_id"] != doc_ids[i]:
                fail(f"{q['query_id']} rank {rank}: {r['corpus_id']}, expected {doc_ids[i]}")
            d = docs[doc_ids[i]]
            if r["label"] != d["label"] or r["bug_type"] != (d["bug_type"] or ""):
                fail(f"{q['query_id']} rank {rank}: label or bug_type differs")
            if not isinstance(r["similarity"], float) or abs(r["similarity"] - scores[i]) > 2e-6:
                fail(f"{q['query_id']} rank {rank}: similarity {r['similarity']}, computed {scores[i]}")
            if r["similarity"] != round(r["similarity"], 6):
                fail(f"{q['query_id']} rank {rank}: similarity not at 6 decimals")
            outcomes = r["test_results"]
            if not all(isinstance(o, str) and o.startswith(OUTCOME_PREFIXES) for o in outcomes):
                fail(f"{q['query_id']} rank {rank}: outcomes {outcomes}")
            if r["passes_all_tests"] != (len(outcomes) > 0 and all(o == "pass" for o in outcomes)):
                fail(f"{q['query_id']} rank {rank}: passes_all_tests disagrees with its outcomes")
            if r["passes_all_tests"] != (doc_ids[i] in q["correct_corpus_ids"]):
                fail(f"{q['query_id']} rank {rank}: passes_all_tests {r['passes_all_tests']}")
            checked += 1
        correct = set(q["correct_corpus_ids"])
        rel = [1 if doc_ids[i] in correct else 0 for i in order]
        for k in ks:
            exec_k = 1.0 if any(rel[:k]) else 0.0
            dcg = sum(rel[j] / math.log2(j + 2) for j in range(k))
            idcg = sum(1 / math.log2(j + 2) for j in range(min(len(correct), k)))
            ndcg = dcg / idcg if idcg > 0 else 0.0
            sums[f"exec@{k}"] += exec_k
            sums[f"precision@{k}"] += sum(rel[:k]) / k
            sums[f"ndcg@{k}"] += ndcg
            sums[f"exec_ndcg_gap@{k}"] += exec_k - ndcg
    for name in names:
        mean = round(sums[name] / len(queries), 4)
        if results["metrics"][name] != mean:
            fail(f"{name}: file {results['metrics'][name]}, recomputed {mean}")
    print(json.dumps({"metrics": len(names), "top_results": checked, "queries": len(queries)}))


main()
