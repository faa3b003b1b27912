#!/usr/bin/env python
"""Wall time of the whole quick profile of the rate-verification experiments.

    python benchmarks/bench_rates.py [--profile quick] [--jobs 1] [--only NAME,NAME] [--keep DIR]

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
                    "rates_central_regression", "rates_heavy_tailed", "rates_eps_collapse", "rates_local_vs_central")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default="quick", choices=("smoke", "quick", "paper"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="comma-separated subset of the rate experiments")
    ap.add_argument("--keep", default=None, help="write the outputs here instead of a temporary folder")
    args = ap.parse_args(argv)
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
            ok = sum(c["holds"] for c in rec["claims"])
            print(f"{name:32s} {rec['compute_s']:10.1f} {wall:8.1f} {ok:>3d}/{len(rec['claims']):<3d}")
            total_c += rec["compute_s"]
            total += wall
        print(f"{'total':32s} {total_c:10.1f} {total:8.1f}   (profile {args.profile}, jobs {args.jobs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
