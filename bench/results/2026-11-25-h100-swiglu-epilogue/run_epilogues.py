"""Times the gate projection of the Llama MLP (f16 [T, 4096] @ [4096, 14336], sm_90a, T
symbolic) with each epilogue of its SwiGLU (ep_*.hds: none, silu, silu on ex2.approx,
`* u`, `silu(.) * u`, both on ex2.approx) side by side in one process (CUDA-graph replay,
alternating samples), with cuBLAS's product (torch.matmul) as the yardstick. From the
repository root on the GPU machine, after emitting ep_*.hds into .devcarry/emitted:

    python3 bench/results/2026-11-25-h100-swiglu-epilogue/run_epilogues.py --out DIR
"""
import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

HERE = Path(__file__).resolve().parent
NAMES = ["plain", "silu", "silu_fast", "mul", "swiglu", "swiglu_fast"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    graphs = {n: harness.build_graph(HERE / f"ep_{n}.hds") for n in NAMES}
    rows = []
    for t in (128, 1024, 4096):
        h = torch.randn(t, 4096, device="cuda", dtype=torch.float16)
        w = torch.randn(4096, 14336, device="cuda", dtype=torch.float16) / 64
        u = torch.randn(t, 14336, device="cuda", dtype=torch.float16)
        ref = (torch.nn.functional.silu((h @ w).float()) * u.float())
        fns = {"cublas": lambda s: torch.matmul(h, w)}
        outs = {}  # alive while the runs replay (they hold raw pointers)
        for n, g in graphs.items():
            out = outs[n] = torch.empty(t, 14336, device="cuda", dtype=torch.float16)
            sizes = {"T": t}
            ws = g.workspace(sizes)
            a = g.args({"h": h, "w": w, "u": u, "out": out}, sizes)
            assert g.run_fn(*a, ws.data_ptr(), torch.cuda.current_stream().cuda_stream) == 0
            torch.cuda.synchronize()
            if n.startswith("swiglu"):
                err = float((out.float() - ref).norm() / ref.norm())
                assert err < 1e-2, (n, err)
            fns[n] = lambda s, g=g, a=a, ws=ws: g.run_fn(*a, ws.data_ptr(), s)
        ms = graphs_ms(fns, calls=10, reps=15)
        row = {"T": t, **{f"{k}_us": v * 1e3 for k, v in ms.items()}}
        rows.append(row)
        print(f"T={t}: " + ", ".join(f"{k} {v * 1e3:.1f} µs" for k, v in ms.items()), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "epilogues.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows},
                                                        indent=1))


if __name__ == "__main__":
    main()
