"""More matmul_tiled.cu variants: the order of the products and fragment loads (ptxas schedules differ).
  serp: serpentine products (j forward for even i, backward for odd i)
  ji:   j outer, i inner
  rbf:  b fragments loaded before a's
  serpji: serpentine with j outer"""
import sys
from pathlib import Path
src = Path(sys.argv[1]).read_text(); root = Path(sys.argv[2])
fma = '''#pragma unroll
                for (int i = 0; i < TM; ++i) {  // matmul_simt.hds:101
#pragma unroll
                    for (int j = 0; j < TN; ++j) {  // matmul_simt.hds:102
                        acc[i][j] += ra[i] * rb[j];  // matmul_simt.hds:103
                    }
                }'''
assert fma in src
serp = '''#pragma unroll
                for (int i = 0; i < TM; ++i) {
#pragma unroll
                    for (int jj = 0; jj < TN; ++jj) {
                        const int j = i % 2 == 0 ? jj : TN - 1 - jj;
                        acc[i][j] += ra[i] * rb[j];
                    }
                }'''
ji = '''#pragma unroll
                for (int j = 0; j < TN; ++j) {
#pragma unroll
                    for (int i = 0; i < TM; ++i) {
                        acc[i][j] += ra[i] * rb[j];
                    }
                }'''
serpji = '''#pragma unroll
                for (int j = 0; j < TN; ++j) {
#pragma unroll
                    for (int ii = 0; ii < TM; ++ii) {
                        const int i = j % 2 == 0 ? ii : TM - 1 - ii;
                        acc[i][j] += ra[i] * rb[j];
                    }
                }'''
la = '''#pragma unroll
                for (int i = 0; i < TM; ++i) {  // matmul_simt.hds:95
                    ra[i] = sa[g][cur][kk][i / 4 * 64 + ty * 4 + i % 4];  // matmul_simt.hds:96
                }
'''
lb = '''#pragma unroll
                for (int j = 0; j < TN; ++j) {  // matmul_simt.hds:98
                    rb[j] = sb[g][cur][kk][j / 4 * 64 + tx * 4 + j % 4];  // matmul_simt.hds:99
                }
'''
assert la + lb in src
vs = {"serp": src.replace(fma, serp), "ji": src.replace(fma, ji), "rbf": src.replace(la + lb, lb + la),
      "serpji": src.replace(fma, serpji)}
for k, t in vs.items():
    (root / k).mkdir(parents=True, exist_ok=True)
    (root / k / "matmul_tiled.cu").write_text(t)
    (root / k / "matmul_tiled.h").write_text(Path(sys.argv[1]).with_suffix(".h").read_text())
