#!/usr/bin/env bash
# `hdsc tune` and --tune-cache without a GPU: the search space per level, the
# candidates building with nvcc (--no-run), the cache steering the emitted
# schedule, and the errors for bad sizes, levels and caches.
#   check_tune.sh HDSC ROOT [NVCC]
set -uo pipefail
hdsc=$(realpath "$1")
root=$2
nvcc=${3:-}
[[ $nvcc == *NOTFOUND ]] && nvcc=""
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect.sh"
g=$root/tests/gpu/ops/op_matmul_sm90.hds
key='matmul<f16> sm_90a [M, 520] [520, 264]'
tune=("$hdsc" tune "$g" -I "$root/stdlib" --arch=sm_90a --sizes M=300 --no-run --work "$work/cands" -j2)

if [[ -n $nvcc ]]; then
    # Level 1 on sm_90a at M = 300, N = 264 (the schedules that apply there: by the waves their
    # tiles take, wgmma64x128's, wgmma128's and wgmma128x192's `when`s hold; wgmma_split's (K < 4096),
    # simt_split's (9 tiles of 128 x 128) and simt32x128's (30 tiles of 32 x 128) do not;
    # simt32x128_split's (30 of them) and simt32's (9 tiles of 128 x 128) do):
    # wgmma64x128's defaults and its one change, wgmma128's and wgmma128x192's and their four each
    # (their tiles are fixed), wgmma's and ten (BM 192 among them), mma's and three (BN 256 among them), simt32x128_split's and simt32's (their
    # tiles fixed too), simt's and five.
    # nvcc builds four of them, one a schedule family (the default wgmma64x128, the wgmma BN=128 below,
    # mma, simt with KG=2); `true` stands in for the other 31 (each wgmma build takes ptxas 15-30 s,
    # and nvcc.* builds the schedules' defaults: CI's time, docs/testing.md).
    sampled=(site0-cand0 site0-cand17 site0-cand23 site0-cand34)
    printf '#!/bin/sh\ncase "$*" in\n  %s) exec "%s" "$@" ;;\nesac\nexit 0\n' \
        "$(printf "*/%s/bench\\ *|" "${sampled[@]}" | sed 's/|$//')" "$nvcc" >"$work/nvcc-sample"
    chmod +x "$work/nvcc-sample"
    expect "level 1 builds 35 candidates" 0 "35 candidates at level 1" -- "${tune[@]}" --level 1 --nvcc "$work/nvcc-sample"
    [[ $(grep -c ": compiled" "$work/out") -eq 35 ]] || { echo "FAIL: not every candidate compiled"; fails=$((fails + 1)); }
    for c in "${sampled[@]}"; do
        [[ -x $work/cands/$c/bench ]] || { echo "FAIL: nvcc built no $c/bench"; fails=$((fails + 1)); }
    done
    cp "$work/out" "$work/level1.txt"
    expect "the default is what M = 300 runs" 0 "^  wgmma64x128 CLUSTER=1: compiled" -- head -2 "$work/level1.txt"
    expect "the BN=128 candidate uses 128-wide tiles" 0 "/ 128" -- grep -h "op_matmul_sm90_k0.*<<<" \
        "$work/cands/site0-cand17/op_matmul_sm90.cu"
    expect "timing program" 0 "hds-tune-ms" -- cat "$work/cands/site0-cand0/bench.cu"
    # Levels 0 and 2 only count (`true` stands in for nvcc): level 1 compiled them all.
    expect "level 0 builds the default only" 0 "1 candidates at level 0" -- "${tune[@]}" --level 0 --nvcc true
    expect "level 2 builds every combination" 0 "236 candidates at level 2" -- "${tune[@]}" --level 2 --nvcc true
fi
expect "sm_80: no wgmma candidates" 0 "11 candidates at level 1" -- "$hdsc" tune "$root/examples/mlp.hds" \
    -I "$root/stdlib" --sizes B=64 --no-run --nvcc false --work "$work/mlp"
expect "a size is missing" 1 "has the size 'M': give it with --sizes M=VALUE" -- "$hdsc" tune "$g" -I "$root/stdlib" \
    --arch=sm_90a --no-run --nvcc false
expect "bad --sizes" 1 "--sizes expects NAME=VALUE" -- "$hdsc" tune "$g" --sizes M
expect "bad --level" 1 "level" -- "$hdsc" tune "$g" --level 3
expect "nothing to tune" 0 "nothing to tune" -- "$hdsc" tune "$root/examples/softmax.hds" -I "$root/stdlib" --no-run

# The cache decides the schedule: wgmma BN=128 STAGES=3, then mma.
printf '{"version": 1, "entries": {"%s": {"schedule": "wgmma", "params": {"BN": 128, "STAGES": 3}}}}\n' "$key" \
    >"$work/c1.json"
