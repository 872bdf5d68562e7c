"""Channels-last convolutions for the torch.compile backend (dynamo.py, _aten.py).

A model's ATen graph is NCHW. On sm_90a a convolution of f16/bf16 with a multiple of 8
channels is a GEMM of 128-byte rows when x is NHWC and the weights [O, R, S, C]
(conv2d_nhwc, stdlib/conv2d_wgmma.hds): ResNet-18's convolutions at batch 32 take 0.3-0.6 of
the NCHW schedules' time (bench/results/2026-11-28-h100-conv-nhwc). So, as Inductor does, the
translation keeps such convolutions' results NHWC, and the batch norms, element-wise ops and
residual adds and max pools that read them, until an op that needs NCHW reads one (a permute
back there; a global average pool reads NHWC as it is): `plan` marks the nodes whose value is
NHWC, `expression` writes them.

Where a convolution leaves too few tiles for the GPU (batch 1: NCHW's schedules split them
over clusters) it stays NCHW. HDS_CHANNELS_LAST=1 takes every 2-D convolution channels-last
whatever the target, type and size (the CPU tests), an input of fewer than 8 channels padded
to 8 (to_nhwc: RGB), =0 none.
"""
from __future__ import annotations

import os

from . import _aten

TO_NHWC, TO_NCHW = [0, 2, 3, 1], [0, 3, 1, 2]


def forced() -> bool | None:
    """HDS_CHANNELS_LAST as True / False, None where unset (the target decides)."""
    v = os.environ.get("HDS_CHANNELS_LAST")
    return None if v is None or v == "" else v not in ("0", "false", "no")


def padded_channels(node) -> int | None:
    """8 for a convolution of fewer than 8 input channels whose filter rows of 8 channels fit one
    slice of 64 (S <= 8: ResNet's 7 x 7 stem on RGB): its input is padded with zero channels
    (to_nhwc) and its weights with zero ones; None for others."""
    if node.meta.get("hds_ohwc"):
        return node.meta.get("hds_channels")
    c, s = _aten.shape_of(node.args[0])[1], _aten.shape_of(node.args[1])[3]
    return 8 if isinstance(c, int) and c < 8 and isinstance(s, int) and s <= 8 else None


