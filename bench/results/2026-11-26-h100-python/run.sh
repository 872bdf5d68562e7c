# On the GPU machine, from the repository root, after scripts/emit_for_device.sh: the Python
# package's GPU tests and the reshape views, then (with `bench`) bench/bench_torch.py.
# hdsc runs here (hds.load compiles): the stripped copy in .devcarry.
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib:${LD_LIBRARY_PATH:-} PYTHONPATH=$PWD/python
export HDS_CACHE_DIR=/tmp/hds-cache
if [[ ${1:-} != bench ]]; then
    timeout 300 python3 -m pytest -q -x --timeout 200 tests/gpu/test_gpu_python.py tests/gpu/test_gpu_ops.py -k "python or reshape_views" 2>&1 | tail -15 | tee $OUT/pytest.txt
    exit 0
fi
shift
timeout ${TIMEOUT:-540} python3 bench/bench_torch.py --out $OUT/${RUN:-run1} "$@" 2>&1 | grep -v Warn | tail -30
true
