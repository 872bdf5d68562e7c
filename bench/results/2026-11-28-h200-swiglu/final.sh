#!/usr/bin/env bash
# On the GPU machine (.devcarry carried; scripts/emit_for_device.sh here first): the final
# tree's Llama MLP rows of the shape sweep, examples/llama_block.hds by token count, and the
# transformer models under torch.compile(backend="hds"), two runs.
set -uo pipefail
source bench/device_env.sh
export HDS_RUNTIME=$PWD/runtime
python3 bench/bench_sweep.py --out "$res/sweep" --only mlp >"$res/sweep.log" 2>&1
grep "^llama" "$res/sweep.log"
python3 bench/bench_graphs.py --out "$res/graphs" --only llama_block --sizes 1 16 128 512 2048 4096 >"$res/graphs.log" 2>&1
grep "^|" "$res/graphs.log" | cut -c1-150
for run in 1 2; do
    python3 bench/bench_torch.py --only llama_layer_t1024 llama_layer_decode_s1024 gpt2_block_t1024 \
        --out "$res/models-$run" >"$res/models-$run.log" 2>&1
    grep -E "llama|gpt2" "$res/models-$run/torch.md" | cut -d'|' -f2-9
done
pack final
