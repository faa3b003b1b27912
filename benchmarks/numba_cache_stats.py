"""pytest plugin (measurement only): which process compiled which numba kernel, and which loaded it from the cache.

    NUMBA_STATS_DIR=/tmp/nstats PYTHONPATH=benchmarks python -m pytest -n auto --dist worksteal -p numba_cache_stats

At the end of the session every process (the controller and each xdist worker, which loads the
plugin from the same ``-p``) writes ``<NUMBA_STATS_DIR>/<pid>-<worker>.json``: for every numba
dispatcher defined in ``simulations``, ``limits`` or ``proofs_checks``, its compiled signatures and
numba's ``Dispatcher.stats`` (``cache_hits``: loaded from ``__pycache__``; ``cache_misses``: compiled in
this process) and prints a summary line (shown for a run without xdist; a worker's output is not
shown). A kernel missed in two workers was compiled twice. Subprocesses started by tests are not counted. Issue 20 (notes of the "speed" session): in a fresh
clone on 2 workers no kernel was compiled twice.
"""

from __future__ import annotations

import json
import os
import sys

PACKAGES = ("simulations", "limits", "proofs_checks")


def _dispatchers() -> dict:
    from numba.core.registry import CPUDispatcher

    found = {}
    for modname, mod in list(sys.modules.items()):
        if mod is None or not modname.startswith(PACKAGES):
            continue
        for name, obj in list(vars(mod).items()):
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == modname:
                found[f"{modname}.{name}"] = obj
    return found


def pytest_sessionfinish(session):
    folder = os.environ.get("NUMBA_STATS_DIR")
    if not folder or "numba" not in sys.modules:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    stats = {}
    for key, kernel in _dispatchers().items():
        s = kernel.stats
        stats[key] = {"signatures": [str(sig) for sig in kernel.signatures],
                      "cache_hits": sum(s.cache_hits.values()), "cache_misses": sum(s.cache_misses.values())}
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{os.getpid()}-{worker}.json"), "w") as f:
        json.dump(stats, f, indent=1)
    hits = sum(v["cache_hits"] for v in stats.values())
    misses = sum(v["cache_misses"] for v in stats.values())
    print(f"\nnumba_cache_stats [{worker}]: {misses} signatures compiled here, {hits} loaded from the cache")
