"""GPU tests of attention's tensor-core schedules (stdlib/attention_mma.hds on sm_80,
stdlib/attention_wgmma.hds on sm_90a) against a float64 reference: heads of 64 and 128 values, f16 and bf16, causal or not, on odd
sizes on both sides of the tile boundaries (64 query rows per block and 64 keys per
tile on sm_80, 128 and 128 on sm_90a; decoding on sm_90a split over clusters, or over blocks
combined by a second kernel, as on sm_80): one key, one query, partial tiles, L != M, batch and
heads. Outputs start as NaN so that an unwritten element fails."""
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


def run(name, dtype, b, h, lq, lk, d, causal, groups=None):
    """groups: the key/value heads of a grouped-query graph (k and v [B, G, M, d])."""
    graph = harness.build_graph(f"tests/gpu/ops/op_attention_{name}.hds")
    q = torch.randn(b, h, lq, d, device="cuda").to(dtype)
    k, v = (torch.randn(b, groups or h, lk, d, device="cuda").to(dtype) for _ in range(2))
    out = torch.full((b, h, lq, d), float("nan"), device="cuda", dtype=dtype)
    sizes = {"B": b, "H": h, "L": lq, "M": lk} | ({"G": groups} if groups else {})
    assert graph.run({"q": q, "k": k, "v": v, "out": out}, sizes, graph.workspace(sizes)) == 0
    torch.cuda.synchronize()
    assert torch.isfinite(out).all()
    if groups:
        k, v = (t.repeat_interleave(h // groups, dim=1) for t in (k, v))
    ref = reference(q, k, v, causal)
    return float((out.double() - ref).norm() / ref.norm())


# L <= 16 decodes on sm_90a (attention_decode.hds: the keys split over a cluster of up to 8
# blocks, as many as B * H leaves room for, 256 keys or more each); 17 is past it. Prefill
# with heads of 64 takes blocks of 192 query rows where B * H * ceil(L / 192) >= 264
# (2 x 33 x 5 = 330 for 777 rows), else 128; causal up to 2048 keys 128 too. Persistent blocks
# (heads of 128, and heads of 64 up to 4096 keys) take two items at a time past 132 of them
# (2 x 67 x 3 for 300 rows in blocks of 128: an odd count a head). Heads of 128 decoding over 16 to 32 key/value heads
# split them over clusters of at most 4 (2 x 12). Past 4096 keys and up to 32 key/value heads
# (times the batch) the keys split over blocks whose parts a second kernel adds
# (attention_decode_split.hds), as every decoding step on sm_80 does; 33 heads are past it.
# From 25 heads past 1024 keys, and heads of 128 from 16 past 2048, too.
SIZES = [(1, 1, 1, 1), (1, 1, 1, 300), (2, 3, 77, 131), (1, 2, 64, 64), (1, 2, 65, 63), (1, 1, 130, 129),
         (2, 1, 200, 50), (1, 1, 128, 1000), (1, 1, 129, 257), (1, 2, 300, 384), (1, 1, 16, 4000), (2, 3, 5, 777),
         (1, 1, 17, 300), (1, 40, 1, 2049), (2, 33, 3, 520), (2, 33, 777, 800), (2, 12, 1, 3000),
         (1, 2, 1, 4097), (2, 3, 5, 5000), (1, 32, 1, 4500), (1, 33, 1, 4100), (1, 25, 1, 1500), (1, 16, 1, 3000),
         (2, 33, 777, 4096), (2, 33, 777, 4097), (2, 67, 300, 300)]
CAUSAL_SIZES = [(1, 1, 1, 1), (1, 1, 1, 300), (2, 3, 77, 77), (1, 2, 64, 64), (1, 2, 65, 65), (1, 1, 33, 200),
                (1, 1, 129, 1000), (1, 2, 250, 250), (1, 1, 128, 128), (1, 1, 257, 300), (1, 1, 16, 4000),
                (1, 2, 7, 700), (1, 1, 16, 16), (2, 33, 777, 800), (1, 2, 7, 4500), (2, 33, 777, 2048),
                (2, 33, 777, 2049), (2, 67, 300, 300)]


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
@pytest.mark.parametrize("causal", [False, True])
def test_attention_written_by_hand(b, h, lq, lk, causal):
    """bmm(softmax(bmm(q, permute(k)) * s), v) runs as the attention op (prefill and decode);
    with the scores through causal_mask, as attention(..., causal=1)."""
    err = run("by_hand_causal" if causal else "by_hand", torch.float16, b, h, lq, lk, 64, causal=causal)
    assert err < 2e-3, err


# (b, h, g, lq, lk): decoding packs the L queries of a group's H / G heads into the 16 rows
# of its mma (attention_decode.hds, `when H / G * L <= 16`): 8:1 and one query (8 rows), 8:1
# and two (16, the edge), 8:1 and three (24: the prefill schedule), 4:1, multi-query; then
# prefill shapes (L <= M: under a causal mask no row is fully masked), with causal masks
# where a row's query is r % L of its head; past 4096 keys split over blocks (Llama-3 70B's
# 64 heads over 8 at 8192 keys, a batch of 4 of them, two queries of 8:1).
GQA_SIZES = [(1, 8, 1, 1, 4000), (2, 8, 2, 1, 777), (1, 32, 4, 1, 2049), (1, 8, 1, 2, 300), (1, 8, 1, 3, 300),
             (2, 6, 3, 77, 131), (1, 4, 2, 16, 16), (1, 2, 1, 8, 100), (1, 16, 2, 1, 1), (1, 4, 4, 129, 130),
             (1, 64, 8, 1, 8192), (4, 64, 8, 1, 4500), (1, 16, 2, 2, 6000)]


@gpu
@pytest.mark.parametrize("b,h,g,lq,lk", GQA_SIZES)
@pytest.mark.parametrize("name,dtype,d,causal", [("gqa_h64", "float16", 64, False),
                                                 ("sm90_gqa_h128", "float16", 128, False),
                                                 ("sm90_gqa_h64_causal", "float16", 64, True),
                                                 ("sm90_gqa_h128_bf16_causal", "bfloat16", 128, True)])
def test_attention_grouped(name, dtype, d, causal, b, h, g, lq, lk):
    """Grouped-query attention: query head i reads key/value head i / (H / G) in place."""
    err = run(name, getattr(torch, dtype), b, h, lq, lk, d, causal, groups=g)
    assert err < (1e-2 if dtype == "bfloat16" else 2e-3), err


@gpu
def test_attention_grouped_heads_checked_per_call():
    """H not a multiple of G (symbolic): the run returns cudaErrorInvalidValue and writes nothing."""
    graph = harness.build_graph("tests/gpu/ops/op_attention_sm90_gqa_h128.hds")
    q = torch.randn(1, 6, 1, 128, device="cuda").half()
    k = v = torch.randn(1, 4, 64, 128, device="cuda").half()
    out = torch.full((1, 6, 1, 128), float("nan"), device="cuda", dtype=torch.float16)
    sizes = {"B": 1, "H": 6, "L": 1, "G": 4, "M": 64}
    assert graph.run({"q": q, "k": k, "v": v, "out": out}, sizes, graph.workspace(sizes)) == 1  # cudaErrorInvalidValue
    torch.cuda.synchronize()
    assert torch.isnan(out).all()


@gpu
@pytest.mark.parametrize("b,t", [(1, 1), (2, 5), (2, 77), (1, 300), (3, 1000)])
def test_attention_reads_qkv_views(b, t):
    """GPT-2's q, k, v: slices of one projection split into heads and transposed, which the
    attention kernel's TMA copies read in place through tensor maps with the views' strides
    and offsets; decoding (T <= 16) and both prefill block sizes."""
    graph = harness.build_graph("tests/gpu/ops/op_attention_sm90_qkv_views.hds")
    x = torch.randn(b, t, 768, device="cuda").half()
    w = (torch.randn(768, 2304, device="cuda") / 28).half()
    out = torch.full((b, t, 768), float("nan"), device="cuda", dtype=torch.float16)
    sizes = {"B": b, "T": t}
    assert graph.run({"x": x, "w": w, "out": out}, sizes, graph.workspace(sizes)) == 0
    torch.cuda.synchronize()
    q, k, v = ((x.double() @ w.double()).reshape(b, t, 3, 12, 64)[:, :, i].transpose(1, 2) for i in range(3))
    ref = reference(q, k, v, causal=True).transpose(1, 2).reshape(b, t, 768)
    assert float((out.double() - ref).norm() / ref.norm()) < 3e-3


@gpu
@pytest.mark.parametrize("s,h,g", [(1, 8, 2), (3, 4, 1), (77, 6, 3), (300, 2, 2)])
@pytest.mark.parametrize("name", ["head_split", "sm90_head_split"])
def test_attention_heads_split_in_place(name, s, h, g):
    """q, k, v as projections lay them out ([tokens, heads, 64]), permuted to [heads, tokens,
    64]: read in place (no copy kernel), as strided views by TMA on sm_90a."""
    graph = harness.build_graph(f"tests/gpu/ops/op_attention_{name}.hds")
    q = torch.randn(s, h, 64, device="cuda").half()
    k, v = (torch.randn(s, g, 64, device="cuda").half() for _ in range(2))
    out = torch.full((h, s, 64), float("nan"), device="cuda", dtype=torch.float16)
    sizes = {"S": s, "H": h, "G": g}
    assert graph.run({"q": q, "k": k, "v": v, "out": out}, sizes, graph.workspace(sizes)) == 0
    torch.cuda.synchronize()
    kk, vv = (t.permute(1, 0, 2).repeat_interleave(h // g, dim=0) for t in (k, v))
    ref = reference(q.permute(1, 0, 2), kk, vv, causal=True)
    assert float((out.double() - ref).norm() / ref.norm()) < 2e-3
