"""GPU test harness: compiles a .hds file with hdsc, builds the emitted .cu with
nvcc into a shared library (plus shim.cu), and calls the generated launchers
through ctypes on numpy arrays.

    lib = build("examples/matmul_tiled.hds")
    c = lib.run("matmul_tiled", inputs={"a": a, "b": b}, outputs={"c": (shape, np.float32)},
                sizes={"M": m, "K": k, "N": n})
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SHIM = Path(__file__).resolve().parent / "shim.cu"
CACHE = Path(os.environ.get("HDS_TEST_CACHE", ROOT / "build" / "gpu-tests"))


def runtime_bytes() -> bytes:
    """The runtime headers the emitted code includes: part of every cache key."""
    return b"".join(p.read_bytes() for p in sorted((ROOT / "runtime" / "hds").glob("*.h")))

_C_TYPES = {
    "float": ctypes.c_float, "double": ctypes.c_double, "int": ctypes.c_int, "long long": ctypes.c_longlong,
    "unsigned": ctypes.c_uint, "unsigned long long": ctypes.c_ulonglong, "short": ctypes.c_short,
    "signed char": ctypes.c_byte, "unsigned char": ctypes.c_ubyte, "bool": ctypes.c_bool,
}


def hdsc() -> Path:
    path = Path(os.environ.get("HDSC", ROOT / "build" / "hdsc"))
    if not path.exists():
        raise FileNotFoundError(f"hdsc not found at {path}: build first or set HDSC")
    return path


def nvcc() -> str | None:
    return shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)


def gpu_unavailable_reason() -> str | None:
    """None when a CUDA GPU can run kernels here, else why not."""
    if nvcc() is None:
        return "nvcc not found"
    for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so"):
        try:
            rt = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        return "CUDA runtime library not found"
    count = ctypes.c_int(0)
    err = rt.cudaGetDeviceCount(ctypes.byref(count))
    if err != 0 or count.value == 0:
        return f"no CUDA GPU visible (cudaGetDeviceCount returned error {err})"
    return None


class Launcher:
    """One `launch_<kernel>` function, its parameter names and C types."""

    def __init__(self, lib: ctypes.CDLL, name: str, params: list[tuple[str, str]]):
        self.name = name
        self.params = params  # (C type, name), stream excluded
        self.fn = getattr(lib, f"launch_{name}")
        argtypes = []
        for ctype, _ in params:
            argtypes.append(ctypes.c_void_p if ctype.endswith("*") else _C_TYPES[ctype])
        self.fn.argtypes = argtypes + [ctypes.c_void_p]
        self.fn.restype = ctypes.c_int


class Library:
    def __init__(self, so_path: Path, header: Path):
        self.lib = ctypes.CDLL(str(so_path))
        self.lib.hds_alloc.restype = ctypes.c_void_p
        self.lib.hds_alloc.argtypes = [ctypes.c_size_t]
        self.lib.hds_free.argtypes = [ctypes.c_void_p]
        for f in ("hds_to_device", "hds_to_host"):
            getattr(self.lib, f).argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        self.lib.hds_fill_bytes.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
        self.lib.hds_error_string.restype = ctypes.c_char_p
        self.launchers = {}
        text = header.read_text()
        for m in re.finditer(r"cudaError_t launch_(\w+)\(([^;]*?)\);", text, re.S):
            params = []
            for p in m.group(2).split(","):
                p = " ".join(p.split())
                if p.startswith("cudaStream_t"):
                    continue
                ctype, pname = p.rsplit(" ", 1)
                if pname.startswith("*"):
                    ctype, pname = ctype + "*", pname[1:]
                params.append((ctype.replace("const ", ""), pname))
            self.launchers[m.group(1)] = Launcher(self.lib, m.group(1), params)

    def check(self, err: int, what: str):
        if err != 0:
            raise RuntimeError(f"{what}: {self.lib.hds_error_string(err).decode()} ({err})")

    def device(self, array: np.ndarray):
        ptr = self.lib.hds_alloc(max(array.nbytes, 1))
        if not ptr:
            raise MemoryError("cudaMalloc failed")
        self.check(self.lib.hds_to_device(ptr, array.ctypes.data, array.nbytes), "copy to device")
        return ptr

    def launch_raw(self, kernel: str, args: list) -> int:
        """Calls the launcher with raw arguments; returns its cudaError_t."""
        return self.launchers[kernel].fn(*args, None)

    def run(self, kernel: str, inputs: dict, outputs: dict, sizes: dict, scalars: dict | None = None):
        """Copies inputs to the GPU, poisons outputs (all bits set: NaN for
        floats), launches, synchronises and returns the outputs as arrays."""
        launcher = self.launchers[kernel]
        scalars = scalars or {}
        args, allocations, results = [], [], {}
        try:
            for ctype, name in launcher.params:
                if name in inputs:
                    ptr = self.device(np.ascontiguousarray(inputs[name]))
                    allocations.append(ptr)
                    args.append(ptr)
                elif name in outputs:
                    shape, dtype = outputs[name]
                    host = np.empty(shape, dtype=dtype)
                    ptr = self.lib.hds_alloc(max(host.nbytes, 1))
                    allocations.append(ptr)
                    self.check(self.lib.hds_fill_bytes(ptr, 0xFF, host.nbytes), "poison output")
                    results[name] = (host, ptr)
                    args.append(ptr)
                elif name in sizes:
                    args.append(sizes[name])
                elif name in scalars:
                    args.append(scalars[name])
                else:
                    raise KeyError(f"no value for parameter '{name}' of launch_{kernel}")
            self.check(launcher.fn(*args, None), f"launch_{kernel}")
            self.check(self.lib.hds_synchronize(), f"{kernel} execution")
            out = {}
            for name, (host, ptr) in results.items():
                self.check(self.lib.hds_to_host(host.ctypes.data, ptr, host.nbytes), "copy to host")
                out[name] = host
            return out
        finally:
            for ptr in allocations:
                self.lib.hds_free(ptr)


def gencode(cu: Path) -> list[str]:
    """sm_90a for code emitted for the sm_90a target (it refuses other targets) and for both
    targets (its sm_90a variants then run: sm90a_code() holds), else sm_90."""
    text = cu.read_text()
    arch = "90a" if "__CUDA_ARCH_FEAT_SM90_ALL" in text or "sm90a_code()" in text else "90"
    return ["-gencode", f"arch=compute_{arch},code=sm_{arch}"]


def compiler_bytes(source: Path) -> bytes:
    """What besides the source decides the build: hdsc itself, or, with
    HDS_EMITTED_DIR, the .cu emitted elsewhere (a changed compiler changes it)."""
    emitted = os.environ.get("HDS_EMITTED_DIR")
    return (Path(emitted) / f"{source.stem}.cu").read_bytes() if emitted else hdsc().read_bytes()


def build(source: str | Path, extra_flags: tuple[str, ...] = ()) -> Library:
    """hdsc + nvcc -shared; cached by the content of the .hds and hdsc."""
    source = Path(source)
    if not source.is_absolute():
        source = ROOT / source
    compiler = compiler_bytes(source)
    key = hashlib.sha256(source.read_bytes() + compiler + SHIM.read_bytes() + runtime_bytes()).hexdigest()[:16]
    out = CACHE / f"{source.stem}-{key}"
    so = out / f"lib{source.stem}.so"
    header = out / f"{source.stem}.h"
    if not so.exists():
        tmp = private_dir(out)
        cu = tmp / f"{source.stem}.cu"
        emitted = os.environ.get("HDS_EMITTED_DIR")
        if emitted:  # .cu/.h emitted elsewhere by hdsc (e.g. on a machine without a GPU)
            shutil.copy(Path(emitted) / cu.name, cu)
            shutil.copy(Path(emitted) / header.name, tmp / header.name)
        else:
            subprocess.run([str(hdsc()), str(source), "-I", str(ROOT / "stdlib"), "-o", str(cu)],
                           check=True)
        subprocess.run([nvcc(), "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"),
                        *gencode(cu), *extra_flags, str(cu), str(SHIM), "-o", str(tmp / so.name)],
                       check=True)
        publish(tmp, out, [cu.name, header.name, so.name])
    return Library(so, header)


def private_dir(out: Path) -> Path:
    """A folder of this process's own inside `out`, where a build writes its files
    before publish() moves them into `out`: two test processes (pytest -n) that build
    the same library at once then never read each other's half-written files."""
    out.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=out))


