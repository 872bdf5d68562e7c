# On the GPU machine (after variants.py here): base and stream side by side with torch.compile,
# two runs each, every op at the N given; back as $OUT/NAME.tgz.
#   bash run.sh NAME [NS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
run=bench/results/2026-11-26-h100-row-weights/run.py
python3 $run --out "$res/rows" --ns "${2:-4096,8192,16384,24576,32768,65536,128256}" 2>&1 | tee "$res/log.txt" || true
pack "${1:-first}"
