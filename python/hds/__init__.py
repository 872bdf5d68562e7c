"""hds from Python: compile a .hds file's graphs and call them on torch tensors.

    import hds
    mod = hds.load("mlp.hds", include=["stdlib"])       # hdsc + nvcc, cached
    y = mod.mlp(x, w1, b1, w2, b2)                      # CUDA tensors in, a new tensor out
    cpu = hds.load("mlp.hds", device="cpu")             # the same graphs on the CPU emulator
    hds.register(mod)                                   # torch.ops.hds.mlp, for torch.compile

See docs/python.md.
"""
from __future__ import annotations

import ctypes
from pathlib import Path

from ._build import Build, build, find_hdsc, stdlib_dir
from ._call import GraphFunction
from ._manifest import Graph
from .errors import ArgumentError, ArgumentTypeError, CompileError, HdsError, HdsWarning
from .library import register

__all__ = ["load", "register", "Module", "HdsError", "CompileError", "ArgumentError", "ArgumentTypeError", "HdsWarning"]
__version__ = "0.1.0"


class Module:
    """The graphs of one .hds file, each an attribute (`mod.mlp`) and in `graphs`."""

    def __init__(self, source: Path, build_: Build, device: str, include: list[Path]):
        self.source = source
        self.device = device
        self.folder = build_.folder  # the emitted .cu files and headers, to read
        self.manifest = build_.manifest
        self.timings = build_.timings  # seconds in hdsc and nvcc this load (0 when cached)
        self._library = ctypes.CDLL(str(build_.library)) if build_.library else None
        self.graphs: dict[str, GraphFunction] = {}
        for j in self.manifest["graphs"]:
            g = Graph.parse(j)
            self.graphs[g.name] = GraphFunction(g, device, self._library, source, include, self.manifest["target"])

    def __getattr__(self, name: str):
        graphs = self.__dict__.get("graphs", {})
        if name in graphs:
            return graphs[name]
        raise AttributeError(f"{self.source.name} has no graph '{name}' (its graphs: {', '.join(graphs) or 'none'})")

    def __dir__(self):
        return list(super().__dir__()) + list(self.graphs)

    def __repr__(self) -> str:
        return f"<hds module {self.source.name} on {self.device}: {', '.join(self.graphs)}>"


def _gpu_name() -> str:
    import torch

    if not torch.cuda.is_available():
        raise HdsError("hds: device='cuda' but torch sees no CUDA GPU (load with device='cpu' for the emulator)")
    i = torch.cuda.current_device()
    major, minor = torch.cuda.get_device_capability(i)
    return f"{torch.cuda.get_device_name(i)} sm_{major}{minor}"


def load(source, include=None, arch: str | None = None, device: str = "cuda") -> Module:
    """Compiles `source` (a .hds file with graphs) and returns its graphs as functions.

    include: folders searched by `import "..."` (default: the stdlib beside hdsc);
    arch: None (the file's target, as hdsc decides), "sm_80" or "sm_90a";
    device: "cuda" (hdsc and nvcc into a shared library, run on torch's current
    stream) or "cpu" (the CPU emulator, `hdsc run`; numpy arrays or CPU tensors).
    Builds are cached in $HDS_CACHE_DIR (default ~/.cache/hds)."""
    if device not in ("cuda", "cpu"):
        raise ArgumentError(f"hds.load: device must be 'cuda' or 'cpu', got {device!r}")
    if arch not in (None, "sm_80", "sm_90a"):
        raise ArgumentError(f"hds.load: arch must be None, 'sm_80' or 'sm_90a', got {arch!r}")
    path = Path(source).resolve()
    if not path.is_file():
        raise ArgumentError(f"hds.load: source: no file {source}")
    if include is None:
        found = stdlib_dir(find_hdsc())
        dirs = [found] if found else []
    else:
        if isinstance(include, (str, Path)):
            include = [include]
        dirs = [Path(d).resolve() for d in include]
        for d, given in zip(dirs, include):
            if not d.is_dir():
                raise ArgumentError(f"hds.load: include: no folder {given}")
    b = build(path, dirs, arch, _gpu_name() if device == "cuda" else None)
    if not b.manifest["graphs"]:
        raise ArgumentError(f"hds.load: {path.name} declares no graph (hds.load runs graphs; kernels are called "
                            f"through the emitted header's launchers)")
    return Module(path, b, device, dirs)
