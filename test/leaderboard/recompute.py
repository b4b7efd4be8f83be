"""A second implementation of the leaderboard's numbers, written apart from
the kit's TypeScript from the definitions in CONTRIBUTING and the metric
files' documentation, for the test that compares the two
(test/leaderboard/recompute_test.ts). Python's standard library only.

Input (argv[1], JSON): {"qrels": path, "runs": {config: path}, "kit": path of
a JSON object {config: {query_id: [exec@1, exec@10]}} for the configs that
are not entries, "ks": [...], "B": resamples, "seed": seed}.
Output (stdout, JSON): per config the means of exec@k, precision@k, nDCG@k,
the tie-aware exec@1, the 95% bootstrap intervals of exec@1 and exec@10, the
rank by exec@1 with its interval, the conservative rank, and the exact
McNemar p of every pair at exec@1 with Holm's adjustment (p computed with
integers: math.comb).
"""
import gzip
import json
import math
import sys
from fractions import Fraction

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
TIE_SEED = 20260510


def fnv1a32(text, seed=TIE_SEED):
    h = (0x811C9DC5 ^ seed) & M32
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x01000193) & M32
    return h


def fmix32(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & M32
    h ^= h >> 16
    return h


def tie_key(query_id, corpus_id):
    return fmix32(fnv1a32(query_id) ^ ((fnv1a32(corpus_id) * 0x9E3779B1) & M32))


def splitmix64(seed, count):
    x = seed & M64
    out = []
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & M64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        out.append(z ^ (z >> 31))
    return out


def xoshiro128ss(seed):
    a, b = splitmix64(seed, 2)
    s = [a & M32, a >> 32, b & M32, b >> 32]
    if not any(s):
        s[0] = 1

    def rotl(x, k):
        return ((x << k) | (x >> (32 - k))) & M32

    def step():
        result = (rotl((s[1] * 5) & M32, 7) * 9) & M32
        t = (s[1] << 9) & M32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
        return result

    return step


def quantile7(sorted_values, p):
    idx = (len(sorted_values) - 1) * p
    lo = math.floor(idx)
    hi = math.ceil(idx)
    return sorted_values[lo] + (idx - lo) * (sorted_values[hi] - sorted_values[lo])


def read_run(path):
    opener = gzip.open if path.endswith(".gz") else open
    lists = {}
    with opener(path, "rt") as fh:
        for line in fh:
            q, _q0, doc, _rank, score, _tag = line.split()
            lists.setdefault(q, []).append((doc, float(score)))
    return lists


def metrics_of(lists, qrels, ks):
    """Per query: exec@k, precision@k, ndcg@k for each k, and the tie-aware exec@1."""
    per_query = {}
    for q, docs in lists.items():
        correct = qrels[q]
        ranked = sorted(docs, key=lambda d: (-d[1], tie_key(q, d[0]), d[0]))
        rel = [d[0] in correct for d in ranked]
        row = {}
        for k in ks:
            row[f"exec@{k}"] = 1.0 if any(rel[:k]) else 0.0
            row[f"precision@{k}"] = sum(rel[:k]) / k
            ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(correct))))
            dcg = sum(1 / math.log2(i + 2) for i, r in enumerate(rel[:k]) if r)
            row[f"ndcg@{k}"] = dcg / ideal if ideal else 0.0
        top = ranked[0][1]
        tied = [d for d in ranked if d[1] == top]
        row["expected_exec@1"] = sum(1 for d in tied if d[0] in correct) / len(tied)
        per_query[q] = row
    return per_query


def mcnemar_exact(b, c):
    n = b + c
    if n == 0 or b == c:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return float(min(Fraction(1), 2 * Fraction(tail, 2**n)))


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: (ps[i], i))
    out = [None] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def main():
    spec = json.loads(sys.argv[1])
    ks = spec["ks"]
    qrels = {}
    with open(spec["qrels"]) as fh:
        for line in fh:
            q, _zero, doc, rel = line.split()
            qrels.setdefault(q, set())
            if rel == "1":
                qrels[q].add(doc)
    queries = sorted(qrels)
    with open(spec["kit"]) as fh:
        kit = json.load(fh)
    exec_values = {c: [v[q] for q in queries] for c, v in kit.items()}
    out = {"configs": {}, "pairs": []}
    for config, path in spec["runs"].items():
        pq = metrics_of(read_run(path), qrels, ks)
        names = list(pq[queries[0]].keys())
        means = {n: sum(pq[q][n] for q in queries) / len(queries) for n in names}
        out["configs"][config] = {"means": means}
        exec_values[config] = [[pq[q]["exec@1"], pq[q]["exec@10"]] for q in queries]
    n = len(queries)
    B = spec["B"]
    step = xoshiro128ss(spec["seed"])
    counts = []
    for _ in range(B):
        row = [0] * n
        for _ in range(n):
            row[(step() * n) >> 32] += 1
        counts.append(row)
    configs = sorted(exec_values)
    samples = {}
    for c in configs:
        v1 = [v[0] for v in exec_values[c]]
        v10 = [v[1] for v in exec_values[c]]
        s1 = [sum(w * x for w, x in zip(row, v1)) / n for row in counts]
        s10 = [sum(w * x for w, x in zip(row, v10)) / n for row in counts]
        samples[c] = s1
        entry = out["configs"].setdefault(c, {})
        entry["exec1"] = sum(v1) / n
        entry["exec10"] = sum(v10) / n
        for key, s in (("exec1_ci", s1), ("exec10_ci", s10)):
            ss = sorted(s)
            entry[key] = [quantile7(ss, 0.025), quantile7(ss, 0.975)]
    for c in configs:
        point = out["configs"][c]["exec1"]
        ranks = sorted(
            1 + sum(1 for d in configs if samples[d][b] > samples[c][b]) for b in range(B)
        )
        entry = out["configs"][c]
        entry["rank"] = 1 + sum(1 for d in configs if out["configs"][d]["exec1"] > point)
        entry["rank_ci"] = [math.floor(quantile7(ranks, 0.025)), math.ceil(quantile7(ranks, 0.975))]
        high = entry["exec1_ci"][1]
        entry["conservative_rank"] = 1 + sum(
            1 for d in configs if out["configs"][d]["exec1_ci"][0] > high
        )
    pairs = [(a, b) for i, a in enumerate(configs) for b in configs[i + 1:]]
    ps = []
    for a, b in pairs:
        va = [v[0] for v in exec_values[a]]
        vb = [v[0] for v in exec_values[b]]
        a_only = sum(1 for x, y in zip(va, vb) if x == 1 and y != 1)
        b_only = sum(1 for x, y in zip(va, vb) if y == 1 and x != 1)
        ps.append(mcnemar_exact(a_only, b_only))
    for (a, b), p, ph in zip(pairs, ps, holm(ps)):
        out["pairs"].append({"a": a, "b": b, "p": p, "p_holm": ph})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
