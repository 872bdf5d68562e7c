"""The emulator tests need only the hdsc binary: they run in CI without a GPU."""
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from emulator import UNDER_SANITIZERS  # noqa: E402

# Under the sanitizers (scripts/test.sh --sanitize) hdsc runs several times slower: there a
# parametrized test runs one case in SANITIZER_SAMPLE (a fixed choice, by its id's CRC), besides
# the input limit of emulator.run. Each test keeps at least its first case; the plain pass runs
# them all (CI's time: docs/testing.md).
SANITIZER_SAMPLE = 4


def pytest_collection_modifyitems(config, items):
    if not UNDER_SANITIZERS:
        return
    kept, dropped, first = [], [], set()
    for item in items:
        callspec = getattr(item, "callspec", None)
        name = item.nodeid.split("[")[0]
        if callspec is None or name not in first or zlib.crc32(item.nodeid.encode()) % SANITIZER_SAMPLE == 0:
            kept.append(item)
            first.add(name)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
