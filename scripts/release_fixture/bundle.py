"""Writing the bundle: its files, npz archives, invocation rows, README,
SHA256SUMS, and the dataset's validation.
"""

import hashlib
import json
import os
import shutil
import zipfile

import numpy as np

from .benchmark import TASKS, build_benchmark, results_file_name
from .checks import check_fixture, check_variants, validation_gate
from .config import KS, PAPER_BUG_TYPES
from .execution import ExecutionCache
from .metrics import (
    aggregate,
    confidence_intervals,
    paired_differences,
    pairwise_tests,
    per_query_metrics,
)
from .systems import bm25_scores, dense_similarity, dense_systems, make_vectors, top_indices


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
