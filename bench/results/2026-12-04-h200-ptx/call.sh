#!/usr/bin/env bash
# The GPU call (README), with .devcarry carried (scripts/emit_for_device.sh first): the default
# target's GPU tests (its .cu built four ways, compute_80 PTX alone among them), the Python
# package's (nvcc flags as hds._build.nvcc_targets gives them), then what a Build line's
# object holds, back as $OUT/call.tgz.
#   bash bench/results/2026-12-04-h200-ptx/call.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_default_target.py tests/gpu/test_gpu_python.py
build=$(sed -n 's#^// Build: nvcc ##p' .devcarry/emitted/op_default_target.cu | sed 's# -c .*##')
echo "nvcc $build" | tee "$res/cuobjdump.txt"
(cd /tmp && nvcc $build -I "$OLDPWD/runtime" -c "$OLDPWD/.devcarry/emitted/op_default_target.cu" -o odt.o &&
    cuobjdump --list-elf --list-ptx odt.o) >>"$res/cuobjdump.txt" 2>&1
tail -4 "$res/cuobjdump.txt"
pack call
