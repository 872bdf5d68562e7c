#!/usr/bin/env bash
# Formats the C++ sources with clang-format (--check: report, change nothing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=(-i)
[[ ${1:-} == --check ]] && mode=(--dry-run --Werror)
cd "$root"
git ls-files '*.cpp' '*.h' '*.cu' | grep -v '^tests/golden/' | xargs clang-format "${mode[@]}"
