"""A graph of a file that declares no target (docs/cli.md, "The target"): its .cu has the
sm_90a variants beside the sm_80 code, and the dispatch runs them where the device runs the
.cu's compute_90a build (`sm90a_code()`). Built four ways on this H100/H200: for sm_90a
alone, with the .cu's own Build line (sm_80 and sm_90a SASS: the driver picks the sm_90a
one), for sm_90 (no sm_90a build: the sm_80 code runs) and from compute_80 PTX alone (the
driver compiles it, as on a GPU newer than the SASS: the sm_80 code runs). Under torch's
profiler: kernels of the sm_90a variants (`_sm90a_` in their names) launch in the first two and
never in the others; the outputs match float64 torch every way, on both sides of the schedules' guards."""
import os
import re
import subprocess
from pathlib import Path

import pytest

import harness

torch = pytest.importorskip("torch", reason="torch is not installed")
gpu = pytest.mark.gpu

SOURCE = "tests/gpu/ops/op_default_target.hds"


def build_line_flags() -> list[str]:
    """The -gencode flags of the .cu's `// Build:` line."""
    emitted = os.environ.get("HDS_EMITTED_DIR")
    if emitted:
        text = (Path(emitted) / "op_default_target.cu").read_text()
    else:
        text = subprocess.run([str(harness.hdsc()), str(harness.ROOT / SOURCE), "-I", str(harness.ROOT / "stdlib"),
                               "-o", "-"], check=True, capture_output=True, text=True).stdout
    build = next(line for line in text.splitlines() if line.startswith("// Build: nvcc"))
    flags = re.findall(r"-gencode=(\S+)", build)
    assert flags == ["arch=compute_80,code=sm_80", "arch=compute_80,code=compute_80", "arch=compute_90a,code=sm_90a"], build
    return [f for g in flags for f in ("-gencode", g)]


BUILDS = {
    "sm90a": None,  # harness.gencode: sm_90a for a .cu of both targets
    "build_line": "build_line",
    "sm90": ["-gencode", "arch=compute_90,code=sm_90"],
    # compute_80 PTX alone, which the driver compiles here: the path of a GPU newer than the
    # Build line's SASS (Blackwell)
    "ptx80": ["-gencode", "arch=compute_80,code=compute_80"],
}
# (M, K, N): 16-byte rows (TMA + wgmma on sm_90a), unaligned rows, decoding, rows past 32768
# values (sm_90a splits them over clusters).
SIZES = [(128, 512, 256), (5, 100, 37), (1, 4096, 4096), (77, 64, 40000)]


@gpu
@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("m,k,n", SIZES)
def test_default_target_runs_the_build_the_device_has(build, m, k, n):
    flags = build_line_flags() if BUILDS[build] == "build_line" else BUILDS[build]
    graph = harness.build_graph(SOURCE, flags)
    torch.manual_seed(0)
    x, w = torch.randn(m, k, device="cuda").half(), (torch.randn(k, n, device="cuda") / k**0.5).half()
    b = torch.randn(n, device="cuda").half()
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    sizes = {"M": m, "K": k, "N": n}
    ws = graph.workspace(sizes)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        assert graph.run({"x": x, "w": w, "b": b, "out": out}, sizes, ws) == 0
        torch.cuda.synchronize()
    kernels = {e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA}
    sm90a = [name for name in kernels if "_sm90a_" in name]
    if build in ("sm90", "ptx80"):
        assert not sm90a, kernels
    elif (m, k, n) in ((128, 512, 256), (77, 64, 40000)):  # schedules of sm_90a's own there
        assert sm90a, kernels
    ref = torch.softmax(x.double() @ w.double() + b.double(), -1)
    assert torch.isfinite(out).all()
    assert float((out.double() - ref).norm() / ref.norm()) < 5e-3
