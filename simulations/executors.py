"""Where chunks of trials run: in-process, joblib/loky processes, or a Dask cluster.

The one parallel layer of the suite is joblib (docs/design.md "Randomness, reproducibility,
parallelism"): the backend is a setting, the code that submits chunks is the same.

============================  ===============================================================
``jobs=1, scheduler=None``    serial, in this process (no pickling; easiest to debug)
``jobs>1, scheduler=None``    joblib ``loky`` worker processes
``scheduler="local"``         a ``dask.distributed.LocalCluster`` of ``jobs`` single-threaded
                              worker processes, started on first use and kept for the later
                              runs of this process (closed at exit)
``scheduler="tcp://h:p"``     a running Dask scheduler (any ``<protocol>://`` address); every
                              worker must be able to import the trial function's module
``scheduler=<Client>``        an existing ``distributed.Client`` (left open afterwards)
============================  ===============================================================

Dask is an optional extra (``pip install labeldp-suite[dask]``); it is imported only when asked for.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import socket
import struct
import threading
import time
from urllib.parse import urlsplit
from typing import Callable, Iterable, Iterator

from limits.validation import check_int

__all__ = ["Executor", "available_cores", "check_scheduler", "close_local_clusters", "count_worker_cpu", "map_ordered",
           "max_jobs", "open_executor", "validate_scheduler", "worker_cpu_seconds"]

_ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*://\S+$")
# CPU seconds that worker processes (loky, Dask) reported for the tasks whose results reached this process.
_WORKER_CPU = [0.0]
_JOBS_PER_CORE = 4  # more worker processes than this per core only costs memory and start-up time
# A Dask comm message starts with its length as a little-endian uint64; a scheduler's first message (its
# handshake) is a few hundred bytes of msgpack naming these keys. Anything else is not a Dask scheduler.
_HANDSHAKE_MAX_BYTES = 1 << 16
_HANDSHAKE_KEYS = (b"compression", b"python", b"pickle-protocol")


def available_cores() -> int:
    """Cores this process may run on: its CPU affinity where the platform has it, else ``os.cpu_count()``.

    Returns
    -------
    int
        At least 1.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (``--jobs`` defaults to it).

    Examples
    --------
    >>> available_cores() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def max_jobs() -> int:
    """The most worker processes a run may ask for here: 4 per core available to this process.

    Returns
    -------
    int
        ``4 × cores`` (the CPU affinity where the platform has it, else ``os.cpu_count()``).

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism"; issue 36 (``--jobs 100000`` started
    worker processes, ``--jobs 1000000000`` crashed inside joblib).

    Examples
    --------
    >>> max_jobs() >= 4
    True
    """
    return _JOBS_PER_CORE * available_cores()


def _check_jobs(jobs) -> int:
    """``jobs`` as an int, refused below 1 or above :func:`max_jobs`."""
    jobs = check_int("jobs", jobs, low=1)
    if jobs > max_jobs():
        raise ValueError(f"jobs must be <= {max_jobs()} ({_JOBS_PER_CORE} per core of the {available_cores()} "
                         f"available), got jobs={jobs}")
    return jobs


def worker_cpu_seconds() -> float:
    """CPU seconds that worker processes reported for the tasks they ran for this process.

    The trial engine's chunks and :func:`map_ordered`'s tasks report theirs (:func:`count_worker_cpu`).
    The provenance of an experiment adds the difference of this counter over the run to the
    process's own CPU time (serial work counts in the latter), so ``--jobs`` does not hide work.

    Returns
    -------
    float
        Monotone non-decreasing over the life of the process.

    References
    ----------
    docs/design.md, "Experiments and their outputs": provenance records wall and CPU seconds.

    Examples
    --------
    >>> worker_cpu_seconds() >= 0.0
    True
    """
    return _WORKER_CPU[0]


def count_worker_cpu(seconds: float) -> None:
    """Add the CPU seconds a worker process reported for one task to :func:`worker_cpu_seconds`.

    Parameters
    ----------
    seconds : float >= 0
        ``time.process_time()`` spent by the worker on the task (not for tasks run in this process:
        this process's own CPU time already counts them).

    Returns
    -------
    None

    References
    ----------
    docs/design.md, "Experiments and their outputs": provenance records wall and CPU seconds.

    Examples
    --------
    >>> before = worker_cpu_seconds()
    >>> count_worker_cpu(0.25)
    >>> worker_cpu_seconds() == before + 0.25
    True
    """
    _WORKER_CPU[0] += seconds


