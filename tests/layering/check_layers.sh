#!/usr/bin/env bash
# Lower layers never include higher ones: ir/ < frontend/ < graph/ < codegen/ < driver/.
# Prints each offending #include and exits 1 when there is one.
set -euo pipefail
root=$1
layers=(ir frontend graph codegen driver)
bad=0
for i in "${!layers[@]}"; do
    layer=${layers[$i]}
    for higher in "${layers[@]:$((i + 1))}"; do
        while IFS= read -r hit; do
            echo "layering: $hit (${layer}/ must not include ${higher}/)"
            bad=1
        done < <(cd "$root" && grep -rnE "^#include \"${higher}/" "$layer" --include='*.h' --include='*.cpp' || true)
    done
done
exit $bad
