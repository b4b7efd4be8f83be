"""The retrieval systems: seeded dense vectors per system, their similarities, BM25, the top 10."""

import math
import re

import numpy as np

from .config import BM25_B, BM25_K1, SEED, TOP
from .exact import dot_f32, row_norms, row_norms_f32


PROVIDERS = ["orbit", "lumen", "quanta", "vertex-lab", "cirrus", "acme", "nimbus"]


def dense_systems(n_systems, dims):
    """Made-up dense systems. The first three are the fixture's; the npz layout
    cycles over three variants; only system 3 is a raw dot-product model."""
    systems = []
    for i in range(n_systems):
        if i == 0:
            model, provider = "acme/embed-small", "acme"
        elif i == 1:
            model, provider = "nimbus/code-v2", "nimbus"
        elif i == 2:
            model, provider = "sentence-transformers/dotty-base-dot-v1", "sentence-transformers"
        else:
            provider = PROVIDERS[i % len(PROVIDERS)]
            model = "%s/embed-v%d" % (provider, i)
        systems.append({"index": i, "model": model, "provider": provider,
                        "dims": dims[i % len(dims)], "variant": i % 3,
                        "similarity": "dot" if i == 2 else "cosine",
                        "quality": [0.10, 0.04, 0.0, 0.07, 0.13, 0.02][i % 6]})
    return systems


def _unit_rows(x):
    """Rows divided by their norms, in x's own dtype (float32 or float64); the
    norms from exact.py, so they do not hang on numpy's reduction order."""
    if x.dtype == np.float32:
        return x / row_norms_f32(x)[:, None]
    return x / row_norms(x)[:, None]


def make_vectors(system, queries, corpus):
    """Seeded vectors: each task has a centre; its query and its snippets sit
    near it, and each snippet leans towards the query's own noise direction by
    a random amount, the canonical by `quality` more -- so distractors often
    outrank the canonical (exec@10 high, exec@1 low)."""
    rng = np.random.default_rng([SEED, 2, system["index"]])
    d = system["dims"]
    n_q = len(queries)
    centres = _unit_rows(rng.standard_normal((n_q, d)))
    q_noise = _unit_rows(rng.standard_normal((n_q, d)))
    q_vecs = centres + 0.8 * q_noise
    task_of = {}
    for qi, q in enumerate(queries):
        for cid in q["correct_corpus_ids"] + q["paired_distractor_corpus_ids"]:
            task_of[cid] = qi
    c_noise = _unit_rows(rng.standard_normal((len(corpus), d)))
    lean = rng.uniform(0.0, 0.6, size=len(corpus))
    c_vecs = np.empty((len(corpus), d))
    for j, row in enumerate(corpus):
        qi = task_of[row["corpus_id"]]
        rho = min(0.95, lean[j] + (system["quality"] if row["label"] == "correct" else 0.0))
        direction = rho * q_noise[qi] + math.sqrt(1 - rho * rho) * c_noise[j]
        c_vecs[j] = centres[qi] + 0.8 * direction
    if system["similarity"] == "dot":  # a dot model's vectors carry norms that matter
        # math.exp, not np.exp: numpy's vectorised exp is other code on AVX-512 CPUs.
        q_vecs *= _exp(rng.normal(0.0, 0.25, size=(n_q, 1)))
        c_vecs *= _exp(rng.normal(0.0, 0.25, size=(len(corpus), 1)))
    return q_vecs.astype(np.float32), c_vecs.astype(np.float32)


def _exp(x):
    return np.vectorize(math.exp, otypes=[np.float64])(x)


def dense_similarity(q, c, similarity):
    """Similarity in float32 from the matrices as saved: the exact dot product
    of the float32 rows (of the float32 unit rows for cosine), rounded once
    (exact.dot_f32), so no BLAS's summation order shows in the bundle."""
    if similarity == "dot":
        return dot_f32(q, c)
    return dot_f32(_unit_rows(q), _unit_rows(c))


def tokens(text):
    """Lowercase word tokens: runs of letters/digits (identifiers split at '_')."""
    return re.findall(r"[a-z0-9]+", text.lower())


def bm25_scores(queries, corpus):
    """Okapi BM25, k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5)/(df + 0.5));
    every occurrence of a query token adds its term score."""
    docs = [tokens(r["code"]) for r in corpus]
    vocab = {}
    for doc in docs:
        for tok in doc:
            vocab.setdefault(tok, len(vocab))
    tf = np.zeros((len(docs), len(vocab)))
    for j, doc in enumerate(docs):
        for tok in doc:
            tf[j, vocab[tok]] += 1
    lengths = tf.sum(axis=1)
    df = (tf > 0).sum(axis=0)
    n = len(docs)
    # math.log, not np.log: numpy's vectorised log is other code on AVX-512 CPUs.
    idf = np.array([math.log(x) for x in (1.0 + (n - df + 0.5) / (df + 0.5)).tolist()])
    # Token counts are integers: their sum is exact, the mean rounded once.
    norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / lengths.mean())
    weights = idf * tf * (BM25_K1 + 1) / (tf + norm[:, None])
    # A document's score: the exactly rounded sum (math.fsum) of one term
    # score per occurrence of a query token, not a matrix product whose
    # rounding hangs on the BLAS (and could part two identical documents).
    scores = np.zeros((len(queries), len(docs)))
    for qi, q in enumerate(queries):
        columns = [vocab[tok] for tok in tokens(q["query"]) if tok in vocab]
        scores[qi] = [math.fsum(row) for row in weights[:, columns].tolist()]
    return scores


def top_indices(scores):
    """Top 10 per row, by score descending, ties by corpus order."""
    return np.argsort(-scores, axis=1, kind="stable")[:, :TOP]
