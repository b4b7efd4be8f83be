#!/usr/bin/env python3
"""Write a stand-in for the ExecRetrieval paper's release bundle (issue 14).

The release (dataset repository anonpapersubmission01/execretrieval, revision
ace5c3f) cannot be downloaded from these machines. This script writes a bundle
in its documented layout -- data/, results/, embeddings/, tests/, eval/,
generation/, requirements.txt, pip_freeze.txt, SHA256SUMS, sanity_check.py,
README.md -- where every released number is computed here, with numpy and
scipy, independently of the kit's TypeScript code. Execution outcomes come from
really running the snippets (one CPython process, a fresh namespace per
snippet, a 1 s alarm per test).

Usage (Python 3.11 with numpy and scipy):
  /root/.pyenv/shims/python3 scripts/make_release_fixture.py
      -> test/fixtures/release/paper/ (24 queries, 3 dense systems + BM25)
  /root/.pyenv/shims/python3 scripts/make_release_fixture.py --out /tmp/release_full \\
      --queries 939 --systems 23 --dims 1024,1536,2048,3072,4096
      -> a real-size bundle (939 queries, 4,694 snippets, 23 dense systems + BM25)

Deterministic: fixed seeds, no timestamps (zip entries carry 1980-01-01), so
two runs write byte-identical files. test/fixtures/release/PAPER_FIXTURE.md
says which parts are documented facts of the release and which are our choices.
"""

import argparse
import datetime
import hashlib
import io
import json
import math
import os
import re
import shutil
import signal
import sys
import time
import zipfile
from textwrap import dedent

import numpy as np
from scipy import stats

SEED = 20260510
KS = (1, 3, 5, 10)
TOP = 10
BOOTSTRAP_SAMPLES = 5000
TEST_TIMEOUT_S = 1.0
BM25_K1 = 1.2
BM25_B = 0.75
PAPER_BUG_TYPES = (
    "off_by_one",
    "off_by_one_boundary",
    "swap_arguments",
    "remove_edge_case_check",
    "wrong_comparison",
    "wrong_operator",
)
GENERATED_AT = datetime.datetime(2026, 4, 4, 3, 4, 48, 770383, tzinfo=datetime.timezone.utc)
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO, "test", "fixtures", "release", "paper")

# ---------------------------------------------------------------------------
# tasks (appended below: TASKS)
# ---------------------------------------------------------------------------


def results_file_name(model, ext=".json"):
    """The release names a model's files after its id with "/" -> "__"."""
    return model.replace("/", "__") + ext


# ---------------------------------------------------------------------------
# benchmark: queries + corpus
# ---------------------------------------------------------------------------


def _rename(text, name, replica):
    if replica == 0:
        return text
    return re.sub(r"\b%s\b" % re.escape(name), "%s_%d" % (name, replica), text)


def _apply_edit(code, before, after, where):
    if code.count(before) != 1:
        raise SystemExit("%s: edit %r occurs %d times" % (where, before, code.count(before)))
    at = code.index(before)
    line = code[:at].count("\n") + 1
    return code[:at] + after + code[at + len(before):], line


