# The tree as committed, on the GPU machine (after scripts/emit_for_device.sh): every GPU
# test, then the attention sweep a second time (its first run: run.sh sweep).
source bench/device_env.sh
timeout 420 python3 -m pytest -q --timeout 60 tests/gpu 2>&1 | tail -4 | tee $OUT/pytest-all.txt
timeout 170 python3 bench/bench_sweep.py --out $OUT/run2 --only attention 2>&1 | grep -v "^|" | grep -v C7519 | tail -60
rm -f $OUT/*/sweep.md
