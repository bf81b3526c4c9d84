#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pattern_oracle.py - which pattern matched, and how often: the slow, obvious way.

An oracle for acgrep's per-pattern reports (issue 15), written without an
automaton: at every position of a line it looks the text up in a hash of
the patterns, longest first.  Module and command line.

  pattern_oracle.py [--count-per-pattern] [-i] [-w] [-x] [-z] [--overlapping]
                    [--include-zero] [-H]
                    (-e PATTERN | -f FILE | --tagged-file FILE)... [FILE...]
  pattern_oracle.py ... --totals            MATCHES, LINES, FILES summed
  pattern_oracle.py ... --show-pattern=tag|text|number [-o] [-n]
  pattern_oracle.py --self-test

Rows, as `acgrep --count-per-pattern` prints them (the format the issue's
branches agreed on):
  MATCHES<TAB>LINES<TAB>FILES<TAB>NAME      summed over the inputs
  FILE:MATCHES<TAB>LINES<TAB>NAME           per input, with -H
one per key (a tag of a tagged list, else a pattern), in the order of the
key's first appearance in the list; only keys with a match unless
--include-zero.  MATCHES counts the key's matches, LINES the lines and
FILES the inputs holding at least one of them.

What counts as a match (GNU grep -F's rules, LC_ALL=C):
  - Default: leftmost-longest, non-overlapping, as `grep -o` prints them: at
    the leftmost position where a pattern matches, the longest pattern
    there; the search goes on after it.  Empty matches are skipped (grep -o
    prints nothing for them), so an empty pattern never counts anywhere.
  - --overlapping: every occurrence of every pattern, (start, pattern) once.
  - -i: ASCII letters fold (A-Z = a-z); no other byte does (C locale).
  - -w: a match qualifies when the bytes before and after it are not word
    constituents ([A-Za-z0-9_]) or are line ends.  When the longest match at
    a start does not qualify, shorter ones at the same start are tried
    (longest first), then later starts: grep's kwsearch.c loop.  Where the
    search resumes after a match, grep does not look at the byte before:
    `printf 'a \n' | grep -F -o -w -e a -e ' '` prints both (not so with a
    single distinct pattern, which grep gives its regex matcher).
  - -x: the whole line equals a pattern (-x wins over -w; grep's stray empty
    line of `-o -x -w` with a single pattern is not a match).
  - -z: records end in NUL instead of newline.
Credit: a match is credited to the first listed of the patterns equal to
its bytes (identical, or equal under -i): acgrep's pattern_keys rule.  Its
key is that pattern's tag (an untagged pattern is its own tag once a tagged
list is given), else that pattern's text; so with an untagged list, equal
patterns make one row, named by the first of them.

Tagged lists (--tagged-file): TAG<TAB>PATTERN lines; the tag is the text
before the first TAB, every TAB right after it is a separator, the pattern
is the rest (TABs inside it stay).  A line ending in CR, a line without a
TAB, an empty tag or an empty pattern is an error (exit 2).

