#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (build.sh run here first): run.py twice.
#   bash bench/results/2026-11-28-h200-swap-wide/run.sh
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
build_sets wide bench/results/2026-11-28-h200-swap-wide/run.py
wait
for r in 1 2; do
    python3 bench/results/2026-11-28-h200-swap-wide/run.py --out "$res/run$r" >"$res/run$r.log" 2>&1
    cat "$res/run$r.log"
done
pack wide
