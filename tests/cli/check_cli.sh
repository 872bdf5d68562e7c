#!/usr/bin/env bash
# hdsc's command line: exit codes, error messages, outputs written or not.
set -uo pipefail
hdsc=$(realpath "$1")
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect.sh"
ex=$root/examples/vector_add.hds

expect "help" 0 "Usage" -- "$hdsc" --help
expect "version" 0 "^hdsc [0-9]+\.[0-9]+\.[0-9]+" -- "$hdsc" --version
expect "no input" 1 "input is required" -- "$hdsc"
expect "unknown flag" 1 "hdsc: error: .*--frobnicate" -- "$hdsc" --frobnicate "$ex"
expect "missing file" 1 "cannot read '$work/nope.hds': no such file" -- "$hdsc" "$work/nope.hds"
expect "directory" 1 "is a directory" -- "$hdsc" "$work"
expect "bad --emit" 1 "must be tokens, ast, graph, dot, ir" -- "$hdsc" --emit=bogus "$ex"
expect "bad pass name" 1 "unknown pass 'nosuch'" -- "$hdsc" --emit=ir-after=nosuch "$ex"
expect "tokens" 0 "^4:8 ID 'vector_add'$" -- "$hdsc" --emit=tokens "$ex"
expect "ast" 0 "KernelDecl .* 'vector_add'" -- "$hdsc" --emit=ast "$ex"
expect "ir" 0 "kernel vector_add\(" -- "$hdsc" --emit=ir "$ex"
expect "ir-after" 0 "for \(ty, tx\) in spatial\(4, 2\) \* spatial\(4, 8\)" -- "$hdsc" --emit=ir-after=lower "$root/examples/matmul_tiled.hds" -I "$root/stdlib"
expect "stdout" 0 "__global__ void" -- "$hdsc" "$ex" -o -
expect "unwritable output" 1 "hdsc: error: cannot create '$work/no/dir/x.cu'" -- "$hdsc" "$ex" -o "$work/no/dir/x.cu"

# --check writes nothing.
(cd "$work" && "$hdsc" --check "$ex") && [[ ! -e "$work/vector_add.cu" ]] && ok=$((ok + 1)) ||
    { echo "FAIL: --check wrote output"; fails=$((fails + 1)); }

# Default output names: <stem>.cu and <stem>.h in the current directory.
(cd "$work" && "$hdsc" "$ex") && [[ -s "$work/vector_add.cu" && -s "$work/vector_add.h" ]] && ok=$((ok + 1)) ||
    { echo "FAIL: default output names"; fails=$((fails + 1)); }

# An error leaves an existing output untouched and creates no temporaries.
echo "previous" >"$work/keep.cu"
printf 'kernel k(a: f32[N]) grid(1) block(32) { a[0] = zz; }' >"$work/bad.hds"
expect "error exit" 1 "bad.hds:1:48: error: unknown name 'zz'" -- "$hdsc" "$work/bad.hds" -o "$work/keep.cu"
if [[ "$(cat "$work/keep.cu")" != previous ]] || ls "$work" | grep -q '\.tmp\.'; then
    echo "FAIL: output touched on error"; fails=$((fails + 1))
else
    ok=$((ok + 1))
fi

# --header and --depfile, --line-directives.
expect "header dir missing" 1 "cannot create .*inc/x.h" -- "$hdsc" "$ex" -o "$work/x.cu" --header "$work/inc/x.h"
mkdir -p "$work/inc"
"$hdsc" "$ex" -o "$work/x.cu" --header "$work/inc/x.h" && grep -q '#include "inc/x.h"' "$work/x.cu" && ok=$((ok + 1)) ||
    { echo "FAIL: --header include path"; fails=$((fails + 1)); }
"$hdsc" "$root/examples/row_sum.hds" -I "$root/stdlib" -o "$work/r.cu" --depfile "$work/r.d" &&
    grep -q "r.cu .*r.h: .*row_sum.hds .*warp.hds" "$work/r.d" && ok=$((ok + 1)) ||
    { echo "FAIL: depfile"; cat "$work/r.d"; fails=$((fails + 1)); }
expect "line directives" 0 '^#line 7 "vector_add.hds"' -- "$hdsc" "$ex" -o - --line-directives

# Graphs: --emit=graph shows each pass, --emit=dot the fused graph, -o names the one graph's .cu,
# several graphs need --out-dir and get <graph>.cu each.
mlp="$root/examples/mlp.hds"
expect "emit graph" 0 "after fuse_epilogues" -- "$hdsc" "$mlp" -I "$root/stdlib" --emit=graph
expect "emit dot" 0 '"h" -> "out"' -- "$hdsc" "$mlp" -I "$root/stdlib" --emit=dot
cat >"$work/two.hds" <<'HDS'
import "elementwise.hds";
graph first(x: f32[N]) -> f32[N] { return relu(x); }
graph second(x: f32[N]) -> f32[N] { return exp(x); }
HDS
expect "several graphs need --out-dir" 1 "declares 2 graphs; write them with --out-dir" -- \
    "$hdsc" "$work/two.hds" -I "$root/stdlib" -o "$work/two.cu"
# -o - prints both .cu files and writes nothing
(cd "$work" && "$hdsc" "$work/two.hds" -I "$root/stdlib" -o - >"$work/two.out") &&
    grep -q "void __launch_bounds__(256) first_k0" "$work/two.out" && grep -q "void __launch_bounds__(256) second_k0" "$work/two.out" &&
    [[ ! -e "$work/first.cu" && ! -e "$work/second.cu" ]] && ok=$((ok + 1)) ||
    { echo "FAIL: -o - with two graphs"; ls "$work"; fails=$((fails + 1)); }
