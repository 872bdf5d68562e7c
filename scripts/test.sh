#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: Catch2 unit tests,
# golden files, error tests, malformed-input and CLI checks, nvcc compiles
# (all through ctest), then the pytest harness (GPU tests skip without a GPU).
#   scripts/test.sh              the full suite
#   scripts/test.sh --sanitize   the same under AddressSanitizer + UBSan
#   scripts/test.sh --fuzz       also a 60 s libFuzzer run (scripts/fuzz.sh)
set -euo pipefail
source "$(dirname "$0")/setup.sh"

sanitize=0
fuzz=0
for arg in "$@"; do
    case $arg in
        --sanitize) sanitize=1 ;;
        --fuzz) fuzz=1 ;;
        *) echo "usage: scripts/test.sh [--sanitize] [--fuzz]" >&2; exit 2 ;;
    esac
done

[[ $sanitize -eq 1 ]] && HDS_DEBIAN_PACKAGES+=("${HDS_SANITIZE_PACKAGES[@]}")
hds_setup
if [[ $sanitize -eq 1 ]]; then
    # clang (as the fuzzer's build): the one build that checks that the sources compile with it.
    HDS_BUILD=$HDS_ROOT/build-sanitize
    CC=clang CXX=clang++ hds_build -DCMAKE_BUILD_TYPE=Debug -DHDS_SANITIZE=ON
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
    hds_build
fi

hds_log "ctest"
(cd "$HDS_BUILD" && ctest --output-on-failure -j"$(nproc)")

hds_log "pytest: CPU emulator and the Python package, on $(nproc) cores"
HDSC=$HDS_BUILD/hdsc "$HDS_PYTHON" -m pytest -q -rs --durations=15 -n "$(nproc)" --dist worksteal "$HDS_ROOT/tests/emu" "$HDS_ROOT/tests/python"
hds_log "pytest: GPU (skipped without one)"
HDSC=$HDS_BUILD/hdsc "$HDS_PYTHON" -m pytest -q -rs "$HDS_ROOT/tests/gpu"

if [[ $fuzz -eq 1 ]]; then
    hds_log "fuzzing for 60 s"
    "$HDS_ROOT/scripts/fuzz.sh" 60
fi
