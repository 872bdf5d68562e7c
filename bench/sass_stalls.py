"""sass_stalls.py — instruction-level warp stall samples of one kernel from Nsight Compute's
source page (`ncu --import REP --page source --print-source sass --csv`): by reason, by opcode,
and the instructions with the most samples. Samples are charged to the instruction a warp
waits to issue.

    python3 bench/sass_stalls.py FILE.csv [TOP]     # the last kernel of the file
"""
import csv
import sys
from collections import Counter


def summary(path, label: str = "", top: int = 12, reasons: int = 8, opcodes: int = 12) -> str:
    """The last kernel's samples in `path` (headed `== label: kernel` with a label)."""
    rows = list(csv.reader(open(path)))
    start = [i for i, r in enumerate(rows) if r and r[0] == "Kernel Name"][-1]
    name, hdr = rows[start][1], rows[start + 1]
    data = [r for r in rows[start + 2:] if len(r) > 5]
    ia, ie = hdr.index("Warp Stall Sampling (All Samples)"), hdr.index("Instructions Executed")
    stalls = [h for h in hdr if h.startswith("stall_") and "Not" not in h]
    lines = [f"== {label}: {name}" if label else name, f"samples {sum(int(r[ia] or 0) for r in data)}"]
    why = Counter({h: sum(int(r[hdr.index(h)] or 0) for r in data) for h in stalls})
    lines.append("by reason: " + ", ".join(f"{h[6:]} {n}" for h, n in why.most_common(reasons)))
    ops = Counter()
    for r in data:
        w = r[1].split()
        ops[(w[1] if w[0].startswith("@") else w[0]).split(".")[0]] += int(r[ia] or 0)
    lines.append("by opcode: " + ", ".join(f"{o} {n}" for o, n in ops.most_common(opcodes)))
    lines.append(f"the {top} instructions with the most samples (index, samples, executed, instruction, top reason):")
    for i in sorted(range(len(data)), key=lambda i: -int(data[i][ia] or 0))[:top]:
        worst = max(stalls, key=lambda h: int(data[i][hdr.index(h)] or 0))
        lines.append(f"  {i:5d} {data[i][ia]:>5} {data[i][ie]:>7}  {data[i][1].strip()[:60]:60s} {worst[6:]}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sys.argv[1], top=int(sys.argv[2]) if len(sys.argv) > 2 else 12))
