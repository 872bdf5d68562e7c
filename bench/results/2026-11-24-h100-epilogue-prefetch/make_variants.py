"""Experiment: where mm_bias_gelu's epilogue time goes (emitted mm_bias_gelu.cu, hand-edited).
  plain:   whole tiles copied from shared memory to out as they are (wrong result; bound)
  nogelu:  bias add only (wrong result; bound)
  hoist:   the 4 bias chunks of a tile (one per q) loaded before the q loop
  early:   the 4 bias chunks loaded at the start of the tile, before its k-loop
python3 make.py SRC.cu OUTROOT"""
import re, sys
from pathlib import Path
src = Path(sys.argv[1]).read_text(); root = Path(sys.argv[2]); name = Path(sys.argv[1]).name
bias_line = "                        hds::copy<16>(&v_b[0], &b[n0 + q * 64 + lane % 8 * 8]);\n"
assert bias_line in src
decl = "                        alignas(16) __half v_b[8];\n"
assert decl in src
gelu = "hds::cast<__half>(hds::gelu(hds::cast<float>(v_add[e_2])))"
assert gelu in src
v = {"base": src}
# plain: v_out = v_matmul
v["plain"] = src.replace("v_out[e_2] = " + gelu, "v_out[e_2] = v_matmul[e_2]").replace(bias_line, "").replace(
    "v_add[e] = hds::cast<__half>(hds::cast<float>(v_matmul[e]) + hds::cast<float>(v_b[e]));", "v_add[e] = v_matmul[e];")
v["nogelu"] = src.replace("v_out[e_2] = " + gelu, "v_out[e_2] = v_add[e_2]")
loop = "#pragma unroll\n            for (int q = 0; q < 4; ++q) {  // matmul_wgmma.hds:157\n"
assert loop in src
hoisted = src.replace(decl + bias_line, "").replace("&v_b[0]", "&v_bq[q][0]").replace("v_b[e]", "v_bq[q][e]")
pre = ("            alignas(16) __half v_bq[4][8];\n#pragma unroll\n            for (int q = 0; q < 4; ++q) hds::copy<16>(&v_bq[q][0], &b[n0 + q * 64 + lane % 8 * 8]);\n")
v["hoist"] = hoisted.replace(loop, pre.replace("lane % 8", "(t % 32) % 8") + loop)
kloop = "            for (int kt = 0; kt < ktiles; ++kt) {  // matmul_wgmma.hds:108\n"
assert kloop in src
v["early"] = hoisted.replace(kloop, pre.replace("lane % 8", "(t % 32) % 8") + kloop)
for k, t in v.items():
    (root / k).mkdir(parents=True, exist_ok=True)
    (root / k / name).write_text(t)
    (root / k / Path(name).with_suffix(".h").name).write_text(Path(sys.argv[1]).with_suffix(".h").read_text())
