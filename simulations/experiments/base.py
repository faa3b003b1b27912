"""Experiments as data: what each one reproduces, how it computes, how it plots.

An :class:`Experiment` is registered once with :func:`register`; ``paper_repro.py`` only collects
the registry and hands each experiment to :func:`simulations.experiments.runner.run_experiment`.
``compute(ctx)`` returns an :class:`ExperimentResult` (CSV tables, claims, notes and free-form data
for the plot); ``plot(result)`` returns named matplotlib figures. Output format: DESIGN.md
"Experiments and their outputs".

The suite's experiments are listed in one catalogue per layer (:mod:`simulations.experiments.catalogue`,
:mod:`proofs_checks.experiments.catalogue`) with ``compute`` / ``plot`` given as
``"package.module:function"`` references, imported on first use: listing the experiments
(``paper_repro.py --list``) imports none of their modules, nor numpy, scipy, sympy or matplotlib.
This module must stay that cheap (standard library only).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import FrozenInstanceError, dataclass, field
from pathlib import Path
from typing import Any, Callable

__all__ = ["PROFILES", "Claim", "Experiment", "ExperimentResult", "ExperimentSkipped", "RunContext", "REGISTRY",
           "register", "resolve_reference"]

PROFILES = ("smoke", "quick", "paper")


class ExperimentSkipped(Exception):
    """Raised by ``compute`` when the experiment cannot run here (an optional extra is missing).

    The runner then leaves the experiment's earlier outputs untouched and lists it at the end of
    the run as skipped, with this message (which should carry the install line).

    Parameters
    ----------
    reason : str
        Why, and how to make it run, e.g. ``"torch not installed: pip install -e '.[torch]'"``.

    Examples
    --------
    >>> str(ExperimentSkipped("torch not installed: pip install -e '.[torch]'"))
    "torch not installed: pip install -e '.[torch]'"
    """


@dataclass(frozen=True, slots=True)
class Claim:
    """One checked statement: ``{"claim", "expected", "measured", "holds", "verdict", "detail"}`` in results.json.

    ``holds`` is True (the claim holds), False (it fails: the measurement excludes it) or None
    (inconclusive: the interval neither confirms nor excludes it at the stated margin, see
    :func:`simulations.stats.interval_verdict`). ``verdict`` spells the same as
    ``"holds"`` / ``"fails"`` / ``"inconclusive"``.
    """

    claim: str
    holds: bool | None
    expected: float | None = None
    measured: float | None = None
    detail: str = ""

    def to_json(self) -> dict:
        def num(x):
            if x is None:
                return None
            x = float(x)
            return x if math.isfinite(x) else str(x)  # JSON has no inf/nan

        holds = None if self.holds is None else bool(self.holds)
        return {"claim": self.claim, "expected": num(self.expected), "measured": num(self.measured),
                "holds": holds, "verdict": self.verdict, "detail": self.detail}

    @property
    def verdict(self) -> str:
        """``"holds"``, ``"fails"`` or ``"inconclusive"`` (``holds`` is None)."""
        return "inconclusive" if self.holds is None else ("holds" if self.holds else "fails")


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
``figure_formats`` are the files written per figure (``"png"``, ``"pdf"``).
    """

    profile: str = "quick"
    seed: int = 20261122
    jobs: int = 1
    scheduler: str | None = None
    force: bool = False
    cache_dir: Path | None = None
    progress: bool = True
    data_dir: Path | None = None  # user folder of real data sets (``--data-dir``); never downloaded into
    # Figure files per plot: PNG and PDF for every user run. The test suite's shared smoke runs write PNG only
    # (tests/conftest.py; issue 20: PDF rendering was ~30 CPU-s of the suite); PDF output is tested by
    # tests/simulations/test_plotting.py and by the CLI end-to-end test, which use the default.
    figure_formats: tuple[str, ...] = ("png", "pdf")


