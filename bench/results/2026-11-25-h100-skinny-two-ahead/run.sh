# On the lent H100: matmul_skinny's scalar staging two slices ahead. The matmul GPU tests,
# then the GEMM and MLP sweeps twice (untuned defaults, symbolic sizes).
source bench/device_env.sh
python3 -m pytest -q tests/gpu -k "matmul or mlp" 2>&1 | tail -3 | tee $OUT/pytest.txt
for r in 1 2; do
    python3 bench/bench_sweep.py --out $OUT/run$r --only gemm mlp 2>&1 | grep -v Warn | grep "M=1 \|M=16 \|T=1 \|T=16 " | grep -v "^gemm\|^llama"
done
