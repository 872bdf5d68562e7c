#!/usr/bin/env bash
# Every diagnostic in frontend/diagnostics.def has an error test named after it.
set -euo pipefail
root=$1
missing=0
for id in $(sed -n 's/^DIAG(\([a-z_0-9]*\),.*/\1/p' "$root/frontend/diagnostics.def"); do
    if [[ ! -f "$root/tests/errors/$id.hds" ]]; then
        echo "no error test for diagnostic '$id' (expected tests/errors/$id.hds)"
        missing=1
    fi
done
exit $missing
