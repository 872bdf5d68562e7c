"""The emulator tests need only the hdsc binary: they run in CI without a GPU."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

