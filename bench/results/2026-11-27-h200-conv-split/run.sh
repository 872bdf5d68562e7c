#!/usr/bin/env bash
# On the GPU machine after build.sh (.devcarry carried): the convolutions with each stdlib
# side by side with torch eager (run.py), then ResNet-18 under torch.compile(backend="hds")
# (bench/bench_torch.py, batch 1 and 32) compiled with stdlib/ as committed before the change
# (`old`, placed in .devcarry/stdlib, where the package looks first beside .devcarry/bin/hdsc)
# and as it is.
set -uo pipefail
source bench/device_env.sh
here=${HERE:-bench/results/2026-11-27-h200-conv-split}  # (another folder's run.py: HERE)
python3 $here/run.py --out "$res" 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -40
source bench/results/2026-11-27-h200-conv-split/models.sh
pack convsplit
