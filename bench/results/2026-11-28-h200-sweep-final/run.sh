# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first), on the
# session's last tree: the harness's GEMM, row and Llama-MLP sweeps (every size symbolic, untuned
# defaults), twice; back as $OUT/sweep.tgz.   bash run.sh
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
for run in 1 2; do
    python3 bench/bench_sweep.py --out "$res/sweep$run" --only gemm rows mlp >"$res/sweep$run.log" 2>&1
    tail -1 "$res/sweep$run.log"
    pack sweep
done
