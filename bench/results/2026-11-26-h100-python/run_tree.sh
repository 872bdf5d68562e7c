# Runs 3, 4 and 6 (each on the tree of its time), on the GPU machine after
# scripts/emit_for_device.sh: every GPU test, then bench/bench_torch.py with a cold cache,
# into $OUT/NAME.   bash bench/results/2026-11-26-h100-python/run_tree.sh NAME
# (Runs 5 and 7: bench/bench_torch.py again on the same machine, the cache warm.)
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib:${LD_LIBRARY_PATH:-} PYTHONPATH=$PWD/python
export HDS_CACHE_DIR=/tmp/hds-cache-$1
timeout 300 python3 -m pytest -q --timeout 200 tests/gpu 2>&1 | tail -3 | tee $OUT/pytest-final.txt
timeout 260 python3 bench/bench_torch.py --out $OUT/$1 2>&1 | grep "^|"
rm -rf $OUT/$1/debug
true
