# Here: emits the row sweep's graphs (bench/sweep/sweep_{softmax_f32,layer_norm_f32,rms_norm_f16}.hds)
# into .devcarry/rows/NAME for ../2026-11-26-h100-row-weights/run.py (run.sh nvcc's them there).
# Each argument NAME=HDSC, or NAME=HDSC:SETTINGS (environment variables, comma-separated, that the
# experiment build of experiment.patch reads: HDS_EXP_ROW_T, HDS_EXP_FOURS, HDS_EXP_NOBREAK):
#   bash build.sh base=/tmp/hdsc-base after=build/hdsc
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
rm -rf "$root/.devcarry/rows"
for pair in "$@"; do
    name=${pair%%=*} rest=${pair#*=}
    hdsc=${rest%%:*} settings=
    [[ $rest == *:* ]] && settings=${rest#*:}
    out=$root/.devcarry/rows/$name && mkdir -p "$out"
    for op in softmax_f32 layer_norm_f32 rms_norm_f16; do
        env ${settings//,/ } "$hdsc" "$root/bench/sweep/sweep_$op.hds" -I "$root/stdlib" -o "$out/sweep_$op.cu"
    done
done
echo "emitted: $(ls "$root"/.devcarry/rows/*/*.cu | wc -l) files"
