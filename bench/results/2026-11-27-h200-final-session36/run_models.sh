#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried: the models of bench/bench_torch.py under
# torch.compile(backend="hds") against eager and inductor, twice (a process each).
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    HDS_CACHE_DIR=/tmp/hds-cache python3 bench/bench_torch.py --out "$res/models$run" >"$res/models$run.log" 2>&1
    echo "run $run:"; cat "$res/models$run/torch.md"
done
pack models
