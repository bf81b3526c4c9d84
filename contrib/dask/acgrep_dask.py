#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""acgrep_dask - acgrep over a Dask cluster, with one run's output.

Splits each file into byte ranges (``acgrep --ranges=N``), runs
``acgrep --records --range=START:END OPTIONS FILE`` for every range on the
cluster's workers (dask.distributed), and merges the record streams, in
file and range order, with ``acgrep --merge OPTIONS``: the bytes on stdout,
the messages on stderr and the exit status are those of ``acgrep OPTIONS
FILE...`` on one machine.  The workers must see the files and the pattern
list at the same paths (a shared file system) and have acgrep.  Jobs run
in the client's working directory (relative names mean what they mean to
one run, and are printed as given) and with its locale variables.  A file
with a NUL byte in some range is searched again whole (ranges of a binary
file cannot be merged); a job that fails (a pattern file missing, ...)
ends the search with its messages and exit status 2.

Usage:
    acgrep_dask.py [--scheduler ADDRESS | --local WORKERS] [--ranges N]
                   [--acgrep PATH] OPTION... -- FILE...

OPTION... is acgrep's command line without its files (patterns included,
e.g. ``-n -C 2 -f iocs.txt``).  --scheduler names a running scheduler
(tcp://host:8786); --local starts a LocalCluster of WORKERS workers on
this machine (the default, 2).  --ranges cuts every file into N ranges
(default: 4 per worker).

As a module: ``search(client, options, files, ranges, acgrep)`` returns
(stdout bytes, stderr bytes, exit status); ``find_matches(client,
patterns, files, ...)`` returns each file's matches as (start, end,
pattern index), computed in the workers' processes by the acgrep Python
module where ``import acgrep`` works, by the CLI (``acgrep -F -o -b``)
otherwise, with the same results.
"""

import argparse
import mmap
import os
import subprocess
import sys
import tempfile

try:
    import acgrep as acgrep_module
except ImportError:
    acgrep_module = None


def ranges_of(acgrep, path, n):
    """The START:END ranges --ranges cuts the file into; [None] when the
    file cannot be cut (missing, not regular): its job then reports it as
    one run would."""
    done = subprocess.run([acgrep, "--ranges=%d" % n, "--", path],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    if done.returncode != 0:
        return [None]
    return done.stdout.decode().split()


# The environment variables that choose acgrep's locale: a job runs in the
# client's, whatever the worker's own.
LOCALE_VARS = ("LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LANG", "LANGUAGE")


def job(acgrep, options, path, rng, cwd, locale):
    """One range's record stream (a whole file when rng is None), run in
    directory cwd (the client's: relative names mean there what they mean
    to one run) with the client's locale variables; returns (status,
    stdout, stderr)."""
    cmd = [acgrep, "--records"] + (["--range=" + rng] if rng else []) + options + ["--", path]
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(locale)
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False,
                              cwd=cwd, env=env)
    except OSError as err:
        return 2, b"", ("acgrep_dask: %s: %s\n" % (acgrep, err)).encode()
    return done.returncode, done.stdout, done.stderr


def binary_range(stream):
    """True when a range's record stream found a NUL (its E record has
    flag 'b'): the merge refuses ranges of a binary file."""
    for line in stream.split(b"\n"):
        if line.startswith(b"E ") and b"b" in line.split(b" ")[3]:
            return True
    return False


def run_jobs(client, tasks, run):
    """Runs run(path, rng) for each (path, rng) task on the cluster; the
    results in task order."""
    futures = client.map(lambda t: run(t[0], t[1]), tasks, pure=False)
    return client.gather(futures)


def search(client, options, files, ranges, acgrep="acgrep"):
    """Searches files on the cluster of `client`; returns (stdout, stderr,
    status) of the merge, which is one run's.  A file with a NUL byte in
    some range is searched again whole, as one run searches it; a job that
    fails (a pattern file missing, ...) ends the search with its messages
    and status 2, as one run would."""
    cwd = os.getcwd()
    locale = {k: os.environ[k] for k in LOCALE_VARS if k in os.environ}

    def run(path, rng):
        return job(acgrep, options, path, rng, cwd, locale)

    per_file = [[(path, rng) for rng in ranges_of(acgrep, path, ranges)] for path in files]
    results = iter(run_jobs(client, [t for tasks in per_file for t in tasks], run))
    by_file = [[next(results) for _ in tasks] for tasks in per_file]  # files, then ranges
    redo = [k for k, found in enumerate(by_file)
            if len(found) > 1 and any(binary_range(out) for _, out, _ in found)]
    for k, whole in zip(redo, run_jobs(client, [(files[k], None) for k in redo], run)):
        by_file[k] = [whole]
    results = [found for file_results in by_file for found in file_results]
    failed = [err for status, _, err in results if status != 0]
    if failed:
        return b"", b"".join(dict.fromkeys(failed)), 2
    with tempfile.NamedTemporaryFile(prefix="acgrep-records-") as rec:
        for _, stream, _ in results:
            rec.write(stream)
        rec.flush()
        done = subprocess.run([acgrep, "--merge"] + options + ["--", rec.name],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    return done.stdout, done.stderr, done.returncode


def line_ranges(path, n):
    """[lo, hi) byte ranges of the file at path, about n of them, each
    beginning at the file's start or just after a newline, so that no match
    (patterns hold no newline) crosses two."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as f:
        for k in range(1, n):
            at = max(size * k // n, cuts[-1])
            f.seek(at)
            line = f.readline()
            cut = min(at + len(line), size)
            if cut > cuts[-1]:
                cuts.append(cut)
    if cuts[-1] < size:
        cuts.append(size)
    return list(zip(cuts, cuts[1:]))


def module_matches(set_path, path, lo, hi):
    """The matches of the compiled set at set_path in bytes [lo, hi) of
    the file at path, found in this process by the acgrep module (the file
    mapped, the range scanned in place)."""
    found = acgrep_module.load(set_path)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        with memoryview(m) as view, view[lo:hi] as part:
            return [(lo + a, lo + b, i) for a, b, i in found.find_iter(part)]


def cli_matches(acgrep, list_path, flags, path, lo, hi):
    """The same through the CLI: acgrep -F -o -b --range in the C locale;
    raises RuntimeError with acgrep's message when it fails."""
    cmd = [acgrep, "-F", "-a", "-o", "-b", "--show-pattern=number", "-f", list_path,
           "--range=%d:%d" % (lo, hi)] + flags + ["--", path]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False,
                          env=dict(os.environ, LC_ALL="C"))
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr.decode(errors="replace").strip())
    found = []
    for line in done.stdout.split(b"\n")[:-1]:
        offset, number, match = line.split(b":", 2)
        found.append((int(offset), int(offset) + len(match), int(number) - 1))
    return found


