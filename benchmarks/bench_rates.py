#!/usr/bin/env python
"""Wall time of the rate-verification experiments, and count-level vs point-level time per trial.

    python benchmarks/bench_rates.py [--profile quick] [--jobs 1] [--only NAME,NAME] [--keep DIR]
    python benchmarks/bench_rates.py --per-trial [--N 1000000] [--repeat 5]
    python benchmarks/bench_rates.py --line-knn [--repeat 5]
    python benchmarks/bench_rates.py --plane-knn [--repeat 5]

``--per-trial``: for every partition estimator of the rate experiments (003 Theorems 2, 4, 8, 12), the
time of one trial of :func:`simulations.experiments.rates.machinery.rate_trial` (count level: counts drawn from the
law's cell masses, cost independent of N) and of :func:`~simulations.experiments.rates.machinery.rate_trial_point_level`
(N points sampled, privatized and binned) at the same point (same N, bins, law), best of ``--repeat``, and
their ratio; then the count-level time at N = 10^10, where the point level would need 10^10 points.

``--plane-knn``: the same in the plane (d = 2) at the quick profile's largest sizes of the local
heavy-tailed and bounded regression cells: kd-tree query plus average against the estimators' grid path
(:func:`~simulations.estimators.knn.plane_index`, unsorted neighbour lists), CPU seconds.

``--line-knn``: the k-NN query of the local (Theorems 6, 10) cases on the line at the paper profile's
largest sizes (N = 3·10^4-10^5, 4096 evaluation points, k up to 10^4): scipy's kd-tree query plus the
neighbour average against :meth:`~simulations.estimators.line_knn.LineIndex.neighbour_mean` (the same
floats), best of ``--repeat``.

Runs each ``rates_*`` experiment through the same runner as ``paper_repro.py`` (compute, figures,
CSV, results.json) into a temporary folder with a fresh cache (``force``), and prints per experiment
the compute time, the total time with plotting, and the number of trials, then the totals. The quick
profile is meant to finish within about 2.5 minutes on 2 cores with ``--jobs 1``. Numbers are from
one run on whatever machine runs it; nothing asserts them.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import simulations.experiments  # noqa: F401  (registers the experiments)
from simulations.experiments import REGISTRY, RunContext
from simulations.experiments.runner import run_experiment

RATE_EXPERIMENTS = ("rates_local_classification", "rates_central_classification", "rates_local_regression",
                    "rates_central_regression", "rates_heavy_tailed", "rates_eps_collapse", "rates_local_vs_central",
                    "rates_upper_bound")


PER_TRIAL_POINTS = {  # algorithm -> RatePoint kwargs besides N (bins = cubes = g per axis)
    "local_classification": dict(d=1, beta=1.0, eps=1.0, g=64, gamma=1.0, C_M=2.0),
    "central_classification": dict(d=2, beta=0.5, eps=0.01, g=16, gamma=1.0, C_M=2.0),
    "central_regression": dict(d=1, beta=1.0, eps=0.01, g=100),
    "central_regression_heavy_tailed": dict(d=1, beta=1.0, eps=0.01, g=64, p=4.0, M_p=4.0),
}


def _best(fn, repeat):
    times = []
    for r in range(repeat):
        t0 = time.perf_counter()
        fn(r)
        times.append(time.perf_counter() - t0)
    return min(times)


def per_trial(N: int, repeat: int) -> None:
    from simulations.experiments.rates.machinery import RatePoint, rate_trial, rate_trial_point_level

    print(f"{'algorithm':34s} {'point s':>9s} {'count s':>9s} {'ratio':>9s} {'count s @1e10':>14s}   (N={N:.0e})")
    for alg, kw in PER_TRIAL_POINTS.items():
        pt = RatePoint(algorithm=alg, N=N, **kw)
        rate_trial(pt, 0, 1)  # warm caches and numba
        rate_trial_point_level(pt, 0, 1)
        tp = _best(lambda r: rate_trial_point_level(pt, r, 1), repeat)
        tc = _best(lambda r: rate_trial(pt, r, 1), max(repeat, 20))
        big = RatePoint(algorithm=alg, N=10 ** 10, **kw)
        tb = _best(lambda r: rate_trial(big, r, 1), max(repeat, 20))
        print(f"{alg:34s} {tp:9.4f} {tc:9.5f} {tp / tc:9.0f} {tb:14.5f}")


LINE_KNN_SIZES = ((32768, 1024), (32768, 4096), (100000, 10000))  # (N, k) of 003 Theorem 10's tuning, d = 1


def line_knn(repeat: int) -> None:
    import numpy as np

    from simulations import kernels
    from simulations.estimators.knn import build_tree
    from simulations.estimators.line_knn import LineIndex

    rng = np.random.default_rng(0)
    print(f"{'N':>7s} {'k':>6s} {'tree+mean s':>12s} {'line s':>9s} {'ratio':>7s}   (4096 queries, d = 1)")
    for N, k in LINE_KNN_SIZES:
        X, Q, V = rng.random((N, 1)), rng.random((4096, 1)), rng.standard_normal(N)
        LineIndex(X).neighbour_mean(Q[:2], k, V)  # load the compiled kernel
        tt = _best(lambda r: kernels.neighbour_mean(V, build_tree(X).query(Q, k=k)[1]), repeat)
        tl = _best(lambda r: LineIndex(X).neighbour_mean(Q, k, V), repeat)
        print(f"{N:7d} {k:6d} {tt:12.3f} {tl:9.3f} {tt / tl:7.1f}")


#: (N, k) of the quick profile's largest d = 2 points of 003 Theorems 6 and 10 (rates_heavy_tailed, p = 2 and 4)
PLANE_KNN_SIZES = ((32768, 32), (34601, 65), (38416, 196), (46416, 464), (46656, 1296))


def plane_knn(repeat: int) -> None:
    """Index build + neighbour mean at 1024 queries in the unit square: kd-tree (nearest-first lists, then
    the mean) vs the estimators' plane path (grid with the density cell, unsorted lists); CPU seconds, best
    of ``repeat``; asserts the same neighbour sets and means within the summation bound."""
    import numpy as np

    from simulations import kernels
    from simulations.estimators.knn import build_tree, plane_index

    def cpu_best(fn):
        times = []
        for _ in range(repeat):
            t0 = time.process_time()
            out = fn()
            times.append(time.process_time() - t0)
        return min(times), out

    rng = np.random.default_rng(0)
    print(f"{'N':>7s} {'k':>6s} {'tree+mean cpu s':>16s} {'grid cpu s':>11s} {'ratio':>7s}   (1024 queries, d = 2)")
    for N, k in PLANE_KNN_SIZES:
        X, Q, V = rng.random((N, 2)), rng.random((1024, 2)), rng.standard_normal(N)
        plane_index(X, k).query(Q[:2], k, sort=False)  # load the compiled kernel
        tt, a = cpu_best(lambda: kernels.neighbour_mean(V, build_tree(X).query(Q, k=k)[1].reshape(len(Q), k)))
        tg, b = cpu_best(lambda: kernels.neighbour_mean(V, plane_index(X, k).query(Q, k, sort=False)[1]))
        bound = 2 * (k - 1) * 2.0 ** -53 * np.abs(V).max()
        assert np.all(np.abs(a - b) <= bound), "plane path differs from the tree beyond the summation bound"
        print(f"{N:7d} {k:6d} {tt:16.4f} {tg:11.4f} {tt / tg:7.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-trial", action="store_true", help="count-level vs point-level time per trial")
    ap.add_argument("--line-knn", action="store_true", help="kd-tree vs sorted-line k-NN query, d = 1")
    ap.add_argument("--plane-knn", action="store_true", help="kd-tree vs grid k-NN mean, d = 2")
    ap.add_argument("--N", type=int, default=10 ** 6)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--profile", default="quick", choices=("smoke", "quick", "paper"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="comma-separated subset of the rate experiments")
    ap.add_argument("--keep", default=None, help="write the outputs here instead of a temporary folder")
    args = ap.parse_args(argv)
    if args.per_trial:
        per_trial(args.N, args.repeat)
        return 0
    if args.line_knn:
        line_knn(args.repeat)
        return 0
    if args.plane_knn:
        plane_knn(args.repeat)
        return 0
    names = RATE_EXPERIMENTS if not args.only else tuple(n.strip() for n in args.only.split(","))
    ctx = RunContext(profile=args.profile, jobs=args.jobs, force=True, progress=False)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp)
        total_c = total = 0.0
        print(f"{'experiment':32s} {'compute s':>10s} {'total s':>8s} {'claims':>7s}")
        for name in names:
            t0 = time.perf_counter()
            rec = run_experiment(REGISTRY[name], ctx, out)
            wall = time.perf_counter() - t0
            ok = sum(c["holds"] is True for c in rec["claims"])  # None: inconclusive
            print(f"{name:32s} {rec['compute_s']:10.1f} {wall:8.1f} {ok:>3d}/{len(rec['claims']):<3d}")
            total_c += rec["compute_s"]
            total += wall
        print(f"{'total':32s} {total_c:10.1f} {total:8.1f}   (profile {args.profile}, jobs {args.jobs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