def validate_scheduler(scheduler):
    """Return ``scheduler`` if it is None, ``"local"``, a ``proto://`` address or a Dask Client.

    Only the form is checked (nothing is imported or contacted); :func:`check_scheduler` also
    checks that Dask is installed and the address answers.

    Parameters
    ----------
    scheduler : None, "local", str or distributed.Client
        None (joblib/loky or serial), ``"local"`` (a LocalCluster), an address
        ``"<protocol>://<rest>"`` with a lowercase protocol and no spaces (e.g.
        ``"tcp://host:8786"``), or a ``distributed.Client``.

    Returns
    -------
    None, str or distributed.Client
        ``scheduler`` unchanged.

    Raises
    ------
    ValueError
        For any other string (e.g. ``"host:8786"`` without a protocol) or object.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": the backend (loky locally, Dask on a
    cluster) is a setting.

    Examples
    --------
    >>> validate_scheduler("tcp://10.0.0.1:8786")
    'tcp://10.0.0.1:8786'
    >>> validate_scheduler("10.0.0.1:8786")
    Traceback (most recent call last):
    ...
    ValueError: scheduler must be None, 'local' or a Dask scheduler address such as 'tcp://host:8786', got scheduler='10.0.0.1:8786'
    """
    if scheduler is None or scheduler == "local":
        return scheduler
    if isinstance(scheduler, str):
        if _ADDRESS.match(scheduler):
            return scheduler
        raise ValueError("scheduler must be None, 'local' or a Dask scheduler address such as "
                         f"'tcp://host:8786', got scheduler={scheduler!r}")
    if type(scheduler).__name__ == "Client" and hasattr(scheduler, "submit"):
        return scheduler
    raise ValueError(f"scheduler must be None, 'local', an address or a distributed.Client, got scheduler={scheduler!r}")


def check_scheduler(scheduler, *, timeout: float = 5.0):
    """Check, before any work starts, that ``scheduler`` can be used: Dask installed, address reachable.

    Parameters
    ----------
    scheduler : None, "local", "proto://host:port" or distributed.Client
        As for :func:`open_executor`. For ``tcp://`` addresses a connection is made and the peer must
        open with a Dask handshake (a length-prefixed message of at most 64 KiB naming Dask's handshake
        keys): an HTTP server or any other service is refused, without reading more than that. For
        ``tls://`` a TCP connection is attempted; other protocols are only checked for their form.
    timeout : float
        Seconds for all of it (connection and handshake).

    Returns
    -------
    None, str or distributed.Client
        The validated ``scheduler``.

    Raises
    ------
    ValueError
        If the form is wrong, Dask is not installed (the message has the install line), the
        address does not answer within ``timeout`` seconds, or what answers is not a Dask scheduler.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (Dask as a joblib backend; bad input
    refused before any work starts).

    Examples
    --------
    >>> check_scheduler(None) is None
    True
    >>> check_scheduler("tcp://127.0.0.1:1", timeout=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: scheduler 'tcp://127.0.0.1:1' is not reachable: ...
    """
    scheduler = validate_scheduler(scheduler)
    if scheduler is None or not isinstance(scheduler, str):
        return scheduler
    try:
        _import_distributed()
    except ImportError as exc:
        raise ValueError(f"scheduler={scheduler!r}: {exc}") from None
    if scheduler == "local":
        return scheduler
    parts = urlsplit(scheduler)
    if parts.scheme in ("tcp", "tls"):
        try:
            host, port = parts.hostname, parts.port
        except ValueError as exc:  # a port that is not a number
            raise ValueError(f"scheduler {scheduler!r} has no valid port: {exc}") from None
        if not host or port is None:
            raise ValueError(f"scheduler {scheduler!r} must name a host and a port, e.g. 'tcp://host:8786'")
        deadline = time.monotonic() + timeout
        try:
            conn = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise ValueError(f"scheduler {scheduler!r} is not reachable: {exc}") from None
        with conn:
            if parts.scheme == "tcp":
                _expect_dask_handshake(conn, scheduler, deadline, timeout)
    return scheduler


def _read_exactly(conn: socket.socket, n: int, deadline: float) -> bytes:
    data = b""
    while len(data) < n:
        conn.settimeout(max(deadline - time.monotonic(), 1e-3))
        part = conn.recv(n - len(data))
        if not part:
            raise ConnectionError("the connection was closed")
        data += part
    return data


