# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh, and
# ../2026-11-26-h100-row-weights/build.sh after=build/hdsc before=HDSC-OF-THE-TREE-BEFORE run here
# first): every GPU test, the short rows of both compilers side by side with torch.compile (two runs,
# at least 64 MB moved), then the harness's row sweep twice; back as $OUT/NAME.tgz.
#   [NS=...] [SWEEP=0] bash run.sh [NAME]
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
SECONDS=0
gpu_tests pytest-gpu.txt tests/gpu
echo "gpu tests: ${SECONDS}s"
timeout 200 python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/ab" \
    --ns "${NS:-3,6,14,17,25,30,31,33,35,45,50,61,62,63}" --rows 0 >"$res/ab.log" 2>&1
echo "a/b: ${SECONDS}s"
pack "${1:-banks}"
if [[ ${SWEEP:-1} == 1 ]]; then
    for run in 1 2; do
        timeout 150 python3 bench/bench_sweep.py --out "$res/sweep$run" --only rows >"$res/sweep$run.log" 2>&1
        tail -1 "$res/sweep$run.log"
        echo "sweep $run: ${SECONDS}s"
        pack "${1:-banks}"
    done
fi
