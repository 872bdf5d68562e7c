"""Call 7's hand edit: the softmax sweep graph's .cu with each register kernel's exp(x - m) kept in
the row's registers as the sum adds it, the output reading it there (what the compiler emits since).
    python3 keep_edit.py IN.cu OUT.cu"""
import re
import sys

s = open(sys.argv[1]).read()
s = re.sub(r'softmax_s_acc = softmax_s_acc \+ expf\((row_x\[[^\]]+\]) - softmax_m\);',
           r'\1 = expf(\1 - softmax_m); softmax_s_acc = softmax_s_acc + \1;', s)
s = re.sub(r'expf\((row_x\[[^\]]+\]) - softmax_m\) \* \(1\.0f / softmax_s\)', r'\1 * (1.0f / softmax_s)', s)
open(sys.argv[2], 'w').write(s)
