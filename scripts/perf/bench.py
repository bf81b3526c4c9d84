#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench.py - the timing harness behind peers.sh, compare.sh and quick.sh.

  bench.py peers   --dir D --manifest M [--runs N] [--timeout S] [--workloads a,b]
                   [--tools acgrep,acgrep-read,acgrep-pcre2,grep,rg,ugrep,pcre2grep]
                   [--acgrep BIN] [--raw FILE.json]
  bench.py compare --dir D --manifest M --old BIN --new BIN [--runs N]
                   [--io both|mmap|read] [--workloads a,b] [--raw FILE.json]

For every workload of the manifest (written by corpus.sh): warm the input,
run each command once untimed (the check run: its count must equal the one
GNU grep -F printed when the corpus was built), then time N runs of every
command, interleaved (round r runs the commands in an order rotated by r),
each with stdout to a file (GNU grep stops at the first match when stdout is
/dev/null) and stdin from /dev/null.  Wall time comes from perf_counter
around fork/exec/wait4; CPU time and peak RSS from wait4's rusage.

peers prints a matrix of medians with ratios to acgrep and a long table with
spread, throughput, CPU time, peak RSS and the count check.  compare prints
the benchstat table: mean +- spread after removing outliers (1.5 IQR),
delta, Mann-Whitney U p-value (scipy.stats.mannwhitneyu, two-sided) and
sample sizes, '~' where p > 0.05, and a geometric-mean row.

