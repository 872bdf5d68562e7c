"""Makes the short-row variants of this folder from the emitted row sweeps (here, no GPU):

    python3 bench/results/2026-11-29-h200-short-stream/variants.py [HDSC]

`base` is the emitted graph; `stream` sends rows of up to 64 values to shortstream.cuh's
persistent kernels instead of the emitted `_lanes8` regime. Built for sm_90a into
.devcarry/rows/NAME; run.py of ../2026-11-26-h100-row-weights times them.
"""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OUT = ROOT / ".devcarry" / "rows"
HDSC = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "hdsc")

CALLS = {
    "softmax_f32": "shortstream::launch<float, 256>(x, out, R, N, shortstream::Softmax{}, stream)",
    "layer_norm_f32": "shortstream::launch<float, 256>(x, out, R, N, shortstream::LayerNorm{g, b}, stream)",
    "rms_norm_f16": "shortstream::launch<__half, 256>(x, out, R, N, shortstream::RmsNorm{g}, stream)",
}


def build(name, op):
    out = OUT / name
    out.mkdir(parents=True, exist_ok=True)
    cu = out / f"sweep_{op}.cu"
    subprocess.run([HDSC, str(ROOT / "bench" / "sweep" / f"sweep_{op}.hds"), "-I", str(ROOT / "stdlib"), "-o", str(cu)],
                   check=True)
    if name == "stream":
        text = cu.read_text()
        at = text.index("    cudaError_t err = cudaSuccess;")
        text = text[:at] + f"    if (N <= 64) return {CALLS[op]};  // variant\n" + text[at:]
        cu.write_text(text.replace('#include "hds/runtime.h"\n', '#include "hds/runtime.h"\n#include "shortstream.cuh"\n', 1))
    r = subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"), "-I",
                        str(HERE), "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v", str(cu), "-o",
                        str(out / f"libsweep_{op}.so")], check=True, capture_output=True, text=True)
    (out / f"ptxas_{op}.txt").write_text(r.stderr)


def main():
    import shutil
    shutil.rmtree(OUT, ignore_errors=True)
    jobs = [(name, op) for name in ("base", "stream") for op in CALLS]
    with ThreadPoolExecutor(2) as pool:
        for f in [pool.submit(build, *j) for j in jobs]:
            f.result()
    print("\n".join(sorted(str(p.relative_to(ROOT)) for p in OUT.glob("*/*.so"))))


if __name__ == "__main__":
    main()
