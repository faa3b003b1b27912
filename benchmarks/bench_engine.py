#!/usr/bin/env python
"""Per-chunk overhead of the engine on each executor, and what automatic chunking saves.

    python benchmarks/bench_engine.py [--trials 400] [--jobs 2] [--no-dask]

A trial here costs a few microseconds, so the time per chunk is almost all overhead: pickling,
the executor's round trip and (with a cache) the atomic chunk write. Printed as microseconds per
chunk and as the ratio of one-trial chunks to automatic chunks. Numbers are from one run on
whatever machine runs it; they are not asserted anywhere.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # workers import this module by name

from simulations.engine import run_trials, trial_streams  # noqa: E402


@dataclass(frozen=True, slots=True)
class Tiny:
    n: int = 8


def tiny_trial(config: Tiny, trial: int, root_seed: int) -> dict:
    data, _, _ = trial_streams(config, trial, root_seed)
    return {"x": float(data.standard_normal(config.n).mean())}


def _time(**kw) -> float:
    t0 = time.perf_counter()
    run_trials(tiny_trial, [Tiny()], kw.pop("n_trials"), root_seed=0, progress=False, **kw)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=400)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--no-dask", action="store_true")
    args = p.parse_args(argv)
    n = args.trials
    setups = [("serial", dict(jobs=1)), ("loky", dict(jobs=args.jobs))]
    if not args.no_dask:
        try:
            import distributed
        except ImportError:
            print("dask not installed: skipping the Dask rows")
        else:
            cluster = distributed.LocalCluster(n_workers=args.jobs, threads_per_worker=1, processes=True,
                                               dashboard_address=None)
            setups.append(("dask", dict(scheduler=cluster.scheduler_address)))
    _time(n_trials=4, chunk_size=4)  # warm up imports
    t_trial = _time(n_trials=n, chunk_size=n) / n
    print(f"one trial in-process: {t_trial * 1e6:.1f} us")
    print(f"{'executor':8s} {'us/chunk (1 trial)':>20s} {'+cache':>10s} {'auto chunks (s)':>16s} {'ratio 1-trial/auto':>19s}")
    for name, kw in setups:
        _time(n_trials=4, chunk_size=1, **kw)  # warm up: start workers, import modules
        one = _time(n_trials=n, chunk_size=1, **kw)
        with tempfile.TemporaryDirectory() as tmp:
            cached = _time(n_trials=n, chunk_size=1, cache_dir=tmp, **kw)
        auto = _time(n_trials=n, **kw)
        print(f"{name:8s} {one / n * 1e6:20.0f} {cached / n * 1e6:10.0f} {auto:16.3f} {one / auto:19.1f}")
    if not args.no_dask and len(setups) == 3:
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
