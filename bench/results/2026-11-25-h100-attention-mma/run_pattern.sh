# The graph rewrite of attention written as separate ops, on the GPU machine (after
# scripts/emit_for_device.sh): the attention and graph GPU tests.
source bench/device_env.sh
timeout 300 python3 -m pytest -q --timeout 60 tests/gpu/test_gpu_attention.py tests/gpu/test_gpu_graphs.py 2>&1 | tail -4 | tee $OUT/pytest-pattern.txt
