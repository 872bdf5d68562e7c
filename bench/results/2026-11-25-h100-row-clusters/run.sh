source bench/device_env.sh
set -x
python3 -m pytest -q tests/gpu -k "cluster or rows_of_symbolic or softmax or norm" 2>&1 | tail -15 | tee $OUT/pytest.txt
compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu -k "in_clusters" 2>&1 | tail -5 | tee $OUT/memcheck.txt
compute-sanitizer --tool racecheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu -k "in_clusters and (8193 or 4097 or 32768 or 65537)" 2>&1 | tail -5 | tee $OUT/racecheck.txt
python3 bench/bench_sweep.py --out $OUT/run1 --only rows 2>&1 | grep -v Warn | tail -20
python3 bench/bench_sweep.py --out $OUT/run2 --only rows 2>&1 | grep -v Warn | tail -3
