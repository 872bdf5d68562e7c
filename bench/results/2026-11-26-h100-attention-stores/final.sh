# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh at ade8dda, the session's
# last tree): every GPU test, with HDSC set for the Python package's.
source bench/device_env.sh
export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python HDSC=$PWD/.devcarry/bin/hdsc
timeout 500 python3 -m pytest -q --timeout 120 tests/gpu -p no:cacheprovider > $OUT/pytest-gpu-final.txt 2>&1
tail -1 $OUT/pytest-gpu-final.txt
