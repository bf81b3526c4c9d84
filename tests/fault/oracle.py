#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""oracle.py - what a correct search of a file that changed under it
printed (tests/fault/run.sh).

A search that reads a file while it changes sees the file as it was up to
the offset R it had read when the change came, and the file as it is from
R on: the content C(R) = ORIG[0:R) + FINAL[R:] (FINAL[R:] empty when the
file now ends before R).  GNU grep reads sequentially, so its output is
grep's output on C(R) for the R of its read; the bytes and exit status of
a correct run are those of grep -F PATTERN on C(R) for some R in
[0, len(ORIG)] (R at the change point gives the final file, R at the end
the original one; a truncated file gives a prefix of the original
output, ending at a line end or at a surviving partial line printed with
a newline).  grep is simulated here (GNU grep 3.8's rules for these
files: lines, the unfinished last one printed with a newline; a NUL byte
makes the input binary from the 98,304-byte read holding it, lines before
that read printed, "binary file matches" on stderr when a line from it on
is selected); self-test checks the simulation against grep itself on
each file.

Usage: oracle.py self-test WORK PATTERN GREP
       oracle.py check-runs WORK PATTERN RUNDIR...
WORK holds run.sh's files; each RUNDIR a run's meta (FILE CHANGE POINT
STATUS ARGS...), out and err.  check-runs prints a FAIL line for each
run that is not correct and removes the others; exit status 0 when all
were correct.
"""
import os
import subprocess
import sys

CHUNK = 98304


def simulate(c, pat):
    """grep -F pat on content c: (stdout bytes, binary message, status)."""
    z = c.find(b'\0')
    text_end = len(c)
    if z >= 0:
        k = z // CHUNK * CHUNK
        text_end = c.rfind(b'\n', 0, k) + 1  # the NUL's read starts with this line
    out = []
    selected = False
    text = c[:text_end]
    lines = text.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    for line in lines:
        if pat in line:
            out.append(line + b'\n')
            selected = True
    binary = False
    if z >= 0:
        rest = c[text_end:].replace(b'\0', b'\n')
        binary = any(pat in line for line in rest.split(b'\n'))
        selected = selected or binary
    return b''.join(out), binary, 0 if selected else 1


def candidates(orig, out, pat, point):
    """Offsets R worth trying: the change point, the ends, where out's n
    lines are the first n selected ones (its last line maybe partial),
    and where the NUL makes the input binary, with or without a selected
    line after it."""
    rs = {0, point, len(orig)}
    n = out.count(b'\n')
    last = out[out.rfind(b'\n', 0, len(out) - 1) + 1:-1] if out else b''
    found = []  # (line start, end of its first match, its terminator)
    pos = 0
    while len(found) < n + 1:
        m = orig.find(pat, pos)
        if m < 0:
            break
        ls = orig.rfind(b'\n', 0, m) + 1
        nl = orig.find(b'\n', m)
        nl = len(orig) if nl < 0 else nl
        found.append((ls, m + len(pat), nl))
        pos = nl + 1
    if n >= 1 and len(found) >= n:
        ls, q, nl = found[n - 1]
        rs.update({q, nl + 1})
        if orig[ls:ls + len(last)] == last:
            rs.add(ls + len(last))
    if len(found) > n:
        rs.update({found[n][1] - 1, found[n][0] + 1})
    z = orig.find(b'\0')
    if z >= 0:
        rs.add(z + 1)
        m = orig.find(pat, orig.rfind(b'\n', 0, z // CHUNK * CHUNK) + 1)
        if m >= 0:
            rs.update({m + len(pat) - 1, m + len(pat)})
    return sorted(r for r in rs if 0 <= r <= len(orig))


def check(orig, final, pat, out, err, status, point):
    for r in candidates(orig, out, pat, point):
        sim_out, binary, sim_status = simulate(orig[:r] + final[r:], pat)
        want_err = err.endswith(b': binary file matches\n') and err.count(b'\n') == 1 if binary else err == b''
        if sim_out == out and sim_status == status and want_err:
            return None
    return 'no R gives these bytes, status %d and stderr %r (out: %d bytes, %d lines)' % (
        status, err[:200], len(out), out.count(b'\n'))


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def final_content(files, name, change, point):
    """The file after the change run.sh made (see there)."""
    orig = files[name]
    if change == 'truncate':
        return orig[:point]
    if change == 'append':
        return orig + files['extra']
    return orig[:point] + files[name + '.rewritten'][point:]


def check_runs(work, runs, pat):
    """Checks each run directory (meta: FILE CHANGE POINT STATUS ARGS...;
    out, err); prints a FAIL line for each failed one, removes the passed
    ones.  Returns the number failed."""
    files = {}
    failed = 0
    for run in runs:
        name, change, point, status, args = read(run + '/meta').decode().split(' ', 4)
        for f in (name, name + '.rewritten', 'extra'):
            if f not in files:
                files[f] = read('%s/%s' % (work, f))
        point = int(point)
        if status == 'hang':
            why = 'hang: no end in time'
        else:
            why = check(files[name], final_content(files, name, change, point), pat,
                        read(run + '/out'), read(run + '/err'), int(status), point)
        if why:
            failed += 1
            print('FAIL %s: %s, %s at %d, acgrep %s -F %s: %s' % (
                run.rsplit('/', 1)[-1], name, change, point, args.strip(), pat.decode(), why))
        else:
            for f in ('meta', 'out', 'err'):
                os.unlink('%s/%s' % (run, f))
            os.rmdir(run)
    return failed


def self_test(work, pat, grep):
    """The simulated grep against grep on each file, whole and cut inside
    a line (after the NUL's read in the binary one).  0 when they agree."""
    bad = 0
    for name in ('lines', 'long', 'nul'):
        content = read('%s/%s' % (work, name))
        for cut in (len(content), 1575010):
            probe = '%s/probe' % work
            with open(probe, 'wb') as f:
                f.write(content[:cut])
            g = subprocess.run([grep, '-F', pat.decode(), probe], capture_output=True)
            out, _, status = simulate(content[:cut], pat)
            if g.stdout != out or g.returncode != status:
                print('the oracle is not grep on %s cut at %d' % (name, cut))
                bad += 1
    return bad


def main(argv):
    if argv[1] == 'self-test':
        return 1 if self_test(argv[2], argv[3].encode(), argv[4]) else 0
    if argv[1] == 'check-runs':
        return 1 if check_runs(argv[2], argv[4:], argv[3].encode()) else 0
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
