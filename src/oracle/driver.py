"""Execution-oracle driver: runs one snippet's test suite at a time.

The same file serves both runtimes. Under Pyodide the worker runs it and calls
``pyodide_install``; under native CPython it is the worker process's main
program (``python3 driver.py``), fed JSON-line batches on stdin.

Each job runs the code, then the setup, then each test statement on its own, in a
fresh namespace; builtins, sys streams and the recursion limit are restored
after every job. An audit hook refuses process spawning, sockets, ctypes,
writes to files and reads outside the standard library. It is a second,
best-effort layer: the wall is the worker's permissions (Pyodide) or the
rlimits and network namespace (native).
"""

import builtins
import io
import json
import os
import sys
import time

# Modules snippets commonly import: loading them here keeps them in the
# Pyodide memory snapshot and out of the timed phases.
import bisect  # noqa: F401
import collections  # noqa: F401
import copy  # noqa: F401
import datetime  # noqa: F401
import decimal  # noqa: F401
import fractions  # noqa: F401
import functools  # noqa: F401
import heapq  # noqa: F401
import itertools  # noqa: F401
import math  # noqa: F401
import operator  # noqa: F401
import random  # noqa: F401
import re  # noqa: F401
import statistics  # noqa: F401
import string  # noqa: F401
import typing  # noqa: F401

RECURSION_LIMIT = 1000
RECURSION_CAP = 5000

# Captured now so a snippet that rebinds a builtin cannot break the driver.
_perf = time.perf_counter
_type = type
_str = str
_len = len
_isinstance = isinstance
_compile = compile
_exec = exec
_range = range
_set_recursion_limit = sys.setrecursionlimit

