"""Makes the row-kernel variants of this folder from the emitted row sweeps (here, no GPU):

    python3 bench/results/2026-11-27-h200-row-blocks/variants.py [HDSC]

Each variant is the emitted graph with its `_run` sending some lengths N to a kernel of
rowvar.cuh (or, `cgpre`, the emitted clusters' branch reading the weight with the row), in
.devcarry/rows/NAME, built for sm_90a; run.py of ../2026-11-26-h100-row-weights times them.
"""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OUT = ROOT / ".devcarry" / "rows"
HDSC = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "hdsc")

RMS = "x, g, out, R, N"
LN = "x, g, b, out, R, N"
# name: (op, [(condition on N, kernel, threads per block, rows per block)])
VARIANTS = {
    "base": [("rms_norm_f16", []), ("layer_norm_f32", [])],
    "cgpre": [("rms_norm_f16", "cgpre")],
    "b1024g": [("rms_norm_f16", [("N > 8192 && N <= 32768", "rms_norm<1024, 1024, 4, true>", 1024, 1)])],
    "b1024h": [("rms_norm_f16", [("N > 8192 && N <= 16384", "rms_norm<1024, 1024, 2, false>", 1024, 1)])],
    "one256": [("rms_norm_f16", [("N > 1024 && N <= 8192", "rms_norm<256, 256, 4, false>", 256, 1)]),
               ("layer_norm_f32", [("N > 1024 && N <= 8192", "layer_norm<256, 256, 8, false>", 256, 1)])],
    "w32": [("rms_norm_f16", [("N > 64 && N <= 1024", "rms_norm<256, 32, 4, false>", 256, 8)]),
            ("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 32, 8, false>", 256, 8)])],
    # The same kernels held to the blocks per multiprocessor of the emitted kernel's registers (48 for
    # rms_norm f16, 56 for layer_norm f32) by unused shared memory: what one kernel for every regime gets.
    "b512o": [("rms_norm_f16", [("N > 8192 && N <= 16384", "rms_norm<512, 512, 4, false>", 512, 1, 100 << 10)])],
    "b1024o": [("rms_norm_f16", [("N > 8192 && N <= 32768", "rms_norm<1024, 1024, 4, false>", 1024, 1, 200 << 10)]),
               ("layer_norm_f32", [("N > 8192 && N <= 32768", "layer_norm<1024, 1024, 8, false>", 1024, 1, 200 << 10)])],
    "one256o": [("rms_norm_f16", [("N > 1024 && N <= 8192", "rms_norm<256, 256, 4, false>", 256, 1, 40 << 10)])],
    "w64o": [("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 64, 4, false>", 256, 4, 50 << 10)])],
    "w128o": [("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 128, 2, false>", 256, 2, 50 << 10)])],
    # layer_norm f32 at 16384 and 32768 values: a block of 512 / 1024 threads per row against the clusters.
    "b512": [("rms_norm_f16", [("N > 8192 && N <= 16384", "rms_norm<512, 512, 4, false>", 512, 1)]),
             ("layer_norm_f32", [("N > 8192 && N <= 16384", "layer_norm<512, 512, 8, false>", 512, 1)])],
    "b1024": [("rms_norm_f16", [("N > 8192 && N <= 32768", "rms_norm<1024, 1024, 4, false>", 1024, 1)]),
              ("layer_norm_f32", [("N > 8192 && N <= 32768", "layer_norm<1024, 1024, 8, false>", 1024, 1)])],
    # Rows of 256 to 2048 values (third/): lane groups of 32 to 256 threads, against the compiler's split kernels.
    "g32": [("rms_norm_f16", [("N > 64 && N <= 1024", "rms_norm<256, 32, 4, false>", 256, 8)]),
            ("layer_norm_f32", [("N > 64 && N <= 512", "layer_norm<256, 32, 4, false>", 256, 8),
                                ("N > 512 && N <= 1024", "layer_norm<256, 32, 8, false>", 256, 8)])],
    "g64": [("rms_norm_f16", [("N > 64 && N <= 512", "rms_norm<256, 64, 1, false>", 256, 4),
                              ("N > 512 && N <= 1024", "rms_norm<256, 64, 2, false>", 256, 4),
                              ("N > 1024 && N <= 2048", "rms_norm<256, 64, 4, false>", 256, 4)]),
            ("layer_norm_f32", [("N > 64 && N <= 256", "layer_norm<256, 64, 1, false>", 256, 4),
                                ("N > 256 && N <= 512", "layer_norm<256, 64, 2, false>", 256, 4),
                                ("N > 512 && N <= 1024", "layer_norm<256, 64, 4, false>", 256, 4),
                                ("N > 1024 && N <= 2048", "layer_norm<256, 64, 8, false>", 256, 4)])],
    "g128": [("rms_norm_f16", [("N > 64 && N <= 1024", "rms_norm<256, 128, 1, false>", 256, 2),
                               ("N > 1024 && N <= 2048", "rms_norm<256, 128, 2, false>", 256, 2)]),
             ("layer_norm_f32", [("N > 64 && N <= 512", "layer_norm<256, 128, 1, false>", 256, 2),
                                 ("N > 512 && N <= 1024", "layer_norm<256, 128, 2, false>", 256, 2),
                                 ("N > 1024 && N <= 2048", "layer_norm<256, 128, 4, false>", 256, 2)])],
    "g256": [("rms_norm_f16", [("N > 1024 && N <= 2048", "rms_norm<256, 256, 1, false>", 256, 1)]),
             ("layer_norm_f32", [("N > 1024 && N <= 2048", "layer_norm<256, 256, 2, false>", 256, 1)])],
    "w32g": [("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 32, 8, true>", 256, 8)])],
    "w64": [("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 64, 4, false>", 256, 4)])],
    "w128": [("rms_norm_f16", [("N > 64 && N <= 1024", "rms_norm<256, 128, 1, false>", 256, 2)]),
             ("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 128, 2, false>", 256, 2)])],
    "w128g": [("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 128, 2, true>", 256, 2)])],
    "w256": [("layer_norm_f32", [("N > 64 && N <= 1024", "layer_norm<256, 256, 1, false>", 256, 1)])],
}
MULTIPLE = {"rms_norm_f16": 8, "layer_norm_f32": 4}


