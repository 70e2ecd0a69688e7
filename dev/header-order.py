#!/usr/bin/env python3
"""dev/header-order.py [FILE] [--check]: put roofline.h's declarations in
the order of its implementation sections, and the overview prose of the
parts the manual lacks (MACHINE FILES, TRANSFORMERS, ONNX, PROBE) into the
manual beside LAYERS, REDUCER, CHART and PNG.

What it does, on any version of the header that keeps the banners:
  1. Cuts the declarations (between `extern "C" {` and its closing
     `#ifdef __cplusplus`) into chunks at their banners: an API banner
     (/* ===... API  NAME) or a sub-banner (/* ---- name), each chunk
     taking the #if lines right above its banner.
  2. Gives each chunk a part, one of the implementation's [N] sections
     (read from their banners): an API banner by its title, a sub-banner
     by the table SUB_PART below, else the part of the API section it
     sits in (before any API banner: the chunk above it).
  3. Keeps chunks whose #if ... #endif span several chunks together
     (a unit); a unit of several parts under one guard (TRANSFORMERS with
     the LLM join inside #ifndef RFL_NO_LLM) is split, each piece getting
     its own copy of the guard.
  4. Sorts the units by part (stable: within a part nothing moves above
     what it uses) and gives each part one API banner: its own (only the
     banner moves up when some of the part's units came before it), one
     whose title names the part (or consecutive parts: CHART AND PNG),
     else one made from the [N] banner's title and description ("API
     MACHINES"; "LAYERS AND THE ZOO" becomes "API  LAYERS").
  5. Moves the prose of the sub-banners in PROSE into the manual, as a
     section "NAME ([N]; ...)" before the manual's next part (7-space
     body), leaving "NAME in the manual" under the banner; SUBS fixes the
     manual's and comments' pointers ("(API TRANSFORMERS)" -> "(TRANSFORMERS
     below)", "(API REDUCER, below)" -> "above").
Checks before it writes: every non-blank line of the old file is in the new
one exactly as often (leading/trailing blanks and a comment's closing */
aside; SUBS applied to the old side), except the lines it says it added
(banners, guards, pointers, headings) or removed (replaced banners); the
#if/#endif nesting of the declarations never goes below zero and closes.
Running it twice changes nothing. --check: write nothing, exit 1 when the
file is not in order. Python 3, standard library only.
"""
import collections
import re
import sys

# sub-banner titles -> part (title of an [N] banner, or a tuple of titles:
# the first that exists). CORE rules only apply before the first API
# banner; ANY rules apply everywhere.
SUB_PART_CORE = [
    (r'^results', 'NUMBERS, RESULTS, WORK'),
    (r'^errors', 'NUMBERS, RESULTS, WORK'),
    (r'^precisions', 'NUMBERS, RESULTS, WORK'),
    (r'^the work record', 'NUMBERS, RESULTS, WORK'),
    (r'^numbers', 'NUMBERS, RESULTS, WORK'),
    (r'^files', 'NUMBERS, RESULTS, WORK'),
    (r'^JSON', 'JSON'),
    (r'^machines', 'MACHINES'),
    (r'^roofline math', 'ROOFLINE MATH'),
]
SUB_PART_ANY = [
    (r'^machine files', 'MACHINE FILES'),
    (r'^the zoo', 'ZOO'),
    (r'^the LLM join', ('LLM JOIN', 'JOIN')),
    (r'^the probe', 'PROBE'),
]
# (part, sub-banner regex, manual heading, first line kept under the banner)
PROSE = [
    ('MACHINE FILES', r'^/\* ---- machine files',
     '   MACHINE FILES ([4]; --hw-file FILE in the tools)', r'^   out->machine gets'),
    ('TRANSFORMERS', r'^/\* ---- decoder LLMs',
     '   TRANSFORMERS ([7]; rfl-estimate LLM or --hf-config FILE)', None),
    ('ONNX', r'^/\* ---- ONNX part: API',
     '   ONNX ([9]; rfl-estimate --onnx FILE)', None),
    ('PROBE', r'^/\* ---- the probe',
     '   PROBE ([15]; tools/rfl-probe.c)', None),
]
POINTER = '   The overview and its conventions: %s in the manual.'
# pointers that the moves make wrong: (old, new), whole-substring
SUBS = [
    ('(API TRANSFORMERS: conventions;', '(TRANSFORMERS below: conventions;'),
    ('(API TRANSFORMERS: the LLM join)', '(API {JOIN})'),
    ('rfl_llm_build (API TRANSFORMERS)', 'rfl_llm_build (TRANSFORMERS below)'),
    ('(the ONNX API section: a model file streamed into layer records)',
     '(ONNX below: a model file streamed into layer records)'),
    ('(API REDUCER, below)', '(API REDUCER, above)'),
    ('rfl_cost_desc: rfl_llm_build, below;', 'rfl_cost_desc: rfl_llm_build in API TRANSFORMERS;'),
    ("Keys in the order of the reader's list above:",
     "Keys in the order of the manual's list (MACHINE FILES):"),
    ("by `threads` threads (see above).", "by `threads` threads (PROBE in the manual)."),
    ("skipped): the fit described above.", "skipped): the fit that PROBE in the manual describes."),
    ('       API  LAYERS AND THE ZOO / TRANSFORMERS / ONNX / REDUCER /',
     '       API  NAME    declarations: one section for each [N] part below,'),
    ('            CHART AND PNG / MACHINE FILES AND PROBE   declarations, each',
     '                    in the same order ("API  ZOO" for [8] ZOO...); each'),
]

