"""Execution-oracle driver: the Python half of the sandbox, for both runtimes.

The code under test runs in this interpreter, so no verdict may be decided
where that code can reach. Who decides:

- Pyodide: the worker's JavaScript (pyodide_worker.ts). It calls
  ``install()`` once, before any snippet, keeps the objects it returns, and
  runs each phase (the snippet, the setup, each test) itself through
  Pyodide's C API: no Python frame of the harness is on the stack under a
  test, and a test passed exactly when ``PyEval_EvalCode`` returned.
- Native: ``_native_main()`` builds the worker as one lazy chain of C
  iterators (``map``) over small functions. Under untrusted code the Python
  frames on the stack are the module's own (its namespace emptied) and
  ``run_phase``'s, which hold one phase's code object and namespace and
  nothing else; the functions that record outcomes, check the worker and
  seal each message with the parent's key run only between phases, and no
  frame or object on the stack under a snippet refers to them. The parent
  (native_slots.ts) takes only sealed lines.

After every job both runtimes check that it left the interpreter as it
found it (``end_job``; Pyodide also watches every module's and class's
namespace from JavaScript, native checks the module namespaces after every
batch). A job that did not, or that tried what only tampering needs (gc
introspection, trace, profile or audit hooks, signal handlers, the
JavaScript bridge, rewriting functions' code), gets ``ERROR:Tamper`` on every
test, and its worker runs no other job. The audit hook is one layer of this,
not the wall. It also refuses process spawning, sockets, ctypes, writes to
files and reads outside the standard library: a second line behind the
worker's permissions (Pyodide) or its rlimits and network namespace (native).

Every function here that runs after ``install()`` takes what it uses from
its own default arguments, never from module globals or builtins (which a
snippet may rebind); none calls a method of an object a snippet made, or a
standard-library function written in Python (a snippet may rebind what it
uses); and none that holds the harness's state or key runs while snippet
code can (no finalizer, gc callback or signal handler of a snippet's).
"""

# The driver's parts, run after this file as one program in one namespace (the
# order matters: each part uses what the ones before it define): driver_policy,
# driver_preload, driver_sandbox, driver_harness, driver_native. Not modules:
# src/oracle/driver_source.ts joins the files into the text both runtimes run.

import builtins
import gc
import io
import os
import sys
import time
import types

# Modules snippets commonly import: loading them here keeps them in the
# Pyodide memory snapshot and out of the timed phases.
import bisect  # noqa: F401
import collections  # noqa: F401
import copy  # noqa: F401
import datetime  # noqa: F401
import decimal
import fractions  # noqa: F401
import functools  # noqa: F401
import heapq  # noqa: F401
import itertools  # noqa: F401
import json  # noqa: F401
import math  # noqa: F401
import operator  # noqa: F401
import random  # noqa: F401
import re  # noqa: F401
import statistics  # noqa: F401
import string  # noqa: F401
import typing  # noqa: F401
import warnings  # noqa: F401

