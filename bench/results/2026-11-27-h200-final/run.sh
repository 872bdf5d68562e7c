# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first), on the
# session's last tree: `bash run.sh tests` (every GPU test) or `bash run.sh sweeps` (the harness's
# GEMM and Llama-MLP sweeps twice, then the models of bench/bench_torch.py whose matmuls have
# few rows); results in one archive.
set -uo pipefail
source bench/device_env.sh
if [ "$1" = tests ]; then
    python3 -m pytest -q --timeout 300 tests/gpu -p no:cacheprovider >$res/pytest-gpu.txt 2>&1
    tail -3 $res/pytest-gpu.txt
else
    for run in 1 2; do
        python3 bench/bench_sweep.py --out $res/sweep$run --only gemm mlp >$res/sweep$run.log 2>&1
        tail -1 $res/sweep$run.log
    done
    python3 bench/bench_torch.py --out $res/models --only llama_layer_decode_s1024 gpt2_block_t1024 llama_layer_t1024 \
        >$res/models.log 2>&1
    tail -8 $res/models.log
fi
pack "$1"
