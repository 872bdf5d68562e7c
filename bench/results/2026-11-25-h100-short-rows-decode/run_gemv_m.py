"""matmul_gemv (this tree's sweep graphs, .devcarry/emitted) against the tree
before it (.devcarry/base: matmul_skinny / matmul_skinny_simt at M <= 16) and
cuBLAS, M = 1 .. 5, side by side in one process, twice. Where the rows of b
are 16-byte multiples (f16) both trees run matmul_skinny.
    python3 run_gemv_m.py OUTDIR
"""
import json, math, os, sys
from pathlib import Path
import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests" / "gpu")); sys.path.insert(0, str(ROOT / "bench"))
import harness
from bench_core import graphs_ms

out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
graphs = {}
for tree, d in (("new", ROOT / ".devcarry/emitted"), ("base", ROOT / ".devcarry/base")):
    os.environ["HDS_EMITTED_DIR"] = str(d)
    for t in ("f16", "f32"):
        graphs[tree, t] = harness.build_graph(ROOT / f"bench/sweep/sweep_gemm_{t}.hds")
torch.backends.cuda.matmul.allow_tf32 = False
rows = []
plans = [("f16", torch.float16, [(4095, 4097), (11007, 4096), (4096, 11007)]),
         ("f32", torch.float32, [(4096, 4096), (1000, 1003), (4095, 4097), (11008, 4096)])]
for run in (1, 2):
    for t, dt, shapes in plans:
        for k, n in shapes:
            b = torch.randn(k, n, device="cuda", dtype=dt) / math.sqrt(k)
            for m in (1, 2, 3, 4, 5):
                a = torch.randn(m, k, device="cuda", dtype=dt)
                ref = a.double() @ b.double()
                fns, errs = {"cublas": lambda s: torch.matmul(a, b)}, {}
                for tree in ("new", "base"):
                    g = graphs[tree, t]
                    o = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
                    sizes = {"M": m, "K": k, "N": n}
                    ws = g.workspace(sizes)
                    assert g.run({"a": a, "b": b, "out": o}, sizes, ws) == 0
                    torch.cuda.synchronize()
                    errs[tree] = float((o.double() - ref).norm() / ref.norm()) if torch.isfinite(o).all() else float("inf")
                    fns[tree] = lambda s, g=g, o=o, ws=ws, sizes=sizes: g.run({"a": a, "b": b, "out": o}, sizes, ws, s)
                tm = graphs_ms(fns, calls=10, reps=15)
                rows.append({"run": run, "type": t, "M": m, "K": k, "N": n, **{x + "_us": y * 1e3 for x, y in tm.items()},
                             "errs": errs})
                print(f"run {run} {t} M={m} K={k} N={n}: new {tm['new']*1e3:.1f} base {tm['base']*1e3:.1f} "
                      f"cublas {tm['cublas']*1e3:.1f} us; vs cuBLAS new {tm['cublas']/tm['new']:.2f} "
                      f"base {tm['cublas']/tm['base']:.2f}; errs {errs['new']:.1e} {errs['base']:.1e}", flush=True)
(out / "gemv_m.json").write_text(json.dumps(rows, indent=1))
