# On the GPU machine, with .devcarry carried (here first: scripts/emit_for_device.sh, then build.sh
# base=HDSC-BEFORE after=build/hdsc): run.sh's a/b of the f32 rows at NS, every GPU test, and the
# harness's row sweep twice (every size symbolic, untuned defaults); back as $OUT/final.tgz.
#   [NS=...] bash bench/results/2026-12-01-h200-row-predicated/final.sh
cd "$(dirname "$0")/../../.."
set -uo pipefail
here=bench/results/2026-12-01-h200-row-predicated
NS=${NS:-98,126,130,200,250,254,258,382,510,1000,1022,2046,4094} OPS=softmax_f32,layer_norm_f32 bash $here/run.sh ab
source bench/device_env.sh
SECONDS=0
gpu_tests pytest-gpu.txt tests/gpu
echo "gpu tests: ${SECONDS}s"
pack final
for run in 1 2; do
    timeout 150 python3 bench/bench_sweep.py --out "$res/sweep$run" --only rows >"$res/sweep$run.log" 2>&1
    tail -1 "$res/sweep$run.log"
    echo "sweep $run: ${SECONDS}s"
    pack final
done
