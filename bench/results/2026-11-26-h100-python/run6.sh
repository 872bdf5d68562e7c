# The sixth call: the final tree (reshape runs indexed alone): every GPU test, then the models.

source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib:${LD_LIBRARY_PATH:-} PYTHONPATH=$PWD/python
export HDS_CACHE_DIR=/tmp/hds-cache6
timeout 300 python3 -m pytest -q --timeout 200 tests/gpu 2>&1 | tail -3 | tee $OUT/pytest-final.txt
timeout 260 python3 bench/bench_torch.py --out $OUT/run6 2>&1 | grep "^|"
rm -rf $OUT/run6/debug
true
