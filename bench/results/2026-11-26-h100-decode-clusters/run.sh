# On the GPU machine, with .devcarry carried (build.sh made .devcarry/decode-variants): the
# decode variants against SDPA, checked first, then two runs.
source bench/device_env.sh
python3 bench/results/2026-11-26-h100-decode-clusters/run_decode.py --out $OUT --lib .devcarry/decode-variants 2>&1 | tail -40
# Runs 3 and 4 (clusters of up to 4, B * G = 16 to 32):
#   python3 bench/results/2026-11-26-h100-decode-clusters/run_decode.py --out $OUT --lib .devcarry/decode-variants \
#       --first-run 3 --heads "2,64,8 4,64,8 2,32,8 3,64,8"