Exit status: 0, or 1 when a count disagreed or acgrep failed (after the tables).
"""
import argparse
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import threading
import time

ALPHA = 0.05

# Peers that count differently from grep -F on a workload for a documented reason:
# (tool, workload) -> reason.  Their cell is marked n/c (not comparable) instead of
# failing the run.  Anything else that disagrees fails the run.
KNOWN_DIFFS = {
    ('rg', 'words1k-w'):
        'rg -w takes letters outside ASCII (decoded from UTF-8, e.g. the a-circumflex of '
        '"distância") for word characters; GNU grep -F under LC_ALL=C (and acgrep) takes their '
        'bytes for non-word bytes, so "dist" is a whole word there and not for rg. Found by '
        'diffing `grep -F -w -n` and `rg -F -w -n` on english-unique.txt: every differing '
        'line has such a letter next to the word.',
    ('pcre2grep', 'linux-r'):
        'pcre2grep -r follows symbolic links to files met during the walk (and has no option '
        'not to); grep -r, acgrep -r, rg and ugrep -p do not. One of the tree\'s 56 symlinks, '
        'tools/testing/selftests/powerpc/copyloops/copy_mc_64.S -> arch/powerpc/lib/copy_mc_64.S, '
        'has a matching line: one line more.',
}


def load_manifest(path):
    wls = []
    for line in open(path, encoding='utf-8'):
        if line.startswith('#') or not line.strip():
            continue
        f = line.rstrip('\n').split('\t')
        wls.append(dict(name=f[0], kind=f[1], input=f[2], bytes=int(f[3]), patterns=f[4],
                        npatterns=int(f[5]), flags=f[6].split(), expected=int(f[7]), desc=f[8]))
    return wls


class Tool:
    """One command line family: KIND is acgrep, grep, rg, ugrep or pcre2grep."""

    def __init__(self, label, kind, exe, extra=(), is_acgrep=False):
        self.label, self.kind, self.exe, self.extra = label, kind, exe, list(extra)
        self.is_acgrep = is_acgrep  # count mismatches and errors always fail

    def command(self, wl, d):
        """argv and how to read the count from stdout: int, sum or lines."""
        pat = os.path.join(d, wl['patterns'])
        inp = os.path.join(d, wl['input'])
        fl = wl['flags']
        k, kind = self.kind, wl['kind']
        if k == 'acgrep':
            base = [self.exe] + self.extra + fl
            return {'lines': (base + ['-c', '-f', pat, inp], 'int'),
                    'matches': (base + ['--count-matches', '-f', pat, inp], 'int'),
                    'print': (base + ['-n', '-f', pat, inp], 'lines'),
                    'recursive': (base + ['-r', '-a', '-c', '-f', pat, inp], 'sum')}[kind]
        if k == 'grep':
            base = [self.exe, '-F'] + fl
            return {'lines': (base + ['-c', '-f', pat, inp], 'int'),
                    'matches': (base + ['-o', '-f', pat, inp], 'lines'),
                    'print': (base + ['-n', '-f', pat, inp], 'lines'),
                    'recursive': (base + ['-r', '-a', '-c', '-f', pat, inp], 'sum')}[kind]
        if k == 'rg':
            base = [self.exe, '--no-config', '-F'] + self.extra + fl
            return {'lines': (base + ['-c', '-f', pat, inp], 'int'),
                    'matches': (base + ['--count-matches', '-f', pat, inp], 'int'),
                    'print': (base + ['-n', '-f', pat, inp], 'lines'),
                    # -uu: also hidden and .gitignore'd files, as grep -r; -a: binary as text
                    'recursive': (base + ['-uu', '-a', '-c', '-f', pat, inp], 'sum')}[kind]
        if k == 'ugrep':
            base = [self.exe, '-F'] + fl
            return {'lines': (base + ['-c', '-f', pat, inp], 'int'),
                    'matches': (base + ['-c', '-o', '-f', pat, inp], 'int'),
                    # -a: ugrep takes text with invalid UTF-8 for binary and prints
                    # nothing but "Binary file matches"; grep under LC_ALL=C looks for NUL only
                    'print': (base + ['-a', '-n', '-f', pat, inp], 'lines'),
                    # -p: no symlinks followed; plain -r follows symlinks to files
                    'recursive': (base + ['-r', '-p', '-a', '-c', '-f', pat, inp], 'sum')}[kind]
        if k == 'pcre2grep':
            base = [self.exe, '-F'] + fl
            return {'lines': (base + ['-c', '-f', pat, inp], 'int'),
                    # the x file is one 100 MB line: raise the 1 MB line limit
                    'matches': (base + ['--max-buffer-size=256M', '-o', '-f', pat, inp], 'lines'),
                    'print': (base + ['-n', '-f', pat, inp], 'lines'),
                    'recursive': (base + ['-r', '-a', '-c', '-f', pat, inp], 'sum')}[kind]
        raise ValueError(k)


def make_peer_tools(names, acgrep):
    table = {
        'acgrep': lambda: Tool('acgrep', 'acgrep', acgrep, [], True),
        'acgrep-mmap': lambda: Tool('acgrep --mmap', 'acgrep', acgrep, ['--mmap'], True),
        'acgrep-read': lambda: Tool('acgrep --no-mmap', 'acgrep', acgrep, ['--no-mmap'], True),
        'acgrep-1t': lambda: Tool('acgrep --threads=1', 'acgrep', acgrep, ['--threads=1'], True),
        'acgrep-pcre2': lambda: Tool('acgrep --engine=pcre2', 'acgrep', acgrep, ['--engine=pcre2'], True),
        'grep': lambda: Tool('grep -F', 'grep', 'grep'),
        'rg': lambda: Tool('rg -F', 'rg', 'rg'),
        'rg-read': lambda: Tool('rg -F --no-mmap', 'rg', 'rg', ['--no-mmap']),
        'ugrep': lambda: Tool('ugrep -F', 'ugrep', 'ugrep'),
        'pcre2grep': lambda: Tool('pcre2grep -F', 'pcre2grep', 'pcre2grep'),
    }
    out = []
    for n in names:
        if n not in table:
            sys.exit('bench.py: unknown tool %s (known: %s)' % (n, ', '.join(table)))
        out.append(table[n]())
    return out


def parse_count(how, path):
    """Streams: the harness's own peak RSS must stay small (see run_once)."""
    with open(path, 'rb') as f:
        if how == 'lines':
            n = 0
            for chunk in iter(lambda: f.read(1 << 20), b''):
                n += chunk.count(b'\n')
            return n
        if how == 'int':
            s = f.read(100).strip()
            return int(s) if s else 0   # rg -c prints nothing when nothing matched
        if how == 'sum':
            return sum(int(ln.rsplit(b':', 1)[1]) for ln in f if ln.strip())
    raise ValueError(how)


