# On the GPU machine, from the repository root, after scripts/emit_for_device.sh: the
# attention GPU tests (grouped-query ones included; stops at the first failure or hang),
# compute-sanitizer on grouped-query decode and prefill, then the grouped-query sweep
# (decode 64 query heads over 8 key/value heads, S = 1k-32k) and, with `all`, every
# attention graph of the sweep.
source bench/device_env.sh
timeout 240 python3 -m pytest -q -x --timeout 30 tests/gpu/test_gpu_attention.py tests/gpu/test_gpu_ops.py -k attention 2>&1 | tail -6 | tee $OUT/pytest.txt
grep -q " passed" $OUT/pytest.txt && ! grep -q "failed\|Timeout\|error" $OUT/pytest.txt || exit 1
cases="test_attention_grouped and (1-8-1-2-300 or 2-6-3-77-131 or 1-2-1-8-100 or 1-32-4-1-2049)"
for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_attention.py -k "$cases" 2>&1 | tail -1 | sed "s/^/$tool: /" | tee -a $OUT/sanitizer.txt
done
[[ ${1:-} == tests ]] && exit 0
match=gqa; [[ ${1:-} == all ]] && match=""
timeout 330 python3 bench/bench_sweep.py --out $OUT/run1 --only attention --match "$match" 2>&1 | grep -v "^|" | tail -60
rm -f $OUT/*/sweep.md
