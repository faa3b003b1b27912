"""Experiments as data: what each one reproduces, how it computes, how it plots.

An :class:`Experiment` is registered once with :func:`register`; ``paper_repro.py`` only collects
the registry and hands each experiment to :func:`simulations.experiments.runner.run_experiment`.
``compute(ctx)`` returns an :class:`ExperimentResult` (CSV tables, claims, notes and free-form data
for the plot); ``plot(result)`` returns named matplotlib figures. Output format: DESIGN.md
"Experiments and their outputs".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

__all__ = ["PROFILES", "Claim", "Experiment", "ExperimentResult", "RunContext", "REGISTRY", "register"]

PROFILES = ("smoke", "quick", "paper")


@dataclass(frozen=True, slots=True)
class Claim:
    """One checked statement: ``{"claim", "expected", "measured", "holds", "detail"}`` in results.json."""

    claim: str
    holds: bool
    expected: float | None = None
    measured: float | None = None
    detail: str = ""

    def to_json(self) -> dict:
        def num(x):
            if x is None:
                return None
            x = float(x)
            return x if math.isfinite(x) else str(x)  # JSON has no inf/nan

        return {"claim": self.claim, "expected": num(self.expected), "measured": num(self.measured),
                "holds": bool(self.holds), "detail": self.detail}


@dataclass(slots=True)
class ExperimentResult:
    """What ``compute`` returns.

    tables : name -> {column: 1-D sequence}; each is written to ``<name>.csv`` (data only: no
        timings, dates or host names, so the same seed gives byte-identical files).
    claims : the paper claims checked, with expected and measured numbers.
    notes : Markdown placed in the report (e.g. a rendered table, which distribution and why).
    data : anything else the plot function needs.
    """

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    notes: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunContext:
    """Settings of one run, passed to ``compute``.

    ``seed`` is the root seed of every stream (see :mod:`simulations.seeding`); ``jobs`` and
    ``scheduler`` choose the executor of the Monte Carlo engine; ``cache_dir`` keeps per-chunk
    results so an interrupted run resumes (``force`` ignores them). ``data_dir`` is where the
    loaders of :mod:`simulations.datasets` look for MNIST, CIFAR, ... (the bundled digits need none).
    """

    profile: str = "quick"
    seed: int = 20261122
    jobs: int = 1
    scheduler: str | None = None
    force: bool = False
    cache_dir: Path | None = None
    progress: bool = True
    data_dir: Path | None = None  # user folder of real data sets (``--data-dir``); never downloaded into


@dataclass(frozen=True, slots=True)
class Experiment:
    name: str
    reproduces: str  # the paper claim / figure / table, with file and equation
    compute: Callable[[RunContext], ExperimentResult]
    plot: Callable[[ExperimentResult], dict]  # figure name -> matplotlib Figure
    order: int = 100  # position in the report (rates table first)


REGISTRY: dict[str, Experiment] = {}


def register(experiment: Experiment) -> Experiment:
    if experiment.name in REGISTRY:
        raise ValueError(f"experiment name already registered: {experiment.name!r}")
    REGISTRY[experiment.name] = experiment
    return experiment