def cgpre(cu: str) -> str:
    """The clusters' 16-byte branch with the weight's chunks read beside the row's."""
    start = cu.index("} else if (N % 8 == 0 && N <= 131072) {")
    end = cu.index("} else if (N <= 131072) {", start)
    branch = cu[start:end]
    branch = branch.replace("alignas(16) __half row_x[32];", "alignas(16) __half row_x[32];\n        alignas(16) __half row_g[32];")
    branch = branch.replace("hds::copy<16>(&row_x[c * 8], &x[i0 * N + first]);",
                            "hds::copy<16>(&row_x[c * 8], &x[i0 * N + first]);\n            hds::copy<16>(&row_g[c * 8], &g[first]);")
    old = "alignas(16) __half v_g[8];\n            hds::copy<16>(&v_g[0], &g[first]);"
    assert old in branch
    branch = branch.replace(old, "const __half* v_g = &row_g[c * 8];")
    return cu[:start] + branch + cu[end:]


def routed(cu: str, op: str, routes) -> str:
    args = LN if op == "layer_norm_f32" else RMS
    lines = []
    for cond, kernel, threads, rows, *smem in routes:
        smem = smem[0] if smem else 0  # dynamic shared memory, unused: as few blocks per SM as the emitted kernel's registers allow
        opt = f"        cudaFuncSetAttribute(rowvar::{kernel}, cudaFuncAttributeMaxDynamicSharedMemorySize, {smem});\n" if smem else ""
        lines.append(f"    if (N % {MULTIPLE[op]} == 0 && {cond}) {{  // variant: {kernel}\n{opt}"
                     f"        rowvar::{kernel}<<<(R + {rows - 1}) / {rows}, {threads}, {smem}, stream>>>({args});\n"
                     f"        return cudaGetLastError();\n    }}\n")
    at = cu.index("    cudaError_t err = cudaSuccess;")
    cu = cu[:at] + "".join(lines) + cu[at:]
    return cu.replace('#include "hds/runtime.h"\n', '#include "hds/runtime.h"\n#include "rowvar.cuh"\n', 1)


def build(name, op, how):
    out = OUT / name
    out.mkdir(parents=True, exist_ok=True)
    cu = out / f"sweep_{op}.cu"
    subprocess.run([HDSC, str(ROOT / "bench" / "sweep" / f"sweep_{op}.hds"), "-I", str(ROOT / "stdlib"), "-o", str(cu)],
                   check=True)
    text = cu.read_text()
    text = cgpre(text) if how == "cgpre" else routed(text, op, how) if how else text
    cu.write_text(text)
    r = subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"), "-I",
                    str(HERE), "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v", str(cu), "-o",
                    str(out / f"libsweep_{op}.so")], check=True, capture_output=True, text=True)
    (out / f"ptxas_{op}.txt").write_text(r.stderr)


# What each run built (`variants.py HDSC NAMES`): first/ every variant above g32 and the w* ones;
# second/ these; third/ (with this folder's compiler) base,g32,g64,g128,g256.
BUILD = ["base", "b512", "b1024", "b512o", "b1024o", "one256", "one256o", "w32", "w64", "w64o", "w128", "w128o"]


def main():
    import shutil
    shutil.rmtree(OUT, ignore_errors=True)
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else BUILD
    jobs = [(name, op, how) for name, ops in VARIANTS.items() if name in names for op, how in ops]
    with ThreadPoolExecutor(2) as pool:
        for f in [pool.submit(build, *j) for j in jobs]:
            f.result()
    print("\n".join(sorted(str(p.relative_to(ROOT)) for p in OUT.glob("*/*.so"))))


if __name__ == "__main__":
    main()
