# ncu of old / s128_3_3 / s128_4_1 at M = 1 and 16, K = N = 4096: where the split kernel's time goes.
D=$(dirname "$0")
for cfg in "old 1" "old 16" "s128_3_3 1" "s128_3_3 16" "s128_4_1 16"; do
  set -- $cfg
  echo "=== $1 M=$2"
  ncu --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section WarpStateStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,smsp__warps_launched.sum \
      python3 $D/launch.py $1 $2 4096 4096 2>&1 | grep -E "Duration|DRAM Throughput|dram__|lts__t_bytes|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Block Limit|Cluster|Stall|Waves|Registers|Shared Memory Config|Dynamic Shared|L2 Hit|Warp Cycles Per Issued|Grid Size" 
done
