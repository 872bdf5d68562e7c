#!/usr/bin/env bash
# Golden test: compiles INPUT.hds and compares the .cu, the .h and the manifest
# (--manifest, with the checkout's path left out) with
# tests/golden/<name>.expected.{cu,h,json}. Regenerate with scripts/update_golden.sh.
set -euo pipefail
hdsc=$1
input=$2
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/../.." && pwd)
name=$(basename "$input" .hds)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$hdsc" "$input" -I "$root/stdlib" --verify-ir -o "$work/$name.cu" --manifest "$work/$name.json"
status=0
diff -u "$dir/$name.expected.cu" "$work/$name.cu" || status=1
diff -u "$dir/$name.expected.h" "$work/$name.h" || status=1
sed "s#$root/##g" "$work/$name.json" | diff -u "$dir/$name.expected.json" - || status=1
exit $status