def publish(tmp: Path, out: Path, names: list):
    """Moves the files `names` from `tmp` into `out`, each in one step, the last (the
    library, whose presence says the build is done) last, and removes `tmp`."""
    for name in names:
        os.replace(tmp / name, out / name)
    shutil.rmtree(tmp, ignore_errors=True)


def rel_error(out: np.ndarray, ref: np.ndarray) -> float:
    """‖out − ref‖ / ‖ref‖ in float64; NaN anywhere (unwritten output) gives inf."""
    out = out.astype(np.float64)
    ref = ref.astype(np.float64)
    if not np.all(np.isfinite(out)):
        return float("inf")
    return float(np.linalg.norm(out - ref) / max(np.linalg.norm(ref), 1e-300))


class Graph:
    """The host API of one emitted graph (`NAME_run`, `NAME_workspace_size`,
    `NAME_capture`, `NAME_replay`), called on torch CUDA tensors."""

    def __init__(self, so_path: Path, header: Path):
        self.lib = ctypes.CDLL(str(so_path))
        text = header.read_text()
        m = re.search(r"cudaError_t (\w+)_run\(([^;]*?)\);", text, re.S)
        self.name = m.group(1)
        self.params = []  # (C type, name) of tensors and sizes, in order
        for p in m.group(2).split(","):
            p = " ".join(p.split())
            if p.startswith(("cudaStream_t", "void* workspace")):
                continue
            ctype, pname = p.rsplit(" ", 1)
            self.params.append((ctype.replace("const ", ""), pname))
        types = [ctypes.c_void_p if c.endswith("*") else ctypes.c_int for c, _ in self.params]
        self.run_fn = getattr(self.lib, f"{self.name}_run")
        self.run_fn.argtypes = types + [ctypes.c_void_p, ctypes.c_void_p]
        self.run_fn.restype = ctypes.c_int
        self.ws_fn = getattr(self.lib, f"{self.name}_workspace_size")
        self.ws_fn.argtypes = [ctypes.c_int for c, _ in self.params if not c.endswith("*")]
        self.ws_fn.restype = ctypes.c_size_t
        self.capture_fn = getattr(self.lib, f"{self.name}_capture")
        self.capture_fn.argtypes = types + [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self.capture_fn.restype = ctypes.c_int
        self.replay_fn = getattr(self.lib, f"{self.name}_replay")
        self.replay_fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.replay_fn.restype = ctypes.c_int

    def args(self, tensors: dict, sizes: dict) -> list:
        return [tensors[n].data_ptr() if c.endswith("*") else sizes[n] for c, n in self.params]

    def workspace_size(self, sizes: dict) -> int:
        return self.ws_fn(*[sizes[n] for c, n in self.params if not c.endswith("*")])

    def workspace(self, sizes: dict):
        """A torch CUDA byte tensor of workspace_size(sizes) (at least one byte)."""
        import torch
        return torch.empty(max(self.workspace_size(sizes), 1), dtype=torch.uint8, device="cuda")

    def run(self, tensors: dict, sizes: dict, workspace, stream: int = 0) -> int:
        ws = workspace.data_ptr() if workspace is not None else None
        return self.run_fn(*self.args(tensors, sizes), ws, stream)


def build_graph(source: str | Path, flags: list[str] | None = None) -> Graph:
    """Like build(), for a file with one graph (no shim: tensors come from torch); `flags`:
    nvcc's -gencode flags, if not gencode()'s."""
    source = Path(source)
    if not source.is_absolute():
        source = ROOT / source
    compiler = compiler_bytes(source)
    key = hashlib.sha256(source.read_bytes() + compiler + runtime_bytes() + " ".join(flags or []).encode()).hexdigest()[:16]
    out = CACHE / f"{source.stem}-graph-{key}"
    so, header, cu = out / f"lib{source.stem}.so", out / f"{source.stem}.h", out / f"{source.stem}.cu"
    if not so.exists():
        tmp = private_dir(out)
        emitted = os.environ.get("HDS_EMITTED_DIR")
        if emitted:
            shutil.copy(Path(emitted) / cu.name, tmp / cu.name)
            shutil.copy(Path(emitted) / header.name, tmp / header.name)
        else:
            subprocess.run([str(hdsc()), str(source), "-I", str(ROOT / "stdlib"), "-o", str(tmp / cu.name)],
                           check=True)
        subprocess.run([nvcc(), "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"),
                        *(flags or gencode(tmp / cu.name)), str(tmp / cu.name), "-o", str(tmp / so.name)], check=True)
        publish(tmp, out, [cu.name, header.name, so.name])
    return Graph(so, header)
