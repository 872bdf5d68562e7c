# On the GPU machine, from the repository root, with .devcarry carried (scripts/emit_for_device.sh,
# and the variants built into .devcarry/attention-variants by build_variants.sh): the variants'
# numerics and two timed runs, the attention GPU tests, then compute-sanitizer on the variants.
source bench/device_env.sh
here=bench/results/2026-11-26-h100-attention-tma
lib=.devcarry/attention-variants
timeout 60 python3 $here/run_variants.py --out $OUT --lib $lib --check-only > $OUT/check.txt 2>&1 || { tail -5 $OUT/check.txt; exit 1; }
tail -1 $OUT/check.txt
timeout 300 python3 $here/run_variants.py --out $OUT --lib $lib 2>&1 | grep -v "^check" | tail -40 | tee $OUT/variants.txt
timeout 200 python3 -m pytest -q -x --timeout 30 tests/gpu/test_gpu_attention.py 2>&1 | tail -4 | tee $OUT/pytest.txt
for tool in memcheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 python3 $here/run_variants.py --out $OUT --lib $lib \
        --check-only 2>&1 | tail -2 | sed "s/^/$tool: /" | tee -a $OUT/sanitizer.txt
done
