source bench/device_env.sh
python3 bench/results/2026-11-25-h100-splitk-clusters/profile_variants.py 2>&1 | grep "^|" | tee $OUT/variants.md
