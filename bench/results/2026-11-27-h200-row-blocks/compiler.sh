# On the GPU machine: the row sweeps emitted by several compilers (build.sh of
# ../2026-11-26-h100-row-weights: NAME=HDSC ...), side by side with torch.compile, two runs;
# back as $OUT/NAME.tgz.   bash compiler.sh NAME [run.py's --ns ...]
# compiler/: before=session 32's hdsc, after=the split kernels; ladder/: before, split, ladder.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
name=${1:-compiler}
shift || true
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/$name" "$@" || true
pack "$name"