def run_once(argv, out_path, err_path, timeout=None, rss=False):
    """(wall seconds, cpu seconds, peak RSS KiB or None, exit code, timed_out)

    Peak RSS: wait4's ru_maxrss is useless here, because Linux carries the
    high-water RSS of the mm that exec replaces (this Python's, forked) into
    it.  With rss=True the command runs under GNU time, whose own fork starts
    from a small process, and %M is the command's peak alone; that adds GNU
    time's fork and exec (about a millisecond) to the wall time."""
    rss_path = out_path + '.rss'
    if rss:
        argv = ['/usr/bin/time', '-f', '%M', '-o', rss_path, '--'] + argv
    with open(out_path, 'wb') as out, open(err_path, 'wb') as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             start_new_session=True)
        killed = []
        timer = None
        if timeout:
            def kill():
                killed.append(True)
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            timer = threading.Timer(timeout, kill)
            timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        t1 = time.perf_counter()
        if timer:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
    peak = None
    if rss and not killed:
        try:
            peak = int(open(rss_path).read().split()[-1])
        except (OSError, ValueError, IndexError):
            peak = None
    return t1 - t0, ru.ru_utime + ru.ru_stime, peak, p.returncode, bool(killed)


def warm(path):
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for n in names:
                p = os.path.join(root, n)
                if os.path.isfile(p) and not os.path.islink(p):
                    with open(p, 'rb') as f:
                        while f.read(1 << 20):
                            pass
    else:
        with open(path, 'rb') as f:
            while f.read(1 << 22):
                pass


def slug(s):
    return ''.join(c if c.isalnum() else '_' for c in s)


class Cell:
    def __init__(self):
        self.wall, self.cpu, self.rss = [], [], []
        self.status = 'ok'     # ok, n/c, timeout, error, MISMATCH
        self.note = ''
        self.count = None


def measure(workloads, tools, d, runs, timeout, log, rss=False):
    """results[wl name][tool label] = Cell; returns (results, failures)."""
    outdir = os.path.join(d, 'out')
    os.makedirs(outdir, exist_ok=True)
    results, failures = {}, []
    too_slow = {}  # tool label -> (input, npatterns, workload) of its first timeout
    for wl in workloads:
        inp = os.path.join(d, wl['input'])
        log('%s: warming %s' % (wl['name'], wl['input']))
        warm(inp)
        cells = {}
        live = []
        for t in tools:
            c = cells[t.label] = Cell()
            prev = too_slow.get(t.label)
            if prev and prev[0] == wl['input'] and wl['npatterns'] >= prev[1]:
                c.status, c.note = 'timeout', 'not run: timed out with %d patterns on %s (%s)' % (
                    prev[1], wl['input'], prev[2])
                log('  %-22s %s' % (t.label, c.note))
                continue
            argv, how = t.command(wl, d)
            o = os.path.join(outdir, slug(t.label) + '.out')
            e = os.path.join(outdir, slug(t.label) + '.err')
            wall, _, _, rc, to = run_once(argv, o, e, timeout, rss)
            if to:
                c.status, c.note = 'timeout', '> %g s (not timed)' % timeout
                too_slow.setdefault(t.label, (wl['input'], wl['npatterns'], wl['name']))
                if t.kind == 'acgrep' and '--engine=pcre2' not in t.extra:
                    failures.append('%s / %s: timed out after %g s' % (wl['name'], t.label, timeout))
                log('  %-22s timed out after %g s' % (t.label, timeout))
                continue
            errtext = open(e, 'rb').read().decode('utf-8', 'replace').strip()
            if rc not in (0, 1):
                c.status = 'error'
                c.note = 'exit %d: %s' % (rc, errtext.splitlines()[0] if errtext else '')
                log('  %-22s %s' % (t.label, c.note))
                if t.is_acgrep:
                    failures.append('%s / %s: %s\n    %s' % (wl['name'], t.label, c.note, ' '.join(argv)))
                continue
            c.count = parse_count(how, o)
            if c.count != wl['expected']:
                reason = KNOWN_DIFFS.get((t.kind, wl['name']))
                if reason and not t.is_acgrep:
                    c.status, c.note = 'n/c', reason
                else:
                    c.status = 'MISMATCH'
                    c.note = 'counted %d, grep -F %d' % (c.count, wl['expected'])
                    failures.append('%s / %s: COUNT MISMATCH: %d, expected %d\n    %s' % (
                        wl['name'], t.label, c.count, wl['expected'], ' '.join(argv)))
            log('  %-22s check run %.3f s, count %d%s' % (t.label, wall, c.count,
                '' if c.status == 'ok' else ' (%s)' % c.status))
            live.append((t, argv, o, e))
        for r in range(runs):
            if not os.path.isdir(inp):
                warm(inp)
            k = r % len(live) if live else 0
            for t, argv, o, e in live[k:] + live[:k]:
                wall, cpu, peak, rc, _ = run_once(argv, o, e, None, rss)
                c = cells[t.label]
                c.wall.append(wall)
                c.cpu.append(cpu)
                if peak is not None:
                    c.rss.append(peak)
            log('  round %d/%d done' % (r + 1, runs))
        results[wl['name']] = cells
    return results, failures


