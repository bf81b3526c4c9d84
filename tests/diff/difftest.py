#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Randomized differential test: acgrep -F against GNU grep -F.

Generates random cases (pattern sets over small alphabets, texts with
overlaps, prefixes, duplicates, empty patterns, CRLF, NUL and invalid UTF-8
bytes, e-mail-like addresses (gen_mail), -w -i over a character that
grep's retries cut (add_cut_shape), random option combinations, both
locales), runs `grep -F` and
`$ACGREP -F` on each and compares stdout bytes, exit status and stderr (with
the program name normalised).  When ACGREP is not grep, each case also runs
in these variants of acgrep (the list `variants` in main), each compared
with grep:

  pcre2     --engine=pcre2 (if compiled in)           every case
  readpath  --no-mmap --buffer-size=1                 the DIFF_READPATH subset
  scalar    --simd=scalar                             the DIFF_READPATH subset
  hash      --scan-path=hash (hashed windows, strided     the DIFF_READPATH subset
            when every pattern is long enough)
  hash-ssse3 --scan-path=hash --simd=ssse3 (through     the DIFF_READPATH subset
            the shift-or filter at stride 1 on any CPU)
  rare      --scan-path=rare (1-3 bytes every pattern   the DIFF_READPATH subset
            holds, else the pair bitmap)
  threads   --threads=3 --segment-size=7              every case
            --buffer-size=5 (files cut into segments
            of a few bytes, at read() window starts)

A variant is left out of a case only for a documented difference
(known_divergence).  A failure names the case, the variant and the locale,
and prints a shell reproducer.

Environment:
  ACGREP          binary under test (default ./acgrep, relative to the repo)
  GREP            the oracle (default /usr/bin/grep)
  DIFF_CASES      number of cases (default 2000)
  DIFF_SEED       seed (default: random; always printed)
  DIFF_FIRST      index of the first case (default 0): DIFF_SEED=S
                  DIFF_FIRST=K DIFF_CASES=1 re-runs exactly case K
  DIFF_JOBS       parallel workers (default: number of CPUs)
  DIFF_STDERR     0 to compare stdout and status only (default 1)
  DIFF_READPATH   fraction of cases also run with --no-mmap --buffer-size=1
                  (default 0.25)
  DIFF_MAX_REPORTS  full reproducers printed at most (default 30)
  DIFF_VERBOSE    1 to print every case's command line
  ACGREP_PCRE2    no: the build has no PCRE2 engine (the Makefile says so);
                  otherwise a binary without it is a setup error

