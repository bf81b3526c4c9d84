# SPDX-License-Identifier: MIT
"""contrib/dask's find_matches: the acgrep module in the workers'
process and the CLI give the same matches, which are acgrep -F -o -b's,
on one LocalCluster."""

import os
import random
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "contrib", "dask"))
import acgrep_dask  # noqa: E402

ACGREP = os.environ.get("ACGREP", os.path.join(HERE, "..", "..", "acgrep"))


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def whole_file_matches(patterns, path, flags):
    """acgrep -F -a -o -b over the whole file, in the C locale."""
    done = subprocess.run([ACGREP, "-F", "-a", "-o", "-b", "--show-pattern=number"]
                          + [a for p in patterns for a in ("-e", p)] + flags + ["--", path],
                          stdout=subprocess.PIPE, env=dict(os.environ, LC_ALL="C"), check=False)
    found = []
    for line in done.stdout.split(b"\n")[:-1]:
        offset, number, match = line.split(b":", 2)
        found.append((int(offset), int(offset) + len(match), int(number) - 1))
    return found


@pytest.mark.parametrize("ignore_case, whole_words", [(False, False), (True, True)])
def test_module_and_cli_paths_agree(client, tmp_path, ignore_case, whole_words):
    assert acgrep_dask.acgrep_module is not None
    rng = random.Random(30)
    files = []
    for k in range(3):
        path = tmp_path / ("f%d" % k)
        path.write_bytes(bytes(rng.choice(b"abcAB_ \n") for _ in range(5000 * k)))
        files.append(str(path))
    patterns = [b"ab", b"abc", b"c", b"Ab_", b"bca"]
    kwargs = dict(ignore_case=ignore_case, whole_words=whole_words, ranges=5, acgrep=ACGREP)
    in_process = acgrep_dask.find_matches(client, patterns, files, in_process=True, **kwargs)
    by_cli = acgrep_dask.find_matches(client, patterns, files, in_process=False, **kwargs)
    assert in_process == by_cli
    flags = (["-i"] if ignore_case else []) + (["-w"] if whole_words else [])
    for path in files:
        assert in_process[path] == whole_file_matches(patterns, path, flags)
    assert sum(len(m) for m in in_process.values()) > 100
    assert in_process[files[0]] == []
