# The third call: every GPU test (after epilogues through reshapes), then the models again.
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib:${LD_LIBRARY_PATH:-} PYTHONPATH=$PWD/python
export HDS_CACHE_DIR=/tmp/hds-cache3
timeout 330 python3 -m pytest -q -x --timeout 200 tests/gpu 2>&1 | tail -4 | tee $OUT/pytest-all.txt
timeout 240 python3 bench/bench_torch.py --out $OUT/run3 2>&1 | grep "^|"
rm -rf $OUT/run3/debug
true