The last line is exactly "N passed, N failed"; the exit status is 1 when a
case failed, 2 on a setup error.
"""

import collections
import concurrent.futures
import ctypes
import ctypes.util
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

# One way of running acgrep on every case: its name in reports, the words
# before -F, and whether it runs only on the DIFF_READPATH fraction of cases.
Variant = collections.namedtuple("Variant", "name argv readpath_subset_only")
# One run of a program on a case.
Run = collections.namedtuple("Run", "status stdout stderr")
# One variant of one case that did not give grep's result.
Problem = collections.namedtuple("Problem", "variant argv what run")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 30


def resolve_acgrep():
    p = os.environ.get("ACGREP") or "./acgrep"
    if p.startswith("/"):
        return p
    if "/" in p:
        return os.path.normpath(os.path.join(REPO, p))
    found = shutil.which(p)
    return found if found else os.path.join(REPO, p)


GREP = os.environ.get("GREP") or "/usr/bin/grep"
ACGREP = resolve_acgrep()


def is_grep(path):
    try:
        if os.path.realpath(path) == os.path.realpath(GREP):
            return True
        out = subprocess.run([path, "--version"], capture_output=True, timeout=TIMEOUT).stdout
        return b"(GNU grep)" in out.split(b"\n", 1)[0]
    except (OSError, subprocess.SubprocessError):
        return False


def has_pcre2(path):
    try:
        r = subprocess.run([path, "--engine=pcre2", "-F", "-e", "x", "/dev/null"],
                           capture_output=True, timeout=TIMEOUT)
        return r.returncode != 2
    except (OSError, subprocess.SubprocessError):
        return False


# ------------------------------------------------------------ generation

ALPHABETS = [
    ["a", "b"],
    ["a", "b", "c"],
    ["a", "A", "b", "B"],
    ["h", "e", "s", "r", "i"],
    ["a", "b", "_", "1", " "],
    ["f", "o", " ", "-", "x"],
    ["a", "b", " ", "\r"],
    ["é", "É", "e", "E", " "],
    ["ß", "s", "S", "ẞ", " "],
    ["σ", "Σ", "ς", "a", " "],
    ["i", "I", "İ", "ı", "K", "k", "K", "ſ"],
    ["α", "β", "a", "_", " ", "1"],
]
ODD_BYTES = [b"\0", b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xc0\xaf", b"\r"]
# A character and a pattern matching it under -i, for add_cut_shape.
CUT_CHARS = [("ς", "σ"), ("π", "Π"), ("ı", "I"), ("ⓐ", "Ⓐ"), ("𐐨", "𐐀"), ("é", "É")]
COLORS = ["ms=4", "sl=1:cx=2", "sl=1:cx=2:rv", "ne", "mt=7:fn=1:ln=2:bn=3:se=4", "ms=:mc=", "mc=5"]


# (flag, probability that a case has it), drawn in this order.
FLAG_ODDS = (("-i", .3), ("-w", .25), ("-x", .1), ("-v", .2), ("-c", .12),
             ("-o", .25), ("-n", .3), ("-b", .15), ("-l", .06), ("-L", .05),
             ("-q", .04), ("-z", .07), ("-a", .06), ("-T", .05))


def gen_word(rng, alpha, lo, hi):
    return "".join(rng.choice(alpha) for _ in range(rng.randint(lo, hi))).encode()


def gen_text(rng, alpha, odd):
    lines = []
    for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 12])):
        line = gen_word(rng, alpha, 0, rng.choice([4, 10, 20]))
        if odd and rng.random() < 0.3:
            pos = rng.randint(0, len(line))
            line = line[:pos] + rng.choice(ODD_BYTES) + line[pos:]
        lines.append(line)
    eol = b"\r\n" if rng.random() < 0.1 else b"\n"
    text = eol.join(lines)
    if lines and rng.random() < 0.7:
        text += eol
    return text


def add_cut_shape(rng, texts, pats):
    """-w -i over a character grep's retries cut: a line holding it (after
    a prefix Q, before a word character or not), a pattern Q+M matching
    Q and it under -i, and Q with a strict prefix of its bytes (under -w
    -i grep matches that where a retry cuts the character)."""
    c, m = rng.choice(CUT_CHARS)
    q = rng.choice(["", "", "a", "ab"])
    t = texts[0]
    if t and not t.endswith(b"\n"):
        t += b"\n"
    texts[0] = t + (q + c + rng.choice(["b", "", " ", "ab", c]) + "\n").encode()
    cb = c.encode()
    pats.append((q + m).encode())
    pats.append(q.encode() + cb[:rng.randint(1, len(cb) - 1)])


def gen_mail(rng, nfiles):
    """E-mail-like addresses, '@' two or more bytes from each end (the
    RARE path's window test is on), and lines holding them, near misses
    and other bytes around '@'."""
    part = lambda: gen_word(rng, ["a", "b", "A", ".", "-"], 2, 4)
    pats = [part() + b"@" + part() for _ in range(rng.choice([1, 2, 3, 5]))]
    texts = []
    for _ in range(nfiles):
        lines = []
        for _ in range(rng.choice([1, 2, 4, 8])):
            words = [rng.choice(pats) if rng.random() < 0.4 else
                     gen_word(rng, ["a", "b", "B", "@", ".", " ", "x"], 1, 8) for _ in range(rng.randint(1, 4))]
            lines.append(rng.choice([b" ", b"", b"<"]).join(words))
        texts.append(b"\n".join(lines) + b"\n")
    return texts, pats


def gen_case(seed, index):
    rng = random.Random("%s:%d" % (seed, index))
    alpha = rng.choice(ALPHABETS)
    odd = rng.random() < 0.15
    nfiles = rng.choice([1, 1, 1, 2, 3])
    texts = [gen_text(rng, alpha, odd) for _ in range(nfiles)]

    # patterns: random words, substrings of the text, empties, duplicates
    pats = []
    for _ in range(rng.choice([1, 1, 2, 3, 4, 6, 10])):
        r = rng.random()
        if r < 0.45 and any(texts):
            t = rng.choice([t for t in texts if t])
            a = rng.randint(0, len(t) - 1)
            p = t[a:a + rng.randint(1, 6)].split(b"\n")[0]
            if not p:
                p = gen_word(rng, alpha, 1, 3)
        elif r < 0.52:
            p = b""
        else:
            p = gen_word(rng, alpha, 1, 4)
        pats.append(p)
    if rng.random() < 0.15:
        pats.append(rng.choice(pats))
    # a side generator, so that every other case stays as it was
    side = random.Random("%s:%d:mail" % (seed, index))
    if side.random() < 0.06:
        texts, pats = gen_mail(side, len(texts))
    if odd and rng.random() < 0.2:
        pats.append(rng.choice(ODD_BYTES).replace(b"\0", b"\xff"))
    cut_shape = rng.random() < 0.05
    if cut_shape:
        add_cut_shape(rng, texts, pats)
    elif rng.random() < 0.04:
        pats = []  # empty pattern file

    units = []  # options, each a list of argv words
    for flag, probability in FLAG_ODDS:
        if rng.random() < probability:
            units.append([flag])
    if cut_shape:
        units += [u for u in (["-w"], ["-i"]) if u not in units]
    if rng.random() < 0.15:
        units.append(["-m", str(rng.choice([0, 1, 1, 2, 3]))])
    if rng.random() < 0.25:
        units.append([rng.choice(["-A", "-B", "-C"]), str(rng.choice([0, 1, 1, 2]))])
    if rng.random() < 0.2:
        units.append([rng.choice(["-h", "-H"])])
    env_extra = {}
    if rng.random() < 0.2:
        units.append(["--color=always"])
        if rng.random() < 0.3:
            env_extra["GREP_COLORS"] = rng.choice(COLORS)
    rng.shuffle(units)

    files = {}
    operands = []
    stdin = None
    use_stdin = rng.random() < 0.12
    for k, t in enumerate(texts):
        if use_stdin and k == 0:
            stdin = t
            if nfiles > 1 or rng.random() < 0.5:
                operands.append("-")
        else:
            name = "f%d" % (k + 1)
            files[name] = t
            operands.append(name)

    # how the patterns are given
    patargs = []
    mode = rng.random()
    if not pats or any(b"\0" in p for p in pats) or mode < 0.35:
        crlf = rng.random() < 0.08
        sep = b"\r\n" if crlf else b"\n"
        body = sep.join(pats)
        if pats and rng.random() < 0.7:
            body += sep
        files["pats"] = body
        patargs = ["-f", "pats"]
    elif mode < 0.75:
        for p in pats:
            patargs += ["-e", p]
    else:
        joined = b"\n".join(pats)
        if joined.startswith(b"-"):
            patargs = ["-e", joined]
        else:
            patargs = [joined]

    locale = rng.choice(["C", "C.UTF-8"])
    flat = lambda us: [w for u in us for w in u]
    r = rng.random()
    if patargs and patargs[0] not in ("-f", "-e") and r < 0.3:
        # a positional pattern behind "--"
        argv = flat(units) + ["--"] + patargs + operands
    elif r > 0.9 and operands and units:
        # some options after the operands (GNU argument permutation)
        cut = rng.randint(0, len(units) - 1)
        argv = flat(units[:cut]) + patargs + operands + flat(units[cut:])
    else:
        argv = flat(units) + patargs + operands
    return {
        "index": index, "locale": locale, "argv": argv, "files": files,
        "stdin": stdin, "env": env_extra, "readpath": rng.random(), "pats": pats,
    }


# ------------------------------------------------------------ running

def to_bytes(a):
    return a if isinstance(a, bytes) else a.encode()


NORM = [
    (re.compile(rb"^([^ :\n]*/)?(ac)?grep:", re.M), b"PROG:"),
    (re.compile(rb"^Usage: ([^ \n]*/)?(ac)?grep ", re.M), b"Usage: PROG "),
    (re.compile(rb"^Try '([^ \n]*/)?(ac)?grep --help'", re.M), b"Try 'PROG --help'"),
]


def norm_stderr(b):
    for rx, rep in NORM:
        b = rx.sub(rep, b)
    return b


def run_one(prog_argv, case, workdir):
    env = dict(BASE_ENV)
    env["LC_ALL"] = case["locale"]
    env.update(case["env"])
    stdin = subprocess.DEVNULL
    if case["stdin"] is not None:
        stdin = open(os.path.join(workdir, ".stdin"), "rb")
    try:
        r = subprocess.run([to_bytes(a) for a in prog_argv], cwd=workdir, env=env,
                           stdin=stdin, capture_output=True, timeout=TIMEOUT)
        return Run(r.returncode, r.stdout, r.stderr)
    except subprocess.TimeoutExpired:
        return Run("timeout", b"", b"")
    except OSError as e:
        return Run("oserror: %s" % e, b"", b"")
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()


def shell_quote_bytes(b):
    """Quote an argv word for bash ($'...' for anything unusual)."""
    b = to_bytes(b)
    if re.fullmatch(rb"[A-Za-z0-9_./=:,+@%-]+", b):
        return b.decode()
    out = []
    for c in b:
        ch = chr(c)
        if c < 32 or c >= 127 or ch in "'\\":
            out.append("\\%03o" % c)
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def printf_escape(b):
    out = []
    for c in b:
        ch = chr(c)
        if c < 32 or c >= 127 or ch in "'\\%":
            out.append("\\%03o" % c)
        else:
            out.append(ch)
    return "".join(out)


def hexdump(b):
    if not b:
        return "(empty)"
    return " ".join("%02x" % c for c in b)


def reproducer(case, variant_argv, seed):
    lines = []
    d = "/tmp/acgrep-diff-%s-%d" % (seed, case["index"])
    lines.append("  # re-run just this case: DIFF_SEED=%s DIFF_FIRST=%d DIFF_CASES=1 tests/diff/run.sh"
                 % (seed, case["index"]))
    lines.append("  mkdir -p %s && cd %s" % (d, d))
    for name, data in sorted(case["files"].items()):
        lines.append("  printf '%s' > %s" % (printf_escape(data), name))
    if case["stdin"] is not None:
        lines.append("  printf '%s' > .stdin" % printf_escape(case["stdin"]))
    envs = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted(case["env"].items()))
    cmd = "LC_ALL=%s %s%s" % (case["locale"], envs + " " if envs else "",
                               " ".join(shell_quote_bytes(a) for a in variant_argv))
    cmd += " < .stdin" if case["stdin"] is not None else " < /dev/null"
    lines.append("  " + cmd)
    lines.append("  files (hex):")
    for name, data in sorted(case["files"].items()):
        lines.append("    %s: %s" % (name, hexdump(data)))
    if case["stdin"] is not None:
        lines.append("    .stdin: %s" % hexdump(case["stdin"]))
    return "\n".join(lines)


def case_patterns(case):
    """The pattern byte strings of a case, each split on newline as grep does."""
    return [q for p in case["pats"] for q in to_bytes(p).split(b"\n")]


def valid_utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


_LIBC = None


def folds_to_other_length(data):
    """Does data hold a character whose towupper in C.UTF-8 (glibc's, as
    grep's regex matcher uses) has another UTF-8 length, such as ı or ſ?"""
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(ctypes.util.find_library("c"))
        _LIBC.setlocale(6, b"C.UTF-8")  # LC_ALL
        _LIBC.towupper.restype = ctypes.c_uint32
        _LIBC.towupper.argtypes = [ctypes.c_uint32]
    text = data.decode("utf-8", errors="ignore")
    return any(len(chr(_LIBC.towupper(ord(c))).encode("utf-8", errors="surrogatepass"))
               != len(c.encode("utf-8")) for c in set(text) if ord(c) >= 0x80)


def known_divergence(case, vname):
    """Why this variant of this case is not compared, or None.  Each reason
    is a documented difference (DESIGN.md, "Known differences")."""
    argv = [to_bytes(a) for a in case["argv"]]
    if (b"-z" in argv and vname in ("readpath", "threads", "pcre2")
            and any(b"\0" in p for p in case_patterns(case))):
        return "a match across records: cut by tiny reads; PCRE2 drops such patterns"
    if case["locale"] != "C.UTF-8":
        return None
    icase = any(a.startswith(b"-") and not a.startswith(b"--") and b"i" in a for a in argv
                if a not in (b"-e", b"-f"))
    pats = case_patterns(case)
    invalid = any(not valid_utf8(p) for p in pats)
    if invalid and not icase and (b"-o" in argv or b"--color=always" in argv):
        return "grep's regex matcher on an invalid UTF-8 pattern"
    if icase and any(p[:1] and 0x80 <= p[0] < 0xC0 for p in pats):
        data = b"".join(case["files"].values()) + (case["stdin"] or b"")
        if folds_to_other_length(data):
            return "glibc's regex may start a match inside a character folding to another length"
    if vname in ("readpath", "threads") and (b"-A" in argv or b"-C" in argv) and b"-a" not in argv:
        data = b"".join(case["files"].values()) + (case["stdin"] or b"")
        if any(not valid_utf8(line) for line in data.split(b"\n")):
            return "after a suppressed line, grep resumes context within its buffer"
    if vname == "pcre2" and icase:
        data = b"".join(case["files"].values()) + (case["stdin"] or b"")
        if any(c >= 0x80 for c in data):
            return "PCRE2 folds case with Unicode's tables"
    return None


def check_case(case, variants, seed, tmproot):
    workdir = tempfile.mkdtemp(prefix="c%d-" % case["index"], dir=tmproot)
    try:
        for name, data in case["files"].items():
            with open(os.path.join(workdir, name), "wb") as f:
                f.write(data)
        if case["stdin"] is not None:
            with open(os.path.join(workdir, ".stdin"), "wb") as f:
                f.write(case["stdin"])
        g = run_one([GREP, "-F"] + case["argv"], case, workdir)
        problems = []
        for v in variants:
            if v.readpath_subset_only and case["readpath"] >= READPATH_FRACTION:
                continue
            if known_divergence(case, v.name):
                continue
            argv = v.argv + ["-F"] + case["argv"]
            a = run_one(argv, case, workdir)
            what = []
            if a.stdout != g.stdout:
                what.append("stdout differs")
            if a.status != g.status:
                what.append("status %s, grep %s" % (a.status, g.status))
            if COMPARE_STDERR and norm_stderr(a.stderr) != norm_stderr(g.stderr):
                what.append("stderr differs")
            if what:
                problems.append(Problem(v.name, argv, what, a))
        return case, g, problems
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    global BASE_ENV, COMPARE_STDERR, READPATH_FRACTION
    ncases = int(os.environ.get("DIFF_CASES", "2000"))
    first = int(os.environ.get("DIFF_FIRST", "0"))
    seed = os.environ.get("DIFF_SEED") or str(random.SystemRandom().randrange(1, 10**9))
    jobs = int(os.environ.get("DIFF_JOBS", "0") or 0) or (os.cpu_count() or 2)
    COMPARE_STDERR = os.environ.get("DIFF_STDERR", "1") != "0"
    READPATH_FRACTION = float(os.environ.get("DIFF_READPATH", "0.25"))
    max_reports = int(os.environ.get("DIFF_MAX_REPORTS", "30"))
    verbose = os.environ.get("DIFF_VERBOSE", "0") == "1"

    BASE_ENV = {k: v for k, v in os.environ.items()
                if not (k.startswith("LC_") or k in ("LANG", "LANGUAGE", "GREP_COLORS", "GREP_COLOR",
                                                      "GREP_OPTIONS", "NO_COLOR", "POSIXLY_CORRECT"))}
    BASE_ENV["TERM"] = "dumb"

    if not (os.path.isfile(ACGREP) and os.access(ACGREP, os.X_OK)):
        print("diff: binary under test not found: %s (run make, or set ACGREP)" % ACGREP)
        print("0 passed, 0 failed")
        return 2
    if not os.access(GREP, os.X_OK):
        print("diff: oracle not found: %s" % GREP)
        print("0 passed, 0 failed")
        return 2

    variants = [Variant("default", [ACGREP], readpath_subset_only=False)]
    self_test = is_grep(ACGREP)
    if not self_test:
        if has_pcre2(ACGREP):
            variants.append(Variant("pcre2", [ACGREP, "--engine=pcre2"], readpath_subset_only=False))
        elif os.environ.get("ACGREP_PCRE2", "yes") != "no":
            print("diff: %s has no --engine=pcre2 (set ACGREP_PCRE2=no for a build without PCRE2)" % ACGREP)
            print("0 passed, 0 failed")
            return 2
        variants.append(Variant("readpath", [ACGREP, "--no-mmap", "--buffer-size=1"],
                                readpath_subset_only=True))
        variants.append(Variant("scalar", [ACGREP, "--simd=scalar"], readpath_subset_only=True))
        variants.append(Variant("hash", [ACGREP, "--scan-path=hash"], readpath_subset_only=True))
        variants.append(Variant("hash-ssse3", [ACGREP, "--scan-path=hash", "--simd=ssse3"],
                                readpath_subset_only=True))
        variants.append(Variant("rare", [ACGREP, "--scan-path=rare"], readpath_subset_only=True))
        # worker threads, every file cut into segments of a few bytes (cuts
        # fall where read() windows start: reads of 5 bytes)
        variants.append(Variant("threads", [ACGREP, "--threads=3", "--segment-size=7", "--buffer-size=5"],
                                readpath_subset_only=False))
    print("diff: seed=%s cases=%d first=%d jobs=%d acgrep=%s variants=%s%s" % (
        seed, ncases, first, jobs, ACGREP, ",".join(v.name for v in variants),
        " (ACGREP is GNU grep: self-test)" if self_test else ""))
    sys.stdout.flush()

    passed = failed = reported = 0
    lock = threading.Lock()
    tmproot = tempfile.mkdtemp(prefix="acgrep-diff-")
    try:
        cases = (gen_case(seed, i) for i in range(first, first + ncases))
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            pending = set()
            results = []

            def drain(block):
                nonlocal pending
                if not pending:
                    return
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED if block else concurrent.futures.ALL_COMPLETED)
                results.extend(f.result() for f in done)

            for case in cases:
                pending.add(ex.submit(check_case, case, variants, seed, tmproot))
                if len(pending) >= jobs * 4:
                    drain(True)
            drain(False)

        for case, g, problems in sorted(results, key=lambda r: r[0]["index"]):
            if verbose:
                print("case %d: LC_ALL=%s grep -F %s" % (case["index"], case["locale"],
                      " ".join(shell_quote_bytes(a) for a in case["argv"])))
            if not problems:
                passed += 1
                continue
            failed += 1
            with lock:
                for p in problems:
                    a = p.run
                    print("FAIL case %d [variant %s, LC_ALL=%s]: %s" % (
                        case["index"], p.variant, case["locale"], "; ".join(p.what)))
                    if reported < max_reports:
                        reported += 1
                        print(reproducer(case, p.argv, seed))
                        print("  grep   -> status %s\n    stdout: %s\n    stderr: %r" % (g.status, hexdump(g.stdout), g.stderr))
                        print("  acgrep -> status %s\n    stdout: %s\n    stderr: %r" % (a.status, hexdump(a.stdout), a.stderr))
                        print("  (same, as text) grep: %r\n                acgrep: %r" % (g.stdout[:400], a.stdout[:400]))
                sys.stdout.flush()
    finally:
        shutil.rmtree(tmproot, ignore_errors=True)

    if failed:
        print("diff: seed=%s; re-run with DIFF_SEED=%s" % (seed, seed))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
