#!/usr/bin/env python
"""Work shared between the learners of one trial (issue 20), against the plain trial, in one run.

    python benchmarks/bench_shared_work.py [--profile quick] [--trials 1]

* ``bayes_consistency``: :func:`~simulations.experiments.consistency.bayes_consistency.fitted_rules` counts the
  cube votes once for the three rules instead of three ``PCL.fit`` calls;
* ``metric_space_consistency``: ``_AssignOnce`` assigns the sample and the 2·10^5 evaluation points
  to their cells once for the three learners instead of three times each.

For every configuration of the experiment's profile, ``--trials`` trials are run both ways; the
trial summaries are asserted equal and the CPU seconds (``time.process_time``) summed. Numbers are
from one run; nothing asserts them (on a shared machine, read the CPU columns and the ratio).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulations.estimators.pcl import PCL  # noqa: E402
from simulations.experiments.consistency import bayes_consistency as bc  # noqa: E402
from simulations.experiments.consistency import metric_consistency as mc  # noqa: E402


def _plain_rules(X, y, privacy):
    return [(name, PCL(epsilon=eps, random_state=privacy).fit(X, y)) for name, eps in bc.RULES]


def _time(trial, points, trials):
    c0 = time.process_time()
    out = [trial(cfg, t, 20261122) for cfg in points for t in range(trials)]
    return time.process_time() - c0, out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--profile", default="quick", choices=("smoke", "quick", "paper"))
    p.add_argument("--trials", type=int, default=1)
    args = p.parse_args(argv)
    load0 = os.getloadavg()[0]

    logn = bc.PROFILES[args.profile].log10_n
    bc_points = [bc.ConsistencyPoint(law, d, int(round(10 ** x))) for law in bc.LAWS for d in (1, 2, 3) for x in logn]
    exps = mc.PROFILES[args.profile].log10_n
    mc_points = [mc.MetricPoint(space=s, n=10 ** e) for s in mc.SPACES for e in exps]
    for cfg in mc_points:  # build the packings (cached per process) outside the timings
        mc.make_space(cfg.space, cfg.n)
    bc.consistency_trial(bc_points[0], 0, 1)  # warm-up: numba kernels loaded from their cache
    mc.metric_trial(mc_points[0], 0, 1)

    rows = []
    shared = bc.fitted_rules
    try:
        bc.fitted_rules = _plain_rules
        plain_t, plain_out = _time(bc.consistency_trial, bc_points, args.trials)
    finally:
        bc.fitted_rules = shared
    shared_t, shared_out = _time(bc.consistency_trial, bc_points, args.trials)
    assert plain_out == shared_out
    rows.append(("bayes_consistency", len(bc_points), plain_t, shared_t))

    once = mc._AssignOnce
    try:
        mc._AssignOnce = lambda space: space
        plain_t, plain_out = _time(mc.metric_trial, mc_points, args.trials)
    finally:
        mc._AssignOnce = once
    shared_t, shared_out = _time(mc.metric_trial, mc_points, args.trials)
    assert plain_out == shared_out
    rows.append(("metric_space_consistency", len(mc_points), plain_t, shared_t))

    print(f"{'experiment':26s} {'configs':>7s} {'plain CPU s':>11s} {'shared CPU s':>12s} {'ratio':>6s}")
    for name, n, a, b in rows:
        print(f"{name:26s} {n:7d} {a:11.2f} {b:12.2f} {a / b:6.2f}")
    print(f"{args.trials} trial(s) per configuration, profile {args.profile}; identical trial summaries; "
          f"load average before {load0:.2f}, after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
