"""ResNet-18 at batch 32 (f16) as hds.dynamo generates it (resnet18_b32.hds), run from the
library build.sh makes: `--once` runs the graph once (for ncu), else the graph's time per
CUDA-graph replay and, for each convolution's shape, cuDNN's (torch, NCHW and channels_last).

    python3 bench/results/2026-11-26-h100-resnet-b32/prof.py --lib .devcarry/resnet [--once] [--name N]
"""
import argparse
import re
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402


def tensors(text: str) -> dict:
    sig = re.search(r"graph \w+\((.*?)\) ->", text, re.S).group(1)
    out = {}
    for name, dims in re.findall(r"(\w+): f16\[([\dN, ]+)\]", sig):
        shape = [32 if d.strip() == "N" else int(d) for d in dims.split(",")]  # resnet18_bN: N = 32
        if len(shape) == 1:  # batch norm's vectors: means, variances, scales, shifts all positive
            t = torch.rand(shape, device="cuda") + 0.5
        elif len(shape) == 4 and name != "arg1_1":  # conv weights
            fan = shape[1] * shape[2] * shape[3]
            t = torch.randn(shape, device="cuda") / fan ** 0.5
        else:
            t = torch.randn(shape, device="cuda") / (shape[0] ** 0.5 if len(shape) == 2 else 1)
        out[name] = t.half().contiguous()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", type=Path, required=True)
    ap.add_argument("--name", default="resnet18_b32")
    ap.add_argument("--variants", default="", help="more builds of the same graph (lib<V>.so), timed beside it")
    ap.add_argument("--once", action="store_true")
    ap.add_argument("--build", help="the build to run (lib<BUILD>.so; default: --name's)")
    args = ap.parse_args()
    text = (HERE / f"{args.name}.hds").read_text()
    g = harness.Graph(args.lib / f"lib{args.build or args.name}.so", args.lib / f"{args.name}.h")
    ts = tensors(text)
    out_name = [n for c, n in g.params if n not in ts and c.endswith("*")][0]
    ts[out_name] = torch.empty(32, 1000, device="cuda", dtype=torch.half)
    sizes = {n: 32 for c, n in g.params if not c.endswith("*")}  # resnet18_bN: the batch N
    ws = g.workspace(sizes)
    assert g.run(ts, sizes, ws) == 0
    torch.cuda.synchronize()
    print("output finite:", bool(torch.isfinite(ts[out_name]).all()), "std", float(ts[out_name].float().std()))
    if args.once:
        return
    fns = {"hds": lambda s: g.run(ts, sizes, ws, s)}
    ref = ts[out_name].clone()
    for v in filter(None, args.variants.split(",")):
        gv = harness.Graph(args.lib / f"lib{v}.so", args.lib / f"{args.name}.h")
        assert gv.run(ts, sizes, ws) == 0
        torch.cuda.synchronize()
        err = float((ts[out_name].float() - ref.float()).norm() / ref.float().norm())
        print(f"{v}: relative difference to {args.name}: {err:.2e}")
        assert err < 1e-2, v
        fns[v] = lambda s, gv=gv: gv.run(ts, sizes, ws, s)
    convs = re.findall(r"let (\w+) = conv2d\((\w+), (\w+), stride=(\d), pad=(\d)\)", text)
    side = {3: 224, 64: 56, 128: 28, 256: 14, 512: 7}  # ResNet-18: an input's size by its channels
    refs = {}
    for name, src, w, stride, pad in convs:
        wt = ts[w]
        xin = torch.randn(32, wt.shape[1], side[wt.shape[1]], side[wt.shape[1]], device="cuda", dtype=torch.half)
        xcl, wcl = xin.contiguous(memory_format=torch.channels_last), wt.contiguous(memory_format=torch.channels_last)
        refs[name] = (xin, wt, xcl, wcl, int(stride), int(pad), tuple(xin.shape), tuple(wt.shape))
    for name, (xin, wt, xcl, wcl, st, pd, xs, wsh) in refs.items():
        fns[f"{name}_nchw"] = lambda s, xin=xin, wt=wt, st=st, pd=pd: torch.nn.functional.conv2d(xin, wt, stride=st, padding=pd)
        fns[f"{name}_nhwc"] = lambda s, xin=xcl, wt=wcl, st=st, pd=pd: torch.nn.functional.conv2d(xin, wt, stride=st, padding=pd)
    t = graphs_ms(fns, calls=5, reps=10)
    print(f"hds graph: {t['hds'] * 1e3:.1f} us per call")
    for v in filter(None, args.variants.split(",")):
        print(f"{v}: {t[v] * 1e3:.1f} us per call ({t['hds'] / t[v]:.2f}x)")
    total = {"nchw": 0.0, "nhwc": 0.0}
    for name, r in refs.items():
        print(f"{name}: x {r[6]} w {r[7]} stride {r[4]}: cuDNN NCHW {t[name + '_nchw'] * 1e3:.1f} us, "
              f"channels_last {t[name + '_nhwc'] * 1e3:.1f} us")
        total["nchw"] += t[name + "_nchw"] * 1e3
        total["nhwc"] += t[name + "_nhwc"] * 1e3
    print("cuDNN convolutions alone:", {k: round(v, 1) for k, v in total.items()})


if __name__ == "__main__":
    main()
