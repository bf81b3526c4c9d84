#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""patterns.py - the timing behind patterns.sh: the per-pattern and JSON reports against plain counting.

  patterns.py --dir D --acgrep BIN [--runs N] [--timeout S] [--rows a,b,...] [--raw FILE]

Rows (D is $ACGREP_BENCH_DIR, built by corpus.sh, real_sets.sh and patterns.sh):
  dict-all, words1k   --count-per-pattern against --count-matches on english.txt
                      (target: at most 1.10 times its time)
  json                --json against -n on the ~1M lines of the print-n workload
                      (target: at most 2 times), rg --json and rg -n beside them
  blocklist, blocklist-w, adapters, oui
                      the real sets (real/manifest.tsv): --count-per-pattern,
                      --count-matches, grep -F -c, rg -F -c
Every acgrep command runs with its default threads and with --threads=1.

Each command states what it must print and is checked once before it is
timed: a count (stdout's number or lines), the number of JSON match records,
or stdout byte for byte equal to an expected per-pattern table.  A command
using an option that `acgrep --help` does not list is skipped with a
message; its ratios say "not measured".  Then N rounds (default 5), each
running every command once in an order rotated by the round, file inputs
read again first; medians of wall and user+system CPU time.  Uses bench.py's
run_once (fork/exec/wait4 around perf_counter) and warm.

Exit status: 1 when an acgrep command printed the wrong thing or failed
(after the tables); a peer that counts differently is marked n/c.
"""
import argparse
import filecmp
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


class Cmd:
    """One command line.  check: 'int' (the number it prints), 'lines'
    (the lines it prints), 'json' (its JSON match records) or 'bytes'
    (stdout equal to the file `expect`); needs: acgrep options it uses."""

    def __init__(self, label, argv, check, expect, needs=(), is_acgrep=True):
        self.label, self.argv, self.check, self.expect = label, argv, check, expect
        self.needs, self.is_acgrep = list(needs), is_acgrep
        self.wall, self.cpu = [], []
        self.status, self.note, self.got = 'ok', '', None


class Row:
    def __init__(self, name, desc, inputs, cmds, pairs):
        self.name, self.desc, self.inputs, self.cmds = name, desc, inputs, cmds
        self.pairs = pairs  # (label, label it is divided by, target or None)


def count_json_matches(path):
    n = 0
    with open(path, 'rb') as f:
        for ln in f:
            n += ln.startswith(b'{"type":"match"')
    return n


def checked(c, out):
    """(ok, what it printed) for a check run's stdout."""
    if c.check == 'bytes':
        with open(out, 'rb') as f:
            rows = sum(1 for _ in f)
        return filecmp.cmp(out, c.expect, shallow=False), '%d rows' % rows
    got = count_json_matches(out) if c.check == 'json' else bench.parse_count(c.check, out)
    return got == c.expect, got


def expected_text(c):
    if c.check == 'bytes':
        return 'the rows of %s' % c.expect
    return '%d%s' % (c.expect, ' match records' if c.check == 'json' else '')


# ---- the rows --------------------------------------------------------------------

def threads_variants(acgrep):
    return [('acgrep', [acgrep]), ('acgrep --threads=1', [acgrep, '--threads=1'])]


PER_PATTERN = {'dict-all': 'all 663,473 words of wamerican-insane over english.txt',
               'words1k': '1,000 corpus words over english.txt'}


def per_pattern_row(d, acgrep, name):
    """dict-all or words1k: the table patterns.sh cached in pat/expected/."""
    text = os.path.join(d, 'english.txt')
    pat = os.path.join(d, 'pat', name + '.txt')
    table = os.path.join(d, 'pat', 'expected', name + '.cpp.tsv')
    with open(table, 'rb') as f:
        matches = sum(int(ln.split(b'\t', 1)[0]) for ln in f)
    cmds, pairs = [], []
    for label, base in threads_variants(acgrep):
        cm, cpp = label + ' --count-matches', label + ' --count-per-pattern'
        cmds.append(Cmd(cm, base + ['--count-matches', '-f', pat, text], 'int', matches))
        cmds.append(Cmd(cpp, base + ['--count-per-pattern', '-f', pat, text], 'bytes', table,
                        ['--count-per-pattern']))
        pairs.append((cpp, cm, 1.10))
    return Row(name, PER_PATTERN[name], [text], cmds, pairs)


def json_row(d, acgrep):
    text = os.path.join(d, 'english.txt')
    manifest = {w['name']: w for w in bench.load_manifest(os.path.join(d, 'manifest.tsv'))}
    pn = manifest['print-n']
    pat = os.path.join(d, pn['patterns'])
    n = pn['expected']
    cmds, pairs = [], []
    for label, base in threads_variants(acgrep):
        cmds.append(Cmd(label + ' -n', base + ['-n', '-f', pat, text], 'lines', n))
        cmds.append(Cmd(label + ' --json', base + ['--json', '-f', pat, text], 'json', n, ['--json']))
        pairs.append((label + ' --json', label + ' -n', 2.0))
    rg = ['rg', '--no-config', '-F']
    cmds.append(Cmd('rg -n', rg + ['-n', '-f', pat, text], 'lines', n, is_acgrep=False))
    cmds.append(Cmd('rg --json', rg + ['--json', '-f', pat, text], 'json', n, is_acgrep=False))
    pairs.append(('rg --json', 'rg -n', None))
    pairs.append(('acgrep --json', 'rg --json', None))
    desc = 'the %d lines holding "%s" in english.txt, printed' % (n, open(pat).read().strip())
    return Row('json', desc, [text], cmds, pairs)


def real_names(d):
    return [wl['name'] for wl in read_tsv(os.path.join(d, 'real', 'manifest.tsv'))]


def real_row(d, acgrep, name):
    real = os.path.join(d, 'real')
    for wl in read_tsv(os.path.join(real, 'manifest.tsv')):
        if wl['name'] != name:
            continue
        text = os.path.join(real, wl['text'])
        flags = wl['flags'].split()
        lst, plain = os.path.join(real, wl['list']), os.path.join(real, wl['plain'])
        tagged = lst.endswith('.tsv')
        src = ['--tagged-file=' + lst] if tagged else ['-f', lst]
        needs = ['--count-per-pattern'] + (['--tagged-file'] if tagged else [])
        table = os.path.join(real, 'expected', wl['name'] + '.tsv')
        cmds, pairs = [], []
        for label, base in threads_variants(acgrep):
            cm, cpp = label + ' --count-matches', label + ' --count-per-pattern'
            cmds.append(Cmd(cpp, base + flags + ['--count-per-pattern'] + src + [text], 'bytes', table, needs))
            cmds.append(Cmd(cm, base + flags + ['--count-matches', '-f', plain, text], 'int',
                            int(wl['expected_matches'])))
            pairs.append((cpp, cm, 1.10))
        lines = int(wl['expected_lines'])
        cmds.append(Cmd('acgrep -c', [acgrep] + flags + ['-c', '-f', plain, text], 'int', lines))
        cmds.append(Cmd('grep -F -c', ['grep', '-F'] + flags + ['-c', '-f', plain, text], 'int', lines,
                        is_acgrep=False))
        cmds.append(Cmd('rg -F -c', ['rg', '--no-config', '-F'] + flags + ['-c', '-f', plain, text], 'int',
                        lines, is_acgrep=False))
        pairs.append(('acgrep --count-per-pattern', 'grep -F -c', None))
        pairs.append(('acgrep --count-per-pattern', 'rg -F -c', None))
        desc = '%s; %s patterns (%s keys), %s, flags: %s' % (
            wl['description'], wl['patterns'], wl['keys'], wl['text'], wl['flags'] or 'none')
        return Row(wl['name'], desc, [text], cmds, pairs)
    raise KeyError(name)


def read_tsv(path):
    out = []
    with open(path, encoding='utf-8') as f:
        header = None
        for ln in f:
            fields = ln.rstrip('\n').split('\t')
            if ln.startswith('#'):
                header = [h.strip('# ') for h in fields]
                continue
            out.append(dict(zip(header, fields)))
    return out


# ---- measuring -------------------------------------------------------------------------

def acgrep_options(acgrep):
    try:
        return subprocess.run([acgrep, '--help'], capture_output=True, check=False).stdout.decode(
            'utf-8', 'replace')
    except OSError:
        return ''


def has_option(help_text, opt):
    i = help_text.find(opt)
    while i >= 0:
        end = i + len(opt)
        if end >= len(help_text) or not (help_text[end].isalnum() or help_text[end] == '-'):
            return True
        i = help_text.find(opt, end)
    return False


def measure(rows, d, runs, timeout, help_text, log):
    outdir = os.path.join(d, 'out')
    os.makedirs(outdir, exist_ok=True)
    failures = []
    for row in rows:
        log('%s: warming %s' % (row.name, ', '.join(os.path.basename(p) for p in row.inputs)))
        for p in row.inputs:
            bench.warm(p)
        live = []
        for c in row.cmds:
            missing = [o for o in c.needs if not has_option(help_text, o)]
            if missing:
                c.status, c.note = 'skipped', 'acgrep has no %s yet (issue 15)' % ', '.join(missing)
                log('  %-40s skipped: %s' % (c.label, c.note))
                continue
            o = os.path.join(outdir, 'patterns-' + bench.slug(c.label) + '.out')
            e = os.path.join(outdir, 'patterns-' + bench.slug(c.label) + '.err')
            wall, _, _, rc, to = bench.run_once(c.argv, o, e, timeout)
            if to or rc not in (0, 1):
                c.status = 'timeout' if to else 'error'
                err = open(e, 'rb').read().decode('utf-8', 'replace').strip()
                c.note = ('check run over %g s' % timeout) if to else 'exit %d: %s' % (rc, err[:200])
                log('  %-40s %s' % (c.label, c.note))
                if c.is_acgrep:
                    failures.append('%s / %s: %s\n    %s' % (row.name, c.label, c.note, ' '.join(c.argv)))
                continue
            ok, c.got = checked(c, o)
            if not ok:
                c.status = 'MISMATCH' if c.is_acgrep else 'n/c'
                c.note = 'printed %s, expected %s' % (c.got, expected_text(c))
                if c.is_acgrep:
                    failures.append('%s / %s: %s\n    %s' % (row.name, c.label, c.note, ' '.join(c.argv)))
            log('  %-40s check run %.3f s: %s%s' % (c.label, wall, c.got,
                                                    '' if c.status == 'ok' else ' (%s)' % c.note))
            live.append((c, o, e))
        for r in range(runs):
            for p in row.inputs:
                bench.warm(p)
            k = r % len(live) if live else 0
            for c, o, e in live[k:] + live[:k]:
                wall, cpu, _, _, _ = bench.run_once(c.argv, o, e)
                c.wall.append(wall)
                c.cpu.append(cpu)
            log('  round %d/%d done' % (r + 1, runs))
    return failures


# ---- the report ------------------------------------------------------------------------

def ratio_rows(row):
    """[row, ratio, wall, cpu, target] per pair of the row."""
    by = {c.label: c for c in row.cmds}
    out = []
    for num, den, target in row.pairs:
        a, b = by.get(num), by.get(den)
        what = '%s / %s' % (num, den)
        if not a or not b or not a.wall or not b.wall:
            why = '; '.join(c.note or c.status for c in (a, b) if c and not c.wall)
            out.append([row.name, what, 'not measured', '', why])
            continue
        w = statistics.median(a.wall) / statistics.median(b.wall)
        u = statistics.median(a.cpu) / statistics.median(b.cpu)
        verdict = ('<= %.2f: %s' % (target, 'met' if w <= target else 'NOT met')) if target else ''
        out.append([row.name, what, '%.2f' % w, '%.2f' % u, verdict])
    return out


def report(rows, runs):
    out = ['Medians of %d interleaved runs; ± is the largest distance from the median to the fastest '
           'or slowest run; cpu is the median user+system time. Every output was checked first.' % runs, '']
    trows = []
    for row in rows:
        for i, c in enumerate(row.cmds):
            name = row.name if i == 0 else ''
            if not c.wall:
                trows.append([name, c.label, c.status, '', '', c.note])
                continue
            m = statistics.median(c.wall)
            check = 'ok %s' % c.got if c.status == 'ok' else '%s: %s' % (c.status, c.note)
            trows.append([name, c.label, bench.fmt_time(m), '%.0f%%' % bench.spread_pct(c.wall, m),
                          bench.fmt_time(statistics.median(c.cpu)), check])
    out.append(bench.table(trows, ['row', 'command', 'median', '±', 'cpu', 'check'],
                           ['l', 'l', 'r', 'r', 'r', 'l']))
    out.append('')
    out.append('Ratios of medians (above 1: the first is slower); the target applies to wall time:')
    rrows = []
    for row in rows:
        rrows += [r if i == 0 else [''] + r[1:] for i, r in enumerate(ratio_rows(row))]
    out.append(bench.table(rrows, ['row', 'ratio', 'wall', 'cpu', 'target'], ['l', 'l', 'r', 'r', 'l']))
    out.append('')
    out.append('Rows:')
    for row in rows:
        out.append('  %-12s %s' % (row.name, row.desc))
        for c in row.cmds:
            out.append('    %-40s %s  [expects %s]' % (c.label, ' '.join(c.argv), expected_text(c)))
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dir', required=True)
    ap.add_argument('--acgrep', required=True)
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--timeout', type=float, default=120.0, help='limit for each check run (s)')
    ap.add_argument('--rows', default='', help='comma-separated row names (default: all)')
    ap.add_argument('--raw', help='write every sample to this JSON file')
    a = ap.parse_args()

    builders = {n: (lambda n=n: per_pattern_row(a.dir, a.acgrep, n)) for n in PER_PATTERN}
    builders['json'] = lambda: json_row(a.dir, a.acgrep)
    builders.update({n: (lambda n=n: real_row(a.dir, a.acgrep, n)) for n in real_names(a.dir)})
    want = a.rows.split(',') if a.rows else list(builders)
    unknown = [n for n in want if n not in builders]
    if unknown:
        sys.exit('patterns.py: unknown rows %s (known: %s)' % (', '.join(unknown), ', '.join(builders)))
    rows = [builders[n]() for n in want]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    failures = measure(rows, a.dir, a.runs, a.timeout, acgrep_options(a.acgrep), log)
    print(report(rows, a.runs))
    if a.raw:
        with open(a.raw, 'w') as f:
            json.dump({r.name: {c.label: {'argv': c.argv, 'wall': c.wall, 'cpu': c.cpu, 'status': c.status,
                                          'note': c.note, 'got': c.got} for c in r.cmds} for r in rows},
                      f, indent=1)
    if failures:
        msg = '\nFAILED: %d check(s) failed:\n' % len(failures) + '\n'.join('  ' + f for f in failures)
        print(msg, flush=True)
        print(msg, file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
