# On the GPU machine, from the repository root, after scripts/emit_for_device.sh (and
# attention_variants.hds emitted into .devcarry/emitted): the attention GPU tests,
# compute-sanitizer on the tensor-core schedule, the tile variants, the attention sweep.
source bench/device_env.sh
here=bench/results/2026-11-25-h100-attention-mma
timeout 200 python3 -m pytest -q tests/gpu/test_gpu_attention.py tests/gpu/test_gpu_ops.py -k attention 2>&1 | tail -4 | tee $OUT/pytest.txt
cases="test_attention_mma and (77-131 or 65-63) or causal and (1-1-33-200 or 2-3-77-77)"
for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_attention.py -k "$cases" 2>&1 | tail -1 | sed "s/^/$tool: /" | tee -a $OUT/sanitizer.txt
done
timeout 150 python3 $here/run_variants.py --out $OUT 2>&1 | tail -40
timeout 200 python3 bench/bench_sweep.py --out $OUT/run1 --only attention 2>&1 | grep -v "^|" | tail -40
rm -f $OUT/*/sweep.md
