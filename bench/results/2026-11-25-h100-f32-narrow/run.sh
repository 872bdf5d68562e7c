# On the lent H100: matmul_skinny_simt with 8-column strips for M <= 16, N < 2048. The f32
# matmul GPU tests, then the GEMM sweep twice (untuned defaults, symbolic sizes).
source bench/device_env.sh
python3 -m pytest -q tests/gpu -k "f32 or few_rows" 2>&1 | tail -3 | tee $OUT/pytest.txt
for r in 1 2; do
    python3 bench/bench_sweep.py --out $OUT/run$r --only gemm 2>&1 | grep -v Warn | grep "gemm_f32" | grep -v "^gemm"
done
