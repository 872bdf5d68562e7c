#!/usr/bin/env bash
# Builds the libFuzzer target with clang (ASan + UBSan) in build-fuzz/ and runs
# it, seeded from examples/ and tests/, with the keyword dictionary.
#   scripts/fuzz.sh [SECONDS]          default 60; e.g. 3600 for a long run
#   scripts/fuzz.sh --fast [SECONDS]   without ASan/UBSan in build-fuzz-fast/: crashes and internal
#                                      errors only, at several times the executions per second
# Crashing inputs are saved as tests/crash/fuzz-<hash>.hds: commit each one as
# a regression test (tests/crash runs every file there) after fixing it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=ON
build=$root/build-fuzz
if [[ ${1:-} == --fast ]]; then
    sanitize=OFF
    build=$root/build-fuzz-fast
    shift
fi
seconds=${1:-60}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHDS_FUZZ=ON \
    -DHDS_FUZZ_SANITIZE=$sanitize -DHDS_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target hdsc_fuzzer -j"$(nproc)"
corpus=$build/corpus
mkdir -p "$corpus" "$build/artifacts"
# Named after their folders: a golden test and a stdlib file may share a name.
for dir in examples tests/golden tests/errors tests/crash stdlib; do
    for f in "$root/$dir"/*.hds; do
        cp "$f" "$corpus/${dir//\//-}-$(basename "$f")"
    done
done
status=0
"$build/hdsc_fuzzer" "$corpus" -dict="$root/fuzz/hds.dict" -max_total_time="$seconds" -max_len=4096 \
    -artifact_prefix="$build/artifacts/" -print_final_stats=1 2>&1 | tail -25 || status=$?
for crash in "$build"/artifacts/{crash,timeout,oom,leak}-*; do  # (not slow-unit-*: inputs past 10 s)
    [[ -e $crash ]] || continue
    cp "$crash" "$root/tests/crash/fuzz-$(sha1sum "$crash" | cut -c1-12).hds"
    echo "saved $crash as a regression input in tests/crash/"
done
exit $status
