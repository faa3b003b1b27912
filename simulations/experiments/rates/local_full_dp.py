"""Experiment ``rates_local_full_dp``: classification under local DP of features *and* labels (003 Remark 1(2)).

003 prints the local-full-DP classification cell of Table 1 as ``(N(ε²∧1))^{-β(γ+1)/(2β+d)}``, the local
label-DP rate, while Remark 1(2) states ``(Nε²)^{-β(γ+1)/(2β+2d)} ∨ N^{-β(γ+1)/(2β+d)}`` for this model and
calls it worse (finding ``table1 local full classification``). Here that is measured instead of derived: a
local-full-DP histogram learner privatizes each record's *joint* (cell, label) (:mod:`simulations.mechanisms.joint`)
and classifies each cell by the larger debiased count of its two labels (debiasing is the same increasing
affine map for every outcome, so it compares the privatized counts; ties at random).

**Two mechanisms.** (1) The vector mechanism of 003 eq. (11)-(12) on the ``M = 2G`` joint outcomes (ε/2 per
bit). The difference of the two privatized counts of a cell carries the signal ``(a − b) N h^{d+β}`` against
noise ``√N`` from *all* records' bits (a bit is 1 with probability b whatever the record), so a cube is
resolved when ``N h^{2β+2d} ε² ≍ 1``: tuning ``h = (Nε²)^{-1/(2β+2d)}`` gives Remark 1(2)'s exponent.
(2) k-ary randomized response on the joint alphabet (004 eq. (1), K -> M): the kept fraction is
``(e^ε − 1)/(e^ε + M − 1) ≍ ε/M``, the noise of a count ``√(N/M)``, so a cube is resolved when
``N h^{2β+3d} ε² ≍ 1`` and its best exponent is ``β(γ+1)/(2β+3d)`` (derived here, not in the papers):
randomized response is not rate-optimal on a growing alphabet. (3) Regression with bounded noise (003 Appendix F
construction, labels ±1): the joint vector mechanism's debiased counts give each cell's mean, with noise variance
``≍ N/(ε² (N h^d)²)`` against the bias ``h^{2β}``, so ``h = (Nε²)^{-1/(2β+2d)}`` and the exponent
``2β/(2β+2d) = β/(β+d)``: Table 1's printed local-full regression cell, measured as a paper claim.

**Law and grid** (as in :mod:`simulations.experiments.rates.machinery`): 003's lower-bound construction
(eqs. (36)-(37): ``C_M h^{γβ−d}`` bumps, ``C_M = 2``, γ = 1, random cubes and signs per trial) drawn at the
learner's own bin width ``h = 1/g``, ε = 1, N solving the tuning at integer g (``N = g^{2β+2d}/ε²``, resp.
``g^{2β+3d}/ε²``), count-level simulation (exact law, cost independent of N). The excess risk is exact
(``law.excess_risk_partition``); ``wrong share`` = excess / excess of the classifier that flips every Bayes
label (scale-free if the tuning is right). Slopes: :func:`simulations.stats.fit_loglog_slope` (bootstrap 95%
CI), verdicts :func:`simulations.stats.interval_verdict` with the rate experiments' margin
(:data:`simulations.experiments.rates.machinery.PROFILES`).

**What this decides and what not.** A learner's measured exponent is an *upper* bound on the minimax rate:
the joint vector mechanism attains Remark 1(2)'s exponent, and the printed cell's faster exponent is excluded
for it. That the printed rate is not attainable by *any* local-full-DP learner is the lower bound of the
local-DP literature 003 cites (not proved in 003); this experiment does not prove it.

References: 003 Table 1 (local full DP row), Remark 1(2), eqs. (11)-(12), (36)-(37); 004 eq. (1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import limits
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.count_level import cell_label_law, draw_cell_counts
from simulations.estimators.partition import argmax_random_ties
from simulations.experiments.base import Claim, ExperimentResult
from simulations.experiments.rates.fit import printed_finding
from simulations.experiments.rates.machinery import PROFILES
from simulations.laws import BumpClassification, BumpRegression
from simulations.mechanisms.joint import joint_rr_counts, joint_vector_sums
from simulations.mechanisms.vector import VectorMechanism
from simulations.plotting import band, color, figure
from simulations.seeding import EVAL, stream
from simulations.stats import fit_loglog_slope, holds_from, interval_verdict

__all__ = ["CASES", "FullDPPoint", "full_dp_trial", "grid", "reference_exponent"]

#: (d, β) of the curves; γ = 1, ε = 1, C_M = 2 (γβ <= 1, as the construction needs)
CASES = ((1, 1.0), (1, 0.5), (2, 1.0))
MECHANISMS = ("vector", "rr", "vector_regression")
GAMMA, EPS, C_M = 1.0, 1.0, 2.0
#: regression: N = REGRESSION_C g^(2β+2d)/ε² (the tuning's constant; the exponent does not depend on it). With 1
#: the privacy noise of a cell mean, ≈ 7.8/(N h^(2d)) at ε = 1, is ~15x the zero predictor's risk h^(2β)‖φ‖²,
#: the [−1, 1] clipping is active and the per-cube error drifts over the quick grid (slope −0.22 against −1/3
#: at d = 1, β = ½); 100 puts noise and bias at the same order, where the error is scale-free
REGRESSION_C = 100.0
#: per profile: (points, smallest g for d = 1 / d = 2, decades of N, trials) -- a count-level trial costs O(g^d)
#: quick and paper: 1200 trials (300 and 800 before issue 35: the k-ary RR slope at d = 1, β = 1, se 0.009, moved between holds and
#: inconclusive over root seeds 0-4; 4x halves every slope's standard error, about 12 CPU s more)
SIZES = {"smoke": (3, (4, 3), 1.0, 8), "quick": (6, (6, 4), 4.0, 1200), "paper": (8, (6, 4), 6.0, 1200)}


@dataclass(frozen=True, slots=True)
class FullDPPoint:
    """One grid point: mechanism, law parameters, N and cubes per axis g (bin width 1/g).

    Parameters
    ----------
    mechanism : {"vector", "rr", "vector_regression"}
    d : int
    beta : float
    N : int
    g : int

    References
    ----------
    003 Remark 1(2); eqs. (36)-(37).

    Examples
    --------
    >>> FullDPPoint("vector", 1, 1.0, 256, 4).g
    4
    """

    mechanism: str
    d: int
    beta: float
    N: int
    g: int


def reference_exponent(mechanism: str, d: int, beta: float, gamma: float = GAMMA) -> float:
    """The exponent of N the learner should show: ``−β(γ+1)/(2β+2d)`` (vector; 003 Remark 1(2), read off
    :func:`limits.rate_exponent`'s derived local-full cell), ``−β(γ+1)/(2β+3d)`` (joint randomized
    response, derived in the module docstring) or ``−β/(β+d)`` (regression, 003 Table 1's local-full cell).

    Parameters
    ----------
    mechanism : {"vector", "rr", "vector_regression"}
    d : int >= 1
    beta : float > 0
    gamma : float, default 1

    Returns
    -------
    float

    Raises
    ------
    ValueError
        An unknown mechanism.

    References
    ----------
    003 Remark 1(2).

    Examples
    --------
    >>> reference_exponent("vector", 1, 1.0), reference_exponent("rr", 1, 1.0)
    (-0.5, -0.4)
    """
    if mechanism == "vector":
        return -limits.rate_exponent("classification", "local_full", beta=beta, d=d, gamma=gamma)
    if mechanism == "rr":
        return -beta * (gamma + 1) / (2 * beta + 3 * d)
    if mechanism == "vector_regression":
        return -limits.rate_exponent("regression", "local_full", beta=beta, d=d)
    raise ValueError(f"mechanism must be one of {MECHANISMS}, got mechanism={mechanism!r}")


def _tuning_power(mechanism: str, d: int, beta: float) -> float:
    return 2 * beta + (3 if mechanism == "rr" else 2) * d


def grid(mechanism: str, d: int, beta: float, profile: str) -> list[FullDPPoint]:
    """Integer g from the profile's smallest g over its decades of N, ``N = g^{2β+2d}/ε²`` (vector),
    ``g^{2β+3d}/ε²`` (randomized response) or :data:`REGRESSION_C` ``g^{2β+2d}/ε²`` (regression), rounded.

    Parameters
    ----------
    mechanism : {"vector", "rr", "vector_regression"}
    d : int
    beta : float
    profile : {"smoke", "quick", "paper"}

    Returns
    -------
    list of FullDPPoint

    References
    ----------
    003 Remark 1(2) (the tuning ``h ≍ (Nε²)^{-1/(2β+2d)}``).

    Examples
    --------
    >>> [(p.g, p.N) for p in grid("vector", 1, 1.0, "smoke")]
    [(4, 256), (6, 1296), (8, 4096)]
    """
    points, g0, decades, _ = SIZES[profile]
    g_lo = g0[0] if d == 1 else g0[1]
    power = _tuning_power(mechanism, d, beta)
    g_hi = math.ceil(g_lo * 10 ** (decades / power))
    gs = sorted({int(round(x)) for x in np.geomspace(g_lo, g_hi, points)})
    const = REGRESSION_C if mechanism == "vector_regression" else 1.0
    return [FullDPPoint(mechanism, d, beta, int(round(const * g ** power / EPS ** 2)), g) for g in gs]


def full_dp_trial(pt: FullDPPoint, trial: int, root_seed: int) -> dict:
    """One trial: the construction at ``h = 1/g`` (DATA), the (cell, label) counts of N records (DATA), the
    joint mechanism (PRIVACY), the cell labels, the exact excess risk and the wrong share.

    Parameters
    ----------
    pt : FullDPPoint
    trial : int >= 0
    root_seed : int >= 0

    Returns
    -------
    dict
        ``excess`` and ``wrong_share`` (excess / excess of the classifier flipping every Bayes label).

    References
    ----------
    003 Remark 1(2); eqs. (11)-(12), (36)-(37); 004 eq. (1).

    Examples
    --------
    >>> out = full_dp_trial(FullDPPoint("vector", 1, 1.0, 256, 4), 0, 1)
    >>> sorted(out), 0.0 <= out["wrong_share"] <= 1.0
    (['excess', 'wrong_share'], True)
    """
    data, privacy, _ = trial_streams(pt, trial, root_seed)
    if pt.mechanism == "vector_regression":
        return _regression_trial(pt, data, privacy)
    law = BumpClassification.lower_bound(d=pt.d, h=1.0 / pt.g, beta=pt.beta, gamma=GAMMA, rng=data, C_M=C_M,
                                         rounding="random")
    masses, _ = cell_label_law(law, pt.g)
    counts = draw_cell_counts(masses, pt.N, data)
    scores = joint_vector_sums(counts, EPS, privacy) if pt.mechanism == "vector" else joint_rr_counts(counts, EPS, privacy)
    labels = argmax_random_ties(scores.astype(float), privacy).astype(np.int64)
    excess = law.excess_risk_partition(labels, pt.g)
    worst = law.excess_risk_partition((1 - np.argmax(masses, axis=1)).astype(np.int64), pt.g)
    return {"excess": excess, "wrong_share": excess / worst if worst > 0 else 0.0}


def _regression_trial(pt: FullDPPoint, data, privacy) -> dict:
    """Regression (003 Appendix F construction, labels ±1): debiased joint counts ``n̂ = (S − bN)/(a − b)`` of the
    vector mechanism, cell mean ``Σ_y y n̂_{ly} / Σ_y n̂_{ly}`` (denominator floored at 1), clipped to [−1, 1]
    (the labels' range); exact excess risk; ``wrong_share`` = excess / excess of predicting 0."""
    law = BumpRegression.lower_bound(d=pt.d, h=1.0 / pt.g, beta=pt.beta, rng=data)
    masses, values = cell_label_law(law, pt.g)
    S = joint_vector_sums(draw_cell_counts(masses, pt.N, data), EPS, privacy)
    a, b = VectorMechanism(num_classes=S.size, epsilon=EPS).flip_probabilities()
    n_hat = (S - b * pt.N) / (a - b)
    est = np.clip(n_hat @ values / np.maximum(n_hat.sum(axis=1), 1.0), -1.0, 1.0)
    excess = law.excess_risk_partition(est, pt.g)
    return {"excess": excess, "wrong_share": excess / law.excess_risk_partition(np.zeros(pt.g ** pt.d), pt.g)}


def compute(ctx) -> ExperimentResult:
    """Run every (mechanism, d, β) curve, fit the slopes, decide the claims.

    Parameters
    ----------
    ctx : RunContext
        Profile, root seed, executor and cache.

    Returns
    -------
    ExperimentResult
        Tables ``excess_vs_N`` (per point: mean excess, wrong share) and ``slopes``; per (d, β): Remark 1(2)
        reproduced by the joint vector mechanism (paper), Table 1's printed exponent excluded for it
        (erratum, ``table1 local full classification``), joint randomized response's ``3d`` exponent
        (beyond), Table 1's local-full regression cell (paper); ``data["fits"]`` for :func:`plot`.

    Raises
    ------
    ValueError
        An unknown profile.

    References
    ----------
    003 Table 1 (local full DP, classification), Remark 1(2).

    Examples
    --------
    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    if ctx.profile not in SIZES:
        raise ValueError(f"profile must be one of {sorted(SIZES)}, got profile={ctx.profile!r}")
    margin, trials = PROFILES[ctx.profile].margin, SIZES[ctx.profile][3]
    curves = [(m, d, b) for d, b in CASES for m in MECHANISMS]
    grids = [grid(m, d, b, ctx.profile) for m, d, b in curves]
    res = run_trials(full_dp_trial, [p for gr in grids for p in gr], trials, **engine_options(ctx))
    per = iter(res.per_config)
    table = {k: [] for k in ("mechanism", "d", "beta", "g", "N", "mean_excess", "ci_low", "ci_high", "wrong_share")}
    slopes = {k: [] for k in ("mechanism", "d", "beta", "reference", "fitted", "ci_low", "ci_high", "verdict",
                              "printed", "printed_verdict", "label_dp")}
    fits, claims = [], []
    for (m, d, b), gr in zip(curves, grids):
        rows = [next(per) for _ in gr]
        N = np.array([p.N for p in gr], dtype=float)
        ex = [r["excess"] for r in rows]
        for p, r in zip(gr, rows):
            mean, se = float(np.mean(r["excess"])), float(np.std(r["excess"], ddof=1) / math.sqrt(trials))
            for k, v in zip(table, (m, d, b, p.g, p.N, mean, mean - 1.96 * se, mean + 1.96 * se,
                                    float(np.mean(r["wrong_share"])))):
                table[k].append(v)
        fit = fit_loglog_slope(N, ex, rng=stream(ctx.seed, f"slope/rates_local_full_dp/{m}/{d}/{b}", 0, EVAL))
        ref = reference_exponent(m, d, b)
        task = "regression" if m == "vector_regression" else "classification"
        printed = -limits.rate_exponent(task, "local_full", beta=b, d=d, gamma=GAMMA if task == "classification" else None,
                                        variant="printed")
        verdict = interval_verdict(ref, fit.ci_low, fit.ci_high, margin)
        pverdict = interval_verdict(printed, fit.ci_low, fit.ci_high, margin)
        for k, v in zip(slopes, (m, d, b, ref, fit.slope, fit.ci_low, fit.ci_high, verdict, printed, pverdict,
                                 -limits.rate_exponent(task, "local", beta=b, d=d,
                                                       gamma=GAMMA if task == "classification" else None))):
            slopes[k].append(v)
        fits.append((m, d, b, N, ex, fit, ref))
        claims += _claims(m, d, b, fit, ref, printed, verdict, pverdict, margin, gr, trials)
    notes = _notes(slopes, table, margin)
    return ExperimentResult(tables={"excess_vs_N": table, "slopes": slopes}, claims=claims, notes=notes,
                            data={"fits": fits})


def _claims(m, d, b, fit, ref, printed, verdict, pverdict, margin, gr, trials) -> list[Claim]:
    base = (f"bootstrap 95% CI [{fit.ci_low:.3f}, {fit.ci_high:.3f}] of the slope {fit.slope:.3f}; N {gr[0].N:.3g}–"
            f"{gr[-1].N:.3g} (g {gr[0].g}–{gr[-1].g}, {len(gr)} points, {trials} trials each); margin ±{margin:g}")
    lab = f"d = {d}, β = {b:g}, γ = 1, ε = 1"
    if m == "vector_regression":
        return [Claim(
            claim=f"003 Table 1 (regression, bounded noise, local full DP), d = {d}, β = {b:g}, ε = 1: the joint "
                  f"vector mechanism + debiased bin means attains excess risk ∝ (Nε²)^(-β/(β+d)) = N^{ref:.3f}",
            holds=holds_from(verdict), expected=ref, measured=fit.slope, detail=f"{base}; {verdict}", kind="paper")]
    if m == "rr":
        return [Claim(
            claim=f"local full DP, k-ary randomized response on the joint (cell, label) alphabet, {lab}: excess risk "
                  f"∝ N^{ref:.3f} = N^(-β(γ+1)/(2β+3d)), slower than 003 Remark 1(2)'s optimum (derived here)",
            holds=holds_from(verdict), expected=ref, measured=fit.slope, detail=f"{base}; {verdict}", kind="beyond")]
    edge = abs(printed - ref) < 2 * margin
    out = [Claim(
        claim=f"003 Remark 1(2): local full DP classification, {lab}: the joint vector mechanism + bins attains "
              f"excess risk ∝ (Nε²)^(-β(γ+1)/(2β+2d)) = N^{ref:.3f}",
        holds=holds_from(verdict), expected=ref, measured=fit.slope, detail=f"{base}; {verdict}", kind="paper")]
    if not edge:
        out.append(Claim(
            claim=f"003 Table 1's printed local-full-DP classification exponent N^{printed:.3f} (the local label-DP "
                  f"rate) is excluded for the local-full-DP learner, {lab} (Remark 1(2)'s N^{ref:.3f} instead)",
            holds=holds_from(pverdict, claim_is="excluded"), expected=printed, measured=fit.slope,
            detail=f"{base}; printed {pverdict}; an upper-bound learner: the lower bound that no local-full-DP "
                   "learner reaches the printed rate is the literature's, not measured here",
            kind="erratum", finding=printed_finding(_Case())))
    return out


@dataclass(frozen=True)
class _Case:
    """The (task, privacy) key of :func:`simulations.experiments.rates.fit.printed_finding`."""

    task: str = "classification"
    privacy: str = "local_full"


def _notes(slopes, table, margin) -> str:
    lines = [__doc__.split("\n\n", 1)[1].strip(), "",
             "| mechanism | d | β | fitted slope [95% CI] | reference | verdict | printed (= label DP) | printed verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for i in range(len(slopes["d"])):
        lines.append(f"| {slopes['mechanism'][i]} | {slopes['d'][i]} | {slopes['beta'][i]:g} | "
                     f"{slopes['fitted'][i]:.3f} [{slopes['ci_low'][i]:.3f}, {slopes['ci_high'][i]:.3f}] | "
                     f"{slopes['reference'][i]:.3f} | {slopes['verdict'][i]} | {slopes['printed'][i]:.3f} | "
                     f"{slopes['printed_verdict'][i]} |")
    shares = {}
    for m, d, b, w in zip(table["mechanism"], table["d"], table["beta"], table["wrong_share"]):
        shares.setdefault((m, d, b), []).append(w)
    lines += ["", "Wrong share (classification: excess / excess of flipping every Bayes label; regression: excess / risk "
              "of predicting 0) over the grid, small to large N: "
              + "; ".join(f"{m} d={d} β={b:g}: " + ", ".join(f"{x:.2f}" for x in v) for (m, d, b), v in shares.items()),
              "", f"Verdicts: `simulations.stats.interval_verdict`, margin ±{margin:g} (the rate experiments' margin)."]
    return "\n".join(lines)


_NAMES = {"vector": "vector", "rr": "RR", "vector_regression": "vector, regression"}


def plot(result) -> dict:
    """Log-log excess risk vs N per (d, β): both mechanisms with 95% CI bands, fits, and dashed lines at
    Remark 1(2)'s, the 3d and the printed (label-DP) exponents.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["fits"]``).

    Returns
    -------
    dict
        ``{"rates_local_full_dp": matplotlib.figure.Figure}``.

    References
    ----------
    003 Table 1 (local full DP), Remark 1(2).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from simulations.experiments.base import RunContext
    >>> figs = plot(compute(RunContext(profile="smoke", progress=False)))
    >>> list(figs)
    ['rates_local_full_dp']
    >>> plt.close(figs["rates_local_full_dp"])
    """
    fits = result.data["fits"]
    fig, axes = figure(1, len(CASES), width=4.4, height=3.6,
                       title="Local full DP: joint (cell, label) privatized, ε = 1; classification (003 Remark 1(2)) and "
                             "regression (Table 1)")
    for ax, (d, b) in zip(axes, CASES):
        for i, (m, dd, bb, N, ex, fit, ref) in enumerate(f for f in fits if (f[1], f[2]) == (d, b)):
            mean = np.array([np.mean(e) for e in ex])
            se = np.array([np.std(e, ddof=1) / math.sqrt(len(e)) for e in ex])
            band(ax, N, mean, np.maximum(mean - 1.96 * se, mean * 1e-2), mean + 1.96 * se, i=i,
                 label=f"{_NAMES[m]}: slope {fit.slope:.3f} [{fit.ci_low:.3f}, {fit.ci_high:.3f}]")
            xc = math.exp(np.log(N).mean())
            yc = math.exp(fit.intercept) * xc ** fit.slope
            ax.plot(N, yc * (N / xc) ** ref, "--", color=color(i), lw=0.9, label=f"reference {ref:.3f}")
            if m == "vector":
                pr = -limits.rate_exponent("classification", "local_full", beta=b, d=d, gamma=GAMMA, variant="printed")
                ax.plot(N, yc * (N / xc) ** pr, ":", color="0.3", lw=1.0, label=f"003 Table 1 printed {pr:.3f}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N")
        ax.set_ylabel("excess risk")
        ax.set_title(f"d = {d}, β = {b:g}, γ = 1", fontsize=9)
        ax.legend(fontsize=6, loc="lower left")
    return {"rates_local_full_dp": fig}


# Registered through simulations/experiments/catalogue.py ("rates_local_full_dp"): name, what it reproduces, order.