def build_benchmark(n_queries):
    """Queries, corpus rows and distractor metadata for n_queries tasks.

    Query i is copy i // 24 of template i % 24; copies after the first rename
    the function (name_<copy>) so that every snippet and suite differs.
    """
    queries, corpus, meta = [], [], []
    per_domain = {}
    for qi in range(n_queries):
        t = TASKS[qi % len(TASKS)]
        replica = qi // len(TASKS)
        name = t["name"]
        code = _rename(t["code"], name, replica)
        tests = [_rename(x, name, replica) for x in t["tests"]]
        query = t["query"] if replica == 0 else "%s (variant %d)" % (t["query"], replica)
        allowed = [
            b for b in t["bugs"]
            if not (b[3] == "once" and replica > 0) and not (
                b[3] is not None and b[3].startswith("legacy:")
                and replica >= int(b[3].split(":")[1]))
        ]
        take = t["first"] if replica == 0 else 4
        bugs = allowed[:take]
        if len(bugs) != take:
            raise SystemExit("task %s copy %d: only %d usable bugs" % (name, replica, len(bugs)))
        qid = "q_%04d" % (qi + 1)
        snippets = [(code, "correct", None, None)]
        for bug_type, before, after, _tag in bugs:
            before_r, after_r = _rename(before, name, replica), _rename(after, name, replica)
            mutated, line = _apply_edit(code, before_r, after_r, "%s/%s" % (qid, bug_type))
            snippets.append((mutated, "incorrect", bug_type, (line, before_r, after_r)))
        # Corpus order within a task is shuffled (seeded) so that corpus order,
        # the tie-break, does not favour the canonical.
        order = np.random.default_rng([SEED, 1, qi]).permutation(len(snippets))
        domain = t["domain"]
        per_domain[domain] = per_domain.get(domain, 0) + 1
        entry_id = "exec_%s_%d" % (domain, (per_domain[domain] - 1) // 3 + 1)
        correct, distractors = [], []
        for j in order:
            snippet_code, label, bug_type, edit = snippets[j]
            cid = "c_%04d" % (len(corpus) + 1)
            row = {"corpus_id": cid, "code": snippet_code, "label": label}
            if bug_type is not None:
                row["bug_type"] = bug_type
            row["source_entry_id"] = entry_id
            corpus.append(row)
            if label == "correct":
                correct.append(cid)
            else:
                distractors.append(cid)
                meta.append({"corpus_id": cid, "query_id": qid, "bug_type": bug_type,
                             "line": edit[0], "before": edit[1], "after": edit[2]})
        # data/README.md: two endpoints, the Batch API's and OpenRouter's.
        endpoint = "https://openrouter.ai/api/v1" if qi % 5 == 3 else "openai-batch-api"
        metadata = {"model": "openai/gpt-5.4", "endpoint": endpoint,
                    "generated_at": (GENERATED_AT + datetime.timedelta(
                        seconds=qi * 7, microseconds=qi * 1237)).isoformat(timespec="microseconds")}
        if qi % 11 != 7:  # a few rows of the release carry no batch_usage
            prompt = 380 + (qi * 37) % 211
            completion = 900 + (qi * 53) % 977
            metadata["batch_usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                                       "total_tokens": prompt + completion,
                                       "reasoning_tokens": completion // 3}
        queries.append({"query_id": qid, "query": query, "test_suite": tests,
                        "correct_corpus_ids": correct, "paired_distractor_corpus_ids": distractors,
                        "entry_id": entry_id, "metadata": metadata})
    meta.sort(key=lambda r: r["corpus_id"])
    return queries, corpus, meta


# ---------------------------------------------------------------------------
# execution
# ---------------------------------------------------------------------------


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so `except Exception` in a snippet cannot swallow it."""


_ARMED = [False]


def _on_alarm(_signum, _frame):
    if _ARMED[0]:  # an alarm arriving after the test has ended is ignored
        raise _Timeout()


_COMPILED = {}


def _compiled(src):
    code = _COMPILED.get(src)
    if code is None:
        code = compile(src, "<snippet>", "exec")
        _COMPILED[src] = code
    return code


def _run_timed(src, namespace):
    try:
        try:
            _ARMED[0] = True
            signal.setitimer(signal.ITIMER_REAL, TEST_TIMEOUT_S)
            exec(_compiled(src), namespace)
        finally:
            _ARMED[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        return "pass"
    except _Timeout:
        return "TIMEOUT"
    except AssertionError as err:
        message = str(err)
        return "FAIL: " + message if message else "FAIL"
    except BaseException as err:  # a crash of the snippet is an outcome
        return "ERROR:" + type(err).__name__


def run_suite(code, tests):
    """Exec the snippet in a fresh namespace, then each test in that namespace."""
    namespace = {"__name__": "__snippet__"}
    try:
        _compiled(code)
    except SyntaxError:
        return ["ERROR:SyntaxError"] * len(tests)
    loaded = _run_timed(code, namespace)
    if loaded != "pass":  # the snippet itself did not load: every test gets that outcome
        if loaded.startswith("FAIL"):
            loaded = "ERROR:AssertionError"
        return [loaded] * len(tests)
    return [_run_timed(test, namespace) for test in tests]


def sha256_hex(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tests_sha256(tests):
    return sha256_hex(json.dumps(tests))


class ExecutionCache:
    """(code sha256, tests sha256) -> outcomes; rows kept in execution order."""

    def __init__(self):
        self.rows = {}

    def run(self, code, tests):
        key = (sha256_hex(code), tests_sha256(tests))
        if key not in self.rows:
            started = time.monotonic()
            outcomes = run_suite(code, tests)
            if time.monotonic() - started > 0.5:
                print("slow suite (%.1f s): %s" % (time.monotonic() - started, outcomes),
                      file=sys.stderr)
            self.rows[key] = {"code_sha256": key[0], "tests_sha256": key[1],
                              "test_results": outcomes,
                              "passes_all_tests": all(o == "pass" for o in outcomes)}
        return self.rows[key]

    def get(self, code, tests):
        return self.rows.get((sha256_hex(code), tests_sha256(tests)))


# ---------------------------------------------------------------------------
# systems: vectors, similarity, BM25
# ---------------------------------------------------------------------------

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
    return x / np.linalg.norm(x, axis=1, keepdims=True)


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
        q_vecs *= np.exp(rng.normal(0.0, 0.25, size=(n_q, 1)))
        c_vecs *= np.exp(rng.normal(0.0, 0.25, size=(len(corpus), 1)))
    return q_vecs.astype(np.float32), c_vecs.astype(np.float32)


def dense_similarity(q, c, similarity):
    """Similarity in float32 from the matrices as saved."""
    if similarity == "dot":
        return q @ c.T
    return _unit_rows(q) @ _unit_rows(c).T


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
    idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
    norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / lengths.mean())
    weights = idf * tf * (BM25_K1 + 1) / (tf + norm[:, None])
    counts = np.zeros((len(vocab), len(queries)))
    for qi, q in enumerate(queries):
        for tok in tokens(q["query"]):
            if tok in vocab:
                counts[vocab[tok], qi] += 1
    return (weights @ counts).T


def top_indices(scores):
    """Top 10 per row, by score descending, ties by corpus order."""
    return np.argsort(-scores, axis=1, kind="stable")[:, :TOP]


# ---------------------------------------------------------------------------
# metrics and statistics
# ---------------------------------------------------------------------------


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
    return {name: round(float(np.mean([pq[name] for pq in per_query])), 4) for name in names}


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
    """Percentile 95% interval (numpy linear percentile) of the resampled mean."""
    values = np.asarray(values, dtype=float)
    means = resample_counts(len(values)) @ values / len(values)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


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
                    row = {"bootstrap_ci_95": [round(lo, 4), round(hi, 4)]}
                    if metric == "exec":
                        row.update({"a_rate": round(float(va.mean()), 6),
                                    "b_rate": round(float(vb.mean()), 6),
                                    "delta": round(float(va.mean() - vb.mean()), 6)})
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
            out[model][name] = {"mean": round(float(np.mean(values)), 4), "ci95_low": round(lo, 4),
                                "ci95_high": round(hi, 4), "n": len(values),
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
            entry[name] = {"mean_difference": round(float(diff.mean()), 5), "ci95_low": round(lo, 4),
                           "ci95_high": round(hi, 4), "n": len(diff),
                           "bootstrap_samples": BOOTSTRAP_SAMPLES, "seed": SEED}
        out["%s minus %s" % (a, b)] = entry
    return out


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------


def write_text(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_json(root, rel, value, indent=2, sort_keys=False):
    write_text(root, rel, json.dumps(value, indent=indent, sort_keys=sort_keys) + "\n")


def write_jsonl(root, rel, rows):
    write_text(root, rel, "".join(json.dumps(r) + "\n" for r in rows))


def write_npz(path, arrays, compressed):
    """What np.savez / np.savez_compressed write (a zip of .npy members, zip64
    as numpy forces), but with fixed member timestamps so reruns are
    byte-identical."""
    mode = zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=mode, allowZip64=True) as zf:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = mode
            info.external_attr = 0o600 << 16
            with zf.open(info, "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


def npz_arrays(system, q, c, query_ids, corpus_ids):
    """The three npz variants a reader must cope with."""
    if system["variant"] == 0:
        return {"query_embeddings": q, "corpus_embeddings": c,
                "query_ids": np.array(query_ids), "corpus_ids": np.array(corpus_ids)}, True
    if system["variant"] == 1:
        return {"queries": q, "corpus": c}, False
    return {"q": q, "c": c, "query_ids": np.array(query_ids),
            "corpus_ids": np.array(corpus_ids)}, True


def invocation_row(system):
    i = system["index"]
    kinds = [("query", "document", "", ""),
             ("search_query", "search_document", "", ""),
             (None, None, "query: ", "passage: "),
             ("RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "", ""),
             (None, None, "Represent this query for retrieving relevant code: ", "")]
    q_type, d_type, q_prefix, d_prefix = kinds[i % len(kinds)]
    return {"model": system["model"], "provider": system["provider"],
            "similarity": system["similarity"], "dims": system["dims"],
            "query_input_type": q_type, "document_input_type": d_type,
            "query_prefix": q_prefix, "document_prefix": d_prefix,
            "notes": "fixture stand-in: made-up model, seeded synthetic vectors"}


PLACEHOLDERS = {
    "eval/README.md": "# eval/ (fixture stand-in)\n\nThe release ships its evaluation code here; "
                      "this fixture bundle does not. See README.md.\n",
    "generation/README.md": "# generation/ (fixture stand-in)\n\nThe release ships its dataset "
                            "generation code here; this fixture bundle does not.\n",
    "requirements.txt": "# fixture stand-in for the release's requirements.txt\nnumpy\nscipy\n",
    "pip_freeze.txt": "# fixture stand-in for the release's pip_freeze.txt\nnumpy==2.4.6\n"
                      "scipy==1.17.1\n",
    "sanity_check.py": '"""Fixture stand-in for the release\'s sanity_check.py."""\n\n'
                       'print("fixture stand-in: nothing to check")\n',
}

README = """# ExecRetrieval release bundle: FIXTURE

A generated stand-in for the paper's released bundle (anonpapersubmission01/execretrieval,
revision ace5c3f), in its documented layout, written by scripts/make_release_fixture.py with
--queries {queries} --systems {systems} --dims {dims}. Tasks, models and vectors are made up;
every number is computed by that script. Not the paper's data.
"""


def write_bundle(out_dir, n_queries, n_systems, dims, log):
    queries, corpus, meta = build_benchmark(n_queries)
    code_of = {r["corpus_id"]: r["code"] for r in corpus}
    row_of = {r["corpus_id"]: r for r in corpus}
    position = {r["corpus_id"]: j for j, r in enumerate(corpus)}
    cache = ExecutionCache()
    for q in queries:  # every snippet against its own query's suite
        for cid in sorted(q["correct_corpus_ids"] + q["paired_distractor_corpus_ids"],
                          key=position.get):
            cache.run(code_of[cid], q["test_suite"])
    log("executed %d own-task suites" % len(cache.rows))
    validation_gate(queries, corpus, cache)
    if n_queries >= len(TASKS):
        check_fixture(queries, corpus, cache)

    tmp = out_dir.rstrip("/") + ".tmp-%d" % os.getpid()
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.makedirs(tmp)
    systems = dense_systems(n_systems, dims)
    tops, sims, summary = {}, {}, {}
    query_ids = [q["query_id"] for q in queries]
    corpus_ids = [r["corpus_id"] for r in corpus]
    for system in systems:  # one system in memory at a time
        arrays, compressed = npz_arrays(system, *make_vectors(system, queries, corpus),
                                        query_ids, corpus_ids)
        name = results_file_name(system["model"], ".npz")
        path = os.path.join(tmp, "embeddings", name)
        write_npz(path, arrays, compressed)
        del arrays
        with np.load(path) as saved:  # similarities from the matrices exactly as saved
            matrices = {key: saved[key] for key in saved.files}
        matrices = {key: a for key, a in matrices.items() if a.dtype == np.float32}
        summary[name] = {"model": system["model"], "arrays": {
            key: {"shape": list(a.shape), "dtype": "float32", "finite": int(np.isfinite(a).sum()),
                  "zero_norm_rows": int((np.linalg.norm(a, axis=1) == 0).sum())}
            for key, a in matrices.items()}}
        q_vecs, c_vecs = matrices.values()  # written query matrix first
        scores = dense_similarity(q_vecs, c_vecs, system["similarity"])
        tops[system["model"]] = top_indices(scores)
        sims[system["model"]] = np.take_along_axis(scores, tops[system["model"]], axis=1)
        log("ranked %s" % system["model"])
    scores = bm25_scores(queries, corpus)
    tops["BM25"] = top_indices(scores)
    sims["BM25"] = np.take_along_axis(scores, tops["BM25"], axis=1)
    models = sorted(tops)

    # The cache is the corpus build's: each query's own canonical and
    # distractors against its suite, nothing else. A top-10 entry from another
    # query's pool is therefore not in it, and its results row carries an
    # empty test_results and passes_all_tests false (results/README.md).
    log("execution cache: %d rows" % len(cache.rows))

    write_jsonl(tmp, "data/corpus.jsonl", corpus)
    write_jsonl(tmp, "data/queries.jsonl", queries)
    write_jsonl(tmp, "data/execution_cache.jsonl", list(cache.rows.values()))
    write_jsonl(tmp, "data/distractor_metadata.jsonl", meta)

    per_query_values, leaderboard, released = {}, [], {}
    for model in models:
        per_query, values = [], []
        for qi, q in enumerate(queries):
            top_results = []
            for rank, (j, sim) in enumerate(zip(tops[model][qi], sims[model][qi]), start=1):
                row = corpus[j]
                cached = cache.get(row["code"], q["test_suite"])
                top_results.append({
                    "rank": rank, "corpus_id": row["corpus_id"], "label": row["label"],
                    "bug_type": row.get("bug_type", ""), "similarity": round(float(sim), 6),
                    "passes_all_tests": bool(cached and cached["passes_all_tests"]),
                    "test_results": list(cached["test_results"]) if cached else []})
            per_query.append({"query_id": q["query_id"], "query": q["query"],
                              "correct_corpus_ids": q["correct_corpus_ids"],
                              "top_results": top_results})
            values.append(per_query_metrics(top_results, q["correct_corpus_ids"]))
        per_query_values[model] = values
        metrics = aggregate(values)
        write_json(tmp, "results/" + results_file_name(model), indent=None, value={
            "model": model, "n_queries": len(queries), "n_corpus": len(corpus), "ks": list(KS),
            "metrics": metrics, "per_query": per_query})
        leaderboard.append(dict({"model": model}, **metrics))
        released[model] = per_query
    if n_queries >= len(TASKS):
        check_variants(queries, corpus, systems, released)
    leaderboard.sort(key=lambda r: (-r["exec@1"], r["model"]))
    write_json(tmp, "results/full_leaderboard.json",
               [dict({"rank": i + 1}, **r) for i, r in enumerate(leaderboard)])
    write_json(tmp, "results/invocation_table.json", [invocation_row(s) for s in systems])

    write_json(tmp, "tests/embedding_summary.json", summary, sort_keys=True)
    log("wrote results and embeddings")

    write_json(tmp, "tests/pairwise_tests.json", pairwise_tests(models, per_query_values),
               sort_keys=True)
    write_json(tmp, "tests/confidence_intervals.json",
               confidence_intervals(models, per_query_values), sort_keys=True)
    first, second = systems[0]["model"], systems[1]["model"] if len(systems) > 1 else "BM25"
    write_json(tmp, "tests/paired_difference_intervals.json",
               paired_differences([(first, "BM25"), (first, second)], per_query_values),
               sort_keys=True)
    write_json(tmp, "tests/dataset_validation.json", dataset_validation(queries, corpus, cache),
               sort_keys=True)
    log("wrote statistics")

    for rel, text in PLACEHOLDERS.items():
        write_text(tmp, rel, text)
    write_text(tmp, "README.md", README.format(queries=n_queries, systems=n_systems,
                                               dims=",".join(str(d) for d in dims)))
    write_sha256sums(tmp)
    replace_dir(tmp, out_dir)
    return queries, corpus, cache


def dataset_validation(queries, corpus, cache):
    row_of = {r["corpus_id"]: r for r in corpus}
    canonical_pass = distractor_fail = 0
    bug_types, domains, n_distractors = {}, {}, {}
    for q in queries:
        for cid in q["correct_corpus_ids"]:
            canonical_pass += cache.get(row_of[cid]["code"], q["test_suite"])["passes_all_tests"]
        for cid in q["paired_distractor_corpus_ids"]:
            distractor_fail += not cache.get(row_of[cid]["code"], q["test_suite"])["passes_all_tests"]
            bug = row_of[cid]["bug_type"]
            bug_types[bug] = bug_types.get(bug, 0) + 1
        domain = q["entry_id"].split("_", 1)[1].rsplit("_", 1)[0]
        domains[domain] = domains.get(domain, 0) + 1
        key = str(len(q["paired_distractor_corpus_ids"]))
        n_distractors[key] = n_distractors.get(key, 0) + 1
    n_canonical = sum(len(q["correct_corpus_ids"]) for q in queries)
    n_distractor = sum(len(q["paired_distractor_corpus_ids"]) for q in queries)
    return {"n_queries": len(queries), "n_corpus": len(corpus), "n_canonicals": n_canonical,
            "n_distractors": n_distractor, "canonical_pass_all": int(canonical_pass),
            "distractors_fail_some": int(distractor_fail),
            "all_canonicals_pass": canonical_pass == n_canonical,
            "all_distractors_fail_some": distractor_fail == n_distractor,
            "bug_type_counts": bug_types,
            "paper_bug_type_share": round(sum(bug_types.get(t, 0) for t in PAPER_BUG_TYPES)
                                          / max(1, n_distractor), 4),
            "domain_counts": domains, "queries_by_distractor_count": n_distractors}


def write_sha256sums(root):
    lines = []
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if rel == "SHA256SUMS":
                continue
            digest = hashlib.sha256()
            with open(os.path.join(dirpath, name), "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            lines.append("%s  %s\n" % (digest.hexdigest(), rel))
    lines.sort(key=lambda line: line[66:])
    write_text(root, "SHA256SUMS", "".join(lines))


def replace_dir(tmp, out_dir):
    """Swap the finished bundle in; refuse to delete a folder that is not a bundle."""
    if os.path.exists(out_dir):
        if os.listdir(out_dir) and not os.path.exists(os.path.join(out_dir, "SHA256SUMS")):
            shutil.rmtree(tmp)
            raise SystemExit("%s: exists and is not a bundle (no SHA256SUMS); not replacing it"
                             % out_dir)
        shutil.rmtree(out_dir)
    os.rename(tmp, out_dir)


def validation_gate(queries, corpus, cache):
    """The release's gate: a canonical passes all its tests, a distractor fails at least one."""
    row_of = {r["corpus_id"]: r for r in corpus}
    for q in queries:
        for cid in q["correct_corpus_ids"]:
            result = cache.get(row_of[cid]["code"], q["test_suite"])
            if not result["passes_all_tests"]:
                raise SystemExit("%s: canonical %s fails: %s" % (q["query_id"], cid,
                                                                 result["test_results"]))
        for cid in q["paired_distractor_corpus_ids"]:
            if cache.get(row_of[cid]["code"], q["test_suite"])["passes_all_tests"]:
                raise SystemExit("%s: distractor %s (%s) passes every test" % (
                    q["query_id"], cid, row_of[cid]["bug_type"]))


def check_fixture(queries, corpus, cache):
    """The committed fixture must show each outcome kind the reader must parse."""
    row_of = {r["corpus_id"]: r for r in corpus}
    seen = set()
    for q in queries:
        for cid in q["paired_distractor_corpus_ids"]:
            for outcome in cache.get(row_of[cid]["code"], q["test_suite"])["test_results"]:
                seen.add(outcome.split(":")[0] if outcome.startswith("ERROR") else
                         ("FAIL:msg" if outcome.startswith("FAIL:") else outcome))
    for kind in ("FAIL", "FAIL:msg", "ERROR", "TIMEOUT"):
        if kind not in seen:
            raise SystemExit("fixture has no distractor outcome of kind %s" % kind)


def check_variants(queries, corpus, systems, released):
    """The committed fixture must hold every case the release's READMEs
    document (test/fixtures/release/CONFORMANCE.md), so that a reader that
    mishandles one fails on it."""
    missing = []
    for model, per_query in released.items():
        entries = [r for pq in per_query for r in pq["top_results"]]
        if not any(r["test_results"] == [] and not r["passes_all_tests"] for r in entries):
            missing.append("%s: a top-10 entry not in the cache (empty test_results)" % model)
        if not any(r["label"] == "correct" and r["bug_type"] == "" for r in entries):
            missing.append('%s: a canonical with bug_type ""' % model)
    outcomes = {o for pq in released["BM25"] for r in pq["top_results"] for o in r["test_results"]}
    if not any(o.startswith("FAIL: ") for o in outcomes) or "FAIL" not in outcomes:
        missing.append("results: both FAIL and FAIL: <message> in test_results")
    if sorted({len(q["paired_distractor_corpus_ids"]) for q in queries}) != [3, 4]:
        missing.append("queries with 4 distractors and one with 3")
    types = {r.get("bug_type") for r in corpus if r["label"] == "incorrect"}
    if len(types - set(PAPER_BUG_TYPES)) < 4:
        missing.append("four legacy bug types")
    if any("bug_type" in r for r in corpus if r["label"] == "correct"):
        missing.append("canonicals without a bug_type key")
    if {s["similarity"] for s in systems} != {"cosine", "dot"}:
        missing.append("cosine and raw-dot systems")
    endpoints = {q["metadata"]["endpoint"] for q in queries}
    if len(endpoints) != 2 or all("batch_usage" in q["metadata"] for q in queries):
        missing.append("both endpoints, and rows without batch_usage")
    if len({q["entry_id"] for q in queries}) == len(queries):
        missing.append("queries sharing an entry_id")
    if missing:
        raise SystemExit("fixture lacks documented cases: " + "; ".join(missing))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--queries", type=int, default=24)
    parser.add_argument("--systems", type=int, default=3, help="dense systems (BM25 is extra)")
    parser.add_argument("--dims", default="16,24,12", help="dims per dense system, cycling")
    args = parser.parse_args(argv)
    dims = [int(d) for d in args.dims.split(",")]
    if args.queries < 1 or args.systems < 1 or min(dims) < 1:
        raise SystemExit("--queries, --systems and --dims must be positive")
    signal.signal(signal.SIGALRM, _on_alarm)
    sys.setrecursionlimit(1000)
    log = lambda msg: print(msg, file=sys.stderr)
    queries, corpus, cache = write_bundle(os.path.abspath(args.out), args.queries, args.systems,
                                          dims, log)
    log("wrote %s: %d queries, %d snippets, %d dense systems + BM25"
        % (args.out, len(queries), len(corpus), args.systems))


# ---------------------------------------------------------------------------
# the 24 hand-written tasks
# ---------------------------------------------------------------------------

# The 24 hand-written tasks behind scripts/make_release_fixture.py.
#
# Each task is a small real Python function with a test suite and candidate
# single-edit bugs. A bug is (bug_type, before, after, tag): `before` occurs
# exactly once in the canonical and is replaced by `after` (removals replace
# whole lines with ""). Tags choose where a candidate may be used:
# "once" = only in the first copy of the task (an infinite loop: its TIMEOUT
# tests cost a second each), "legacy:N" = only in the first N copies (the
# release holds ten pre-lock entries of four older bug types: 4 + 2 + 2 + 2
# at real size, one of each type in the 24-query fixture). `first` is how many
# distractors the first copy takes (gcd takes 3: the release has one query with
# three distractors); every other copy takes four.


def _task(name, domain, query, code, tests, bugs, first=4):
    return {
        "name": name,
        "domain": domain,
        "query": query,
        "code": dedent(code).lstrip("\n"),
        "tests": tests,
        "bugs": bugs,
        "first": first,
    }


TASKS = [
    _task(
        "clamp", "math_numerical",
        "Limit a number to the closed range [lo, hi]: return lo when it is below, hi when it is above, otherwise the number itself.",
        """
        def clamp(x, lo, hi):
            if x < lo:
                return lo
            if x > hi:
                return hi
            return x
        """,
        ["assert clamp(5, 0, 10) == 5", "assert clamp(-3, 0, 10) == 0",
         "assert clamp(12, 0, 10) == 10", "assert clamp(0, 0, 10) == 0",
         "assert clamp(10, 0, 10) == 10"],
        [("wrong_return_value", "    return x\n", "    return lo\n", "legacy:4"),
         ("wrong_comparison", "if x < lo:", "if x > lo:", None),
         ("remove_edge_case_check", "    if x > hi:\n        return hi\n", "", None),
         ("off_by_one", "return hi", "return hi - 1", None),
         ("off_by_one", "return lo", "return lo - 1", None)],
    ),
    _task(
        "is_leap_year", "date_time",
        "Decide whether a year is a leap year in the Gregorian calendar (divisible by 4, except centuries that are not divisible by 400).",
        """
        def is_leap_year(year):
            if year % 400 == 0:
                return True
            if year % 100 == 0:
                return False
            return year % 4 == 0
        """,
        ["assert is_leap_year(2000) is True", "assert is_leap_year(1900) is False",
         "assert is_leap_year(2024) is True", "assert is_leap_year(2023) is False",
         "assert is_leap_year(2100) is False"],
        [("remove_edge_case_check", "    if year % 400 == 0:\n        return True\n", "", None),
         ("wrong_comparison", "year % 4 == 0", "year % 4 != 0", None),
         ("wrong_operator", "year % 100", "year // 100", None),
         ("off_by_one", "year % 400", "year % 401", None)],
    ),
    _task(
        "count_vowels", "string_processing",
        "Count how many vowels (a, e, i, o, u, in either case) a string contains.",
        """
        def count_vowels(text):
            count = 0
            for ch in text.lower():
                if ch in "aeiou":
                    count += 1
            return count
        """,
        ["assert count_vowels('hello') == 2", "assert count_vowels('AEIOU') == 5",
         "assert count_vowels('') == 0", "assert count_vowels('rhythm') == 0",
         "assert count_vowels('Banana') == 3"],
        [("wrong_comparison", "if ch in", "if ch not in", None),
         ("wrong_operator", "count += 1", "count -= 1", None),
         ("off_by_one", "count = 0", "count = 1", None),
         ("off_by_one", "text.lower():", "text.lower()[1:]:", None)],
    ),
    _task(
        "gcd", "math_numerical",
        "Compute the greatest common divisor of two integers with Euclid's algorithm; the result is never negative.",
        """
        def gcd(a, b):
            a, b = abs(a), abs(b)
            while b != 0:
                a, b = b, a % b
            return a
        """,
        ["assert gcd(12, 8) == 4", "assert gcd(17, 5) == 1", "assert gcd(0, 7) == 7",
         "assert gcd(12, -18) == 6", "assert gcd(9, 0) == 9"],
        [("wrong_operator", "a % b", "a // b", None),
         ("wrong_comparison", "while b != 0", "while b == 0", None),
         ("remove_edge_case_check", "    a, b = abs(a), abs(b)\n", "", None),
         ("off_by_one", "while b != 0", "while b != 1", None)],
        first=3,
    ),
    _task(
        "binary_search", "sorting_searching",
        "Find the index of a target value in a sorted list using binary search, or return -1 when it is absent.",
        """
        def binary_search(items, target):
            lo, hi = 0, len(items) - 1
            while lo <= hi:
                mid = (lo + hi) // 2
                if items[mid] == target:
                    return mid
                if items[mid] < target:
                    lo = mid + 1
                else:
                    hi = mid - 1
            return -1
        """,
        ["assert binary_search([1, 3, 5, 7, 9], 7) == 3",
         "assert binary_search([1, 3, 5, 7, 9], 1) == 0",
         "assert binary_search([1, 3, 5, 7, 9], 9) == 4",
         "assert binary_search([1, 3, 5, 7, 9], 4) == -1",
         "assert binary_search([1, 3, 5, 7, 9], 10) == -1",
         "assert binary_search([], 3) == -1", "assert binary_search([2], 2) == 0"],
        [("off_by_one_boundary", "while lo <= hi", "while lo < hi", None),
         ("off_by_one", "lo = mid + 1", "lo = mid", "once"),
         ("off_by_one", "len(items) - 1", "len(items)", None),
         ("wrong_comparison", "items[mid] < target", "items[mid] > target", None),
         ("wrong_comparison", "items[mid] == target", "items[mid] != target", None)],
    ),
    _task(
        "run_length_encode", "string_processing",
        "Run-length encode a string: each run of a repeated character becomes the character followed by the run length.",
        """
        def run_length_encode(text):
            if not text:
                return ""
            out = []
            current, count = text[0], 1
            for ch in text[1:]:
                if ch == current:
                    count += 1
                else:
                    out.append(current + str(count))
                    current, count = ch, 1
            out.append(current + str(count))
            return "".join(out)
        """,
        ["assert run_length_encode('aaabcc') == 'a3b1c2'", "assert run_length_encode('') == ''",
         "assert run_length_encode('x') == 'x1'", "assert run_length_encode('abab') == 'a1b1a1b1'"],
        [("remove_edge_case_check", "    if not text:\n        return \"\"\n", "", None),
         ("wrong_comparison", "if ch == current", "if ch != current", None),
         ("off_by_one", "text[0], 1", "text[0], 0", None),
         ("off_by_one", "for ch in text[1:]", "for ch in text[2:]", None)],
    ),
    _task(
        "manhattan_distance", "geometry",
        "Return the Manhattan (taxicab) distance between two points given as coordinate tuples of equal length.",
        """
        def manhattan_distance(p, q):
            total = 0
            for a, b in zip(p, q):
                total += abs(a - b)
            return total
        """,
        ["assert manhattan_distance((0, 0), (3, 4)) == 7",
         "assert manhattan_distance((1, 2), (1, 2)) == 0",
         "assert manhattan_distance((-1, 5), (2, -3)) == 11",
         "assert manhattan_distance((1, 2, 3), (4, 0, 3)) == 5"],
        [("wrong_operator", "abs(a - b)", "abs(a + b)", None),
         ("wrong_operator", "total += ", "total -= ", None),
         ("off_by_one", "total = 0", "total = 1", None),
         ("off_by_one", "zip(p, q)", "zip(p[1:], q)", None)],
    ),
    _task(
        "parity_bit", "bit_manipulation",
        "Return the even-parity bit of a non-negative integer: 1 when its binary form has an odd number of ones, else 0.",
        """
        def parity_bit(n):
            ones = 0
            while n:
                ones += n & 1
                n >>= 1
            return ones % 2
        """,
        ["assert parity_bit(0) == 0", "assert parity_bit(1) == 1", "assert parity_bit(3) == 0",
         "assert parity_bit(7) == 1", "assert parity_bit(255) == 0", "assert parity_bit(8) == 1"],
        [("wrong_operator", "n & 1", "n | 1", None),
         ("wrong_operator", "ones % 2", "ones // 2", None),
         ("off_by_one", "ones = 0", "ones = 1", None),
         ("off_by_one", "n >>= 1", "n >>= 2", None)],
    ),
    _task(
        "is_power_of_two", "bit_manipulation",
        "Check whether an integer is a positive power of two using a bit trick.",
        """
        def is_power_of_two(n):
            if n <= 0:
                return False
            return n & (n - 1) == 0
        """,
        ["assert is_power_of_two(1) is True", "assert is_power_of_two(2) is True",
         "assert is_power_of_two(16) is True", "assert is_power_of_two(0) is False",
         "assert is_power_of_two(-8) is False", "assert is_power_of_two(12) is False",
         "assert is_power_of_two(6) is False"],
        [("wrong_constant", "n & (n - 1) == 0", "n & (n - 1) == 1", "legacy:2"),
         ("remove_edge_case_check", "    if n <= 0:\n        return False\n", "", None),
         ("off_by_one_boundary", "n <= 0", "n < 0", None),
         ("wrong_operator", "n & (n - 1)", "n | (n - 1)", None),
         ("off_by_one", "(n - 1)", "(n - 2)", None),
         ("wrong_comparison", "== 0", "!= 0", None)],
    ),
    _task(
        "chunk", "collections",
        "Split a list into consecutive chunks of a given size; the last chunk may be shorter.",
        """
        def chunk(items, size):
            if size <= 0:
                raise ValueError("size must be positive")
            return [items[i:i + size] for i in range(0, len(items), size)]
        """,
        ["assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]", "assert chunk([], 3) == []",
         "assert chunk([1, 2, 3], 3) == [[1, 2, 3]]", "assert chunk([1, 2, 3], 1) == [[1], [2], [3]]"],
        [("off_by_one", "items[i:i + size]", "items[i:i + size - 1]", None),
         ("off_by_one", "range(0, len(items), size)", "range(1, len(items), size)", None),
         ("swap_arguments", "range(0, len(items), size)", "range(0, size, len(items))", None),
         ("wrong_operator", "i + size]", "i * size]", None)],
    ),
    _task(
        "word_frequencies", "collections",
        "Count how often each whitespace-separated word occurs in a text and return a dictionary of counts.",
        """
        def word_frequencies(text):
            counts = {}
            for word in text.split():
                counts[word] = counts.get(word, 0) + 1
            return counts
        """,
        ["assert word_frequencies('a b a') == {'a': 2, 'b': 1}", "assert word_frequencies('') == {}",
         "assert word_frequencies('x') == {'x': 1}",
         "assert word_frequencies('to be or not to be') == {'to': 2, 'be': 2, 'or': 1, 'not': 1}"],
        [("swap_arguments", "counts.get(word, 0)", "counts.get(0, word)", None),
         ("off_by_one", "counts.get(word, 0)", "counts.get(word, 1)", None),
         ("wrong_operator", ") + 1", ") - 1", None),
         ("off_by_one", "text.split():", "text.split()[1:]:", None)],
    ),
    _task(
        "normalize_scores", "data_transformation",
        "Min-max normalise a list of numbers to the range 0..1; an empty list gives an empty list and equal values all map to 0.0.",
        """
        def normalize_scores(scores):
            if not scores:
                return []
            lo, hi = min(scores), max(scores)
            if lo == hi:
                return [0.0 for _ in scores]
            return [(s - lo) / (hi - lo) for s in scores]
        """,
        ["assert normalize_scores([0, 5, 10]) == [0.0, 0.5, 1.0]", "assert normalize_scores([]) == []",
         "assert normalize_scores([3, 3]) == [0.0, 0.0]", "assert normalize_scores([2, 4]) == [0.0, 1.0]"],
        [("remove_edge_case_check", "    if lo == hi:\n        return [0.0 for _ in scores]\n", "", None),
         ("remove_edge_case_check", "    if not scores:\n        return []\n", "", None),
         ("wrong_operator", "(s - lo)", "(s + lo)", None),
         ("wrong_comparison", "if lo == hi", "if lo != hi", None)],
    ),
    _task(
        "days_in_month", "date_time",
        "Return the number of days in a month of a given year, accounting for leap years in February.",
        """
        def _is_leap(year):
            return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


        def days_in_month(year, month):
            if month == 2:
                return 29 if _is_leap(year) else 28
            if month in (4, 6, 9, 11):
                return 30
            return 31
        """,
        ["assert days_in_month(2024, 2) == 29", "assert days_in_month(2023, 2) == 28",
         "assert days_in_month(1900, 2) == 28", "assert days_in_month(2000, 2) == 29",
         "assert days_in_month(2023, 4) == 30", "assert days_in_month(2023, 1) == 31",
         "assert days_in_month(2023, 12) == 31"],
        [("wrong_operator", "== 0 and (", "== 0 or (", None),
         ("wrong_comparison", "if month == 2", "if month != 2", None),
         ("off_by_one", "return 29 if", "return 30 if", None),
         ("remove_edge_case_check",
          "    if month == 2:\n        return 29 if _is_leap(year) else 28\n", "", None)],
    ),
    _task(
        "format_duration", "date_time",
        "Format a number of seconds as H:MM:SS, with a leading minus sign for negative durations.",
        """
        def format_duration(seconds):
            if seconds < 0:
                return "-" + format_duration(-seconds)
            hours, rest = divmod(seconds, 3600)
            minutes = rest // 60
            secs = rest % 60
            return f"{hours}:{minutes:02d}:{secs:02d}"
        """,
        ["assert format_duration(0) == '0:00:00'", "assert format_duration(3661) == '1:01:01'",
         "assert format_duration(59) == '0:00:59'", "assert format_duration(7200) == '2:00:00'",
         "assert format_duration(86399) == '23:59:59'", "assert format_duration(-61) == '-0:01:01'"],
        [("swap_arguments", "divmod(seconds, 3600)", "divmod(3600, seconds)", None),
         ("wrong_operator", "secs = rest % 60", "secs = rest // 60", None),
         ("remove_edge_case_check",
          "    if seconds < 0:\n        return \"-\" + format_duration(-seconds)\n", "", None),
         ("off_by_one_boundary", "if seconds < 0", "if seconds <= 0", None)],
    ),
    _task(
        "polygon_area", "geometry",
        "Compute the area of a simple polygon from its vertices in order using the shoelace formula.",
        """
        def polygon_area(points):
            n = len(points)
            total = 0.0
            for i in range(n):
                x1, y1 = points[i]
                x2, y2 = points[(i + 1) % n]
                total += x1 * y2 - x2 * y1
            return abs(total) / 2
        """,
        ["assert polygon_area([(0, 0), (2, 0), (2, 2), (0, 2)]) == 4.0",
         "assert polygon_area([(0, 0), (4, 0), (0, 3)]) == 6.0",
         "assert polygon_area([(1, 1), (3, 1), (3, 3), (1, 3)]) == 4.0",
         "assert polygon_area([]) == 0.0"],
        [("off_by_one", "range(n)", "range(n - 1)", None),
         ("wrong_operator", "x1 * y2 - x2 * y1", "x1 * y2 + x2 * y1", None),
         ("off_by_one", "(i + 1) % n", "(i + 2) % n", None),
         ("wrong_operator", "abs(total) / 2", "abs(total) * 2", None)],
    ),
    _task(
        "point_in_rect", "geometry",
        "Test whether a point lies inside or on the border of an axis-aligned rectangle given as (left, bottom, right, top).",
        """
        def _between(value, low, high):
            return low <= value <= high


        def point_in_rect(point, rect):
            x, y = point
            left, bottom, right, top = rect
            return _between(x, left, right) and _between(y, bottom, top)
        """,
        ["assert point_in_rect((1, 1), (0, 0, 2, 2)) is True",
         "assert point_in_rect((0, 1), (0, 0, 2, 2)) is True",
         "assert point_in_rect((2, 2), (0, 0, 2, 2)) is True",
         "assert point_in_rect((3, 1), (0, 0, 2, 2)) is False",
         "assert point_in_rect((1, -1), (0, 0, 2, 2)) is False"],
        [("swap_arguments", "_between(y, bottom, top)", "_between(y, top, bottom)", None),
         ("off_by_one_boundary", "low <= value", "low < value", None),
         ("off_by_one_boundary", "value <= high", "value < high", None),
         ("wrong_operator", ") and _between", ") or _between", None),
         ("swap_arguments", "_between(x, left, right)", "_between(left, x, right)", None)],
    ),
    _task(
        "turnstile", "state_machines",
        "Simulate a coin-operated turnstile: starting locked, a coin unlocks it and a push locks it again; return the final state.",
        """
        def turnstile(events):
            state = "locked"
            for event in events:
                if state == "locked" and event == "coin":
                    state = "unlocked"
                elif state == "unlocked" and event == "push":
                    state = "locked"
            return state
        """,
        ["assert turnstile([]) == 'locked'", "assert turnstile(['coin']) == 'unlocked'",
         "assert turnstile(['coin', 'push']) == 'locked'", "assert turnstile(['push']) == 'locked'",
         "assert turnstile(['coin', 'coin', 'push']) == 'locked'",
         "assert turnstile(['push', 'coin']) == 'unlocked'"],
        [("wrong_operator", "\"locked\" and event", "\"locked\" or event", None),
         ("wrong_comparison", "event == \"coin\"", "event != \"coin\"", None),
         ("wrong_comparison", "state == \"unlocked\"", "state != \"unlocked\"", None),
         ("off_by_one", "for event in events:", "for event in events[1:]:", None)],
    ),
    _task(
        "is_balanced", "state_machines",
        "Check that every bracket in a string ((), [], {}) is closed by the matching bracket in the right order.",
        """
        def is_balanced(text):
            pairs = {")": "(", "]": "[", "}": "{"}
            stack = []
            for ch in text:
                if ch in "([{":
                    stack.append(ch)
                elif ch in pairs:
                    if not stack or stack.pop() != pairs[ch]:
                        return False
            return len(stack) == 0
        """,
        ["assert is_balanced('()') is True", "assert is_balanced('([]{})') is True",
         "assert is_balanced('(]') is False", "assert is_balanced('((') is False",
         "assert is_balanced(')') is False", "assert is_balanced('') is True"],
        [("remove_edge_case_check", "if not stack or stack.pop()", "if stack.pop()", None),
         ("wrong_comparison", "!= pairs[ch]", "== pairs[ch]", None),
         ("wrong_operator", "not stack or", "not stack and", None),
         ("wrong_comparison", "len(stack) == 0", "len(stack) != 0", None)],
    ),
    _task(
        "is_valid_hex_color", "validation",
        "Validate a CSS hex colour string of the form #RRGGBB with hexadecimal digits in either case.",
        """
        def is_valid_hex_color(text):
            if len(text) != 7 or text[0] != "#":
                return False
            return all(ch in "0123456789abcdefABCDEF" for ch in text[1:])
        """,
        ["assert is_valid_hex_color('#1a2B3c') is True, 'accepts mixed-case digits'",
         "assert is_valid_hex_color('#12345') is False, 'rejects a short colour'",
         "assert is_valid_hex_color('1234567') is False, 'requires the leading #'",
         "assert is_valid_hex_color('#12345g') is False, 'rejects a non-hex digit'",
         "assert is_valid_hex_color('#g12345') is False, 'checks the first digit'",
         "assert is_valid_hex_color('') is False, 'rejects the empty string'"],
        [("incorrect_slice", "for ch in text[1:]", "for ch in text", "legacy:2"),
         ("wrong_operator", "!= 7 or text", "!= 7 and text", None),
         ("remove_edge_case_check", " or text[0] != \"#\"", "", None),
         ("off_by_one", "len(text) != 7", "len(text) != 6", None),
         ("off_by_one", "for ch in text[1:]", "for ch in text[2:]", None),
         ("wrong_comparison", "text[0] != \"#\"", "text[0] == \"#\"", None)],
    ),
    _task(
        "is_valid_ipv4", "validation",
        "Validate a dotted-quad IPv4 address: four decimal parts, each between 0 and 255.",
        """
        def is_valid_ipv4(address):
            parts = address.split(".")
            if len(parts) != 4:
                return False
            for part in parts:
                if not part.isdigit():
                    return False
                if int(part) > 255:
                    return False
            return True
        """,
        ["assert is_valid_ipv4('192.168.0.1') is True", "assert is_valid_ipv4('255.255.255.255') is True",
         "assert is_valid_ipv4('256.1.1.1') is False", "assert is_valid_ipv4('1.2.3') is False",
         "assert is_valid_ipv4('a.b.c.d') is False", "assert is_valid_ipv4('1.2.3.-4') is False",
         "assert is_valid_ipv4('0.0.0.0') is True"],
        [("off_by_one_boundary", "int(part) > 255", "int(part) >= 255", None),
         ("remove_edge_case_check", "        if not part.isdigit():\n            return False\n", "", None),
         ("off_by_one", "len(parts) != 4", "len(parts) != 3", None),
         ("wrong_comparison", "int(part) > 255", "int(part) < 255", None),
         ("remove_edge_case_check", "    if len(parts) != 4:\n        return False\n", "", None)],
    ),
    _task(
        "is_prime", "math_numerical",
        "Decide whether an integer is prime by trial division up to its square root.",
        """
        def is_prime(n):
            if n < 2:
                return False
            i = 2
            while i * i <= n:
                if n % i == 0:
                    return False
                i += 1
            return True
        """,
        ["assert is_prime(2) is True", "assert is_prime(3) is True", "assert is_prime(4) is False",
         "assert is_prime(9) is False", "assert is_prime(25) is False", "assert is_prime(1) is False",
         "assert is_prime(0) is False", "assert is_prime(97) is True"],
        [("off_by_one_boundary", "i * i <= n", "i * i < n", None),
         ("remove_edge_case_check", "    if n < 2:\n        return False\n", "", None),
         ("off_by_one", "i = 2", "i = 1", None),
         ("wrong_comparison", "n % i == 0", "n % i != 0", None)],
    ),
    _task(
        "insertion_sort", "sorting_searching",
        "Sort a list of numbers in ascending order with insertion sort, returning a new list.",
        """
        def insertion_sort(items):
            result = list(items)
            for i in range(1, len(result)):
                key = result[i]
                j = i - 1
                while j >= 0 and result[j] > key:
                    result[j + 1] = result[j]
                    j -= 1
                result[j + 1] = key
            return result
        """,
        ["assert insertion_sort([3, 1, 2]) == [1, 2, 3]", "assert insertion_sort([]) == []",
         "assert insertion_sort([5, 4, 3, 2, 1]) == [1, 2, 3, 4, 5]",
         "assert insertion_sort([1, 1, 0]) == [0, 1, 1]", "assert insertion_sort([2, 1]) == [1, 2]"],
        [("off_by_one_boundary", "j >= 0", "j > 0", None),
         ("wrong_comparison", "result[j] > key", "result[j] < key", None),
         ("off_by_one", "range(1, len(result))", "range(1, len(result) - 1)", None),
         ("wrong_operator", "j -= 1", "j += 1", None)],
    ),
    _task(
        "merge_sorted", "sorting_searching",
        "Merge two ascending lists into one ascending list containing all elements of both.",
        """
        def merge_sorted(a, b):
            i, j = 0, 0
            out = []
            while i < len(a) and j < len(b):
                if a[i] <= b[j]:
                    out.append(a[i])
                    i += 1
                else:
                    out.append(b[j])
                    j += 1
            out.extend(a[i:])
            out.extend(b[j:])
            return out
        """,
        ["assert merge_sorted([1, 3, 5], [2, 4]) == [1, 2, 3, 4, 5]", "assert merge_sorted([], [1]) == [1]",
         "assert merge_sorted([1, 2], []) == [1, 2]", "assert merge_sorted([1], [1]) == [1, 1]",
         "assert merge_sorted([5], [1, 2]) == [1, 2, 5]"],
        [("wrong_comparison", "a[i] <= b[j]", "a[i] >= b[j]", None),
         ("wrong_operator", "len(a) and j", "len(a) or j", None),
         ("off_by_one", "out.extend(a[i:])", "out.extend(a[i + 1:])", None),
         ("off_by_one_boundary", "i < len(a)", "i <= len(a)", None)],
    ),
    _task(
        "moving_average", "data_transformation",
        "Return the simple moving averages of a list over a sliding window; an empty list when the window does not fit.",
        """
        def moving_average(values, window):
            if window <= 0 or window > len(values):
                return []
            out = []
            total = sum(values[:window])
            out.append(total / window)
            for i in range(window, len(values)):
                total += values[i] - values[i - window]
                out.append(total / window)
            return out
        """,
        ["assert moving_average([1, 2, 3, 4], 2) == [1.5, 2.5, 3.5]",
         "assert moving_average([1, 2, 3], 3) == [2.0]", "assert moving_average([1, 2], 3) == []",
         "assert moving_average([1, 2], 0) == []", "assert moving_average([5], 1) == [5.0]"],
        [("missing_return", "    return out\n", "", "legacy:2"),
         ("off_by_one_boundary", "window > len(values)", "window >= len(values)", None),
         ("remove_edge_case_check", "window <= 0 or ", "", None),
         ("wrong_operator", "values[i] - values", "values[i] + values", None),
         ("off_by_one", "values[i - window]", "values[i - window + 1]", None),
         ("swap_arguments", "range(window, len(values))", "range(len(values), window)", None)],
    ),
]


if __name__ == "__main__":
    main(sys.argv[1:])
