#!/usr/bin/env bash
# Size buckets of `hdsc tune` on the lent GPU (from the repo root, .devcarry from
# scripts/emit_for_device.sh): tunes the f16 sweep GEMM per bucket of M at K = N = 4096,
# emits it with the cache and times the f16 sweep: the tuned rows beside the defaults.
set -uo pipefail
source bench/device_env.sh
export LD_LIBRARY_PATH=$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
.devcarry/bin/hdsc tune bench/sweep/sweep_gemm_f16.hds -I stdlib --level 1 --cache "$OUT/hds-tune.json" \
    --sizes M=16,128,512,4096,K=4096,N=4096 --runtime runtime -j 16 2>&1 | grep -v "^\[" | tee "$OUT/tune.txt"
tuned=$PWD/.devcarry/tuned
mkdir -p "$tuned"
cp .devcarry/emitted/*.cu .devcarry/emitted/*.h "$tuned/"
.devcarry/bin/hdsc bench/sweep/sweep_gemm_f16.hds -I stdlib --tune-cache "$OUT/hds-tune.json" \
    -o "$tuned/sweep_gemm_f16.cu"
grep -n "runs one of" -A 30 "$tuned/sweep_gemm_f16.cu" | grep -E "^[0-9]+-//   " > "$OUT/dispatch.txt"
for r in 1 2; do
    HDS_EMITTED_DIR=$tuned HDS_TEST_CACHE=$PWD/build/tuned-cache python3 bench/bench_sweep.py --out "$OUT/tuned$r" \
        --only gemm 2>&1 | grep -E "^gemm_f16 "
done
