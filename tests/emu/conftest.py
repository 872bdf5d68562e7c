"""The emulator tests need only the hdsc binary: they run in CI without a GPU."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import os  # noqa: E402

import pytest  # noqa: E402

# scripts/test.sh --sanitize runs hdsc under AddressSanitizer and UBSan (ASAN_OPTIONS is set),
# about ten times slower: there the large numerics cases of the sm_90a schedules give way to
# their small ones, which reach the same code (the plain pass runs them all).
UNDER_SANITIZERS = bool(os.environ.get("ASAN_OPTIONS"))


def skip_large_under_sanitizers(work: int, limit: int = 2_000_000):
    """Skips a case of `work` multiply-adds (or elements) over `limit` in the sanitizer pass."""
    if UNDER_SANITIZERS and work > limit:
        pytest.skip("large case: run in the plain pass (the sanitizer pass runs the small ones)")
