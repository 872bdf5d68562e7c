"""Batch norms folded for inference (torch.compile backend, dynamo.py).

`_native_batch_norm_legit_no_training(x, w, b, mean, var, _, eps)` is `x * scale + shift` with
scale = w / sqrt(var + eps) and shift = b - mean * scale per channel. Where w, b, mean and var
are inputs of the compiled graph (a model's parameters and buffers), scale and shift are
computed in eager once (`FoldedBatchNorm`) and kept between calls, so that the .hds graph
multiplies and adds two vectors in the convolution's stores; computed in the graph, each batch
norm's scale was a kernel of its own where the stores read it 16 bytes at a time (19 kernels of
about 1.2 us in ResNet-18 at batch 32, bench/results/2026-11-28-h100-conv-nhwc).
"""
from __future__ import annotations

from . import _aten


class Kept:
    """A value computed in eager from some of the compiled graph's inputs (parameters, buffers)
    and kept between calls while they are the tensors compiled with: the same memory (which
    holding them keeps from other tensors) and shapes, their version counters unmoved (an
    in-place update, `copy_`, `mul_`, `load_state_dict`, computes it again; writes through `.data`
    are not seen). Other tensors get it computed anew at each call."""

    def __init__(self, tensors: list):
        self.tensors, self.versions, self.result = list(tensors), None, None

    def kept(self, args: tuple, compute):
        if any(a.data_ptr() != t.data_ptr() or a.shape != t.shape for a, t in zip(args, self.tensors)):
            return compute(*args)
        versions = [t._version for t in self.tensors]
        if self.result is None or versions != self.versions:
            self.versions, self.result = versions, compute(*args)
        return self.result


class FoldedBatchNorm(Kept):
    """scale (`part` 0) or shift (1) of a batch norm from (w, b, mean, var), in their dtype
    (computed in float32), kept between calls (`Kept`)."""

    def __init__(self, tensors: list, eps: float, part: int):
        super().__init__(tensors)
        self.eps, self.part = float(eps), part
        self.__name__ = self.__qualname__ = "folded_batch_norm"  # as FX prints a call

    def _fold(self, w, b, mean, var):
        scale = w.float() * (var.float() + self.eps).rsqrt()
        return (scale if self.part == 0 else b.float() - mean.float() * scale).to(w.dtype)

    def __call__(self, w, b, mean, var):
        return self.kept((w, b, mean, var), self._fold)


def fold_batch_norms(gm, example_inputs: list) -> int:
    """Each batch norm whose weight, bias, mean and variance are graph inputs (placeholders) becomes
    `x * view(scale) + view(shift)` with scale and shift from FoldedBatchNorm nodes (run in eager
    before the partition). Returns how many."""
    import torch

    aten = torch.ops.aten
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(example_inputs):
        return 0
    count = 0
    for node in list(gm.graph.nodes):
        if node.op != "call_function" or _aten._target(node) != "_native_batch_norm_legit_no_training":
            continue
        x, w, b, mean, var, _, eps = node.args
        params = [w, b, mean, var]
        if any(p not in placeholders for p in params):
            continue
        items = [u for u in node.users if _aten._target(u) == "getitem"]
        if not items or len(items) != len(node.users) or any(u.args[1] != 0 for u in items):
            continue  # the mean and inverse deviation it also returns are read
        shape = list(x.meta["val"].shape)
        per_channel = [shape[1]] + [1] * (len(shape) - 2)
        tensors = [example_inputs[placeholders.index(p)] for p in params]
        with gm.graph.inserting_before(items[0]):
            vals = []
            for part in (0, 1):
                fold = gm.graph.create_node("call_function", FoldedBatchNorm(tensors, eps, part), tuple(params),
                                            name=("bn_scale", "bn_shift")[part])
                fold.meta = {"val": torch.empty(shape[1], dtype=w.meta["val"].dtype, device="meta")}
                view = gm.graph.call_function(aten.view.default, (fold, per_channel))
                view.meta = {"val": torch.empty(per_channel, dtype=w.meta["val"].dtype, device="meta")}
                vals.append(view)
            mul = gm.graph.call_function(aten.mul.Tensor, (x, vals[0]))
            mul.meta = {"val": torch.empty(shape, dtype=x.meta["val"].dtype, device="meta")}
            add = gm.graph.call_function(aten.add.Tensor, (mul, vals[1]))
            add.meta = dict(mul.meta)
        for u in items:
            u.replace_all_uses_with(add)
            gm.graph.erase_node(u)
        gm.graph.erase_node(node)
        count += 1
    gm.recompile()
    return count