def _expect_dask_handshake(conn: socket.socket, scheduler: str, deadline: float, timeout: float) -> None:
    """Read the first message a Dask server sends on a new connection; refuse anything else, within the deadline."""
    what = f"scheduler {scheduler!r} is not a Dask scheduler"
    try:
        head = _read_exactly(conn, 8, deadline)
        (size,) = struct.unpack("<Q", head)
        if not 0 < size <= _HANDSHAKE_MAX_BYTES:
            raise ValueError(f"{what}: it sent {head!r} where a Dask handshake starts"
                             + (" (an HTTP server?)" if head.startswith(b"HTTP/") else ""))
        body = _read_exactly(conn, size, deadline)
    except (socket.timeout, TimeoutError):
        raise ValueError(f"{what}: no Dask handshake within {timeout:g} s (an HTTP server or another service "
                         "listens there?)") from None
    except OSError as exc:
        raise ValueError(f"{what}: {exc} before its Dask handshake") from None
    if not all(key in body for key in _HANDSHAKE_KEYS):
        raise ValueError(f"{what}: its first message is not a Dask handshake")


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:  # optional extra
        raise ImportError("scheduler=... needs Dask: pip install 'labeldp-suite[dask]' "
                          "(or pip install 'dask[distributed]')") from exc
    return distributed


# jobs -> (LocalCluster, Client). A paper run calls the engine once per experiment point set;
# starting a cluster costs seconds, so one is kept per worker count for the whole process.
_LOCAL: dict[int, tuple] = {}


def _local_client(distributed, jobs: int):
    entry = _LOCAL.get(jobs)
    if entry is None or entry[1].status != "running":
        cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        _LOCAL[jobs] = (cluster, distributed.Client(cluster, set_as_default=False))
    return _LOCAL[jobs][1]


@atexit.register
def close_local_clusters() -> None:
    """Shut down the LocalClusters started for ``scheduler="local"`` (also run at exit).

    Safe to call at any time: a later ``scheduler="local"`` run starts a new cluster.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (Dask as a joblib backend).

    Examples
    --------
    With no cluster started it does nothing:

    >>> close_local_clusters()
    >>> _LOCAL
    {}
    """
    while _LOCAL:
        _, (cluster, client) = _LOCAL.popitem()
        client.close()
        cluster.close()


class Executor:
    """Runs ``fn(*args)`` for each task and yields results as they finish (any order).

    Made by :func:`open_executor`, which owns the worker pool; the parameters are kept as the
    attributes ``kind`` and ``n_workers``.

    Parameters
    ----------
    kind : {"serial", "loky", "dask"}
        The backend.
    n_workers : int >= 1
        Processes (or Dask worker threads) available, used to size chunks.
    parallel : joblib.Parallel or None, default None
        The open pool of a parallel backend (``return_as="generator_unordered"``); None runs the
        tasks in this process, in order.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": parallelize at one level only, written
    once against joblib.

    Examples
    --------
    >>> ex = Executor("serial", 1)
    >>> sorted(ex.map_unordered(pow, [(2, 3), (3, 2)]))
    [8, 9]
    """

    def __init__(self, kind: str, n_workers: int, parallel=None):
        self.kind = kind
        self.n_workers = n_workers
        self._parallel = parallel

    def map_unordered(self, fn: Callable, tasks: Iterable[tuple]) -> Iterator:
        """``fn(*task)`` for every task, yielded as they finish (in order when serial).

        Parameters
        ----------
        fn : callable
            Called as ``fn(*task)``; for the loky and Dask backends it and its arguments must
            pickle (a module-level function).
        tasks : iterable of tuple
            The argument tuples.

        Returns
        -------
        iterator
            The results, lazily, in completion order (in task order when serial).

        Examples
        --------
        >>> list(Executor("serial", 1).map_unordered(max, [(1, 5), (7, 2)]))
        [5, 7]
        """
        if self._parallel is None:
            return (fn(*t) for t in tasks)
        from joblib import delayed

        return self._parallel(delayed(fn)(*t) for t in tasks)


