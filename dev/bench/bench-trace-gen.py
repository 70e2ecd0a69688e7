#!/usr/bin/env python3
"""bench-trace-gen.py FIXTURE OUT MB: a PyTorch profiler trace of about MB
megabytes for `make bench` (build/bench/, never committed): the fixture's
traceEvents repeated, each copy shifted in time by the fixture's own span
(+1 ms), so kernels stay in start order and the whole is one valid trace.
Prints the number of copies and kernel events written."""
import gzip, json, sys

src, out, mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
doc = json.load(gzip.open(src) if src.endswith(".gz") else open(src))
ev = doc['traceEvents']
lo = min(e['ts'] for e in ev if 'ts' in e)
hi = max(e['ts'] + e.get('dur', 0) for e in ev if 'ts' in e)
period = (hi - lo) + 1000.0
head = {k: v for k, v in doc.items() if k != 'traceEvents'}
target = int(mb * 1e6)
kern = sum(1 for e in ev if e.get('cat') == 'kernel')
copies = 0
with open(out, 'w') as f:
    f.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n  "traceEvents": [\n'
            % json.dumps(doc.get('deviceProperties', [])))
    first = True
    while f.tell() < target:
        shift = copies * period
        parts = []
        for e in ev:
            e2 = dict(e)
            if 'ts' in e2:
                e2['ts'] = round(e2['ts'] + shift, 3)
            if 'dur' in e2:
                e2['dur'] = round(e2['dur'], 3)  # Kineto writes 3 decimals
            parts.append(json.dumps(e2))
        f.write(('' if first else ',\n') + ',\n'.join(parts))
        first = False
        copies += 1
    f.write('\n  ],\n  "traceName": "bench"\n}\n')
print(copies, copies * kern)
