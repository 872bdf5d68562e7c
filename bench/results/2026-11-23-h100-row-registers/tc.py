import torch, torch.nn.functional as F
C = 8192
x = torch.randn(C, C, device="cuda"); g = torch.randn(C, device="cuda"); b = torch.randn(C, device="cuda")
def med(f, n=30):
    for _ in range(5): f()
    ts = []
    for _ in range(n):
        a, e = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); f(); e.record(); e.synchronize(); ts.append(a.elapsed_time(e))
    return sorted(ts)[n // 2]
fn = lambda x, g, b: F.layer_norm(x, (C,), g, b)
c = torch.compile(fn)
c(x, g, b)
src = torch.empty(C * C * 4, dtype=torch.uint8, device="cuda"); dst = torch.empty_like(src)
tcp = med(lambda: dst.copy_(src))
for name, f in [("eager", lambda: fn(x, g, b)), ("torch.compile", lambda: c(x, g, b))]:
    t = med(f); print(f"{name:28s} {t*1e3:8.1f} us  {tcp/t:6.3f} of copy")
print(f"torch copy {tcp*1e3:.1f} us")