@contextlib.contextmanager
def open_executor(jobs: int = 1, scheduler=None):
    """Context manager yielding an :class:`Executor` for ``jobs`` / ``scheduler`` (table above).

    Each chunk is one joblib task (``batch_size=1``), so its result reaches the parent, and is
    saved there, as soon as it is done (``return_as="generator_unordered"``).

    Parameters
    ----------
    jobs : int >= 1, default 1
        Worker processes (loky), or workers of the ``scheduler="local"`` cluster; ignored for
        an address or a Client (their workers count).
    scheduler : None, "local", "proto://host:port" or distributed.Client, default None
        See the module's table and :func:`validate_scheduler`.

    Yields
    ------
    Executor
        ``kind`` ``"serial"`` (``jobs == 1`` without scheduler), ``"loky"`` or ``"dask"``.

    Raises
    ------
    ValueError
        If ``jobs`` is not an int from 1 to :func:`max_jobs` or ``scheduler`` has the wrong form.
    ImportError
        If a scheduler is given and Dask is not installed (the message has the install line).

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" and its measured per-task overheads
    (loky, joblib on Dask).

    Examples
    --------
    >>> with open_executor(1) as ex:
    ...     ex.kind, ex.n_workers, list(ex.map_unordered(abs, [(-3,)]))
    ('serial', 1, [3])
    >>> with open_executor(0) as ex:
    ...     pass
    Traceback (most recent call last):
    ...
    ValueError: jobs must be an integer >= 1, got jobs=0
    """
    jobs = _check_jobs(jobs)
    scheduler = validate_scheduler(scheduler)
    from joblib import Parallel, parallel_config

    opts = dict(batch_size=1, return_as="generator_unordered")
    if scheduler is None:
        if jobs == 1:
            yield Executor("serial", 1)
            return
        # each worker exits when this process dies (kill -9 left them idle for loky's 5-minute timeout)
        with Parallel(n_jobs=jobs, backend="loky", initializer=_exit_with_parent, initargs=(os.getpid(),),
                      **opts) as par:
            yield Executor("loky", jobs, par)
        return

    distributed = _import_distributed()
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            client = _local_client(distributed, jobs)
        elif isinstance(scheduler, str):
            client = stack.enter_context(distributed.Client(scheduler, set_as_default=False,
                                                            timeout=_CLIENT_TIMEOUT_S))
        else:
            client = scheduler
        n_workers = max(1, sum(client.nthreads().values()))
        with parallel_config(backend="dask", client=client):
            par = stack.enter_context(Parallel(n_jobs=-1, **opts))
        yield Executor("dask", n_workers, par)


_CLIENT_TIMEOUT_S = 30  # connecting to a Dask scheduler: fail with a TimeoutError, never hang
_PARENT_POLL_S = 1.0


def _exit_with_parent(parent_pid: int) -> None:
    """In a loky worker: a daemon thread that ends the worker within a second once ``parent_pid`` is gone.

    A worker whose parent was killed is re-parented (``os.getppid()`` changes), so polling it needs no
    signal and no platform API. Runs as the pool's ``initializer``.
    """
    if os.getppid() != parent_pid:  # not started by the process that made the pool (already orphaned)
        os._exit(1)

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(_PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def map_ordered(fn: Callable, tasks: Iterable[tuple], jobs: int = 1, scheduler=None) -> list:
    """``[fn(*task) for task in tasks]``, computed on the run's workers (:func:`open_executor`), in task order.

    For deterministic work outside the trial engine (a list of proof checks, blocks of a table) that
    would otherwise keep one core of a ``--jobs`` run busy and leave the others idle; the result does not
    depend on ``jobs``.

    Parameters
    ----------
    fn : callable
        A module-level function (it is pickled to the workers when ``jobs > 1``).
    tasks : iterable of tuple
        The argument tuples.
    jobs : int >= 1, default 1
        Worker processes; 1 (without ``scheduler``) runs every task here, in order.
    scheduler : None, "local", "proto://host:port" or distributed.Client, default None
        As for :func:`open_executor` (the run's ``--scheduler``).

    Returns
    -------
    list
        ``fn(*task)`` per task, in the order of ``tasks``.

    Raises
    ------
    ValueError
        If ``jobs`` is not an int from 1 to :func:`max_jobs` or ``scheduler`` has the wrong form.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (one parallel layer, joblib; results independent
    of the number of workers).

    Examples
    --------
    >>> map_ordered(pow, [(2, 3), (3, 2), (10, 0)])
    [8, 9, 1]
    """
    tasks, done = list(tasks), {}
    with open_executor(jobs, scheduler) as ex:
        for i, value, cpu in ex.map_unordered(_indexed, [(fn, i, t) for i, t in enumerate(tasks)]):
            done[i] = value
            if ex.kind != "serial":  # this process's CPU time already counts its own tasks
                count_worker_cpu(cpu)
    return [done[i] for i in range(len(tasks))]


def _indexed(fn: Callable, i: int, task: tuple) -> tuple:
    c0 = time.process_time()
    value = fn(*task)
    return i, value, time.process_time() - c0
