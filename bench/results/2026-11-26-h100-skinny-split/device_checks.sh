# On the lent GPU (hdsc carried in .devcarry): the GPU tests of matmul's dispatch and schedules,
# compute-sanitizer on the new decode kernels, then the GEMM and Llama-MLP sweep.
#   bash bench/results/2026-11-26-h100-skinny-split/device_checks.sh [sweep-only]
source bench/device_env.sh
unset HDS_EMITTED_DIR
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib
D=bench/results/2026-11-26-h100-skinny-split
if [[ ${1:-} != sweep-only ]]; then
    python3 -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_ops.py -k "matmul" 2>&1 | tail -5 | tee "$out/pytest-matmul.txt"
    for cfg in "wgsplit_box 1 4096 4096" "wgsplit_box 13 2048 8200" "wgsplit_box 32 4104 4096" "s128_3_3 5 2048 1000"; do
        echo "== memcheck $cfg"
        compute-sanitizer --tool memcheck --error-exitcode 1 python3 $D/launch.py $cfg 2>&1 | tail -2
    done 2>&1 | tee "$out/sanitizer.txt"
    echo "== racecheck s128_3_3 16 4096 1024" | tee -a "$out/sanitizer.txt"
    compute-sanitizer --tool racecheck --error-exitcode 1 python3 $D/launch.py s128_3_3 16 4096 1024 2>&1 | tail -2 | tee -a "$out/sanitizer.txt"
fi
mkdir -p "$out/sweep"
python3 bench/bench_sweep.py --out "$out/sweep" --only gemm mlp 2>&1 | tail -3
