# Here (no GPU needed), after build.sh with the stdlib before the change (d3fcd3b): the
# hand-edited builds of run2/ (libv_lb2.so ... libv_both.so in .devcarry/resnet), made from
# the emitted resnet18_b32.cu by sed:
#   lb2 / lb3: the stem (k0) with __launch_bounds__(256, 2) / (256, 3);
#   epi: every convolution's `if (o < O)` around its stores removed (O is a multiple of 64 here);
#   both: lb2 and epi.
# Then on the GPU: VARIANTS=v_lb2,v_lb3,v_epi,v_both BUILD=v_both bash run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root/.devcarry/resnet"
b=resnet18_b32
lb='s/__launch_bounds__(256) fused_0_0_k0_/__launch_bounds__(256, N) fused_0_0_k0_/'
epi='s/if (o < [0-9]*) {  \/\/ conv2d_mma/if (true) {  \/\/ conv2d_mma/'
sed "${lb/N/2}" $b.cu > v_lb2.cu
sed "${lb/N/3}" $b.cu > v_lb3.cu
sed "$epi" $b.cu > v_epi.cu
sed "$epi; ${lb/N/2}" $b.cu > v_both.cu
for v in lb2 lb3 epi both; do
    nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a \
        v_$v.cu -o libv_$v.so
done
