#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""count_memo.py - a large set's --count-matches, two acgrep builds side by side.

Usage: scripts/perf/count_memo.py [--runs N] [--locale L] BEFORE AFTER

`acgrep --count-matches -F -f dict100k.txt` (the corpus' 100,000 words,
scripts/perf/corpus.sh) over 32 MiB each of english.txt, of dict100k's own
words drawn uniformly (about half the runs repeat) and of random 3-10
letter words (the memo is given up), plain and -i, with --threads=1 and
the default; BEFORE and AFTER run in turn, N rounds (default 5), outputs
to files and compared (the same counts, or it stops).  Prints a markdown
row per workload: the count, median wall / CPU seconds of each build and
AFTER's wall over BEFORE's.  The texts are made with fixed seeds in the
corpus folder.  --locale sets LC_ALL (default: the caller's).
"""
import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time

BENCH = os.environ.get("ACGREP_BENCH_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "acgrep-bench")
MIB32 = 32 << 20


def make_text(path, words, seed):
    """32 MiB of lines of ten words drawn from `words` (None: random 3-10 letters)."""
    if os.path.exists(path):
        return
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    lines, size = [], 0
    while size < MIB32:
        if words:
            line = " ".join(rng.choice(words) for _ in range(10))
        else:
            line = " ".join("".join(rng.choice(letters) for _ in range(rng.randint(3, 10)))
                            for _ in range(10))
        lines.append(line)
        size += len(line) + 1
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def timed(cmd, out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "w") as f:
        subprocess.run(cmd, stdout=f, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--locale")
    ap.add_argument("before")
    ap.add_argument("after")
    a = ap.parse_args()
    if a.locale:
        os.environ["LC_ALL"] = a.locale
    pats = os.path.join(BENCH, "pat", "dict100k.txt")
    english = os.path.join(BENCH, "english-32M.txt")
    if not os.path.exists(pats) or not os.path.exists(english):
        sys.exit("count_memo.py: run scripts/perf/corpus.sh first (%s)" % BENCH)
    with open(pats) as f:
        words = [w.strip() for w in f if w.strip()]
    texts = {"english.txt": english,
             "dict100k's words drawn uniformly": os.path.join(BENCH, "count-memo-uniform.txt"),
             "random 3-10 letter words": os.path.join(BENCH, "count-memo-random.txt")}
    make_text(texts["dict100k's words drawn uniformly"], words, 5)
    make_text(texts["random 3-10 letter words"], None, 6)
    builds = {"before": a.before, "after": a.after}
    rows = [(t, m, th) for t in texts for m in ("", "-i") for th in ("--threads=1", "")]
    times, counts = {}, {}
    outs = {b: os.path.join(BENCH, "count-memo-%s.out" % b) for b in builds}
    for _ in range(a.runs):
        for text, mode, threads in rows:
            got = {}
            for b, binary in builds.items():
                cmd = [binary, "--count-matches", "-F", "-f", pats] + mode.split() + threads.split()
                times.setdefault((text, mode, threads, b), []).append(timed(cmd + [texts[text]], outs[b]))
                with open(outs[b]) as f:
                    got[b] = f.read().strip()
            if got["before"] != got["after"]:
                sys.exit("count_memo.py: %s %s %s: counts %s and %s differ"
                         % (text, mode, threads, got["before"], got["after"]))
            counts[(text, mode, threads)] = got["after"]
    print("| text (32 MiB) | options | matches | before wall / CPU s | after wall / CPU s | after / before |")
    print("|---|---|---:|---|---|---:|")
    for text, mode, threads in rows:
        med = {}
        for b in builds:
            v = times[(text, mode, threads, b)]
            med[b] = (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        print("| %s | %s | %s | %.3f / %.3f | %.3f / %.3f | %.2f |" % (
            text, " ".join(filter(None, [mode, threads])) or "default threads",
            counts[(text, mode, threads)], *med["before"], *med["after"],
            med["after"][0] / med["before"][0]))


if __name__ == "__main__":
    main()