IF_RE = re.compile(r'^\s*#\s*if')
ENDIF_RE = re.compile(r'^\s*#\s*endif')


def die(msg):
    sys.stderr.write('header-order: %s\n' % msg)
    sys.exit(2)


def impl_parts(L):
    """[N] banners: list of (n, title, banner lines with title line)."""
    parts = []
    for i in range(1, len(L)):
        m = re.match(r'^   \[(\d+)\]\s+(\S.*?)\s*$', L[i])
        if m and L[i - 1].startswith('/* ===='):
            j = i
            while j < len(L) and not L[j].rstrip().endswith('*/'):
                j += 1
            parts.append((int(m.group(1)), m.group(2), L[i - 1:j + 1]))
    if not parts:
        die('no [N] implementation banners found')
    return parts


def depth_delta(lines):
    d = low = 0
    for x in lines:
        if IF_RE.match(x):
            d += 1
        elif ENDIF_RE.match(x):
            d -= 1
            low = min(low, d)
    return d, low


def api_title(line):
    t = line[len('   API  '):].strip()
    return re.sub(r'\s*\(.*\)$', '', t)


class Chunk:
    def __init__(self, lines, kind, title):
        self.lines, self.kind, self.title, self.part = lines, kind, title, None


def chunks_of(R):
    """Split the declaration region R into a preamble and chunks."""
    starts = []
    for i, x in enumerate(R):
        api = x.startswith('/* ====') and i + 1 < len(R) and R[i + 1].startswith('   API  ')
        if api or x.startswith('/* ---- '):
            j = i
            while j > 0 and IF_RE.match(R[j - 1]) and (not starts or j - 1 > starts[-1]):
                j -= 1
            starts.append(j)
    if not starts:
        die('no banners in the declarations')
    pre = R[:starts[0]]
    out = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(R)
        lines = R[s:e]
        b = s
        while IF_RE.match(R[b]):
            b += 1
        if R[b].startswith('/* ===='):
            out.append(Chunk(lines, 'api', api_title(R[b + 1])))
        else:
            t = re.sub(r'\s*-{3,}.*$|\s*\*/\s*$', '', R[b][len('/* ---- '):])
            out.append(Chunk(lines, 'sub', t))
    return pre, out


def api_parts(title, by_title):
    """Parts an API title names: 'CHART AND PNG' -> [12, 13]; [] if unknown."""
    names = re.split(r' AND (?:THE )?', title)
    if title in by_title:
        return [by_title[title]]
    if all(n in by_title for n in names):
        return [by_title[n] for n in names]
    return []


def part_named(name, by_title):
    for n in (name if isinstance(name, tuple) else (name,)):
        if n in by_title:
            return by_title[n]
    return None


