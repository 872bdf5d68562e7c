# On the GPU machine: [the row GPU tests on this tree (TESTS: their -k expression),] the row sweep's
# graphs of the compilers in .devcarry/rows (build.sh of ../2026-11-26-h100-row-weights) side by side
# with torch.compile at rows of N = 4k + 2 (two runs, at least 64 MB moved), [the Triton code
# torch.compile generates at some of them (CODE),] [the harness's row sweep twice (SWEEP=1)]; back
# as $OUT/NAME.tgz.   [TESTS=...] [NS=...] [CODE="op:N ..."] [SWEEP=1] bash run.sh [NAME]
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
SECONDS=0
[[ -z ${TESTS:-} ]] || gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "$TESTS"
timeout 300 python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-ab}" \
    --ns "${NS:-98,126,132,200,250,254,258,382,510,1022,2046}" --rows 0 >"$res/${1:-ab}.log" 2>&1
echo "a/b: ${SECONDS}s"
pack "${1:-ab}"
if [[ -n ${CODE-x} ]]; then
    TORCH_LOGS=output_code timeout 120 python3 bench/results/2026-11-29-h200-rows-4k2/triton_code.py \
        ${CODE:-rms_norm_f16:250 rms_norm_f16:126 layer_norm_f32:126 layer_norm_f32:510} >"$res/triton.log" 2>&1
    pack "${1:-ab}"
fi
if [[ ${SWEEP:-0} == 1 ]]; then
    for run in 1 2; do
        timeout 150 python3 bench/bench_sweep.py --out "$res/sweep$run" --only rows >"$res/sweep$run.log" 2>&1
        echo "sweep $run: ${SECONDS}s"
        pack "${1:-ab}"
    done
fi