mkdir -p "$work/graphs"
"$hdsc" "$work/two.hds" -I "$root/stdlib" --out-dir "$work/graphs" && [[ -s "$work/graphs/first.cu" &&
    -s "$work/graphs/first.h" && -s "$work/graphs/second.cu" ]] && grep -q "cudaError_t second_run" "$work/graphs/second.h" &&
    ok=$((ok + 1)) || { echo "FAIL: --out-dir"; fails=$((fails + 1)); }

# The target: inferred from the built-ins a file uses (matmul_hopper.hds: sm_90a), said in
# the .cu's first lines with the nvcc line to build it; --arch=sm_80 against it is one
# error with a note at each of the 7 instantiations of the generic kernel that needs more.
hop="$root/examples/matmul_hopper.hds"
"$hdsc" "$hop" -I "$root/stdlib" -o "$work/hop.cu" &&
    grep -q "^// Target sm_90a (inferred: 'mbarrier_init' at matmul_wgmma.hds:[0-9]* needs it)" "$work/hop.cu" &&
    grep -q "^// Build: nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I \$HDS_RUNTIME -c hop.cu$" "$work/hop.cu" &&
    grep -q "^// Target sm_90a" "$work/hop.h" && ok=$((ok + 1)) ||
    { echo "FAIL: inferred target banner"; head -5 "$work/hop.cu"; fails=$((fails + 1)); }
"$hdsc" "$ex" -o "$work/va.cu" && grep -q "^// Target sm_80 (the default: nothing in the file needs a newer one)" "$work/va.cu" &&
    grep -q "^// Build: nvcc -std=c++17 -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80 -gencode=arch=compute_90,code=sm_90 " "$work/va.cu" &&
    ok=$((ok + 1)) || { echo "FAIL: default target banner"; head -5 "$work/va.cu"; fails=$((fails + 1)); }
expect "arch mismatch" 1 "^1 error generated\.$" -- "$hdsc" "$hop" -I "$root/stdlib" --arch=sm_80 -o "$work/hop80.cu"
if [[ $(grep -c "error:" "$work/err") -ne 1 || $(grep -c "note: in instantiation of 'matmul_wgmma'" "$work/err") -ne 7 ||
    -e "$work/hop80.cu" ]]; then
    echo "FAIL: arch mismatch: wanted 1 error, 7 instantiation notes, no output"; head -20 "$work/err"; fails=$((fails + 1))
else
    ok=$((ok + 1))
fi
"$hdsc" "$hop" -I "$root/stdlib" --arch=sm_90a --check && ok=$((ok + 1)) || { echo "FAIL: --arch=sm_90a"; fails=$((fails + 1)); }

# Programmatic dependent launch: the second kernel of a `then` schedule (decoding's combine) on
# sm_90a launches after the first while it runs; --no-dependent-launch launches it plainly.
dec=$root/tests/golden/attention_wgmma.hds
"$hdsc" "$dec" -I "$root/stdlib" -o "$work/pdl.cu" && "$hdsc" "$dec" -I "$root/stdlib" --no-dependent-launch -o "$work/plain.cu" &&
    [[ $(grep -c 'hds::launch_after_previous(' "$work/pdl.cu") -eq 1 && $(grep -c 'hds::allow_next_kernel();' "$work/pdl.cu") -eq 1 &&
        $(grep -c 'hds::wait_for_previous_kernels();' "$work/pdl.cu") -eq 1 ]] &&
    ! grep -q 'launch_after_previous\|allow_next_kernel\|wait_for_previous_kernels' "$work/plain.cu" && ok=$((ok + 1)) ||
    { echo "FAIL: --no-dependent-launch"; fails=$((fails + 1)); }

# Warnings: printed, exit 0, output written; -Werror: exit 1, nothing written; -Wno-NAME; unknown names.
printf 'kernel k(a: f32[N]) grid(1) block(32) {\n    let unused = 1;\n    a[threadIdx.x] = 0.0;\n}\n' >"$work/warn.hds"
expect "warning" 0 "warn.hds:2:9: warning: unused variable 'unused' \[-Wunused-variable\]" -- "$hdsc" "$work/warn.hds" -o "$work/warn.cu"
[[ -s "$work/warn.cu" ]] && ok=$((ok + 1)) || { echo "FAIL: a warning stopped the output"; fails=$((fails + 1)); }
expect "warning count" 0 "^1 warning generated\.$" -- "$hdsc" "$work/warn.hds" --check
expect "-Werror" 1 "error: unused variable 'unused' \[-Werror,-Wunused-variable\]" -- "$hdsc" "$work/warn.hds" -Werror -o "$work/werror.cu"
[[ ! -e "$work/werror.cu" ]] && ok=$((ok + 1)) || { echo "FAIL: -Werror wrote output"; fails=$((fails + 1)); }
"$hdsc" "$work/warn.hds" -Wno-unused-variable --check 2>"$work/err" && [[ ! -s "$work/err" ]] && ok=$((ok + 1)) ||
    { echo "FAIL: -Wno-unused-variable"; cat "$work/err"; fails=$((fails + 1)); }
expect "unknown warning" 1 "unknown warning option '-Wfrobnicate'; the warnings are unused-variable" -- "$hdsc" "$work/warn.hds" -Wfrobnicate
# -Wdefault-target is gone (a file of no target holds both paths): naming it is a note, not an error.
expect "a warning that is gone" 0 "note: '-Wno-default-target' has no effect" -- "$hdsc" "$work/warn.hds" \
    -Wno-default-target -Werror -Wno-unused-variable --check

echo "$ok passed, $fails failed"
[[ $fails -eq 0 ]]
