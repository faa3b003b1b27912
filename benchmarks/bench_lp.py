#!/usr/bin/env python
"""Solve times of 004's LP1 (naive, envelope, efficient) and LP2 (naive, efficient) against K.

    python benchmarks/bench_lp.py [--eps 1.0] [--solvers HIGHS,CLARABEL] [--max-k 100]

For each formulation, solver and K: median wall seconds (build + cvxpy compile + solve) over
--repeats runs on one Dirichlet(1) prior, the solver's own seconds, the relative difference to
the closed form max_k w_k, and the ratio of each formulation's time to the efficient one at the
same K. Numbers come from one run on whatever machine runs it; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from proofs_checks.rrwithprior_lp import rrwithprior_lp, rrwithprior_value

# (formulation, method) -> the K values it is run at (the naive LP1 has K²(K−1) rows)
GRID = {
    ("lp1", "naive"): (5, 10, 20, 30),
    ("lp1", "envelope"): (5, 10, 20, 50, 100),
    ("lp1", "efficient"): (5, 10, 20, 30, 50, 100, 200),
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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eps", type=float, default=1.0)
    ap.add_argument("--solvers", default="HIGHS", help="comma-separated cvxpy solvers, e.g. HIGHS,CLARABEL")
    ap.add_argument("--max-k", type=int, default=1000, help="skip K above this")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

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
