"""sass-summary.txt from the SASS files of the runs (not kept: 0.5 MB each):

    python3 summarize_sass.py DIR1 DIR3 > sass-summary.txt

DIR1: run_sass.sh's sass_{c512,stem}.csv (Nsight Compute's source page; the last kernel of each
file, the tree's stdlib); DIR3: run.sh's sass-c512-{old,new,h16}.txt (cuobjdump -sass)."""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from sass_stalls import summary  # noqa: E402  (bench/sass_stalls.py)

d1, d3 = (Path(a) for a in sys.argv[1:3])
print("Instruction-level warp stall samples (Nsight Compute, SASS), batch 1, the last kernel of each")
print("report. Samples are charged to the instruction a warp waits to issue.\n")
for k in ("c512", "stem"):
    print(summary(d1 / f"sass_{k}.csv", k, top=8, reasons=6, opcodes=10) + "\n")
print("7 x 7 x 512 (cuobjdump -sass): where the main loop packs the halo's two-byte loads")
print("(PRMT ..0x5410..) against the first tensor-core instruction after the loads (instruction numbers)\n")
for st in ("old", "new", "h16"):
    lines = [l for l in open(d3 / f"sass-c512-{st}.txt") if re.search(r"/\*[0-9a-f]{4}\*/", l)]
    ins = [l.split("*/", 1)[1].split(";")[0].strip() for l in lines]
    last_ldg = max(i for i, s in enumerate(ins) if "LDG.E.U16" in s)
    first_mma = next(i for i, s in enumerate(ins) if i > last_ldg and s.startswith("HMMA"))
    packs = [i for i, s in enumerate(ins) if "PRMT" in s and "0x5410" in s and i > last_ldg]
    first_pack = packs[0] if packs else None
    where = "before" if first_pack is not None and first_pack < first_mma else "after"
    print(f"{st:4s}: last halo load {last_ldg}, first pack {first_pack}, first HMMA after the loads {first_mma}: "
          f"packed {where} the tensor cores' work")
