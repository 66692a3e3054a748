"""A real Dask LocalCluster (a scheduler on 127.0.0.1, N worker processes of one thread) in a
process of its own: it prints the scheduler's address and runs until its stdin closes.

The tests start it this way, not in pytest's process: a LocalCluster started there leaves children
of that process behind it (multiprocessing's helpers), which the tests of bookbuilder's own pool
rightly count as workers left running."""

import subprocess
import sys
from contextlib import contextmanager

from tests.conftest import REPO


@contextmanager
def local_cluster(workers: int):
    """The scheduler's address while the cluster runs; stopped (and waited for) at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.shelf.local_cluster", str(workers)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        address = process.stdout.readline().strip()
        assert address.startswith("tcp://127.0.0.1:"), address
        yield address
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


if __name__ == "__main__":
    import distributed

    with distributed.LocalCluster(
        n_workers=int(sys.argv[1]),
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    ) as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()
