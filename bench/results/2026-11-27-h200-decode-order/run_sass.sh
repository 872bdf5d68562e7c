#!/usr/bin/env bash
# On the GPU machine, .devcarry carried: instruction-level warp stall samples of our split
# kernel and cuDNN's at heads of 64, 32k keys (Nsight Compute's source page, SASS).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-27-h200-decode-order
for k in decode_split_k0 fprop; do
    timeout 200 ncu --profile-from-start off --clock-control none -k regex:$k -c 1 \
        --section SourceCounters --section WarpStateStats --section InstructionStats \
        -o "$res/$k" python3 $here/prof.py 64 1 32768 >"$res/$k.log" 2>&1
    ncu --import "$res/$k.ncu-rep" --page source --print-source sass --csv >"$res/${k}_sass.csv" 2>&1
    ncu --import "$res/$k.ncu-rep" >"$res/${k}_details.txt" 2>&1
    echo "$k: $(wc -l <"$res/${k}_sass.csv") sass lines"; head -3 "$res/${k}_sass.csv" | cut -c1-300
done
pack sass
