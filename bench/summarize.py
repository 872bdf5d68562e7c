"""Merges the outputs of the benchmark scripts (gemm, memory, graphs: JSON and
markdown in RAW) into OUT/results.json, OUT/summary.md and, when matplotlib is
installed, OUT/ratios.png (every ratio against its reference; 1.0 = parity).

    python3 bench/summarize.py RAW OUT
"""
import json
import sys
from pathlib import Path


def main():
    raw, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    merged, parts, bars = {}, [], []
    device = (raw / "device.txt").read_text() if (raw / "device.txt").exists() else ""
    for name, key, label in [("gemm", "vs_cublas", "shape"), ("memory", "vs_compiled", "op"),
                             ("graphs", "vs_compiled", "graph")]:
        j, m = raw / f"{name}.json", raw / f"{name}.md"
        if not j.exists():
            parts.append(f"## {name}\n\n(not run)\n")
            continue
        data = json.loads(j.read_text())
        merged[name] = data
        parts.append(f"## {name}\n\n{m.read_text()}")
        for r in data["rows"]:
            if key in r:
                bars.append((f"{name}: {r[label]} {r.get('dtype', '')}".strip(), r[key]))
    (out / "results.json").write_text(json.dumps(merged, indent=1))
    summary = "# Benchmark run\n\n```\n" + device + "```\n\n" + "\n".join(parts)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 0.32 * len(bars) + 1))
        ax.barh([b[0] for b in bars], [b[1] for b in bars])
        ax.axvline(1.0, color="black", linewidth=1)
        ax.set_xlabel("speed vs reference (cuBLAS for gemm, torch.compile otherwise); > 1 is faster")
        ax.invert_yaxis()
        fig.tight_layout()
        fig.savefig(out / "ratios.png", dpi=110)
    except ImportError:
        summary += "\n(matplotlib is not installed: no ratios.png)\n"
    (out / "summary.md").write_text(summary)
    print(summary)


if __name__ == "__main__":
    main()
