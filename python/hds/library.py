"""Loaded graphs as torch custom ops (`torch.ops.hds.NAME`), with a fake
implementation from the manifest's shape expressions, so that they trace under
torch.compile(fullgraph=True) and replay under CUDA-graph capture.

    mod = hds.load("mlp.hds")
    hds.register(mod)                     # torch.ops.hds.mlp(x, w1, b1, w2, b2)
"""
from __future__ import annotations

from ._call import GraphFunction
from ._manifest import DTYPES, evaluate
from .errors import ArgumentError

# qualified name -> the GraphFunction its implementation calls now: registering a graph
# of the same name again (a reloaded module) points the op at the new build.
_current: dict[str, GraphFunction] = {}
_libraries: dict[str, object] = {}  # namespace -> torch.library.Library (kept alive)


def _schema(fn: GraphFunction) -> str:
    return "(" + ", ".join(f"Tensor {t.name}" for t in fn.graph.inputs) + ") -> Tensor"


def _unbound_size(fn: GraphFunction) -> str | None:
    shown = {d for t in fn.graph.inputs for d in t.shape if isinstance(d, str)}
    return next((s for s in fn.graph.sizes if s not in shown), None)


def register(module, namespace: str = "hds") -> dict:
    """Registers every graph of `module` as torch.ops.<namespace>.<graph>; returns
    them by name. A graph with a size no input's shape shows cannot be an op."""
    import torch

    if not namespace.isidentifier():
        raise ArgumentError(f"hds.register: namespace must be an identifier, got {namespace!r}")
    lib = _libraries.get(namespace)
    if lib is None:
        lib = _libraries[namespace] = torch.library.Library(namespace, "FRAGMENT")
    dispatch_key = "CUDA" if module.device == "cuda" else "CPU"
    ops = {}
    for name, fn in module.graphs.items():
        missing = _unbound_size(fn)
        if missing:
            raise ArgumentError(f"hds.register: graph '{name}': size {missing} is not a dimension of any input, so "
                                f"an op cannot bind it (call mod.{name}(..., sizes=...) instead)")
        qualname = f"{namespace}::{name}"
        first = qualname not in _current
        if not first and _schema(_current[qualname]) != _schema(fn):
            raise ArgumentError(f"hds.register: {qualname} is registered with {_schema(_current[qualname])}; "
                                f"graph '{name}' of {module.source.name} takes {_schema(fn)}")
        _current[qualname] = fn
        if first:
            lib.define(name + _schema(fn))

            def impl(*args, _q=qualname):
                return _current[_q](*args)

            def fake(*args, _q=qualname):
                g = _current[_q].graph
                sizes = {}
                for t, x in zip(g.inputs, args):
                    for dim, actual in zip(t.shape, x.shape):
                        if isinstance(dim, str) and dim in g.sizes:
                            sizes.setdefault(dim, actual)
                shape = [evaluate(d, sizes) for d in g.output.shape]
                return args[0].new_empty(shape, dtype=getattr(torch, DTYPES[g.output.dtype][0]))

            lib.impl(name, impl, dispatch_key)
            torch.library.register_fake(qualname, fake, lib=lib)
        ops[name] = getattr(getattr(torch.ops, namespace), name)
    return ops
