# On the lent GPU, from the repository root (carry .devcarry): the conv GPU tests (with
# compute-sanitizer memcheck), then ResNet-18 through torch.compile(backend="hds")
# (bench/bench_torch.py) with this tree's stdlib ("after") and the one before
# (.devcarry/before: the same hdsc and `git archive d3fcd3b stdlib`), alternating.
#   bash bench/results/2026-11-26-h100-resnet-b32/models.sh [tests] [after|before ...]
source bench/device_env.sh
export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
for step in "$@"; do
    case $step in
    tests)
        export HDSC=$PWD/.devcarry/bin/hdsc
        python3 -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_ops.py -k "conv" 2>&1 | tail -3 | tee "$out/pytest-conv.txt"
        compute-sanitizer --tool memcheck --error-exitcode 1 python3 -m pytest -q -p no:cacheprovider \
            tests/gpu/test_gpu_ops.py -k "conv_f16 or stem or conv1x1 or tensor_cores_tiles" 2>&1 | tail -3 | tee "$out/memcheck-conv.txt" ;;
    after|before)
        (
        unset HDS_EMITTED_DIR
        if [[ $step == after ]]; then export HDSC=$PWD/.devcarry/bin/hdsc; else export HDSC=$PWD/.devcarry/before/bin/hdsc; fi
        n=$(ls -d "$out"/$step* 2>/dev/null | wc -l)
        HDS_CACHE_DIR=/tmp/hds-cache-$step python3 bench/bench_torch.py --out "$out/$step$((n + 1))" \
            --only resnet18_b1 resnet18_b32 2>&1 | grep -v "^{" | tail -3
        rm -rf "$out/$step$((n + 1))/debug"
        ) ;;
    esac
done
