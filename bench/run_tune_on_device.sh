#!/usr/bin/env bash
# `hdsc tune` on the lent GPU machine over the GEMM graphs of bench/tune and
# the sm_90a benchmark graphs of bench/graphs, then the f32 examples (level 2: every candidate; LEVEL=1
# for fewer), with cuBLAS timed beside the GEMMs for reference. Needs .devcarry
# from scripts/emit_for_device.sh (hdsc and its libraries). Writes
# $OUT/hds-tune.json (the cache: commit it as bench/hds-tune.json, which
# emit_for_device.sh then compiles with) and $OUT/tune.txt (the log).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
export LD_LIBRARY_PATH=$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
declare -A sizes=([mlp_sm90a]=B=2048 [mm_bias_gelu]=M=4096 [conv1x1_f16]=N=32 [conv3x3_f16]=N=32)  # as bench/bench_graphs.py times them
for f in bench/tune/*.hds bench/graphs/*.hds; do
    name=$(basename "$f" .hds)
    .devcarry/bin/hdsc tune "$f" -I stdlib --arch=sm_90a --level "${LEVEL:-2}" --cache "$out/hds-tune.json" \
        --sizes "${sizes[$name]:-}" --runtime runtime 2>&1 | tee -a "$out/tune.txt"
done
# The f32 example graphs (SIMT schedules) for sm_80, the target they are emitted for.
for spec in transformer_block:S=1024 resnet_block:N=16; do
    .devcarry/bin/hdsc tune "examples/${spec%%:*}.hds" -I stdlib --arch=sm_80 --level "${LEVEL:-2}" \
        --cache "$out/hds-tune.json" --sizes "${spec#*:}" --runtime runtime 2>&1 | tee -a "$out/tune.txt"
done
python3 - <<'PY' 2>&1 | tee -a "$out/tune.txt"
import sys
import torch
sys.path.insert(0, "bench")
from bench_core import median_ms
for m, n, k in [(4096, 4096, 4096), (1024, 1024, 1024), (128, 4096, 4096)]:
    a, b = torch.randn(m, k, device="cuda").half(), torch.randn(k, n, device="cuda").half()
    print(f"cuBLAS {m}x{n}x{k} f16: {median_ms(lambda: torch.matmul(a, b)):.4f} ms")
PY
