"""The example graphs (examples/mlp.hds, transformer_block.hds,
resnet_block.hds, llama_block.hds) and the benchmark graphs of bench/graphs in torch: inputs and
the eager reference, shared by the GPU tests and bench/bench_graphs.py."""
from pathlib import Path

import torch
import torch.nn.functional as F


def mlp_inputs(batch, dtype=torch.float16, device="cuda"):
    g = torch.Generator(device=device).manual_seed(1)
    r = lambda *s, scale=1.0: (torch.randn(*s, generator=g, device=device) * scale).to(dtype)
    return {"x": r(batch, 768), "w1": r(768, 3072, scale=0.03), "b1": r(3072), "w2": r(3072, 768, scale=0.02),
            "b2": r(768)}


def mlp(x, w1, b1, w2, b2):
    return F.gelu(x @ w1 + b1) @ w2 + b2


def transformer_inputs(seq, device="cuda"):
    g = torch.Generator(device=device).manual_seed(2)
    r = lambda *s, scale=1.0: torch.randn(*s, generator=g, device=device) * scale
    return {"x": r(seq, 256), "g1": r(256), "b1": r(256), "wq": r(256, 256, scale=0.06), "wk": r(256, 256, scale=0.06),
            "wv": r(256, 256, scale=0.06), "wo": r(256, 256, scale=0.06), "g2": r(256), "b2": r(256),
            "w1": r(256, 1024, scale=0.06), "c1": r(1024), "w2": r(1024, 256, scale=0.03), "c2": r(256)}


def transformer(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, c1, w2, c2):
    s = x.shape[0]
    h = F.layer_norm(x, (256,), g1, b1)
    # [1, heads, tokens, 64], as a model batches them: on 3-D tensors SDPA may not take its
    # fast kernels (bench/results/2026-11-25-h100-attention-gqa)
    heads = lambda t: t.reshape(s, 4, 64).permute(1, 0, 2)[None]
    a = F.scaled_dot_product_attention(heads(h @ wq), heads(h @ wk), heads(h @ wv), scale=0.125)
    x1 = x + a[0].permute(1, 0, 2).reshape(s, 256) @ wo
    h2 = F.layer_norm(x1, (256,), g2, b2)
    return x1 + F.gelu(h2 @ w1 + c1) @ w2 + c2


def llama_inputs(seq, device="cuda"):
    g = torch.Generator(device=device).manual_seed(6)
    r = lambda *s, scale=1.0: (torch.randn(*s, generator=g, device=device) * scale).half()
    d, f = 4096, 14336
    gain = lambda: (torch.rand(d, generator=g, device=device) + 0.5).half()
    return {"x": r(seq, d), "g1": gain(), "wq": r(d, d, scale=d ** -0.5), "wk": r(d, 1024, scale=d ** -0.5),
            "wv": r(d, 1024, scale=d ** -0.5), "wo": r(d, d, scale=d ** -0.5), "g2": gain(),
            "wg": r(d, f, scale=d ** -0.5), "wu": r(d, f, scale=d ** -0.5), "wd": r(f, d, scale=f ** -0.5)}


def llama(x, g1, wq, wk, wv, wo, g2, wg, wu, wd):
    """A Llama-style decoder block: 32 query heads over 8 key/value heads of 128, causal."""
    s = x.shape[0]

    def rms_norm(t, w):
        tf = t.float()
        return (tf * torch.rsqrt(tf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(t.dtype)
    # [1, heads, tokens, 128], as a model batches them (SDPA's flash kernel takes 4-D
    # tensors: on [heads, tokens, 128] it computes the scores in memory, several times
    # slower past 2k tokens), grouped with enable_gqa.
    heads = lambda t, n: t.reshape(s, n, 128).permute(1, 0, 2)[None]
    h = rms_norm(x, g1)
    a = F.scaled_dot_product_attention(heads(h @ wq, 32), heads(h @ wk, 8), heads(h @ wv, 8), is_causal=True,
                                       scale=128 ** -0.5, enable_gqa=True)
    x1 = x + a[0].permute(1, 0, 2).reshape(s, 4096) @ wo
    h2 = rms_norm(x1, g2)
    return x1 + (F.silu(h2 @ wg) * (h2 @ wu)) @ wd


def resnet_inputs(batch, device="cuda"):
    g = torch.Generator(device=device).manual_seed(3)
    r = lambda *s, scale=1.0: torch.randn(*s, generator=g, device=device) * scale
    return {"x": r(batch, 64, 28, 28), "w1": r(64, 64, 3, 3, scale=0.05), "s1": r(64, 1, 1).abs() + 0.5,
            "t1": r(64, 1, 1), "w2": r(64, 64, 3, 3, scale=0.05), "s2": r(64, 1, 1).abs() + 0.5, "t2": r(64, 1, 1)}


def resnet(x, w1, s1, t1, w2, s2, t2):
    y1 = F.relu(F.conv2d(x, w1, padding=1) * s1 + t1)
    return F.relu(F.conv2d(y1, w2, padding=1) * s2 + t2 + x)


def mm_bias_gelu_inputs(rows, device="cuda"):
    g = torch.Generator(device=device).manual_seed(4)
    r = lambda *s, scale=1.0: (torch.randn(*s, generator=g, device=device) * scale).half()
    return {"x": r(rows, 4096), "w": r(4096, 4096, scale=0.02), "b": r(4096)}


def mm_bias_gelu(x, w, b):
    return F.gelu(x @ w + b)


def conv_inputs(channels, filters, size):
    def make(batch, device="cuda"):
        g = torch.Generator(device=device).manual_seed(5)
        return {"x": torch.randn(batch, channels, 56, 56, generator=g, device=device).half(),
                "w": (torch.randn(filters, channels, size, size, generator=g, device=device) * 0.05).half()}
    return make


def conv3x3(x, w):
    return F.conv2d(x, w, padding=1)


def conv1x1(x, w):
    return F.conv2d(x, w)


def source(name: str) -> str:
    """examples/NAME.hds, or the benchmark graphs of bench/graphs (sm_90a builds)."""
    root = Path(__file__).resolve().parents[2]
    return f"bench/graphs/{name}.hds" if (root / "bench" / "graphs" / f"{name}.hds").exists() else f"examples/{name}.hds"


# graph -> (input maker, reference, size name, output shape from inputs)
MODELS = {
    "mlp": (mlp_inputs, mlp, "B", lambda i: (i["x"].shape[0], 768)),
    "mlp_sm90a": (mlp_inputs, mlp, "B", lambda i: (i["x"].shape[0], 768)),
    "mm_bias_gelu": (mm_bias_gelu_inputs, mm_bias_gelu, "M", lambda i: (i["x"].shape[0], 4096)),
    "conv3x3_f16": (conv_inputs(64, 64, 3), conv3x3, "N", lambda i: (i["x"].shape[0], 64, 56, 56)),
    "conv1x1_f16": (conv_inputs(256, 64, 1), conv1x1, "N", lambda i: (i["x"].shape[0], 64, 56, 56)),
    "transformer_block": (transformer_inputs, transformer, "S", lambda i: (i["x"].shape[0], 256)),
    "resnet_block": (resnet_inputs, resnet, "N", lambda i: tuple(i["x"].shape)),
    "llama_block": (llama_inputs, llama, "S", lambda i: (i["x"].shape[0], 4096)),
}
