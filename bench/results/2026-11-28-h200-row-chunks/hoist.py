"""Hand edit of the emitted row kernels (`_vec` ones): a norm's weight and bias (tensors read at
`[first]`, not along the row) are copied with the row in the first pass, before the reductions,
not in the output pass after them.   python3 hoist.py IN.cu OUT.cu"""
import re
import sys

src = open(sys.argv[1]).read()
out, pos = [], 0
for m in re.finditer(r"__global__ void[^\n]*\n(?:.*\n)*?\}\n", src):
    k = m.group(0)
    if "_vec(" in k.split("\n")[0] + k.split("\n")[1]:
        head = re.search(r"alignas\(16\) (\w+) row_x\[(\d+)\];", k)
        load = re.search(r"\n(\s*)hds::copy<16>\(&row_x\[c \* (\d+)\], [^\n]*\n", k)
        pairs = re.findall(r"\n\s*alignas\(16\) \w+ (v_\w+)\[\d+\];\n\s*hds::copy<16>\(&\1\[0\], &(\w+)\[first\]\);", k)
        if head and load and pairs:
            t, p, ind, v = head.group(1), head.group(2), load.group(1), load.group(2)
            for name, tensor in pairs:
                k = re.sub(rf"\n\s*alignas\(16\) \w+ {name}\[\d+\];\n\s*hds::copy<16>\(&{name}\[0\], &{tensor}\[first\]\);",
                           "", k)
                k = k.replace(f"{name}[e]", f"{name}_all[c * {v} + e]")
                k = k.replace(head.group(0), head.group(0) + f"\n    alignas(16) {t} {name}_all[{p}];", 1)
                loadline = re.search(r"\n(\s*)hds::copy<16>\(&row_x\[c \* \d+\], [^\n]*\n", k)
                k = k[:loadline.end()] + f"{ind}hds::copy<16>(&{name}_all[c * {v}], &{tensor}[first]);\n" + k[loadline.end():]
            print("hoisted", [n for n, _ in pairs], "in", k.split("(")[0].split()[-1], file=sys.stderr)
    out.append(src[pos:m.start()] + k)
    pos = m.end()
out.append(src[pos:])
open(sys.argv[2], "w").write("".join(out))
