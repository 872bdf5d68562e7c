"""GPU tests of attention's tensor-core schedules (stdlib/attention_mma.hds on sm_80,
stdlib/attention_wgmma.hds on sm_90a) against a float64 reference: heads of 64 and 128 values, f16 and bf16, causal or not, on odd
sizes on both sides of the tile boundaries (64 query rows per block and 64 keys per
tile on sm_80, 128 and 128 on sm_90a; decoding on sm_90a split over clusters): one key, one query, partial tiles, L != M, batch and heads. Outputs start as
NaN so that an unwritten element fails."""
import math

import pytest

import harness

torch = pytest.importorskip("torch", reason="torch is not installed")
gpu = pytest.mark.gpu

SCALE = 0.09


def reference(q, k, v, causal):
    s = q.double() @ k.double().transpose(-1, -2) * SCALE
    if causal:
        lq, lk = q.shape[-2], k.shape[-2]
        i = torch.arange(lq, device=q.device)[:, None]
        j = torch.arange(lk, device=q.device)[None, :]
        s = s.masked_fill(j > i + lk - lq, -math.inf)
    return torch.softmax(s, -1) @ v.double()


def run(name, dtype, b, h, lq, lk, d, causal):
    graph = harness.build_graph(f"tests/gpu/ops/op_attention_{name}.hds")
    q, k, v = (torch.randn(b, h, n, d, device="cuda").to(dtype) for n in (lq, lk, lk))
    out = torch.full((b, h, lq, d), float("nan"), device="cuda", dtype=dtype)
    sizes = {"B": b, "H": h, "L": lq, "M": lk}
    assert graph.run({"q": q, "k": k, "v": v, "out": out}, sizes, graph.workspace(sizes)) == 0
    torch.cuda.synchronize()
    assert torch.isfinite(out).all()
    ref = reference(q, k, v, causal)
    return float((out.double() - ref).norm() / ref.norm())


# L <= 16 decodes on sm_90a (attention_decode.hds: the keys split over a cluster of up to 8
# blocks, as many as B * H leaves room for, 256 keys or more each); 17 is past it.
SIZES = [(1, 1, 1, 1), (1, 1, 1, 300), (2, 3, 77, 131), (1, 2, 64, 64), (1, 2, 65, 63), (1, 1, 130, 129),
         (2, 1, 200, 50), (1, 1, 128, 1000), (1, 1, 129, 257), (1, 2, 300, 384), (1, 1, 16, 4000), (2, 3, 5, 777),
         (1, 1, 17, 300), (1, 40, 1, 2049), (2, 33, 3, 520)]
CAUSAL_SIZES = [(1, 1, 1, 1), (1, 1, 1, 300), (2, 3, 77, 77), (1, 2, 64, 64), (1, 2, 65, 65), (1, 1, 33, 200),
                (1, 1, 129, 1000), (1, 2, 250, 250), (1, 1, 128, 128), (1, 1, 257, 300), (1, 1, 16, 4000),
                (1, 2, 7, 700), (1, 1, 16, 16)]


@gpu
@pytest.mark.parametrize("b,h,lq,lk", SIZES)
@pytest.mark.parametrize("name,dtype,d", [("h64", "float16", 64), ("h128_bf16", "bfloat16", 128),
                                          ("sm90_h64", "float16", 64), ("sm90_h128_bf16", "bfloat16", 128)])
def test_attention_mma(name, dtype, d, b, h, lq, lk):
    err = run(name, getattr(torch, dtype), b, h, lq, lk, d, causal=False)
    assert err < (1e-2 if dtype == "bfloat16" else 2e-3), err


@gpu
@pytest.mark.parametrize("b,h,lq,lk", CAUSAL_SIZES)
@pytest.mark.parametrize("name,d", [("h64_causal", 64), ("h128_causal", 128), ("sm90_h64_causal", 64),
                                    ("sm90_h128_causal", 128)])
def test_attention_mma_causal(name, d, b, h, lq, lk):
    """Query i sees keys up to i + M - L: the masked diagonal tiles and the tiles a block skips."""
    err = run(name, torch.float16, b, h, lq, lk, d, causal=True)
    assert err < 2e-3, err


@gpu
@pytest.mark.parametrize("b,h,lq,lk", [(2, 3, 77, 131), (1, 2, 1, 700), (1, 1, 300, 300)])
def test_attention_written_by_hand(b, h, lq, lk):
    """bmm(softmax(bmm(q, permute(k)) * s), v) runs as the attention op (prefill and decode)."""
    err = run("by_hand", torch.float16, b, h, lq, lk, 64, causal=False)
    assert err < 2e-3, err
