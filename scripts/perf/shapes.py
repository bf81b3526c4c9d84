#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""shapes.py - pattern sets of one shape and a given size, for huge.sh.

Usage: shapes.py SHAPE BYTES OUT

Writes to OUT a pattern list (one pattern a line, lower-case ASCII letters
only) of about BYTES bytes in all, the same bytes on every run (a fixed
seed).  Each line of OUT, searched in OUT itself, matches with and without
-i, -w and -x, so `acgrep -c -F -f OUT OUT` counts the lines of OUT.

Shapes (the ones a compile must stay linear on):
  rand      one pattern of random letters
  aaaa      one pattern of one repeated byte
  abab      one pattern of period 2
  period    one pattern of period 4093 (a random block repeated)
  tree      patterns of 4,096 letters, each sharing a prefix of random
            length with the one before (a deep, branching trie)
  lastbyte  patterns of 4,096 letters, all alike but their last 3
  suffixes  a random string and all of its suffixes (each pattern is a
            suffix of the ones before: long failure and output chains)
  akb       b, ab, aab, aaab, ... (suffixes of each other, periodic)
"""
import random
import sys

LETTERS = bytes(range(ord('a'), ord('z') + 1))
TO_LETTER = bytes(LETTERS[b % 26] for b in range(256))


def letters(rng, n):
    return rng.randbytes(n).translate(TO_LETTER)


def shape(name, size, rng):
    if name == 'rand':
        return [letters(rng, size)]
    if name == 'aaaa':
        return [b'a' * size]
    if name == 'abab':
        return [(b'ab' * (size // 2 + 1))[:size]]
    if name == 'period':
        block = letters(rng, 4093)
        return [(block * (size // len(block) + 1))[:size]]
    if name == 'tree':
        lines, prev = [], letters(rng, 4096)
        for _ in range(max(1, size // 4097)):
            keep = rng.randrange(4096)
            prev = prev[:keep] + letters(rng, 4096 - keep)
            lines.append(prev)
        return lines
    if name == 'lastbyte':
        stem = letters(rng, 4093)
        return [stem + letters(rng, 3) for _ in range(max(1, size // 4097))]
    if name == 'suffixes':
        n = 1
        while (n + 1) * (n + 2) // 2 + n + 1 <= size:
            n += 1
        s = letters(rng, n)
        return [s[i:] for i in range(n)]
    if name == 'akb':
        k = 0
        while (k + 2) * (k + 3) // 2 + k + 2 <= size:
            k += 1
        return [b'a' * i + b'b' for i in range(k + 1)]
    raise SystemExit('shapes.py: unknown shape ' + name)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.split('\n\n')[1])
    name, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = shape(name, size, random.Random(20261201))
    with open(out, 'wb') as f:
        f.write(b''.join(line + b'\n' for line in lines))


main()
