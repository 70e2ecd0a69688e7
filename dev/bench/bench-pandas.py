#!/usr/bin/python3
"""The reports' pandas method, for `make bench`: read_csv with usecols, strip
the thousands separators, sum. Prints seconds and the sums it found.
Run with /usr/bin/python3 (Debian's python3-pandas)."""
import sys, time

t0 = time.perf_counter()
import pandas as pd
path = sys.argv[1]
cols = ['gpu__time_duration.sum', 'dram__bytes_read.sum', 'dram__bytes_write.sum',
        'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum',
        'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum',
        'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum']
with open(path) as f:  # ncu's ==PROF== lines come before the header
    skip = next(i for i, l in enumerate(f) if l.startswith('"ID"'))
t1 = time.perf_counter()
df = pd.read_csv(path, skiprows=skip, usecols=cols, dtype=str)
df = df.iloc[1:]  # the units row
s = {c: df[c].str.replace(',', '', regex=False).astype('int64').sum() for c in cols}
t2 = time.perf_counter()
fp32 = int(s[cols[3]] + s[cols[4]] + 2 * s[cols[5]])
print('pandas_s %.4f fp32 %d dram %d time_ns %d' % (t2 - t1, fp32, int(s[cols[1]] + s[cols[2]]), int(s[cols[0]])))
