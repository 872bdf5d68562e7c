#!/usr/bin/env bash
# Prints the hdsc flags an input asks the test tools for, from a line
#   // hdsc-flags: --arch=sm_90a
# (none: nothing). Used by the golden, nvcc and device scripts; tests/gpu/harness.py reads the same line.
sed -n 's#^// hdsc-flags: ##p' "$1" | head -1
