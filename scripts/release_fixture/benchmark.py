"""The benchmark: the tasks copied and renamed into queries, their corpus of
canonicals and single-edit distractors.
"""

import datetime
import re

import numpy as np

from .config import GENERATED_AT, SEED
from .tasks_a import TASKS_A
from .tasks_b import TASKS_B

TASKS = TASKS_A + TASKS_B


def results_file_name(model, ext=".json"):
    """The release names a model's files after its id with "/" -> "__"."""
    return model.replace("/", "__") + ext


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
