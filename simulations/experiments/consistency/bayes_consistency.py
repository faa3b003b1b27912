"""``bayes_consistency``: PCL's excess error goes to 0 on every law (001 Theorems 1.5, 3.2).

For each law (a smooth η, a step on a tilted hyperplane, a rough ±1 pattern at a fine scale), each
d ∈ {1, 2, 3} and each n on a log grid from 10^2 to 10^7, one sample is drawn (DATA stream) and
three rules are fitted to it: the non-private histogram rule and PCL (001 Algorithm 2) at ε = 1
and ε = 0.1 (keys from the PRIVACY stream). The excess error of the released classifier is
computed exactly from η over the cubes (:mod:`simulations.laws.consistency`), as is its average
over PCL's noise given the data (``Σ_j P(h_j = 1) M_j + P(h_j = 0) P_j``, a lower-variance
companion reported in the CSV).

001 proves consistency, not a rate. The report states, per curve, the value at the largest n
with a 95% t-interval over trials, whether it decreased over the last decade (CIs separated), and
the fitted log-log slope over the last decade with a bootstrap CI, next to the exponent a
heuristic plug-in argument gives for these laws (not in 001; see the notes).

References: 001 Algorithm 2, Theorems 1.5, 3.1, 3.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from limits.validation import check_choice
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.pcl import PCL
from simulations.experiments.base import Claim, ExperimentResult
from simulations.laws.consistency import RoughEta, SmoothEta, StepEta
from simulations.plotting import band, figure
from simulations.seeding import EVAL, stream
from simulations.stats import fit_loglog_slope, t_interval

LAWS = ("smooth", "step", "rough")
ROUGH_FINE = {1: 300, 2: 17, 3: 7}  # the fine scale 1/M is resolved by r = n^{-1/(2d)} near n = M^{2d} ≈ 1e5
RULES = (("histogram", None), ("pcl_eps1", 1.0), ("pcl_eps0.1", 0.1))
RULE_LABEL = {"histogram": "histogram rule (non-private)", "pcl_eps1": "PCL, ε = 1", "pcl_eps0.1": "PCL, ε = 0.1"}
@dataclass(frozen=True, slots=True)
class Profile:
    """Sizes of one profile: the log10 n grid and the trials per point.

    Parameters
    ----------
    log10_n : numpy.ndarray of float
        log10 of the sample sizes n (each rounded to an integer n).
    n_trials : int >= 1
        Independent trials per (law, n).

    Examples
    --------
    >>> Profile(log10_n=np.array([2.0, 3.0]), n_trials=2).log10_n.tolist()
    [2.0, 3.0]
    """

    log10_n: np.ndarray  # log10 of the sample sizes n
    n_trials: int


PROFILES = {
    "smoke": Profile(log10_n=np.arange(2.0, 4.01, 1.0), n_trials=3),
    "quick": Profile(log10_n=np.arange(2.0, 7.01, 0.5), n_trials=6),
    "paper": Profile(log10_n=np.arange(2.0, 7.01, 0.25), n_trials=20),
}


@dataclass(frozen=True, slots=True)
class ConsistencyPoint:
    """One experiment point: a law, a dimension and a sample size (keys the trial's streams).

    Parameters
    ----------
    law : str
        One of :data:`LAWS` ("smooth", "step", "rough"); checked by :func:`make_law` when a trial runs.
    d : int
        Dimension of the feature cube ``[0, 1]^d``, in {1, 2, 3} in this experiment (the rough law has a
        fine scale for these three only).
    n : int >= 1
        Sample size of each trial.

    References
    ----------
    001 Theorem 3.2 (one sample of size n per trial).

    Examples
    --------
    >>> p = ConsistencyPoint("step", 2, 100)
    >>> p.law, p.d, p.n
    ('step', 2, 100)
    """
    law: str
    d: int
    n: int


@lru_cache(maxsize=None)
def make_law(name: str, d: int):
    """The law named ``name`` in dimension ``d`` (cached: one instance per ``(name, d)``).

    Parameters
    ----------
    name : {"smooth", "step", "rough"}
        :class:`~simulations.laws.consistency.SmoothEta` (amplitude 0.8),
        :class:`~simulations.laws.consistency.StepEta` (η = 0.85 / 0.15) or
        :class:`~simulations.laws.consistency.RoughEta` with ``fine = ROUGH_FINE[d]`` cells per axis.
    d : int
        Dimension: 1 to 5 for "smooth" and "step" (their phase / normal vectors have five entries); 1, 2
        or 3 for "rough" (:data:`ROUGH_FINE`).

    Returns
    -------
    CubeLaw
        The law, with exact cube integrals of ``(2η - 1)_±``.

    Raises
    ------
    ValueError
        For an unknown ``name``, for ``name="rough"`` with ``d`` not in {1, 2, 3}, or from the law's
        constructor for a bad ``d``.

    References
    ----------
    001 Theorem 3.2 (consistency on every law: these are three test cases, not from the paper).

    Examples
    --------
    The Bayes risk of the smooth law is ``1/2 - 0.4 (2/π)^d`` (0.24535 at d = 1); of the rough law
    ``(1 - 0.8)/2 = 0.1`` whatever d:

    >>> round(make_law("smooth", 1).bayes_risk(), 5), round(make_law("rough", 2).bayes_risk(), 10)
    (0.24535, 0.1)
    >>> make_law("wavy", 1)
    Traceback (most recent call last):
    ...
    ValueError: law must be one of ('smooth', 'step', 'rough'), got law='wavy'
    """
    if name == "smooth":
        return SmoothEta(d)
    if name == "step":
        return StepEta(d)
    if name == "rough":
        return RoughEta(d, fine=ROUGH_FINE[check_choice("d", d, ROUGH_FINE)])
    raise ValueError(f"law must be one of {LAWS}, got law={name!r}")


@lru_cache(maxsize=64)
def _parts(name: str, d: int, side: float):
    return make_law(name, d).cube_parts(side)


def fitted_rules(X, y, privacy) -> list:
    """The rules of :data:`RULES` fitted on one sample: ``[(name, PCL), ...]``, the cube votes counted once.

    ``PCL(epsilon=eps, random_state=privacy).fit(X, y)`` for each rule in turn would count the same votes three
    times (a pass over up to 10^7 points each, ~20% of this experiment's CPU). Here the non-private
    rule is fitted once and each private one is :meth:`PCL.released` from it, drawing its noise key
    from ``privacy`` in the order of RULES, so every released classifier is the one the three fits
    give (``test_consistency_experiments`` checks this against plain fits; issue 20).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points in ``[0, 1]^d``, n >= 1; the cube side is PCL's default ``n^{-1/(2d)}``.
    y : array_like, shape (n,)
        Labels in {0, 1}.
    privacy : numpy.random.Generator
        The trial's PRIVACY stream; two 64-bit noise keys are drawn from it (ε = 1, then ε = 0.1).

    Returns
    -------
    list of (str, PCL)
        ``[("histogram", non-private rule), ("pcl_eps1", ...), ("pcl_eps0.1", ...)]``.

    Raises
    ------
    ValueError
        From :meth:`PCL.fit`: points outside ``[0, 1]^d``, n = 0, non-binary labels.

    References
    ----------
    001 Algorithm 2 (PCL), Theorem 3.2.

    Examples
    --------
    n = 4, d = 1: side 4^(-1/2) = 1/2, the cube [0, 1/2) votes V = 2. The histogram rule labels it 1;
    PCL labels it 1 with probability ``P(W > -1) = 1 - e^(-ε)/2``, W ~ Lap(1/ε): 0.8161 at ε = 1 and
    0.5476 at ε = 0.1.

    >>> X, y = np.array([[0.1], [0.2], [0.9], [0.95]]), np.array([1, 1, 0, 0])
    >>> rules = fitted_rules(X, y, np.random.default_rng(0))
    >>> [name for name, _ in rules], rules[0][1].all_bits().tolist()
    (['histogram', 'pcl_eps1', 'pcl_eps0.1'], [1, 0])
    >>> [round(float(est.probability_one([0])[0]), 4) for _, est in rules[1:]]
    [0.8161, 0.5476]
    """
    base = PCL(epsilon=None, random_state=privacy).fit(X, y)  # draws nothing from `privacy`
    return [(name, base if eps is None else base.released(eps, privacy)) for name, eps in RULES]


def consistency_trial(cfg: ConsistencyPoint, t: int, root_seed: int) -> dict:
    """One trial at one point: a sample, the three rules of :data:`RULES`, their exact excess errors.

    Parameters
    ----------
    cfg : ConsistencyPoint
        Law, dimension and sample size.
    t : int >= 0
        Trial index.
    root_seed : int >= 0
        The run's root seed; the sample comes from the DATA stream, PCL's noise keys from the PRIVACY
        stream of ``(cfg, t)`` (:func:`simulations.engine.trial_streams`).

    Returns
    -------
    dict of str to float
        Per rule name: ``excess_<rule>``, the excess error of the released classifier
        ``Σ_j h_j M_j + (1 - h_j) P_j`` exact from η over the cubes, and ``excess_avg_<rule>``, its
        average over PCL's noise given the data ``Σ_j P(h_j = 1) M_j + P(h_j = 0) P_j``. Both are >= 0.

    Raises
    ------
    ValueError
        For an unknown law or a negative ``t`` / ``root_seed``.

    References
    ----------
    001 Algorithm 2, Theorem 3.2; Section 2.2 (excess error).

    Examples
    --------
    The histogram rule has no noise, so its average equals its value:

    >>> out = consistency_trial(ConsistencyPoint("smooth", 1, 100), 0, 1)
    >>> len(out), out["excess_avg_histogram"] == out["excess_histogram"], min(out.values()) >= 0
    (6, True, True)
    """
    data, privacy, _ = trial_streams(cfg, t, root_seed)
    law = make_law(cfg.law, cfg.d)
    X, y = law.sample(cfg.n, data)
    out = {}
    for name, est in fitted_rules(X, y, privacy):
        P, M = _parts(cfg.law, cfg.d, est.side_)
        bits = est.all_bits().astype(bool)
        out[f"excess_{name}"] = float(np.where(bits, M, P).sum())
        p1 = est.probability_one(np.arange(est.n_cubes_))
        out[f"excess_avg_{name}"] = float((p1 * M + (1 - p1) * P).sum())
    return out


def curve_key(law: str, d: int, rule: str) -> str:
    """The stream key of one curve's slope bootstrap: each curve draws from its own EVAL stream (issue 21).

    Parameters
    ----------
    law : str
        One of :data:`LAWS`.
    d : int
        Dimension.
    rule : str
        A rule name of :data:`RULES`.

    Returns
    -------
    str
        The key passed to :func:`simulations.seeding.stream`.

    Examples
    --------
    >>> curve_key("step", 2, "pcl_eps1")
    'bayes_consistency/slope/step/d=2/pcl_eps1'
    """
    return f"bayes_consistency/slope/{law}/d={d}/{rule}"


def heuristic_exponent(law: str, d: int) -> float | None:
    """Exponent of n a plug-in argument gives for the histogram rule with r = n^{-1/(2d)} (not 001).

    smooth (margin γ = 1, η Lipschitz): excess ≍ (bias r + sd (n r^d)^{-1/2})^2 = n^{-min(1/2, 1/d)};
    step: the cubes cut by the boundary carry mass ≍ r, so excess ≍ n^{-1/(2d)}; rough: the same as
    step once r < 1/M (many boundaries), none before.

    Parameters
    ----------
    law : str
        "smooth" gives the smooth exponent; any other string (meant: "step", "rough") the boundary one.
        Not checked.
    d : int >= 1
        Dimension.

    Returns
    -------
    float
        ``-min(1/2, 1/d)`` for "smooth", ``-1/(2d)`` otherwise (never None, despite the annotation).

    References
    ----------
    Not in 001, which proves consistency without a rate (Theorem 3.2); a heuristic for the report.

    Examples
    --------
    >>> heuristic_exponent("smooth", 1), heuristic_exponent("smooth", 4), heuristic_exponent("step", 2)
    (-0.5, -0.25, -0.25)
    """
    if law == "smooth":
        return -min(0.5, 1.0 / d)
    return -1.0 / (2 * d)


def compute(ctx) -> ExperimentResult:
    """Run every (law, d, n) point, fit the three rules per trial and state the consistency claims.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper": :data:`PROFILES`), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Tables ``excess_vs_n`` (per law, d, n and rule: trials, mean excess with its 95% t-interval,
        the noise-averaged mean) and ``slopes`` (log-log slope over the last decade with a bootstrap CI
        and :func:`heuristic_exponent`); the overall claim "the excess error decreases over the last
        decade on all 27 curves" then one claim per curve; ``data["curves"]`` and ``data["ns"]`` for
        :func:`plot`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by :class:`RunContext`, before any work).

    References
    ----------
    001 Algorithm 2, Theorems 1.5, 3.1, 3.2.

    Examples
    --------
    The run takes minutes (``paper_repro.py --only bayes_consistency``); the smoke profile's grid:

    >>> [int(round(10 ** x)) for x in PROFILES["smoke"].log10_n], PROFILES["smoke"].n_trials
    ([100, 1000, 10000], 3)
    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    prof = PROFILES[ctx.profile]
    logn, n_trials = prof.log10_n, prof.n_trials
    ns = [int(round(10 ** x)) for x in logn]
    points = [ConsistencyPoint(law, d, n) for law in LAWS for d in (1, 2, 3) for n in ns]
    res = run_trials(consistency_trial, points, n_trials, version="bayes_consistency/v1", **engine_options(ctx))
    table = {k: [] for k in ("law", "d", "n", "rule", "trials", "mean_excess", "ci_low", "ci_high",
                             "mean_excess_noise_avg")}
    curves, claims, slope_rows = {}, [], []
    all_down = []
    for law in LAWS:
        for d in (1, 2, 3):
            idx = [i for i, p in enumerate(points) if p.law == law and p.d == d]
            for rule, _ in RULES:
                vals = [res.per_config[i][f"excess_{rule}"] for i in idx]
                avg = [res.per_config[i][f"excess_avg_{rule}"] for i in idx]
                stats_ = [t_interval(v) for v in vals]
                for n, s, a in zip(ns, stats_, avg):
                    for k, v in zip(table, (law, d, n, rule, s[2], s[0], s[3], s[4], float(np.mean(a)))):
                        table[k].append(v)
                curves[(law, d, rule)] = (ns, [s[0] for s in stats_], [s[3] for s in stats_], [s[4] for s in stats_])
                j = int(np.argmin(np.abs(np.log10(ns) - (math.log10(ns[-1]) - 1))))  # a decade below n_max
                last, prev, n_prev = stats_[-1], stats_[j], ns[j]
                # one rule for both verdicts: holds when the CI at n_max lies below the earlier CI, fails when it
                # lies above it, inconclusive (None) when the two overlap
                down = (True if last[4] < prev[3] else (False if last[3] > prev[4] else None)) if n_trials > 1 \
                    else bool(last[0] < prev[0])
                all_down.append(down)
                tail = [i for i, n in enumerate(ns) if n >= ns[-1] / 10 - 1]
                if len(tail) >= 2 and all(np.mean(vals[i]) > 0 for i in tail):
                    fit = fit_loglog_slope([ns[i] for i in tail], [vals[i] for i in tail], n_boot=500,
                                           rng=stream(ctx.seed, curve_key(law, d, rule), 0, EVAL))
                    slope = (fit.slope, fit.ci_low, fit.ci_high)
                else:
                    slope = (math.nan, math.nan, math.nan)
                slope_rows.append((law, d, rule, slope, heuristic_exponent(law, d), last, prev, n_prev))
                claims.append(Claim(
                    claim=f"{law} η, d = {d}, {RULE_LABEL[rule]}: excess error at n = {ns[-1]:.0e} below its value "
                          f"at n = {n_prev:.0e} (95% CIs separated)",
                    holds=down, expected=None, measured=last[0],
                    detail=f"mean excess {last[0]:.4g} [95% CI {last[3]:.3g}, {last[4]:.3g}] at n = {ns[-1]:.0e} vs "
                           f"{prev[0]:.4g} [{prev[3]:.3g}, {prev[4]:.3g}] at n = {n_prev:.0e}; {n_trials} trials; "
                           f"log-log slope over the last decade {slope[0]:.3f} [{slope[1]:.3f}, {slope[2]:.3f}]", kind="paper"))
    claims.insert(0, Claim(
        claim="Universal consistency (001 Theorem 3.2): the excess error decreases over the last decade of n for every "
              "law, d and rule (27 curves)",
        holds=True if all(x is True for x in all_down) else (False if False in all_down else None),
        expected=27, measured=sum(x is True for x in all_down),
        detail="count of curves whose 95% CI at the largest n lies below the CI a decade earlier (holds: all 27; "
               "fails: one lies above it; inconclusive: some overlap); consistency is a "
               "limit statement, so this is the finite-n evidence, with the values at the largest n in the table", kind="paper"))
    notes = _notes(slope_rows, ns, n_trials)
    table_slopes = {"law": [r[0] for r in slope_rows], "d": [r[1] for r in slope_rows],
                    "rule": [r[2] for r in slope_rows], "slope_last_decade": [r[3][0] for r in slope_rows],
                    "slope_ci_low": [r[3][1] for r in slope_rows], "slope_ci_high": [r[3][2] for r in slope_rows],
                    "heuristic_exponent": [r[4] for r in slope_rows]}
    return ExperimentResult(tables={"excess_vs_n": table, "slopes": table_slopes}, claims=claims, notes=notes,
                            data={"curves": curves, "ns": ns})


