#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""inputs.py - the regression gate's inputs (tests/gate/run.sh), written
into DIR: the same bytes on every machine and Python version (a fixed
linear congruential generator, no `random`), so that the gate's
instruction and system call counts depend on acgrep alone.

    xx.txt       2,000,000 bytes of "x", one line, no newline (the xx|ab
                 workload: long enough to cross the read() path's switch to
                 a mapping at 256 KiB)
    lines.txt    ~1 MB of short lines of words, some with UTF-8 letters
    words10.txt  10 patterns (Teddy's size), words1k.txt 1,000 (HASH's)
    tree/        40 files of ~6 KB in 4 directories, for -r
Usage: inputs.py DIR
"""
import os
import sys

SYLLABLES = ["ka", "ro", "mi", "sen", "tal", "vo", "qu", "ex", "dri", "lon",
             "pa", "zu", "ber", "gi", "nor", "th", "wy", "ça", "ßo", "él"]


class Lcg:
    """Numerical Recipes' 32-bit LCG: the same stream everywhere."""

    def __init__(self, seed):
        self.x = seed

    def next(self, n):
        self.x = (self.x * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.x >> 8) % n


def word(rng):
    return "".join(SYLLABLES[rng.next(len(SYLLABLES))] for _ in range(1 + rng.next(3)))


def text_lines(rng, size):
    out, total = [], 0
    while total < size:
        line = " ".join(word(rng) for _ in range(1 + rng.next(12)))
        out.append(line)
        total += len(line.encode()) + 1
    return "\n".join(out) + "\n"


def write(path, text):
    data = text.encode() if isinstance(text, str) else text
    with open(path, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[-1])
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    write(os.path.join(d, "xx.txt"), b"x" * 2_000_000)
    rng = Lcg(20261201)
    write(os.path.join(d, "lines.txt"), text_lines(rng, 1_000_000))
    seen, words = set(), []
    while len(words) < 1000:
        w = word(rng) + word(rng)
        if w not in seen:
            seen.add(w)
            words.append(w)
    write(os.path.join(d, "words1k.txt"), "\n".join(words) + "\n")
    write(os.path.join(d, "words10.txt"), "\n".join(["kasen", "drilon", "zuber", "ÉLÇA", "norvo",
                                                      "quex", "wyth", "talmi", "gipa", "ßoka"]) + "\n")
    for i in range(40):
        sub = os.path.join(d, "tree", "d%d" % (i % 4))
        os.makedirs(sub, exist_ok=True)
        write(os.path.join(sub, "f%02d.txt" % i), text_lines(rng, 6000))
    # e-mail addresses (every pattern holds '@': the RARE prefilter's
    # shape), and a log where one line in 50 holds one, the rest prose
    mails = sorted({"%s.%s@%s.example" % (word(rng), word(rng), word(rng)) for _ in range(500)})
    write(os.path.join(d, "mails.txt"), "\n".join(mails) + "\n")
    log, total = [], 0
    while total < 1_000_000:
        line = " ".join(word(rng) for _ in range(1 + rng.next(12)))
        if rng.next(50) == 0:
            line += " from <%s>" % (mails[rng.next(len(mails))] if rng.next(2) else "nobody@nowhere.example")
        log.append(line)
        total += len(line) + 1
    write(os.path.join(d, "mail.log"), "\n".join(log) + "\n")


if __name__ == "__main__":
    main()
