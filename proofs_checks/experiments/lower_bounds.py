"""Experiment ``rates_lower_bounds``: 003's lower bounds as numbers, beside the matching estimators' risk.

For each lower-bound theorem of 003 (Theorems 1, 3, 5, 7, 9, 11) the proof's explicit bound
(:mod:`limits.lower_bounds`: number of cubes, the loss of one wrong cube, the per-cube testing error
from Assouad's lemma or from Lemma 1/3 with group privacy, the KL bound under local label DP) is
evaluated on the proof's packing family at sample size N, and the upper-bound estimator of the
matching theorem (2, 4, 6, 8, 10, 12), tuned by its own rule for that N, is run on the *same*
family through the rate experiments' machinery (:func:`bound_trial`: the excess risk of
:func:`simulations.experiments.rates.machinery.rate_trial`, draw for draw; count level for the histogram
estimators, so N reaches 10^8–10^14; point level for the k-NN ones).

**Which family, which N.** The family is the proof's construction with cubes of side ``h = 1/g``
(integer g, so the cubes tile [0, 1]^d as the suite's laws require). For each g the grid takes the N
at which the bound's own choice of h equals 1/g: for the local theorems the h maximizing the explicit
bound (the proofs' eq. (49), (128), (162) leave the constant in ``h ≍ (N(ε²∧1))^{−1/(2β+d)}`` open; the
maximizer is that rule with the constant fixed, :func:`limits.lower_bounds.assouad_optimum`); for the
central ones the proof's own eq. (100) ``2N h^d = ln 2/(ε h^β)`` (with (159) for Theorem 11), which
fixes the constant. The bound reported at each N is the bound **on that family** (h = 1/g, the mean
bump count of the randomly rounded construction for classification); the table also gives the bound
at the proof's h with constant 1 and at the optimal h for the same N (bounds over the class, for
context, not compared with the measurement).

**What the measured side is.** Each trial draws a sign vector v uniformly from the hypercube (and,
for classification, the bump cubes uniformly), the data, the mechanism's noise, and returns the exact
excess risk (histograms) or its unbiased estimate over uniform points (k-NN). The mean over trials
estimates the estimator's *average* risk over uniformly drawn v, its Bayes risk under the uniform prior.
That average is not an upper bound on the minimax risk over the family (which needs the worst v:
minimax <= max_v risk >= average); but what the proofs bound from below is exactly the average: Assouad's
lemma (Tsybakov 2009, Theorem 2.12, whose proof goes through the mean over the hypercube) and the
Bayesian argument of 003 eq. (86) both bound the smallest *average over uniform v* any estimator can
reach. So ``lower <= Bayes risk <= measured average`` must hold at every N (a violation would be a bug
in the bound, the family or the estimator), and a ratio measured/lower that stays bounded over N says
that the estimator attains the bound's rate on average over the family — the rate is tight there, with
the ratio as the gap between the proof's constant and the estimator's.

**Decisions.** (1) Lower bound below the measurement at every N: per N the one-sided rule
:func:`simulations.stats.bound_verdict` with margin 0 (a strict ordering) on the mean's 95% t-interval;
holds when every interval lies above the bound, fails when one lies below. (2) The ratio's log-log
slope in N is 0: OLS slope of log(mean ratio) on log N with a bootstrap 95% CI
(:func:`simulations.stats.fit_loglog_slope`), decided by :func:`simulations.stats.interval_verdict`
with margin :data:`SLOPE_MARGIN` (reasons there). A slope excluded from ``0 ± margin`` would be a
finding (the estimator's rate on the family differs from the bound's).

References: 003 Theorems 1–12, Appendices B, D, F, H, J, L; Tsybakov (2009) Theorem 2.12.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import LogFormatterSciNotation, LogLocator, NullLocator

import limits
from limits import lower_bounds as LB
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.experiments.base import Claim, ExperimentResult
from simulations.estimators.count_level import fit_count_level
from simulations.experiments.rates.machinery import AlgorithmFacts, RatePoint, construction, estimator, excess_risk, rate_trial
from simulations.plotting import band, color, figure
from simulations.seeding import EVAL, stream
from simulations.stats import bound_verdict, fit_loglog_slope, interval_verdict, t_interval

__all__ = ["CASES", "PROFILES", "SLOPE_MARGIN", "BoundCase", "Profile", "bound_trial", "case_grid", "compute", "plot"]

#: Equivalence margin of the claim "the ratio's exponent in N is 0", per profile. The ratio's slope is the
#: estimator's measured exponent minus the bound's, so the margin must be below the exponent differences
#: the claim is meant to resolve: the smallest gap between two distinct Table 1 exponents at these cases'
#: parameters is 1/2 − 3/7 ≈ 0.071 (Theorem 9's case against the non-private rate), so a CI inside ±0.05
#: (quick) rules out a neighbouring rate of the table; the paper grids, longer and with more trials, are
#: decided at ±0.03, the rate experiments' resolution on an exponent. Smoke grids decide nothing (±0.25).
SLOPE_MARGIN = {"smoke": 0.25, "quick": 0.05, "paper": 0.03}


@dataclass(frozen=True, slots=True)
class Profile:
    """Size of one profile of ``rates_lower_bounds``: grid points, trials, k-NN evaluation points, g range.

    The grid of each case runs from ``g_lo`` to ``g_lo (g_hi/g_lo)^span`` (:func:`case_grid`). A frozen
    record; nothing is validated here (:data:`PROFILES` holds the suite's three).

    Parameters
    ----------
    points : int
        Grid points (values of g, hence of N) per case, >= 1 (fewer when rounding g merges two).
    trials_counts : int
        Trials per point of the histogram (count-level) cases, before each case's ``trials_weight``.
    trials_knn : int
        Trials per point of the k-NN cases, before each case's ``trials_weight``.
    n_eval : int
        Uniform evaluation points of the k-NN excess-risk estimate (:class:`RatePoint` ``n_eval``).
    span : float
        Share of each case's g range used, in log scale, 0 < span <= 1.

    References
    ----------
    003 Theorems 1-12 (the cases the grids cover).

    Examples
    --------
    >>> PROFILES["quick"]
    Profile(points=4, trials_counts=40, trials_knn=60, n_eval=256, span=0.75)
    """

    points: int
    trials_counts: int
    trials_knn: int
    n_eval: int
    span: float  # 0 < span <= 1: the fraction of each case's g range (in log scale) used


PROFILES = {
    "smoke": Profile(points=3, trials_counts=6, trials_knn=3, n_eval=128, span=0.3),
    "quick": Profile(points=4, trials_counts=40, trials_knn=60, n_eval=256, span=0.75),
    "paper": Profile(points=7, trials_counts=300, trials_knn=200, n_eval=512, span=1.0),
}


@dataclass(frozen=True, slots=True)
class BoundCase(AlgorithmFacts):
    """One theorem: its lower bound (``limits.lower_bounds``), the matching estimator and the family's range.

    A frozen record; nothing is validated here (:data:`CASES` holds the suite's six, one per
    lower-bound theorem); :func:`limits.lower_bounds.lower_bound` checks the parameters when
    :meth:`bound` evaluates them.

    Parameters
    ----------
    theorem : int
        The 003 lower-bound theorem: 1, 3, 5, 7, 9 or 11.
    algorithm : str
        Key of :data:`limits.ALGORITHMS`: the estimator of the matching upper bound, Theorem ``theorem + 1``
        (its task, privacy model and bins / k-NN are read there).
    d : int
        Dimension of the features, >= 1.
    beta : float
        Hölder exponent of the family, > 0.
    eps : float
        Privacy parameter ε > 0.
    h_rule : {"optimal", "proof"}
        How the grid pairs N with the family's h (:meth:`n_for_g`): ``"optimal"`` (the maximizer of the
        explicit bound; the local cases) or ``"proof"`` (the proof's eq. (100) balance, with eq. (159)'s T
        for Theorem 11; the central cases).
    g_lo, g_hi : int
        Cubes per axis of the family at the smallest and largest N of the paper profile, 1 <= g_lo < g_hi.
    gamma : float or None, default None
        Margin exponent (classification).
    p : float or None, default None
        Moment order of the labels (heavy-tailed regression), > 1.
    M_p : float or None, default None
        Bound on the p-th moment of the labels (heavy-tailed regression), 003 eq. (156)-(157).
    C_M : float or None, default None
        Bump-count constant of 003 eq. (37) (classification).
    trials_weight : float, default 1.0
        The case's trials per point, as a multiple of the profile's (a case whose per-trial excess risk is
        more spread out gets more trials, so every slope is decided with a similar CI).

    References
    ----------
    003 Theorems 1, 3, 5, 7, 9, 11 (the bounds) and 2, 4, 6, 8, 10, 12 (the estimators); Appendices B, D,
    F, H, J, L (the packing families).

    Examples
    --------
    >>> c = CASES[3]
    >>> c.theorem, c.algorithm, c.task, c.privacy, c.h_rule, (c.g_lo, c.g_hi)
    (7, 'central_regression', 'regression', 'central', 'proof', (48, 2048))
    """

    theorem: int
    algorithm: str
    d: int
    beta: float
    eps: float
    h_rule: str
    g_lo: int
    g_hi: int
    gamma: float | None = None
    p: float | None = None
    M_p: float | None = None
    C_M: float | None = None
    trials_weight: float = 1.0

    def trials(self, prof: "Profile") -> int:
        """Trials per grid point of this case at a profile: the profile's count times ``trials_weight``.

        Parameters
        ----------
        prof : Profile
            The profile (``trials_knn`` for the k-NN cases, ``trials_counts`` for the histograms).

        Returns
        -------
        int
            ``max(2, round(trials_weight × trials))``.

        Examples
        --------
        Theorem 7's case has weight 2, so 2 × 40 count-level trials at the quick profile; Theorem 9's
        (k-NN, weight 2) gets 2 × 60:

        >>> CASES[3].trials(PROFILES["quick"]), CASES[4].trials(PROFILES["quick"])
        (80, 120)
        """
        return max(2, int(round(self.trials_weight * (prof.trials_knn if self.knn else prof.trials_counts))))

    @property
    def knn(self) -> bool:
        """Whether the matching estimator is a k-NN one (Theorems 6, 10), not a histogram.

        Returns
        -------
        bool
            ``self.kind == "knn"``.

        Examples
        --------
        The local regression cases (Theorems 5 and 9) are matched by the k-NN estimators of
        Theorems 6 and 10:

        >>> [c.knn for c in CASES]
        [False, False, True, False, True, False]
        """
        return self.kind == "knn"

    @property
    def label(self) -> str:
        """Display label of the case: the theorem pair, the task and the parameters.

        Returns
        -------
        str
            ``"Thm t vs t+1 (privacy task): d=..., β=..., ..."``, used in the claims, tables and figure.

        Examples
        --------
        >>> CASES[0].label
        'Thm 1 vs 2 (local classification): d=2, β=1, γ=1, ε=1'
        """
        parts = [f"d={self.d}", f"β={self.beta:g}"]
        if self.gamma is not None:
            parts.append(f"γ={self.gamma:g}")
        if self.p is not None:
            parts += [f"p={self.p:g}", f"M_p={self.M_p:g}"]
        parts.append(f"ε={self.eps:g}")
        task = {"regression_heavy_tailed": "heavy-tailed regression"}.get(self.task, self.task)
        return f"Thm {self.theorem} vs {self.theorem + 1} ({self.privacy} {task}): " + ", ".join(parts)

    def _kwargs(self) -> dict:
        kw = {"d": self.d, "beta": self.beta}
        if self.task == "classification":
            kw.update(gamma=self.gamma, C_M=self.C_M)
        if self.task == "regression_heavy_tailed":
            kw.update(p=self.p, M_p=self.M_p)
        return kw

    def bound(self, N: float, h, **extra) -> LB.LowerBound:
        """The explicit lower bound of this case's theorem at sample size N and cube side h.

        Parameters
        ----------
        N : float
            Sample size, > 0.
        h : float or {"proof", "optimal"}
            Cube side of the family, or the rule that picks it for N
            (:func:`limits.lower_bounds.lower_bound`).
        **extra
            Further keywords of the theorem's bound, e.g. ``cubes`` (the number of cubes carrying a sign).

        Returns
        -------
        limits.lower_bounds.LowerBound
            The bound and its ingredients.

        Raises
        ------
        ValueError
            From :func:`limits.lower_bounds.lower_bound` on a bad value (e.g. h outside (0, 1]).

        References
        ----------
        003 Theorems 1, 3, 5, 7, 9, 11; Appendix H eq. (143) for the example.

        Examples
        --------
        Theorem 7 at h = 1/48: 48 cubes, each losing ``½ h^{2β+d} ‖φ‖₂²`` with ``‖φ‖₂² = 2/3`` (the plateau
        bump), times the per-cube error ``(1/12) P(window)`` with ``P(window) = 1`` here: the bound is
        ``48 · ½ h³ · (2/3) / 12 = h²/36 = 1/82944``:

        >>> lb = CASES[3].bound(8e8, 1 / 48)
        >>> lb.theorem, lb.cubes, round(lb.bound * 82944, 9)
        ('003 Theorem 7', 48.0, 1.0)
        """
        return LB.lower_bound(self.task, self.privacy, N, self.eps, h=h, **self._kwargs(), **extra)

    def mean_cubes(self, g: int) -> float | None:
        """Mean bump count of the randomly rounded construction (classification), None otherwise.

        ``C_M h^{γβ−d}`` with h = 1/g, clipped to [1, g^d] (random rounding keeps the mean exactly).

        Parameters
        ----------
        g : int
            Cubes per axis of the family (h = 1/g), >= 1.

        Returns
        -------
        float or None
            The mean number of cubes carrying a bump; None for the regression cases (every cube does).

        References
        ----------
        003 eq. (37) (the number of bumps ``m = C_M h^{γβ−d}``), Appendix B.

        Examples
        --------
        Theorem 1's case (d = 2, β = γ = 1, C_M = 2): ``2 h^{−1} = 2g`` bumps, 12 at g = 6; regression: None:

        >>> CASES[0].mean_cubes(6), CASES[3].mean_cubes(6)
        (12.0, None)
        """
        if self.task != "classification":
            return None
        return float(min(g ** self.d, max(1.0, self.C_M * (1.0 / g) ** (self.gamma * self.beta - self.d))))

    def n_for_g(self, g: int) -> float:
        """The N at which the bound's h (``h_rule``) equals 1/g (bisection in log N; h decreases in N).

        Parameters
        ----------
        g : int
            Cubes per axis of the family, >= 1.

        Returns
        -------
        float
            N in (1, e^60), to about 1e-12 relative precision (64 bisection steps).

        References
        ----------
        003 eq. (100) (central: ``2N h^d = ln 2 / (ε h^β)``; Theorem 11: ``T ln 2`` with T of eq. (159),
        eqs. (186)-(188)), eqs. (49), (128), (162) (local: h ≍
        ``(N(ε² ∧ 1))^{−1/(2β+d)}``, constant fixed at the bound's maximizer).

        Examples
        --------
        Theorem 7's case (d = β = 1, ε = 1e-6, proof's rule): eq. (100) gives ``N = ln 2 / (2 ε h^{β+d})``,
        i.e. ``ln 2 · 48² / (2 · 10⁻⁶) = 798505552.005`` at g = 48:

        >>> N = CASES[3].n_for_g(48)
        >>> round(N), round(N) == round(math.log(2) * 48 ** 2 / (2 * 1e-6))
        (798505552, True)
        """
        lo, hi = 0.0, 60.0
        for _ in range(64):
            mid = 0.5 * (lo + hi)
            if self.bound(math.exp(mid), self.h_rule).h > 1.0 / g:
                lo = mid
            else:
                hi = mid
        return math.exp(0.5 * (lo + hi))


#: One case per lower-bound theorem. Central cases use ε = 1e-6 so that over the whole grid the theorems'
#: two-term tunings stay on their privacy branch (the non-private branch of Theorem 8's bin width is 3–11% of
#: it over the paper grid at ε = 1e-6, 10–28% at ε = 1e-4, and that drift tilts the ratio) and the privacy term dominates
#: the risk. The k-NN cases (Theorems 5, 9) use β = 1/2 and, for Theorem 9, p = 4: their families' N grows
#: as g^{2β+d} (g^{2β+d+2β/(p−1)}), so these give the most cubes, hence the least trial-to-trial spread,
#: per sample point. The central regression grids start at 32–48 cubes: with fewer bins the mean of a few
#: squared Laplace noises (relative spread √20/2 per bin) makes the trial-to-trial spread large; Theorem 7
#: (the mean of squared Laplace noises over the bins) and Theorem 9 (k-NN over few neighbourhoods) get twice
#: the trials of the others.
CASES = (
    BoundCase(1, "local_classification", d=2, beta=1.0, gamma=1.0, C_M=2.0, eps=1.0, h_rule="optimal", g_lo=6, g_hi=48),
    BoundCase(3, "central_classification", d=2, beta=1.0, gamma=1.0, C_M=2.0, eps=1e-6, h_rule="proof", g_lo=6,
              g_hi=64),
    BoundCase(5, "local_regression", d=1, beta=0.5, eps=1.0, h_rule="optimal", g_lo=16, g_hi=512),
    BoundCase(7, "central_regression", d=1, beta=1.0, eps=1e-6, h_rule="proof", g_lo=48, g_hi=2048, trials_weight=2.0),
    BoundCase(9, "local_regression_heavy_tailed", d=1, beta=0.5, p=4.0, M_p=4.0, eps=1.0, h_rule="optimal", g_lo=8,
              g_hi=128, trials_weight=2.0),
    BoundCase(11, "central_regression_heavy_tailed", d=1, beta=1.0, p=2.0, M_p=4.0, eps=1e-6, h_rule="proof", g_lo=32,
              g_hi=1024),
)


def case_grid(case: BoundCase, prof: Profile) -> list[tuple[int, RatePoint]]:
    """The grid of one case at one profile: (g, RatePoint) per point, g increasing.

    g is geometric over the profile's share of ``[g_lo, g_hi]`` (``g_lo`` to ``g_lo (g_hi/g_lo)^span``,
    ``points`` values rounded to integers, duplicates merged); N is :meth:`BoundCase.n_for_g` rounded;
    the estimator is tuned for N by its theorem's rule (:func:`limits.tuning`): its bins per axis the
    nearest integer to ``1/h`` (histograms, with the family drawn at ``law_g = g``) or its ``k`` (k-NN).

    Parameters
    ----------
    case : BoundCase
        The theorem's case.
    prof : Profile
        The profile (``points``, ``span``, ``n_eval``).

    Returns
    -------
    list of (int, RatePoint)
        One ``(g, point)`` per grid point.

    Raises
    ------
    ValueError
        From :func:`limits.tuning` if the tuning rejects the case's parameters.

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12 (the tunings); eq. (100) (N for g, central cases).

    Examples
    --------
    Theorem 7's case at the smoke profile: g from 48 to ``48 · (2048/48)^0.3 = 148.0``, three points
    ``48, √(48 · 148) = 84.3, 148``; N at g = 48 from eq. (100) (:meth:`BoundCase.n_for_g`):

    >>> grid = case_grid(CASES[3], PROFILES["smoke"])
    >>> [g for g, _ in grid], grid[0][1].N, grid[0][1].law_g
    ([48, 84, 148], 798505552, 48)
    """
    g_hi = case.g_lo * (case.g_hi / case.g_lo) ** prof.span
    gs = sorted({int(round(x)) for x in np.geomspace(case.g_lo, g_hi, prof.points)})
    out = []
    for g in gs:
        N = int(round(case.n_for_g(g)))
        tun = limits.tuning(case.algorithm, N=N, epsilon=case.eps, beta=case.beta, d=case.d, p=case.p)
        common = dict(algorithm=case.algorithm, d=case.d, beta=case.beta, eps=case.eps, N=N, gamma=case.gamma,
                      p=case.p, C_M=case.C_M, M_p=case.M_p)
        if case.knn:
            pt = RatePoint(**common, g=g, k=int(tun["k"]), n_eval=prof.n_eval)
        else:
            pt = RatePoint(**common, g=max(1, int(round(1.0 / tun["h"]))), law_g=g)
        out.append((g, pt))
    return out


def bound_trial(pt: RatePoint, trial: int, root_seed: int) -> dict:
    """One trial of the matching estimator on the family: the excess risk of ``rate_trial``, without its decomposition.

    Histogram estimators: the same DATA/PRIVACY streams, construction, count-level fit and exact excess
    risk as :func:`simulations.experiments.rates.machinery.rate_trial` (whose decomposition draws its extra
    fits from a third stream after these), so the ``excess`` is the same number draw for draw at a third of
    the cost. k-NN estimators: ``rate_trial`` itself.

    Parameters
    ----------
    pt : RatePoint
        The grid point (from :func:`case_grid`).
    trial : int
        Trial index, >= 0 (with ``root_seed`` and ``pt``, it names the trial's random streams).
    root_seed : int
        Root seed of the run.

    Returns
    -------
    dict
        ``{"excess": float}``: the exact excess risk (histograms) or its unbiased estimate over
        ``pt.n_eval`` uniform points (k-NN), >= 0.

    Raises
    ------
    ValueError
        From the law or the estimator on inconsistent point parameters.

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12 (the estimators) on the packing families of Appendices B, D, F, H, J, L.

    Examples
    --------
    Deterministic in (point, trial, seed), and draw for draw the ``rate_trial`` excess risk:

    >>> from simulations.experiments.rates.machinery import rate_trial
    >>> pt = case_grid(CASES[3], PROFILES["smoke"])[0][1]
    >>> r = bound_trial(pt, 0, 2024)
    >>> sorted(r), r["excess"] > 0, r == bound_trial(pt, 0, 2024), r["excess"] == rate_trial(pt, 0, 2024)["excess"]
    (['excess'], True, True, True)
    """
    if pt.k is not None:
        return rate_trial(pt, trial, root_seed)
    data, privacy, _ = trial_streams(pt, trial, root_seed)
    law = construction(pt, data)
    est = fit_count_level(estimator(pt), law, pt.N, data, privacy)
    return {"excess": excess_risk(law, est)}


def _holds(verdict: str):
    return {"holds": True, "excluded": False}.get(verdict)


#: columns of lower_vs_measured.csv and ratio_slopes.csv
_LOWER_COLS = ("theorem", "estimator", "d", "beta", "gamma", "p", "M_p", "eps", "g", "h", "N", "estimator_scale",
               "cubes", "loss_per_cube", "per_cube_error", "divergence", "count_probability", "C_E", "T", "lower_bound",
               "nonprivate_term", "lower_at_proof_h", "lower_at_optimal_h", "measured_mean", "ci_low", "ci_high",
               "trials", "ratio", "ratio_ci_low", "ratio_ci_high", "verdict_lower_le_measured")
_SLOPE_COLS = ("theorem", "estimator", "label", "n_min", "n_max", "points", "trials", "bound_slope",
               "table1_exponent", "measured_slope", "ratio_slope", "ci_low", "ci_high", "margin", "verdict", "ratio_min",
               "ratio_max")


def compute(ctx) -> ExperimentResult:
    """Evaluate each lower bound on its family over the grid, run the matching estimator there, state the claims.

    Parameters
    ----------
    ctx : RunContext
        Profile (``"smoke"``, ``"quick"`` or ``"paper"``: :data:`PROFILES`), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Tables ``lower_vs_measured`` (per case and N: the bound and its ingredients, the bounds at the
        proof's and the optimal h, the measured mean excess risk with its 95% t-interval, the ratio
        measured/lower and the per-N verdict) and ``ratio_slopes`` (per case: the bound's, Table 1's and
        the measured slopes, the ratio's slope with its bootstrap 95% CI and verdict); per case two
        claims: "lower bound <= measured risk at every N" and "the ratio's log-log slope is 0" (margin
        :data:`SLOPE_MARGIN` of the profile); ``data["fits"]`` for :func:`plot`.

    Raises
    ------
    ValueError
        For an unknown profile, before any work.

    References
    ----------
    003 Theorems 1-12, Appendices B, D, F, H, J, L; Tsybakov (2009) Theorem 2.12 (Assouad's lemma).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_lower_bounds``); an unknown profile is refused
    before any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    prof = PROFILES[ctx.profile]
    margin = SLOPE_MARGIN[ctx.profile]
    grids = [case_grid(c, prof) for c in CASES]
    per_point = _run_grids(ctx, prof, grids)
    table, slopes = {k: [] for k in _LOWER_COLS}, {k: [] for k in _SLOPE_COLS}
    claims, fits = [], []
    for c, grid in zip(CASES, grids):
        fit = _add_case(c, grid, per_point, table, slopes, ctx.seed, margin)
        fits.append(fit)
        claims += _case_claims(c, fit, slopes["trials"][-1], margin)
    notes = [__doc__.split("\n\n", 1)[1].split("References")[0].strip(), "", _slope_markdown(slopes), "",
             _constants_note()]
    if ctx.profile == "smoke":
        notes.append("\n_Smoke profile: short grids with a handful of trials; the slopes are not meaningful._")
    return ExperimentResult(tables={"lower_vs_measured": table, "ratio_slopes": slopes}, claims=claims,
                            notes="\n".join(notes), data={"fits": fits})


def _run_grids(ctx, prof, grids) -> dict:
    """The excess risk of every grid point, by point: one engine call per trial count."""
    per_point = {}
    for trials in sorted({c.trials(prof) for c in CASES}):  # one engine call per trial count
        configs = [pt for c, grid in zip(CASES, grids) if c.trials(prof) == trials for _, pt in grid]
        res = run_trials(bound_trial, configs, trials, **engine_options(ctx))
        for pt, r in zip(configs, res.per_config):
            per_point[pt] = np.asarray(r["excess"], dtype=float)

    return per_point


def _add_case(c, grid, per_point, table, slopes, seed, margin) -> dict:
    """One theorem: append its rows to ``table`` (bound vs measured per N) and ``slopes`` (the ratio's slope);
    return its fit summary (also the plot's data), with the per-N verdicts."""
    N = np.array([pt.N for _, pt in grid], dtype=float)
    rows, ratios, lowers, verdicts = [], [], [], []
    for g, pt in grid:
        lb = c.bound(pt.N, 1.0 / g, cubes=c.mean_cubes(g))
        ctx_proof = c.bound(pt.N, "proof").bound
        ctx_opt = c.bound(pt.N, "optimal").bound
        v = per_point[pt]
        mean, _, n, lo, hi = t_interval(v)
        ver = bound_verdict(lb.bound, lo, hi, 0.0, side="at_least")
        verdicts.append(ver)
        lowers.append(lb)
        ratios.append(v / lb.bound)
        rows.append((g, pt, lb, ctx_proof, ctx_opt, mean, lo, hi, n, ver))
    fit = fit_loglog_slope(N, ratios, rng=stream(seed, f"rates_lower_bounds/{c.label}", 0, EVAL), n_boot=2000)
    verdict = interval_verdict(0.0, fit.ci_low, fit.ci_high, margin)
    lower_vals = np.array([lb.bound for lb in lowers])
    means = np.array([r[5] for r in rows])
    bound_slope = float(np.polyfit(np.log(N), np.log(lower_vals), 1)[0])
    meas_slope = float(np.polyfit(np.log(N), np.log(means), 1)[0])
    exponent = limits.rate_exponent(c.task, c.privacy, beta=c.beta, d=c.d, gamma=c.gamma, p=c.p,
                                    term="privacy" if c.privacy == "central" or c.task == "regression_heavy_tailed"
                                    else None)
    ratio_means = means / lower_vals
    for g, pt, lb, ctx_proof, ctx_opt, mean, lo, hi, n, ver in rows:
        scale = pt.k if c.knn else pt.g
        vals = (c.theorem, c.algorithm, c.d, c.beta, "" if c.gamma is None else c.gamma, "" if c.p is None else c.p,
                "" if c.M_p is None else c.M_p, c.eps, g, lb.h, pt.N, scale, lb.cubes, lb.loss_per_cube,
                lb.per_cube_error, lb.divergence, "" if lb.count_probability is None else lb.count_probability,
                "" if lb.berry_esseen is None else lb.berry_esseen, "" if lb.T is None else lb.T, lb.bound,
                lb.nonprivate, ctx_proof, ctx_opt, mean, lo, hi, n, mean / lb.bound, lo / lb.bound, hi / lb.bound,
                ver)
        for k, x in zip(_LOWER_COLS, vals):
            table[k].append(x)
    trials = rows[0][8]
    for k, x in zip(_SLOPE_COLS, (c.theorem, c.algorithm, c.label, int(N[0]), int(N[-1]), len(N), trials,
                                  bound_slope, -exponent, meas_slope, fit.slope, fit.ci_low, fit.ci_high, margin,
                                  verdict, float(ratio_means.min()), float(ratio_means.max()))):
        slopes[k].append(x)
    return dict(case=c, N=N, lower=lower_vals, means=means, lo=np.array([r[6] for r in rows]),
                hi=np.array([r[7] for r in rows]), ratios=ratio_means,
                proof=np.array([r[3] for r in rows]), optimal=np.array([r[4] for r in rows]),
                nonprivate=np.array([lb.nonprivate for lb in lowers]), fit=fit, verdict=verdict,
                exponent=exponent, verdicts=verdicts, bound_slope=bound_slope, meas_slope=meas_slope)


def _case_claims(c, f, trials, margin) -> list[Claim]:
    """The lower bound is below the measured risk at every N; the ratio measured/lower is flat in N."""
    N, ratio_means, verdicts, fit, verdict = f["N"], f["ratios"], f["verdicts"], f["fit"], f["verdict"]
    bound_slope, meas_slope, exponent = f["bound_slope"], f["meas_slope"], f["exponent"]
    n_bad = sum(v == "excluded" for v in verdicts)
    order = "fails" if n_bad else ("holds" if all(v == "holds" for v in verdicts) else "inconclusive")
    return [
        Claim(
            claim=f"003 Theorem {c.theorem}'s explicit lower bound on its packing family is at most the mean excess risk "
                  f"of Theorem {c.theorem + 1}'s estimator on that family at every N ({c.label})",
            holds={"holds": True, "fails": False}.get(order), expected=1.0, measured=float(ratio_means.min()),
            detail=(f"{order}: smallest ratio measured/lower {ratio_means.min():.3g} (largest {ratio_means.max():.3g}); "
                    f"per N the mean's 95% t-interval against the bound (one-sided rule, margin 0): "
                    f"{', '.join(verdicts)}; N {int(N[0]):.3g}–{int(N[-1]):.3g}, {trials} trials per N"), kind="paper"),
        Claim(
            claim=f"the ratio measured/lower of 003 Theorem {c.theorem} has log-log slope 0 in N, i.e. Theorem "
                  f"{c.theorem + 1}'s estimator attains the bound's rate on the family ({c.label})",
            holds=_holds(verdict), expected=0.0, measured=fit.slope,
            detail=(f"{verdict}: slope {fit.slope:.4f}, bootstrap 95% CI [{fit.ci_low:.4f}, {fit.ci_high:.4f}], margin "
                    f"{margin:g}; bound's own slope {bound_slope:.4f} (Table 1 exponent −{exponent:.4f}), measured "
                    f"slope {meas_slope:.4f}; ratio {ratio_means.min():.3g}–{ratio_means.max():.3g}"), kind="paper"),
    ]


def _slope_markdown(s) -> str:
    lines = ["| theorem | estimator | N | bound slope (Table 1) | measured slope | ratio measured/lower | ratio slope [95% CI] | verdict |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for i in range(len(s["theorem"])):
        lines.append(f"| {s['theorem'][i]} | {s['estimator'][i]} | {s['n_min'][i]:.3g}–{s['n_max'][i]:.3g} | "
                     f"{s['bound_slope'][i]:.3f} ({s['table1_exponent'][i]:.3f}) | {s['measured_slope'][i]:.3f} | "
                     f"{s['ratio_min'][i]:.3g}–{s['ratio_max'][i]:.3g} | {s['ratio_slope'][i]:.3f} "
                     f"[{s['ci_low'][i]:.3f}, {s['ci_high'][i]:.3f}] | {s['verdict'][i]} (±{s['margin'][i]:g}) |")
    return "\n".join(lines)


def _constants_note() -> str:
    return (
        "**Constants the proofs leave open, and the values taken** (`limits.lower_bounds`): uniform features "
        "(f = c = 1); the plateau bump φ (‖φ‖₁ = (2 − 2^{−d})/(d+1); its linear edge is what makes the margin "
        "condition (37) hold for γ ≤ 1); C_M = 2 bumps constant (as the rate experiments); the h constant of "
        "eqs. (49), (128), (162) fixed at the maximizer of the explicit bound; Berry–Esseen C_0 = 0.56 "
        "(Shevtsova 2010) times the labels' Lyapunov ratio; the count window's probability by the Chernoff "
        "bounds the proof cites. **Where the proofs' constants needed care:** the KL step (46)(c) holds with "
        "constant 1 when TV is that of the label laws (KL ≤ χ² ≤ (e^ε−1)² TV²), not the 4(e^ε−1)² of the cited "
        "Duchi et al. Theorem 1; (126) drops a factor 2 (the regression bounds are conservative by 2, kept as "
        "printed); in Appendix L the Berry–Esseen constant of the three-point law is not absolute: "
        "C_E ≍ (T^p/M_p)^{1/2} grows with T, and the window 16 C_E² < n_k < n_max is non-empty only for ε below "
        "about 2 ln 2/(16·0.56²) ≈ 0.28 (at ε = 1e-6 here it is wide). The bounds at the proof's h with constant 1 "
        "and at the optimal h for each N are in `lower_vs_measured.csv` (columns `lower_at_proof_h`, "
        "`lower_at_optimal_h`), with the non-private term (`nonprivate_term`).")


def plot(result) -> dict:
    """Per theorem: the bound on the family vs the estimator's mean excess risk over N, and their ratio.

    A 4 × 3 grid: rows 1 and 3 the risks (measured mean with its 95% band, the bound on the family, the
    bound at the optimal h, the non-private term), rows 2 and 4 the ratio measured/lower with its fitted
    slope and verdict; local theorems (1, 5, 9) on top, central ones (3, 7, 11) below.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["fits"]``).

    Returns
    -------
    dict
        ``{"rates_lower_bounds": matplotlib.figure.Figure}``.

    References
    ----------
    003 Theorems 1-12.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['rates_lower_bounds']
    """
    fits = result.data["fits"]
    by_theorem = {f["case"].theorem: f for f in fits}
    fig, axes = figure(4, 3, width=4.4, height=3.0,
                       title="003 lower bounds (proof's constants, on the packing family) vs the matching estimator's "
                             "mean excess risk on that family; rows 2 and 4: ratio measured / lower")
    layout = {1: (0, 0), 5: (0, 1), 9: (0, 2), 3: (2, 0), 7: (2, 1), 11: (2, 2)}
    for th, (r, col) in layout.items():
        f = by_theorem.get(th)
        ax, axr = axes[r * 3 + col], axes[(r + 1) * 3 + col]
        if f is None:
            ax.set_visible(False)
            axr.set_visible(False)
            continue
        c, N = f["case"], f["N"]
        band(ax, N, f["means"], np.maximum(f["lo"], f["means"] * 1e-3), f["hi"], i=0,
             label=f"Thm {c.theorem + 1} estimator, mean, 95% CI")
        ax.plot(N, f["lower"], color=color(1), marker="s", ms=4, lw=1.4, label=f"Thm {c.theorem} bound on the family")
        ax.plot(N, f["optimal"], color=color(2), ls="--", lw=1.0, label="bound at optimal h (class)")
        ax.plot(N, np.maximum(f["nonprivate"], 1e-300), color="0.5", ls=":", lw=1.0, label="non-private term")
        for a in (ax, axr):
            a.set_xscale("log")
            a.set_yscale("log")
        ax.set_xlabel("N")
        ax.set_ylabel("excess risk")
        # no minor log ticks on N or on the risk (on 12 panels they cost seconds to draw); N spanning less
        # than a decade (smoke) gets majors at 1, 2, 5 x 10^k instead
        subs = (1.0,) if N[-1] / N[0] >= 10.0 else (1.0, 2.0, 5.0)
        for axis in (ax.xaxis, axr.xaxis):
            axis.set_major_locator(LogLocator(base=10.0, subs=subs))
            axis.set_major_formatter(LogFormatterSciNotation(labelOnlyBase=False))
        for axis in (ax.xaxis, ax.yaxis, axr.xaxis):
            axis.set_minor_locator(NullLocator())
        head, _, params = c.label.partition(": ")
        ax.set_title(f"{head}\n{params}", fontsize=7)
        ax.legend(loc="lower left", fontsize=6)
        fit = f["fit"]
        ratio_lo = f["lo"] / f["lower"]
        ratio_hi = f["hi"] / f["lower"]
        band(axr, N, f["ratios"], np.maximum(ratio_lo, f["ratios"] * 1e-3), ratio_hi, i=3, label="measured / lower")
        if math.isfinite(fit.slope):
            axr.plot(N, np.exp(fit.intercept) * N ** fit.slope, color="k", ls="--", lw=1.0,
                     label=f"slope {fit.slope:.3f} [{fit.ci_low:.3f}, {fit.ci_high:.3f}]: {f['verdict']}")
        centre = math.exp(float(np.mean(np.log(f["ratios"]))))  # a factor 4 either way: a flat ratio looks flat
        shown_lo = np.maximum(ratio_lo, f["ratios"] / 10)  # a CI reaching below 0 (smoke) is cut at a tenth
        axr.set_ylim(min(centre / 4, float(np.min(shown_lo)) / 1.2), max(centre * 4, float(np.max(ratio_hi)) * 1.2))
        axr.set_xlabel("N")
        axr.set_ylabel("ratio measured / lower (>= 1)")
        axr.legend(loc="lower left", fontsize=6)
    return {"rates_lower_bounds": fig}
