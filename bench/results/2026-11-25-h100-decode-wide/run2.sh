# The same after the wgmma epilogue change (rows past M skipped in the 16-byte path):
# the GPU tests of matmul and the graphs, then the GEMM and MLP sweeps twice.
source bench/device_env.sh
mkdir -p $OUT/after
python3 -m pytest -q tests/gpu -k "matmul or mlp or transformer or graph or example" 2>&1 | tail -3 | tee $OUT/after/pytest.txt
for r in 1 2; do
    python3 bench/bench_sweep.py --out $OUT/after/run$r --only gemm mlp 2>&1 | grep -v Warn | grep "M=1 \|M=16 \|M=77 \|M=128 \|llama" | grep -v "^gemm\|^llama"
done
