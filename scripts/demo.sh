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
hds_log "compiling examples/*.hds with hdsc, then nvcc on $(nproc) cores"
names=()
for ex in "$HDS_ROOT"/examples/*.hds; do
    name=$(basename "$ex" .hds)
    "$HDS_BUILD/hdsc" "$ex" -I "$HDS_ROOT/stdlib" -o "$out/$name.cu"
    names+=("$name")
done
# Each .cu's own "// Build: nvcc ..." line, run as printed (in $out, with -o added), $(nproc) at a
# time (the large sm_90a graphs take ptxas a minute or more); the lines print in order.
build_one() {
    local name=$1 build
    build=$(sed -n 's#^// Build: ##p' "$out/$name.cu" | head -1)
    [[ $build == nvcc\ * ]] || { echo "demo: $name.cu prints no '// Build: nvcc ...' line"; return 1; }
    (cd "$out" && eval "$build -o $name.o")
}
have_nvcc=0
command -v nvcc >/dev/null && have_nvcc=1
for name in "${names[@]}"; do
    [[ $have_nvcc -eq 1 ]] || break
    while [[ $(jobs -rp | wc -l) -ge $(nproc) ]]; do wait -n || true; done
    rm -f "$out/$name.nvcc.rc"
    (
        rc=0
        build_one "$name" >"$out/$name.nvcc.log" 2>&1 || rc=$?
        echo $rc >"$out/$name.nvcc.rc"
    ) &
done
wait
failed=0
for name in "${names[@]}"; do
    target=$(sed -n 's#^// Target \(sm_[0-9a]*\).*#\1#p' "$out/$name.cu" | head -1)
    if [[ $have_nvcc -eq 0 ]]; then
        printf '  %-44s %s\n' "${out#$HDS_ROOT/}/$name.cu" "($target; + $name.h; nvcc not found)"
    elif [[ $(cat "$out/$name.nvcc.rc" 2>/dev/null) == 0 ]]; then
        printf '  %-44s %s\n' "${out#$HDS_ROOT/}/$name.cu" "($target; + $name.h; nvcc -> $name.o)"
    else
        cat "$out/$name.nvcc.log" >&2
        echo "demo: nvcc failed on $name.cu" >&2
        failed=1
    fi
done
[[ $failed -eq 0 ]] || exit 1
echo
hds_log "emitted CUDA is in $out — start with matmul_tiled.cu or softmax.cu"
