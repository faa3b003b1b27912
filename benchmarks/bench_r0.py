#!/usr/bin/env python
"""r_0 of 000 eq. (30) for ``vector_theorem2``: Newton + replayed bisection vs the plain bisection.

    python benchmarks/bench_r0.py [--profile quick] [--repeats 3] [--trial]

:meth:`CircleMixture.r0` returns the plain bisection's array bit for bit (asserted here on every
point) with about a sixth of the noncentral χ² CDF evaluations (issue 20). For each (panel, N, K)
point of the experiment's profile, one trial's M evaluation points are drawn from the law and
both versions timed (CPU seconds, best of ``--repeats``); the table sums them over the grid.
``--trial`` also times the whole quick-profile ``theorem2_trial`` once with each version over the
grid (one trial per point; the experiment runs ``n_trials`` of them).
Numbers are from one run; nothing asserts them (on a shared machine, read the CPU columns).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulations.experiments.vector import theorem2 as vt  # noqa: E402
from simulations.experiments.vector.approximation import PANELS, panel_sigma  # noqa: E402
from simulations.laws import CircleMixture  # noqa: E402


def _cpu(fn, repeats: int):
    best, out = float("inf"), None
    for _ in range(repeats):
        c0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - c0)
    return best, out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--profile", default="quick", choices=tuple(vt.PROFILES))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--trial", action="store_true", help="also time whole trials with each r0")
    args = p.parse_args(argv)
    prof = vt.PROFILES[args.profile]
    load0 = os.getloadavg()[0]
    rng = np.random.default_rng(0)
    fast_total = slow_total = 0.0
    print(f"{'panel':6s} {'N':>6s} {'K':>4s} {'bisection ms':>13s} {'fast ms':>8s} {'ratio':>6s}")
    for panel in PANELS:
        for N in prof.N_grid:
            for K in prof.K_grid:
                law = CircleMixture(K, panel_sigma(panel, K))
                X, _ = law.sample(prof.M, rng)
                mass = 2 * prof.k / N
                slow, ref = _cpu(lambda: law._r0_bisection(X, mass), args.repeats)
                fast, got = _cpu(lambda: law.r0(X, mass), args.repeats)
                assert np.array_equal(ref, got), (panel, N, K)
                fast_total += fast
                slow_total += slow
                print(f"{panel:6s} {N:6d} {K:4d} {1e3 * slow:13.1f} {1e3 * fast:8.1f} {slow / fast:6.1f}")
    print(f"sum over the grid: bisection {slow_total:.2f} CPU-s, fast {fast_total:.2f} CPU-s, "
          f"{slow_total / fast_total:.1f}x (identical arrays)")
    if args.trial:
        pts = [vt.Theorem2Point(num_classes=K, sigma=panel_sigma(panel, K), epsilon=vt.EPSILON, k=prof.k, N=N,
                                M=prof.M) for panel in PANELS for N in prof.N_grid for K in prof.K_grid]
        fast_r0 = CircleMixture.r0
        times = {}
        for label, r0 in (("bisection", CircleMixture._r0_bisection), ("fast", fast_r0)):
            CircleMixture.r0 = r0
            try:
                c0 = time.process_time()
                rows = [vt.theorem2_trial(cfg, 0, 20261122) for cfg in pts]
                times[label] = (time.process_time() - c0, rows)
            finally:
                CircleMixture.r0 = fast_r0
        assert times["bisection"][1] == times["fast"][1]
        print(f"one trial per grid point: bisection {times['bisection'][0]:.2f} CPU-s, fast {times['fast'][0]:.2f} "
              f"CPU-s, {times['bisection'][0] / times['fast'][0]:.2f}x (identical trial summaries)")
    print(f"load average before {load0:.2f}, after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
