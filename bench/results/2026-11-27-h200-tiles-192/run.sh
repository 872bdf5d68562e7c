# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here; the sweep graphs
# as the compiler before emitted them in .devcarry/base). The harness's GEMM and MLP sweeps for the
# tree before (`base`) and this one (`new`), alternating, once per call: bash run.sh RUN [tests]
# (RUN = 1, 2). With `tests`: both trees' MLP kernels against torch.compile's, then the GPU tests of the matmul dispatch, its epilogues and the graphs.
set -uo pipefail
source bench/device_env.sh
run=$1
res=$res bash bench/results/2026-11-27-h200-tiles-192/sweeps.sh $run 'llama|M=512 K=4096 N=11008' --only gemm mlp
if [[ ${2:-} == tests ]]; then
    # the MLP's kernels against torch.compile's, each tree (../2026-11-27-h200-mlp-profile)
    for w in base new; do
        dir=$PWD/.devcarry/emitted
        [[ $w == base ]] && dir=$PWD/.devcarry/base
        mkdir -p $res/k-$w
        HDS_EMITTED_DIR=$dir python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py $res/k-$w >$res/kernels-$w.txt 2>&1
        grep -E "^T=|k[0-9]_" $res/kernels-$w.txt | cut -c1-110
    done
fi
pack sweeps$run
if [[ ${2:-} == tests ]]; then
    timeout 300 python3 -m pytest -q --timeout 200 tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py \
        -p no:cacheprovider -k "sm90 or epilogue or swap or dispatch or mlp or llama or graph" >$out/pytest-gpu.txt 2>&1
    tail -2 $out/pytest-gpu.txt
fi
