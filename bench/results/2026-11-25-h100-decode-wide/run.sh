# On the lent H100 (device `run`, .devcarry carried): every GPU test, then the GEMM and
# MLP sweeps twice (untuned defaults, symbolic sizes).
source bench/device_env.sh
python3 -m pytest -q tests/gpu 2>&1 | tail -5 | tee $OUT/pytest.txt
for r in 1 2; do
    python3 bench/bench_sweep.py --out $OUT/run$r --only gemm mlp 2>&1 | grep -v Warn | grep "M=1 \|M=16 \|llama" | grep -v "^gemm\|^llama"
done
