#!/usr/bin/env python3
"""`make bench`, trace part (issue 36): rfl-reduce on a ~1 GB PyTorch
profiler trace (bench-trace-gen.py), plain and gzip, on one core: wall
time, throughput and peak RSS (best of N runs, page cache warm), beside
Python's json.load on a 100 MB cut of the same events (json.load holds the
whole document: its time and memory per MB are reported, not run on 1 GB).
Times are CPU seconds of the tool (user + system), best of N: the machine
may be shared."""
import json, os, subprocess, sys, time

RED, BIG, GZ, SMALL, RUNS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
if hasattr(os, 'sched_setaffinity'):
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})

TIME = '/usr/bin/time' if os.path.exists('/usr/bin/time') else None

def run(cmd):
    """wall s, peak RSS KiB (of the tool itself: /usr/bin/time
    -f %M; wait4's counts the pages the child had from Python before exec),
    stdout"""
    t0 = time.perf_counter()
    p = subprocess.Popen(([TIME, '-f', '%M'] if TIME else []) + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    status = p.returncode
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit('bench: %s failed' % ' '.join(cmd))
    rss = int(err.split()[-1]) if TIME else 0
    return wall, rss, out

def warm(path):
    with open(path, 'rb') as f:
        while f.read(1 << 22):
            pass

for path, label in ((BIG, 'plain JSON'), (GZ, 'gzip')):
    warm(path)
    size = os.path.getsize(path)
    best = None
    for _ in range(RUNS):
        c0 = os.times()
        wall, rss, out = run([RED, path, '--json'])
        c1 = os.times()
        cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
        best = cpu if best is None or cpu < best else best  # CPU time: the machine may be shared
    doc = json.loads(out)
    print('rfl-reduce %-10s %7.1f MB: %.3f s CPU, %.2f GB/s of %s, peak RSS %.1f MiB, %d kernels, time_ns %d'
          % (label, size / 1e6, best, size / best / 1e9, 'file' if label == 'plain JSON' else 'compressed input',
             rss / 1024, doc['kernels'], doc['time_ns']))
    if label == 'gzip':
        print('    (inflated: %.2f GB/s of JSON out of the inflater)' % (os.path.getsize(BIG) / best / 1e9))
code = ('import json,sys,time,resource\nt=time.perf_counter()\nd=json.load(open(sys.argv[1]))\n'
        'k=[e for e in d["traceEvents"] if e.get("cat")=="kernel"]\n'
        'n=sum(round(e["dur"]*1000) for e in k)\n'
        'print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(k), n)\n')
warm(SMALL)
out = subprocess.check_output([sys.executable, '-c', code, SMALL]).split()
t, rss, size = float(out[0]), int(out[1]), os.path.getsize(SMALL)
print('python json.load  %7.1f MB: %.3f s, %.3f GB/s, peak RSS %.0f MiB (%.1f x the file), %s kernels, time_ns %s'
      % (size / 1e6, t, size / t / 1e9, rss / 1024, rss * 1024 / size, out[2].decode(), out[3].decode()))
