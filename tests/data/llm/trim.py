"""Trim the shared LLM captures (../shared/fixtures/ncu/*-readme-raw.csv,
4.6 MB together) to the columns the reducer reads, for tests/test_llm_join.c.

    /usr/bin/python3 tests/data/llm/trim.py ../shared/fixtures/ncu

Kept, unchanged and in order: the ncu preamble lines, the header and units
rows, and per kernel the columns ID, Kernel Name, Device, CC,
device__attribute_display_name and every metric of llm-capture-metrics.txt
(the .sum of counters, sm__cycles_elapsed.avg.per_second). Dropped: the
.avg/.max/.min repeats and the device__attribute_* / launch__* / nvlink__*
columns that the raw page adds. Values are copied byte for byte (quoting
and thousands separators as ncu wrote them)."""
import csv, io, os, sys

FILES = ["gpt2-prefill-b1-s128-fp32-readme-raw.csv", "gpt2-decode-b1-s128-fp32-readme-raw.csv",
         "llama-3.2-1b-prefill-b1-s512-bf16-readme-raw.csv",
         "llama-3.2-1b-decode-b1-s512-bf16-readme-raw.csv"]
KEEP = {"ID", "Kernel Name", "Device", "CC", "device__attribute_display_name"}

def keep(col, metrics):
    return col in KEEP or col in metrics

def trim(src, dst, metrics):
    text = open(src, newline="").read()
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    cols = [i for i, c in enumerate(rows[0]) if keep(c, metrics)]
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for r in rows:
        if r: w.writerow([r[i] for i in cols])
    with open(dst, "w", newline="") as f:
        f.write("\n".join(lines[:start]) + "\n" + out.getvalue())

def main():
    src = sys.argv[1]
    names = open(os.path.join(src, "llm-capture-metrics.txt")).read().strip().split(",")
    metrics = {n for n in names if n.endswith(".sum") or n.endswith(".per_second")}
    here = os.path.dirname(os.path.abspath(__file__))
    for f in FILES:
        trim(os.path.join(src, f), os.path.join(here, f.replace("-readme-raw", "")), metrics)

main()
