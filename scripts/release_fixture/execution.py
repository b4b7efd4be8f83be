"""Execution: each snippet's tests really run in this process (fresh namespace,
a limit of CPU time per test), outcomes cached by content.
"""

import hashlib
import json
import signal
import sys
import time

from .config import TEST_TIMEOUT_S


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so `except Exception` in a snippet cannot swallow it."""


_ARMED = [False]


def on_alarm(_signum, _frame):
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
            signal.setitimer(signal.ITIMER_PROF, TEST_TIMEOUT_S)
            exec(_compiled(src), namespace)
        finally:
            _ARMED[0] = False
            signal.setitimer(signal.ITIMER_PROF, 0)
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
