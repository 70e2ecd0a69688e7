#!/usr/bin/env python3
"""Write a large ncu raw-page export for `make bench`: the preamble, header and
units rows of a fixture, then its kernel rows repeated with fresh IDs until
the file reaches the requested size. Prints the kernel count."""
import sys

def main():
    src, dst, mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    lines = open(src, newline='').read().split('\n')
    h = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    head, rows = lines[:h + 2], [l for l in lines[h + 2:] if l]
    target = int(mb * 1e6)
    out = open(dst, 'w', newline='')
    size = 0
    for l in head:
        out.write(l + '\n')
        size += len(l) + 1
    kid = 0
    while size < target:
        for r in rows:
            rest = r[r.index(',') :]  # drop the old "ID" field
            line = '"%d"%s\n' % (kid, rest)
            out.write(line)
            size += len(line)
            kid += 1
            if size >= target:
                break
    out.close()
    print(kid)

main()
