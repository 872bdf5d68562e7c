"""ResNet-18's convolutions at batch 1 under Nsight Compute: each graph as build.sh emitted it
with each stdlib (.devcarry/convsplit/SET), checked against torch, two calls each between
cudaProfilerStart/Stop. On the GPU machine:

    ncu --profile-from-start off --clock-control none --section ... python3 prof.py [NAME ...]
"""
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
from stdlib_sets import profile_points, set_points  # noqa: E402

RES = ROOT / "bench" / "results"
# name: (folder of convs/conv_NAME.hds, C, O, H, stride, k)
CONVS = {"c64": ("2026-11-27-h200-conv-split", 64, 64, 56, 1, 3),
         "c256": ("2026-11-27-h200-conv-split", 256, 256, 14, 1, 3),
         "c512": ("2026-11-27-h200-conv-split", 512, 512, 7, 1, 3),
         "d256": ("2026-11-27-h200-conv1x1-split", 256, 512, 14, 2, 1),
         "stem": ("2026-11-28-h200-conv-reduce", 3, 64, 224, 2, 7)}
SETS = (ROOT / ".devcarry" / "convsplit" / "sets").read_text().split()
points = []
for name in sys.argv[1:] or CONVS:
    folder, c, o, h, s, k = CONVS[name]
    x = torch.randn(1, c, h, h, device="cuda", dtype=torch.float16)
    w = torch.randn(o, c, k, k, device="cuda", dtype=torch.float16) / (k * c ** 0.5)
    ref = torch.relu(torch.nn.functional.conv2d(x, w, stride=s, padding=k // 2))
    sets = [st for st in SETS if (ROOT / ".devcarry" / "convsplit" / st / f"conv_{name}.cu").exists()]
    points += set_points(ROOT / ".devcarry" / "convsplit", sets, RES / folder / "convs" / f"conv_{name}.hds",
                         {"x": x, "w": w}, ref).values()
profile_points(points)
