#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Randomized differential test: acgrep -E / -G against GNU grep -E / -G.

Generates finite patterns (alternations, groups, bracket expressions with
ranges, classes and negation, ., ?, {n}, {n,m}, {,m}, ^ and $ at the ends
of alternatives, escapes, empty alternatives; ERE or the same in BRE
spelling), texts built to hit them (strings the pattern matches, cut,
cased and padded, and random lines), random option sets and both
locales, on one thread with read() or three with mmap; compares stdout
bytes and exit status with grep.  A pattern acgrep refuses (a documented
limit: the message says "is not supported", or for a list past the
expansion bound "acgrep's bound") is counted, not compared.

Environment: ACGREP (default ./acgrep), GREP (default /usr/bin/grep),
DIFF_CASES (default 600), DIFF_SEED (default random; printed), DIFF_JOBS
(default: CPUs), DIFF_MAX_REPORTS (default 10).  The last line is exactly
"N passed, N failed, N refused"; exit status 1 when a case failed.
"""

import concurrent.futures
import os
import random
import shlex
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHARS = "abcAB x-_"
OPTIONS = ["-i", "-w", "-x", "-v", "-c", "-o", "-n", "-b", "--color=always", "-m1", "-A1", "-l"]


def gen_atom(rng, depth, utf8):
    k = rng.random()
    if k < 0.45:
        c = rng.choice(CHARS + ("é" if utf8 else ""))
        return [c], c
    if k < 0.55:
        c = rng.choice(".*[")
        return ["\\" + c], c
    if k < 0.75:
        kind = rng.randrange(5 if utf8 else 7)
        body = ["ab", "a-c", "[:digit:]", "x_-", "]a", "^a ", "^[:upper:]b"][kind]
        return ["[", body, "]"], None
    if k < 0.8 and not utf8:
        return ["."], None
    if depth < 2:
        inner = gen_alt(rng, depth + 1, utf8)
        return ["("] + inner + [")"], None
    return ["a"], "a"


def gen_quant(rng):
    k = rng.random()
    if k < 0.7:
        return []
    n = rng.randrange(3)
    return rng.choice([["?"], ["{", str(n), "}"], ["{", str(n), ",", str(n + rng.randrange(2)), "}"],
                       ["{", ",", str(1 + rng.randrange(2)), "}"]])


def gen_branch(rng, depth, utf8):
    toks = []
    if rng.random() < 0.15:
        toks.append("^")
    for _ in range(rng.randrange(4)):
        atom, _lit = gen_atom(rng, depth, utf8)
        toks += atom + gen_quant(rng)
    if rng.random() < 0.15:
        toks.append("$")
    return toks


def gen_alt(rng, depth, utf8):
    toks = gen_branch(rng, depth, utf8)
    while rng.random() < 0.4:
        toks += ["|"] + gen_branch(rng, depth, utf8)
    return toks


def spell(toks, bre):
    """Tokens as an ERE, or as the same BRE (GNU's \\| \\? \\{ \\( )."""
    if not bre:
        return "".join(toks)
    out = []
    for t in toks:
        out.append("\\" + t if t in ("|", "?", "{", "}", "(", ")") else t)
    return "".join(out)


def sample(rng, pat_toks):
    """A string likely near a match: the pattern's literal characters."""
    s = []
    for t in pat_toks:
        if len(t) == 1 and t in CHARS + "é":
            s.append(t)
        elif t.startswith("\\"):
            s.append(t[1])
        elif t in ("[", "."):
            s.append(rng.choice("abc1Z "))
    return "".join(s)


def gen_case(rng, utf8):
    toks = gen_alt(rng, 0, utf8)
    lines = []
    for _ in range(rng.randrange(1, 8)):
        if rng.random() < 0.7:
            s = sample(rng, toks)
            if s and rng.random() < 0.3:
                cut = rng.randrange(len(s))
                s = s[:cut] + s[cut + 1:]
            if rng.random() < 0.3:
                s = s.upper()
            pre = "".join(rng.choice(CHARS) for _ in range(rng.randrange(3)))
            post = "".join(rng.choice(CHARS) for _ in range(rng.randrange(3)))
            lines.append(pre + s + post)
        else:
            lines.append("".join(rng.choice(CHARS + "1") for _ in range(rng.randrange(8))))
    text = "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")
    opts = rng.sample(OPTIONS, rng.randrange(4))
    return toks, text, opts


def run(argv, env):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def one_case(args):
    index, seed, acgrep, grep, tmp = args
    rng = random.Random(f"{seed}:{index}")
    loc = rng.choice(["C", "C.UTF-8"])
    utf8 = loc != "C"
    bre = rng.random() < 0.35
    toks, text, opts = gen_case(rng, utf8)
    pats = [spell(toks, bre)]
    if rng.random() < 0.3:  # a second pattern, of the same text's alphabet
        pats.append(spell(gen_alt(rng, 0, utf8), bre))
    path = os.path.join(tmp, f"in{index}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    env = dict(os.environ, LC_ALL=loc)
    syn = "-G" if bre else "-E"
    pe = [w for p in pats for w in ("-e", p)]
    g = run([grep] + opts + [syn] + pe + [path], env)
    variants = [["--threads=1", "--no-mmap"], ["--threads=3", "--mmap"]]
    problems = []
    for v in variants:
        a = run([acgrep] + v + opts + [syn] + pe + [path], env)
        if a[0] == 2 and (b"is not supported" in a[2] or b"acgrep's bound" in a[2]):
            return "refused", None
        if a[:2] != g[:2]:
            problems.append((v, a))
    os.unlink(path)
    if not problems:
        return "passed", None
    v, a = problems[0]
    cmd = f"printf %s {shlex.quote(text)} > in; LC_ALL={loc} {shlex.join(['acgrep'] + v + opts + [syn] + pe + ['in'])}"
    return "failed", f"case {index}: {cmd}\n  grep: {g[0]} {g[1][:200]!r}\n  acgrep: {a[0]} {a[1][:200]!r} {a[2][:200]!r}"


def main():
    acgrep = os.environ.get("ACGREP") or os.path.join(REPO, "acgrep")
    grep = os.environ.get("GREP", "/usr/bin/grep")
    cases = int(os.environ.get("DIFF_CASES", "600"))
    seed = os.environ.get("DIFF_SEED") or str(random.randrange(1 << 30))
    jobs = int(os.environ.get("DIFF_JOBS", str(os.cpu_count() or 2)))
    max_reports = int(os.environ.get("DIFF_MAX_REPORTS", "10"))
    print(f"regex diff: seed {seed}, {cases} cases", flush=True)
    counts = {"passed": 0, "failed": 0, "refused": 0}
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for verdict, report in ex.map(one_case, [(i, seed, acgrep, grep, tmp) for i in range(cases)]):
            counts[verdict] += 1
            if report and counts["failed"] <= max_reports:
                print(report, flush=True)
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['refused']} refused")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
