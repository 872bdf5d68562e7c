# One run of the harness's sweep (bench/bench_sweep.py ARGS) for the tree before (`base`: the .cu
# in .devcarry/base) and this one (`new`: .devcarry/emitted), one after the other, into
# $res/baseRUN and $res/newRUN (bench/device_env.sh, sourced by the caller); prints the rows of
# each sweep.md that match PATTERN (graph, sizes, ratio, fraction of copy bandwidth).
#   bash bench/results/2026-11-27-h200-tiles-192/sweeps.sh RUN PATTERN ARGS...
run=$1 pattern=$2
shift 2
for w in base new; do
    dir=$PWD/.devcarry/emitted
    [[ $w == base ]] && dir=$PWD/.devcarry/base
    HDS_EMITTED_DIR=$dir python3 bench/bench_sweep.py --out "$res/$w$run" "$@" >"$res/$w$run.log" 2>&1
    echo "$w$run: $(grep -E "$pattern" "$res/$w$run/sweep.md" | awk -F'|' '{print $2, $3, $7, $10}' | paste -sd';')"
done
