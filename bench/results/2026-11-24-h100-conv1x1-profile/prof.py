"""Runs conv1x1_f16 (hds, from HDS_EMITTED_DIR) or torch's conv2d a few times, for ncu.
    python3 .devcarry/c1/prof.py hds|torch"""
import sys
import torch
sys.path.insert(0, "tests/gpu"); sys.path.insert(0, "bench")
import harness, models
torch.backends.cudnn.benchmark = True
make, ref_fn, size_name, out_shape = models.MODELS["conv1x1_f16"]
inputs = make(32)
if sys.argv[1] == "torch":
    for _ in range(6):
        ref_fn(**inputs)
else:
    g = harness.build_graph(models.source("conv1x1_f16"))
    out = torch.empty(out_shape(inputs), dtype=torch.float16, device="cuda")
    ws = g.workspace({size_name: 32})
    for _ in range(6):
        g.run({**inputs, "out": out}, {size_name: 32}, ws)
torch.cuda.synchronize()
