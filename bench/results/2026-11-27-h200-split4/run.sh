# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first):
#   bash run.sh RUN [tests]
# the harness's GEMM and MLP sweeps into RUN/ (sweep1, sweep2: before the one-consumer swap;
# sweep3, sweep4: after), with `tests` first the GPU tests of the dispatch's bounds (pytest-RUN.txt).
set -uo pipefail
source bench/device_env.sh
run=$1
if [[ ${2:-} == tests ]]; then
    python3 -m pytest -q --timeout 300 tests/gpu/test_gpu_ops.py -p no:cacheprovider \
        -k "every_variant_sm90 or sigmoid or unary or swap or dispatch" >$res/pytest-$run.txt 2>&1
    tail -2 $res/pytest-$run.txt
fi
python3 bench/bench_sweep.py --out $res/$run --only gemm mlp >$res/$run.log 2>&1
grep -E "gemm_(f16|bf16) |llama" $res/$run/sweep.md | awk -F'|' '{print $2, $3, $7}' | paste -sd';'
pack $run
