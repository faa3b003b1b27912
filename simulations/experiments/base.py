"""Experiments as data: what each one reproduces, how it computes, how it plots.

An :class:`Experiment` is registered once with :func:`register`; ``paper_repro.py`` only collects
the registry and hands each experiment to :func:`simulations.experiments.runner.run_experiment`.
``compute(ctx)`` returns an :class:`ExperimentResult` (CSV tables, claims, notes and free-form data
for the plot); ``plot(result)`` returns named matplotlib figures. Output format: docs/design.md
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

__all__ = ["KINDS", "PROFILES", "READINGS", "Claim", "Experiment", "ExperimentResult", "ExperimentSkipped", "RunContext", "REGISTRY",
           "reading_of", "register", "resolve_reference"]

PROFILES = ("smoke", "quick", "paper")

#: What a claim tests (docs/design.md, "Claim kinds"): ``"paper"`` the paper states it (a theorem, a rate,
#: a figure's trend, a table value); ``"erratum"`` the paper's text is wrong and the check confirms the error
#: (the claim names its ``proofs_checks.findings()`` entry); ``"beyond"`` a question the suite adds
#: (tightness, constants, growth beyond a bound, a stand-in data set's behaviour).
KINDS = ("paper", "erratum", "beyond")

#: The verdict in each kind's words, for ``holds`` True / False / None.
READINGS = {"paper": ("reproduced", "not reproduced", "inconclusive"),
            "erratum": ("confirmed", "not confirmed", "inconclusive"),
            "beyond": ("yes", "no", "inconclusive")}


class ExperimentSkipped(Exception):
    """Raised by ``compute`` when the experiment cannot run here (an optional extra is missing).

    The runner then leaves the experiment's earlier outputs untouched and lists it at the end of
    the run as skipped, with this message (which should carry the install line). It takes one
    argument, the reason: why, and how to make it run, e.g.
    ``"torch not installed: pip install -e '.[torch]'"`` (no Parameters section: the signature is
    ``Exception``'s, which numpydoc cannot read).

    References
    ----------
    docs/design.md, "Experiments and their outputs" (a skipped experiment keeps its earlier outputs).

    Examples
    --------
    >>> str(ExperimentSkipped("torch not installed: pip install -e '.[torch]'"))
    "torch not installed: pip install -e '.[torch]'"
    """


@dataclass(frozen=True, slots=True)
class Claim:
    """One checked statement, as written to ``results.json``.

    ``holds`` is True (the statement holds), False (the measurement excludes it) or None
    (inconclusive: the interval neither confirms nor excludes it at the stated margin, see
    :func:`simulations.stats.interval_verdict`). ``kind`` says what the statement is, so that a
    reader never takes a question the suite adds for a verdict on a paper:

    * ``"paper"``: the paper states it; it is *reproduced*, *not reproduced* or *inconclusive*;
    * ``"erratum"``: the statement is that the paper's text is wrong (``holds`` True: the error is
      *confirmed*); it names its :func:`proofs_checks.findings.findings` entry in ``finding``;
    * ``"beyond"``: a question the suite asks beyond the paper; answered *yes*, *no* or
      *inconclusive*.

    Instances are frozen; ``kind`` and ``finding`` are checked when built.

    Parameters
    ----------
    claim : str
        The statement checked, naming the paper and equation (e.g. ``"003 Table 1: slope = -1/2"``).
    holds : bool or None
        True (holds), False (fails) or None (inconclusive).
    expected : float or None, default None
        The paper's number (e.g. a rate exponent of 003 Table 1); None when the claim has none.
    measured : float or None, default None
        The measured number compared with ``expected``; None when there is none.
    detail : str, default ""
        How it was measured: the interval, the margin, the grid.
    kind : {"paper", "erratum", "beyond"}
        Keyword only, required: what the claim tests (:data:`KINDS`).
    finding : str, default ""
        Keyword only: the ``topic`` of the :func:`proofs_checks.findings.findings` entry an
        ``"erratum"`` claim confirms; required for that kind, empty for the others.

    Raises
    ------
    ValueError
        If ``kind`` is not one of :data:`KINDS`, an erratum names no finding, or another kind names one.

    References
    ----------
    docs/design.md, "Experiments and their outputs" and "Claim kinds".

    Examples
    --------
    >>> c = Claim("003 Table 1: slope = -1/2", holds=None, expected=-0.5, measured=-0.47, kind="paper")
    >>> c.verdict, c.reading
    ('inconclusive', 'inconclusive')
    >>> Claim("Δ grows like √ln K", False, kind="beyond").reading
    'no'
    >>> Claim("x", True, kind="theorem")
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of ('paper', 'erratum', 'beyond'), got kind='theorem'
    """

    claim: str
    holds: bool | None
    expected: float | None = None
    measured: float | None = None
    detail: str = ""
    kind: str = field(kw_only=True)
    finding: str = field(default="", kw_only=True)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got kind={self.kind!r}")
        if (self.kind == "erratum") != bool(self.finding):
            raise ValueError("an erratum claim names its findings() topic in finding= and no other kind does, "
                             f"got kind={self.kind!r}, finding={self.finding!r}")

    def to_json(self) -> dict:
        """The claim as the JSON object written to ``results.json``.

        Returns
        -------
        dict
            Keys ``claim``, ``kind``, ``expected``, ``measured``, ``holds``, ``verdict``, ``reading``,
            ``detail`` and, for an erratum, ``finding``; numbers as floats, infinities and NaN as the
            strings ``"inf"``, ``"-inf"``, ``"nan"`` (JSON has none), ``holds`` as a plain bool or None.

        Examples
        --------
        >>> Claim("x", True, expected=float("inf"), measured=2, kind="paper").to_json()  # doctest: +NORMALIZE_WHITESPACE
        {'claim': 'x', 'kind': 'paper', 'expected': 'inf', 'measured': 2.0, 'holds': True, 'verdict': 'holds',
         'reading': 'reproduced', 'detail': ''}
        """
        def num(x):
            if x is None:
                return None
            x = float(x)
            return x if math.isfinite(x) else str(x)  # JSON has no inf/nan

        holds = None if self.holds is None else bool(self.holds)
        out = {"claim": self.claim, "kind": self.kind, "expected": num(self.expected),
               "measured": num(self.measured), "holds": holds, "verdict": self.verdict,
               "reading": self.reading, "detail": self.detail}
        if self.finding:
            out["finding"] = self.finding
        return out

    @property
    def verdict(self) -> str:
        """``"holds"``, ``"fails"`` or ``"inconclusive"`` (``holds`` is None), whatever the kind.

        Returns
        -------
        str
            The verdict spelled out; :attr:`reading` words it for the claim's kind.

        Examples
        --------
        >>> [Claim("a", h, kind="paper").verdict for h in (True, False, None)]
        ['holds', 'fails', 'inconclusive']
        """
        return "inconclusive" if self.holds is None else ("holds" if self.holds else "fails")

    @property
    def reading(self) -> str:
        """The verdict in the words of the claim's kind (:data:`READINGS`).

        Returns
        -------
        str
            ``reproduced`` / ``not reproduced`` (paper), ``confirmed`` / ``not confirmed`` (erratum),
            ``yes`` / ``no`` (beyond), or ``inconclusive``.

        Examples
        --------
        >>> Claim("a", False, kind="paper").reading, Claim("b", True, kind="erratum", finding="t").reading
        ('not reproduced', 'confirmed')
        """
        return reading_of(self.kind, self.holds)


def reading_of(kind: str, holds: bool | None) -> str:
    """The verdict ``holds`` (True / False / None) in the words of ``kind`` (:data:`READINGS`).

    Parameters
    ----------
    kind : {"paper", "erratum", "beyond"}
        What the claim tests.
    holds : bool or None
        The claim's verdict.

    Returns
    -------
    str
        For example ``"not reproduced"`` for a paper claim that fails.

    References
    ----------
    docs/design.md, "Claim kinds".

    Examples
    --------
    >>> reading_of("beyond", None), reading_of("erratum", False)
    ('inconclusive', 'not confirmed')
    """
    yes, no, unsure = READINGS[kind]
    return unsure if holds is None else (yes if holds else no)


@dataclass(slots=True)
class ExperimentResult:
    """What ``compute`` returns.

    The runner writes it out (docs/design.md, "Experiments and their outputs"); nothing is validated here.

    Parameters
    ----------
    tables : dict of str to dict of str to sequence, default {}
        name -> {column: 1-D sequence}; each is written to ``<name>.csv`` (data only: no
        timings, dates or host names, so the same seed gives byte-identical files).
    claims : list of Claim, default []
        The paper claims checked, with expected and measured numbers.
    notes : str, default ""
        Markdown placed in the report (e.g. a rendered table, which distribution and why).
    data : dict, default {}
        Anything else the plot function needs.

    References
    ----------
    docs/design.md, "Experiments and their outputs".

    Examples
    --------
    >>> r = ExperimentResult(tables={"slopes": {"N": [10, 100], "risk": [0.1, 0.01]}},
    ...                      claims=[Claim("slope = -1", True, expected=-1.0, measured=-1.0, kind="paper")])
    >>> sorted(r.tables["slopes"]), [c.verdict for c in r.claims], r.notes
    (['N', 'risk'], ['holds'], '')
    """

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    notes: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunContext:
    """Settings of one run, passed to ``compute``.

    Instances are frozen. The profile is checked here, so that every experiment's ``compute`` refuses an
    unknown one before any work; the other values are checked by ``paper_repro.py`` and the engine that
    uses them.

    Parameters
    ----------
    profile : {"smoke", "quick", "paper"}, default "quick"
        Size of the run (:data:`PROFILES`): grids, trials and sample sizes grow from smoke to paper.
    seed : int, default 20261122
        Root seed of every stream (see :mod:`simulations.seeding`).
    jobs : int, default 1
        Worker processes of the Monte Carlo engine.
    scheduler : str or None, default None
        Executor of the engine (None: its default for ``jobs``).
    force : bool, default False
        Ignore cached chunk results and recompute.
    cache_dir : pathlib.Path or None, default None
        Where per-chunk results are kept so an interrupted run resumes; None: no cache.
    progress : bool, default True
        Show progress bars.
    data_dir : pathlib.Path or None, default None
        Where the loaders of :mod:`simulations.datasets` look for MNIST, CIFAR, ... (the bundled digits
        need none); never downloaded into.
    figure_formats : tuple of str, default ("png", "pdf")
        The files written per figure.

    Raises
    ------
    ValueError
        If ``profile`` is not one of :data:`PROFILES`.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (same seed, same numbers whatever ``jobs``).

    Examples
    --------
    >>> ctx = RunContext(profile="smoke", seed=1)
    >>> ctx.profile in PROFILES, ctx.jobs, ctx.figure_formats
    (True, 1, ('png', 'pdf'))
    >>> RunContext(profile="huge")
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
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

    def __post_init__(self):
        # check_choice's message, without importing limits: `paper_repro.py --list` imports this module
        if self.profile not in PROFILES:
            raise ValueError(f"profile must be one of {sorted(PROFILES)}, got profile={self.profile!r}")


