"""Each build of narrow.py's graph run once per `waves` shape, for compute-sanitizer memcheck
(chasing the corruption in the README): any out-of-bounds access of the kernels is reported.

    HDS_EMITTED_DIR=... compute-sanitizer --tool memcheck python3 memcheck.py [INDEX...]
"""
import math
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]
import narrow  # noqa: E402


def main():
    graphs = {w: narrow.harness.build_graph(HERE / f"narrow_{w}.hds") for w in ("before", "after")}
    shapes = [narrow.WAVES[int(i)] for i in sys.argv[1:]] or narrow.WAVES
    for m, k, n in shapes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16) / math.sqrt(k)
        sizes = {"M": m, "K": k, "N": n}
        for w, g in graphs.items():
            out = torch.empty(m, n, device="cuda", dtype=torch.float16)
            err = g.run({"a": a, "b": b, "out": out}, sizes, g.workspace(sizes), 0)
            torch.cuda.synchronize()
            print(f"{m}x{k}x{n} {w}: err {err}, non-finite {int((~torch.isfinite(out)).sum())}", flush=True)


if __name__ == "__main__":
    main()
