#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench.py - the acgrep module against pyahocorasick: build time and scan
time for 100, 1,000 and 100,000 words, plain (leftmost-longest), -i and
overlapping.

Usage: PYTHONPATH=build/python/lib python3 python/bench.py [--mb 64] [--runs 5]

Inputs: the project's corpus where scripts/perf/corpus.sh --quick built it
($ACGREP_BENCH_DIR, default ~/.cache/acgrep-bench): the first --mb MiB of
english.txt (real English text) and the sets pat/words100.txt,
pat/words1k.txt and pat/dict100k.txt.  Elsewhere: a text of --mb MiB of
/usr/share/dict/words' ASCII words (or made-up ones) chosen with a fixed
seed, and sets sampled from the same words.  Both tools see the same
bytes: acgrep a bytes object, pyahocorasick its Latin-1 decoding (one
character per byte, its fastest str), patterns alike.  Each scan time is
the median of --runs runs, in seconds of wall time or, with --clock cpu,
of the process's CPU time (steadier on a loaded machine).  The two tools
build a set in turns, at least --runs turns and as many more as fill
BUILD_SECONDS (up to MAX_BUILD_TURNS): a small set builds in tens of
microseconds, where a median of 5 is noise.  Scan time counts the matches: acgrep's Set.count,
and for pyahocorasick a loop over its iterator (it has no other way to
count).
The rows, by pyahocorasick's closest equivalent:
  plain:       Set(words)                  / Automaton.iter_long (longest, non-overlapping)
  -i:          Set(words, ignore_case=...) / lower-cased words, iter_long over text.lower()
                                             (the lower() is part of its scan time)
  overlapping: Set(words, overlapping=True) / Automaton.iter