def _notes(rows, ns, n_trials) -> str:
    lines = [
        "**Laws** (features uniform on [0,1]^d): *smooth* η = 1/2 + 0.4 Π cos(2π(x_k − φ_k)) (irrational phases); "
        "*step* η = 0.85 above the hyperplane w·x = t with w = (1, 1/√3, 1/π) (no grid aligned with it), 0.15 below; "
        f"*rough* η = 0.5 ± 0.4 with i.i.d. fair signs on a grid of M = {ROUGH_FINE} cells per axis (discontinuous "
        "across every fine face; r = n^{-1/(2d)} falls below 1/M only near n = M^{2d} ≈ 10^5). Excess error exact "
        f"from η over the cubes; {n_trials} trials per point, one shared sample for the three rules.",
        "",
        "**Rates.** 001 proves consistency without a rate. The slope over the last decade is compared with a heuristic "
        "plug-in exponent for the histogram rule (mine, not 001's): smooth n^{-min(1/2, 1/d)} (margin γ = 1), step and "
        "rough (once resolved) n^{-1/(2d)} (mass of the cubes cut by a boundary). PCL's noise adds "
        "(ε n r^d)^{-1} = 1/(ε√n) to the plug-in error, negligible against r for d >= 2 at large n but not at ε = 0.1 "
        "and moderate n.",
        "",
        "| law | d | rule | excess at n_max [95% CI] | slope last decade [95% CI] | heuristic |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for law, d, rule, slope, h, last, prev, n_prev in rows:
        lines.append(f"| {law} | {d} | {RULE_LABEL[rule]} | {last[0]:.3g} [{last[3]:.3g}, {last[4]:.3g}] | "
                     f"{slope[0]:.2f} [{slope[1]:.2f}, {slope[2]:.2f}] | {h:.3g} |")
    return "\n".join(lines)


def plot(result: ExperimentResult) -> dict:
    """Excess error vs n on log-log axes, one panel per (law, d), the three rules with 95% CI bands.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["curves"]``).

    Returns
    -------
    dict
        ``{"excess_vs_n": matplotlib.figure.Figure}`` (3 × 3 panels: laws by row, d = 1, 2, 3 by column).

    References
    ----------
    001 Algorithm 2, Theorem 3.2.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['excess_vs_n']
    """
    curves = result.data["curves"]
    fig, axes = figure(3, 3, width=3.6, height=2.9,
                       title="Excess error vs n (exact from η): histogram rule and PCL (001 Algorithm 2); 95% CI bands")
    for r, law in enumerate(LAWS):
        for c, d in enumerate((1, 2, 3)):
            ax = axes[3 * r + c]
            for i, (rule, _) in enumerate(RULES):
                ns, mean, lo, hi = curves[(law, d, rule)]
                band(ax, ns, mean, np.maximum(lo, 1e-9), hi, label=RULE_LABEL[rule], i=i)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{law} η, d = {d}")
            ax.set_xlabel("n")
            ax.set_ylabel("excess error")
    axes[0].legend(loc="lower left")
    return {"excess_vs_n": fig}


# Registered through simulations/experiments/catalogue.py ("bayes_consistency"):
# name, what it reproduces, report order.
