# On the lent H100: `hdsc tune` (level 2) of the f32 sweep graph at the sweep's mid-size points,
# to see which SIMT tiles the default dispatch should pick past M = 16.
source bench/device_env.sh
export LD_LIBRARY_PATH=$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for kn in K=4096,N=4096 K=1000,N=1003; do
    timeout 250 .devcarry/bin/hdsc tune bench/sweep/sweep_gemm_f32.hds -I stdlib --arch=sm_80 --level 2 \
        --cache $OUT/hds-tune-$kn.json --sizes M=128,1024,$kn --runtime runtime 2>&1 | tee -a $OUT/tune.txt
done
