#!/usr/bin/env bash
# Every diagnostic in frontend/diagnostics.def has a test named after it:
# errors tests/errors/<id>.hds, warnings tests/warnings/<id>.hds.
set -euo pipefail
root=$1
missing=0
for id in $(sed -n 's/^DIAG(\([a-z_0-9]*\),.*/\1/p' "$root/frontend/diagnostics.def"); do
    if [[ ! -f "$root/tests/errors/$id.hds" ]]; then
        echo "no error test for diagnostic '$id' (expected tests/errors/$id.hds)"
        missing=1
    fi
done
for id in $(sed -n 's/^WARNING(\([a-z_0-9]*\),.*/\1/p' "$root/frontend/diagnostics.def"); do
    if [[ ! -f "$root/tests/warnings/$id.hds" ]]; then
        echo "no warning test for '$id' (expected tests/warnings/$id.hds)"
        missing=1
    fi
done
exit $missing
