"""A loaded graph as a Python function: checks the arguments against the
manifest, binds the sizes, allocates the output and the workspace with torch's
allocator and runs the graph on the current stream (or on the CPU emulator)."""
from __future__ import annotations

import ctypes
import math
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from ._manifest import DTYPES, INT32_MAX, Graph, Tensor
from .errors import ArgumentError, ArgumentTypeError, HdsError


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def _is_torch_tensor(x) -> bool:
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


class GraphFunction:
    """`mod.NAME(x, w, ...)`: the inputs by position or by name, in the graph's
    order; `sizes={...}` for sizes no input's shape shows. Returns the output."""

    def __init__(self, graph: Graph, device: str, library: ctypes.CDLL | None, source: Path, include: list[Path],
                 target: str = "sm_80"):
        self.graph = graph
        self.device = device
        self.__name__ = graph.name
        self.__doc__ = f"{graph.signature()}\n\nRuns on {'the GPU' if device == 'cuda' else 'the CPU emulator'}."
        self._source, self._include = source, include
        # The emulator runs the schedules of the build's target, as the GPU would (of a .cu for
        # both targets, the sm_80 ones: the CPU is no H100).
        self._target = "sm_80" if target == "sm_80+sm_90a" else target
        self._sizes: dict[tuple, dict] = {}  # bound sizes by the inputs' shapes
        if library is not None:
            n = len(graph.sizes)
            self._run = getattr(library, graph.functions["run"])
            self._run.restype = ctypes.c_int
            self._run.argtypes = [ctypes.c_void_p] * (len(graph.inputs) + 1) + [ctypes.c_int] * n + [ctypes.c_void_p] * 2
            self._workspace = getattr(library, graph.functions["workspace_size"])
            self._workspace.restype = ctypes.c_size_t
            self._workspace.argtypes = [ctypes.c_int] * n
            self._error = library.hds_error_string
            self._error.restype = ctypes.c_char_p
            self._error.argtypes = [ctypes.c_int]

    def __repr__(self) -> str:
        return f"<hds graph {self.graph.signature()} on {self.device}>"

    # --- the arguments -------------------------------------------------------------------
    def _arguments(self, args: tuple, kwargs: dict) -> dict:
        g = self.graph
        names = [t.name for t in g.inputs]
        if len(args) > len(names):
            raise ArgumentTypeError(f"{g.name}() takes {len(names)} tensors ({', '.join(names)}), got {len(args)}")
        bound = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise ArgumentTypeError(f"{g.name}() has no parameter '{k}' (its parameters: {', '.join(names)})")
            if k in bound:
                raise ArgumentTypeError(f"{g.name}() got parameter '{k}' twice")
            bound[k] = v
        missing = [n for n in names if n not in bound]
        if missing:
            raise ArgumentTypeError(f"{g.name}() is missing parameter '{missing[0]}' ({g.signature()})")
        return bound

    def _check(self, t: Tensor, x) -> tuple:
        """Checks one tensor; returns its shape."""
        g = self.graph
        where = f"{g.name}: parameter '{t.name}'"
        torch = _torch()
        if self.device == "cuda":
            if not _is_torch_tensor(x):
                raise ArgumentTypeError(f"{where}: expected a CUDA torch.Tensor ({t.declared()}), got {type(x).__name__}")
            if x.device.type != "cuda":
                raise ArgumentError(f"{where} is on {x.device}, expected a CUDA tensor")
            dtype, actual = getattr(torch, DTYPES[t.dtype][0]), x.dtype
        elif _is_torch_tensor(x):
            if x.device.type != "cpu":
                raise ArgumentError(f"{where} is on {x.device}, expected a CPU tensor (this module runs on the CPU emulator)")
            dtype, actual = getattr(torch, DTYPES[t.dtype][0]), x.dtype
        elif isinstance(x, np.ndarray):
            dtype, actual = np.dtype(DTYPES[t.dtype][1]), x.dtype
        else:
            raise ArgumentTypeError(f"{where}: expected a torch.Tensor or numpy.ndarray ({t.declared()}), got "
                                    f"{type(x).__name__}")
        if actual != dtype:
            raise ArgumentError(f"{where} has dtype {str(actual).replace('torch.', '')}, expected "
                                f"{str(dtype).replace('torch.', '')} ({t.dtype})")
        shape = tuple(x.shape)
        if len(shape) != len(t.shape):
            raise ArgumentError(f"{where} has shape {list(shape)} (rank {len(shape)}), expected "
                                f"{t.declared()} (rank {len(t.shape)})")
        contiguous = x.is_contiguous() if _is_torch_tensor(x) else x.flags["C_CONTIGUOUS"]
        if not contiguous:
            raise ArgumentError(f"{where} is not contiguous (strides {list(x.stride() if _is_torch_tensor(x) else x.strides)}"
                                f"): pass {t.name}.contiguous()")
        if math.prod(shape) > INT32_MAX:
            raise ArgumentError(f"{where} has {math.prod(shape)} elements: at most {INT32_MAX}")
        if self.device == "cuda" and x.data_ptr() % t.alignment != 0:
            raise ArgumentError(f"{where} starts at an address that is not a multiple of {t.alignment} bytes (a view "
                                f"into another tensor?): pass {t.name}.clone()")
        return shape

    def bind(self, *args, sizes: dict | None = None, **kwargs):
        """Checks a call without running it: returns (tensors by name, sizes)."""
        bound = self._arguments(args, kwargs)
        shapes = {t.name: self._check(t, bound[t.name]) for t in self.graph.inputs}
        if self.device == "cuda":
            devices = {str(x.device) for x in bound.values()}
            if len(devices) > 1:
                raise ArgumentError(f"{self.graph.name}: the tensors are on different devices: "
                                    + ", ".join(f"'{k}' on {v.device}" for k, v in bound.items()))
        # The sizes, per the inputs' shapes (a model calls with the same shapes again and again).
        key = (tuple(shapes.values()), tuple(sorted((sizes or {}).items())))
        bound_sizes = self._sizes.get(key)
        if bound_sizes is None:
            if len(self._sizes) >= 256:
                self._sizes.clear()
            bound_sizes = self._sizes[key] = self.graph.bind(shapes, sizes)
        return bound, dict(bound_sizes)

    def __call__(self, *args, sizes: dict | None = None, **kwargs):
        bound, bound_sizes = self.bind(*args, sizes=sizes, **kwargs)
        if self.device == "cuda":
            return self._run_gpu(bound, bound_sizes)
        return self._run_emulator(bound, bound_sizes)

    # --- running -------------------------------------------------------------------------
    def _run_gpu(self, bound: dict, sizes: dict):
        torch = _torch()
        g = self.graph
        device = next(iter(bound.values())).device
        size_args = [sizes[s] for s in g.sizes]
        with torch.cuda.device(device):
            out = torch.empty(g.output_shape(sizes), dtype=getattr(torch, DTYPES[g.output.dtype][0]), device=device)
            nbytes = self._workspace(*size_args)
            workspace = torch.empty(max(nbytes, 1), dtype=torch.uint8, device=device)
            stream = torch.cuda.current_stream(device).cuda_stream
            pointers = [bound[t.name].data_ptr() for t in g.inputs] + [out.data_ptr()]
            err = self._run(*pointers, *size_args, workspace.data_ptr(), stream)
        if err != 0:
            raise HdsError(f"{g.name}_run failed: {self._error(err).decode()} ({err})")
        return out

    def _run_emulator(self, bound: dict, sizes: dict):
        from ._build import find_hdsc

        g = self.graph
        as_torch = any(_is_torch_tensor(x) for x in bound.values())
        with tempfile.TemporaryDirectory(prefix="hds-emu-") as tmp:
            files = []
            for t in g.inputs:
                x = bound[t.name]
                if _is_torch_tensor(x):
                    x = x.detach()
                    x = x.view(_torch().int16).numpy().view(np.uint16) if t.dtype == "bf16" else x.numpy()
                path = Path(tmp) / f"{t.name}.npy"
                np.save(path, x)
                files.append(f"{t.name}={path}")
            out_path = Path(tmp) / "out.npy"
            cmd = [str(find_hdsc()), "run", str(self._source), *[f"-I{p}" for p in self._include], "--kernel", g.name,
                   "--inputs", ",".join(files), "--outputs", f"{g.output.name}={out_path}",
                   "--sizes", ",".join(f"{k}={v}" for k, v in sizes.items()), f"--arch={self._target}"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise HdsError(f"{g.name} on the CPU emulator failed (exit {r.returncode}):\n{r.stderr.strip()}")
            out = np.load(out_path)
        if not as_torch:
            return out
        torch = _torch()
        if g.output.dtype == "bf16":
            return torch.from_numpy(out.view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(out)
