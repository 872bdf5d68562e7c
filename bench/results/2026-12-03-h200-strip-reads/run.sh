#!/usr/bin/env bash
# On the GPU machine:   bash bench/results/2026-12-03-h200-strip-reads/run.sh
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-12-03-h200-strip-reads
nvcc -O3 -arch=sm_90a -std=c++17 "$here/probe.cu" -o /tmp/probe && { /tmp/probe; /tmp/probe; } | tee "$res/probe.txt"
pack probe