def conv_wants_nhwc(node, enabled: bool) -> bool:
    """A convolution that runs as conv2d_nhwc: 2-D and supported, f16/bf16, channels a multiple of
    8 and at least 100 tiles of 64 pixels x 128 channels (a ResNet-18 convolution at batch 32 has
    100 to 1568, at batch 1 at most 49) — or any 2-D convolution under HDS_CHANNELS_LAST=1, fewer
    channels than 8 padded to 8 (`padded_channels`). (ResNet-18's stem so at batch 32, with its max
    pool NHWC, took 186 us where NCHW and a permute after the pool take 163:
    bench/results/2026-11-28-h100-conv-nhwc.)"""
    if node.meta.get("hds_ohwc"):
        return True
    if node.op != "call_function" or _aten._target(node) != "convolution" or _aten.supported(node) is not None:
        return False
    if forced() is not None:
        return forced()
    if not enabled:
        return False
    x = node.args[0]
    shape, out = _aten.shape_of(x), _aten.shape_of(node)
    if not all(isinstance(d, int) for d in shape + out) or _aten.dtype_of(node) not in ("f16", "bf16"):
        return False
    n, _, p, q = out
    tiles = -(-n * p * q // 64) * -(-out[1] // 128)
    return shape[1] % 8 == 0 and tiles >= 100


def _rank4(node) -> bool:
    return _aten.is_tensor(node) and len(_aten.shape_of(node)) == 4


def per_channel(node, out) -> bool:
    """Whether `node` is a vector of out's C values viewed as [C, 1, 1] or [1, C, 1, 1] (a folded batch
    norm's scale or shift, a bias): against an NHWC value, the vector itself."""
    if _aten._target(node) not in _aten.VIEWS or not _aten.is_tensor(node):
        return False
    shape, src = _aten.shape_of(node), node.args[0]
    c = _aten.shape_of(out)[1]
    return (shape in ([c, 1, 1], [1, c, 1, 1]) and hasattr(src, "op") and _aten.is_tensor(src)
            and _aten.shape_of(src) == [c])


def plan(gm, enabled: bool) -> set:
    """The nodes of `gm` whose value the translation holds NHWC: the convolutions that want it,
    then batch norms and max pools (their item 0) of them, and element-wise ops of them whose
    tensor operands all have the result's 4-D shape or are per-channel vectors (`per_channel`);
    others keep NCHW (a GELU, say: its operand is permuted back)."""
    nhwc: set = set()
    for node in gm.graph.nodes:
        if node.op != "call_function":
            continue
        op = _aten._target(node)
        if op == "convolution":
            # A padded input is converted from NCHW (to_nhwc), with weights padded outside the graph.
            padded = padded_channels(node) is not None
            if conv_wants_nhwc(node, enabled) and (not padded or (node.meta.get("hds_ohwc")
                                                                  and node.args[0] not in nhwc)):
                nhwc.add(node)
        elif op == "getitem" and _aten._target(node.args[0]) in ("_native_batch_norm_legit_no_training",
                                                                 "max_pool2d_with_indices"):
            if node.args[1] == 0 and node.args[0].args[0] in nhwc:
                nhwc.add(node)
        elif op in _aten.UNARY or op in _aten.BINARY:
            tensors = [a for a in node.args if hasattr(a, "op")]
            if (any(a in nhwc for a in tensors) and _rank4(node)
                    and all((_rank4(a) and _aten.shape_of(a) == _aten.shape_of(node)) or per_channel(a, node)
                            for a in tensors)):
                nhwc.add(node)
    return nhwc


def ref_in(node, nhwc: set, want_nhwc: bool, name) -> str:
    """`node`'s value as the reader wants it: its name, or a permute of it where its layout differs."""
    text = name(node)
    if not _rank4(node) or (node in nhwc) == want_nhwc:
        return text
    return f"permute({text}, dims={TO_NHWC if want_nhwc else TO_NCHW})"


def expression(node, act, ref) -> str:
    """The .hds expression of a node that `plan` holds NHWC; `act(a)` names a 4-D operand NHWC,
    `ref(a)` another argument as it is."""
    op, a = _aten._target(node), node.args
    if op == "convolution":
        x, w, bias, stride, padding = a[:5]
        weights = ref(w) if node.meta.get("hds_ohwc") else f"permute({ref(w)}, dims={TO_NHWC})"
        channels = padded_channels(node)
        source = f"to_nhwc({ref(x)}, channels={channels})" if channels else act(x)
        conv = f"conv2d_nhwc({source}, {weights}, stride={stride[0]}, pad={padding[0]})"
        return conv if bias is None else f"({conv} + {ref(bias)})"
    if op == "getitem" and _aten._target(node.args[0]) == "max_pool2d_with_indices":
        return f"max_pool2d_nhwc({act(node.args[0].args[0])}, {_aten.max_pool_args(node.args[0])})"
    if op == "getitem":  # a batch norm's item 0, folded into a scale and a shift per channel (the last dimension)
        x, w, b, mean, var, _, eps = node.args[0].args
        scale = f"(rsqrt({ref(var)} + {_aten._scalar(eps)}) * {ref(w)})"
        return f"(({act(x)} - {ref(mean)}) * {scale} + {ref(b)})"
    if op in _aten.UNARY:
        return f"{_aten.UNARY[op]}({act(a[0])})"
    def operand(v):
        if not hasattr(v, "op"):
            return _aten._scalar(v)
        return ref(v.args[0]) if per_channel(v, node) else act(v)
    return f"({operand(a[0])} {_aten.BINARY[op]} {operand(a[1])})"


def reduce_expression(node, nhwc: set, name) -> str | None:
    """A mean or sum over the height and width of an NHWC value (the global average pool) reads
    it as it is, over its dimensions 1 and 2; None for any other node."""
    op, a = _aten._target(node), node.args
    if op not in ("mean", "sum") or len(a) < 2 or a[0] not in nhwc or node.kwargs.get("dtype") is not None:
        return None
    if sorted(_aten._dim(d, 4) for d in a[1]) != [2, 3]:
        return None
    reduced = f"{op}({name(a[0])}, axes=[1, 2])"
    keep = a[2] if len(a) > 2 else node.kwargs.get("keepdim", False)
    return f"reshape({reduced}, shape=[{', '.join(str(d) for d in _aten.shape_of(node))}])" if keep else reduced


def freeze_conv_weights(gm, parameters: list, enabled: bool, frozen_layout) -> int:
    """The weights of the convolutions that run channels-last, where they are parameters, are
    permuted to [O, R, S, C] once and kept between calls (`frozen_layout(parameter, dims)`, run in
    eager before the partition); the convolution is marked (`hds_ohwc`) so that the translation
    reads them as they are. Returns how many."""
    import torch

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(parameters):
        return 0
    count = 0
    for node in list(gm.graph.nodes):
        if not conv_wants_nhwc(node, enabled) or node.meta.get("hds_ohwc"):
            continue
        w = node.args[1]
        if w not in placeholders or parameters[placeholders.index(w)] is None:
            continue
        val, channels = w.meta["val"], padded_channels(node)
        with gm.graph.inserting_before(node):
            frozen = gm.graph.create_node("call_function",
                                          frozen_layout(parameters[placeholders.index(w)], TO_NHWC, channels),
                                          (w,), name="weight_ohwc")
        shape = [val.shape[i] for i in TO_NHWC][:3] + [channels or val.shape[1]]
        frozen.meta = {"val": torch.empty(shape, dtype=val.dtype, device="meta")}
        node.args = (node.args[0], frozen) + tuple(node.args[2:])
        node.meta["hds_ohwc"], node.meta["hds_channels"] = True, channels
        count += 1
    gm.recompile()
    return count


def restore_conv_weights(sub) -> None:
    """A partition that runs in eager after all: its marked convolutions read their weights
    permuted back to [O, C, R, S]."""
    import torch

    for node in list(sub.graph.nodes):
        if node.op == "call_function" and node.meta.get("hds_ohwc"):
            with sub.graph.inserting_before(node):
                back = sub.graph.call_function(torch.ops.aten.permute.default, (node.args[1], TO_NCHW))
                if node.meta.get("hds_channels"):  # the zero channels dropped
                    c = _aten.shape_of(node.args[0])[1]
                    back = sub.graph.call_function(torch.ops.aten.slice.Tensor, (back, 1, 0, c))
            node.args = (node.args[0], back) + tuple(node.args[2:])
            node.meta["hds_ohwc"] = False
    sub.recompile()
