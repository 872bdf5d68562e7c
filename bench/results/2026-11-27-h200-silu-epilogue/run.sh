# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first): the
# sigmoid built-in's accuracy and the silu/sigmoid GPU tests, the MLP's kernels against
# torch.compile's (../2026-11-27-h200-mlp-profile/mlp_kernels.py), then the MLP sweep twice.
set -uo pipefail
source bench/device_env.sh
python3 -m pytest -q --timeout 300 tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_python.py -p no:cacheprovider \
    -k "sigmoid or unary or silu or llama or mlp" >$res/pytest.txt 2>&1
tail -3 $res/pytest.txt
python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py $res >$res/kernels.txt 2>&1
grep -E "^T=|k[0-9]_" $res/kernels.txt | cut -c1-110
for run in 1 2; do
    python3 bench/bench_sweep.py --out $res/sweep$run --only mlp >$res/sweep$run.log 2>&1
    grep llama $res/sweep$run/sweep.md | awk -F'|' '{print $3, $7}' | paste -sd';'
done
pack silu
