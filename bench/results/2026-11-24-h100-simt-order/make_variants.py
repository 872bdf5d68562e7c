"""Experiment: hand-edited variants of the emitted matmul_tiled.cu (fp32 SIMT).
  pf:   fragments of k-step kk + 1 loaded (ra/rb double-buffered) before the products of kk
  pf2:  pf with __launch_bounds__(256, 2) (at most 128 registers)
python3 make.py SRC.cu OUTROOT"""
import re, sys
from pathlib import Path
src = Path(sys.argv[1]).read_text(); root = Path(sys.argv[2])
old_loop = src[src.index("#pragma unroll\n            for (int kk = 0; kk < 16; ++kk) {"):src.index("        if (s < steps && slice < slices) {  // matmul_simt.hds:108")]
new_loop = '''#pragma unroll
            for (int i = 0; i < TM; ++i) ra2[0][i] = sa[g][cur][0][i / 4 * 64 + ty * 4 + i % 4];
#pragma unroll
            for (int j = 0; j < TN; ++j) rb2[0][j] = sb[g][cur][0][j / 4 * 64 + tx * 4 + j % 4];
#pragma unroll
            for (int kk = 0; kk < 16; ++kk) {
                if (kk + 1 < 16) {
#pragma unroll
                    for (int i = 0; i < TM; ++i) ra2[(kk + 1) % 2][i] = sa[g][cur][kk + 1][i / 4 * 64 + ty * 4 + i % 4];
#pragma unroll
                    for (int j = 0; j < TN; ++j) rb2[(kk + 1) % 2][j] = sb[g][cur][kk + 1][j / 4 * 64 + tx * 4 + j % 4];
                }
#pragma unroll
                for (int i = 0; i < TM; ++i) {
#pragma unroll
                    for (int j = 0; j < TN; ++j) {
                        acc[i][j] += ra2[kk % 2][i] * rb2[kk % 2][j];
                    }
                }
            }
        }
'''
pf = src.replace(old_loop, new_loop).replace("alignas(16) float ra[8];", "alignas(16) float ra2[2][8];").replace("alignas(16) float rb[8];", "alignas(16) float rb2[2][8];")
for k, t in {"base": src, "pf": pf, "pf2": pf.replace("__launch_bounds__(256)", "__launch_bounds__(256, 2)"),
             "lb2": src.replace("__launch_bounds__(256)", "__launch_bounds__(256, 2)")}.items():
    (root / k).mkdir(parents=True, exist_ok=True)
    (root / k / "matmul_tiled.cu").write_text(t)
    (root / k / "matmul_tiled.h").write_text(Path(sys.argv[1]).with_suffix(".h").read_text())
