"""Linear layers that read one input merged into one product (torch.compile backend, dynamo.py).

A Llama layer's q, k and v projections each multiply the same normalized input by a weight of
their own: three GEMMs, two of them (k and v at 1k tokens, 1024 x 4096 x 1024) too small to fill
the GPU. Where their weights are parameters kept transposed between calls (dynamo.FrozenLayout),
`mm(x, w_q.t())`, `mm(x, w_k.t())`, `mm(x, w_v.t())` become one `mm(x, merged)` over the
weights concatenated along N (`MergedWeights`, computed in eager once and kept, as the
transposes are), and each former product a slice of its columns, which the .hds graph's readers
take in place (docs/graphs.md, strided views). A SwiGLU's products (the gate, read by `silu`, and
the up projection, multiplied by that) are left alone: the graph builder runs that pair as
`swiglu`, both products and the silu·mul in one kernel.
"""
from __future__ import annotations

from . import _aten
from ._fold import Kept

class MergedWeights(Kept):
    """`cat([w.t() for w in weights], dim=1)` in its own memory, kept between calls (`Kept`)."""

    def __init__(self, tensors: list):
        super().__init__(tensors)
        self.__name__ = self.__qualname__ = "merged_weights"  # as FX prints a call

    @staticmethod
    def _merge(*weights):
        import torch

        return torch.cat([w.t() for w in weights], dim=1).contiguous()

    def __call__(self, *weights):
        return self.kept(weights, self._merge)


def _readers(node):
    """The nodes that read node's value, through views."""
    for user in node.users:
        if _aten._target(user) in _aten.VIEWS:
            yield from _readers(user)
        else:
            yield user


def _source(node):
    """node, or what the views it is of read."""
    while hasattr(node, "op") and node.op == "call_function" and _aten._target(node) in _aten.VIEWS:
        node = node.args[0]
    return node


def _in_swiglu(node) -> bool:
    """Whether product node is a SwiGLU's gate (read by silu) or up (multiplied by a silu)."""
    for r in _readers(node):
        if _aten._target(r) == "silu":
            return True
        if _aten._target(r) == "mul" and any(hasattr(a, "op") and _aten._target(_source(a)) == "silu" for a in r.args):
            return True
    return False


def _input_key(x):
    """The product's left operand as (what its views read, its shape, symbolic sizes as text):
    the same key, the same values."""
    return _source(x), tuple(str(d) for d in x.meta["val"].shape)


def merge_projections(gm, frozen_layout) -> int:
    """Products `mm(x, FrozenLayout(w, [1, 0]))` of one x (or views of one tensor of one shape),
    not a SwiGLU's, merged as the module's docstring says. Returns how many products were."""
    import torch

    aten = torch.ops.aten
    groups: dict = {}
    for node in gm.graph.nodes:
        if node.op != "call_function" or _aten._target(node) != "mm":
            continue
        w = node.args[1]
        if (not hasattr(w, "op") or not isinstance(w.target, frozen_layout) or w.target.dims != [1, 0]
                or w.target.channels is not None or _in_swiglu(node)):
            continue
        groups.setdefault(_input_key(node.args[0]), []).append(node)
    merged = 0
    for members in groups.values():
        vals = [m.meta["val"] for m in members]
        if len(members) < 2 or len({v.dtype for v in vals}) != 1:
            continue
        weights = [m.args[1] for m in members]
        widths = [v.shape[1] for v in vals]
        rows, dtype = vals[0].shape[0], vals[0].dtype
        first = members[0]
        # (with the inputs: a value computed in eager, as the partitions' inputs are)
        with gm.graph.inserting_after(next(n for n in reversed(gm.graph.nodes) if n.op == "placeholder")):
            kept = MergedWeights([w.target.tensors[0] for w in weights])
            cat = gm.graph.create_node("call_function", kept, tuple(w.args[0] for w in weights),
                                       name="merged_weights")
            cat.meta = {"val": torch.empty((first.args[1].meta["val"].shape[0], sum(widths)), dtype=dtype,
                                           device="meta")}
        with gm.graph.inserting_before(first):
            mm = gm.graph.call_function(aten.mm.default, (first.args[0], cat))
            mm.meta = {"val": torch.empty((rows, sum(widths)), dtype=dtype, device="meta")}
            start = 0
            for m, width in zip(members, widths):
                part = gm.graph.call_function(aten.slice.Tensor, (mm, 1, start, start + width))
                part.meta = {"val": torch.empty((rows, width), dtype=dtype, device="meta")}
                # contiguous, as mm's result was, for the views that read it (in eager; in the
                # .hds graph a clone is no copy)
                dense = gm.graph.call_function(aten.clone.default, (part,), {"memory_format": torch.contiguous_format})
                dense.meta = dict(part.meta)
                m.replace_all_uses_with(dense)
                start += width
        for m in members:  # (after the insertions before the first of them)
            gm.graph.erase_node(m)
        merged += len(members)
    if merged:
        gm.graph.eliminate_dead_code()
        gm.recompile()
    return merged
