# On the GPU machine, with .devcarry carried: ncu over prof.py's calls (the last of each kernel).
#   bash bench/results/2026-11-26-h100-row-profile/prof.sh OP N R
set -uo pipefail
source bench/device_env.sh
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib
here=bench/results/2026-11-26-h100-row-profile
python3 $here/prof.py "$@" >/dev/null 2>&1  # builds and compiles first
ncu --clock-control none --set full -k regex:"${KERNEL:-sweep|triton}" -s ${SKIP:-4} -c ${COUNT:-2} -o "$out/$1-$2" python3 $here/prof.py "$@" > "$out/ncu-$1-$2.log" 2>&1
ncu --import "$out/$1-$2.ncu-rep" --page details --csv > "$out/$1-$2.csv" 2>/dev/null
ncu --import "$out/$1-$2.ncu-rep" --page details 2>/dev/null | grep -E "^  [a-z_]|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Cluster|Warp Cycles Per Issued|Stall|L2 Hit|L1/TEX Hit|Waves Per SM|Grid Size|Block Size" | head -80
