"""An upper bound tested as an upper bound: the worst excess risk over laws not tied to the estimator's h.

The rate experiments draw the 003 lower-bound construction at the estimator's own scale, which for
the histogram estimators makes the slope re-check the tuning algebra. Here each estimator keeps its
tuning (bin width h from its theorem, or its privacy branch) and faces, at every N, four laws:

* the 003 construction at scale ``2h`` (cubes of side 2h: each holds 2^d bins),
* the construction at scale ``h`` (the aligned case of the rate experiments),
* the construction at scale ``h/2`` (each bin holds 2^d cubes: the bin averages them),
* a fixed benchmark law of the task, the same at every N (:func:`simulations.experiments.rates.machinery.benchmark_law`).

The claim of 003's upper bounds (Theorems 2, 4, 8, 12) is that the *worst* of these is at most a
constant times the rate; so the slope of the worst mean excess risk against log N may not be above
the rate's exponent. Verdict (the suite's one rule, one-sided form
:func:`simulations.stats.bound_verdict` with the rate experiments' margin): the claim holds when the
slope's bootstrap 95% CI lies below the rate's exponent + margin (the data show a decay at least
that fast), fails when the CI lies above it (a slower decay is resolved), and is inconclusive when the
CI straddles it. The worst law at each N is reported; all four means are in the CSV. Count level
throughout (:mod:`simulations.estimators.count_level`).

References: 003 Theorems 2, 4, 8, 12; the constructions of eqs. (36)-(37), (121), (156).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from simulations.engine import engine_options, run_trials
from simulations.experiments.base import Claim, ExperimentResult
from simulations.experiments.rates.machinery import (PROFILES, RateCase, case_trials, grid_for_case, n_for_scale,
                                          rate_trial)
from simulations.experiments.rates.fit import _ols
from simulations.plotting import band, color, figure
from simulations.seeding import EVAL, stream
from simulations.stats import bound_verdict, holds_from, t_interval

__all__ = ["LAWS", "law_points", "worst_case_slope"]

#: law name -> how the RatePoint is changed (construction at another scale, or the fixed benchmark)
LAWS = ("scale 2h", "scale h", "scale h/2", "benchmark")

CASES = [
    RateCase(algorithm="local_classification", d=1, beta=1.0, gamma=1.0, eps=1.0, C_M=2.0, n_start=300.0),
    RateCase(algorithm="local_classification", d=2, beta=0.5, gamma=1.0, eps=1.0, C_M=2.0, n_start=1000.0),
    RateCase(algorithm="central_classification", d=1, beta=1.0, gamma=1.0, eps=1e-4, C_M=2.0, term="privacy",
             branch="privacy", n_start=1e6, decades=4.0),
    RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1e-4, term="privacy", branch="privacy", n_start=1e6, decades=4.0),
    RateCase(algorithm="central_regression", d=2, beta=0.5, eps=1e-4, term="privacy", branch="privacy", n_start=1e6, decades=4.0),
    RateCase(algorithm="central_regression_heavy_tailed", d=1, beta=1.0, p=4.0, eps=1e-4, M_p=4.0, term="privacy",
             branch="privacy", n_start=1e6, decades=4.0),
]


def _trials(case: RateCase, sizes) -> int:
    """Trials per (N, law): half the rate experiments' :func:`~simulations.experiments.rates.machinery.case_trials`
    (four laws per point), at least 4."""
    return max(4, case_trials(case, sizes) // 2)


def law_points(case: RateCase, sizes) -> list[list]:
    """Per grid point (even g, so that 2h is a whole number of bins), the four RatePoints of :data:`LAWS`.

    Parameters
    ----------
    case : RateCase
        The curve (its grid is :func:`~simulations.experiments.rates.machinery.grid_for_case`).
    sizes : Profile
        Grid sizes of the profile.

    Returns
    -------
    list of list of RatePoint
        Per distinct even ``g >= 4`` (``2 · round(g/2)``, N re-solved for it), the points of the laws
        at scale 2h (``law_g = g/2``), h, h/2 (``law_g = 2g``) and the benchmark.

    References
    ----------
    003 Theorems 2, 4, 8, 12 (the upper bounds); eqs. (36)-(37), (121), (156) (the constructions).

    Examples
    --------
    The smoke grid g = 17, 31, 55 of ``h = N^{-1/2}`` becomes g = 16, 32, 56 (``round`` takes halves to
    even: 8.5 -> 8, 15.5 -> 16, 27.5 -> 28), N = g²:

    >>> from simulations.experiments.rates.machinery import PROFILES, RateCase
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy",
    ...                 branch="privacy")
    >>> rows = law_points(case, PROFILES["smoke"])
    >>> [(row[1].g, row[1].N) for row in rows]
    [(16, 256), (32, 1024), (56, 3136)]
    >>> [(p.law_g, p.benchmark) for p in rows[0]]
    [(8, False), (None, False), (32, False), (None, True)]
    """
    out, seen = [], set()
    for pt in grid_for_case(case, sizes):
        g = max(4, 2 * round(pt.g / 2))
        if g in seen:
            continue
        seen.add(g)
        base = dataclasses.replace(pt, g=g, N=int(round(n_for_scale(case, g))))
        out.append([dataclasses.replace(base, law_g=g // 2), base, dataclasses.replace(base, law_g=2 * g),
                    dataclasses.replace(base, benchmark=True)])
    return out


def worst_case_slope(N, values, *, rng, n_boot: int = 1000):
    """OLS slope of log(max over laws of the mean excess risk) on log N, with a percentile bootstrap CI
    (trials resampled independently for every (N, law)).

    Parameters
    ----------
    N : array_like, shape (n,)
        Sample sizes, > 0.
    values : sequence of sequences of numpy.ndarray
        ``values[i][j]``: trials at N_i under law j (positive means).
    rng : numpy.random.Generator
        Stream of the bootstrap.
    n_boot : int, default 1000
        Bootstrap replicates.

    Returns
    -------
    slope, ci_low, ci_high : float
        The fitted slope and the 2.5% / 97.5% bootstrap quantiles.
    worst : numpy.ndarray, shape (n,)
        The largest mean over the laws at each N.

    References
    ----------
    003 Theorems 2, 4, 8, 12 (an upper bound holds for the worst law of the class).

    Examples
    --------
    Noise-free trials with means 1/N and 2/N: the worst is 2/N, slope −1, and every resample agrees:

    >>> N = [10, 100, 1000]
    >>> values = [[np.full(3, 1 / n), np.full(3, 2 / n)] for n in N]
    >>> slope, lo, hi, worst = worst_case_slope(N, values, rng=np.random.default_rng(0), n_boot=20)
    >>> round(slope, 9), round(lo, 9), round(hi, 9), np.round(worst, 12).tolist()
    (-1.0, -1.0, -1.0, [0.2, 0.02, 0.002])
    """
    logN = np.log(np.asarray(N, float))

    def slope(worst):
        return float(np.polyfit(logN, np.log(worst), 1)[0])

    worst = np.array([max(np.mean(v) for v in row) for row in values])
    boots = np.empty(n_boot)
    for b in range(n_boot):
        wb = [max(np.mean(v[rng.integers(0, len(v), len(v))]) for v in row) for row in values]
        boots[b] = slope(wb)
    return slope(worst), float(np.quantile(boots, 0.025)), float(np.quantile(boots, 0.975)), worst


def compute(ctx) -> ExperimentResult:
    """Run every case of ``CASES`` under the four laws of :data:`LAWS` and fit the worst-law slope; tables and claims.

    Each estimator keeps its own tuning (local: its theorem's h; central: the privacy branch of h at
    ε = 10^-4); at every N of its grid (:func:`law_points`) it faces the construction at scales 2h, h
    and h/2 and the task's fixed benchmark law, with half the rate experiments' trials per (N, law)
    (at least 4).

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper": grids, trials and margin of
        :data:`simulations.experiments.rates.machinery.PROFILES`), root seed, jobs, scheduler, cache.

    Returns
    -------
    ExperimentResult
        Table ``worst_case`` (columns ``case``, ``N``, ``g``, ``law``, ``mean``, ``ci_low``, ``ci_high``,
        ``trials``: mean excess risk and 95% t-interval per case, N and law). One claim per case: "the
        worst excess risk over the four laws decays at least as fast as N^(−a)", a the case's exponent
        (:meth:`RateCase.exponent`, the derived one); it holds when the upper end of the bootstrap 95% CI
        of :func:`worst_case_slope` lies below −a + margin, fails when the whole CI lies above −a + margin,
        and is inconclusive otherwise (also at the smoke profile when a law has zero mean risk: no slope). The
        detail names the worst law per N and the slope on the aligned construction alone. Notes: the
        module's description. ``data["fits"]``: per case (case, N, trial values, worst mean, slope, CI
        low, CI high, −a), read by :func:`plot`.

    Raises
    ------
    ValueError
        If the profile is not one of ['paper', 'quick', 'smoke']
        (:class:`~simulations.experiments.base.RunContext` refuses it when built, before
        any work).

    References
    ----------
    003 Theorems 2, 4, 8, 12 (upper bounds: eqs. (14), (18), (24), (29)); Table 1; the constructions
    of eqs. (36)-(37), (121), (156).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_upper_bound``); an unknown profile is refused
    before any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'

    The exponents the six claims test: local classification β(γ+1)/(2β+d) at (d, β, γ) = (1, 1, 1) and
    (2, 1/2, 1); the central privacy terms β(γ+1)/(β+d) (eq. (18), d = β = γ = 1), 2β/(d+β) (eq. (24),
    (d, β) = (1, 1) and (2, 1/2)) and 2β(p−1)/(pβ+d(p−1)) (eq. (29), d = β = 1, p = 4):

    >>> from fractions import Fraction
    >>> [str(Fraction(c.exponent()).limit_denominator(10)) for c in CASES]
    ['2/3', '1/3', '1', '1', '2/5', '6/7']
    """
    sizes = PROFILES[ctx.profile]
    grids = [law_points(c, sizes) for c in CASES]
    per_case = {}  # case index -> per-config results; one engine run per trial count
    for n in dict.fromkeys(_trials(c, sizes) for c in CASES):
        idx = [i for i, c in enumerate(CASES) if _trials(c, sizes) == n]
        res = run_trials(rate_trial, [p for i in idx for row in grids[i] for p in row], n, **engine_options(ctx))
        per = iter(res.per_config)
        for i in idx:
            per_case[i] = [[next(per) for _ in row] for row in grids[i]]
    table = {k: [] for k in ("case", "N", "g", "law", "mean", "ci_low", "ci_high", "trials")}
    claims, fits = [], []
    for ci, (c, grid) in enumerate(zip(CASES, grids)):
        trials = _trials(c, sizes)
        vals = [[r["excess"] for r in row] for row in per_case[ci]]
        N = np.array([row[0].N for row in grid], float)
        for row, vrow in zip(grid, vals):
            for law, v in zip(LAWS, vrow):
                m, _, n, lo, hi = t_interval(v)
                for k, x in (("case", c.label), ("N", row[0].N), ("g", row[0].g), ("law", law), ("mean", m),
                             ("ci_low", lo), ("ci_high", hi), ("trials", n)):
                    table[k].append(x)
        if any(np.mean(v) <= 0 for row in vals for v in row) and ctx.profile == "smoke":
            slope = lo_s = hi_s = float("nan")
            worst = np.array([max(np.mean(v) for v in row) for row in vals])
        else:
            slope, lo_s, hi_s, worst = worst_case_slope(N, vals, rng=stream(ctx.seed, f"upper/{c.label}", 0, EVAL))
        theory = -c.exponent()
        which = [LAWS[int(np.argmax([np.mean(v) for v in row]))] for row in vals]
        with np.errstate(divide="ignore"):  # a zero mean risk (smoke sizes) gives -inf: the fit is then NaN
            own = _ols(N, np.log([np.mean(row[1]) for row in vals]))
        verdict = bound_verdict(theory, lo_s, hi_s, sizes.margin, side="at_most")  # NaN slope: inconclusive
        fits.append((c, N, vals, worst, slope, lo_s, hi_s, theory))
        claims.append(Claim(
            claim=f"{c.label}: the worst excess risk over four laws (construction at 2h, h, h/2; fixed benchmark) "
                  f"decays at least as fast as N^{theory:.3f} ({c.source()}, upper bound)",
            holds=holds_from(verdict), expected=theory, measured=slope,
            detail=(f"{verdict}: worst-case slope {slope:.3f}, bootstrap 95% CI [{lo_s:.3f}, {hi_s:.3f}], holds when "
                    f"the CI lies below {theory:.3f} + {sizes.margin:g}, excluded when above it; worst law per N: "
                    f"{', '.join(which)}; slope on the aligned "
                    f"construction alone {own:.3f}; N {int(N[0]):.3g}–{int(N[-1]):.3g}, {trials} trials per law"), kind="paper"))
    notes = [__doc__.split("\n\n", 1)[1].split("References")[0].strip()]
    return ExperimentResult(tables={"worst_case": table}, claims=claims, notes="\n".join(notes),
                            data={"fits": fits})


def plot(result) -> dict:
    """Log-log excess risk vs N per case: the four laws with 95% CI bands, the worst-law curve and the rate.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["fits"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        One figure, ``"rates_upper_bound"``: a panel per case (rows of three) with the mean excess
        risk under each law of :data:`LAWS`, and, where the worst-case slope is finite, the worst mean
        over the laws (dotted) and the rate N^(−a) through its geometric centre (dashed).

    References
    ----------
    003 Theorems 2, 4, 8, 12; Table 1.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['rates_upper_bound']
    """
    fits = result.data["fits"]
    ncols = 3
    fig, axes = figure(math.ceil(len(fits) / ncols), ncols, title="Upper bounds as upper bounds: excess risk under "
                                                                   "four laws, the estimator's tuning fixed")
    for ax, (c, N, vals, worst, slope, lo, hi, theory) in zip(axes, fits):
        for j, law in enumerate(LAWS):
            st = np.array([t_interval(row[j]) for row in vals])
            band(ax, N, np.maximum(st[:, 0], 1e-300), np.maximum(st[:, 3], st[:, 0] * 1e-3), st[:, 4], i=j, label=law)
        if math.isfinite(slope):
            xc = math.exp(np.log(N).mean())
            yc = math.exp(np.log(worst).mean())
            ax.plot(N, yc * (N / xc) ** theory, "k--", lw=1.0, label=f"rate {theory:.3f}")
            ax.plot(N, worst, color=color(5), lw=1.5, ls=":", label=f"worst, slope {slope:.3f}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N")
        ax.set_ylabel("excess risk")
        ax.set_title(c.label, fontsize=8)
        ax.legend(loc="lower left", fontsize=6)
    for ax in axes[len(fits):]:
        ax.set_visible(False)
    return {"rates_upper_bound": fig}


# Registered through simulations/experiments/catalogue.py ("rates_upper_bound"):
# name, what it reproduces, report order.
