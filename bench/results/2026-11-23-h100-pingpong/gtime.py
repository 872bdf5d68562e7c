"""Times one benchmark graph emitted into each folder given (HDS_EMITTED_DIR per folder), replayed from
CUDA graphs, alternating the variants, with torch eager and torch.compile beside them; checks each against eager.
    python3 .devcarry/gtime.py GRAPH SIZE DIR..."""
import os, sys
from pathlib import Path
import torch
sys.path.insert(0, "tests/gpu"); sys.path.insert(0, "bench")
import harness, models
from bench_core import graph_ms
name, size, dirs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
make, ref_fn, size_name, out_shape = models.MODELS[name]
inputs = make(size)
ref = ref_fn(**inputs)
comp = torch.compile(ref_fn)
comp(**inputs); comp(**inputs)
runs = {}
for d in dirs:
    os.environ["HDS_EMITTED_DIR"] = str(Path(d).resolve())
    g = harness.build_graph(models.source(name))
    out = torch.empty(out_shape(inputs), dtype=ref.dtype, device="cuda")
    ws = g.workspace({size_name: size})
    args = g.args({**inputs, "out": out}, {size_name: size})
    fn = (lambda g, args, ws: lambda s: g.run_fn(*args, ws.data_ptr(), torch.cuda.current_stream().cuda_stream))(g, args, ws)
    fn(0); torch.cuda.synchronize()
    err = float((out.double() - ref.double()).norm() / ref.double().norm())
    runs[d] = (fn, err, out)  # out: kept alive (the launcher only has its address)
times = {d: [] for d in dirs}; eager, compiled = [], []
for _ in range(5):
    for d in dirs:
        times[d].append(graph_ms(runs[d][0]))
    eager.append(graph_ms(lambda s: ref_fn(**inputs)))
    compiled.append(graph_ms(lambda s: comp(**inputs)))
e, c = sorted(eager)[2], sorted(compiled)[2]
print(f"{name}: eager {e * 1e3:.1f} us, torch.compile {c * 1e3:.1f} us")
for d in dirs:
    t = sorted(times[d])[2]
    print(f"{d:28s} {t * 1e3:6.1f} us  {e / t:.2f}x eager  {c / t:.2f}x compile  rel err {runs[d][1]:.1e}")
