#!/usr/bin/env python3
# dev/linecount_late.py [FILE]: the lines that issues 16-19 added inside
# the sections that existed before the merge (the "rest" of
# dev/linecount.sh), so that the old parts can be held against their
# 10,151 lines like for like. Each item is a run from a line matching START
# to the first later line matching END (inclusive; `sub` takes off lines of
# the run that were there before), or one matching line; two are net
# differences against the fold commit 15c3730. Prints the items, their sum
# and the rest without them.
import re, sys
L = open(sys.argv[1] if len(sys.argv) > 1 else 'roofline.h').read().split('\n')
def find(pat, after=0):
    r = re.compile(pat)
    for i in range(after, len(L)):
        if r.search(L[i]): return i
    raise SystemExit('not found: ' + pat)
def run(start, end=None, after=0):
    i = find(start, after)
    j = find(end, i) if end else i
    return i, j - i + 1
items = []
def add(issue, what, start, end=None, after=0, sub=0):
    i, n = run(start, end, after)
    items.append((issue, what, i + 1, n - sub))
# manual
add('16-19', 'OPTIONS: RFL_NO_REDUCE .. RFL_HW_ONLY', r'^       RFL_NO_REDUCE ', r'RFL_HW_KEEP_<ID> \(e\.g\.')
add('19', 'OPTIONS: RFL_NO_AVX2 drops the probe kernels', r'and no AVX2 / AVX-512 probe kernels')
add('19', 'API BY TASK: machine files and probe', r'rfl_machine_file_parse \(MACHINE FILES below\)', r'rfl_probe_isa_best rfl_probe_isa_name')
add('17', 'API BY TASK: LLMs', r'^       LLMs: ', r'step as layer records, so every LAYERS')
add('18', 'API BY TASK: ONNX', r'^       ONNX: ', r'the ONNX API section|ONNX below: a model file')
add('17', 'API BY TASK: LLM join', r'^       LLM join: ', r'rfl_llm_kernel_role_of')
add('17', 'LAYERS: grouped attention, RFL_LF_ONCE, rfl_llm_build', r'^       Attention takes grouped k and v', r'table, training and charts take them too')
items.append(('16', 'EMBEDDED, net: 19 lines at the fold (15c3730), 24 now', find(r'^   EMBEDDED') + 1, 5))
items.append(('17-19', 'VERSION HISTORY, net: 8 lines of 0.1.0 at the fold, 9 now', find(r'^       0\.1\.0 \(2026-11\)') + 1, 1))
# declarations
add('16', 'RFL_HW_ONLY / RFL_HW_NO_STRINGS: doc and macros', r'A device carries only the machines it needs', r'^#define RFL__HW_ENUM\(E, \.\.\.\) RFL_HW_##E,$', sub=2)
add('17', 'RFL_LF_ONCE', r'^#define RFL_LF_ONCE', r'inv_freq x positions\): counts do not scale')
add('17', 'rfl_attention: grouped keys', r'Grouped keys \(GQA, MQA\): k \(Lk, D / g\)', r'arg\[1\]: kv heads\)')
add('17', 'rfl_net_cost.input_bytes', r'uint64_t input_bytes;', r'decode step.s KV cache included')
add('19', 'rfl_roofline_desc.measured', r'const rfl_machine \*const \*measured;', r'roof, labelled "measured"')
# [3]
add('16', '[3] RFL_HW_NO_STRINGS / RFL_HW_ONLY table', r'^#ifdef RFL_HW_NO_STRINGS$', r'^#undef RFL__HW_ROW_IF$')
# [6]
add('17', '[6] grouped k/v in rfl_attention', r'grouped k and v \(GQA, MQA\): d / K width', r'^    dv \*= g;$', sub=2)
add('17', '[6] input bytes of a decode', r'if \(net->layers\[i\]\.op == RFL_OP_INPUT\) out->input_bytes')
# [12]
add('19', '[12] measured roofs widen the ranges', r'^/\* Room for the measured roofs', r'^}$', after=0)
add('19', '[12] measured roof in pixels, its ink', r'^/\* Measured roof of main precision p', r'^#define RFL__MEAS_INK')
add('19', '[12] measured roofs as obstacles', r'if \(rfl__meas_px\(P, p, &r\)\) rfl__scan_poly', r'if \(rfl__meas_px\(P, p, &r\)\) rfl__scan_poly', sub=-1)
add('19', '[12] measured roofs drawn dashed', r'/\* measured beside the datasheet: dashed \*/', r'RFL__MEAS_INK\);')
add('19', '[12] the label jobs of the measured roof', r'^#define RFL__JOB_MEAS')
add('19', '[12] the label job dispatch', r'if \(job >= RFL__JOB_MEAS\) rfl__meas_label')
add('19', '[12] the panel takes its measured machine', r'^    P\.meas = d->measured')
add('19', '[12] the panel field', r'const rfl_machine \*meas; /\* measured ceilings')
add('19', '[12] the measured label roof and labels', r'^/\* The measured roof that carries the labels', r'^}$')
add('19', '[12] measured labels', r'^/\* "measured 1\.23 TFLOP/s"', r'^}$')
tot = 0
for iss, what, line, n in items:
    print('%4d  line %5d  issue %-6s %s' % (n, line, iss, what)); tot += n
print('%4d  total' % tot)
if len(sys.argv) > 2:
    rest = int(sys.argv[2])
    print('%6d  the rest without them, against 10151 before the merge (%+d)'
          % (rest - tot, rest - tot - 10151))