expect "cache: wgmma with BN=128, STAGES=3" 0 "\[3\]\[2\]\[64\]\[64\]" -- "$hdsc" "$g" -I "$root/stdlib" \
    --arch=sm_90a --tune-cache "$work/c1.json" -o -
printf '{"version": 1, "entries": {"%s": {"schedule": "mma", "params": {"STAGES": 2}}}}\n' "$key" >"$work/c2.json"
expect "cache: mma with 2 stages" 0 "mma_16816" -- "$hdsc" "$g" -I "$root/stdlib" --arch=sm_90a \
    --tune-cache "$work/c2.json" -o -
expect "no cache: wgmma with BN=256" 0 "\[4\]\[4\]\[64\]\[64\]" -- "$hdsc" "$g" -I "$root/stdlib" --arch=sm_90a -o -
# A candidate that is not a valid instance (more shared memory than a block has) is skipped
# with its error in one line; the others still build.
expect "invalid candidate skipped" 0 "staged S=100000: skipped: kernel 'twice_staged' uses 400000 bytes of shared memory" \
    -- "$hdsc" tune "$(dirname "$0")/tune_invalid_candidate.hds" --sizes N=1000 --no-run --nvcc true --level 2 \
    --work "$work/big"
# A cache cannot override an op attribute (conv2d's stride is not a tuning parameter).
rb=$root/examples/resnet_block.hds
printf '{"version": 1, "entries": {"%s": {"schedule": "igemm3x3", "params": {"stride": 2}}}}\n' \
    'conv2d<f32> sm_80 [N, 64, 28, 28] [64, 64, 3, 3]' >"$work/c3.json"
expect "the site's key" 0 "conv2d<f32> sm_80 \[N, 64, 28, 28\] \[64, 64, 3, 3\]" -- "$hdsc" tune "$rb" -I "$root/stdlib" \
    --sizes N=2 --no-run --nvcc true --level 0
mkdir -p "$work/plain" "$work/cached"
"$hdsc" "$rb" -I "$root/stdlib" -o "$work/plain/rb.cu"
"$hdsc" "$rb" -I "$root/stdlib" --tune-cache "$work/c3.json" -o "$work/cached/rb.cu"
expect "cache: attributes stay" 0 "^same$" -- sh -c "cmp -s '$work/plain/rb.cu' '$work/cached/rb.cu' && echo same"
# While one site is timed the others run as the graph will be compiled: the transformer
# block's second site's candidate is the graph that --tune-cache compiles with the first's entry.
tb=$root/examples/transformer_block.hds
printf '{"version": 1, "entries": {"%s": {"schedule": "simt", "params": {"BM": 32, "BN": 64, "KG": 2}}}}\n' \
    'matmul<f32> sm_80 [S, 256] [256, 256]' >"$work/c4.json"
"$hdsc" tune "$tb" -I "$root/stdlib" --sizes S=64 --level 0 --no-run --nvcc true --work "$work/tb" \
    --cache "$work/c4.json" >/dev/null
mkdir -p "$work/tbc"
"$hdsc" "$tb" -I "$root/stdlib" --tune-cache "$work/c4.json" -o "$work/tbc/encoder_block.cu"
expect "other sites: the cache's entries" 0 "^same$" -- sh -c \
    "cmp -s '$work/tb/site1-cand0/encoder_block.cu' '$work/tbc/encoder_block.cu' && echo same"
# Level 0 times the default but keeps the entries the cache has (it used to write the defaults over them).
expect "level 0 keeps a cached entry" 0 "\[256, 256\]  \(graph encoder_block\): 1 candidates at level 0 \(the cache's entry stays\)" -- \
    "$hdsc" tune "$tb" -I "$root/stdlib" --sizes S=64 --level 0 --no-run --nvcc true --work "$work/tb0" --cache "$work/c4.json"
expect "level 0, no cached entry: written" 0 "\[256, 1024\]  \(graph encoder_block\): 1 candidates at level 0$" -- \
    "$hdsc" tune "$tb" -I "$root/stdlib" --sizes S=64 --level 0 --no-run --nvcc true --work "$work/tb1" --cache "$work/c4.json"
echo '{"entries": [1, 2]}' >"$work/bad.json"
expect "tune: malformed cache" 1 "is not a tuning cache" -- "$hdsc" tune "$tb" -I "$root/stdlib" --sizes S=64 \
    --no-run --nvcc true --cache "$work/bad.json"
expect "malformed cache" 1 "is not a tuning cache" -- "$hdsc" "$g" -I "$root/stdlib" --arch=sm_90a \
    --tune-cache "$work/bad.json" -o -
