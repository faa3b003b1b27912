#!/usr/bin/env python
"""Regenerate every figure and table of labeldp-suite into figures/, with figures/REPORT.md.

examples:
  python paper_repro.py                         every experiment, quick profile (minutes)
  python paper_repro.py --profile smoke         seconds
  python paper_repro.py --profile paper         the papers' sizes (hours; use --jobs / --scheduler)
  python paper_repro.py --list                  the experiments and what each reproduces
  python paper_repro.py --only rates_table,dp_checks

A failed, interrupted or skipped experiment leaves its earlier outputs as they were; Ctrl-C keeps
the finished trials cached, so rerunning the same command resumes.

Each claim is reported as holding, inconclusive (its interval neither confirms nor excludes it at the
stated margin) or failing, per experiment and in figures/REPORT.md. Exit status: 0 when every
experiment ran, whatever its claims' verdicts (a claim that fails or is inconclusive is a result,
not an error of the run); 1 if an experiment crashed; 2 for bad arguments; 130 if interrupted.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from simulations.experiments import PROFILES, REGISTRY, RunContext
import proofs_checks.experiments  # noqa: F401,E402  (adds the checks' experiments to REGISTRY)

EXIT_USAGE, EXIT_FAILED, EXIT_INTERRUPTED = 2, 1, 130


def _cores() -> int:
    """Cores this process may run on (as :func:`simulations.executors.available_cores`, which `--list` must not
    import: it stays light)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="store_true",
                   help="list the experiments, what they reproduce, and their claims in --out counted by kind")
    p.add_argument("--only", default=None, help="comma-separated experiment names (default: all)")
    p.add_argument("--profile", default="quick", choices=PROFILES,
                   help="smoke: seconds; quick (default): minutes; paper: the papers' sizes")
    p.add_argument("--out", default="figures", help="output folder (default: figures/)")
    p.add_argument("--seed", type=int, default=RunContext().seed, help="root seed of every random stream")
    p.add_argument("--jobs", type=int, default=_cores(),
                   help="worker processes for Monte Carlo trials (joblib/loky; default: the cores available, "
                        "%(default)s here); results are identical whatever --jobs")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address (tcp://host:port), or 'local' to start a LocalCluster")
    p.add_argument("--force", action="store_true",
                   help="recompute, ignoring cached trials (the cache is replaced only when a run finishes)")
    p.add_argument("--no-progress", action="store_true", help="hide the per-trial progress bars")
    p.add_argument("--data-dir", default=None,
                   help="folder with MNIST / CIFAR / MovieLens files for the real-data experiments (never downloaded)")
    return p


def _ordered() -> list[str]:
    return [e.name for e in sorted(REGISTRY.values(), key=lambda e: (e.order, e.name))]


def _check(args) -> list[str]:
    """Every argument checked before anything runs; returns the experiment names. Raises ValueError."""
    ordered = _ordered()
    names = ordered
    if args.only is not None:
        names = list(dict.fromkeys(n.strip() for n in args.only.split(",") if n.strip()))  # `a,a` runs a once
        if not names:
            raise ValueError(f"--only names no experiment, got --only={args.only!r}; known: {', '.join(ordered)}")
        unknown = [n for n in names if n not in REGISTRY]
        if unknown:
            raise ValueError(f"unknown experiment(s) {unknown} in --only; known: {', '.join(ordered)}")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got --seed={args.seed}")
    if args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got --jobs={args.jobs}")
    from simulations.executors import check_scheduler, max_jobs
    from simulations.experiments.runner import STAGING, check_output_folder
    from simulations.outputs import experiment_folder

    if args.jobs > max_jobs():
        raise ValueError(f"--jobs must be <= {max_jobs()} (4 per core of the {_cores()} available "
                         f"here), got --jobs={args.jobs}")

    try:
        check_scheduler(args.scheduler)
    except ValueError as exc:
        raise ValueError(f"--scheduler: {exc}") from None
    try:
        out = check_output_folder(args.out)
        for sub in (*names, STAGING, ".cache"):  # nothing may be written through a link out of --out
            experiment_folder(out, sub)
        for name in names:
            experiment_folder(out / ".cache", name)
    except ValueError as exc:
        raise ValueError(f"--out: {exc}") from None
    if args.data_dir is not None:
        if not Path(args.data_dir).is_dir():
            raise ValueError(f"--data-dir must be an existing folder, got --data-dir={args.data_dir!r}")
        from simulations.datasets import validate_data_dir

        try:
            validate_data_dir(args.data_dir)  # reads every file present: a corrupt one is named now
        except ValueError as exc:
            raise ValueError(f"--data-dir: {exc}") from None
    return names


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.list:
        from simulations.experiments.board import kind_counts_text, read_records

        committed, _ = read_records(args.out)  # the claims of the outputs in --out, counted by kind
        for name in _ordered():
            print(f"{name:32s} {REGISTRY[name].reproduces}")
            if name in committed:
                print(f"{'':32s} in {args.out}: {kind_counts_text(committed[name]['claims'])}")
        return 0
    try:
        names = _check(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from simulations.experiments.runner import run_all

    ctx = RunContext(profile=args.profile, seed=args.seed, jobs=args.jobs, scheduler=args.scheduler,
                     force=args.force, progress=not args.no_progress,
                     data_dir=Path(args.data_dir) if args.data_dir else None)
    out = Path(args.out)
    command = ["paper_repro.py", *(sys.argv[1:] if argv is None else argv)]  # as recorded in provenance
    outcomes = run_all(names, ctx, out, argv=command)
    print(f"report: {out / 'REPORT.md'}")
    if any(o.status == "interrupted" for o in outcomes):
        return EXIT_INTERRUPTED
    if any(o.status == "crashed" for o in outcomes):
        print(f"crashed: {[o.name for o in outcomes if o.status == 'crashed']}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _interrupted_at_exit(signum, frame) -> None:
    """SIGINT while the interpreter shuts down (worker pools closing): exit 130 at once, not 0 with a traceback.

    Every output was published before shutdown began; the loky workers end with this process.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os.write(2, b"interrupted while shutting down (the outputs were written before)\n")
    os._exit(EXIT_INTERRUPTED)


def cli() -> None:
    """The console entry point (``paper_repro.py`` run as a script, or the installed ``labeldp-repro``)."""
    try:
        code = main()
    except KeyboardInterrupt:  # outside an experiment (run_all reports those itself)
        print("interrupted; rerun the same command to resume", file=sys.stderr)
        code = EXIT_INTERRUPTED
    signal.signal(signal.SIGINT, _interrupted_at_exit)  # from here on, only exit handlers run
    sys.exit(code)


if __name__ == "__main__":
    cli()
