#!/usr/bin/env bash
# On the GPU machine after scripts/emit_for_device.sh and build.sh here, .devcarry carried, with
# .devcarry/old/{bin/hdsc,stdlib}: this tree's hdsc beside the stdlib before the change
# (git archive ff9e926 stdlib). `final.sh tests`, `final.sh sweep`, `final.sh models`, each a
# call, packed as PART.tgz:
#   variants/ variants.txt  the kernels before and after, side by side with SDPA (two runs)
#   pytest-gpu.txt          every GPU test
#   sanitizer.txt           memcheck and racecheck on the persistent kernels' GPU test cases
#   sweep1/ sweep2/         the harness's attention sweep (untuned, symbolic sizes)
#   models-{old,new}-N/     GPT-2 block and Llama-3 layer under torch.compile(backend="hds")
set -uo pipefail
source bench/device_env.sh
part=$1
if [[ $part == tests ]]; then
python3 bench/results/2026-11-26-h100-attention-tma/run_variants.py --lib .devcarry/attention-persistent \
    --out "$res/variants" >"$res/variants.txt" 2>&1
grep "^run" "$res/variants.txt"
gpu_tests pytest-gpu.txt tests/gpu
# (racecheck on fewer cases: on these eight it ran past 200 s)
for tool in memcheck racecheck; do
    cases="sm90 and (2-67-300-300 or 2-33-777-2049 or 2-33-777-4096)"
    [[ $tool == racecheck ]] && cases="sm90_h64_causal and 2-67-300-300 or sm90_h128_causal and 2-67-300-300"
    timeout 250 compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -p no:cacheprovider \
        tests/gpu/test_gpu_attention.py -k "$cases" 2>&1 | tail -3 | sed "s/^/$tool: /" >>"$res/sanitizer.txt"
done
cat "$res/sanitizer.txt"
elif [[ $part == sweep ]]; then
for run in 1 2; do
    python3 bench/bench_sweep.py --only attention --out "$res/sweep$run" >"$res/sweep$run.log" 2>&1
    tail -2 "$res/sweep$run.log"
done
else
for run in 1 2; do
    for set in new old; do
        hdsc=$HDSC
        [[ $set == old ]] && hdsc=$PWD/.devcarry/old/bin/hdsc
        HDSC=$hdsc HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py \
            --only llama_layer_t1024 gpt2_block_t1024 --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep -E "llama|gpt2" "$res/models-$set-$run/torch.md" | cut -d'|' -f2-9
    done
done
fi
pack "$part"
