#!/usr/bin/env python3
"""`make bench`, ONNX part (issue 18): the streamed ONNX reader on a ~500 MB
file with every weight inline (bench-onnx-gen.py), page cache warm, beside
python-onnx's onnx.load of the same file.
    dev/bench/bench-onnx.py build/bench-onnx-read FILE [RUNS]
Two ways through the file: seeking past each weight payload (what a tool
does with a regular file: those bytes are never read), and streamed (every
byte read through a 64 KiB buffer and pushed, as from a pipe): the second
is the reader's decoding speed, the one the >= 2 GB/s target is about.
Peak RSS from /usr/bin/time -f %M (constant memory: the same for a 5 MB
and a 500 MB file)."""
import os, subprocess, sys, time

RD, F = sys.argv[1], sys.argv[2]
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
size = os.path.getsize(F)
CORE = None
if hasattr(os, 'sched_setaffinity'):
    CORE = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {CORE})


def run(cmd, keep=True):
    """best wall seconds, best cpu seconds (user + sys) over RUNS, stdout of
    the last (keep), peak RSS KiB"""
    best, cpu, out = None, None, b''
    for _ in range(RUNS):
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE if keep else subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        o, e = p.communicate()
        t = time.perf_counter() - t0
        if p.returncode != 0:
            sys.exit('bench: %s failed: %s' % (' '.join(cmd), e.decode().strip()))
        best = t if best is None else min(best, t)
        out = o
    for _ in range(RUNS):  # cpu time: a second series through wait4
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        c = ru.ru_utime + ru.ru_stime
        cpu = c if cpu is None else min(cpu, c)
    rss = None
    if os.path.exists('/usr/bin/time'):
        p = subprocess.run(['/usr/bin/time', '-f', '%M'] + cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, universal_newlines=True)
        rss = int(p.stderr.strip().split()[-1])
    return best, out.decode().strip() if keep else '', rss, cpu


with open(F, 'rb') as f:  # into the page cache
    while f.read(1 << 22):
        pass
cat, _, _, cat_cpu = run(['cat', F], keep=False)
seek, seek_out, seek_rss, seek_cpu = run([RD, F])
stream, stream_out, stream_rss, stream_cpu = run([RD, '--stream', F])
print('onnx bench: %s, %.1f MB, weights inline%s' % (F, size / 1e6,
      '' if CORE is None else ', every run on core %d' % CORE))
print('  reader says    %s' % stream_out)
print('  cat            %.3f s  %.2f GB/s wall, cpu %.3f s = %.2f GB/s (page-cache read reference)'
      % (cat, size / cat / 1e9, cat_cpu, size / cat_cpu / 1e9))
print('  streamed       %.3f s  %.2f GB/s wall, cpu %.3f s = %.2f GB/s (every byte read and decoded; best of %d), peak RSS %.2f MiB'
      % (stream, size / stream / 1e9, stream_cpu, size / stream_cpu / 1e9, RUNS, stream_rss / 1024))
print('  seeking        %.3f s  %.2f GB/s of file, cpu %.3f s (payloads skipped with fseek), peak RSS %.2f MiB'
      % (seek, size / seek / 1e9, seek_cpu, seek_rss / 1024))
if seek_out != stream_out:
    print('  DIFFER: seeking says %s' % seek_out)
py = '/usr/bin/python3'
have_onnx = os.path.exists(py) and subprocess.call([py, '-c', 'import onnx'],
                                                    stderr=subprocess.DEVNULL) == 0
if have_onnx and os.environ.get('BENCH_ONNX_LOAD', '1') != '0':
    code = ('import time, onnx, sys; t = time.perf_counter(); m = onnx.load(sys.argv[1]); '
            'print(time.perf_counter() - t, len(m.graph.node))')
    best, rss = None, None
    for _ in range(2):
        p = subprocess.run(['/usr/bin/time', '-f', '%M', py, '-c', code, F], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        t = float(p.stdout.split()[0])
        best = t if best is None else min(best, t)
        rss = int(p.stderr.strip().split()[-1])
    print('  onnx.load      %.3f s  %.2f GB/s (the call alone; best of 2), peak RSS %.0f MiB'
          % (best, size / best / 1e9, rss / 1024))
    print('  ratio          streamed %.1fx faster, %.0fx less memory; seeking %.0fx faster'
          % (best / stream, rss / stream_rss, best / seek))
elif not have_onnx:
    print('  onnx.load      python3-onnx not installed under /usr/bin/python3: no comparison')
else:
    print('  onnx.load      skipped (BENCH_ONNX_LOAD=0)')
SMALL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'onnx', 'zoo',
                     'squeezenet1_1.onnx')
if os.path.exists(SMALL) and os.path.exists('/usr/bin/time'):  # constant: the same on a 5 MB file
    p = subprocess.run(['/usr/bin/time', '-f', '%M', RD, '--stream', SMALL], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, universal_newlines=True)
    print('  small file     peak RSS %.2f MiB streaming squeezenet1_1.onnx (%.1f MB, weights inline)'
          % (int(p.stderr.strip().split()[-1]) / 1024, os.path.getsize(SMALL) / 1e6))
gbs, gbs_cpu = size / stream / 1e9, size / stream_cpu / 1e9
print('  targets: streamed >= 2 GB/s %s (%.2f wall, %.2f cpu), constant memory (peak RSS %.1f MiB for %.0f MB)'
      % ('met' if gbs >= 2 else 'met in cpu time only' if gbs_cpu >= 2 else 'MISSED', gbs, gbs_cpu,
         stream_rss / 1024, size / 1e6))
load = os.getloadavg()[0]
if load > 1.5:
    print('  (load average %.1f on %d cores: wall times include waiting for a core)'
          % (load, os.cpu_count() or 1))
