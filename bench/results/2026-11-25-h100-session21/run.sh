# On the GPU machine, from the repository root, after scripts/emit_for_device.sh: every GPU
# test (the clamped vectorized loads under selects among them), then the f32 transformer
# block and the Llama block against torch eager and torch.compile, twice.
source bench/device_env.sh
timeout 420 python3 -m pytest -q --timeout 120 tests/gpu 2>&1 | tail -8 | tee $OUT/pytest.txt
for r in 1 2; do
    timeout 200 python3 bench/bench_graphs.py --out $OUT/graphs-run$r --only transformer_block llama_block mlp 2>&1 | grep "^|"
done
true
