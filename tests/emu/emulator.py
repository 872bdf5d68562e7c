"""Python API over `hdsc run` (the CPU emulator), for tests that compare
kernels with numpy without a GPU:

    out = emulator.run("examples/matmul_tiled.hds", "matmul_tiled", {"a": a, "b": b}, ["c"])
    out["c"]  # numpy array
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


class EmulatorError(Exception):
    """`hdsc run` reported an error (exit 1); the message is its stderr."""


def hdsc() -> Path:
    return Path(os.environ.get("HDSC", ROOT / "build" / "hdsc")).resolve()


def run(source, kernel: str, inputs: dict, outputs: list, sizes: dict | None = None,
        scalars: dict | None = None, racecheck: bool = False, arch: str | None = None) -> dict:
    skip_large_under_sanitizers(sum(np.asarray(a).size for a in inputs.values()), SANITIZER_INPUT_LIMIT)
    return _run(source, kernel, inputs, outputs, sizes, scalars, racecheck, arch)[0]


def _run(source, kernel: str, inputs: dict, outputs: list, sizes: dict | None, scalars: dict | None,
         racecheck: bool, arch: str | None, shared_memory: int | None = None) -> tuple[dict, str]:
    """`run`'s outputs, and what `hdsc run` printed (shared_memory: its --shared-memory)."""
    source = Path(source)
    if not source.is_absolute():
        source = ROOT / source
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        in_args = []
        for name, array in inputs.items():
            path = tmp / f"in_{name}.npy"
            np.save(path, np.ascontiguousarray(array))
            in_args.append(f"{name}={path}")
        out_args = [f"{name}={tmp / f'out_{name}.npy'}" for name in outputs]
        cmd = [str(hdsc()), "run", str(source), "--kernel", kernel, "-I", str(ROOT / "stdlib")]
        if in_args:
            cmd += ["--inputs", ",".join(in_args)]
        if out_args:
            cmd += ["--outputs", ",".join(out_args)]
        if sizes:
            cmd += ["--sizes", ",".join(f"{k}={v}" for k, v in sizes.items())]
        if scalars:
            cmd += ["--scalars", ",".join(f"{k}={v!r}" for k, v in scalars.items())]
        if racecheck:
            cmd.append("--racecheck")
        if arch:
            cmd.append(f"--arch={arch}")
        if shared_memory:
            cmd.append(f"--shared-memory={shared_memory}")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode == 1:
            raise EmulatorError(proc.stderr)
        if proc.returncode != 0:
            raise RuntimeError(f"hdsc run crashed (exit {proc.returncode}):\n{proc.stderr}")
        return {name: np.load(tmp / f"out_{name}.npy") for name in outputs}, proc.stdout


def run_graph(text: str, graph: str, inputs: dict, imports=("elementwise.hds", "reduce.hds", "nn.hds"),
              racecheck: bool = False, arch: str | None = None) -> np.ndarray:
    """Compiles a graph given as source text (stdlib files imported) and runs it; returns its output."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{graph}.hds"
        path.write_text("".join(f'import "{i}";\n' for i in imports) + text)
        return run(path, graph, inputs, ["out"], racecheck=racecheck, arch=arch)["out"]


def run_graph_variant(text: str, graph: str, inputs: dict, imports=("elementwise.hds", "reduce.hds", "nn.hds"),
                      racecheck: bool = True, arch: str | None = None,
                      keep_in: Path | None = None, shared_memory: int | None = None) -> tuple[np.ndarray, str]:
    """As run_graph (under racecheck unless told), and the variant of the graph's dispatch that ran
    (`hdsc run` names it; "" where the graph has one). keep_in: a folder to write the source to
    (GRAPH.hds), and leave it there. shared_memory: the bytes a block of the device emulated may
    have (`hdsc run --shared-memory`; default an H100's)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(keep_in or tmp) / f"{graph}.hds"
        path.write_text("".join(f'import "{i}";\n' for i in imports) + text)
        outputs, printed = _run(path, graph, inputs, ["out"], None, None, racecheck, arch, shared_memory)
    ran = printed.split("(variant ")[1].split(")")[0] if "(variant " in printed else ""
    return outputs["out"], ran


def emit(source, arch: str | None = None) -> str:
    """The .cu hdsc emits for `source` (stdlib importable)."""
    proc = subprocess.run([str(hdsc()), str(source), "-I", str(ROOT / "stdlib"), "-o", "-"] +
                          ([f"--arch={arch}"] if arch else []), capture_output=True, text=True)
    if proc.returncode != 0:
        raise EmulatorError(proc.stderr)
    return proc.stdout


def manifest_graph(source: Path, arch: str | None = None) -> dict:
    """The manifest's entry for the first graph of `source` (stdlib importable), as hdsc writes it
    beside the .cu (`source` with .json and .cu suffixes)."""
    subprocess.run([str(hdsc()), str(source), "-I", str(ROOT / "stdlib"), "--manifest", str(source.with_suffix(".json")),
                    "-o", str(source.with_suffix(".cu"))] + ([f"--arch={arch}"] if arch else []),
                   check=True, capture_output=True)
    return json.loads(source.with_suffix(".json").read_text())["graphs"][0]


# scripts/test.sh --sanitize runs hdsc under AddressSanitizer and UBSan (ASAN_OPTIONS is set),
# several times slower: there only the cases whose inputs hold at most SANITIZER_INPUT_LIMIT
# elements run (every run() checks), and tests with a cost of their own (multiply-adds) skip past
# theirs (skip_large_under_sanitizers); the small cases reach the same code in hdsc, and the plain
# pass runs them all (CI's time: docs/testing.md).
UNDER_SANITIZERS = bool(os.environ.get("ASAN_OPTIONS"))
SANITIZER_INPUT_LIMIT = 65_536


def skip_large_under_sanitizers(work: int, limit: int = 2_000_000):
    """Skips a case of `work` multiply-adds (or elements) over `limit` in the sanitizer pass."""
    if UNDER_SANITIZERS and work > limit:
        import pytest
        pytest.skip("large case: run in the plain pass (the sanitizer pass runs the small ones)")
