#!/usr/bin/env bash
# Malformed input never crashes hdsc: every input below must give exit code 0
# or 1 (never 2 = internal error, never a signal), and exit 1 must come with a
# located "file:line:col: error:" message and no output file.
# Inputs: tests/crash/*.hds, every example truncated at many byte offsets,
# all 256 byte values, deep nesting.
set -uo pipefail
hdsc=$1
dir=$2
root=$(cd "$dir/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
count=0

check() {  # check FILE
    local f=$1
    count=$((count + 1))
    "$hdsc" "$f" -I "$root/stdlib" -o "$work/out.cu" >"$work/stdout" 2>"$work/stderr"
    local rc=$?
    if [[ $rc -ne 0 && $rc -ne 1 ]]; then
        echo "FAIL (exit $rc): $f"
        head -5 "$work/stderr"
        failures=$((failures + 1))
    elif [[ $rc -eq 1 ]]; then
        if ! grep -qE ':[0-9]+:[0-9]+: error: ' "$work/stderr"; then
            echo "FAIL (no located error): $f"
            head -5 "$work/stderr"
            failures=$((failures + 1))
        fi
        if [[ -e "$work/out.cu" || -e "$work/out.h" ]]; then
            echo "FAIL (partial output written): $f"
            failures=$((failures + 1))
        fi
    fi
    rm -f "$work/out.cu" "$work/out.h"
}

for f in "$dir"/*.hds; do check "$f"; done

# Truncations of every example at 40 offsets.
for ex in "$root"/examples/*.hds; do
    size=$(wc -c <"$ex")
    for i in $(seq 1 40); do
        n=$((size * i / 41))
        head -c "$n" "$ex" >"$work/trunc_$(basename "$ex" .hds)_$n.hds"
        check "$work/trunc_$(basename "$ex" .hds)_$n.hds"
    done
done

# Every byte value, alone and after a valid prefix.
for i in $(seq 0 255); do
    printf "kernel k(a: f32[N]) grid(1) block(32) { a[0] = 1.0$(printf '\\%03o' "$i") }" >"$work/byte_$i.hds"
    check "$work/byte_$i.hds"
done

# Deep nesting of parentheses, brackets and blocks.
printf 'const X: i32 = %s1%s;\n' "$(printf '(%.0s' $(seq 1 5000))" "$(printf ')%.0s' $(seq 1 5000))" >"$work/deep_parens.hds"
check "$work/deep_parens.hds"
printf 'kernel k(a: f32[N]) grid(1) block(32) %s %s\n' "$(printf '{%.0s' $(seq 1 5000))" "$(printf '}%.0s' $(seq 1 5000))" >"$work/deep_blocks.hds"
check "$work/deep_blocks.hds"

echo "$count inputs, $failures failures"
[[ $failures -eq 0 ]]
