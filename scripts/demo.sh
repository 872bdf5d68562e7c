#!/usr/bin/env bash
# Installs what is missing, builds hdsc, compiles every example to readable
# CUDA (.cu + .h) with a bare `hdsc FILE -I stdlib -o OUT.cu` (each file's
# target is its own: docs/cli.md), builds each .cu with the nvcc line its first
# lines print, and says where the files are. Exits non-zero if any step fails.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
hds_setup
hds_build

out=$HDS_ROOT/out/examples
mkdir -p "$out"
export HDS_RUNTIME=$HDS_ROOT/runtime  # the folder the printed nvcc line includes
hds_log "compiling examples/*.hds with hdsc"
for ex in "$HDS_ROOT"/examples/*.hds; do
    name=$(basename "$ex" .hds)
    "$HDS_BUILD/hdsc" "$ex" -I "$HDS_ROOT/stdlib" -o "$out/$name.cu"
    target=$(sed -n 's#^// Target \(sm_[0-9a]*\).*#\1#p' "$out/$name.cu" | head -1)
    if command -v nvcc >/dev/null; then
        # The .cu's own "// Build: nvcc ..." line, run as printed (in $out, with -o added).
        build=$(sed -n 's#^// Build: ##p' "$out/$name.cu" | head -1)
        [[ $build == nvcc\ * ]] || { echo "demo: $name.cu prints no '// Build: nvcc ...' line" >&2; exit 1; }
        (cd "$out" && eval "$build -o $name.o")
        printf '  %-44s %s\n' "${out#$HDS_ROOT/}/$name.cu" "($target; + $name.h; nvcc -> $name.o)"
    else
        printf '  %-44s %s\n' "${out#$HDS_ROOT/}/$name.cu" "($target; + $name.h; nvcc not found)"
    fi
done
echo
hds_log "emitted CUDA is in $out — start with matmul_tiled.cu or softmax.cu"
