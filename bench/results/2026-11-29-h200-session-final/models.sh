# On the GPU machine (.devcarry carried, scripts/emit_for_device.sh run here first): the Llama-3 8B
# layer (prefill of 1024 tokens, and decoding one against 1024) and the GPT-2 block of
# bench/bench_torch.py under torch.compile(backend="hds"), against eager and torch.compile, in two
# processes (two runs); back as $OUT/models.tgz.   bash models.sh
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
for run in 1 2; do
    HDS_CACHE_DIR=/tmp/hds-cache timeout 250 python3 bench/bench_torch.py \
        --only llama_layer_decode_s1024 llama_layer_t1024 gpt2_block_t1024 --out "$res/models$run" >"$res/models$run.log" 2>&1
    echo "run $run: ${SECONDS}s"; grep -E "llama|gpt2" "$res/models$run/torch.md" | cut -d'|' -f2-9
    pack models
done