# ---- formatting ---------------------------------------------------------------

def fmt_time(s):
    for unit, scale in (('s', 1.0), ('ms', 1e-3), ('µs', 1e-6)):
        if s >= scale or unit == 'µs':
            v = s / scale
            if v >= 100:
                return '%.0f%s' % (v, unit)
            if v >= 10:
                return '%.1f%s' % (v, unit)
            return '%.2f%s' % (v, unit)


def spread_pct(vals, center):
    return 100.0 * max(max(vals) - center, center - min(vals)) / center if vals else 0.0


def table(rows, header, align=None):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    align = align or ['l'] + ['r'] * (len(header) - 1)
    def line(r):
        return '  '.join((str(v).ljust(w) if a == 'l' else str(v).rjust(w))
                         for v, w, a in zip(r, widths, align)).rstrip()
    return '\n'.join([line(header)] + [line(r) for r in rows])


def peers_report(workloads, tools, results, runs):
    ref = tools[0].label
    out = []
    for attr, what in (('wall', 'wall time'), ('cpu', 'user+system CPU time')):
        out.append('Medians of %d interleaved runs (%s); in parentheses each tool\'s time '
                   'divided by %s\'s (above 1: slower than %s). Every count was checked against '
                   'GNU grep -F first.' % (runs, what, ref, ref))
        header = ['workload', 'MB'] + [t.label for t in tools]
        rows = []
        for wl in workloads:
            cells = results[wl['name']]
            base = getattr(cells[ref], attr)
            bmed = statistics.median(base) if base else None
            row = [wl['name'], '%.0f' % (wl['bytes'] / 1e6)]
            for t in tools:
                c = cells[t.label]
                if c.status in ('timeout', 'error') or not getattr(c, attr):
                    row.append(c.status)
                    continue
                m = statistics.median(getattr(c, attr))
                s = fmt_time(m)
                if t.label != ref and bmed:
                    s += ' (%.2f)' % (m / bmed)
                if c.status != 'ok':
                    s += ' ' + c.status
                row.append(s)
            rows.append(row)
        out.append(table(rows, header))
        out.append('')
    header = ['workload', 'tool', 'median', '±', 'vs ' + ref, 'GB/s', 'cpu', 'peak RSS', 'count']
    rows = []
    notes = []
    for wl in workloads:
        cells = results[wl['name']]
        base = cells[ref]
        bmed = statistics.median(base.wall) if base.wall else None
        for i, t in enumerate(tools):
            c = cells[t.label]
            name = wl['name'] if i == 0 else ''
            if c.status in ('timeout', 'error'):
                rows.append([name, t.label, c.status, '', '', '', '', '', c.note])
                continue
            m = statistics.median(c.wall)
            check = {'ok': 'ok %d' % c.count, 'n/c': 'n/c %d [%d]' % (c.count, len(notes) + 1),
                     'MISMATCH': 'MISMATCH %d' % c.count}[c.status]
            if c.status == 'n/c':
                notes.append(c.note)
            rows.append([name, t.label, fmt_time(m), '%.0f%%' % spread_pct(c.wall, m),
                         '%.2f' % (m / bmed) if bmed else '', '%.2f' % (wl['bytes'] / m / 1e9),
                         fmt_time(statistics.median(c.cpu)),
                         '%.1f MB' % (max(c.rss) / 1024) if c.rss else 'n/a', check])
    out.append(table(rows, header, ['l', 'l'] + ['r'] * 6 + ['l']))
    out.append('')
    out.append('± is the largest distance from the median to the fastest or slowest run, in % of '
               'the median; GB/s is input bytes (10^9) per median second; cpu is the median '
               'user+system time; peak RSS the largest over the runs, from GNU time (%M), '
               'which also adds its fork and exec (about 1 ms) to every wall time here.')
    for wl in workloads:
        for t in tools:
            c = results[wl['name']][t.label]
            if c.status in ('timeout', 'error'):
                out.append('%s / %s: %s: %s' % (wl['name'], t.label, c.status, c.note))
    for i, n in enumerate(notes):
        out.append('[%d] %s' % (i + 1, n))
    out.append('')
    out.append('Workloads (expected counts are GNU grep -F\'s, recorded by corpus.sh):')
    for wl in workloads:
        out.append('  %-10s %s; %s (%d bytes), %d patterns from %s; expected %d' % (
            wl['name'], wl['desc'], wl['input'], wl['bytes'], wl['npatterns'], wl['patterns'],
            wl['expected']))
    return '\n'.join(out)