def assign_parts(chunks, by_title, notes):
    cur = None
    seen_api = False
    for c in chunks:
        if c.kind == 'api':
            seen_api = True
            ps = api_parts(c.title, by_title)
            if not ps:
                die('API banner "%s" names no [N] section' % c.title)
            c.part = cur = ps[0]
            continue
        part = None
        for rx, name in SUB_PART_ANY + ([] if seen_api else SUB_PART_CORE):
            if re.search(rx, c.title):
                part = part_named(name, by_title)
                if part is None:
                    notes.append('sub-banner "%s": no [N] section %s, kept in place'
                                 % (c.title, name))
                break
        if part is None:
            if cur is None:
                die('first sub-banner "%s" has no part' % c.title)
            part = cur
            if not seen_api:
                notes.append('core sub-banner "%s": kept with the one above it' % c.title)
        c.part = part
        if not seen_api:
            cur = part


def units_of(chunks, notes, added):
    """Group chunks into #if-balanced units; split a unit of several parts."""
    units, cur, d = [], [], 0
    for c in chunks:
        cur.append(c)
        dd, low = depth_delta(c.lines)
        if d + low < 0:
            die('#endif without #if near "%s"' % c.title)
        d += dd
        if d == 0:
            units.append(cur)
            cur = []
    if cur:
        die('the declarations end inside an #if')
    out = []
    for u in units:
        if len(set(c.part for c in u)) == 1:
            out.append(u)
        else:
            out.extend(split_unit(u, notes, added))
    return out


def last_nonblank(lines):
    k = len(lines) - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    return k


def split_unit(u, notes, added):
    """u: chunks under one guard G (opened in u[0], closed last in u[-1]),
    every chunk boundary inside at depth 1. Runs of one part each get G."""
    g = e = None
    d = 0
    for ci, c in enumerate(u):
        for li, x in enumerate(c.lines):
            if IF_RE.match(x):
                if d == 0:
                    if g is not None:
                        return [keep_whole(u, notes)]
                    g = (ci, li)
                d += 1
            elif ENDIF_RE.match(x):
                d -= 1
                if d == 0:
                    e = (ci, li)
        if ci < len(u) - 1 and d != 1:
            return [keep_whole(u, notes)]
    if g is None or e is None or e[0] != len(u) - 1 or g[0] != 0:
        return [keep_whole(u, notes)]
    G, E = u[0].lines[g[1]], u[-1].lines[e[1]]
    if any(x.strip() for x in u[-1].lines[e[1] + 1:] if not ENDIF_RE.match(x)):
        return [keep_whole(u, notes)]
    runs = []
    for c in u:
        if runs and runs[-1][-1].part == c.part:
            runs[-1].append(c)
        else:
            runs.append([c])
    for ri, r in enumerate(runs):
        if ri > 0:
            r[0].lines = [G] + r[0].lines
            added.append(G)
        if ri < len(runs) - 1:
            k = last_nonblank(r[-1].lines)
            r[-1].lines = r[-1].lines[:k + 1] + [E] + r[-1].lines[k + 1:]
            added.append(E)
    notes.append('split "%s" (%s) into %d pieces, each with its own %s'
                 % (u[0].title, G.strip(), len(runs), G.strip()))
    return runs


def keep_whole(u, notes):
    notes.append('kept "%s" whole: its guards do not split' % u[0].title)
    return u


def strip_blank_edges(lines):
    a, b = 0, len(lines)
    while a < b and not lines[a].strip():
        a += 1
    while b > a and not lines[b - 1].strip():
        b -= 1
    return lines[a:b]


