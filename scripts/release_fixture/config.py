"""The fixture's fixed settings: seeds, cut-offs, the paper's bug types, where it is written."""

import datetime
import os


SEED = 20260510
KS = (1, 3, 5, 10)
TOP = 10
BOOTSTRAP_SAMPLES = 5000
# Per test, in CPU time (ITIMER_PROF): no test of a fixture task comes near
# it, and a busy machine does not turn a slow one into a TIMEOUT; the one
# candidate that loops forever (binary search's "once") costs this per test.
TEST_TIMEOUT_S = 0.25
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
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(REPO, "test", "fixtures", "release", "paper")
