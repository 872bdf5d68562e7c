"""Compiling a .hds file for hds.load: hdsc (the .cu files, headers and the
manifest), then nvcc (one shared library), into a cache folder keyed by
everything that decides the result. Two processes that build the same entry
take turns on a lock file; an entry is complete once its `ok` file exists."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

from .errors import CompileError, HdsError, HdsWarning

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parents[1]  # python/hds -> the repository, when installed from a checkout (editable)


def find_hdsc() -> Path:
    """$HDSC, else `hdsc` on PATH, else the checkout's build/hdsc."""
    for candidate in (os.environ.get("HDSC"), shutil.which("hdsc"), CHECKOUT / "build" / "hdsc"):
        if candidate and Path(candidate).is_file():
            return Path(candidate).resolve()
    raise HdsError("hds: hdsc not found: set HDSC, put hdsc on PATH, or build the checkout (scripts/demo.sh)")


def find_nvcc() -> str:
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and Path(candidate).is_file():
            return candidate
    raise HdsError("hds: nvcc not found: set NVCC or put the CUDA toolkit's bin folder on PATH")


def stdlib_dir(hdsc: Path) -> Path | None:
    """The stdlib beside this hdsc: <checkout>/stdlib for build/hdsc, <prefix>/share/hds/stdlib installed."""
    for d in (hdsc.parent.parent / "stdlib", hdsc.parent.parent / "share" / "hds" / "stdlib", CHECKOUT / "stdlib"):
        if (d / "nn.hds").is_file():
            return d
    return None


def runtime_dir(hdsc: Path) -> Path:
    """The folder holding hds/runtime.h: $HDS_RUNTIME, the checkout's runtime/, or <prefix>/include."""
    for d in (os.environ.get("HDS_RUNTIME"), hdsc.parent.parent / "runtime", hdsc.parent.parent / "include",
              CHECKOUT / "runtime"):
        if d and (Path(d) / "hds" / "runtime.h").is_file():
            return Path(d)
    raise HdsError("hds: hds/runtime.h not found: set HDS_RUNTIME to the folder that holds it")


def cache_root() -> Path:
    return Path(os.environ.get("HDS_CACHE_DIR", Path.home() / ".cache" / "hds"))


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def _file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@contextmanager
def _announce(what: str, delay: float = 1.0):
    """Says on stderr what is being compiled when it takes more than `delay` seconds."""
    start = time.monotonic()
    timer = threading.Timer(delay, lambda: print(f"hds: compiling {what} ...", file=sys.stderr, flush=True))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        took = time.monotonic() - start
        if took > delay:
            print(f"hds: compiled {what} in {took:.1f} s", file=sys.stderr, flush=True)


def _run(cmd: list[str], what: str, cwd: Path) -> None:
    """Runs hdsc or nvcc; an error raises CompileError with its diagnostics, hdsc's
    warnings become Python warnings (HdsWarning)."""
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0:
        raise CompileError(f"{what} failed (exit {r.returncode}):\n{r.stderr.strip()}")
    if what == "hdsc" and r.stderr.strip():
        warnings.warn(r.stderr.strip(), HdsWarning, stacklevel=4)


class Build:
    """One cache entry: `folder` holds manifest.json, the .cu/.h files and, for
    the GPU, lib<stem>.so. `timings`: seconds spent in hdsc and nvcc (0 when cached)."""

    def __init__(self, folder: Path, stem: str, gpu: bool, timings: dict[str, float]):
        self.folder = folder
        self.manifest = json.loads((folder / "manifest.json").read_text())
        self.library = folder / f"lib{stem}.so" if gpu else None
        self.timings = timings


def _valid(entry: Path) -> bool:
    """Complete, and every file hdsc read is still as it was."""
    try:
        deps = json.loads((entry / "ok").read_text())
        return all(_file_digest(p) == d for p, d in deps.items())
    except (OSError, ValueError):
        return False


def nvcc_targets(target: str, gpu: str) -> list[str]:
    """nvcc's -gencode flags for a build of `target` (the manifest's) for the device `gpu`
    ("NVIDIA H100 80GB HBM3 sm_90"). A .cu of both targets (a graph of a file that declares
    none, docs/cli.md "The target") is built for the one this device runs: compute_90a on an
    H100/H200 (the sm_90a variants, whose build also has the sm_80 code), compute_80 elsewhere.
    The compute_80 builds carry their PTX too, which the driver compiles for a GPU newer than
    the SASS (Blackwell)."""
    ptx = "-gencode=arch=compute_80,code=compute_80"
    if target == "sm_90a":
        return ["-gencode=arch=compute_90a,code=sm_90a"]
    if target == "sm_80+sm_90a":
        return ["-gencode=arch=compute_90a,code=sm_90a"] if gpu.endswith(" sm_90") else \
            ["-gencode=arch=compute_80,code=sm_80", ptx]
    return ["-gencode=arch=compute_80,code=sm_80", ptx, "-gencode=arch=compute_90,code=sm_90"]


def build(source: Path, include: list[Path], arch: str | None, gpu: str | None) -> Build:
    """Compiles `source` (hdsc; nvcc too when `gpu` names the device, e.g.
    "NVIDIA H100 sm_90") or returns the cached build."""
    hdsc = find_hdsc()
    runtime = runtime_dir(hdsc) if gpu else None
    nvcc = find_nvcc() if gpu else ""
    flags = [f"-I{p}" for p in include] + ([f"--arch={arch}"] if arch else [])
    runtime_bytes = b"".join(p.read_bytes() for p in sorted(runtime.glob("hds/*.h"))) if runtime else b""
    key = _digest(str(source).encode(), source.read_bytes(), "\0".join(flags).encode(), hdsc.read_bytes(),
                  (gpu or "cpu").encode(), nvcc.encode(), runtime_bytes, (PACKAGE / "shim.cu").read_bytes())[:20]
    stem = source.stem
    entry = cache_root() / f"{stem}-{key}"
    timings = {"hdsc_s": 0.0, "nvcc_s": 0.0}
    with _locked(cache_root() / f"{stem}-{key}.lock"):
        if _valid(entry):
            return Build(entry, stem, bool(gpu), timings)
        work = Path(tempfile.mkdtemp(prefix=f"{stem}-", dir=cache_root()))
        try:
            with _announce(f"{source.name} ({'hdsc and nvcc' if gpu else 'hdsc'})"):
                start = time.monotonic()
                _run([str(hdsc), str(source), *flags, "--out-dir", str(work), "--manifest", str(work / "manifest.json")],
                     "hdsc", work)
                timings["hdsc_s"] = time.monotonic() - start
                manifest = json.loads((work / "manifest.json").read_text())
                if gpu:
                    start = time.monotonic()
                    cus = [str(work / g["cu"]) for g in manifest["graphs"]]
                    gencode = nvcc_targets(manifest["target"], gpu)
                    _run([nvcc, "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(runtime), *gencode,
                          *cus, str(PACKAGE / "shim.cu"), "-o", str(work / f"lib{stem}.so")], "nvcc", work)
                    timings["nvcc_s"] = time.monotonic() - start
            deps = {p: _file_digest(p) for p in manifest["files"]}
            (work / "ok").write_text(json.dumps(deps, indent=1))
            if entry.exists():
                shutil.rmtree(entry)
            os.replace(work, entry)
        finally:
            if work.exists():
                shutil.rmtree(work, ignore_errors=True)
    return Build(entry, stem, bool(gpu), timings)
