# Sourced on the GPU machine after bench/device_env.sh ($res): ResNet-18 at batch 1 and 32 under
# torch.compile(backend="hds") (bench/bench_torch.py: hds, eager and inductor side by side) with
# the stdlib before the change (`old`: .devcarry/convsplit/old-stdlib, placed in .devcarry/stdlib,
# where the package looks first beside .devcarry/bin/hdsc) and the tree's (`new`), a process each,
# two runs, into $res/models-SET-RUN.
for run in 1 2; do
    for set in old new; do
        rm -rf .devcarry/stdlib
        [[ $set == old ]] && cp -r .devcarry/convsplit/old-stdlib .devcarry/stdlib
        HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py --only resnet18_b1 resnet18_b32 \
            --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep "resnet" "$res/models-$set-$run/torch.md"
    done
done
rm -rf .devcarry/stdlib
