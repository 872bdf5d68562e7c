# On the lent GPU: ResNet-18 at batch 1 and the Llama-3 decode layer through
# torch.compile(backend="hds") (bench/bench_torch.py) with this tree's stdlib ("after") and the
# one before the unrolled cluster sums (.devcarry/before: hdsc and `git archive <before> stdlib`),
# alternating; then the GPU tests of the kernels changed.
#   bash bench/results/2026-11-26-h100-cluster-sums/run.sh [tests] [after|before ...]
source bench/device_env.sh
unset HDS_EMITTED_DIR
export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
for step in "$@"; do
    case $step in
    tests)
        export HDSC=$PWD/.devcarry/bin/hdsc HDS_EMITTED_DIR=$PWD/.devcarry/emitted
        python3 -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_ops.py -k "conv or skinny or split or few_rows" 2>&1 |
            tail -3 | tee "$out/pytest-split.txt"
        unset HDS_EMITTED_DIR ;;
    after|before)
        if [[ $step == after ]]; then export HDSC=$PWD/.devcarry/bin/hdsc; else export HDSC=$PWD/.devcarry/before/bin/hdsc; fi
        n=$(ls -d "$out"/$step* 2>/dev/null | wc -l)
        HDS_CACHE_DIR=/tmp/hds-cache-$step python3 bench/bench_torch.py --out "$out/$step$((n + 1))" \
            --only resnet18_b1 llama_layer_decode_s1024 2>&1 | grep -v "^{" | tail -3
        rm -rf "$out/$step$((n + 1))/debug" ;;
    esac
done
