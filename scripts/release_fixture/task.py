"""The 24 hand-written tasks behind scripts/make_release_fixture.py: how one is written."""

from textwrap import dedent


# Each task is a small real Python function with a test suite and candidate
# single-edit bugs. A bug is (bug_type, before, after, tag): `before` occurs
# exactly once in the canonical and is replaced by `after` (removals replace
# whole lines with ""). Tags choose where a candidate may be used:
# "once" = only in the first copy of the task (an infinite loop: its TIMEOUT
# tests cost the CPU limit each), "legacy:N" = only in the first N copies (the
# release holds ten pre-lock entries of four older bug types: 4 + 2 + 2 + 2
# at real size, one of each type in the 24-query fixture). `first` is how many
# distractors the first copy takes (gcd takes 3: the release has one query with
# three distractors); every other copy takes four.


def task(name, domain, query, code, tests, bugs, first=4):
    return {
        "name": name,
        "domain": domain,
        "query": query,
        "code": dedent(code).lstrip("\n"),
        "tests": tests,
        "bugs": bugs,
        "first": first,
    }