--show-pattern=WHAT prints what `acgrep --show-pattern` is expected to
print (grep's prefix style, issue 15 item 2): each line with a match as
[FILE:][LINENO:]NAME:LINE, NAME naming the line's first -o match; with -o
each match as [FILE:][LINENO:]NAME:MATCH.  NAME is the key (tag), the
credited pattern's text (text) or its 1-based number in the list (number).

Exit status: 0 when something matched, 1 when nothing did, 2 on an error.
"""

import argparse
import sys

WORD = frozenset(b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_')
FOLD = bytes.maketrans(b'ABCDEFGHIJKLMNOPQRSTUVWXYZ', b'abcdefghijklmnopqrstuvwxyz')
STDIN_NAME = b'(standard input)'


class OracleError(Exception):
    """A bad pattern list or option: the command line exits 2."""


# ---- pattern lists --------------------------------------------------------

def split_records(data, eol=b'\n'):
    """Lines as grep reads them: a last line without its terminator still counts."""
    if not data:
        return []
    parts = data.split(eol)
    if parts[-1] == b'':
        parts.pop()
    return parts


def plain_entries(data):
    """-f FILE / -e PATTERN: one pattern a line, untagged."""
    return [(p, None) for p in split_records(data)]


def tagged_entries(data, name='tagged list'):
    """--tagged-file: (pattern, tag) for every TAG<TAB>PATTERN line."""
    out = []
    for n, line in enumerate(split_records(data), 1):
        where = '%s:%d' % (name, n)
        if not line or line.startswith(b'#'):
            continue
        if line.endswith(b'\r'):
            raise OracleError('%s: line ends in CR (CRLF line ends); convert the file with dos2unix' % where)
        tab = line.find(b'\t')
        if tab < 0:
            raise OracleError('%s: no TAB between tag and pattern' % where)
        tag, pattern = line[:tab], line[tab:].lstrip(b'\t')
        if not tag:
            raise OracleError('%s: empty tag' % where)
        if not pattern:
            raise OracleError('%s: empty pattern' % where)
        out.append((pattern, tag))
    return out


class Patterns:
    """A pattern list compiled into hash tables, with every pattern's credit.

    entries: [(pattern bytes, tag bytes or None)] in list order; tagged:
    whether a tagged list was given (then keys are tags)."""

    def __init__(self, entries, ignore_case=False, word=False, line=False,
                 overlapping=False, tagged=None):
        self.entries = list(entries)
        self.icase, self.word, self.line, self.overlapping = ignore_case, word, line, overlapping
        if tagged is None:
            tagged = any(t is not None for _, t in self.entries)
        self.tagged = tagged
        self.names = []          # row names (bytes), in order of first appearance
        key_of = {}
        self.key = []            # per pattern: its row
        self.first = {}          # folded text -> index of the first pattern with it
        for i, (text, tag) in enumerate(self.entries):
            rep = self.first.setdefault(self.fold(text), i)
            if tagged:
                name = tag if tag is not None else text
            else:
                name = self.entries[rep][0]
            if name not in key_of:
                key_of[name] = len(self.names)
                self.names.append(name)
            self.key.append(key_of[name])
        # The tables: every non-empty folded text, and per anchor (its first
        # `m` bytes, m the shortest length) the lengths of the patterns
        # starting with it, longest first.
        self.full = {f: i for f, i in self.first.items() if f}
        self.m = min((len(f) for f in self.full), default=0)
        anchor = {}
        for f in self.full:
            anchor.setdefault(f[:self.m], set()).add(len(f))
        self.anchor = {a: sorted(ls, reverse=True) for a, ls in anchor.items()}
        # grep -o -w resuming after a match does not look at the byte before
        # (DESIGN.md, "-w after a previous match"), except with one distinct
        # pattern, which grep -F hands to its regex matcher in the C locale.
        self.resume_blind = not overlapping and len({t for t, _ in self.entries}) > 1

    def fold(self, b):
        return b.translate(FOLD) if self.icase else b

    def credit(self, i):
        """The row of a match of pattern i."""
        return self.key[i]

    def _at(self, s, i, ls):
        """The qualifying matches starting at i: (end, pattern), longest first."""
        n = len(s)
        for ln in ls:
            e = i + ln
            if e > n:
                continue
            p = self.full.get(s[i:e])
            if p is not None and not (self.word and e < n and s[e] in WORD):
                yield e, p

    def matches(self, rec):
        """[(start, end, pattern index)] of one line, in order."""
        s = self.fold(rec)
        n = len(s)
        if not self.full:
            return []
        if self.line:
            i = self.full.get(s)
            return [(0, n, i)] if i is not None else []
        m, anchor, word = self.m, self.anchor, self.word
        out = []
        nxt = 0
        for i in range(n - m + 1):
            if i < nxt:
                continue
            ls = anchor.get(s[i:i + m])
            # (the byte before a resumed search: see resume_blind)
            if ls is None or (word and i and s[i - 1] in WORD and
                              not (self.resume_blind and out and i == nxt)):
                continue
            if self.overlapping:
                out += sorted((i, e, p) for e, p in self._at(s, i, ls))
                continue
            for e, p in self._at(s, i, ls):
                out.append((i, e, p))
                nxt = e
                break
        return out


# ---- counting ---------------------------------------------------------------

class Counts:
    """Per key: matches, lines, files; per input the same (matches, lines)."""

    def __init__(self, nkeys):
        self.matches = [0] * nkeys
        self.lines = [0] * nkeys
        self.files = [0] * nkeys
        self.per_file = []       # [(name, matches list, lines list)]
        self.total_matches = 0
        self.total_lines = 0     # lines with a match
        self.total_files = 0


def count(pats, inputs, eol=b'\n'):
    """inputs: [(display name bytes, data bytes)] -> Counts."""
    c = Counts(len(pats.names))
    for name, data in inputs:
        fm = [0] * len(pats.names)
        fl = [0] * len(pats.names)
        for rec in split_records(data, eol):
            ms = pats.matches(rec)
            if not ms:
                continue
            c.total_lines += 1
            c.total_matches += len(ms)
            seen = set()
            for _, _, p in ms:
                k = pats.credit(p)
                fm[k] += 1
                seen.add(k)
            for k in seen:
                fl[k] += 1
        for k in range(len(pats.names)):
            c.matches[k] += fm[k]
            c.lines[k] += fl[k]
            if fm[k]:
                c.files[k] += 1
        if any(fm):
            c.total_files += 1
        c.per_file.append((name, fm, fl))
    return c


def rows(pats, c, include_zero=False, per_file=False):
    """The --count-per-pattern output, bytes."""
    out = []
    if per_file:
        for name, fm, fl in c.per_file:
            for k, key in enumerate(pats.names):
                if fm[k] or include_zero:
                    out.append(b'%s:%d\t%d\t%s\n' % (name, fm[k], fl[k], key))
    else:
        for k, key in enumerate(pats.names):
            if c.matches[k] or include_zero:
                out.append(b'%d\t%d\t%d\t%s\n' % (c.matches[k], c.lines[k], c.files[k], key))
    return b''.join(out)


def show_pattern(pats, inputs, what, only=False, numbers=False, with_name=False, eol=b'\n'):
    """The lines `--show-pattern=WHAT` prints (see the module doc), bytes."""
    def name_of(p):
        if what == 'tag':
            return pats.names[pats.credit(p)]
        if what == 'text':
            return pats.entries[p][0]
        return b'%d' % (p + 1)
    out = []
    for fname, data in inputs:
        for n, rec in enumerate(split_records(data, eol), 1):
            ms = pats.matches(rec)
            prefix = (fname + b':' if with_name else b'') + (b'%d:' % n if numbers else b'')
            if only:
                for s, e, p in ms:
                    out.append(prefix + name_of(p) + b':' + rec[s:e] + eol)
            elif ms:
                out.append(prefix + name_of(ms[0][2]) + b':' + rec + eol)
    return b''.join(out)


# ---- self-test -------------------------------------------------------------

def _cpp(entries, texts, **kw):
    """rows() for a list and texts given as str; str back (tests only)."""
    include_zero = kw.pop('include_zero', False)
    per_file = kw.pop('per_file', False)
    eol = kw.pop('eol', b'\n')
    enc = [(p.encode(), None if t is None else t.encode()) for p, t in entries]
    pats = Patterns(enc, **kw)
    inputs = [(('f%d' % i).encode(), t.encode()) for i, t in enumerate(texts)]
    return rows(pats, count(pats, inputs, eol), include_zero, per_file).decode()


def _plain(*ps):
    return [(p, None) for p in ps]


SELF_TESTS = [
    # (what, got-thunk, expected), every expectation counted by hand.
    ('leftmost-longest: ushers',
     lambda: _cpp(_plain('he', 'she', 'his', 'hers'), ['ushers\n']),
     '1\t1\t1\tshe\n'),
    ('overlapping: ushers',
     lambda: _cpp(_plain('he', 'she', 'his', 'hers'), ['ushers\n'], overlapping=True),
     '1\t1\t1\the\n1\t1\t1\tshe\n1\t1\t1\thers\n'),
    ('non-overlapping repeats and overlapping ones',
     lambda: _cpp(_plain('aa'), ['aaaaa\n']) + _cpp(_plain('aa'), ['aaaaa\n'], overlapping=True),
     '2\t1\t1\taa\n4\t1\t1\taa\n'),
    ('longest at the leftmost start, then after it',
     lambda: _cpp(_plain('ab', 'abcd', 'cde', 'e'), ['abcde\n']),
     '1\t1\t1\tabcd\n1\t1\t1\te\n'),
    ('include-zero keeps list order; lines and files',
     lambda: _cpp(_plain('zz', 'b', 'a'), ['a b a\nb\n', 'x\n', 'a\n'], include_zero=True),
     '0\t0\t0\tzz\n2\t2\t1\tb\n3\t2\t2\ta\n'),
    ('per file (-H)',
     lambda: _cpp(_plain('a', 'b'), ['a a\n', 'b\n'], per_file=True),
     'f0:2\t1\ta\nf1:1\t1\tb\n'),
    ('-w: shorter at the same start, then a later start',
     lambda: _cpp(_plain('foo', 'foobar', 'bar'), ['foobarx foo_ foo-foobar\n'], word=True),
     '1\t1\t1\tfoo\n1\t1\t1\tfoobar\n'),
    ('-w: a word byte before skips the start even if it matches',
     lambda: _cpp(_plain('ab', 'b'), ['ab xab b\n'], word=True),
     '1\t1\t1\tab\n1\t1\t1\tb\n'),
    ('-w: resuming right after a match, the byte before is not looked at',
     lambda: _cpp(_plain('a', ' '), ['a \n'], word=True) + _cpp(_plain('a'), ['aa a\n'], word=True),
     '1\t1\t1\ta\n1\t1\t1\t \n1\t1\t1\ta\n'),
    ('-w with --overlapping: each occurrence on its own',
     lambda: _cpp(_plain('a-b', 'b', 'a'), ['a-b\n'], word=True, overlapping=True),
     '1\t1\t1\ta-b\n1\t1\t1\tb\n1\t1\t1\ta\n'),
    ('-i: ASCII folds, credit to the first listed',
     lambda: _cpp(_plain('abc', 'ABC', 'x'), ['ABC abc aBc X\n'], ignore_case=True, include_zero=True),
     '3\t1\t1\tabc\n1\t1\t1\tx\n'),
    ('-i: bytes outside ASCII do not fold (C locale)',
     lambda: _cpp(_plain('\u00e9'), ['\u00c9 \u00e9\n'], ignore_case=True),
     '1\t1\t1\t\u00e9\n'),
    ('-x: whole lines only; an empty line and pattern are an empty match',
     lambda: _cpp(_plain('ab', '', 'b'), ['ab\nab ab\n\nb\nAB\n'], line=True, include_zero=True),
     '1\t1\t1\tab\n0\t0\t0\t\n1\t1\t1\tb\n'),
    ('the empty pattern never counts',
     lambda: _cpp(_plain('', 'b'), ['abc\n\n'], include_zero=True),
     '0\t0\t0\t\n1\t1\t1\tb\n'),
    ('identical patterns make one row',
     lambda: _cpp(_plain('a', 'a', 'b'), ['a\n'], include_zero=True),
     '1\t1\t1\ta\n0\t0\t0\tb\n'),
    ('tags: rows per tag, lines as a union, first tag of an equal pattern',
     lambda: _cpp([('ab', 'T1'), ('cd', 'T2'), ('ef', 'T1'), ('ab', 'T3')],
                  ['ab ef\ncd ab\n', 'zz\n'], include_zero=True),
     '3\t2\t1\tT1\n1\t1\t1\tT2\n0\t0\t0\tT3\n'),
    ('tags mixed with untagged patterns: those are their own tags',
     lambda: _cpp([('ab', 'T'), ('x', None), ('cd', 'T')], ['ab x cd\n']),
     '2\t1\t1\tT\n1\t1\t1\tx\n'),
    ('a last line without newline; -z records',
     lambda: _cpp(_plain('a'), ['a\na']) + _cpp(_plain('a'), ['a\na\x00a'], eol=b'\x00'),
     '2\t2\t1\ta\n3\t2\t1\ta\n'),
]


def _tagged_error(data):
    try:
        tagged_entries(data, 'L')
    except OracleError as e:
        return str(e)
    return None


SELF_TESTS += [
    ('tagged: consecutive TABs separate, inner TABs stay',
     lambda: repr(tagged_entries(b'Adapter A\t\t\tACGT\nB\tx\ty\nC\tz')),
     repr([(b'ACGT', b'Adapter A'), (b'x\ty', b'B'), (b'z', b'C')])),
    ('tagged: CR line end', lambda: _tagged_error(b'a\tb\r\n'),
     'L:1: line ends in CR (CRLF line ends); convert the file with dos2unix'),
    ('tagged: no TAB', lambda: _tagged_error(b'a\tb\n \n'), 'L:2: no TAB between tag and pattern'),
    ('tagged: empty tag', lambda: _tagged_error(b'\tb\n'), 'L:1: empty tag'),
    ('tagged: empty pattern', lambda: _tagged_error(b'a\tb\nc\t\t\n'), 'L:2: empty pattern'),
    ('show-pattern: line mode names the first -o match; -o each',
     lambda: (show_pattern(Patterns([(b'bc', b'T'), (b'a', b'U')]),
                           [(b'f', b'abc\nx\nbca\n')], 'tag', numbers=True)
              + show_pattern(Patterns([(b'bc', b'T'), (b'a', b'U')]),
                             [(b'f', b'abc\n')], 'number', only=True, with_name=True)).decode(),
     '1:U:abc\n3:T:bca\nf:2:a\nf:1:bc\n'),
]


def self_test():
    bad = 0
    for what, got, want in SELF_TESTS:
        g = got()
        if g != want:
            bad += 1
            print('not ok - %s\n#   expected %r\n#   got      %r' % (what, want, g))
        else:
            print('ok - %s' % what)
    print('%d passed, %d failed' % (len(SELF_TESTS) - bad, bad))
    return 1 if bad else 0


# ---- command line --------------------------------------------------------------

class _Ordered(argparse.Action):
    """-e, -f and --tagged-file, kept in command-line order."""

    def __call__(self, parser, ns, value, option=None):
        ns.sources = (ns.sources or []) + [(self.dest, value)]


def _read(path):
    if path == '-':
        return sys.stdin.buffer.read()
    with open(path, 'rb') as f:
        return f.read()


def main(argv=None):
    ap = argparse.ArgumentParser(
        description='Per-pattern counts of a pattern list over files, computed without an '
                    'automaton (see the module doc for the rules).')
    ap.add_argument('-e', dest='e', action=_Ordered, metavar='PATTERN')
    ap.add_argument('-f', dest='f', action=_Ordered, metavar='FILE')
    ap.add_argument('--tagged-file', dest='t', action=_Ordered, metavar='FILE')
    ap.add_argument('-i', action='store_true')
    ap.add_argument('-w', action='store_true')
    ap.add_argument('-x', action='store_true')
    ap.add_argument('-z', action='store_true', help='records end in NUL')
    ap.add_argument('-H', action='store_true', help='rows per input')
    ap.add_argument('--overlapping', action='store_true')
    ap.add_argument('--include-zero', action='store_true')
    ap.add_argument('--count-per-pattern', action='store_true',
                    help='the default output; taken so that one argument list serves acgrep and this')
    ap.add_argument('--totals', action='store_true',
                    help='print MATCHES<TAB>LINES<TAB>FILES summed over every key')
    ap.add_argument('--show-pattern', choices=['tag', 'text', 'number'])
    ap.add_argument('-o', action='store_true', help='with --show-pattern: each match')
    ap.add_argument('-n', action='store_true', help='with --show-pattern: line numbers')
    ap.add_argument('--self-test', action='store_true')
    ap.add_argument('files', nargs='*')
    ap.set_defaults(sources=None)
    a = ap.parse_args(argv)
    if a.self_test:
        return self_test()
    if not a.sources:
        ap.error('no pattern list: give -e, -f or --tagged-file')
    entries, tagged = [], False
    try:
        for kind, v in a.sources:
            if kind == 'e':
                entries += plain_entries(v.encode('utf-8', 'surrogateescape') + b'\n')
            elif kind == 'f':
                entries += plain_entries(_read(v))
            else:
                tagged = True
                entries += tagged_entries(_read(v), v)
    except (OracleError, OSError) as e:
        print('pattern_oracle.py: %s' % e, file=sys.stderr)
        return 2
    pats = Patterns(entries, a.i, a.w, a.x, a.overlapping, tagged)
    eol = b'\0' if a.z else b'\n'
    files = a.files or ['-']
    try:
        inputs = [(STDIN_NAME if f == '-' else f.encode('utf-8', 'surrogateescape'), _read(f))
                  for f in files]
    except OSError as e:
        print('pattern_oracle.py: %s' % e, file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    if a.show_pattern:
        text = show_pattern(pats, inputs, a.show_pattern, a.o, a.n, a.H or len(files) > 1, eol)
        out.write(text)
        return 0 if text else 1
    c = count(pats, inputs, eol)
    if a.totals:
        out.write(b'%d\t%d\t%d\n' % (c.total_matches, c.total_lines, c.total_files))
    else:
        out.write(rows(pats, c, a.include_zero, a.H))
    return 0 if c.total_matches else 1


if __name__ == '__main__':
    sys.exit(main())
