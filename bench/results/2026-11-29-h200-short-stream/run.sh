# On the GPU machine (after variants.py here): base and stream side by side with torch.compile,
# two runs each, every op at N = 61 (and others of up to 64); back as $OUT/NAME.tgz.
#   bash run.sh NAME [NS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/rows" --ns "${2:-61,64,33,17}" 2>&1 | grep -v Warn | tee "$res/log.txt" || true
pack "${1:-first}"
