"""Per-kernel GPU times (bench/profile_graphs.py's kernel_table) of ResNet-18 (f16, inference,
tests/python/torch_models.py) under torch.compile(backend="hds") against torch.compile's
(inductor) kernels, batch 32 and 1. On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-resnet-profile/resnet_kernels.py OUT_DIR
"""
import json
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
sys.path.insert(0, str(ROOT / "bench"))
import hds.dynamo  # noqa: E402
import torch_models as models  # noqa: E402
from profile_graphs import kernel_table, section  # noqa: E402

out = Path(sys.argv[1])
res = {}
for batch in (32, 1):
    torch.manual_seed(0)
    model = models.ResNet18().eval().to("cuda", torch.float16)
    for p in model.parameters():
        p.data.mul_(0.5)
    x = torch.randn(batch, 3, 224, 224, device="cuda", dtype=torch.float16)
    with torch.no_grad():
        os.environ["HDS_DEBUG_DIR"] = str(out / f"debug-b{batch}")
        torch._dynamo.reset()
        ours = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)
        ours(x)
        torch._dynamo.reset()
        comp = torch.compile(model)
        comp(x)
        torch.cuda.synchronize()
        res[batch] = {"hds": kernel_table(lambda: ours(x)), "compile": kernel_table(lambda: comp(x))}
    for side in ("hds", "compile"):
        print(section(f"batch {batch}, {side}", res[batch][side]))
(out / "profile.json").write_text(json.dumps(res, indent=1))
