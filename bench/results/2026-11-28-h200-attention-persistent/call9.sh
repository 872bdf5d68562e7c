#!/usr/bin/env bash
# Call 9, the final kernel (outputs staged in the last key tile's buffer on two consumers) in
# one call: the kernels side by side (attention_variants.hds), the GPU attention and model
# tests, racecheck on two persistent cases, the attention sweep twice, the models old and new.
set -uo pipefail
source bench/device_env.sh
python3 bench/results/2026-11-26-h100-attention-tma/run_variants.py --lib .devcarry/attention-persistent \
    --out "$res/variants" >"$res/variants.txt" 2>&1
grep "^run" "$res/variants.txt"
gpu_tests pytest-gpu.txt tests/gpu -k "attention or llama or gpt or transformer or torch"
timeout 250 compute-sanitizer --tool racecheck --error-exitcode 3 python3 -m pytest -q -p no:cacheprovider \
    tests/gpu/test_gpu_attention.py -k "sm90_h64_causal and 2-67-300-300 or sm90_h128_causal and 2-67-300-300" \
    2>&1 | tail -3 | sed "s/^/racecheck: /" | tee "$res/sanitizer.txt"
for run in 1 2; do
    python3 bench/bench_sweep.py --only attention --out "$res/sweep$run" >"$res/sweep$run.log" 2>&1
    tail -1 "$res/sweep$run.log"
done
for run in 1 2; do
    for set in new old; do
        hdsc=$HDSC
        [[ $set == old ]] && hdsc=$PWD/.devcarry/old/bin/hdsc
        HDSC=$hdsc HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py \
            --only llama_layer_t1024 gpt2_block_t1024 --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        rm -rf "$res/models-$set-$run/debug"
        echo "$set run $run:"; grep -E "llama|gpt2" "$res/models-$set-$run/torch.md" | cut -d'|' -f2-9
    done
done
pack call9
