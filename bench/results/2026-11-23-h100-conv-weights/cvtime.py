"""Times conv3x3_f16 (N=32) emitted into each folder given (HDS_EMITTED_DIR per folder), replayed from
CUDA graphs, alternating the variants, with cuDNN (eager) beside them; checks each against eager."""
import os, sys
from pathlib import Path
import torch
sys.path.insert(0, "tests/gpu"); sys.path.insert(0, "bench")
import harness, models
from bench_core import graph_ms
dirs = sys.argv[1:]
make, ref_fn, size_name, out_shape = models.MODELS["conv3x3_f16"]
inputs = make(32)
ref = ref_fn(**inputs)
runs = {}
for d in dirs:
    os.environ["HDS_EMITTED_DIR"] = str(Path(d).resolve())
    g = harness.build_graph(models.source("conv3x3_f16"))
    out = torch.empty(out_shape(inputs), dtype=torch.float16, device="cuda")
    ws = g.workspace({"N": 32})
    args = g.args({**inputs, "out": out}, {"N": 32})
    fn = (lambda g, args, ws: lambda s: g.run_fn(*args, ws.data_ptr(), torch.cuda.current_stream().cuda_stream))(g, args, ws)
    fn(0); torch.cuda.synchronize()
    err = float((out.double() - ref.double()).norm() / ref.double().norm())
    runs[d] = (fn, err, out)  # out: kept alive (the launcher only has its address)
times = {d: [] for d in dirs}; eager = []
for _ in range(5):
    for d in dirs:
        times[d].append(graph_ms(runs[d][0]))
    eager.append(graph_ms(lambda s: ref_fn(**inputs)))
e = sorted(eager)[2]
print(f"cuDNN (eager) {e * 1e3:.1f} us")
for d in dirs:
    t = sorted(times[d])[2]
    print(f"{d:28s} {t * 1e3:6.1f} us  {e / t:.2f}x cuDNN  rel err {runs[d][1]:.1e}")