def reorder(L, parts, notes, added, removed):
    by_title = {t: n for n, t, _ in parts}
    banner_of = {n: ls for n, _, ls in parts}
    title_of = {n: t for n, t, _ in parts}
    try:
        a = L.index('extern "C" {') + 1
    except ValueError:
        die('no extern "C" {')
    z = max(i for i, x in enumerate(L) if x.startswith('#endif /* ROOFLINE_H */'))
    b = max(i for i in range(a, z) if L[i].startswith('#ifdef __cplusplus'))
    R = L[a:b]
    pre, chunks = chunks_of(R)
    assign_parts(chunks, by_title, notes)
    units = units_of(chunks, notes, added)
    # by part, each part's units in their order (a declaration never moves
    # above one it uses)
    order = sorted(range(len(units)), key=lambda i: (units[i][0].part, i))
    top = 0
    for u in units:  # a unit below one of a later part moves up
        if u[0].part < top:
            notes.append('moved up: "%s" ([%d], was below a [%d])' % (u[0].title, u[0].part, top))
        top = max(top, u[0].part)
    groups = []
    for i in order:
        u = units[i]
        lines = []
        for c in u:
            lines.extend(c.lines)
        lines = strip_blank_edges(lines)
        if groups and groups[-1][0] == u[0].part:
            groups[-1][1].append((u[0], lines))
        else:
            groups.append((u[0].part, [(u[0], lines)]))
    body = []
    for p, g in groups:
        first = g[0][0]
        own = [k for k, (c, _) in enumerate(g) if c.kind == 'api']
        if first.kind == 'api':
            if first.title != title_of[p] and not consecutive(first.title, by_title):
                g[0] = (first, replace_banner(g[0][1], make_banner(banner_of[p], title_of[p]),
                                              added, removed))
                notes.append('banner "API  %s" -> "API  %s"' % (first.title, title_of[p]))
        elif own:
            # the part's banner sits below some of its units: only the
            # banner goes up, its declarations stay where they were
            c, lines = g[own[0]]
            k, j = banner_span(lines)
            g[0] = (first, lines[k:j + 1] + g[0][1])
            g[own[0]] = (c, strip_blank_edges(lines[:k] + lines[j + 1:]))
            notes.append('banner "API  %s" moved up to the first of its part' % c.title)
        else:
            nb = make_banner(banner_of[p], title_of[p])
            added.extend(nb)
            g[0] = (first, nb + g[0][1])
            notes.append('new banner "API  %s"' % title_of[p])
        body.extend(lines for _, lines in g if lines)
    out = []
    for lines in body:
        out.extend(lines)
        if not re.match(r'^   =+ \*/$', lines[-1]):  # a bare banner: no blank
            out.append('')
    return L[:a] + pre + out + L[b:]


def consecutive(title, by_title):
    ps = api_parts(title, by_title)
    return len(ps) > 1 and all(ps[k + 1] == ps[k] + 1 for k in range(len(ps) - 1))


def make_banner(impl_banner, title):
    out = list(impl_banner)
    out[1] = '   API  ' + title
    return out


def banner_span(lines):
    k = 0
    while not lines[k].startswith('/* ===='):
        k += 1
    j = k + 1
    while not lines[j].rstrip().endswith('*/'):
        j += 1
    return k, j


def replace_banner(lines, new, added, removed):
    k, j = banner_span(lines)
    removed.extend(lines[k:j + 1])
    added.extend(new)
    return lines[:k] + new + lines[j + 1:]


def manual_end(L):
    for i, x in enumerate(L):
        if x.rstrip().endswith('*/'):
            return i
    die('no end of the manual')


