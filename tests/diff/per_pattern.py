#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential test of acgrep's per-pattern reports against an oracle.

Generates random cases (pattern lists over small alphabets with overlaps,
prefixes, duplicates and the empty pattern; texts of a few lines in one to
three files; -i, -w, -x, -v, -m, -H, --include-zero, both locales) and
computes here, independently of acgrep, what each of these prints:

  --count-per-pattern [--overlapping] [--all-patterns]
      per key (the first of patterns equal under -i): matches as `grep -o`
      defines them (leftmost-longest, not overlapping) or every occurrence,
      the lines and files it occurs in; summed, or per file with -H;
      --include-zero, -v (the keys not seen)
  -o --overlapping, --count-matches --overlapping
      every occurrence, by start and the longest first
  --all-patterns with plain output, -l, -L, -c
      only the files in which every key occurs (every occurrence counts)

Each case runs in variants that must all print the oracle's bytes and exit
status: one thread, three threads on files cut into segments of a few
bytes, read() of one byte at a time, --mmap, each scan path, the scalar
prefilters.  The oracle's -w is "the neighbours are not word characters"
(C locale, patterns of word characters: there GNU grep's -w rules agree);
its -i folds ASCII (the texts are ASCII).

Environment: ACGREP (default ./acgrep, relative to the repository),
PP_CASES (default 300), PP_SEED (default: random, always printed), PP_JOBS
(default: CPUs).  The last line is exactly "N passed, N failed"; the exit
status is 1 when a case failed, 2 on a setup error.
"""

import concurrent.futures
import os
import random
import shlex
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 30
ALPHABETS = [b"ab", b"abc", b"aAbB", b"hesri", b"ab ", b"ab_ -", b"xy.\t"]
SCAN_PATHS = ["dfa", "bitmap", "memchr", "teddy", "hash", "rare"]


def resolve_acgrep():
    p = os.environ.get("ACGREP") or "./acgrep"
    if p.startswith("/"):
        return p
    return os.path.normpath(os.path.join(REPO, p))


ACGREP = resolve_acgrep()

# ------------------------------------------------------------ the oracle


def fold(b, icase):
    return b.lower() if icase else b


def is_word(c):
    return chr(c).isalnum() or c == ord("_")


def line_texts(text):
    """The lines of a file, without terminators."""
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


class Oracle:
    def __init__(self, pats, icase, word, line):
        self.pats, self.icase, self.word, self.line = pats, icase, word, line
        self.key_of = []  # per pattern: the first pattern equal to it
        for p in pats:
            same = [k for k, q in enumerate(pats) if fold(q, icase) == fold(p, icase)]
            self.key_of.append(same[0])
        self.keys = [k for k in range(len(pats)) if self.key_of[k] == k]

    def qualifies(self, text, s, e):
        if self.line:
            return s == 0 and e == len(text)
        if self.word:
            return (s == 0 or not is_word(text[s - 1])) and (e == len(text) or not is_word(text[e]))
        return True

    def occurrences(self, text):
        """Every qualifying (start, end, key), by start, the longest first."""
        out = set()
        for s in range(len(text) + 1):
            for k in self.keys:
                p = self.pats[k]
                e = s + len(p)
                if e <= len(text) and fold(text[s:e], self.icase) == fold(p, self.icase) \
                        and self.qualifies(text, s, e):
                    out.add((s, e, k))
        return sorted(out, key=lambda o: (o[0], -o[1], o[2]))

    def leftmost_longest(self, text):
        """grep -o's matches, the empty ones too (-o prints none of them)."""
        occ = self.occurrences(text)
        out, pos = [], 0
        while True:
            later = [o for o in occ if o[0] >= pos]
            if not later:
                return out
            s = later[0][0]
            best = max((o for o in later if o[0] == s), key=lambda o: o[1])
            out.append(best)
            pos = best[1] if best[1] > s else s + 1


def read_lines(o, text, invert, max_count, tally_other):
    """The lines a search reads: (line, selected) in order, up to -m; under
    -v (tally_other) the matching lines read too, as (line, False)."""
    out, selected = [], 0
    for t in line_texts(text):
        matching = bool(o.occurrences(t))
        if max_count is not None and selected >= max_count:
            break
        if matching != invert:
            out.append((t, True))
            selected += 1
        elif tally_other:
            out.append((t, False))
    return out


def credits(o, text, overlapping):
    """Per key met in a line: (matches, 1)."""
    got = {}
    for s, e, k in (o.occurrences(text) if overlapping else o.leftmost_longest(text)):
        m, _ = got.get(k, (0, 1))
        got[k] = (m + (e > s), 1)
    return got


def every_key_in(o, lines):
    seen = set()
    for t, _ in lines:
        seen |= {k for _, _, k in o.occurrences(t)}
    return seen >= set(o.keys)


def expect_count_per_pattern(case, o):
    opt = case["opt"]
    unseen, zero, per_file = opt["invert"], opt["include_zero"], opt["H"]
    listed = (lambda lines: lines == 0) if unseen else (lambda lines: lines > 0 or zero)
    out, matched = [], False
    totals = {k: [0, 0, 0] for k in o.keys}
    for name, text in case["files"]:
        lines = read_lines(o, text, False, opt["m"], False)
        if opt["all"] and not every_key_in(o, lines):
            continue
        rows = {k: [0, 0] for k in o.keys}
        for t, _ in lines:
            for k, (m, n) in credits(o, t, opt["overlapping"]).items():
                rows[k][0] += m
                rows[k][1] += n
        for k in o.keys:
            totals[k][0] += rows[k][0]
            totals[k][1] += rows[k][1]
            totals[k][2] += rows[k][1] > 0
            if per_file and listed(rows[k][1]):
                out.append(b"%s:%d\t%d\t%s\n" % (name.encode(), rows[k][0], rows[k][1], o.pats[k]))
                matched |= unseen or rows[k][1] > 0
    if not per_file:
        for k in o.keys:
            if listed(totals[k][1]):
                out.append(b"%d\t%d\t%d\t%s\n" % (totals[k][0], totals[k][1], totals[k][2], o.pats[k]))
                matched |= unseen or totals[k][1] > 0
    return b"".join(out), 0 if matched else 1


def expect_overlapping(case, o):
    opt = case["opt"]
    show = opt["H"] or len(case["files"]) > 1
    out, status = [], 1
    for name, text in case["files"]:
        prefix = name.encode() + b":" if show else b""
        count = 0
        for t, _ in read_lines(o, text, False, opt["m"], False):
            status = 0 if opt["mode"] == "o" else status
            for s, e, _ in o.occurrences(t):
                if e > s:
                    count += 1
                    if opt["mode"] == "o":
                        out.append(prefix + t[s:e] + b"\n")
        if opt["mode"] == "cm":
            out.append(prefix + b"%d\n" % count)
            status = 0 if count else status
    return b"".join(out), status


def expect_all_patterns(case, o):
    opt = case["opt"]
    show = opt["H"] or len(case["files"]) > 1
    out, status = [], 1
    for name, text in case["files"]:
        lines = read_lines(o, text, opt["invert"], opt["m"], opt["invert"])
        ok = every_key_in(o, lines)
        selected = [t for t, sel in lines if sel]
        good = ok and bool(selected)
        status = 0 if good else status
        prefix = name.encode() + b":" if show else b""
        if opt["mode"] == "l" and good or opt["mode"] == "L" and not good:
            out.append(name.encode() + b"\n")
        elif opt["mode"] == "c" and ok:
            out.append(prefix + b"%d\n" % len(selected))
        elif opt["mode"] == "lines" and ok:
            out.extend(prefix + t + b"\n" for t in selected)
    return b"".join(out), status


# ------------------------------------------------------------ cases


def gen_text(rng, alpha):
    lines = []
    for _ in range(rng.choice([0, 1, 2, 3, 5, 8])):
        lines.append(bytes(rng.choice(alpha) for _ in range(rng.randint(0, rng.choice([4, 8, 16])))))
    text = b"\n".join(lines)
    if lines and rng.random() < 0.8:
        text += b"\n"
    return text


def gen_patterns(rng, alpha, texts, word):
    letters = bytes(c for c in alpha if is_word(c)) if word else alpha
    pats = []
    for _ in range(rng.choice([1, 1, 2, 3, 4, 6])):
        r = rng.random()
        if r < 0.4 and any(texts):
            t = rng.choice([t for t in texts if t])
            a = rng.randint(0, len(t) - 1)
            p = t[a:a + rng.randint(1, 5)].split(b"\n")[0]
        elif r < 0.47 and not word:
            p = b""
        else:
            p = bytes(rng.choice(letters) for _ in range(rng.randint(1, 4)))
        if word:
            p = bytes(c for c in p if is_word(c))
        pats.append(p or bytes([letters[0]]))
    if rng.random() < 0.2:  # a duplicate, or a prefix of one
        p = rng.choice(pats)
        pats.append(p[:rng.randint(1, len(p))] if p and rng.random() < 0.5 else p)
    return pats


def gen_case(seed, index):
    rng = random.Random("%s:%d" % (seed, index))
    alpha = rng.choice(ALPHABETS)
    word = rng.random() < 0.2
    texts = [gen_text(rng, alpha) for _ in range(rng.choice([1, 1, 2, 3]))]
    opt = {
        "icase": rng.random() < 0.3,
        "word": word,
        "line": not word and rng.random() < 0.1,
        "invert": rng.random() < 0.2,
        "m": rng.choice([1, 2, 3]) if rng.random() < 0.15 else None,
        "H": rng.random() < 0.35,
        "include_zero": rng.random() < 0.3,
        "overlapping": rng.random() < 0.4,
        "all": rng.random() < 0.15,
        "locale": "C" if word else rng.choice(["C", "C.UTF-8"]),
    }
    kind = rng.random()
    opt["mode"] = "count" if kind < 0.55 else rng.choice(["o", "cm"]) if kind < 0.7 else \
        rng.choice(["lines", "l", "L", "c"])
    if opt["mode"] in ("o", "cm"):
        opt["invert"] = opt["all"] = False
    if opt["mode"] in ("lines", "l", "L", "c"):
        opt["all"] = True
    return {"files": [("f%d" % k, t) for k, t in enumerate(texts)],
            "pats": gen_patterns(rng, alpha, texts, word), "opt": opt}


def argv_of(case):
    opt = case["opt"]
    a = []
    for flag, on in (("-i", opt["icase"]), ("-w", opt["word"]), ("-x", opt["line"]),
                     ("-v", opt["invert"]), ("-H", opt["H"])):
        if on:
            a.append(flag)
    if opt["m"] is not None:
        a += ["-m", str(opt["m"])]
    if opt["mode"] == "count":
        a.append("--count-per-pattern")
        if opt["include_zero"]:
            a.append("--include-zero")
        if opt["overlapping"]:
            a.append("--overlapping")
    elif opt["mode"] in ("o", "cm"):
        a += ["-o" if opt["mode"] == "o" else "--count-matches", "--overlapping"]
    else:
        a += {"lines": [], "l": ["-l"], "L": ["-L"], "c": ["-c"]}[opt["mode"]]
    if opt["all"]:
        a.append("--all-patterns")
    for p in case["pats"]:
        a += ["-e", p]
    return a + [name for name, _ in case["files"]]


def expected(case):
    opt = case["opt"]
    o = Oracle(case["pats"], opt["icase"], opt["word"], opt["line"])
    if opt["mode"] == "count":
        return expect_count_per_pattern(case, o)
    if opt["mode"] in ("o", "cm"):
        return expect_overlapping(case, o)
    return expect_all_patterns(case, o)


def variants(index):
    path = SCAN_PATHS[index % len(SCAN_PATHS)]
    return [["--threads=1"], ["--threads=3", "--segment-size=7", "--buffer-size=5"],
            ["--threads=1", "--no-mmap", "--buffer-size=1"], ["--threads=1", "--mmap"],
            ["--scan-path=" + path], ["--simd=scalar", "--threads=2"]]


def show(a):
    return " ".join(shlex.quote(x.decode("latin-1") if isinstance(x, bytes) else x) for x in a)


def run_case(seed, index, tmproot):
    case = gen_case(seed, index)
    want_out, want_status = expected(case)
    d = os.path.join(tmproot, "c%d" % index)
    os.mkdir(d)
    for name, text in case["files"]:
        with open(os.path.join(d, name), "wb") as f:
            f.write(text)
    env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": case["opt"]["locale"], "TERM": "dumb"}
    args = argv_of(case)
    problems = []
    for extra in variants(index):
        argv = [ACGREP] + extra + [x if isinstance(x, bytes) else x.encode() for x in args]
        r = subprocess.run(argv, cwd=d, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=TIMEOUT)
        if r.stdout != want_out or r.returncode != want_status or r.stderr:
            problems.append("case %d [LC_ALL=%s] (cd %s && %s)\n  want status %d: %r\n  got status %d: %r%s" % (
                index, case["opt"]["locale"], d, show(argv), want_status, want_out, r.returncode,
                r.stdout, ("\n  stderr: %r" % r.stderr) if r.stderr else ""))
            break
    return problems


def main():
    ncases = int(os.environ.get("PP_CASES", "300"))
    seed = os.environ.get("PP_SEED") or str(random.SystemRandom().randrange(1, 10**9))
    jobs = int(os.environ.get("PP_JOBS", "0") or 0) or (os.cpu_count() or 2)
    if not os.access(ACGREP, os.X_OK):
        print("per_pattern: binary under test not found: %s" % ACGREP)
        print("0 passed, 0 failed")
        return 2
    print("per_pattern: seed=%s cases=%d acgrep=%s" % (seed, ncases, ACGREP))
    sys.stdout.flush()
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="acgrep-pp-") as tmproot:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            for problems in ex.map(lambda i: run_case(seed, i, tmproot), range(ncases)):
                if problems:
                    failed += 1
                    if failed <= 20:
                        print("FAIL " + "\n".join(problems))
                else:
                    passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
