#!/usr/bin/env bash
# Installs hds from the build tree into a temporary prefix, then configures and
# builds examples/cuda-project against the installed package (no GPU needed),
# runs it, and checks that changing an imported .hds file regenerates the .cu.
set -euo pipefail
build=$1
root=$2
nvcc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cp -r "$root/examples/cuda-project" "$work/app"
cmake -S "$work/app" -B "$work/app-build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
    -DCMAKE_CUDA_COMPILER="$nvcc" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/app-build"
"$work/app-build/saxpy_app"
test -f "$work/app-build/hds/saxpy.cu" && test -f "$work/app-build/hds/saxpy.h"

# Changing a file saxpy.hds imports must regenerate saxpy.cu (depfile).
before=$(stat -c %Y.%N "$work/app-build/hds/saxpy.cu" | cut -d' ' -f1)
sleep 1
printf '\n// touched\n' >>"$work/app/kernels/scale.hds"
cmake --build "$work/app-build" | tee "$work/rebuild.log"
grep -q "hdsc saxpy.hds" "$work/rebuild.log" || { echo "saxpy.cu was not regenerated"; exit 1; }
# And a second build with nothing changed does nothing.
cmake --build "$work/app-build" | grep -q "no work to do" || { echo "rebuild was not a no-op"; exit 1; }
echo "package: installed, example project built, depfile tracked imports"
