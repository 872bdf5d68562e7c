"""Writes the two prototypes that run_protos.py times beside rms_base.cu (the
kernel hdsc emitted for bench/sweep/sweep_rms_norm_f16.hds before this change):
a copy of it whose `N <= 64` element-wise branch is replaced, renamed so that
all three load into one process.
  rms_rpt2.cu    2 rows per group of 8 threads (64 rows per block), both rows' loads first
  rms_staged.cu  the block's 32 rows copied through shared memory by consecutive threads
    python3 make_protos.py
"""
from pathlib import Path

HERE = Path(__file__).resolve().parent
BRANCHES = {
    "rpt2": "    } else if (N <= 64) {  // PROTOTYPE: 2 rows per group of 8 threads (64 rows per block), every row's loads first\n        const int base = (int)blockIdx.x * 64 + (int)threadIdx.x / 8;\n        __half row_x[2][8];\n#pragma unroll\n        for (int j = 0; j < 2; ++j) {\n            const int row = base + j * 32;\n            const int cols = row < R ? N : 0;\n#pragma unroll\n            for (int c = 0; c < 8; ++c) {\n                const int col = (int)threadIdx.x % 8 + c * 8;\n                if (col >= cols) {\n                    break;\n                }\n                row_x[j][c] = x[row * N + col];\n            }\n        }\n#pragma unroll\n        for (int j = 0; j < 2; ++j) {\n            const int row = base + j * 32;\n            const int i0 = row;\n            const int cols = row < R ? N : 0;\n            float rms_norm_ms_acc = 0.0f;\n#pragma unroll\n            for (int c = 0; c < 8; ++c) {\n                const int col = (int)threadIdx.x % 8 + c * 8;\n                if (col >= cols) {\n                    break;\n                }\n                rms_norm_ms_acc = rms_norm_ms_acc + hds::cast<float>(row_x[j][c]) * hds::cast<float>(row_x[j][c]);\n            }\n            rms_norm_ms_acc = rms_norm_ms_acc + __shfl_xor_sync(0xffffffffu, rms_norm_ms_acc, 4);\n            rms_norm_ms_acc = rms_norm_ms_acc + __shfl_xor_sync(0xffffffffu, rms_norm_ms_acc, 2);\n            rms_norm_ms_acc = rms_norm_ms_acc + __shfl_xor_sync(0xffffffffu, rms_norm_ms_acc, 1);\n            const float rms_norm_ms = rms_norm_ms_acc / static_cast<float>(N);\n#pragma unroll\n            for (int c = 0; c < 8; ++c) {\n                const int col = (int)threadIdx.x % 8 + c * 8;\n                if (col >= cols) {\n                    break;\n                }\n                out[i0 * N + col] = hds::cast<__half>(hds::cast<float>(row_x[j][c]) * rsqrtf(rms_norm_ms + 1e-06f) * hds::cast<float>(g[col]));\n            }\n        }\n",
    "staged": "    } else if (N <= 64) {  // PROTOTYPE: the block's 32 rows (contiguous) staged through shared memory, coalesced\n        __shared__ __half sx[32 * 64];\n        __shared__ __half so[32 * 64];\n        const int r0 = (int)blockIdx.x * 32;\n        const int span = min(32, R - r0) * N;\n#pragma unroll\n        for (int q = 0; q < 8; ++q) {\n            const int i = q * 256 + (int)threadIdx.x;\n            if (i < span) sx[i] = x[r0 * N + i];\n        }\n        __syncthreads();\n        const int local = (int)threadIdx.x / 8;\n        const int row = r0 + local;\n        const int cols = row < R ? N : 0;\n        __half row_x[8];\n#pragma unroll\n        for (int c = 0; c < 8; ++c) {\n            const int col = (int)threadIdx.x % 8 + c * 8;\n            if (col >= cols) {\n                break;\n            }\n            row_x[c] = sx[local * N + col];\n        }\n        float rms_norm_ms_acc = 0.0f;\n#pragma unroll\n        for (int c = 0; c < 8; ++c) {\n            const int col = (int)threadIdx.x % 8 + c * 8;\n            if (col >= cols) {\n                break;\n            }\n            rms_norm_ms_acc = rms_norm_ms_acc + hds::cast<float>(row_x[c]) * hds::cast<float>(row_x[c]);\n        }\n        rms_norm_ms_acc = rms_norm_ms_acc + __shfl_xor_sync(0xffffffffu, rms_norm_ms_acc, 4);\n        rms_norm_ms_acc = rms_norm_ms_acc + __shfl_xor_sync(0xffffffffu, rms_norm_ms_acc, 2);\n        rms_norm_ms_acc = rms_norm_ms_acc + __shfl_xor_sync(0xffffffffu, rms_norm_ms_acc, 1);\n        const float rms_norm_ms = rms_norm_ms_acc / static_cast<float>(N);\n#pragma unroll\n        for (int c = 0; c < 8; ++c) {\n            const int col = (int)threadIdx.x % 8 + c * 8;\n            if (col >= cols) {\n                break;\n            }\n            so[local * N + col] = hds::cast<__half>(hds::cast<float>(row_x[c]) * rsqrtf(rms_norm_ms + 1e-06f) * hds::cast<float>(g[col]));\n        }\n        __syncthreads();\n#pragma unroll\n        for (int q = 0; q < 8; ++q) {\n            const int i = q * 256 + (int)threadIdx.x;\n            if (i < span) out[r0 * N + i] = so[i];\n        }\n",
}


def main():
    base = (HERE / "rms_base.cu").read_text()
    start = base.index("    } else if (N <= 64) {")
    end = base.index("    } else if (N % 8 == 0 && N <= 1024) {")
    for name, branch in BRANCHES.items():
        s = base[:start] + branch + base[end:]
        if name == "rpt2":  # 64 rows per block in that branch
            s = s.replace("(long long)N <= 64 ? ((long long)R + 31) / 32", "(long long)N <= 64 ? ((long long)R + 63) / 64")
        graph = f"proto_rms_{name}"
        s = s.replace("sweep_rms_norm_f16", graph).replace('#include "rms_base.h"', f'#include "rms_{name}.h"')
        (HERE / f"rms_{name}.cu").write_text(s)
        (HERE / f"rms_{name}.h").write_text((HERE / "rms_base.h").read_text().replace("sweep_rms_norm_f16", graph))


if __name__ == "__main__":
    main()
