"""The checks the script runs before it writes: every fixture case present, the
released variants reproduced.
"""

from .config import PAPER_BUG_TYPES


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