"""
import argparse
import importlib.metadata
import os
import platform
import random
import statistics
import string
import sys
import time

# this script's folder holds acgrep's sources, not the built module
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import acgrep  # noqa: E402

try:
    import ahocorasick
except ImportError:
    sys.exit("bench.py: pyahocorasick is missing (Debian: apt-get install python3-ahocorasick)")


def dictionary(rng):
    path = "/usr/share/dict/words"
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            words = sorted({w for w in f.read().split() if w.isascii() and w.isalpha()})
        if len(words) >= 200_000:
            return words, path
    made = {"".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 12)))
            for _ in range(300_000)}
    return sorted(made), "made-up words (seed 1)"


def make_text(rng, words, mib):
    out, size, want = [], 0, mib << 20
    while size < want:
        line = " ".join(rng.choices(words, k=12))
        out.append(line)
        size += len(line) + 1
    return ("\n".join(out) + "\n")[:want]


def corpus_inputs(mib):
    """(text bytes, {size: patterns}, description) from the project's
    corpus, or None where it was not built."""
    d = os.environ.get("ACGREP_BENCH_DIR") or os.path.expanduser("~/.cache/acgrep-bench")
    names = {100: "words100.txt", 1000: "words1k.txt", 100_000: "dict100k.txt"}
    paths = [os.path.join(d, "english.txt")] + [os.path.join(d, "pat", n) for n in names.values()]
    if not all(os.path.exists(p) for p in paths):
        return None
    with open(paths[0], "rb") as f:
        text = f.read(mib << 20)
    sets = {}
    for n, name in names.items():
        with open(os.path.join(d, "pat", name), "rb") as f:
            sets[n] = [w for w in f.read().split(b"\n") if w]
    return text, sets, "%s (english.txt, %s)" % (d, ", ".join(names.values()))


def generated_inputs(mib, sizes):
    rng = random.Random(1)
    words, source = dictionary(rng)
    text = make_text(rng, words, mib).encode()
    sets = {n: [w.encode() for w in random.Random(n).sample(words, n)] for n in sizes}
    return text, sets, "%s (%d words), sampled" % (source, len(words))


CLOCK = time.perf_counter
BUILD_SECONDS = 0.5
MAX_BUILD_TURNS = 1001


def median_time(fn, runs):
    times, result = [], None
    for _ in range(runs):
        t = CLOCK()
        result = fn()
        times.append(CLOCK() - t)
    return statistics.median(times), result


def paired_builds(ours, theirs, runs):
    """Median build times of ours() and theirs(), built in turns: a build
    of a small set takes tens of microseconds, so there are at least
    `runs` turns and as many more as fill BUILD_SECONDS."""
    first_ours, built = median_time(ours, 1)
    first_theirs, other = median_time(theirs, 1)
    turns = max(runs, min(MAX_BUILD_TURNS, int(BUILD_SECONDS / max(first_ours + first_theirs, 1e-6))))
    ours_times, theirs_times = [], []
    for _ in range(turns):
        ours_times.append(median_time(ours, 1)[0])
        theirs_times.append(median_time(theirs, 1)[0])
    return statistics.median(ours_times), built, statistics.median(theirs_times), other


def aho_version():
    try:
        return importlib.metadata.version("pyahocorasick")
    except importlib.metadata.PackageNotFoundError:
        return getattr(ahocorasick, "__version__", "?")


def aho_build(words):
    a = ahocorasick.Automaton()
    for i, w in enumerate(words):
        a.add_word(w, i)
    a.make_automaton()
    return a


def aho_count(auto, text, method):
    n = 0
    for _ in getattr(auto, method)(text):
        n += 1
    return n


def row(name, words, text, runs):
    """words: bytes; text: bytes.  pyahocorasick gets both as Latin-1 str."""
    fold = name == "-i"
    over = name == "overlapping"
    kw = {"ignore_case": "ascii" if fold else False, "overlapping": over}
    aho_words = [w.decode("latin-1") for w in words]
    if fold:
        aho_words = sorted({w.lower() for w in aho_words})
    ac_build, s, py_build, a = paired_builds(lambda: acgrep.Set(words, **kw),
                                             lambda: aho_build(aho_words), runs)
    ac_scan, ac_n = median_time(lambda: s.count(text), runs)
    latin = text.decode("latin-1")
    method = "iter" if over else "iter_long"
    scan = (lambda: aho_count(a, latin.lower(), method)) if fold else \
        (lambda: aho_count(a, latin, method))
    py_scan, py_n = median_time(scan, runs)
    return (len(words), name, ac_build, py_build, ac_scan, py_scan, ac_n, py_n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=int, default=64, help="text size in MiB (default 64)")
    ap.add_argument("--runs", type=int, default=5, help="runs per time (median; default 5)")
    ap.add_argument("--sizes", default="100,1000,100000", help="set sizes (default 100,1000,100000)")
    ap.add_argument("--generated", action="store_true", help="generated inputs, not the corpus")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="what is timed (default wall)")
    args = ap.parse_args()
    global CLOCK  # pylint: disable=global-statement
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    sizes = [int(x) for x in args.sizes.split(",")]
    got = None if args.generated else corpus_inputs(args.mb)
    text, sets, source = got if got and all(n in got[1] for n in sizes) else \
        generated_inputs(args.mb, sizes)
    print("# inputs: %s; text: %.1f MiB; scans: median of %d runs; builds: median of "
          "as many turns (at least %d, up to %d) as fill %.1f s; %s time" % (
              source, len(text) / 2**20, args.runs, args.runs, MAX_BUILD_TURNS,
              BUILD_SECONDS, args.clock))
    print("# %s, Python %s, acgrep %s, pyahocorasick %s" % (
        platform.processor() or platform.machine(), platform.python_version(),
        acgrep.__version__, aho_version()))
    print("| words | mode | build acgrep | build pyahocorasick | scan acgrep | "
          "scan pyahocorasick | scan speed-up | matches acgrep | matches pyahocorasick |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        for name in ("plain", "-i", "overlapping"):
            r = row(name, sets[n], text, args.runs)
            print("| %d | %s | %.3f ms | %.3f ms | %.3f s | %.3f s | %.1fx | %d | %d |" % (
                r[0], r[1], r[2] * 1e3, r[3] * 1e3, r[4], r[5], r[5] / r[4], r[6], r[7]),
                flush=True)


if __name__ == "__main__":
    main()
