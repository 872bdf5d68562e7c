# On the GPU machine, .devcarry carried (build.sh ran here): numerics of every variant against
# float64, then two timed runs side by side with SDPA. Results under $OUT/variants.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/device.txt"
python3 bench/results/2026-11-26-h100-attention-tma/run_variants.py --lib .devcarry/attention-persistent \
    --out "$OUT/variants" 2>&1 | tee "$OUT/variants.txt"
