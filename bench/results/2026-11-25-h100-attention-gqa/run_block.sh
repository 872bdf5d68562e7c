# On the GPU machine, from the repository root, after scripts/emit_for_device.sh: the GPU
# tests of attention, the example graphs (examples/llama_block.hds among them) and the
# kernel examples; with `bench`, the Llama block and the f32 transformer block against
# torch eager and torch.compile (bench/bench_graphs.py); `bench sweep`: the Llama block also
# at 1 to 4096 tokens.
source bench/device_env.sh
if [[ ${1:-} != bench ]]; then
    timeout 560 python3 -m pytest -q -x --timeout 400 tests/gpu/test_gpu_attention.py tests/gpu/test_gpu_graphs.py tests/gpu/test_gpu_examples.py 2>&1 | tail -8 | tee $OUT/pytest-block.txt
    exit 0
fi
timeout 500 python3 bench/bench_graphs.py --out $OUT/graphs --only llama_block transformer_block 2>&1 | tail -20
[[ ${2:-} == sweep ]] && timeout 500 python3 bench/bench_graphs.py --out $OUT/graphs-tokens --only llama_block --sizes 1 16 128 512 2048 4096 2>&1 | grep "^|"
true
