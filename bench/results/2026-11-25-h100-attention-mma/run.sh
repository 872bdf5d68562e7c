# On the GPU machine, from the repository root, after scripts/emit_for_device.sh (and
# attention_variants.hds emitted into .devcarry/emitted): the attention GPU tests (stops at
# the first failure or hang), compute-sanitizer on both tensor-core schedules, the SASS of
# the wgmma one, the tile variants (not with `sweep`), the attention sweep (not with `tests`).
source bench/device_env.sh
here=bench/results/2026-11-25-h100-attention-mma
timeout 200 python3 -m pytest -q -x --timeout 30 tests/gpu/test_gpu_attention.py tests/gpu/test_gpu_ops.py -k attention 2>&1 | tail -6 | tee $OUT/pytest.txt
grep -q " passed" $OUT/pytest.txt && ! grep -q "failed\|Timeout\|error" $OUT/pytest.txt || exit 1
cases="test_attention_mma and (77-131 or 65-63 or 129-257 or 16-4000 or 2-33-3-520) or causal and (1-1-33-200 or 2-3-77-77 or 257-300 or 1-2-7-700)"
for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_attention.py -k "$cases" 2>&1 | tail -1 | sed "s/^/$tool: /" | tee -a $OUT/sanitizer.txt
done
so=$(ls build/gpu-tests/op_attention_sm90_h64-graph-*/lib*.so | head -1)
echo "HGMMA in $so: $(cuobjdump -sass $so | grep -c HGMMA)" | tee $OUT/sass.txt
[[ ${1:-} == tests ]] && exit 0
[[ ${1:-} == sweep ]] || timeout 200 python3 $here/run_variants.py --out $OUT 2>&1 | grep -v "^$" | grep -v "^fa_" | tail -64
timeout 240 python3 bench/bench_sweep.py --out $OUT/run1 --only attention 2>&1 | grep -v "^|" | tail -60
rm -f $OUT/*/sweep.md
