"""``remark18_classifier``: 001 Remark 1.8's consistent (ε, δ)-DP classifier on unbounded R^d.

The learner (:class:`~simulations.estimators.pcde_classifier.PCDEClassifier`): PCDE (001 Algorithm 3)
on the joint cells (cube, label), ``h(x) = 1[f̂_1(x) > f̂_0(x)]``; (ε, δ)-DP under full DP with one
stability histogram (no composition). Beside it, on the same sample and at the same total budget:

* PCL2b (001 Algorithm 5) on the lattice packing ``r Z^d`` (Voronoi cells = cubes of side
  ``r = n^{-1/(4d)}``) with each of its two histograms at (ε/2, δ/2), so (ε, δ) by Theorem A.14;
* the non-private rule that Remark 1.8's classifier privatizes: the majority vote on the same cubes
  of side ``n^{-1/(2d)}`` (ties and empty cubes: 0).

Privacy: ε = 1 and δ(n) = n^{-2} (Theorem 1.7 lets δ decay, and δ ≪ 1/n is the regime where
(ε, δ)-DP is meaningful, 001 Section 1.2.1). Laws (:class:`~simulations.laws.mixtures.LocationMixture`,
σ = 0.5, exact η): a normal and a Cauchy (heavy tails) mixture on R with P(Y = 1) = 0.4 and means
0, 1.5, and a normal mixture on R² with means (0, 0), (1, 0.6). Every excess risk is exact
(``∫ (f_1 − f_0)_+ + Σ_{h_j = 1} (F_0(C_j) − F_1(C_j))`` over the cubes), no test sample.

Claims: (i) consistency of Remark 1.8's classifier on each law -- the log-log slope of the mean excess
risk over the last decade of n, with a percentile-bootstrap 95% CI, is at most ``SLOPE_BOUND``
(:func:`simulations.stats.bound_verdict`, the one-sided form of ``interval_verdict``); (ii) the
corollary's inequality ``err(h) − L* <= Σ_y ∫ |f_y − f̂_y|`` in every trial (exact on both sides).
The comparison with PCL2b and the non-private rule is reported (ratio of mean excess risks at the
largest n with a paired 95% CI), not claimed in either direction.

References: 001 Theorem 1.7, Remark 1.8, Algorithms 1, 3, 5, Theorems 2.7, 4.3, A.14, A.15.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from limits.validation import check_choice
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.pcde_classifier import PCDEClassifier
from simulations.estimators.pcl2 import PCL2b, pcl2_radius
from simulations.experiments.base import Claim, ExperimentResult
from simulations.laws.mixtures import LocationMixture
from simulations.metric_spaces import LatticePacking
from simulations.plotting import band, figure
from simulations.seeding import stable_key
from simulations.stats import bound_verdict, fit_loglog_slope, t_interval

EPSILON = 1.0
DELTA_EXPONENT = 2.0  # δ(n) = n^{-2}
LAW_SPECS = {
    "normal_1d": ("normal", ((0.0,), (1.5,)), 0.4),
    "cauchy_1d": ("cauchy", ((0.0,), (1.5,)), 0.4),
    "normal_2d": ("normal", ((0.0, 0.0), (1.0, 0.6)), 0.5),
}
SIGMA = 0.5
TITLE = {"normal_1d": "normal mixture on R", "cauchy_1d": "Cauchy mixture on R (heavy tails)",
         "normal_2d": "normal mixture on R²"}
RULES = ("remark18", "pcl2b", "nonprivate")
LABEL = {"remark18": "Remark 1.8: PCDE plug-in, (ε, δ)", "pcl2b": "PCL2b, (ε/2, δ/2) per histogram",
         "nonprivate": "histogram rule (non-private), same cubes"}
# The claim "the excess risk keeps falling" as a slope bound: a mean excess that shrinks by less than
# 11% over a decade (slope above -0.05) is indistinguishable from a plateau at these n, so consistency
# is claimed only when the whole 95% CI of the slope over the last decade lies at or below -0.05.
SLOPE_BOUND = -0.05
N_BOOT = 2000
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
    "smoke": Profile(log10_n=np.arange(3.0, 4.01, 0.5), n_trials=2),
    "quick": Profile(log10_n=np.arange(3.0, 5.51, 0.5), n_trials=6),
    "paper": Profile(log10_n=np.arange(3.0, 6.51, 0.5), n_trials=20),
}


@dataclass(frozen=True, slots=True)
class Remark18Point:
    """One experiment point: a law of :data:`LAW_SPECS` and a sample size.

    Parameters
    ----------
    law : str
        A key of :data:`LAW_SPECS`: "normal_1d", "cauchy_1d" or "normal_2d"; checked by
        :func:`make_law` (ValueError) when a trial runs.
    n : int >= 2
        Sample size of each trial (δ = n^-2 must be < 1 for the stability histograms).

    References
    ----------
    001 Remark 1.8.

    Examples
    --------
    >>> p = Remark18Point("cauchy_1d", 1000)
    >>> p.law, p.n
    ('cauchy_1d', 1000)
    """
    law: str
    n: int


@lru_cache(maxsize=None)
def make_law(name: str) -> LocationMixture:
    """The two-class location mixture named ``name`` (σ = :data:`SIGMA` = 0.5; cached per name).

    Parameters
    ----------
    name : {"normal_1d", "cauchy_1d", "normal_2d"}
        A key of :data:`LAW_SPECS` (kind, class means ``μ_0``, ``μ_1``, ``P(Y = 1)``).

    Returns
    -------
    LocationMixture
        The law, with exact η, Bayes risk and cube integrals.

    Raises
    ------
    ValueError
        For a name not in :data:`LAW_SPECS`.

    References
    ----------
    001 Remark 1.8 (a consistent classifier on unbounded R^d; these laws are the module's test cases).

    Examples
    --------
    "normal_2d": equal priors, means (0, 0) and (1, 0.6) at distance √1.36, σ = 1/2: the Bayes risk is
    ``Φ(−√1.36 / (2σ)) = Φ(−1.16619) = 0.12177``:

    >>> law = make_law("normal_2d")
    >>> law.d, round(law.bayes_risk(), 5)
    (2, 0.12177)
    >>> make_law("laplace_1d")
    Traceback (most recent call last):
    ...
    ValueError: law must be one of ['cauchy_1d', 'normal_1d', 'normal_2d'], got law='laplace_1d'
    """
    kind, means, prior1 = LAW_SPECS[check_choice("law", name, LAW_SPECS)]
    return LocationMixture(kind=kind, means=means, prior1=prior1, sigma=SIGMA)


def delta_of(n: int) -> float:
    """δ(n) = n^-2 (:data:`DELTA_EXPONENT`), the δ of every learner at sample size n.

    Parameters
    ----------
    n : int >= 1
        Sample size.

    Returns
    -------
    float
        ``n ** -2.0``.

    References
    ----------
    001 Section 1.2.1 (δ ≪ 1/n), Theorem 1.7 (δ may decay with n).

    Examples
    --------
    >>> delta_of(10), delta_of(1000)
    (0.01, 1e-06)
    """
    return float(n) ** -DELTA_EXPONENT


def remark18_trial(cfg: Remark18Point, t: int, root_seed: int) -> dict:
    """One trial at one point: a sample, Remark 1.8's classifier, the non-private rule and PCL2b, exact excess risks.

    Parameters
    ----------
    cfg : Remark18Point
        Law and sample size.
    t : int >= 0
        Trial index.
    root_seed : int >= 0
        The run's root seed (DATA stream: the sample; PRIVACY stream: the private learners' noise).

    Returns
    -------
    dict of str to float
        ``remark18`` (PCDE plug-in at (ε, δ(n)), ε = 1), ``remark18_l1`` (its ``Σ_y ∫ |f_y − f̂_y|``, the
        right side of Remark 1.8's corollary inequality), ``nonprivate`` (majority vote on the same cubes)
        and ``pcl2b`` (PCL2b on the lattice ``r Z^d``, ``r = n^{-1/(4d)}``, at (ε/2, δ/2) per histogram):
        exact excess risks >= 0.

    Raises
    ------
    ValueError
        For an unknown law, a negative ``t`` / ``root_seed``.

    References
    ----------
    001 Remark 1.8, Algorithms 3 and 5, Theorems 4.3, A.14.

    Examples
    --------
    At n = 100 (δ = 10^-4, threshold ``2 ln(2·10^4) + 1 = 20.8``) PCDE's cubes of side 1/10 expect at
    most ``100 · 0.1 · 0.6 φ(0)/0.5 ≈ 4.8`` points: nothing is released, so ``f̂ = 0``, the classifier is
    the constant 0 and ``Σ_y ∫ |f_y − 0| = 1`` (the corollary's bound holds):

    >>> out = remark18_trial(Remark18Point("normal_1d", 100), 0, 1)
    >>> sorted(out), out["remark18_l1"], bool(out["remark18"] <= out["remark18_l1"])
    (['nonprivate', 'pcl2b', 'remark18', 'remark18_l1'], 1.0, True)
    """
    data, privacy, _ = trial_streams(cfg, t, root_seed)
    law = make_law(cfg.law)
    X, y = law.sample(cfg.n, data)
    delta = delta_of(cfg.n)
    out = {}
    for name, eps in (("remark18", EPSILON), ("nonprivate", None)):
        clf = PCDEClassifier(epsilon=eps, delta=delta, random_state=privacy).fit(X, y)
        lo, hi = clf.cube_bounds()
        out[name] = law.excess_risk_cubes(lo, hi, clf.bits_)
        if eps is not None:  # the corollary's bound, for the private learner the claim is about
            out["remark18_l1"] = law.joint_l1_cubes(lo, hi, clf.c_hat_ / (clf.n_ * clf.side_ ** clf.d_))
    space = LatticePacking(law.d, pcl2_radius(cfg.n, law.d))
    keep = np.all(np.abs(X) < space.reach, axis=1)  # guard: points beyond LatticePacking.reach cannot be keyed
    pcl = PCL2b(space=space, epsilon=EPSILON / 2, delta=delta / 2, random_state=privacy).fit(X[keep], y[keep])
    centres = space.centre_of(pcl.occupied_)
    out["pcl2b"] = law.excess_risk_cubes(centres - space.r / 2, centres + space.r / 2, pcl.cell_bits(pcl.occupied_))
    return out


def slope_ci(ns, values, seed: int, tag: str):
    """Log-log slope of the mean over ``ns`` with a bootstrap 95% CI (None when a mean is 0).

    Parameters
    ----------
    ns : sequence of int
        The sample sizes (at least 2).
    values : sequence of array_like of float
        The per-trial values at each n (same length as ``ns``).
    seed : int >= 0
        The run's root seed; the bootstrap generator is ``default_rng([seed, stable_key(tag)])``.
    tag : str
        Names the curve, so each curve has its own bootstrap stream.

    Returns
    -------
    SlopeFit or None
        :func:`simulations.stats.fit_loglog_slope` with 2000 resamples (:data:`N_BOOT`); None when a mean
        is <= 0 (no logarithm).

    References
    ----------
    Claim (i) of the module: the slope over the last decade, compared with :data:`SLOPE_BOUND`.

    Examples
    --------
    Means falling by 10 per decade: slope −1, and every resample gives the same (identical trials):

    >>> fit = slope_ci([10, 100, 1000], [[1.0, 1.0], [0.1, 0.1], [0.01, 0.01]], 0, "demo")
    >>> round(fit.slope, 9), round(fit.ci_low, 9), round(fit.ci_high, 9)
    (-1.0, -1.0, -1.0)
    >>> slope_ci([10, 100], [[0.0, 0.0], [1.0, 1.0]], 0, "demo") is None
    True
    """
    if min(float(np.mean(v)) for v in values) <= 0:
        return None
    return fit_loglog_slope(ns, values, rng=np.random.default_rng([seed, stable_key(tag)]), n_boot=N_BOOT)


def compute(ctx) -> ExperimentResult:
    """Run every (law, n) point; state the consistency and corollary claims; compare with PCL2b and the histogram rule.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper": :data:`PROFILES`), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Tables ``excess_vs_n`` (per law, n, δ and rule: trials, mean excess with its 95% t-interval) and
        ``comparison`` (Remark 1.8 / other rule: ratio of means and paired 95% CI per n); claims (i) per
        law, the last-decade slope of Remark 1.8's excess is <= :data:`SLOPE_BOUND`, (ii) the corollary
        inequality in every trial; ``data["curves"]`` for :func:`plot`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by :class:`RunContext`, before any work).

    References
    ----------
    001 Theorem 1.7, Remark 1.8, Algorithms 1, 3, 5, Theorems 2.7, 4.3, A.14, A.15.

    Examples
    --------
    The run takes minutes (``paper_repro.py --only remark18_classifier``); the smoke profile's grid:

    >>> [int(round(10 ** x)) for x in PROFILES["smoke"].log10_n], PROFILES["smoke"].n_trials
    ([1000, 3162, 10000], 2)
    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    prof = PROFILES[ctx.profile]
    logn, n_trials = prof.log10_n, prof.n_trials
    ns = [int(round(10 ** x)) for x in logn]
    points = [Remark18Point(law, n) for law in LAW_SPECS for n in ns]
    res = run_trials(remark18_trial, points, n_trials, version="remark18_classifier/v2", **engine_options(ctx))
    last = [i for i, n in enumerate(ns) if n >= ns[-1] / 10 - 0.5]  # the last decade of n: the slopes' range
    idx = {law_name: [i for i, p in enumerate(points) if p.law == law_name] for law_name in LAW_SPECS}
    table, curves, slopes = _excess_table(res, idx, ns, last, ctx.seed)
    comp, rows = _comparison(res, idx, ns)
    claims = [_decay_claim(law_name, res.per_config[idx[law_name][-1]], slopes[(law_name, "remark18")], ns, last,
                           n_trials) for law_name in LAW_SPECS]
    claims.append(_corollary_claim(res.per_config))
    return ExperimentResult(tables={"excess_vs_n": table, "comparison": comp}, claims=claims,
                            notes=_notes(curves, slopes, rows), data={"curves": curves})


def _excess_table(res, idx, ns, last, seed) -> tuple[dict, dict, dict]:
    """Exact excess risk per (law, n, rule) with its 95 % t-CI; the plotted curves; the slope over ``last``."""
    table = {k: [] for k in ("law", "n", "delta", "rule", "trials", "mean_excess", "ci_low", "ci_high")}
    curves, slopes = {}, {}
    for law_name in LAW_SPECS:
        for rule in RULES:
            st = [t_interval(res.per_config[i][rule]) for i in idx[law_name]]
            for n, s in zip(ns, st):
                for k, v in zip(table, (law_name, n, delta_of(n), rule, s[2], s[0], s[3], s[4])):
                    table[k].append(v)
            curves[(law_name, rule)] = (ns, [s[0] for s in st], [s[3] for s in st], [s[4] for s in st])
            slopes[(law_name, rule)] = slope_ci([ns[j] for j in last],
                                                [res.per_config[idx[law_name][j]][rule] for j in last],
                                                seed, f"{law_name}/{rule}")
    return table, curves, slopes


def _comparison(res, idx, ns) -> tuple[dict, list]:
    """Remark 1.8's learner against PCL2b and the non-private rule per (law, n): ratio of means and the paired
    difference's 95 % t-CI; also the rows at the largest n for the notes."""
    comp = {k: [] for k in ("law", "n", "rule", "remark18_over_rule", "diff_ci_low", "diff_ci_high")}
    rows = []
    for law_name in LAW_SPECS:
        for rule in ("pcl2b", "nonprivate"):
            for j, i in enumerate(idx[law_name]):
                a, b = res.per_config[i]["remark18"], res.per_config[i][rule]
                d = t_interval(a - b)
                ratio = float(a.mean() / b.mean()) if b.mean() > 0 else math.inf
                for k, v in zip(comp, (law_name, ns[j], rule, ratio, d[3], d[4])):
                    comp[k].append(v)
            rows.append((law_name, rule, ratio, d))
    return comp, rows


def _decay_claim(law_name, top, fit, ns, last, n_trials) -> Claim:
    """Remark 1.8 on one law: the excess risk falls over the last decade of n (slope at most SLOPE_BOUND)."""
    law = make_law(law_name)
    verdict = "inconclusive" if fit is None else bound_verdict(SLOPE_BOUND, fit.ci_low, fit.ci_high, 0.0,
                                                                side="at_most")
    return Claim(
        claim=f"001 Remark 1.8 ({TITLE[law_name]}): the excess risk of the (ε = 1, δ = n^-2)-DP plug-in classifier "
              f"on PCDE falls over the last decade of n (log-log slope <= {SLOPE_BOUND})",
        holds=None if verdict == "inconclusive" else verdict == "holds", expected=SLOPE_BOUND,
        measured=None if fit is None else fit.slope,
        detail=(f"slope over n = {ns[last[0]]:.3g}..{ns[-1]:.3g}: "
                + ("undefined (a mean excess is 0)" if fit is None else
                   f"{fit.slope:.3f}, bootstrap 95% CI [{fit.ci_low:.3f}, {fit.ci_high:.3f}]")
                + f"; verdict {verdict} (bound_verdict, margin 0); excess at n = {ns[-1]:.3g}: "
                  f"{top['remark18'].mean():.4g} (Bayes risk {law.bayes_risk():.4g}, excess of the constant "
                  f"rule 0: {law.bayes_positive_mass():.4g}); {n_trials} trials per n"), kind="paper")


def _corollary_claim(per_config) -> Claim:
    """Remark 1.8's corollary step, err(h) − L* <= Σ_y ∫|f_y − f̂_y|, in every trial (both sides exact)."""
    violations, checked = 0, 0
    for r in per_config:
        gap = r["remark18"] - r["remark18_l1"]
        violations += int(np.sum(gap > 1e-12))
        checked += gap.size
    return Claim(
        claim="001 Remark 1.8's corollary step: err(h) − L* <= Σ_y ∫|f_y − f̂_y| (= 2 TV of the joint estimate) in "
              "every trial, every law and n",
        holds=violations == 0, expected=0, measured=violations,
        detail=f"{violations} violations in {checked} trials; both sides exact (cube integrals of the "
               "mixture's CDFs, exact L1 of ProductDensity on standardized cubes), tolerance 1e-12", kind="paper")


def _notes(curves, slopes, rows) -> str:
    lines = ["| law | rule | excess at n_max [95% CI] | slope, last decade [95% CI] |", "| --- | --- | --- | --- |"]
    for law_name in LAW_SPECS:
        for rule in RULES:
            ns_, m, lo, hi = curves[(law_name, rule)]
            f = slopes[(law_name, rule)]
            sl = "n/a" if f is None else f"{f.slope:.3f} [{f.ci_low:.3f}, {f.ci_high:.3f}]"
            lines.append(f"| {TITLE[law_name]} | {LABEL[rule]} | {m[-1]:.4g} [{lo[-1]:.3g}, {hi[-1]:.3g}] | {sl} |")
    comp_lines = ["| law | Remark 1.8 vs | ratio of mean excess at n_max (Remark 1.8 / other) | paired difference "
                  "(Remark 1.8 − other), 95% CI |",
                  "| --- | --- | --- | --- |"]
    for law_name, rule, ratio, d in rows:
        comp_lines.append(f"| {TITLE[law_name]} | {LABEL[rule]} | {ratio:.3g} | [{d[3]:.3g}, {d[4]:.3g}] |")
    return ("Remark 1.8's learner is (ε, δ)-DP under full DP (replace one record (x, y); label DP is a special case): "
             "one stability histogram over the joint (cube, label) cells, where a replacement moves one unit between "
             "two cells -- no composition over the two labels. PCL2b gets the same total (ε, δ) by halving both for "
             f"its two histograms (Theorem A.14). ε = {EPSILON:g}, δ(n) = n^-{DELTA_EXPONENT:g}. Excess risks are "
             "exact.\n\n" + "\n".join(lines)
             + "\n\nComparison at each n is in comparison.csv; at the largest n (reported, not claimed):\n\n"
             + "\n".join(comp_lines)
             + "\n\nPCDE's cubes (side n^(-1/(2d))) hold about √n f(x) points each and PCL2b's cells (side "
               "n^(-1/(4d))) about n^(3/4) f(x), against release thresholds (2/ε)ln(2/δ)+1 of the same order "
               "(PCL2b's, at (ε/2, δ/2), about twice as high): PCL2b's cells clear theirs at far smaller n, which "
               "is consistent with its lower excess risk at these n.")


def plot(result: ExperimentResult) -> dict:
    """Exact excess risk vs n on log-log axes, one panel per law, the three rules with 95% CI bands.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["curves"]``).

    Returns
    -------
    dict
        ``{"excess_vs_n": matplotlib.figure.Figure}`` (1 × 3 panels, one per law of :data:`LAW_SPECS`).

    References
    ----------
    001 Remark 1.8, Algorithm 5.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['excess_vs_n']
    """
    curves = result.data["curves"]
    fig, axes = figure(1, 3, width=4.0, height=3.2,
                       title="001 Remark 1.8: exact excess risk vs n at ε = 1, δ = n^-2 (PCL2b at the same total "
                             "budget); 95% CI bands")
    for a, law_name in enumerate(LAW_SPECS):
        for i, rule in enumerate(RULES):
            ns, m, lo, hi = curves[(law_name, rule)]
            band(axes[a], ns, m, np.maximum(lo, 0.5 * np.asarray(m)), hi, label=LABEL[rule], i=i)
        axes[a].set(xscale="log", yscale="log", xlabel="n", ylabel="excess risk err(h) − L*", title=TITLE[law_name])
    axes[0].legend(fontsize=7, loc="lower left")
    return {"excess_vs_n": fig}


# Registered through simulations/experiments/catalogue.py ("remark18_classifier").
