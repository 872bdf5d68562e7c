#!/usr/bin/env bash
# Emits ResNet-18's 1 x 1 stride-2 convolutions at batch 1 (../2026-11-27-h200-conv1x1-split/convs)
# into .devcarry/convsplit/SET for that folder's run.py: stdlib/ as committed at REV (`old`: the
# split's sums in rows 128 floats apart) and as it is in the tree (`new`: 132).
#   bash bench/results/2026-12-04-h200-conv-sums/build.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init convsplit "$1"
stdlib_set convsplit new >/dev/null
stdlib_sets_emit convsplit "old new" "$root"/bench/results/2026-11-27-h200-conv1x1-split/convs/*.hds
