"""ResNet-18's 1 x 1 stride-2 convolutions at batch 1 (convs/*.hds, ReLU after), as build.sh emitted
them with each stdlib, side by side with torch eager (cuDNN) in one process, alternating
samples, CUDA-graph replay of ten calls: ../2026-11-27-h200-conv-split/run.py with 1 x 1 filters.
On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-conv1x1-split/run.py --out DIR
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "2026-11-27-h200-conv-split"))
import run as conv_split  # noqa: E402

SHAPES = [("d64", 64, 128, 56, 2), ("d128", 128, 256, 28, 2), ("d256", 256, 512, 14, 2)]

if __name__ == "__main__":
    conv_split.main(SHAPES, k=1, here=HERE)