def find_matches(client, patterns, files, *, ignore_case=False, whole_words=False, ranges=4,
                 in_process=None, acgrep="acgrep"):
    """{path: [(start, end, pattern index), ...]} for each of files: the
    leftmost-longest matches of the fixed strings patterns (bytes, none
    empty, none holding a newline) that `LC_ALL=C acgrep -F -a -o -b` (-i
    with ignore_case, -w with whole_words) finds, each file cut into about
    `ranges` ranges of whole lines searched on the cluster.  in_process
    True: the workers scan with the acgrep module (the set compiled once
    here, saved, and loaded by each job); False: they run the CLI acgrep;
    None: the module where this process can import it.  The workers must
    see the files and a temporary directory at the same paths."""
    use_module = acgrep_module is not None if in_process is None else in_process
    patterns = [p.encode() if isinstance(p, str) else bytes(p) for p in patterns]
    tasks = [(path, lo, hi) for path in files for lo, hi in line_ranges(path, ranges)]
    with tempfile.TemporaryDirectory(prefix="acgrep-dask-") as tmp:
        if use_module:
            set_path = os.path.join(tmp, "set.acs")
            acgrep_module.Set(patterns, ignore_case=ignore_case,
                              whole_words=whole_words).save(set_path)
            futures = client.map(lambda t: module_matches(set_path, *t), tasks, pure=False)
        else:
            list_path = os.path.join(tmp, "patterns")
            with open(list_path, "wb") as f:
                f.write(b"".join(p + b"\n" for p in patterns))
            flags = (["-i"] if ignore_case else []) + (["-w"] if whole_words else [])
            futures = client.map(lambda t: cli_matches(acgrep, list_path, flags, *t), tasks,
                                 pure=False)
        results = client.gather(futures)
    found = {path: [] for path in files}
    for (path, _, _), matches in zip(tasks, results):
        found[path].extend(matches)
    return found


def search_and_print(client, cluster, options, files, ranges, acgrep):
    """search() (ranges None: 4 per worker), then the client and the
    cluster (None: not ours) closed and the result printed; returns the exit
    status.  The cluster's trouble (a lost worker, ...) is a message and
    grep's status for trouble, 2, not a traceback."""
    try:
        workers = max(1, len(client.scheduler_info()["workers"]))
        out, err, status = search(client, options, files, ranges or 4 * workers, acgrep)
    except Exception as failure:  # pylint: disable=broad-except
        out, err, status = b"", ("acgrep_dask: %s\n" % failure).encode(), 2
    finally:
        client.close()
        if cluster:
            cluster.close()
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    sys.stderr.buffer.write(err)
    return status


def main(argv):
    """The command line (see the module's help)."""
    if "--" not in argv:
        sys.exit("acgrep_dask: usage: acgrep_dask.py [--scheduler ADDRESS | --local WORKERS] "
                 "[--ranges N] [--acgrep PATH] OPTION... -- FILE...")
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="acgrep_dask.py", add_help=False)
    parser.add_argument("--scheduler")
    parser.add_argument("--local", type=int, default=2)
    parser.add_argument("--ranges", type=int)
    parser.add_argument("--acgrep", default="acgrep")
    ours, options = parser.parse_known_args(argv[:cut])
    files = argv[cut + 1:]
    from distributed import Client, LocalCluster  # pylint: disable=import-outside-toplevel
    if ours.scheduler:
        client, cluster = Client(ours.scheduler), None
    else:
        # its HTTP server on a free port: with None it still takes 8787, and
        # warns on stderr when another cluster holds that port
        cluster = LocalCluster(n_workers=ours.local, threads_per_worker=1, processes=False,
                               dashboard_address=":0")
        client = Client(cluster)
    acgrep = os.path.abspath(ours.acgrep) if os.sep in ours.acgrep else ours.acgrep
    return search_and_print(client, cluster, options, files, ours.ranges, acgrep)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
