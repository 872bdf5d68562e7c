# On the GPU machine, after run.sh has built .devcarry/rows/base: ncu (full set) over prof.py's calls.
#   bash prof.sh op:N ...   -> $OUT/prof.tgz (the report, its details page, the headline lines)
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-12-01-h200-row-predicated
ncu --clock-control none --set full --profile-from-start off -o "$res/rows" python3 $here/prof.py "$@" > "$res/ncu.log" 2>&1
ncu --import "$res/rows.ncu-rep" --page details > "$res/details.txt" 2>/dev/null
grep -E "^  [a-z_]|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Issue Slots Busy|L2 Hit|Waves Per SM|Grid Size|Block Size|Eligible Warps|Executed Ipc A" "$res/details.txt" > "$res/headline.txt"
pack prof
