"""Experiment: the emitted conv1x1_f16 kernel (pointwise conv2d_mma) with x and w staged by cp.async
into a ring of ST slices (no registers in between), ST - 1 slices in flight. Also lb4 (4 blocks/SM).
python3 make.py BASE_DIR OUTROOT"""
import re, sys
from pathlib import Path
base = Path(sys.argv[1]); root = Path(sys.argv[2])
src = (base / "conv1x1_f16.cu").read_text()
start = src.index("__global__ void")
end = src.index('extern "C" {')
kernel_old = src[start:end]
epi = kernel_old[kernel_old.index("    const int g = lane / 4;"):]
SYNC = '    hds::cp_async_wait<0>();\n    __syncthreads();  // cs reuses the ring\n'
def kernel(st, alias=False):
    sync = SYNC
    return f'''__global__ void __launch_bounds__(256{", 3" if alias else ""}) conv1x1_f16_k0_conv2d(const __half* __restrict__ x,
        const __half* __restrict__ w, __half* __restrict__ out, int N) {{
    constexpr int ST = {st};
    extern __shared__ __align__(16) unsigned char dyn[];
    auto& sa = *reinterpret_cast<__half (*)[ST][64][40]>(dyn);
    auto& sb = *reinterpret_cast<__half (*)[ST][32][136]>(dyn + ST * 5120);
    auto& cs = *reinterpret_cast<__half (*)[8][32][40]>(dyn + {0 if alias else st * 13824});
    alignas(16) float acc[2][4][4];
    alignas(16) __half fa[2][8];
    alignas(16) __half fb[2][8];
    const int o0 = (int)blockIdx.y * 64;
    const int pix0 = (int)blockIdx.x * 128;
    const int warp = (int)threadIdx.x / 32;
    const int lane = (int)threadIdx.x % 32;
    const int wo = warp / 4 * 32;
    const int wp = warp % 4 * 32;
    const int pixels = N * 3136;
    const int slices = 8;
    const int vp = pix0 + (int)threadIdx.x % 16 * 8;
    const int vn = vp / 3136;
    const int vpq = vp % 3136;
    const int kv = (int)threadIdx.x / 16;
    const int wr = (int)threadIdx.x / 4;
    const int wc = (int)threadIdx.x % 4 * 8;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;
    auto issue = [&](int t) {{
        const int st = t % ST;
        const int c0 = t * 32;
#pragma unroll
        for (int i = 0; i < 2; ++i) {{
            const bool ok = vp < pixels && c0 + kv + i * 16 < 256;
            hds::cp_async_16(&sb[st][kv + i * 16][(int)threadIdx.x % 16 * 8],
                             ok ? &x[(vn * 256 + (c0 + kv + i * 16)) * 3136 + vpq] : x, ok ? 16 : 0);
        }}
        const bool okw = o0 + wr < 64 && c0 + wc < 256;
        hds::cp_async_16(&sa[st][wr][wc], okw ? &w[(o0 + wr) * 256 + c0 + wc] : w, okw ? 16 : 0);
    }};
#pragma unroll
    for (int t = 0; t < ST - 1; ++t) {{
        if (t < slices) issue(t);
        hds::cp_async_commit();
    }}
    for (int t = 0; t < slices; ++t) {{
        hds::cp_async_wait<ST - 2>();
        __syncthreads();
        if (t + ST - 1 < slices) issue(t + ST - 1);
        hds::cp_async_commit();
        const int b = t % ST;
#pragma unroll
        for (int kk = 0; kk < 2; ++kk) {{
#pragma unroll
            for (int i = 0; i < 2; ++i)
                hds::ldmatrix_x4(&fa[i][0], &sa[b][wo + i * 16 + lane % 16][kk * 16 + lane / 16 * 8]);
#pragma unroll
            for (int u = 0; u < 2; ++u)
                hds::ldmatrix_x4_trans(&fb[u][0], &sb[b][kk * 16 + lane % 16][wp + u * 16 + lane / 16 * 8]);
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) hds::mma_16816(&acc[i][j][0], &fa[i][0], &fb[j / 2][j % 2 * 4]);
        }}
    }}
{sync if alias else ""}{epi}'''
def launch(text, st, alias=False):
    nbytes = st * 13824 + (0 if alias else 20480)
    pat = re.compile(r"( *)conv1x1_f16_k0_conv2d<<<(.*?), 0, stream>>>")
    text, n = pat.subn(lambda m: f"{m.group(1)}cudaFuncSetAttribute(conv1x1_f16_k0_conv2d, cudaFuncAttributeMaxDynamicSharedMemorySize, {nbytes});\n"
                       f"{m.group(1)}conv1x1_f16_k0_conv2d<<<{m.group(2)}, {nbytes}, stream>>>", text)
    assert n >= 1, n
    return text
variants = {"base": src, "cpa3": launch(src[:start] + kernel(3) + src[end:], 3), "cpa4": launch(src[:start] + kernel(4) + src[end:], 4),
            "cpa3a": launch(src[:start] + kernel(3, True) + src[end:], 3, True),
            "cpa4a": launch(src[:start] + kernel(4, True) + src[end:], 4, True),
            "lb4": src.replace("__launch_bounds__(256)", "__launch_bounds__(256, 4)")}
for k, t in variants.items():
    (root / k).mkdir(parents=True, exist_ok=True)
    (root / k / "conv1x1_f16.cu").write_text(t)
    (root / k / "conv1x1_f16.h").write_text((base / "conv1x1_f16.h").read_text())
