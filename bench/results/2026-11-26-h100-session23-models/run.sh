# On the lent GPU: the transformer models of bench/bench_torch.py (torch.compile(backend="hds")
# against inductor and eager) with this session's stdlib ("after") and the one it started from
# (.devcarry/before: hdsc and `git archive 9343af3 stdlib`), alternating.
#   bash bench/results/2026-11-26-h100-session23-models/run.sh after|before ...
source bench/device_env.sh
unset HDS_EMITTED_DIR
export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
for step in "$@"; do
    if [[ $step == after ]]; then export HDSC=$PWD/.devcarry/bin/hdsc; else export HDSC=$PWD/.devcarry/before/bin/hdsc; fi
    n=$(ls -d "$out"/$step* 2>/dev/null | wc -l)
    HDS_CACHE_DIR=/tmp/hds-cache-models-$step python3 bench/bench_torch.py --out "$out/$step$((n + 1))" \
        --only llama_layer_decode_s1024 gpt2_block_t1024 llama_layer_t1024 2>&1 | grep -v "^{" | tail -4
    rm -rf "$out/$step$((n + 1))/debug"
done
