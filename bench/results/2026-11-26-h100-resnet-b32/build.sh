# Here (no GPU needed): emits and builds resnet18_b32.hds (the partition hds.dynamo generates
# for ResNet-18 at batch 32, f16, with `target sm_90a;`) into .devcarry/resnet, with ptxas's report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-26-h100-resnet-b32
out=$root/.devcarry/resnet
name=${1:-resnet18_b32}
mkdir -p "$out"
"$root/build/hdsc" "$here/$name.hds" -I "$root/stdlib" -I "$here" -o "$out/$name.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/$name.cu" -o "$out/lib$name.so" 2>&1 | grep -E "Compiling entry|spill|Used" > "$out/ptxas-$name.txt"