def remove_outliers(vals):
    """benchstat's RValues: drop values outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR]."""
    import numpy
    q1, q3 = numpy.percentile(vals, [25, 75])
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    return [v for v in vals if lo <= v <= hi]


def compare_report(rows_in, metric='time/op'):
    """rows_in: [(name, old samples, new samples)] -> benchstat's table."""
    from scipy.stats import mannwhitneyu
    rows = []
    gold, gnew = [], []
    for name, old, new in rows_in:
        if not old or not new:
            rows.append([name, 'n/a', '', 'n/a', '', '', ''])
            continue
        ro, rn = remove_outliers(old), remove_outliers(new)
        mo, mn = statistics.fmean(ro), statistics.fmean(rn)
        gold.append(mo)
        gnew.append(mn)
        p = mannwhitneyu(ro, rn, alternative='two-sided').pvalue
        if math.isnan(p):
            p = 1.0
        delta = '~' if p > ALPHA else '%+.2f%%' % ((mn / mo - 1) * 100)
        rows.append([name, fmt_time(mo), '± %.0f%%' % spread_pct(ro, mo), fmt_time(mn),
                     '± %.0f%%' % spread_pct(rn, mn), delta, '(p=%.3f n=%d+%d)' % (p, len(ro), len(rn))])
    if gold:
        go = math.exp(statistics.fmean(math.log(v) for v in gold))
        gn = math.exp(statistics.fmean(math.log(v) for v in gnew))
        rows.append(['[Geo mean]', fmt_time(go), '', fmt_time(gn), '', '%+.2f%%' % ((gn / go - 1) * 100), ''])
    # benchstat's layout: "old time/op" spans value and spread.
    w = [max(len(r[i]) for r in rows) for i in range(7)]
    w[0] = max(w[0], 4)
    oh, nh = 'old ' + metric, 'new ' + metric
    oldw = max(w[1] + 1 + w[2], len(oh))
    neww = max(w[3] + 1 + w[4], len(nh))
    out = ['%s  %s  %s  %s' % ('name'.ljust(w[0]), oh.ljust(oldw), nh.ljust(neww), 'delta')]
    for r in rows:
        o = (r[1].rjust(w[1]) + ' ' + r[2].ljust(w[2])).ljust(oldw)
        n = (r[3].rjust(w[3]) + ' ' + r[4].ljust(w[4])).ljust(neww)
        out.append(('%s  %s  %s  %s  %s' % (r[0].ljust(w[0]), o, n, r[5].center(max(w[5], 7)), r[6])).rstrip())
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('mode', choices=['peers', 'compare', 'report'],
                    help='report: print the peers tables again from a --raw JSON file (--from)')
    ap.add_argument('--from', dest='from_raw', help='report: the JSON file that --raw wrote')
    ap.add_argument('--dir', required=True)
    ap.add_argument('--manifest', required=True)
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--timeout', type=float, default=60.0, help='limit for each check run (s)')
    ap.add_argument('--workloads', default='')
    ap.add_argument('--tools', default='acgrep,acgrep-mmap,acgrep-read,acgrep-pcre2,grep,rg,rg-read,ugrep,pcre2grep')
    ap.add_argument('--acgrep', default='acgrep')
    ap.add_argument('--old')
    ap.add_argument('--new')
    ap.add_argument('--io', default='both', choices=['both', 'mmap', 'read'])
    ap.add_argument('--raw', help='write every sample to this JSON file')
    a = ap.parse_args()

    wls = load_manifest(a.manifest)
    if a.workloads:
        want = a.workloads.split(',')
        unknown = set(want) - {w['name'] for w in wls}
        if unknown:
            sys.exit('bench.py: unknown workloads %s' % ', '.join(sorted(unknown)))
        wls = [w for w in wls if w['name'] in want]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    if a.mode == 'report':
        raw = json.load(open(a.from_raw))
        wls = [w for w in wls if w['name'] in raw]
        labels = list(raw[wls[0]['name']])
        tools = [Tool(lbl, lbl.split()[0], '') for lbl in labels]
        results, runs = {}, 0
        for w in wls:
            results[w['name']] = {}
            for t in tools:
                r = raw[w['name']][t.label]
                c = Cell()
                c.wall, c.cpu, c.rss = r['wall'], r['cpu'], r['rss_kib']
                c.status, c.count = r['status'], r['count']
                c.note = r.get('note') or KNOWN_DIFFS.get((t.kind, w['name']), c.status)
                runs = max(runs, len(c.wall))
                results[w['name']][t.label] = c
        print(peers_report(wls, tools, results, runs))
        return
    if a.mode == 'peers':
        tools = make_peer_tools(a.tools.split(','), a.acgrep)
        results, failures = measure(wls, tools, a.dir, a.runs, a.timeout, log, rss=True)
        print(peers_report(wls, tools, results, a.runs))
    else:
        if not a.old or not a.new:
            sys.exit('bench.py compare: --old and --new are required')
        ios = {'both': ['mmap', 'read'], 'mmap': ['mmap'], 'read': ['read']}[a.io]
        tools = []
        for io in ios:
            flag = '--mmap' if io == 'mmap' else '--no-mmap'
            tools.append(Tool('old/' + io, 'acgrep', a.old, [flag], True))
            tools.append(Tool('new/' + io, 'acgrep', a.new, [flag], True))
        results, failures = measure(wls, tools, a.dir, a.runs, 0, log)
        for metric, attr in (('time/op', 'wall'), ('cpu/op', 'cpu')):
            rows = []
            for io in ios:
                for wl in wls:
                    c = results[wl['name']]
                    rows.append(('%s/%s' % (wl['name'], io), getattr(c['old/' + io], attr),
                                 getattr(c['new/' + io], attr)))
            print(compare_report(rows, metric))
            print()
        print('time/op: mean wall time of %d interleaved runs per side after dropping outliers '
              '(1.5 IQR); cpu/op: the same for user+system CPU time of the same runs (steadier '
              'when other work shares the machine); ± is the largest deviation from the mean; '
              'delta and p from a two-sided Mann-Whitney U test (scipy.stats.mannwhitneyu); '
              '~ means p > %.2f. /mmap and /read: acgrep --mmap and --no-mmap.' % (a.runs, ALPHA))
    if a.raw:
        raw = {w['name']: {lbl: {'wall': c.wall, 'cpu': c.cpu, 'rss_kib': c.rss, 'status': c.status,
                                 'count': c.count, 'expected': w['expected'], 'note': c.note}
                           for lbl, c in results[w['name']].items()} for w in wls}
        with open(a.raw, 'w') as f:
            json.dump(raw, f, indent=1)
    if failures:
        msg = '\nFAILED: %d check(s) failed:\n' % len(failures) + '\n'.join('  ' + f for f in failures)
        print(msg, flush=True)
        print(msg, file=sys.stderr)   # loud even when stdout goes to a file
        sys.exit(1)


if __name__ == '__main__':
    main()
