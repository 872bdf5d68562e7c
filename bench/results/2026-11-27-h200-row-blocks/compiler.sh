# On the GPU machine: the row sweeps emitted by the compiler before and after this folder's change
# (build.sh of ../2026-11-26-h100-row-weights: before=OLD_HDSC after=build/hdsc), side by side with
# torch.compile at every N of the sweep, two runs; back as $OUT/compiler.tgz.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/compiler" "$@" || true
pack compiler
