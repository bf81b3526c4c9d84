#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""latency.py - how long a line written to a pipe takes to come out.

Feeds CMD (default: ./acgrep --line-buffered -F foo) a non-matching and a
matching line every 20 ms through a pipe, and times each matching line from
its write to its arrival on CMD's stdout; prints the median and the worst of
N lines (default 50) for each command given, side by side.

Usage: scripts/perf/latency.py [-n N] [-- CMD...] [-- CMD...]
Expected: every command prints all N lines ("lines N/N").
"""
import subprocess
import sys
import time


def measure(cmd, n):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    lat = []
    for i in range(n):
        t = time.monotonic()
        p.stdin.write(b"noise line %d\nhit %d foo\n" % (i, i))
        line = p.stdout.readline()
        if line != b"hit %d foo\n" % i:
            break
        lat.append((time.monotonic() - t) * 1000)
        time.sleep(0.02)
    p.stdin.close()
    p.wait()
    lat.sort()
    med = lat[len(lat) // 2] if lat else float("nan")
    worst = lat[-1] if lat else float("nan")
    print("%-60s lines %d/%d  median %.2f ms  worst %.2f ms" % (" ".join(cmd), len(lat), n, med, worst))


def main(argv):
    n = 50
    if len(argv) >= 2 and argv[0] == "-n":
        n = int(argv[1])
        argv = argv[2:]
    cmds, cur = [], None
    for a in argv:
        if a == "--":
            cur = []
            cmds.append(cur)
        elif cur is not None:
            cur.append(a)
    if not cmds:
        cmds = [["./acgrep", "--line-buffered", "-F", "foo"],
                ["./acgrep", "--threads=1", "--line-buffered", "-F", "foo"],
                ["grep", "--line-buffered", "-F", "foo"]]
    for c in cmds:
        measure(c, n)


if __name__ == "__main__":
    main(sys.argv[1:])