def resolve_reference(ref: str) -> Callable:
    """Import ``"package.module:function"`` and return the callable it names.

    Parameters
    ----------
    ref : str
        ``"package.module:function"``: a dotted module path, a colon, a name the module defines.

    Returns
    -------
    callable
        ``getattr(importlib.import_module("package.module"), "function")``.

    Raises
    ------
    ImportError
        If the module cannot be imported.
    AttributeError
        If the module does not define the name.
    TypeError
        If the name is not callable.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (catalogues list experiments without importing them).

    Examples
    --------
    >>> resolve_reference("math:sqrt")(16.0)
    4.0
    >>> resolve_reference("math:pi")
    Traceback (most recent call last):
    ...
    TypeError: 'math:pi' must name a callable, got float
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
    paper_note : str, default ""
        Why ``figures/paper/`` holds no output of this experiment, when it holds none (e.g. the paper
        profile equals quick, or it needs hardware this suite's machines lack: the command, its cost and
        the hardware). The paper REPORT.md prints it instead of "not run".
    skip : callable ``(RunContext) -> str or None``, or ``"package.module:function"``, optional
        A cheap check, run before anything is computed, that returns why ``compute`` would raise
        :class:`ExperimentSkipped` in this environment (a missing optional extra or data file), or None
        when it would run. The runner leaves such an experiment out of its time estimate, so that a first
        run without the extras does not announce the time of experiments it will skip.
    privacy : callable ``(profile) -> tuple of Ledger``, ``"package.module:function"`` or None, default None
        The per-label privacy ledgers of a pipeline that releases labels more than once
        (:mod:`simulations.accounting`); declared here, outside the compute module, so that it changes no
        configuration fingerprint. The runner writes their totals into ``results.json`` (``"privacy"``)
        and the report shows them.

    Raises
    ------
    TypeError
        If ``compute`` or ``plot`` is neither a callable nor a string.
    ValueError
        If a string is not of the form ``"package.module:function"``.

    See Also
    --------
    register : add an experiment to :data:`REGISTRY`.

    Notes
    -----
    ``compute_ref`` / ``plot_ref`` / ``skip_ref`` / ``privacy_ref`` hold what was passed (the callable, the
    string or None). Instances are immutable, compare and hash by those eight values, and pickle by their
    constructor arguments.

    References
    ----------
    docs/design.md, "Experiments and their outputs"; ``reproduces`` names the paper's claim (e.g. 003 Table 1).

    Examples
    --------
    >>> exp = Experiment("demo", "003 Table 1", compute="math:sqrt", plot="math:floor")
    >>> exp.compute(9.0), exp.compute_ref
    (3.0, 'math:sqrt')
    >>> Experiment("bad", "x", compute="no colon", plot="math:floor")
    Traceback (most recent call last):
    ...
    ValueError: compute must be a callable or a 'package.module:function' string, got 'no colon'
    """

    __slots__ = ("name", "reproduces", "compute_ref", "plot_ref", "order", "paper_note", "skip_ref", "privacy_ref",
                 "_resolved")

    def __init__(self, name: str, reproduces: str, compute: Callable[[RunContext], ExperimentResult] | str,
                 plot: Callable[[ExperimentResult], dict] | str, order: int = 100, paper_note: str = "",
                 skip: Callable[[RunContext], str | None] | str | None = None,
                 privacy: Callable[[str], tuple] | str | None = None):
        _check_callable_or_reference("compute", compute)
        _check_callable_or_reference("plot", plot)
        for field_name, ref in (("skip", skip), ("privacy", privacy)):
            if ref is not None:
                _check_callable_or_reference(field_name, ref)
        for slot, value in (("name", name), ("reproduces", reproduces), ("compute_ref", compute),
                            ("plot_ref", plot), ("order", order), ("paper_note", paper_note), ("skip_ref", skip),
                            ("privacy_ref", privacy), ("_resolved", {})):
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
        """The compute function, imported from its reference on first access and cached.

        Returns
        -------
        callable
            ``(RunContext) -> ExperimentResult``.

        Examples
        --------
        >>> Experiment("demo", "x", compute="math:sqrt", plot="math:floor").compute(4.0)
        2.0
        """
        return self._get("compute")

    @property
    def plot(self) -> Callable[[ExperimentResult], dict]:
        """The plot function, imported from its reference on first access and cached.

        Returns
        -------
        callable
            ``(ExperimentResult) -> dict`` of figure name -> matplotlib Figure.

        Examples
        --------
        >>> Experiment("demo", "x", compute="math:sqrt", plot="math:floor").plot(2.5)
        2
        """
        return self._get("plot")

    def skip_reason(self, ctx: RunContext) -> str | None:
        """Why ``compute(ctx)`` would be skipped here (a missing extra or data file), or None if it would run.

        Parameters
        ----------
        ctx : RunContext
            The run's context (its ``data_dir`` may hold the data a check looks for).

        Returns
        -------
        str or None
            The reason, as :class:`ExperimentSkipped` would give it; None without a ``skip`` check.

        Examples
        --------
        >>> Experiment("demo", "x", compute="math:sqrt", plot="math:floor").skip_reason(RunContext()) is None
        True
        >>> Experiment("demo", "x", compute="math:sqrt", plot="math:floor",
        ...            skip=lambda ctx: "needs torch").skip_reason(RunContext())
        'needs torch'
        """
        return None if self.skip_ref is None else self._get("skip")(ctx)


    @property
    def privacy(self) -> Callable[[str], tuple] | None:
        """The ledger declaration, imported from its reference on first access and cached (None if none).

        Returns
        -------
        callable or None
            ``(profile) -> tuple of simulations.accounting.Ledger``.

        Examples
        --------
        >>> Experiment("demo", "x", compute="math:sqrt", plot="math:floor").privacy is None
        True
        >>> Experiment("demo", "x", compute="math:sqrt", plot="math:floor", privacy="math:floor").privacy(2.5)
        2
        """
        return None if self.privacy_ref is None else self._get("privacy")

    def _key(self) -> tuple:
        return (self.name, self.reproduces, self.compute_ref, self.plot_ref, self.order, self.paper_note,
                self.skip_ref, self.privacy_ref)

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
    """Add an experiment to :data:`REGISTRY` under its name.

    Parameters
    ----------
    experiment : Experiment
        Its ``name`` must not be registered yet.

    Returns
    -------
    Experiment
        ``experiment`` itself (so it can be used as ``X = register(Experiment(...))``).

    Raises
    ------
    ValueError
        If an experiment of that name is already registered.

    References
    ----------
    docs/design.md, "Experiments and their outputs".

    Examples
    --------
    The suite's experiments are registered on import of :mod:`simulations.experiments`; a second
    registration under a used name is refused:

    >>> import simulations.experiments
    >>> register(REGISTRY["rates_table"])
    Traceback (most recent call last):
    ...
    ValueError: experiment name already registered: 'rates_table'
    """
    if experiment.name in REGISTRY:
        raise ValueError(f"experiment name already registered: {experiment.name!r}")
    REGISTRY[experiment.name] = experiment
    return experiment
