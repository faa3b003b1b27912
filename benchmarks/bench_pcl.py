#!/usr/bin/env python
"""PCL (001 Algorithm 2) speed: fit + exact excess error at n = 10^7, d = 3, against a plain numpy
reference, and the cost of the ``bayes_consistency`` paper profile.

    python benchmarks/bench_pcl.py            # PCL timing + paper-profile estimate (one trial per point)
    python benchmarks/bench_pcl.py --full     # also run the paper profile on 2 processes and time it

The numpy reference computes the same classifier (``np.bincount`` cube votes, the numpy keyed-noise
reference, ``np.where`` excess); both are checked equal before timing. Data generation is outside
the timed region (it is the experiment's, not the learner's). Ratios are from one run; nothing
asserts them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulations.estimators.pcl import PCL, pcl_side  # noqa: E402
from simulations.kernels_cells import cube_votes_numpy, keyed_laplace_numpy  # noqa: E402
from simulations.laws.consistency import StepEta, cubes_per_axis  # noqa: E402


def numpy_reference(X, y, law, epsilon, key):
    n, d = X.shape
    side = pcl_side(n, d)
    m = cubes_per_axis(side)
    counts, votes = cube_votes_numpy(X, y, side, m)
    w = keyed_laplace_numpy(key, np.arange(m ** d), 1 / epsilon)
    bits = 0.5 * votes + w > 0
    P, M = law.cube_parts(side)
    return float(np.where(bits, M, P).sum())


def best_of(fn, repeat=3):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=10 ** 7)
    p.add_argument("--d", type=int, default=3)
    p.add_argument("--full", action="store_true", help="run and time the bayes_consistency paper profile (--jobs 2)")
    args = p.parse_args(argv)
    law = StepEta(args.d)
    rng = np.random.default_rng(0)
    X, y = law.sample(args.n, rng)
    PCL(epsilon=1.0, random_state=0).fit(X[:1000], y[:1000]).all_bits()  # compile / load the numba cache

    def fast():
        est = PCL(epsilon=1.0, random_state=np.random.default_rng(1)).fit(X, y)
        return est, law.excess_risk_cubes(est.all_bits(), est.side_)

    c0 = time.process_time()
    t_fast, (est, ex_fast) = best_of(fast)
    cpu_fast = (time.process_time() - c0) / 3
    t_ref, ex_ref = best_of(lambda: numpy_reference(X, y, law, 1.0, est.noise_key_))
    assert ex_fast == ex_ref, (ex_fast, ex_ref)
    print(f"PCL fit + exact excess, n = {args.n:.0e}, d = {args.d} ({est.m_ ** args.d} cubes): "
          f"{t_fast:.3f} s wall, {cpu_fast:.3f} s CPU (numba) vs {t_ref:.3f} s (numpy reference): {t_ref / t_fast:.1f}x; excess {ex_fast:.5f} "
          f"(target < 5 s on one core)")

    from simulations.experiments.consistency.bayes_consistency import LAWS, PROFILES, ConsistencyPoint, consistency_trial

    logn, n_trials = PROFILES["paper"].log10_n, PROFILES["paper"].n_trials
    total, cpu = 0.0, 0.0
    for law_name in LAWS:
        for d in (1, 2, 3):
            for x in logn:
                t, c = time.perf_counter(), time.process_time()
                consistency_trial(ConsistencyPoint(law_name, d, int(round(10 ** x))), 0, 1)
                total += time.perf_counter() - t
                cpu += time.process_time() - c
    print(f"bayes_consistency paper profile estimate: one trial of each of {len(LAWS) * 3 * len(logn)} points took "
          f"{total:.1f} s wall ({cpu:.1f} s CPU; the two differ on a loaded machine); x {n_trials} trials = "
          f"{cpu * n_trials:.0f} s CPU serial, ~{cpu * n_trials / 2:.0f} s on 2 free cores (target < 600 s)")
    if args.full:
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            subprocess.run([sys.executable, str(ROOT / "paper_repro.py"), "--only", "bayes_consistency", "--profile",
                            "paper", "--jobs", "2", "--no-progress", "--out", tmp], check=True, cwd=ROOT)
            print(f"bayes_consistency paper profile, --jobs 2: {time.perf_counter() - t:.0f} s measured")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