expect "missing cache" 1 "cannot read tuning cache" -- "$hdsc" "$g" -I "$root/stdlib" --tune-cache "$work/none.json"
# Size buckets: --sizes M=1,64,300 searches three times (M <= 1, M <= 64, any M, timed at 1, 64
# and 300); a cache with bucket entries adds their bounds to the graph's runtime dispatch.
expect "size buckets searched" 0 "^matmul<f16> sm_90a \[M, 520\] \[520, 264\] @ M <= 64  \(graph op_matmul_sm90\)" -- \
    "$hdsc" tune "$g" -I "$root/stdlib" --arch=sm_90a --sizes M=1,64,300 --no-run --work "$work/cands" --level 0 \
    --nvcc true
cp "$work/out" "$work/buckets.txt"
expect "the last bucket: any M" 0 "^size bucket \(any\): timed at M=300" -- cat "$work/buckets.txt"
[[ -d $work/cands/bucket2-site0-cand0 ]] || { echo "FAIL: no candidate folder per bucket"; fails=$((fails + 1)); }
expect "buckets of two sizes" 1 "size buckets are for one size" -- "$hdsc" tune "$g" -I "$root/stdlib" \
    --arch=sm_90a --sizes M=1,2,K=3,4 --no-run --nvcc true
printf '{"version": 1, "entries": {"%s @ M <= 64": {"schedule": "mma", "params": {"STAGES": 2}, "bucket": "M <= 64"},
  "%s": {"schedule": "wgmma", "params": {"BN": 128, "STAGES": 3}}}}\n' "$key" "$key" >"$work/c5.json"
"$hdsc" "$g" -I "$root/stdlib" --arch=sm_90a --tune-cache "$work/c5.json" -o "$work/c5.cu"
expect "bucket: its own variant" 0 "if \(M <= 64\)" -- cat "$work/c5.cu"
expect "bucket: its choice there" 0 "mma_16816" -- sed -n '/^__global__.*_tuned_k0/,/^}/p' "$work/c5.cu"
expect "past the bucket: the entry for any M" 0 "\[3\]\[2\]\[64\]\[64\]" -- sed -n '/^__global__.*_any_k0/,/^}/p' "$work/c5.cu"

# A file of no target whose graph has sm_90a variants (a symbolic f16 matmul): on an sm_90 GPU
# hdsc tune takes the sm_90a sites, which the default build runs there; elsewhere the sm_80
# ones. A stand-in nvcc builds programs that print the GPU's capability (90, then 80) and a time.
printf 'import "nn.hds";\ngraph nt(x: f16[M, K], w: f16[K, N]) -> f16[M, N] { return matmul(x, w); }\n' >"$work/nt.hds"
fake_nvcc() {  # fake_nvcc CAPABILITY: writes $work/nvcc-$1
    cat >"$work/nvcc-$1" <<EOF2
#!/bin/sh
while [ \$# -gt 1 ]; do [ "\$1" = -o ] && out=\$2; shift; done
case "\$out" in
  */capability) printf '#!/bin/sh\necho hds-capability $1\n' >"\$out" ;;
  *) printf '#!/bin/sh\necho hds-tune-ms 0.0100\n' >"\$out" ;;
esac
chmod +x "\$out"
EOF2
    chmod +x "$work/nvcc-$1"
}
fake_nvcc 90
fake_nvcc 80
expect "no target, an sm_90 GPU: the sm_90a sites" 0 "^matmul<f16> sm_90a \[M, K\] \[K, N\]  \(graph nt\)" -- \
    "$hdsc" tune "$work/nt.hds" -I "$root/stdlib" --sizes M=16,K=4096,N=4096 --level 0 --nvcc "$work/nvcc-90" \
    --work "$work/nt90" --cache "$work/nt90.json"
cp "$work/out" "$work/nt90.txt"
expect "it says so" 0 "the GPU is sm_90, which runs the sm_90a variants" -- cat "$work/nt90.txt"
expect "the cache: an sm_90a entry" 0 '"matmul<f16> sm_90a \[M, K\] \[K, N\]"' -- cat "$work/nt90.json"
expect "no target, an sm_80 GPU: the sm_80 sites" 0 "^matmul<f16> sm_80 \[M, K\] \[K, N\]  \(graph nt\)" -- \
    "$hdsc" tune "$work/nt.hds" -I "$root/stdlib" --sizes M=16,K=4096,N=4096 --level 0 --nvcc "$work/nvcc-80" \
    --work "$work/nt80" --cache "$work/nt80.json"
expect "--arch=sm_80 on an sm_90 GPU: the sm_80 sites" 0 "^matmul<f16> sm_80 \[M, K\] \[K, N\]  \(graph nt\)" -- \
    "$hdsc" tune "$work/nt.hds" -I "$root/stdlib" --arch=sm_80 --sizes M=16,K=4096,N=4096 --level 0 \
    --nvcc "$work/nvcc-90" --work "$work/nt80a" --cache "$work/nt80a.json"

[[ $fails -eq 0 ]] && echo "hdsc tune: all checks passed"
exit $((fails > 0))