def resolve_reference(ref: str) -> Callable:
    """Import ``"package.module:function"`` and return the callable it names.

    Raises ``ImportError`` if the module cannot be imported, ``AttributeError`` if it does not define
    the name, ``TypeError`` if the name is not callable.
    """
    module, _, attr = ref.partition(":")
    fn = getattr(importlib.import_module(module), attr)
    if not callable(fn):
        raise TypeError(f"{ref!r} must name a callable, got {type(fn).__name__}")
    return fn


def _check_callable_or_reference(field_name: str, value) -> None:
    if callable(value):
        return
    if not isinstance(value, str):
        raise TypeError(f"{field_name} must be a callable or a 'package.module:function' string, got {value!r}")
    module, sep, attr = value.partition(":")
    if not (sep and module and attr.isidentifier() and all(part.isidentifier() for part in module.split("."))):
        raise ValueError(f"{field_name} must be a callable or a 'package.module:function' string, got {value!r}")


class Experiment:
    """One experiment of the report: its name, the paper claim it reproduces, how it computes and plots.

    Parameters
    ----------
    name : str
        Stable name: the output folder ``figures/<name>/`` and the ``--only`` key.
    reproduces : str
        The paper claim / figure / table, with file and equation (``paper_repro.py --list`` prints it).
    compute : callable ``(RunContext) -> ExperimentResult``, or ``"package.module:function"``
    plot : callable ``(ExperimentResult) -> dict`` (figure name -> matplotlib Figure), or ``"package.module:function"``
        A string reference is imported on first access of ``exp.compute`` / ``exp.plot`` and cached,
        so ``exp.compute(ctx)`` and ``exp.plot(result)`` read the same either way, and a catalogue of
        experiments costs no import of the code that runs them.
    order : int, default 100
        Position in the report (rates table first; ties broken by name).

    ``compute_ref`` / ``plot_ref`` hold what was passed (the callable or the string). Instances are
    immutable, compare and hash by those five values, and pickle by their constructor arguments.
    """

    __slots__ = ("name", "reproduces", "compute_ref", "plot_ref", "order", "_resolved")

    def __init__(self, name: str, reproduces: str, compute: Callable[[RunContext], ExperimentResult] | str,
                 plot: Callable[[ExperimentResult], dict] | str, order: int = 100):
        _check_callable_or_reference("compute", compute)
        _check_callable_or_reference("plot", plot)
        for slot, value in (("name", name), ("reproduces", reproduces), ("compute_ref", compute),
                            ("plot_ref", plot), ("order", order), ("_resolved", {})):
            object.__setattr__(self, slot, value)

    def _get(self, which: str) -> Callable:
        ref = getattr(self, f"{which}_ref")
        if not isinstance(ref, str):
            return ref
        fn = self._resolved.get(which)
        if fn is None:
            fn = self._resolved[which] = resolve_reference(ref)
        return fn

    @property
    def compute(self) -> Callable[[RunContext], ExperimentResult]:
        return self._get("compute")

    @property
    def plot(self) -> Callable[[ExperimentResult], dict]:
        return self._get("plot")

    def _key(self) -> tuple:
        return (self.name, self.reproduces, self.compute_ref, self.plot_ref, self.order)

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other):
        return self._key() == other._key() if isinstance(other, Experiment) else NotImplemented

    def __hash__(self):
        return hash(self._key())

    def __reduce__(self):
        return (Experiment, self._key())

    def __repr__(self):
        return (f"Experiment(name={self.name!r}, reproduces={self.reproduces!r}, compute={self.compute_ref!r}, "
                f"plot={self.plot_ref!r}, order={self.order!r})")


REGISTRY: dict[str, Experiment] = {}


def register(experiment: Experiment) -> Experiment:
    if experiment.name in REGISTRY:
        raise ValueError(f"experiment name already registered: {experiment.name!r}")
    REGISTRY[experiment.name] = experiment
    return experiment
