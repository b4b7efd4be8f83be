# Oracle driver, native: the CPython worker, its rlimits and main loop.
# Part of the one program driver_source.ts joins (see driver.py).
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


# A native job's phases in its records: the load, tests by index, the cleanup.
_LOAD, _CLEANUP = -1, -3
# Code objects kept: tests repeat across a task's mutants, and the exec
# reranker runs each pool snippet against several queries' tests; compiling
# is about half of a short suite. Code objects cannot be changed, and every
# job runs in a fresh namespace.
TEST_CACHE_ENTRIES = 20000
SNIPPET_CACHE_CHARS = 2_000_000
# How often, at least, a native worker flushes what it has written.
FLUSH_S = 0.02


def _native_main():
    """Build the worker: one lazy chain of C iterators, which the module's
    last statement drains. Reads the parent's key (the first line on stdin),
    hardens the interpreter, empties this module's namespace, and returns
    the chain. Under untrusted code the only harness frames are the module's
    (empty) and `run_phase`'s; `record`, `finish` and `emit_batch`, which
    hold the key, run between phases, and nothing under a snippet refers to
    them.

    Messages, each line `<json>\\t<HMAC-SHA256 of the json, hex>`:
    `{"ready": version}`; per job `{"id", "r": [[outcome, ms, cpu ms], ...]}`; in a
    careful batch, after each phase `{"id", "next", "o", "ms", "cpu"}`; per batch
    `{"batch": "done"}`, `{"batch": "retire"}` after a job that tampered
    (the jobs after it were not started; the worker exits), or
    `{"batch": "rerun", "ids": [...]}` when a module changed and no job of
    the batch is known to have done it (each runs again alone; the worker
    exits). The parent holds a batch's results until its `batch` line.
    """
    import _json
    import signal
    from itertools import repeat

    try:
        from _hashlib import hmac_digest
    except ImportError:  # a Python built without OpenSSL
        from hmac import digest as hmac_digest

    inp = sys.stdin.buffer
    # C parser and encoder: json's Python layer is a snippet's to rebind.
    scan = _json.make_scanner(json.JSONDecoder())
    key = bytes.fromhex(scan(inp.readline().decode(), 0)[0]["key"])
    timeout_s = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    # The limit counts this process's CPU time (ITIMER_PROF), so a phase is
    # not charged for waiting for a core; a phase blocked rather than
    # computing meets the wall-clock backstop, this many times the limit.
    backstop_s = timeout_s * (float(sys.argv[3]) if len(sys.argv) > 3 else 10.0)
    # Past the backstop, a phase counts as blocked only while it gets less
    # than this share of a core (BLOCKED_SHARE in src/io/watchdog.ts); one
    # starved on a busy machine still computes, and meets its CPU limit.
    blocked_share = float(sys.argv[4]) if len(sys.argv) > 4 else 0.01
    mem_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
    # The protocol uses a private copy of stdout; fd 1 then points to
    # /dev/null so that a snippet's prints cannot corrupt it (and what a
    # snippet writes to the copy has no key).
    proto = os.fdopen(os.dup(1), "w", buffering=1 << 16)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    native_limits(mem_bytes)
    real_exit = os._exit
    here = globals()
    fired = [False]
    # The running phase's wall-clock start, and whether a phase is running.
    started = [0.0, False]

    def on_alarm(sig, frame, *, _fired=fired, _here=here, _Timeout=Timeout,
                 _ALRM=signal.SIGALRM, _PROF=signal.ITIMER_PROF, _perf=time.perf_counter,
                 _getitimer=signal.getitimer, _setitimer=signal.setitimer, _t=timeout_s,
                 _w=backstop_s, _started=started, _share=blocked_share):
        if not _started[1]:
            # Between phases: an alarm of a phase that has ended (its outcome
            # already says whether it ran out), not re-armed.
            return
        if sig == _ALRM:
            # The job's wall-clock backstop ticks every 50 ms past its first
            # `_w` s: it stops only a phase that has run `_w` s and is blocked,
            # not computing (its CPU limit decides for one that computes).
            age = _perf() - _started[0]
            left = _getitimer(_PROF)[0]
            # left == 0: the CPU limit has expired and its own handler is due.
            # Raising here too would leave that one pending, to raise again
            # right after a snippet's `except` swallowed this one, where it can
            # escape the snippet's frame (a finalizer's loop then ends and the
            # job passes: hostile.json's finalizer_swallows did, under load).
            if age < _w or left == 0 or _t - left >= _share * age:
                return
        else:
            # The CPU limit, armed once: armed again so that a bare `except:`
            # that swallows this alarm gets another.
            _setitimer(_PROF, 0.05)
        _fired[0] = True
        # Raising inside the harness's own code would lose the phase; the
        # flag alone marks it TIMEOUT there.
        if frame is None or frame.f_globals is not _here:
            raise _Timeout()

    # Installed once: after install() nothing can replace them.
    signal.signal(signal.SIGPROF, on_alarm)
    signal.signal(signal.SIGALRM, on_alarm)
    harness = install(pyodide=False)
    state = harness["state"]
    end_job = harness["end_job"]
    module_dicts = harness["module_dicts"]
    # Filled in once this module's own namespace is emptied, below.
    saved_dicts = []
    skips = tuple(
        VOLATILE_KEYS | frozenset(k for (dd, k) in harness["self_written"] if dd is d)
        for d in module_dicts
    )
    encode = _json.make_encoder(None, None, _json.encode_basestring_ascii, None, ": ", ", ",
                                False, False, True)
    flushed = [time.perf_counter()]

    def seal(message, flush=False, *, _encode=encode, _join=str.join, _hmac=hmac_digest,
             _key=key, _enc=str.encode, _hex=bytes.hex, _write=proto.write, _flush=proto.flush,
             _perf=time.perf_counter, _flushed=flushed, _every=FLUSH_S):
        text = _join("", _encode(message, 0))
        _write(text + "\t" + _hex(_hmac(_key, _enc(text), "sha256")) + "\n")
        now = _perf()
        if flush or now - _flushed[0] >= _every:
            _flush()
            _flushed[0] = now

    def run_phase(item, *, _exec=exec, _setitimer=signal.setitimer, _REAL=signal.ITIMER_REAL,
                  _PROF=signal.ITIMER_PROF, _t=timeout_s, _w=backstop_s, _fired=fired,
                  _started=started, _perf=time.perf_counter, _AE=AssertionError,
                  _BE=BaseException, _name=error_name, _type=type, _str=str,
                  _Code=types.CodeType, _cleanup=harness["cleanup"],
                  _restore=harness["restore_self_written"], _LOAD=_LOAD, _CLEANUP=_CLEANUP):
        """One phase of a job, and the only harness frame under untrusted
        code: `item` is (index, code, ns, st), st = [the load's failure or
        None, stopped at a TIMEOUT]; returns (index, outcome or None, ms,
        cpu ms). A snippet can reach all of it, and none of it makes a pass:
        st only stops tests, and the outcome is this frame's return value.
        A phase that used more than the limit of CPU time is a TIMEOUT,
        interrupted or not. Its CPU time is what the one-shot ITIMER_PROF has
        left when it is cleared (a timer costs two system calls a phase; a
        clock read would cost two more); the wall-clock backstop is armed
        once per job, at its load, and cleared after its cleanup."""
        index = item[0]
        code = item[1]
        ns = item[2]
        st = item[3]
        if index == _CLEANUP:
            # Under the timers too: the snippet's finalizers run here.
            _started[0] = _perf()
            _started[1] = True
            _setitimer(_PROF, _t)
            try:
                _cleanup(ns)
                _restore()
            finally:
                _started[1] = False
                _setitimer(_PROF, 0)
                _setitimer(_REAL, 0)
            return (index, None, 0.0, 0.0)
        if index != _LOAD:
            if st[1] is True:
                return (index, "NOT_RUN", 0.0, 0.0)
            failed = st[0]
            if _type(failed) is _str and failed != "pass":
                # setup or code itself failed: every test shares that outcome.
                return (index, failed, 0.0, 0.0)
        _fired[0] = False
        if index == _LOAD:
            # The job's wall-clock backstop (see on_alarm).
            _setitimer(_REAL, _w, 0.05)
        t0 = _started[0] = _perf()
        _started[1] = True
        _setitimer(_PROF, _t)
        outcome = None
        try:
            if index == _LOAD:
                # The setup is test-side code (MBPP's test_setup_code,
                # HumanEval's test imports): as in those harnesses it runs
                # after the code, and may build fixtures from classes the
                # code defines (MBPP 367, 927). Either may not have compiled.
                for part in code:
                    if _type(part) is _Code:
                        _exec(part, ns)
                    elif part is not None:
                        outcome = part
                        break
            elif _type(code) is _Code:
                _exec(code, ns)
            else:
                # The test does not compile: its outcome is compiling's.
                return (index, code, 0.0, 0.0)
        except _AE:
            outcome = "FAIL"
        except _BE as e:
            outcome = _name(e)
        finally:
            _started[1] = False
            left = _setitimer(_PROF, 0)[0]
        # Expired (left 0, its alarm maybe not yet handled) or alarmed: over the limit.
        if _fired[0] or left == 0.0:
            return (index, "TIMEOUT", (_perf() - t0) * 1000.0, _t * 1000.0)
        return (index, outcome, (_perf() - t0) * 1000.0, (_t - left) * 1000.0)

    tests_cache = {}
    snippets_cache = {}
    snippet_chars = [0]

    def job_phases(job, bst, *, _compile=compile, _builtins=builtins, _tests=tests_cache,
                   _snippets=snippets_cache, _chars=snippet_chars, _limit=SNIPPET_CACHE_CHARS,
                   _entries=TEST_CACHE_ENTRIES, _len=len, _map=map, _range=range,
                   _BE=BaseException, _name=error_name, _seal=seal, _run=run_phase,
                   _LOAD=_LOAD, _CLEANUP=_CLEANUP):
        """A job's phases, compiled, as a lazy chain of (index, outcome, ms)
        records; none once the batch has stopped. Runs before the job's
        first phase; the caches it keeps are out of every snippet's reach."""
        if bst[0]:
            return ()
        jid, setup, source, tests, start, stop, careful = job

        def compiled(src, name, cache):
            """The code object, or the outcome of compiling it (not the
            exception, whose traceback would hold this frame)."""
            code = cache.get(src)
            if code is None:
                try:
                    code = _compile(src, name, "exec")
                except _BE as e:
                    # Does not compile: compiled (and failing) again next time.
                    return _name(e)
                cache[src] = code
            return code

        if _len(_tests) > _entries:
            _tests.clear()
        if source not in _snippets:
            if _chars[0] + _len(source) > _limit:
                _snippets.clear()
                _chars[0] = 0
            _chars[0] += _len(source)
        load = (compiled(source, "<snippet>", _snippets),
                compiled(setup, "<setup>", _tests) if setup else None)
        ns = {"__name__": "__main__", "__builtins__": _builtins}
        st = [None, False]
        n = _len(tests)
        items = [(_LOAD, load, ns, st)]
        for i in _range(start, n):
            items.append((i, compiled(tests[i], "<test>", _tests), ns, st))
        items.append((_CLEANUP, None, ns, st))

        def record(res, *, _st=st, _jid=jid, _n=n, _start=start, _stop=stop, _careful=careful,
                   _LOAD=_LOAD, _CLEANUP=_CLEANUP):
            index, outcome, ms, cpu = res
            if index == _CLEANUP:
                return res
            # -3, after the last test: the cleanup, where the snippet's
            # finalizers run; a death there is charged to the job.
            if index == _LOAD:
                if outcome is not None:
                    _st[0] = outcome
                nxt = _start if _start < _n else -3
            else:
                if _stop and outcome == "TIMEOUT":
                    _st[1] = True
                nxt = index + 1 if index + 1 < _n else -3
                if outcome is None:
                    outcome = "pass"
            if _careful:
                _seal({"id": _jid, "next": nxt, "o": outcome, "ms": ms, "cpu": cpu}, True)
            return res

        return _map(record, _map(_run, items))

    def finish(job, records, bst, *, _st=state, _end=end_job, _seal=seal, _TAMPER=TAMPER):
        """A job's outcomes, checked and sent: every one ERROR:Tamper when it
        tried what only tampering needs or left the interpreter changed."""
        jid = job[0]
        if not records:
            return (jid, None)
        outcomes = [[o or "pass", ms, cpu] for (i, o, ms, cpu) in records if i >= 0]
        tampered = _st[0] != 0 or _end() != 0
        if tampered:
            outcomes = [[_TAMPER, ms, cpu] for (_o, ms, cpu) in outcomes]
            bst[0] = True
        _seal({"id": jid, "r": outcomes})
        return (jid, tampered)

    def emit_batch(results, *, _seal=seal, _dicts=module_dicts, _saved=saved_dicts, _skips=skips,
                   _same=_same_items, _zip=zip, _exit=real_exit, _len=len):
        started = [r for r in results if r[1] is not None]
        for _jid, tampered in started:
            if tampered:
                _seal({"batch": "retire"}, True)
                _exit(0)
        for d, saved, skip in _zip(_dicts, _saved, _skips):
            if not _same(d, saved, skip):
                if _len(started) == 1:
                    # Run alone, after batches that all ended clean: its own doing.
                    _seal({"id": started[0][0], "tamper": True})
                    _seal({"batch": "retire"}, True)
                else:
                    _seal({"batch": "rerun", "ids": [jid for (jid, _t) in started]}, True)
                _exit(0)
        _seal({"batch": "done"}, True)

    def parse(line, *, _scan=scan, _decode=bytes.decode, _tuple=tuple):
        batch = _scan(_decode(line), 0)[0]
        careful = batch.get("careful", False)
        return _tuple(
            (j["id"], j["setup"], j["code"], _tuple(j["tests"]), j["start"], j.get("stop", False),
             careful)
            for j in batch["jobs"]
        )

    def batch_results(jobs, *, _map=map, _tuple=tuple, _repeat=repeat, _phases=job_phases,
                      _finish=finish):
        bst = [False]
        return _map(_finish, jobs, _map(_tuple, _map(_phases, jobs, _repeat(bst))), _repeat(bst))

    version = sys.version.split()[0]
    freeze = gc.freeze
    # Nothing of the harness stays in the module namespace: the module's
    # frame is at the bottom of every snippet's stack. (No global is read
    # from here on.)
    here.clear()
    saved_dicts.extend(tuple(d.items()) for d in module_dicts)
    # The harness's own objects are not a job's survivors.
    state[1] = 1
    freeze()
    state[1] = 0
    seal({"ready": version}, True)
    return map(emit_batch, map(tuple, map(batch_results, map(parse, iter(inp.readline, b"")))))


if __name__ == "__main__" and sys.platform != "emscripten":
    from collections import deque as _drain

    _drain(_native_main(), 0)
