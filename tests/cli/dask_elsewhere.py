# SPDX-License-Identifier: MIT
"""dask_elsewhere.py - contrib/dask's search() with workers unlike the client.

Usage: dask_elsewhere.py ACGREP WORKER_DIR WORKER_LC_ALL RANGES OPTION... -- FILE...

Starts a LocalCluster of one worker process in directory WORKER_DIR with
LC_ALL=WORKER_LC_ALL, as a worker on another machine would be, then (back
in the directory and locale it was started in) searches FILE... with
OPTION... through acgrep_dask.search_and_print(): prints its stdout and
stderr, and exits with its status.
"""

import logging
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../contrib/dask"))
import acgrep_dask  # noqa: E402  pylint: disable=wrong-import-position


def main(argv):
    """See the module's help."""
    acgrep, worker_dir, worker_lc_all, ranges = argv[:4]
    cut = argv.index("--")
    options, files = argv[4:cut], argv[cut + 1:]
    from distributed import Client, LocalCluster  # pylint: disable=import-outside-toplevel
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # closing's warnings
    home, client_lc_all = os.getcwd(), os.environ.get("LC_ALL")
    os.chdir(worker_dir)
    os.environ["LC_ALL"] = worker_lc_all
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    client = Client(cluster)
    os.chdir(home)
    if client_lc_all is None:
        del os.environ["LC_ALL"]
    else:
        os.environ["LC_ALL"] = client_lc_all
    return acgrep_dask.search_and_print(client, cluster, options, files, int(ranges), acgrep)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
