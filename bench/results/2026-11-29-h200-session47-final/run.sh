# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first), on the
# session's last tree: every GPU test, then the harness's row sweep (every size symbolic, untuned
# defaults), twice (the session changed row ops only); back as $OUT/final.tgz.   bash run.sh
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
SECONDS=0
gpu_tests pytest-gpu.txt tests/gpu
echo "gpu tests: ${SECONDS}s"
for run in 1 2; do
    python3 bench/bench_sweep.py --out "$res/sweep$run" --only rows >"$res/sweep$run.log" 2>&1
    tail -1 "$res/sweep$run.log"
    echo "sweep $run: ${SECONDS}s"
    pack final
done
