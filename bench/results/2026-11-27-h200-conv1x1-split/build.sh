#!/usr/bin/env bash
# Emits convs/*.hds into .devcarry/convsplit/SET with stdlib/ as committed at REV (`old`, default
# 84a6aab: before the change) and as it is in the tree (`new`, with conv1x1-split.patch applied):
# ../2026-11-27-h200-conv-split/build.sh on this folder's convolutions.
#   bash bench/results/2026-11-27-h200-conv1x1-split/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
HERE=$root/bench/results/2026-11-27-h200-conv1x1-split SETS=${SETS:-old new} \
    exec bash "$root/bench/results/2026-11-27-h200-conv-split/build.sh" "${1:-84a6aab}"
