#!/usr/bin/env bash
set -uo pipefail
source bench/device_env.sh
export HDS_EMITTED_DIR=$PWD/.devcarry/c1/base
python3 .devcarry/c1/prof.py hds; python3 .devcarry/c1/prof.py torch
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats"
timeout 150 ncu -k regex:conv1x1 --launch-skip 3 --launch-count 1 $S python3 .devcarry/c1/prof.py hds > "$out/ncu-hds.txt" 2>&1
timeout 150 ncu --launch-skip 6 --launch-count 3 $S python3 .devcarry/c1/prof.py torch > "$out/ncu-torch.txt" 2>&1
for f in hds torch; do echo "== $f"; grep -E "^  [a-zA-Z_]|Duration|DRAM Throughput|Memory Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|Registers Per|Compute \(SM\)|Block Size|Grid Size|Mem Busy|Max Bandwidth|Warp Cycles Per Issued" "$out/ncu-$f.txt" | head -60; done
timeout 100 ncu -k regex:conv1x1 --launch-skip 3 --launch-count 1 --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum" python3 .devcarry/c1/prof.py hds > "$out/stalls-hds.txt" 2>&1
grep -E "stalled|bytes" "$out/stalls-hds.txt" | sort -k3 -g -r | head -14
