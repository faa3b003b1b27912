#!/usr/bin/env python
"""Regenerate every figure and table of labeldp-suite into ``figures/`` with ``figures/REPORT.md``.

    python paper_repro.py                    # every experiment, quick profile (minutes)
    python paper_repro.py --profile smoke    # seconds, as CI runs it
    python paper_repro.py --profile paper    # the papers' sizes (hours; use --jobs / --scheduler)
    python paper_repro.py --list
    python paper_repro.py --only rates_table,dp_checks

This script only wires: the experiments live in ``simulations.experiments`` and
``proofs_checks.experiments`` and register themselves on import.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import proofs_checks.experiments  # noqa: F401  (registers the checks' experiments)
from simulations.experiments import PROFILES, REGISTRY, RunContext
from simulations.experiments.runner import run_all


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="store_true", help="list the experiments and what they reproduce")
    p.add_argument("--only", default=None, help="comma-separated experiment names (default: all)")
    p.add_argument("--profile", default="quick", choices=PROFILES,
                   help="smoke: seconds; quick (default): minutes; paper: the papers' sizes")
    p.add_argument("--out", default="figures", help="output folder (default: figures/)")
    p.add_argument("--seed", type=int, default=RunContext().seed, help="root seed of every random stream")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for Monte Carlo trials (joblib/loky)")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address for the trials, or 'local' to start a LocalCluster")
    p.add_argument("--force", action="store_true", help="ignore cached trial results and recompute")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    p.add_argument("--data-dir", default=None,
                   help="folder with MNIST / CIFAR / MovieLens files for the real-data experiments (never downloaded)")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    ordered = [e.name for e in sorted(REGISTRY.values(), key=lambda e: (e.order, e.name))]
    if args.list:
        for e in sorted(REGISTRY.values(), key=lambda e: (e.order, e.name)):
            print(f"{e.name:32s} {e.reproduces}")
        return 0
    names = ordered
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        if not names:
            print(f"error: --only names no experiment, got --only={args.only!r}; known: {ordered}", file=sys.stderr)
            return 2
        unknown = [n for n in names if n not in REGISTRY]
        if unknown:
            print(f"error: unknown experiment(s) {unknown}; known: {ordered}", file=sys.stderr)
            return 2
    if args.seed < 0:
        print(f"error: --seed must be >= 0, got {args.seed}", file=sys.stderr)
        return 2
    if args.data_dir is not None:
        if not Path(args.data_dir).is_dir():
            print(f"error: --data-dir must be an existing folder, got --data-dir={args.data_dir!r}", file=sys.stderr)
            return 2
        from simulations.datasets import available_datasets
        try:
            available_datasets(args.data_dir)
        except ValueError as exc:
            print(f"error: --data-dir: {exc}", file=sys.stderr)
            return 2
    if args.jobs < 1:
        print(f"error: --jobs must be >= 1, got {args.jobs}", file=sys.stderr)
        return 2
    ctx = RunContext(profile=args.profile, seed=args.seed, jobs=args.jobs, scheduler=args.scheduler,
                     force=args.force, progress=not args.no_progress,
                     data_dir=Path(args.data_dir) if args.data_dir else None)
    out = Path(args.out)
    crashed = run_all(names, ctx, out)
    print(f"report: {out / 'REPORT.md'}")
    if crashed:
        print(f"crashed: {crashed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
