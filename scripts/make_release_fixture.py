#!/usr/bin/env python3
"""Write a stand-in for the ExecRetrieval paper's release bundle (issue 14).

The release (dataset repository anonpapersubmission01/execretrieval, revision
ace5c3f) cannot be downloaded from these machines. This script writes a bundle
in its documented layout -- data/, results/, embeddings/, tests/, eval/,
generation/, requirements.txt, pip_freeze.txt, SHA256SUMS, sanity_check.py,
README.md -- where every released number is computed here, with numpy and
scipy, independently of the kit's TypeScript code. Execution outcomes come from
really running the snippets (one CPython process, a fresh namespace per
snippet, a limit of 0.25 s of CPU time per test).

Usage (the python3 on PATH: Python 3.11 with numpy and scipy):
  python3 scripts/make_release_fixture.py
      -> test/fixtures/release/paper/ (24 queries, 3 dense systems + BM25)
  python3 scripts/make_release_fixture.py --out /tmp/release_full \\
      --queries 939 --systems 23 --dims 1024,1536,2048,3072,4096
      -> a real-size bundle (939 queries, 4,694 snippets, 23 dense systems + BM25)

Deterministic: fixed seeds, no timestamps (zip entries carry 1980-01-01), so
two runs write byte-identical files; and every number it rounds is an exact
sum rounded once (release_fixture/exact.py), so another BLAS or CPU writes
the same bytes too (exact.py says what is left to the platform).
test/fixtures/release/PAPER_FIXTURE.md says which parts are documented facts
of the release and which are our choices.
"""
import argparse
import os
import signal
import sys

from release_fixture.bundle import write_bundle
from release_fixture.config import DEFAULT_OUT
from release_fixture.execution import on_alarm


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
    signal.signal(signal.SIGPROF, on_alarm)
    sys.setrecursionlimit(1000)
    log = lambda msg: print(msg, file=sys.stderr)
    queries, corpus, cache = write_bundle(os.path.abspath(args.out), args.queries, args.systems,
                                          dims, log)
    log("wrote %s: %d queries, %d snippets, %d dense systems + BM25"
        % (args.out, len(queries), len(corpus), args.systems))


if __name__ == "__main__":
    main(sys.argv[1:])
