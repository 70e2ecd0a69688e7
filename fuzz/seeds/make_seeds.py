#!/usr/bin/env python3
"""Small seed inputs for fuzz_reduce, cut from the real fixtures: the
preamble, the header and units rows and the first kernels, keeping only
the columns the reducer reads plus a few it skips, so that one execution
takes microseconds instead of the milliseconds a 2,000-column file costs.
Each seed starts with fuzz_reduce's 4 config bytes (AUTO locale, chunk
seed 1, default top_n and scratch). Run from the repository root:
    python3 fuzz/seeds/make_seeds.py
The outputs are committed (fuzz/seeds/reduce/*.csv); the fixtures are
facts, not code."""
import csv, io, os, re, sys

SRC = ["tests/data/resnet50-b8-infer-full-raw.csv",
       "tests/data/resnet18-b1-train-tf32-full-raw.csv",
       "tests/data/micro-auto-units-details.csv"]
KEEP = re.compile(r"^(ID|Kernel Name|CC|Block Size|Device|gpu__time_duration\.sum|"
                  r"dram__bytes.*\.sum(\.per_second|\.peak_sustained)?|lts__t_bytes\.sum|"
                  r"l1tex__t_bytes\.sum|s?m?sp__cycles_elapsed\.avg(\.per_second)?|"
                  r"sm__cycles_elapsed\.avg(\.per_second)?|dram__cycles_elapsed\.avg\.per_second|"
                  r".*sass_thread_inst_executed_op_.*|sm__inst_executed_pipe_tensor.*|"
                  r"sm__ops_path_tensor.*|sm__pipe_tensor.*|launch__grid_size|"
                  r"Section Name|Metric Name|Metric Unit|Metric Value)$")
PREFIX = b"\x03\x01\x00\x00"

def split(path):
    pre, rows = [], []
    with open(path, newline="") as f:
        text = f.read()
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not lines[i].startswith('"'):
        pre.append(lines[i]); i += 1
    rows = list(csv.reader(io.StringIO("\n".join(lines[i:]))))
    return pre, rows

def write(name, pre, rows):
    out = io.StringIO()
    for p in pre:
        out.write(p + "\n")
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for r in rows:
        w.writerow(r)
    path = os.path.join("fuzz/seeds/reduce", name)
    with open(path, "wb") as f:
        f.write(PREFIX + out.getvalue().encode())
    print(path, len(out.getvalue()), "bytes")

for src in SRC:
    pre, rows = split(src)
    hdr = rows[0]
    cols = [i for i, h in enumerate(hdr) if KEEP.match(h)]
    cols += [i for i in range(len(hdr)) if i not in cols][:6]  # a few skipped ones
    cols.sort()
    details = "Metric Name" in hdr
    body = rows[1:40] if details else rows[1:5]  # units row + 3 kernels
    base = os.path.basename(src).replace(".csv", "")
    write(base + "-small.csv", pre, [[r[i] for i in cols] for r in [hdr] + body if len(r) == len(hdr)])