def move_prose(L, notes, added):
    for part, rx, heading, keep_rx in PROSE:
        end = manual_end(L)
        name = heading.split(' ([')[0]
        if any(x.startswith(name + ' ([') for x in L[:end]):
            continue
        bi = [i for i in range(end + 1, len(L)) if re.match(rx, L[i])]
        if not bi:
            notes.append('prose of %s: no sub-banner matching %s, left alone' % (part, rx))
            continue
        b = bi[0]
        if L[b].rstrip().endswith('*/'):
            notes.append('prose of %s: its banner has no prose' % part)
            continue
        k = b + 1
        while not L[k].rstrip().endswith('*/'):
            k += 1
        prose = L[b + 1:k + 1]
        prose[-1] = re.sub(r'\s*\*/\s*$', '', prose[-1])
        kept = []
        if keep_rx:
            s = [j for j, x in enumerate(prose) if re.match(keep_rx, x)]
            if s:
                kept = prose[s[0]:]
                kept[-1] = kept[-1] + ' */'
                prose = prose[:s[0]]
        prose = strip_blank_edges(prose)
        ptr = POINTER % name.strip()
        added.append(ptr)
        if kept:
            api = [L[b], ptr, ''] + kept
        else:
            api = [L[b], ptr + ' */']
        L = L[:b] + api + L[k + 1:]
        # the manual: before its first part section with a larger [N],
        # else before ERRORS
        n = int(re.search(r'\[(\d+)\]', heading).group(1))
        at = None
        for i in range(end):
            m = re.match(r'^   [A-Z][A-Z ]* \(\[(\d+)\]', L[i])
            if m and int(m.group(1)) > n:
                at = i
                break
        if at is None:
            at = L.index('   ERRORS')
        sect = [heading] + [('    ' + x) if x.strip() else '' for x in prose] + ['']
        added.append(heading)
        L = L[:at] + sect + L[at:]
        notes.append('prose of %s (%d lines) into the manual, before "%s"'
                     % (part, len(prose), L[at + len(sect)].strip()))
    return L


def apply_subs(L, notes, record):
    nums = impl_parts(L)
    join = [t for _, t, _ in nums if t in ('LLM JOIN', 'JOIN')]
    out = []
    for x in L:
        for old, new in SUBS:
            new = new.replace('{JOIN}', join[0] if join else 'LLM JOIN')
            if old in x:
                x = x.replace(old, new)
                if record is not None:
                    record.append(old)
        out.append(x)
    if record:
        notes.append('pointers fixed: %d' % len(record))
    return out


def norm(x):
    return re.sub(r'\s*\*/\s*$', '', x.strip()).strip()


def check(old, new, added, removed):
    o = collections.Counter(norm(x) for x in apply_subs(old, [], None) if norm(x))
    n = collections.Counter(norm(x) for x in new if norm(x))
    want_add = collections.Counter(norm(x) for x in added if norm(x))
    want_rm = collections.Counter(norm(x) for x in removed if norm(x))
    # a replaced banner's ==== lines come back in the new one: net them out
    common = want_add & want_rm
    want_add, want_rm = want_add - common, want_rm - common
    got_add, got_rm = n - o, o - n
    if got_add != want_add or got_rm != want_rm:
        sys.stderr.write('header-order: the lines changed beyond the plan:\n')
        for x in (got_add - want_add):
            sys.stderr.write('  + %s\n' % x)
        for x in (want_add - got_add):
            sys.stderr.write('  (planned +) %s\n' % x)
        for x in (got_rm - want_rm):
            sys.stderr.write('  - %s\n' % x)
        for x in (want_rm - got_rm):
            sys.stderr.write('  (planned -) %s\n' % x)
        sys.exit(1)
    d = 0
    for x in new:
        if IF_RE.match(x):
            d += 1
        elif ENDIF_RE.match(x):
            d -= 1
            if d < 0:
                die('an #endif too many after the move')
    if d != 0:
        die('#if left open after the move')
    return sum(got_add.values()), sum(got_rm.values())


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    only_check = '--check' in sys.argv[1:]
    path = args[0] if args else 'roofline.h'
    with open(path) as f:
        text = f.read()
    old = text.split('\n')
    notes, added, removed, subs_done = [], [], [], []
    parts = impl_parts(old)
    new = reorder(old, parts, notes, added, removed)
    new = move_prose(new, notes, added)
    new = apply_subs(new, notes, subs_done)
    nadd, nrm = check(old, new, added, removed)
    if new == old:
        print('header-order: %s is in order (nothing to do)' % path)
        return 0
    for x in notes:
        print('header-order: ' + x)
    print('header-order: every line kept exactly once (blank lines and a '
          'closing */ aside, %d pointers fixed); %d lines added (banners, '
          'guards, pointers, headings), %d removed (replaced banners)'
          % (len(subs_done), nadd, nrm))
    if only_check:
        print('header-order: %s is not in order' % path)
        return 1
    with open(path, 'w') as f:
        f.write('\n'.join(new))
    print('header-order: wrote %s (%d -> %d lines)' % (path, len(old), len(new)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
