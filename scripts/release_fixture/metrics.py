"""Metrics and statistics as the release computes them: per-query metrics,
bootstrap intervals, McNemar, paired differences.
"""

import math

from scipy import stats
import numpy as np

from .config import BOOTSTRAP_SAMPLES, KS, SEED
from .exact import bootstrap_interval, exact_mean, rounded


def per_query_metrics(top_results, correct_ids):
    correct = set(correct_ids)
    out = {}
    for k in KS:
        head = top_results[:k]
        exec_k = 1.0 if any(r["passes_all_tests"] for r in head) else 0.0
        dcg = sum(1.0 / math.log2(r["rank"] + 1) for r in head if r["corpus_id"] in correct)
        idcg = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(correct), k) + 1))
        ndcg = dcg / idcg if idcg > 0 else 0.0
        out["exec@%d" % k] = exec_k
        out["precision@%d" % k] = sum(1 for r in head if r["corpus_id"] in correct) / k
        out["ndcg@%d" % k] = ndcg
        out["exec_ndcg_gap@%d" % k] = exec_k - ndcg
        out["execution_precision@%d" % k] = sum(1 for r in head if r["passes_all_tests"]) / k
    return out


def aggregate(per_query):
    names = ["%s@%d" % (m, k) for k in KS for m in ("exec", "precision", "ndcg", "exec_ndcg_gap")]
    return {name: rounded(exact_mean(pq[name] for pq in per_query), 4) for name in names}


_RESAMPLE_COUNTS = {}


def resample_counts(n):
    """How often each query is drawn in each of the 5,000 resamples of
    numpy.random.default_rng(20260510).integers(0, n, size=(5000, n)). Every
    pair x metric reseeds the generator, so they all share these draws."""
    if n not in _RESAMPLE_COUNTS:
        idx = np.random.default_rng(SEED).integers(0, n, size=(BOOTSTRAP_SAMPLES, n))
        counts = np.zeros((BOOTSTRAP_SAMPLES, n))
        np.add.at(counts, (np.repeat(np.arange(BOOTSTRAP_SAMPLES), n), idx.ravel()), 1)
        _RESAMPLE_COUNTS[n] = counts
    return _RESAMPLE_COUNTS[n]


def bootstrap_ci(values):
    """Percentile 95% interval (numpy's linear percentile) of the resampled
    mean, each mean and the interval computed exactly (exact.py), as Fractions."""
    return bootstrap_interval(resample_counts(len(values)), [float(v) for v in values])


def significant(p, digits=5):
    return float("%.*g" % (digits, p))


def pairwise_tests(models, per_query):
    out = {}
    for a in models:
        for b in models:
            if not a < b:
                continue
            entry = {}
            for k in KS:
                for metric in ("exec", "execution_precision", "ndcg"):
                    name = "%s@%d" % (metric, k)
                    va = np.array([pq[name] for pq in per_query[a]])
                    vb = np.array([pq[name] for pq in per_query[b]])
                    lo, hi = bootstrap_ci(va - vb)
                    # tests/README.md: execution_precision@k and ndcg@k carry
                    # bootstrap_ci_95 only; exec@k carries every field.
                    row = {"bootstrap_ci_95": [rounded(lo, 4), rounded(hi, 4)]}
                    if metric == "exec":
                        a_rate, b_rate = exact_mean(va), exact_mean(vb)
                        row.update({"a_rate": rounded(a_rate, 6), "b_rate": rounded(b_rate, 6),
                                    "delta": rounded(a_rate - b_rate, 6)})
                        a_only = int(np.sum((va == 1) & (vb == 0)))
                        b_only = int(np.sum((va == 0) & (vb == 1)))
                        p = 1.0 if a_only + b_only == 0 else stats.binomtest(
                            a_only, a_only + b_only, 0.5).pvalue
                        row.update({"a_only": a_only, "b_only": b_only,
                                    "both": int(np.sum((va == 1) & (vb == 1))),
                                    "neither": int(np.sum((va == 0) & (vb == 0))),
                                    "mcnemar_exact_p": significant(float(p))})
                    entry[name] = row
            out["%s vs %s" % (a, b)] = entry
    return out


def interval_metrics():
    return ["%s@%d" % (m, k) for m in ("exec", "precision", "ndcg") for k in KS]


def confidence_intervals(models, per_query):
    out = {}
    for model in models:
        out[model] = {}
        for name in interval_metrics():
            values = [pq[name] for pq in per_query[model]]
            lo, hi = bootstrap_ci(values)
            out[model][name] = {"mean": rounded(exact_mean(values), 4),
                                "ci95_low": rounded(lo, 4), "ci95_high": rounded(hi, 4),
                                "n": len(values),
                                "bootstrap_samples": BOOTSTRAP_SAMPLES, "seed": SEED}
    return out


def paired_differences(pairs, per_query):
    out = {}
    for a, b in pairs:
        entry = {}
        for name in interval_metrics():
            diff = np.array([pq[name] for pq in per_query[a]]) - np.array(
                [pq[name] for pq in per_query[b]])
            lo, hi = bootstrap_ci(diff)
            entry[name] = {"mean_difference": rounded(exact_mean(diff), 5),
                           "ci95_low": rounded(lo, 4), "ci95_high": rounded(hi, 4),
                           "n": len(diff),
                           "bootstrap_samples": BOOTSTRAP_SAMPLES, "seed": SEED}
        out["%s minus %s" % (a, b)] = entry
    return out
