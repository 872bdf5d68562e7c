# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here; the GEMM sweep
# graphs as the compiler before emitted them in .devcarry/base): the harness's GEMM sweep for the
# tree before (`base`) and this one (`new`), alternating, twice; then the GPU tests of the matmul
# dispatch.  bash run.sh
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    res=$res bash bench/results/2026-11-27-h200-tiles-192/sweeps.sh $run '_f16 .*M=(1|16) K=4096 N=4096|bf16 .*M=(1|16) K=4096 N=4096' --only gemm
done
pack sweeps
timeout 240 python3 -m pytest -q --timeout 200 tests/gpu/test_gpu_ops.py -p no:cacheprovider -k "sm90 or swap or dispatch" >$out/pytest-gpu.txt 2>&1
tail -2 $out/pytest-gpu.txt
