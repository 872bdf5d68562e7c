"""sm_80 code runs on GPUs whose blocks may have 99 KiB of shared memory (sm_86/89/120), 163
(A100) or 227 (H100): where a schedule's kernel needs more than 99 KiB, the emitted dispatch
tests `hds::shared_memory_per_block()` and the next schedule runs where it does not fit (a
row regime gives way to the next regime). `hdsc run --shared-memory` emulates each device, and
a kernel over the emulated device's shared memory is an error there, as the launcher's opt-in
is on a GPU: each case runs on every device class, against float64 numpy."""
import numpy as np
import pytest

import emulator

rng = np.random.default_rng(41)
DEVICES = {"h100": 232448, "a100": 166912, "rtx": 101376}


def rel(out, ref):
    ref = np.asarray(ref, np.float64)
    return np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref)


def halves(*shape):
    return rng.standard_normal(shape).astype(np.float16)


MATMUL = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("m,k,n,big,small", [
    # matmul_skinny_shifted (147200 bytes) where b's rows are not 16-byte multiples: fits an
    # A100, not an RTX, which gets matmul_skinny three stages deep (96000); past 66 strips two
    # stages deep (103936), the same (matmul_skinny under the name of the chain it ends)
    (5, 2049, 137, ("g_skinny_shifted_smem", 147200), "g_skinny_shifted"),
    (3, 993, 8449, ("g_skinny_shifted2_smem", 103936), "g_skinny_shifted2_skinny_shifted"),
    # matmul_skinny four stages deep (124928): three on an RTX
    (5, 40, 24, ("g_skinny_smem", 124928), "g_skinny"),
    (16, 64, 136, ("g_skinny_smem", 124928), "g_skinny"),
])
def test_matmul_decode_on_each_device(tmp_path, device, m, k, n, big, small):
    """The default target's decoding GEMMs on both sides of each shared-memory guard."""
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + MATMUL)
    cu = emulator.emit(src)
    variant, bytes_ = big
    assert f"hds::shared_memory_per_block() >= {bytes_})\n        return {variant}_run(" in cu
    a, b = halves(m, k), halves(k, n)
    out, ran = emulator.run_graph_variant(MATMUL, "g", {"a": a, "b": b}, imports=("nn.hds",),
                                          shared_memory=DEVICES[device])
    assert ran == (variant if DEVICES[device] >= bytes_ else small)
    assert rel(out, a.astype(np.float64) @ b) < 2e-3


def test_no_guard_on_sm90a(tmp_path):
    """Every sm_90a GPU has 227 KiB a block: its dispatch tests sizes only."""
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + MATMUL)
    assert "shared_memory_per_block" not in emulator.emit(src, arch="sm_90a")


@pytest.mark.parametrize("device", DEVICES)
def test_decoding_heads_of_128_on_each_device(device):
    """Decoding with heads of 128 on sm_80: the keys split over blocks (152704 bytes a block) on
    an H100 or A100, FlashAttention-2's loop (attention_mma) on an RTX. The sizes are constants: the
    device is the graph's one case."""
    text = ("graph g(q: f16[1, 4, 1, 128], k: f16[1, 2, S, 128], v: f16[1, 2, S, 128]) -> f16[1, 4, 1, 128] "
            "{ return attention(q, k, v, scale=0.1); }\n")
    q, k, v = halves(1, 4, 1, 128), halves(1, 2, 300, 128), halves(1, 2, 300, 128)
    out, ran = emulator.run_graph_variant(text, "g", {"q": q, "k": k, "v": v}, imports=("nn.hds",),
                                          shared_memory=DEVICES[device])
    assert ran == ("g_smem" if device != "rtx" else "g_any")
    kk, vv = (np.repeat(t.astype(np.float64), 2, axis=1) for t in (k, v))
    s = q.astype(np.float64) @ kk.transpose(0, 1, 3, 2) * 0.1
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    assert rel(out, e / e.sum(axis=-1, keepdims=True) @ vv) < 2e-3


@pytest.mark.parametrize("device", DEVICES)
def test_streamed_rows_on_each_device(device):
    """f32 rows of 16385 to 32768 values are streamed through shared memory (131200 bytes a
    block at N % 4 == 0) where it holds them, else held in registers (the next regime): the
    emulator refuses a kernel over the device's shared memory, so the RTX run shows the guard."""
    emulator.skip_large_under_sanitizers(3 * 16388, limit=40_000)
    text = "graph g(x: f32[R, N], w: f32[N]) -> f32[R, N] { return rms_norm(x, w); }\n"
    x = rng.standard_normal((3, 16388)).astype(np.float32)
    w = rng.standard_normal(16388).astype(np.float32)
    out, _ = emulator.run_graph_variant(text, "g", {"x": x, "w": w}, imports=("nn.hds",), racecheck=False,
                                        shared_memory=DEVICES[device])
    x64 = x.astype(np.float64)
    ref = x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + 1e-6) * w
    assert rel(out, ref) < 1e-5


def test_kernel_over_the_device_is_an_error():
    """A device with less shared memory than the smallest schedule: the run stops with the kernel's
    need and the device's (exit 1), as the launcher's opt-in fails on a GPU."""
    a, b = halves(5, 40), halves(40, 24)
    with pytest.raises(emulator.EmulatorError,
                       match=r"kernel 'g_skinny_k0_matmul' needs 96000 bytes of shared memory a block; the device "
                             r"of this run \(--shared-memory\) has 50000"):
        emulator.run_graph_variant(MATMUL, "g", {"a": a, "b": b}, imports=("nn.hds",), shared_memory=50000)


@pytest.mark.parametrize("device", DEVICES)
def test_manifest_conditions_name_the_device(tmp_path, device):
    """The manifest's conditions spell the device's shared memory as the `if`s do; the Python
    package evaluates them for a given device (hds._manifest.Graph.variant_for), choosing what
    `hdsc run --shared-memory` runs."""
    from hds._manifest import Graph
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + MATMUL)
    manifest = emulator.manifest_graph(src)
    conditions = [w["condition"] for v in manifest["variants"] for w in v["when"]]
    assert "hds::shared_memory_per_block() >= 124928" in conditions
    graph = Graph.parse(manifest)
    for m, k, n in ((5, 2049, 137), (5, 40, 24), (1, 2049, 137), (77, 40, 24)):
        a, b = halves(m, k), halves(k, n)
        _, ran = emulator.run_graph_variant(MATMUL, "g", {"a": a, "b": b}, imports=("nn.hds",), racecheck=False,
                                            shared_memory=DEVICES[device])
        assert graph.variant_for({"M": m, "K": k, "N": n}, shared_memory=DEVICES[device], sm90a=False) == ran
