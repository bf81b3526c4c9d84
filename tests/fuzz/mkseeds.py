#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mkseeds.py - seed corpora for the fuzz targets, from the bats CLI tests.

Owns: reading tests/cli/*.bats for each test's fixtures (`fixture NAME
'printf format'`) and acgrep command lines (`same_as_grep ARGS`, `expect N
'OUT' -- ARGS`), and writing from them small seed files:
  corpus/matcher/  the patterns, text and -i/-w/-x/-z of each command line,
                   in fuzz_matcher's layout (fuzz_format.h);
  corpus/patfile/  each pattern-file fixture, as fuzz_patfile reads it;
  corpus/opts/     each command line, as fuzz_opts decodes argv;
  corpus/cli/      the patterns, text and options of each command line, in
                   fuzz_cli's layout (its file-top comment).
Files are named by a hash of their contents, so rerunning adds only new
ones.  Usage: tests/fuzz/mkseeds.py [REPO_ROOT]
"""
import hashlib
import os
import re
import shlex
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
MAX_SEED = 2048  # bytes: the committed seeds stay small

# fuzz_format.h
ICASE, WORD, LINE, NULL_DATA, NUL_ENDS_LINES, KWSET, UTF8, THREADS = (1 << i for i in range(8))


def printf_bytes(fmt):
    """What bash's printf makes of a format without conversions."""
    out = bytearray()
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and fmt[i + 1:i + 2] == "%":
            out += b"%"
            i += 2
            continue
        if c == "%":
            raise ValueError("conversion")
        if c != "\\" or i + 1 == len(fmt):
            out += c.encode("utf-8")
            i += 1
            continue
        n = fmt[i + 1]
        simple = {"n": 10, "t": 9, "r": 13, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27,
                  '"': 34, "'": 39}
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", fmt[i + 2:])
            if not m:
                raise ValueError("\\x")
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", fmt[i + 1:])
            out.append(int(m.group(0), 8) & 255)
            i += 1 + len(m.group(0))
        else:
            out += b"\\" + n.encode("utf-8")
            i += 2
    return bytes(out)


def write(kind, data):
    if len(data) > MAX_SEED:
        return
    d = os.path.join(OUT, kind)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


SHORT_WITH_ARG = set("ABCDdefm")
LONG_WITH_ARG = {"--regexp": "e", "--file": "f", "--after-context": "A", "--before-context": "B",
                 "--context": "C", "--max-count": "m", "--label": None, "--group-separator": None,
                 "--binary-files": None, "--devices": "D", "--directories": "d", "--include": None,
                 "--exclude": None, "--exclude-dir": None, "--exclude-from": None, "--engine": None,
                 "--buffer-size": None, "--scan-path": None, "--simd": None, "--threads": None,
                 "--segment-size": None}
FLAG_LONG = {"--ignore-case": "i", "--word-regexp": "w", "--line-regexp": "x", "--null-data": "z"}


def parse_args(args):
    """Flags, -e patterns, -f files and operands of an acgrep command line."""
    flags, pats, files, operands = set(), [], [], []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            operands += args[i:]
            break
        if a.startswith("--"):
            name, eq, val = a.partition("=")
            if name in FLAG_LONG:
                flags.add(FLAG_LONG[name])
            elif name in LONG_WITH_ARG:
                if not eq and i < len(args):
                    val = args[i]
                    i += 1
                if LONG_WITH_ARG[name] == "e":
                    pats.append(val)
                elif LONG_WITH_ARG[name] == "f":
                    files.append(val)
            continue
        if a.startswith("-") and len(a) > 1:
            k = 1
            while k < len(a):
                c = a[k]
                k += 1
                if c in SHORT_WITH_ARG:
                    val = a[k:] if k < len(a) else (args[i] if i < len(args) else "")
                    if k == len(a):
                        i += 1
                    if c == "e":
                        pats.append(val)
                    elif c == "f":
                        files.append(val)
                    break
                flags.add(c)
            continue
        operands.append(a)
    if not pats and not files and operands:
        pats.append(operands.pop(0))
    return flags, pats, files, operands


def matcher_seed(flags, patterns, text):
    eol = b"\0" if "z" in flags else b"\n"
    opt = (ICASE if "i" in flags or "y" in flags else 0) | (WORD if "w" in flags else 0) | \
          (LINE if "x" in flags else 0) | (NULL_DATA if "z" in flags else 0)
    if "a" not in flags and "z" not in flags:
        opt |= NUL_ENDS_LINES
    # grep's kwset rules unless -w with one distinct pattern (main.c)
    if not ("w" in flags and len(set(patterns)) == 1):
        opt |= KWSET
    section = eol.join(patterns)
    if len(section) > 1023:
        return
    seed = len(text) & 63
    header = bytes([opt, 0, len(section) & 255, (len(section) >> 8) | seed << 2])
    write("matcher", header + section + text)


CLI_FLAGS = [("i", "w", "x", "z", "v", "c", "o", "count-matches"), ("n", "b", "a")]


def cli_seed(flags, long_opts, patterns, text):
    a = 0
    for k, f in enumerate(CLI_FLAGS[0]):
        if f in flags or f in long_opts:
            a |= 1 << k
    b = 0
    for k, f in enumerate(CLI_FLAGS[1]):
        if f in flags:
            b |= 1 << k
    c = 0
    for k, f in enumerate(("color=always", "T", "I", "l", "L", "Z")):
        if f in flags or f in long_opts:
            c |= 4 << k
    pat_file = b"\n".join(patterns) + b"\n" if patterns else b""
    if len(pat_file) > 1023:
        return
    header = bytes([a, b, len(pat_file) & 255, c | len(pat_file) >> 8])
    write("cli", header + pat_file + text)


def main():
    cli = os.path.join(ROOT, "tests", "cli")
    for name in sorted(os.listdir(cli)):
        if not name.endswith(".bats"):
            continue
        fixtures = {}
        for line in open(os.path.join(cli, name), encoding="utf-8"):
            line = line.strip()
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            if len(words) == 3 and words[0] == "fixture":
                try:
                    fixtures[words[1]] = printf_bytes(words[2])
                except (ValueError, AttributeError):
                    pass
                continue
            if line.startswith("@test"):
                fixtures = {}
                continue
            if "same_as_grep" in words:
                args = words[words.index("same_as_grep") + 1:]
            elif "expect" in words and "--" in words:
                args = words[words.index("--") + 1:]
            else:
                continue
            if any("$" in a for a in args):
                continue
            flags, pats, files, operands = parse_args(args)
            write("opts", b"\0" + b"\0".join(a.replace("/", "_").encode("utf-8") for a in args))
            patterns = [p.encode("utf-8") for p in pats]
            for f in files:
                if f in fixtures:
                    body = fixtures[f]
                    write("patfile", bytes([0]) + body)
                    if body.endswith(b"\n"):
                        body = body[:-1]
                    patterns += body.split(b"\n") if body else []
            if any(f not in fixtures for f in files):
                continue
            split = []
            for p in patterns:
                split += p.split(b"\n")
            long_opts = {a[2:] for a in args if a.startswith("--")}
            for op in operands:
                if op in fixtures:
                    matcher_seed(flags, split, fixtures[op])
                    cli_seed(flags, long_opts, split, fixtures[op])


if __name__ == "__main__":
    main()
