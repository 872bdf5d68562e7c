# On the GPU machine, with .devcarry carried: ResNet-18's kernels under the hds backend and
# torch.compile (resnet_kernels.py), then bench/bench_torch.py for the models.
set -uo pipefail
source bench/device_env.sh
python3 bench/results/2026-11-27-h200-resnet-profile/resnet_kernels.py $res >$res/kernels.txt 2>&1
grep -E "^###" $res/kernels.txt
python3 bench/bench_torch.py --out $res/models >$res/models.log 2>&1
cat $res/models/torch.md 2>/dev/null || tail -20 $res/models.log
rm -rf $res/debug-b1
pack resnet
