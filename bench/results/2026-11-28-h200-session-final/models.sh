#!/usr/bin/env bash
# On the GPU machine (.devcarry carried, with .devcarry/old = this hdsc beside the stdlib of the
# session's start, as build_old below makes it here): the Llama-3 8B decoding layer of
# bench/bench_torch.py under torch.compile(backend="hds") with the session's start (`old`) and the
# tree (`new`), a process each, one run (its q, k, v as one product: M = 1, N = 6144).
#   here:   bash bench/results/2026-11-28-h200-session-final/models.sh build_old REV
#   device: bash bench/results/2026-11-28-h200-session-final/models.sh
set -uo pipefail
if [[ ${1:-} == build_old ]]; then
    rm -rf .devcarry/old && mkdir -p .devcarry/old/bin
    strip -o .devcarry/old/bin/hdsc build/hdsc
    git archive "$2" stdlib | tar -x -C .devcarry/old
    exit
fi
rm -rf /tmp/hds-results
source bench/device_env.sh
for set in old new; do
    hdsc=$HDSC
    [[ $set == old ]] && hdsc=$PWD/.devcarry/old/bin/hdsc
    HDSC=$hdsc HDS_CACHE_DIR=/tmp/hds-cache-$set timeout 140 python3 bench/bench_torch.py --only llama_layer_decode_s1024 \
        --out "$res/models-$set" >"$res/models-$set.log" 2>&1
    echo "$set:"; grep -E "llama" "$res/models-$set/torch.md" | cut -d'|' -f2-9
done
pack models
