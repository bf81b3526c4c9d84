#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""corpus.py - the deterministic parts of the benchmark corpus (run by corpus.sh).

  corpus.py text SRC_DIR UNIQUE OUT SIZE SLICE SLICE_SIZE
      concatenate the English text found under SRC_DIR (packages unpacked
      with dpkg-deb, one directory per package) in sorted order into UNIQUE,
      then repeat it into OUT, cut at the last newline before SIZE bytes, and
      write the first SLICE_SIZE bytes (cut at a newline) to SLICE.
  corpus.py patterns UNIQUE DICT OUTDIR
      pattern sets chosen from the text and the dictionary by SHA-1 order of
      their members (no random generator, so any machine picks the same set
      from the same inputs).
  corpus.py absent PRESENT CANDIDATES OUT N
      the first N candidates not listed in PRESENT.

Everything is a pure function of the input bytes.
"""
import gzip
import hashlib
import os
import re
import sys


def h(b):
    return hashlib.sha1(b).digest()


# Which files of the unpacked packages are English text.
TEXT_SUFFIXES = (b'.txt', b'.pod', b'.rst')
GZ_TEXT = re.compile(rb'(/man/.*\.gz|/info/.*\.info(-\d+)?\.gz|/jargon\.txt\.gz|/changelog(\.Debian)?\.gz|/NEWS(\.Debian)?\.gz)$')
FORTUNES = re.compile(rb'/games/fortunes/[^/.]+$')


def wanted(path):
    if GZ_TEXT.search(path):
        return 'gz'
    if path.endswith(TEXT_SUFFIXES) or FORTUNES.search(path):
        return 'plain'
    return None


def cmd_text(src, unique, out, size, slice_path, slice_size):
    files = []
    for root, dirs, names in os.walk(os.fsencode(src)):
        dirs.sort()
        for n in names:
            p = os.path.join(root, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            kind = wanted(p)
            if kind:
                files.append((p, kind))
    files.sort()
    total = 0
    with open(unique, 'wb') as u:
        for p, kind in files:
            data = gzip.open(p).read() if kind == 'gz' else open(p, 'rb').read()
            # NUL would make grep call the text binary; CR is kept (real text has it).
            data = data.replace(b'\0', b'')
            if not data:
                continue
            if not data.endswith(b'\n'):
                data += b'\n'
            u.write(data)
            total += len(data)
    sys.stderr.write('corpus.py: %d files, %d bytes of unique text\n' % (len(files), total))
    if total == 0:
        sys.exit('corpus.py: no text found under %s' % src)
    text = open(unique, 'rb').read()
    reps = -(-size // len(text))
    whole = (text * reps)[:size]
    whole = whole[:whole.rfind(b'\n') + 1]
    with open(out, 'wb') as o:
        o.write(whole)
    part = whole[:slice_size]
    with open(slice_path, 'wb') as o:
        o.write(part[:part.rfind(b'\n') + 1])


def write_set(outdir, name, items):
    with open(os.path.join(outdir, name), 'wb') as f:
        for it in items:
            f.write(it + b'\n')


def cmd_patterns(unique, dict_path, outdir):
    text = open(unique, 'rb').read()
    os.makedirs(outdir, exist_ok=True)
    counts = {}
    for w in re.findall(rb'[A-Za-z]+', text):
        if len(w) >= 4:
            counts[w] = counts.get(w, 0) + 1
    # Corpus words: seen at least twice, ordered by hash (a spread of frequencies).
    words = sorted((w for w, c in counts.items() if c >= 2), key=h)
    write_set(outdir, 'words100.txt', words[:100])
    write_set(outdir, 'words1k.txt', words[:1000])
    # The rare literal: a long word seen 2..4 times in the unique text.
    rare = min((w for w, c in counts.items() if 2 <= c <= 4 and len(w) >= 10), key=h)
    write_set(outdir, 'rare.txt', [rare])
    write_set(outdir, 'the.txt', [b'the'])
    # 20 literals of 32 bytes: from printable ASCII lines, by hash of the line.
    lines = sorted({ln for ln in text.split(b'\n')
                    if len(ln) >= 48 and re.fullmatch(rb'[\x20-\x7e]+', ln) and ln[:8].strip()}, key=h)
    lits = []
    for ln in lines:
        lit = ln[8:40]
        if lit not in lits and lit.strip() == lit:
            lits.append(lit)
        if len(lits) == 20:
            break
    write_set(outdir, 'lit32x20.txt', lits)
    # Dictionary words: wamerican-insane, by hash; the whole list for the largest set.
    dwords = [w for w in open(dict_path, 'rb').read().split(b'\n') if w]
    by_hash = sorted(dwords, key=h)
    write_set(outdir, 'dict10k.txt', by_hash[:10000])
    write_set(outdir, 'dict100k.txt', by_hash[:100000])
    write_set(outdir, 'dict-all.txt', dwords)
    # Candidates for the absent strings: 12 lower-case letters from a hash chain.
    cands = []
    state = b'acgrep absent strings'
    while len(cands) < 1200:
        state = hashlib.sha256(state).digest()
        cands.append(bytes(97 + b % 26 for b in state[:12]))
    write_set(outdir, 'absent-candidates.txt', cands)


def cmd_absent(present, candidates, out, n):
    seen = set(open(present, 'rb').read().split(b'\n'))
    keep = [c for c in open(candidates, 'rb').read().split(b'\n') if c and c not in seen][:n]
    if len(keep) < n:
        sys.exit('corpus.py: only %d absent strings' % len(keep))
    with open(out, 'wb') as f:
        for c in keep:
            f.write(c + b'\n')


def main(argv):
    if len(argv) >= 2 and argv[1] == 'text' and len(argv) == 8:
        cmd_text(argv[2], argv[3], argv[4], int(argv[5]), argv[6], int(argv[7]))
    elif len(argv) == 5 and argv[1] == 'patterns':
        cmd_patterns(argv[2], argv[3], argv[4])
    elif len(argv) == 6 and argv[1] == 'absent':
        cmd_absent(argv[2], argv[3], argv[4], int(argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
