"""matmul_wgmma against matmul_wgmma_nt (b as nn.Linear keeps its weight, [N, K]; nt.hds) at the same
tiles, with cuBLAS on both layouts (`nn`: torch.mm(a, b), `tn`: F.linear(a, w)), side by side in
one process, alternating samples, CUDA-graph replay of ten calls, two runs. On the GPU machine,
after `hdsc nt.hds -I stdlib -I <here> -o .devcarry/gemmtiles/nt/nt.cu` (run.sh):

    python3 bench/results/2026-11-28-h100-gemm-tiles/run_nt.py --out DIR
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import rel_err  # noqa: E402

# name: M, K, N, the kernels' tile (nn.hds's for the shape, and 128 x 256)
SHAPES = {"gate1k": (1024, 4096, 14336, "128"), "down1k": (1024, 14336, 4096, "128"),
          "q1k": (1024, 4096, 4096, "128"), "kv1k": (1024, 4096, 1024, "64"),
          "gate512": (512, 4096, 11008, "128"), "down512": (512, 11008, 4096, "128"),
          "gate4k": (4096, 4096, 14336, "256"), "q4k": (4096, 4096, 4096, "256")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "gemmtiles" / "nt")
    lib = harness.build(HERE / "nt.hds")
    rows = []
    for run in (1, 2):
        for name, (m, k, n, tile) in SHAPES.items():
            a = torch.randn(m, k, device="cuda", dtype=torch.float16)
            w = torch.randn(n, k, device="cuda", dtype=torch.float16) / k ** 0.5
            b = w.t().contiguous()
            ref = a @ b
            fns = {"nn": lambda s: torch.mm(a, b), "tn": lambda s: F.linear(a, w)}
            outs = []  # (the launchers get raw pointers: the outputs must outlive the timing)
            for kind, operand in (("nn", b), ("nt", w)):
                kernel = f"{kind}{tile}"
                out = torch.full_like(ref, float("nan"))
                outs.append(out)
                fn = lib.launchers[kernel].fn
                argv = [a.data_ptr(), operand.data_ptr(), out.data_ptr(), m, k, n]
                assert fn(*argv, None) == 0, kernel
                torch.cuda.synchronize()
                assert rel_err(out, ref) < 2e-3, (name, kernel)
                fns[kernel] = lambda s, fn=fn, argv=argv: fn(*argv, s)
            t = graphs_ms(fns, calls=10, reps=15)
            rows.append({"gemm": name, "run": run, **{f"{x}_us": v * 1e3 for x, v in t.items()}})
            print(f"run{run} {name}: cuBLAS nn {t['nn'] * 1e3:.1f} tn {t['tn'] * 1e3:.1f} us; " +
                  " ".join(f"{x} {t[x] * 1e3:.1f} ({t['tn'] / t[x]:.2f}x)" for x in fns if x not in ("nn", "tn")),
                  flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "nt.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
