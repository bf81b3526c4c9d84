#!/usr/bin/env python3
"""acgrep_dask - acgrep over a Dask cluster, with one run's output.

Splits each file into byte ranges (``acgrep --ranges=N``), runs
``acgrep --records --range=START:END OPTIONS FILE`` for every range on the
cluster's workers (dask.distributed), and merges the record streams, in
file and range order, with ``acgrep --merge OPTIONS``: the bytes on stdout,
the messages on stderr and the exit status are those of ``acgrep OPTIONS
FILE...`` on one machine.  The workers must see the files and the pattern
list at the same paths (a shared file system) and have acgrep.

Usage:
    acgrep_dask.py [--scheduler ADDRESS | --local WORKERS] [--ranges N]
                   [--acgrep PATH] OPTION... -- FILE...

OPTION... is acgrep's command line without its files (patterns included,
e.g. ``-n -C 2 -f iocs.txt``).  --scheduler names a running scheduler
(tcp://host:8786); --local starts a LocalCluster of WORKERS workers on
this machine (the default, 2).  --ranges cuts every file into N ranges
(default: 4 per worker).

As a module: ``search(client, options, files, ranges, acgrep)`` returns
(stdout bytes, stderr bytes, exit status).
"""

import argparse
import os
import subprocess
import sys
import tempfile


def ranges_of(acgrep, path, n):
    """The START:END ranges --ranges cuts the file into; [None] when the
    file cannot be cut (missing, not regular): its job then reports it as
    one run would."""
    done = subprocess.run([acgrep, "--ranges=%d" % n, "--", path],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    if done.returncode != 0:
        return [None]
    return done.stdout.decode().split()


def job(acgrep, options, path, rng):
    """One range's record stream (a whole file when rng is None)."""
    cmd = [acgrep, "--records"] + (["--range=" + rng] if rng else []) + options + ["--", path]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise RuntimeError("%s: exit status %d: %s" % (" ".join(cmd), done.returncode,
                                                        done.stderr.decode(errors="replace")))
    return done.stdout


def search(client, options, files, ranges, acgrep="acgrep"):
    """Searches files on the cluster of `client`; returns (stdout, stderr,
    status) of the merge, which is one run's."""
    tasks = [(path, rng) for path in files for rng in ranges_of(acgrep, path, ranges)]
    futures = client.map(lambda t: job(acgrep, options, t[0], t[1]), tasks, pure=False)
    streams = client.gather(futures)  # in the order of tasks: files, then ranges
    with tempfile.NamedTemporaryFile(prefix="acgrep-records-") as rec:
        for stream in streams:
            rec.write(stream)
        rec.flush()
        done = subprocess.run([acgrep, "--merge"] + options + ["--", rec.name],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    return done.stdout, done.stderr, done.returncode


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
        cluster = LocalCluster(n_workers=ours.local, threads_per_worker=1, processes=False,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        workers = max(1, len(client.scheduler_info()["workers"]))
        acgrep = os.path.abspath(ours.acgrep) if os.sep in ours.acgrep else ours.acgrep
        out, err, status = search(client, options, files, ours.ranges or 4 * workers, acgrep)
    finally:
        client.close()
        if cluster:
            cluster.close()
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    sys.stderr.buffer.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
