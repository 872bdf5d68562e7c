"""ResNet-18's stem (3 -> 64 channels, 7 x 7, stride 2, 224 x 224, batch 1; ReLU after it) as
../2026-11-28-h200-conv-reduce/build.sh emitted it with each stdlib, side by side with torch
eager (cuDNN): ../2026-11-27-h200-conv-split/run.py's measurement. On the GPU machine:

    python3 bench/results/2026-11-28-h100-stem-gather/run.py --out DIR
"""
import sys
from pathlib import Path

RES = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(RES / "2026-11-27-h200-conv-split"))
import run as conv_split  # noqa: E402

if __name__ == "__main__":
    conv_split.main([("stem", 3, 64, 224, 2)], k=7, here=RES / "2026-11-28-h200-conv-reduce")
