# ncu: stall reasons of old and s128_3_3 at M = 16, K = N = 4096.
D=$(dirname "$0")
for k in old s128_3_3; do
  echo "=== $k M=16"
  ncu --launch-skip 2 --launch-count 1 --section WarpStateStats --section SchedulerStats --section SourceCounters \
      --metrics smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_sleeping.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__cycles_active.avg,sm__cycles_elapsed.avg \
      python3 $D/launch.py $k 16 4096 4096 2>&1 | sed -n '/Section: Warp State/,$p' | grep -v "^ *-\+ *$" | head -80
done
