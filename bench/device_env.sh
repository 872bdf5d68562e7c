# device_env.sh — sourced by the scripts that run on the lent GPU machine:
# $out (results, from $OUT), the emitted .cu files carried in .devcarry/emitted,
# CUDA on PATH, and a record of the device and toolkit.
out=${OUT:-/tmp/hds-out}
mkdir -p "$out"
export HDS_EMITTED_DIR=$PWD/.devcarry/emitted PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; nvcc --version | tail -2; } >"$out/device.txt" 2>&1
export HDSC=$PWD/.devcarry/bin/hdsc LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
# What a script keeps goes into $res and comes back as one archive, `pack NAME` ($out/NAME.tgz):
# the device returns at most 8 files.
res=/tmp/hds-results
mkdir -p "$res"
cp "$out/device.txt" "$res/"
pack() { tar -czf "$out/$1.tgz" -C "$res" .; }
# `gpu_tests FILE ARGS...`: pytest over ARGS (the GPU tests to run, -k ...) with 8 workers into
# $res/FILE, its last line printed.
gpu_tests() {
    local f=$1
    shift
    python3 -m pytest -q -n 8 "$@" -p no:cacheprovider >"$res/$f" 2>&1
    tail -1 "$res/$f"
}
# `build_sets TAG SCRIPT [ARGS...]`: `SCRIPT --out $res --build SET ARGS...` in the background for
# each set of .devcarry/TAG/sets (bench/stdlib_sets.sh), its log in $res/build-SET.log; `wait` for them.
build_sets() {
    local tag=$1 script=$2 set
    shift 2
    for set in $(cat ".devcarry/$tag/sets"); do
        python3 "$script" --out "$res" --build "$set" "$@" >"$res/build-$set.log" 2>&1 &
    done
}
# `sanitize PYTEST_ARGS...`: compute-sanitizer memcheck, then racecheck, over those GPU tests (one
# process each) into $res/sanitizer-TOOL.txt, each exit status and summary printed.
sanitize() {
    local tool
    for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q "$@" -p no:cacheprovider \
            >"$res/sanitizer-$tool.txt" 2>&1
        echo "compute-sanitizer $tool: exit $?" | tee -a "$res/sanitizer-$tool.txt"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$res/sanitizer-$tool.txt" | tail -3
        echo "$tool: ${SECONDS}s"
    done
}
# `sweeps NAME ONLY`: bench/bench_sweep.py --only ONLY twice into $res/sweep1, sweep2 (each with
# its log), packed as NAME after each.
sweeps() {
    local run
    for run in 1 2; do
        timeout 280 python3 bench/bench_sweep.py --out "$res/sweep$run" --only "$2" >"$res/sweep$run.log" 2>&1
        tail -1 "$res/sweep$run.log"
        echo "sweep $run: ${SECONDS}s"
        pack "$1"
    done
}