_BLOCKED_EVENTS = frozenset(
    """os.system os.exec os.posix_spawn os.spawn os.fork os.forkpty os.kill os.killpg
    os.remove os.rename os.rmdir os.mkdir os.chmod os.chown os.truncate os.symlink
    os.link os.utime os.putenv os.unsetenv os.chdir os.chflags os.lchflags
    os.setxattr os.removexattr subprocess.Popen pty.spawn _thread.start_new_thread
    resource.setrlimit resource.prlimit mmap.__new__ signal.pthread_kill
    gc.get_objects gc.get_referrers gc.get_referents sys._current_frames
    sys._current_exceptions webbrowser.open shutil.rmtree shutil.copyfile shutil.move
    urllib.Request http.client.connect ftplib.connect smtplib.connect poplib.connect
    imaplib.open telnetlib.Telnet.open nntplib.connect glob.glob
    sqlite3.connect""".split()
)
_BLOCKED_PREFIXES = ("socket.", "ctypes.", "_ctypes.", "winreg.", "msvcrt.")
_BLOCKED_IMPORTS = frozenset(
    """js pyodide pyodide_js _pyodide _pyodide_core ctypes _ctypes socket _socket
    subprocess _posixsubprocess multiprocessing _multiprocessing pty mmap
    micropip""".split()
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _readable_roots():
    roots = []
    for p in sys.path:
        if p and "python" in p and p not in roots:
            roots.append(p.rstrip("/") + "/")
    return tuple(roots)


def _make_audit_hook():
    readable = _readable_roots()
    startswith = _str.startswith

    def refuse(event):
        raise PermissionError("sandbox: " + event + " is not allowed")

    def hook(event, args):
        if event in _BLOCKED_EVENTS or startswith(event, _BLOCKED_PREFIXES):
            refuse(event)
        if event == "open":
            path, mode, flags = args
            if not _isinstance(path, _str):
                refuse("open of a descriptor or bytes path")
            if mode is not None:
                if any(c in mode for c in "wax+"):
                    refuse("open for writing")
            elif flags and flags & _WRITE_FLAGS:
                refuse("open for writing")
            if not startswith(os.path.normpath(path) + "/", readable):
                refuse("open outside the standard library")
        elif event == "os.listdir" or event == "os.scandir":
            # The import system lists stdlib folders; nothing else may be listed.
            path = args[0]
            if not _isinstance(path, _str) or not startswith(os.path.normpath(path) + "/", readable):
                refuse(event)
        elif event == "import":
            if _str.partition(args[0], ".")[0] in _BLOCKED_IMPORTS:
                refuse("import " + args[0])

    return hook


def _guarded_import(real_import):
    def guarded(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and _str.partition(name, ".")[0] in _BLOCKED_IMPORTS:
            raise PermissionError("sandbox: import " + name + " is not allowed")
        return real_import(name, globals, locals, fromlist, level)

    return guarded


class _Null(io.TextIOBase):
    def write(self, s):
        return _len(s)

    def writable(self):
        return True


class Timeout(BaseException):
    """Raised by the native runtime's timer; never seen by snippets' `except Exception`."""


def _exit_refused(*_args, **_kwargs):
    raise SystemExit("os._exit")


def _threads_refused(*_args, **_kwargs):
    raise PermissionError("sandbox: threads are not allowed")


def _capped_recursion_limit(n):
    _set_recursion_limit(min(int(n), RECURSION_CAP))


_saved_builtins = None
_saved_modules = None
_null = _Null()


def _harden():
    """Patch the process once: guarded import, no os._exit, capped recursion, audit hook."""
    global _saved_builtins, _saved_modules
    builtins.__import__ = _guarded_import(builtins.__import__)
    os._exit = _exit_refused
    try:
        import posix

        posix._exit = _exit_refused
    except ImportError:
        pass
    sys.setrecursionlimit = _capped_recursion_limit
    # Threads would outlive their job (native) or fail differently (Pyodide).
    import _thread
    import threading

    for mod in (_thread, threading):
        for name in ("start_new_thread", "start_joinable_thread", "start_new",
                     "_start_new_thread", "_start_joinable_thread"):
            if hasattr(mod, name):
                setattr(mod, name, _threads_refused)
    _saved_builtins = dict(builtins.__dict__)
    _saved_modules = dict(sys.modules)
    _restore()
    sys.addaudithook(_make_audit_hook())


def _reset(d, saved):
    # update() with the saved objects is one C loop and, where a value is
    # already the same object, leaves the dict's version alone: far cheaper
    # than comparing entry by entry in Python, which cost more than a job.
    d.update(saved)
    if _len(d) != _len(saved):
        for k in [k for k in d if k not in saved]:
            del d[k]


def _restore():
    # Modules a job imported are dropped too, so no job sees another's state.
    _reset(builtins.__dict__, _saved_builtins)
    _reset(sys.modules, _saved_modules)
    sys.stdout = sys.stderr = _null
    sys.stdin = io.StringIO("")
    _set_recursion_limit(RECURSION_LIMIT)


def error_name(e):
    name = _type(e).__name__
    if not _isinstance(name, _str) or not name.isidentifier():
        name = "Exception"
    return "ERROR:" + name[:60]


def run_job(setup, code, tests, start, timed, step, stop=False):
    """Run tests[start:] of one snippet; return [(outcome, ms), ...].

    ``timed(phase_fn)`` runs one phase under the runtime's soft timeout and
    returns (outcome or None, ms); ``step(index, prev_outcome, prev_ms)`` is
    called between phases and returns the previous phase's final outcome.
    With ``stop``, the first TIMEOUT ends the suite and the tests after it are
    NOT_RUN: a looping candidate would otherwise cost a timeout per test.
    """
    ns = {"__name__": "__main__", "__builtins__": builtins}
    results = []
    n = _len(tests)
    try:
        step(-1, None, 0.0)
        load_outcome, load_ms = timed(lambda: _load(setup, code, ns))
        load_outcome = step(start if start < n else -2, load_outcome, load_ms)
        if load_outcome is not None:
            # setup or code itself failed: every test shares that outcome.
            return [(load_outcome, 0.0) for _ in _range(start, n)]
        for i in _range(start, n):
            src = tests[i]
            outcome, ms = timed(lambda: _exec(_compiled(src, "<test>"), ns))
            outcome = step(i + 1 if i + 1 < n else -2, outcome or "pass", ms)
            results.append((outcome, ms))
            if stop and outcome == "TIMEOUT" and i + 1 < n:
                # Tell the watcher the job is over, so a death now re-runs it
                # whole instead of resuming at a test that will never start.
                step(-2, "NOT_RUN", 0.0)
                results.extend(("NOT_RUN", 0.0) for _ in _range(i + 1, n))
                break
        return results
    finally:
        _restore()


_code_cache = {}


def _compiled(src, name):
    """Tests and setup repeat across a task's mutants; code objects are immutable, so reuse them."""
    code = _code_cache.get(src)
    if code is None:
        if _len(_code_cache) > 20000:
            _code_cache.clear()
        code = _code_cache[src] = _compile(src, name, "exec")
    return code


_snippet_cache = {}
_snippet_chars = [0]
# Source characters whose code objects are kept (~10 MB of code objects).
SNIPPET_CACHE_CHARS = 2_000_000


def _snippet(code):
    """The snippet's code object, compiled once per worker for the same code.

    The exec reranker runs each corpus snippet against several queries'
    tests, and compiling is about half of a short suite's time. Reuse is
    safe: code objects are immutable, and every job runs one in a fresh
    namespace. A snippet that does not compile is compiled (and fails) again.
    """
    compiled = _snippet_cache.get(code)
    if compiled is None:
        compiled = _compile(code, "<snippet>", "exec")
        if _snippet_chars[0] + _len(code) > SNIPPET_CACHE_CHARS:
            _snippet_cache.clear()
            _snippet_chars[0] = 0
        _snippet_cache[code] = compiled
        _snippet_chars[0] += _len(code)
    return compiled


def _load(setup, code, ns):
    # The setup is test-side code (MBPP's test_setup_code, HumanEval's test
    # imports): as in those harnesses it runs after the code, and may build
    # fixtures from classes the code defines (MBPP 367, 927).
    _exec(_snippet(code), ns)
    if setup:
        _exec(_compiled(setup, "<setup>"), ns)


def classify(fn, timed_out):
    """Run fn; return (None on success | outcome, ms). `timed_out()` says whether the timer fired."""
    t0 = _perf()
    try:
        fn()
        outcome = None
    except AssertionError:
        outcome = "FAIL"
    except (KeyboardInterrupt, Timeout) as e:
        outcome = "TIMEOUT" if timed_out() else error_name(e)
    except BaseException as e:  # noqa: BLE001 - every failure of untrusted code is an outcome
        outcome = error_name(e)
    ms = (_perf() - t0) * 1000.0
    if timed_out():
        outcome = "TIMEOUT"
    return outcome, ms


# --- Pyodide ------------------------------------------------------------------


def _never():
    return False


# Results of a batch go out to JavaScript at least this often, so a kill
# loses (and re-runs) little.
RESULT_S = 0.02


def pyodide_install(js_step, js_begin, js_post, gap_s=0.0):
    """Harden this interpreter; return run_batch(jobs_json, careful) -> JSON of results not yet posted.

    A batch runs in one call from JavaScript: a call per job, with its
    arguments and result converted each way, cost ~14% of a short suite.
    ``js_begin(k, id)`` claims the batch's k-th job for the main thread to
    watch (and marks its load phase begun), or returns 0 once the main thread
    cut the batch short. ``js_step(index, outcome, ms)`` records progress
    between phases and returns 1 when the main thread interrupted the
    previous phase (its outcome is then TIMEOUT), else 0. Common outcomes
    cross as small ints (their order must match OUTCOME_CODES in
    pyodide_worker.ts): a string each way cost a call ~3x more.
    ``js_post(json)`` hands on finished jobs' results, ``[[id, results], ...]``.

    Outside a careful batch, ``js_step`` is called only at the first phase
    boundary ``gap_s`` or more after the last call (or the job's start): that
    call cost 6-12% of a short suite. The main thread, seeing no step, takes
    the phase it last heard of to be running since then, so it interrupts
    ``gap_s`` late at most, and never early: a phase that started later, in
    silence, started less than ``gap_s`` after. An interrupted phase always
    ends in a call, having run past the timeout (> ``gap_s``). What the main
    thread cannot tell is which phase hung, if one must be killed: the pool
    runs that job again careful (every boundary a call), alone.
    """
    _harden()
    loads = json.loads
    dumps = json.dumps
    codes = {None: 0, "pass": 1, "FAIL": 2, "NOT_RUN": 3, "TIMEOUT": 4}
    code_of = codes.get
    last = [0.0]
    gap = [gap_s]

    def step(index, prev, ms):
        if index == -1:
            return prev  # js_begin marked the load phase's start
        now = _perf()
        if now - last[0] < gap[0]:
            return prev
        # Read before the call, so the main thread's clock for the phase
        # starts no earlier than ours.
        last[0] = now
        return "TIMEOUT" if js_step(index, code_of(prev, prev), ms) else prev

    def timed(fn):
        return classify(fn, _never)

    def run_batch(jobs_json, careful=False):
        done = []
        posted = _perf()
        gap[0] = 0.0 if careful else gap_s
        try:
            for k, job in enumerate(loads(jobs_json)):
                jid = job["id"]
                last[0] = _perf()
                if not js_begin(k, jid):
                    break
                results = run_job(
                    job["setup"], job["code"], job["tests"], job["start"], timed, step,
                    job["stop"],
                )
                done.append((jid, results))
                if _perf() - posted >= RESULT_S:
                    js_post(dumps(done))
                    done = []
                    posted = _perf()
        except BaseException:
            # The driver itself failed (an interrupt in its bookkeeping): what
            # finished still counts; JavaScript reports the job it failed in.
            if done:
                js_post(dumps(done))
            raise
        return dumps(done)

    return run_batch


# --- Native CPython -----------------------------------------------------------


def native_limits(mem_bytes):
    """This process's rlimits: memory, no new processes, no file growth, no core dumps."""
    import resource
    import signal

    limits = (
        (resource.RLIMIT_AS, mem_bytes),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_FSIZE, 0),
        (resource.RLIMIT_CORE, 0),
    )
    for which, value in limits:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
    # A write past RLIMIT_FSIZE should fail with an error, not kill the worker.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def native_main():
    import signal

    timeout_s = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    mem_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
    # The protocol uses a private copy of stdout; fd 1 then points to /dev/null
    # so a snippet writing to it cannot corrupt the stream.
    proto = os.fdopen(os.dup(1), "w", buffering=1 << 16)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    inp = sys.stdin.buffer
    native_limits(mem_bytes)

    fired = [False]

    driver_file = run_job.__code__.co_filename

    def on_alarm(_sig, frame):
        fired[0] = True
        # Raising inside the driver's own bookkeeping would lose the job; the
        # flag alone marks the phase TIMEOUT there.
        if frame is None or frame.f_code.co_filename != driver_file:
            raise Timeout()

    def timed(fn):
        fired[0] = False
        signal.signal(signal.SIGALRM, on_alarm)
        # Re-fire every 50 ms so a bare `except:` that swallows one alarm gets another.
        signal.setitimer(signal.ITIMER_REAL, timeout_s, 0.05)
        try:
            return classify(fn, lambda: fired[0])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    _harden()
    emit = proto.write
    flush = proto.flush
    dumps = json.dumps
    emit(dumps({"ready": sys.version.split()[0]}) + "\n")
    flush()
    while True:
        line = inp.readline()
        if not line:
            return
        batch = json.loads(line)
        careful = batch.get("careful", False)
        for job in batch["jobs"]:
            jid = job["id"]
            if careful:

                def step(index, prev, ms, jid=jid):
                    if index != -1:
                        emit(dumps({"id": jid, "next": index, "o": prev, "ms": ms}) + "\n")
                        flush()
                    return prev

            else:

                def step(_index, prev, _ms):
                    return prev

            results = run_job(
                job["setup"], job["code"], job["tests"], job["start"], timed, step,
                job.get("stop", False),
            )
            emit(dumps({"id": jid, "r": results}) + "\n")
            flush()


if __name__ == "__main__" and sys.platform != "emscripten":
    native_main()
