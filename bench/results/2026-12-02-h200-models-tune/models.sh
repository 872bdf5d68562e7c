#!/usr/bin/env bash
# Issue 25's models under torch.compile(backend="hds") against eager and torch.compile, all six
# of bench/bench_torch.py (ResNet-18 at batch 1 and 32; GPT-2's block and the Llama-3 8B layer,
# each at prefill of 1024 tokens and decoding one token against 1024), into $res/modelsRUN.
# Sourced environment: bench/device_env.sh.   bash models.sh RUN
set -uo pipefail
source bench/device_env.sh
run=$1
HDS_CACHE_DIR=/tmp/hds-cache timeout 400 python3 bench/bench_torch.py --out "$res/models$run" \
    >"$res/models$run.log" 2>&1
echo "models run $run: ${SECONDS}s"
cut -d'|' -f2-10 "$res/models$run/torch.md" | grep -v "^ *-"
