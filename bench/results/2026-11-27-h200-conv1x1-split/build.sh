#!/usr/bin/env bash
# Emits convs/*.hds into .devcarry/convsplit/SET with stdlib/ as committed at REV (`old`, default
# 84a6aab: before the change), as it is in the tree (`new`):
# SETS=... (default: old new)
#   bash bench/results/2026-11-27-h200-conv1x1-split/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
here=$root/bench/results/2026-11-27-h200-conv1x1-split
rev=${1:-84a6aab}
out=$root/.devcarry/convsplit
rm -rf "$out" /tmp/convsplit-stdlib
sets=${SETS:-old new}
for set in $sets; do
    d=/tmp/convsplit-stdlib/$set
    mkdir -p "$out/$set" "$d"
    if [[ $set == new ]]; then
        cp "$root"/stdlib/*.hds "$d/"
    else
        git -C "$root" archive "$rev" stdlib | tar -x -C "$d" --strip-components=1
    fi
    case $set in
    old | new) ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
done
for f in "$here"/convs/*.hds; do
    for set in $sets; do
        "$root/build/hdsc" "$f" -I /tmp/convsplit-stdlib/$set -o "$out/$set/$(basename "$f" .hds).cu" &
    done
done
wait
echo "$sets" >"$out/sets"
# The stdlib before the change, for run.sh's models.
mkdir -p "$out/old-stdlib"
git -C "$root" archive "$rev" stdlib | tar -x -C "$out/old-stdlib" --strip-components=1
