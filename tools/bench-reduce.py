#!/usr/bin/env python3
"""`make bench`, reducer part: throughput and peak memory of rfl-reduce on a
~200 MB raw-page export (built by bench-gen.py from a fixture), beside the
reports' pandas method (bench-pandas.py under /usr/bin/python3, Debian's
python3-pandas) when it is installed. Best of N runs, page cache warm."""
import json, os, subprocess, sys, time

RED, BIG, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 5
size = os.path.getsize(BIG)

# Every run on one core, the same for all ("on one core" in the targets;
# also keeps the scheduler from moving a run mid-way): the last one this
# process may use (core 0 takes most interrupts). Set here, inherited by
# every child (a preexec_fn would force a slower fork into each timing).
CORE = None
if hasattr(os, 'sched_setaffinity'):
    CORE = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {CORE})

def run(cmd):
    """wall seconds, cpu seconds, max RSS KiB, stdout of one child"""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit('bench: %s failed' % ' '.join(cmd))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, out

with open(BIG, 'rb') as f:  # warm the page cache
    while f.read(1 << 22):
        pass
wc = min(run(['wc', '-l', BIG])[0] for _ in range(3))
here = os.path.dirname(os.path.abspath(__file__))
have_pd = os.path.exists('/usr/bin/python3') and subprocess.call(
    ['/usr/bin/python3', '-c', 'import pandas'], stderr=subprocess.DEVNULL) == 0
# rfl-reduce and pandas take turns (PD_RUNS pandas runs spread among the
# RUNS of rfl-reduce), so that both see the same moments of a machine whose
# speed drifts (this VM's runs vary by up to 1.6x); best of each
PD_RUNS = 3
res, pd = [], []
for i in range(RUNS):
    res.append(run([RED, BIG, '--json']))
    if have_pd and (i * PD_RUNS) // RUNS != ((i + 1) * PD_RUNS) // RUNS:
        pwall, _, prss, out = run(['/usr/bin/python3', os.path.join(here, 'bench-pandas.py'), BIG])
        f = out.split()
        pd.append((float(f[1]), int(f[3]), prss, pwall))
wall = min(r[0] for r in res)
cpu = min(r[1] for r in res)
# peak RSS through /usr/bin/time (a forked Python child reports the
# interpreter's own pages in ru_maxrss)
rss = max(r[2] for r in res)
if os.path.exists('/usr/bin/time'):
    p = subprocess.run(['/usr/bin/time', '-f', '%M', RED, BIG], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, universal_newlines=True)
    rss = int(p.stderr.strip().split()[-1])
j = json.loads(res[0][3])
print('reduce bench: %s, %.1f MB, %d kernels%s' % (BIG, size / 1e6, j['kernels'],
      '' if CORE is None else ', every run on core %d' % CORE))
print('  wc -l          %.3f s  %.2f GB/s (disk-cache read reference)' % (wc, size / wc / 1e9))
print('  rfl-reduce     %.3f s  %.2f GB/s wall (best of %d; cpu %.3f s = %.2f GB/s), peak RSS %.2f MiB'
      % (wall, size / wall / 1e9, RUNS, cpu, size / cpu / 1e9, rss / 1024))
gbs = size / wall / 1e9
ok = gbs >= 2.0 and rss < 8 * 1024
ratio = None
if pd:
    pw = min(p[0] for p in pd)
    ratio = pw / wall  # pandas' read_csv + sum alone against our whole process: the strict ratio
    same = pd[0][1] == j['flops']['fp32']
    print('  pandas         %.3f s  %.2f GB/s (read_csv usecols + strip separators + sum; best of %d), peak RSS %.0f MiB'
          % (pw, size / pw / 1e9, len(pd), pd[0][2] / 1024))
    print('                 (the whole script, with the interpreter start and import pandas: %.3f s)'
          % min(p[3] for p in pd))
    print('  ratio          %.1fx faster than pandas\' read_csv + sum alone; FP32 FLOPs %s (%d)'
          % (ratio, 'agree' if same else 'DIFFER', j['flops']['fp32']))
    ok = ok and ratio >= 8 and same
else:
    print('  pandas         not installed (apt-get install python3-pandas): no ratio')
def verdict(good):
    return 'met' if good else 'MISSED'
print('  targets: >= 2 GB/s %s (%.2f), >= 8x pandas %s (%s), < 8 MiB %s (%.1f): %s'
      % (verdict(gbs >= 2.0), gbs, verdict(ratio is not None and ratio >= 8 and same),
         'no pandas' if ratio is None else '%.1fx' % ratio, verdict(rss < 8 * 1024), rss / 1024,
         'all met' if ok else 'MISSED'))
load = os.getloadavg()[0]
if load > 1.5:
    print('  (load average %.1f on %d cores: wall times include waiting for a core;'
          ' the cpu figure is the one to compare)' % (load, os.cpu_count() or 1))
