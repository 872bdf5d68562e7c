"""Makes the persistent row-kernel variants of this folder from the emitted row sweeps (here, no GPU):

    python3 bench/results/2026-11-29-h200-row-stream/variants.py [HDSC]

`base` is the emitted graph; `stream` sends f32 rows of 2049-32768 values (N % 4 == 0) and f16
rows of 2049-32768 (N % 8 == 0) to rowstream.cuh's kernels instead of the emitted regimes,
and longer ones up to 131072 to its clusters. Built
for sm_90a into .devcarry/rows/NAME; run.py of ../2026-11-26-h100-row-weights times them.
"""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OUT = ROOT / ".devcarry" / "rows"
HDSC = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "hdsc")

ARGS = {"softmax_f32": "x, out", "layer_norm_f32": "x, g, b, out", "rms_norm_f16": "x, g, out"}
MULTIPLE = {"softmax_f32": 4, "layer_norm_f32": 4, "rms_norm_f16": 8}
F32 = [(2048, 4096, 256, 4, 1), (4096, 8192, 512, 4, 1), (8192, 16384, 512, 8, 1), (16384, 32768, 1024, 8, 1)]
F16 = [(2048, 4096, 256, 2, 1), (4096, 8192, 512, 2, 1), (8192, 16384, 512, 4, 1), (16384, 32768, 1024, 4, 1)]
# Past a block: clusters of blocks of 256 threads holding 8 chunks each.
F32C = [(32768, 65536, 256, 8, 8), (65536, 131072, 256, 8, 16)]
F16C = [(32768, 65536, 256, 8, 4), (65536, 131072, 256, 8, 8)]
# name: {op: [(N above, N up to, threads, 16-byte chunks a thread, blocks a row)]}
VARIANTS = {
    "base": {},
    "stream": {"softmax_f32": F32 + F32C, "layer_norm_f32": F32 + F32C, "rms_norm_f16": F16 + F16C},
}


def routed(cu: str, op: str, routes) -> str:
    kernel = op.rsplit("_", 1)[0]
    lines = []
    for lo, hi, threads, ch, c in routes:
        k = f"rowstream::{kernel}<{threads}, {ch}, {c}>"
        lines.append(f"    if (N % {MULTIPLE[op]} == 0 && N > {lo} && N <= {hi})  // variant: {k}\n"
                     f"        return rowstream::launch<{threads}, {ch}, {c}>({k}, R, stream, {ARGS[op]}, R, N);\n")
    at = cu.index("    cudaError_t err = cudaSuccess;")
    cu = cu[:at] + "".join(lines) + cu[at:]
    return cu.replace('#include "hds/runtime.h"\n', '#include "hds/runtime.h"\n#include "rowstream.cuh"\n', 1)


def build(name, op, routes):
    out = OUT / name
    out.mkdir(parents=True, exist_ok=True)
    cu = out / f"sweep_{op}.cu"
    subprocess.run([HDSC, str(ROOT / "bench" / "sweep" / f"sweep_{op}.hds"), "-I", str(ROOT / "stdlib"), "-o", str(cu)],
                   check=True)
    if routes:
        cu.write_text(routed(cu.read_text(), op, routes))
    r = subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"), "-I",
                        str(HERE), "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v", str(cu), "-o",
                        str(out / f"libsweep_{op}.so")], check=True, capture_output=True, text=True)
    (out / f"ptxas_{op}.txt").write_text(r.stderr)


def main():
    import shutil
    shutil.rmtree(OUT, ignore_errors=True)
    jobs = [(name, op, VARIANTS[name].get(op)) for name in VARIANTS for op in ARGS]
    with ThreadPoolExecutor(2) as pool:
        for f in [pool.submit(build, *j) for j in jobs]:
            f.result()
    print("\n".join(sorted(str(p.relative_to(ROOT)) for p in OUT.glob("*/*.so"))))


if __name__ == "__main__":
    main()
