# On the lent GPU, with .devcarry carried: compute-sanitizer memcheck and racecheck over the f32
# split GPU tests at the smaller shapes (each split and variant), writing sanitizer.txt to $OUT.
#   bash bench/results/2026-11-26-h100-f32-split/sanitize.sh
source bench/device_env.sh
sel="f32_split_sm90 and (33-300-129 or 544-40-100 or 1088-40-100 or 2144-40-100 or 3169-3-32 or 2945-3-129 or 4225-3-129 or 320-520-320)"
for tool in memcheck racecheck; do
    timeout 280 compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -p no:cacheprovider \
        tests/gpu/test_gpu_ops.py -k "$sel" 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" |
        sed "s/^/$tool: /" | tee -a "$out/sanitizer.txt"
done
