#!/usr/bin/env python
"""Solve times of 004's LP1 (naive, envelope, substitution, efficient) and LP2 (naive, efficient) against K.

    python benchmarks/bench_lp.py [--eps 1.0] [--solvers HIGHS,CLARABEL] [--max-k 100]
                                  [--reference-max-k 1000]

For each formulation, solver and K: median wall seconds (build + cvxpy compile + solve) over
--repeats runs on one Dirichlet(1) prior, the solver's own seconds, the relative difference to
the closed form max_k w_k, and the ratio of each formulation's time to the efficient one at the
same K.

Issue 20 (first table): LP1 "efficient" (the projection onto diagonal and lower envelope, 4K + 1
rows) against "substitution" (the channel-variable form that "efficient" solved before, K² + K
rows; the reference) at K = 100, 300, 1000: one solve each, the before/after ratio, the difference
of the optima, and the targets K = 300 <= 1 s, K = 1000 <= 10 s (wall seconds of the efficient
form). The substitution form needs minutes at K = 1000 (210 s of HiGHS time on a 2-core machine):
``--reference-max-k 300`` skips it there.

Numbers come from one run on whatever machine runs it, with the load average printed beside
them; nothing here is asserted (the targets are reported, never tested).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from proofs_checks.rrwithprior_lp import rrwithprior_lp, rrwithprior_value

# (formulation, method) -> the K values it is run at (the naive LP1 has K²(K−1) rows)
GRID = {
    ("lp1", "naive"): (5, 10, 20, 30),
    ("lp1", "envelope"): (5, 10, 20, 50, 100),
    ("lp1", "substitution"): (5, 10, 20, 30, 50, 100, 200),
    ("lp1", "efficient"): (5, 10, 20, 30, 50, 100, 200, 300, 1000),
    ("lp2", "naive"): (10, 100, 300, 1000),
    ("lp2", "efficient"): (10, 100, 300, 1000, 3000),
}


def _time(p, eps, formulation, method, solver, repeats):
    walls, solves, err = [], [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        try:
            res = rrwithprior_lp(p, eps, formulation, method=method, solver=solver)
        except RuntimeError as exc:  # report a non-optimal status instead of stopping the table
            return None, None, str(exc).split(";")[0]
        walls.append(time.perf_counter() - t0)
        solves.append(res.solve_time)
        err = abs(res.value - rrwithprior_value(p, eps)) / rrwithprior_value(p, eps)
    return statistics.median(walls), statistics.median(solves), err


# Issue 20: wall-second targets of the efficient LP1 (build + compile + solve), by K.
TARGETS_S = {300: 1.0, 1000: 10.0}
ISSUE20_KS = (100, 300, 1000)


def _load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average n/a"


def issue20_table(eps: float, seed: int, reference_max_k: int) -> None:
    """One solve each of LP1 substitution (before) and efficient (after) at K = 100, 300, 1000."""
    print(f"Issue 20: LP1 efficient (projection) vs substitution (reference), eps = {eps}, Dirichlet(1), "
          f"one solve each, HiGHS 1 thread; {_load()} (cores: {os.cpu_count()})")
    print(f"{'K':>5s} {'before s':>9s} {'(solver s)':>10s} {'after s':>9s} {'(solver s)':>10s} {'before/after':>12s} "
          f"{'|diff optima|':>13s} {'|after - closed|':>16s}  target")
    rrwithprior_lp([0.5, 0.5], eps)  # imports and the first HiGHS call outside the timings
    for K in ISSUE20_KS:
        p = np.random.default_rng([seed, K]).dirichlet(np.ones(K))
        t0 = time.perf_counter()
        after = rrwithprior_lp(p, eps, method="efficient")
        t_after = time.perf_counter() - t0
        before, t_before = None, None
        if K <= reference_max_k:
            t0 = time.perf_counter()
            before = rrwithprior_lp(p, eps, method="substitution")
            t_before = time.perf_counter() - t0
        closed = rrwithprior_value(p, eps)
        target = TARGETS_S.get(K)
        verdict = "–" if target is None else f"<= {target:g} s: {'met' if t_after <= target else 'MISSED'}"
        if before is None:
            print(f"{K:5d} {'skipped':>9s} {'':>10s} {t_after:9.4f} {after.solve_time:10.4f} {'–':>12s} {'–':>13s} "
                  f"{abs(after.value - closed):16.1e}  {verdict}")
        else:
            print(f"{K:5d} {t_before:9.3f} {before.solve_time:10.3f} {t_after:9.4f} {after.solve_time:10.4f} "
                  f"{t_before / t_after:12.0f} {abs(before.value - after.value):13.1e} "
                  f"{abs(after.value - closed):16.1e}  {verdict}")
    print(f"({_load()} after the table)\n")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eps", type=float, default=1.0)
    ap.add_argument("--solvers", default="HIGHS", help="comma-separated cvxpy solvers, e.g. HIGHS,CLARABEL")
    ap.add_argument("--max-k", type=int, default=1000, help="skip K above this")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reference-max-k", type=int, default=1000,
                    help="issue-20 table: run the substitution (reference) LP1 only up to this K (minutes at 1000)")
    ap.add_argument("--no-grid", action="store_true", help="only the issue-20 table")
    args = ap.parse_args(argv)

    issue20_table(args.eps, args.seed, args.reference_max_k)
    if args.no_grid:
        return

    print(f"eps = {args.eps}; Dirichlet(1) priors; median of {args.repeats} runs; wall = build + compile + solve")
    print(f"{'formulation':16s} {'solver':9s} {'K':>5s} {'wall s':>9s} {'solver s':>9s} {'rel err':>9s} "
          f"{'wall / efficient':>16s}")
    for solver in args.solvers.split(","):
        reference = {}
        for (formulation, method) in sorted(GRID, key=lambda fm: (fm[0], fm[1] != "efficient")):
            for K in GRID[(formulation, method)]:
                if K > args.max_k:
                    continue
                p = np.random.default_rng([args.seed, K]).dirichlet(np.ones(K))
                wall, solve, err = _time(p, args.eps, formulation, method, solver, args.repeats)
                name = f"{formulation}/{method}"
                if wall is None:
                    print(f"{name:16s} {solver:9s} {K:5d}   FAILED: {err}")
                    continue
                if method == "efficient":
                    reference[(formulation, K)] = wall
                ref = reference.get((formulation, K))
                ratio = f"{wall / ref:16.1f}" if ref else f"{'–':>16s}"
                print(f"{name:16s} {solver:9s} {K:5d} {wall:9.4f} {solve:9.4f} {err:9.1e} {ratio}")


if __name__ == "__main__":
    main()
