"""The rate a user sees: the bandwidth chosen from data under label DP (003 Table 1; Theorems 2, 4, 6, 8).

The ``rates_*`` experiments pin h (or k) to the theorem's tuning on the lower-bound construction,
so their slopes check the estimators against their own analysis. Here each task has **one fixed
smooth law** (the same at every N, not the construction) and, at every N, three versions of the
theorem's estimator on the same sample:

* **data-driven** — the sample is split into a training part (80%) and a hold-out part (20%);
  candidates on a fixed geometric grid of bandwidths are fitted on the training part and the one
  with the smallest privatized hold-out risk is chosen (:mod:`simulations.estimators.private_selection`);
* **pinned** — the theorem's tuned h (``limits.tuning``, constants 1) on all N points;
* **oracle** — the grid bandwidth whose all-data fit has the smallest *exact* excess risk
  (needs the law: not private, a reference only).

Privacy accounting of the hold-out
----------------------------------
*Local label DP* (Theorems 2 and 6): every label, training or hold-out, is privatized once by the
task's mechanism (vector mechanism, ``Lap(2T/ε)``), so the hold-out's use is post-processing and
costs no privacy (003 Proposition 1). The hold-out risk is estimated without bias from the
privatized labels (channel inversion, 004 eq. (17) / Lemma 18). The price is statistical: the
candidates are fitted on 80% of the labels and compared on 20% of noisy ones. The chosen
bandwidth is then **refitted on all N privatized labels** (again post-processing), so the final
estimator loses no data to the split.

*Central label DP* (Theorems 4 and 8): the selection reads raw hold-out labels. The budget ε is
split as ``ε = ε_fit + ε_select`` with ``ε_select = ε/2``: each of the ``m`` candidates is fitted on
the training part with the theorem's mechanism at ``ε_fit/m`` (the exponential mechanism per bin,
or the noisy bin mean), and the hold-out selects one by the exponential mechanism with score the
hold-out loss (0-1 loss, sensitivity 1; squared loss of predictions clipped to ``[−T, T]``,
sensitivity ``4T²``) at ``ε_select``. By basic composition the procedure is ``ε``-label DP
(parallel composition over the disjoint training / hold-out labels would even give
``max(ε_fit, ε_select)``; the split is conservative). The released estimator is the chosen
candidate itself (fitted on the training part at ``ε_fit/m``): refitting would need more budget.

Excess risks are exact for the histogram estimators (count-level simulation,
:mod:`simulations.estimators.count_level`, exact cell integrals); for kNN (Theorem 6) they are the
mean of ``(η̂ − η)²`` over uniform points of the EVAL stream.

References: 003 Table 1; Theorems 2, 4, 6, 8; eqs. (11)-(13), (17), (20), (23); Definitions 2-3,
Proposition 1; 004 eq. (17), Lemma 18.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.ticker import NullFormatter

import limits
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.count_level import cell_label_law, draw_cell_counts, vector_mechanism_sums
from simulations.estimators.line_knn import stable_order
from simulations.estimators.line_knn_path import LineKNNPath
from simulations.estimators.partition import argmax_random_ties
from simulations.estimators.private_selection import (ZERO_ONE_SENSITIVITY, SelectionBudget,
                                                      clipped_squared_loss_sensitivity, debiased_squared_risk,
                                                      debiased_zero_one_risk, exponential_selection)
from simulations.experiments.base import Claim, ExperimentResult
from simulations.experiments.rates.fit import printed_finding
from simulations.experiments.rates.machinery import AlgorithmFacts, RateCase, n_for_scale
from simulations.laws.base import cell_volume
from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
from simulations.laws.smooth import SignLabelRegression, SineClassification
from simulations.mechanisms import ExponentialMechanism, LaplaceLabels, NoisyBinMean, VectorMechanism
from simulations.plotting import band, figure
from simulations.seeding import EVAL, stream
from simulations.stats import EXCLUDED, bound_verdict, fit_loglog_slope, holds_from, interval_verdict, t_interval

__all__ = ["CASES", "DataDrivenCase", "DataDrivenPoint", "FineTable", "GRID_SHAPES", "LINES", "SLOPE_MARGIN",
           "central_ratio_bound", "compute", "grid_points", "grid_tilt_bound", "paired_bootstrap", "plot", "trial"]

#: share of the sample held out for the choice of h
HOLDOUT = 0.2
#: share of a central budget given to the private selection (the rest to the candidate fits)
SELECT_SHARE = 0.5
#: label bound of the regression law (labels ±1, 003 Assumption 2)
T_LABEL = 1.0
#: terms of the Weierstrass profile of the regression law: rough down to 2^-20, four octaves below the
#: finest bin width of the paper profile (2^-14 ... 2^-16 would leave the bias coefficient 25% short there)
WEIERSTRASS_TERMS = 20
#: cache key of the trial function (bump whenever the trial's code changes)
TRIAL_VERSION = "rates_data_driven/v2"
#: the three curves of every task
LINES = ("data_driven", "pinned", "oracle")

#: Equivalence margin of the slope claims (data-driven slope vs the Table 1 exponent; data-driven vs
#: pinned slope). Why 0.05: the largest tilt the bandwidth grids alone can give a fitted slope at the
#: quick profile (:func:`grid_tilt_bound`: a risk ``a h^θ + b h^{−φ}`` minimized over a geometric grid of
#: ratio ρ is within a factor r(ρ) of its continuous minimum and where the grid falls changes with N),
#: rounded up: central classification (ρ = 2, θ = φ = 2, 2.45 decades) 0.040, central regression (ρ = 2,
#: θ = 1, φ = 2, 1.83 decades) 0.031, local classification (ρ = 1.5, θ = 2, φ = 1, 3.6 decades) 0.005, kNN
#: (ρ = √2, θ = φ = 1, 1.5 decades) 0.004 (the notes list them per run). Fixed before looking at the data,
#: the same at every profile.
SLOPE_MARGIN = 0.05
#: the risk-ratio claim: data-driven <= C × pinned at the largest N. Local: selection is free and the
#: chosen h is refitted on all N labels, so only the hold-out's noise and the grid separate it from the
#: best h: C = 2. Central: see :func:`central_ratio_bound`.
LOCAL_RATIO_BOUND = 2.0


@dataclass(frozen=True, slots=True)
class DataDrivenCase(AlgorithmFacts):
    """One task: the theorem's algorithm, its law, its grids per profile.

    A frozen record; nothing is validated here (:data:`CASES` holds the suite's four).

    Parameters
    ----------
    name : str
        Task label, e.g. ``"central regression"``.
    algorithm : str
        Key of :data:`limits.ALGORITHMS`.
    d : int
        Dimension, >= 1.
    beta : float
        Smoothness exponent of the law, > 0.
    eps : float
        Privacy parameter ε > 0.
    pinned : dict
        Profile -> the theorem's tuned bins per axis at the grid points (histograms; N solves
        ``h(N) = 1/g``, so the pinned width is exactly 1/g), or the sample sizes (kNN).
    candidates : dict
        Profile -> fixed grid of bins per axis (histograms) or of neighbourhood fractions
        ``k/N`` (kNN), the same at every N.
    trials : dict
        Profile -> trials per grid point.
    fine : dict or None, default None
        Profile -> cells per axis of the count-level grid, a multiple of every candidate and pinned
        bins (histograms only).
    gamma : float or None, default None
        Margin exponent of the law (classification).
    term : str or None, default None
        Table 1 term the slopes are compared with (None: the dominant one as N → ∞).

    References
    ----------
    003 Table 1 (``exponent``), Theorems 2, 4, 6, 8 (the algorithms).

    Examples
    --------
    >>> c = CASES[3]
    >>> c.algorithm, round(c.exponent(), 4), round(c.exponent("printed"), 4)  # 2β/(d+β) vs 003's printed 2β/(d+2β)
    ('central_regression', 0.6667, 0.5)
    """

    name: str
    algorithm: str
    d: int
    beta: float
    eps: float
    pinned: dict
    candidates: dict
    trials: dict
    fine: dict | None = None
    gamma: float | None = None
    term: str | None = None

    def exponent(self, variant: str = "derived") -> float:
        """The Table 1 exponent the slopes are compared with: excess risk ≍ N^(−exponent).

        Parameters
        ----------
        variant : {"derived", "printed"}, default "derived"
            The re-derived exponent or 003 Table 1 as printed (:func:`limits.rate_exponent`).

        Returns
        -------
        float
            The exponent, > 0.

        Raises
        ------
        ValueError
            If ``variant`` is not one of the two.

        References
        ----------
        003 Table 1; Theorems 1-2 (local classification: ``β(γ+1)/(2β+d)``).

        Examples
        --------
        Local classification, d = 1, β = γ = 1: ``β(γ+1)/(2β+d) = 2/3``:

        >>> c = CASES[0]
        >>> c.name, (c.d, c.beta, c.gamma), round(c.exponent(), 6)
        ('local classification', (1, 1.0, 1.0), 0.666667)
        """
        return limits.rate_exponent(self.task, self.privacy, beta=self.beta, d=self.d, gamma=self.gamma,
                                    term=self.term, variant=variant)

    def source(self) -> str:
        """Where 003 states the task's rate: the theorems and equations of its Table 1 cell.

        Returns
        -------
        str
            ``limits.cell(task, privacy).source``.

        Examples
        --------
        >>> CASES[3].source()
        '003 Theorems 7-8, eq. (22), (24)'
        """
        return limits.cell(self.task, self.privacy).source


def _smooth(a: int, b: int) -> tuple:
    """``{1} ∪ {2^i, 3·2^i}`` between 2^a and 3·2^b (a 3-smooth geometric grid, ratio 1.33 / 1.5)."""
    return tuple(sorted({1, *(2 ** i for i in range(a, b + 1)), *(3 * 2 ** i for i in range(a, b + 1))}))


def _dyadic(b: int) -> tuple:
    return tuple(2 ** i for i in range(0, b + 1))


def _fractions(a_max: int) -> tuple:
    """``k/N ∈ {2^{−a/2}}``, a = 2..a_max (ratio √2 in k)."""
    return tuple(2.0 ** (-a / 2.0) for a in range(2, a_max + 1))


CASES = (
    DataDrivenCase(
        name="local classification", algorithm="local_classification", d=1, beta=1.0, gamma=1.0, eps=1.0,
        pinned={"smoke": (12, 24, 48), "quick": (24, 48, 96, 192, 384), "paper": (24, 48, 96, 192, 384, 768, 1536)},
        candidates={"smoke": _smooth(1, 6), "quick": _smooth(1, 9), "paper": _smooth(1, 11)},
        fine={"smoke": 3 * 2 ** 6, "quick": 3 * 2 ** 9, "paper": 3 * 2 ** 11},
        trials={"smoke": 8, "quick": 150, "paper": 600}),
    DataDrivenCase(
        name="central classification", algorithm="central_classification", d=1, beta=1.0, gamma=1.0, eps=1e-7,
        term="privacy",
        pinned={"smoke": (64, 128, 256), "quick": (256, 512, 1024, 2048, 4096),
                "paper": (256, 512, 1024, 2048, 4096, 8192, 16384)},
        candidates={"smoke": _dyadic(8), "quick": _dyadic(12), "paper": _dyadic(14)},
        fine={"smoke": 2 ** 8, "quick": 2 ** 12, "paper": 2 ** 14},
        trials={"smoke": 8, "quick": 150, "paper": 600}),
    DataDrivenCase(
        name="local regression", algorithm="local_regression", d=1, beta=0.5, eps=1.0,
        pinned={"smoke": (1000, 2000, 4000), "quick": (2000, 6300, 20000, 63000),
                "paper": (2000, 6300, 20000, 63000, 200000, 630000)},
        candidates={"smoke": _fractions(26), "quick": _fractions(34), "paper": _fractions(40)},
        trials={"smoke": 6, "quick": 60, "paper": 200}),
    DataDrivenCase(
        name="central regression", algorithm="central_regression", d=1, beta=0.5, eps=1e-5, term="privacy",
        pinned={"smoke": (64, 128, 256), "quick": (256, 512, 1024, 2048, 4096),
                "paper": (256, 512, 1024, 2048, 4096, 8192, 16384)},
        candidates={"smoke": _dyadic(9), "quick": _dyadic(12), "paper": _dyadic(14)},
        fine={"smoke": 2 ** 9, "quick": 2 ** 12, "paper": 2 ** 14},
        trials={"smoke": 8, "quick": 200, "paper": 600}),
)


#: uniform evaluation points of the kNN excess risk (003 Theorem 6) per profile
N_EVAL = {"smoke": 256, "quick": 1024, "paper": 4096}


# ------------------------------------------------------------------------------------- the laws
@lru_cache(maxsize=None)
def _law_of(task: str, d: int, beta: float):
    """The fixed smooth law of a task: :class:`SineClassification` (β = γ = 1) or the ±1-label
    Weierstrass regression (:class:`SignLabelRegression` of an ``AdditiveRegression``, β < 1)."""
    if task == "classification":
        return SineClassification(d=d)
    return SignLabelRegression(AdditiveRegression(d=d, beta=beta, noise=UniformNoise(0.0), amplitude=0.25,
                                                   terms=WEIERSTRASS_TERMS))


@lru_cache(maxsize=256)
def _tables(law, bins: int):
    """Exact per-cell integrals for the excess risk on the grid with ``bins`` cells per axis."""
    if isinstance(law, SineClassification):
        return law.cell_class_mass(bins), law.cell_bayes_mass(bins)
    mean, var = law.cell_moments(bins)
    return mean, np.maximum(var, 0.0)


@lru_cache(maxsize=32)
def _fine_law(law, fine: int):
    return cell_label_law(law, fine)


def _excess_risk(law, values, bins: int) -> float:
    """Exact excess risk of the rule constant on the cells of the ``bins`` grid (003 eqs. (8), (9))."""
    a, b = _tables(law, bins)
    if isinstance(law, SineClassification):
        return float(np.sum(b - a[np.arange(a.shape[0]), values]))
    return float(cell_volume(bins, law.d) * np.sum((values - a) ** 2 + b))


class FineTable:
    """A per-cell table of the fine grid, summed over the cells of any coarser grid whose bins divide ``fine``.

    A summed-area table (cumulative sums along every axis, zero-padded): one coarse table costs
    O(bins^d 2^d) instead of O(fine^d). Count-level tables of N points on the fine grid (003's
    histogram estimators at several bin widths at once, :mod:`simulations.estimators.count_level`).

    Parameters
    ----------
    table : array (fine^d, M), one row per fine cell (C order, axis 0 slowest), M columns (labels, sums).
    fine : int, cells per axis of the fine grid.
    d : int, dimension.

    References
    ----------
    003 Theorems 2, 4, 8 (the histogram estimators whose counts are tabulated).

    Examples
    --------
    >>> FineTable(np.arange(6).reshape(6, 1), 6, 1).coarse(3).ravel().tolist()
    [1, 5, 9]
    """

    def __init__(self, table, fine: int, d: int):
        t = np.asarray(table)
        self.fine, self.d, self.m = fine, d, t.shape[1]
        S = t.reshape(*(fine,) * d, self.m)
        for axis in range(d):
            S = np.cumsum(S, axis=axis)
        self.S = np.pad(S, [(1, 0)] * d + [(0, 0)])

    def coarse(self, bins: int) -> np.ndarray:
        """The table summed over the cells of the grid with ``bins`` cells per axis (``bins`` divides
        ``fine``).

        Parameters
        ----------
        bins : int
            Cells per axis of the coarse grid, a divisor of ``fine`` (not checked: another value sums
            misaligned blocks).

        Returns
        -------
        numpy.ndarray, shape (bins^d, M)
            One row per coarse cell (C order), the sums of its fine cells.

        Examples
        --------
        A 4 × 4 grid of ones (d = 2) summed into 2 × 2 blocks: 4 fine cells per block:

        >>> FineTable(np.ones((16, 1)), 4, 2).coarse(2).ravel().tolist()
        [4.0, 4.0, 4.0, 4.0]
        >>> FineTable(np.arange(6).reshape(6, 1), 6, 1).coarse(2).ravel().tolist()   # 0+1+2, 3+4+5
        [3, 12]
        """
        edges = np.arange(bins + 1) * (self.fine // bins)
        if self.d == 1:
            return np.diff(self.S[edges], axis=0)
        block = self.S[np.ix_(*(edges,) * self.d, np.arange(self.m))]
        for axis in range(self.d):
            block = np.diff(block, axis=axis)
        return block.reshape(bins ** self.d, self.m)


# ------------------------------------------------------------------------------------ the trial
@dataclass(frozen=True, slots=True)
class DataDrivenPoint:
    """One grid point (the engine's config): a task at sample size N.

    A frozen record; :func:`grid_points` builds consistent ones.

    Parameters
    ----------
    algorithm : str
        Key of :data:`limits.ALGORITHMS`.
    d : int
        Dimension.
    beta : float
        Smoothness exponent of the law.
    eps : float
        Privacy parameter ε.
    N : int
        Sample size.
    pinned : int
        The theorem's bins per axis (histograms) or neighbours k (kNN) at N.
    candidates : tuple
        The fixed grid (bins per axis, or fractions k/N).
    fine : int or None, default None
        The count-level grid (histograms), None for kNN.
    n_eval : int or None, default None
        Evaluation points of the kNN excess risk.
    holdout : float, default 0.2
        Share of the sample held out for the choice of h.
    select_share : float, default 0.5
        Share of a central ε given to the selection.

    References
    ----------
    003 Theorems 2, 4, 6, 8 (the tunings the pinned scale follows).

    Examples
    --------
    >>> pt = grid_points(CASES[0], "smoke")[0]
    >>> pt.algorithm, pt.pinned, pt.fine, pt.holdout
    ('local_classification', 12, 192, 0.2)
    """

    algorithm: str
    d: int
    beta: float
    eps: float
    N: int
    pinned: int
    candidates: tuple
    fine: int | None = None
    n_eval: int | None = None
    holdout: float = HOLDOUT
    select_share: float = SELECT_SHARE


def _split(N: int, holdout: float) -> tuple[int, int]:
    M = max(1, int(round(holdout * N)))
    return N - M, M


def trial(pt: DataDrivenPoint, t: int, root_seed: int) -> dict:
    """One trial at one grid point: the sample (DATA stream), the mechanisms, fits and selection (PRIVACY),
    the kNN evaluation points (EVAL).

    Parameters
    ----------
    pt : DataDrivenPoint.
    t : int, trial index.
    root_seed : int.

    Returns
    -------
    dict of floats: ``data_driven``, ``pinned``, ``oracle`` (excess risks), ``chosen_h`` and ``oracle_h``
    (bin width 1/bins, or the fraction k/N for kNN), ``estimate_error`` (mean over the candidates of the
    privatized hold-out risk estimate minus the candidate's population risk; local tasks only, 0 for
    central ones, whose hold-out loss is not an estimate but the private selection's score).

    References
    ----------
    003 Theorems 2, 4, 6, 8.

    Examples
    --------
    >>> pt = grid_points(CASES[0], "smoke")[0]
    >>> r = trial(pt, 0, 1)
    >>> r["oracle"] <= r["data_driven"], sorted(r)[:3]
    (True, ['chosen_h', 'data_driven', 'estimate_error'])
    """
    data, privacy, ev = trial_streams(pt, t, root_seed)
    task = limits.ALGORITHMS[pt.algorithm].task
    law = _law_of(task, pt.d, pt.beta)
    if pt.algorithm == "local_regression":
        return _knn_trial(pt, law, data, privacy, ev)
    masses, values = _fine_law(law, pt.fine)
    n_tr, M = _split(pt.N, pt.holdout)
    tr = draw_cell_counts(masses, n_tr, data)
    ho = draw_cell_counts(masses, M, data)
    fn = {"local_classification": _local_classification, "central_classification": _central_classification,
          "central_regression": _central_regression}[pt.algorithm]
    return fn(pt, law, tr, ho, values, privacy)


def _result(law, pt, chosen, dd, pinned, risks, estimate_error=0.0) -> dict:
    best = int(np.argmin(risks))
    return {"data_driven": dd, "pinned": pinned, "oracle": float(risks[best]),
            "chosen_h": 1.0 / pt.candidates[chosen] if pt.fine else pt.candidates[chosen],
            "oracle_h": 1.0 / pt.candidates[best] if pt.fine else pt.candidates[best],
            "estimate_error": estimate_error}


def _local_classification(pt, law, tr, ho, _values, rng) -> dict:
    """003 Theorem 2: vector mechanism on every label (train and hold-out), bins' argmax; the hold-out
    risk debiased from the bits; the chosen bins refitted on all N privatized labels."""
    mech = VectorMechanism(num_classes=2, epsilon=pt.eps)
    s_tr, s_ho = vector_mechanism_sums(tr, mech, rng), vector_mechanism_sums(ho, mech, rng)
    # one summed-area table for train sums | hold-out sums | hold-out counts | all sums (columns 0:2, 2:4, 4, 5:7)
    fine = FineTable(np.concatenate([s_tr, s_ho, ho.sum(axis=1, keepdims=True), s_tr + s_ho], axis=1), pt.fine, pt.d)
    tables = {B: fine.coarse(B) for B in {*pt.candidates, pt.pinned}}
    r_star = law.bayes_risk()
    estimates, errors, fits = [], [], {}
    for B in pt.candidates:
        t = tables[B]
        c = argmax_random_ties(t[:, 0:2], rng)
        est = debiased_zero_one_risk(t[:, 2:4], t[:, 4], c, mech)
        estimates.append(est)
        errors.append(est - (r_star + _excess_risk(law, c, B)))  # minus the population risk of c
    for B in sorted(tables):
        fits[B] = _excess_risk(law, argmax_random_ties(tables[B][:, 5:7], rng), B)
    j = int(np.argmin(estimates))
    risks = np.array([fits[B] for B in pt.candidates])
    return _result(law, pt, j, fits[pt.candidates[j]], fits[pt.pinned], risks, float(np.mean(errors)))


def _blocks(tables, bins, cols):
    """The columns ``cols`` of the coarse tables of the grids ``bins``, stacked (Σ bins^d rows), and the
    block offsets."""
    stacked = np.concatenate([tables[B][:, cols] for B in bins])
    return stacked, np.cumsum([0] + [tables[B].shape[0] for B in bins])


def _central_classification(pt, law, tr, ho, _values, rng) -> dict:
    """003 Theorem 4: candidates by the exponential mechanism per bin at ε_fit/m on the training part,
    chosen by the exponential mechanism on the hold-out's 0-1 loss at ε_select; pinned / oracle: all
    data at ε, their excess risk averaged exactly over the mechanism's draw given the sample (same mean
    over trials as one draw, smaller variance). The per-bin draws of all candidates are one call of the
    mechanism on the stacked bins (each bin is an independent draw either way)."""
    budget = SelectionBudget(epsilon=pt.eps, n_candidates=len(pt.candidates), select_share=pt.select_share)
    em_c = ExponentialMechanism(num_classes=2, epsilon=budget.epsilon_per_candidate)
    M = int(ho.sum())
    fine = FineTable(np.concatenate([tr, ho, tr + ho], axis=1), pt.fine, pt.d)  # train | hold-out | all counts
    tables = {B: fine.coarse(B) for B in {*pt.candidates, pt.pinned}}
    counts, cut = _blocks(tables, pt.candidates, slice(0, 2))
    held, _ = _blocks(tables, pt.candidates, slice(2, 4))
    c = em_c.sample(counts, rng)
    losses = M - np.add.reduceat(held[np.arange(c.size), c], cut[:-1])  # hold-out errors of each candidate
    j = exponential_selection(losses, epsilon=budget.epsilon_select, sensitivity=ZERO_ONE_SENSITIVITY, rng=rng)
    dd = _excess_risk(law, c[cut[j]:cut[j + 1]], pt.candidates[j])
    # E[excess | sample] over the mechanism's draw, exactly: Σ_l Σ_j P(c_l = j) (η*-mass_l − mass_lj)
    grids = (*pt.candidates, pt.pinned)
    alls, cut_all = _blocks(tables, grids, slice(4, 6))
    gap = np.concatenate([_tables(law, B)[1][:, None] - _tables(law, B)[0] for B in grids])
    probs = ExponentialMechanism(num_classes=2, epsilon=pt.eps).probabilities(alls)
    expected = np.add.reduceat((probs * gap).sum(axis=1), cut_all[:-1])
    return _result(law, pt, j, dd, float(expected[-1]), expected[:-1])


def _central_regression(pt, law, tr, ho, values, rng) -> dict:
    """003 Theorem 8: candidates = noisy bin means at ε_fit/m on the training part, chosen by the
    exponential mechanism on the hold-out's squared loss of the clipped predictions (sensitivity 4T²)
    at ε_select; pinned / oracle: all data at ε, their excess risk averaged exactly over the Laplace
    noise given the sample (``E W² = 2 scale²``). The candidates' bins are released in one call on the
    stacked bins (independent Laplace draws either way)."""
    budget = SelectionBudget(epsilon=pt.eps, n_candidates=len(pt.candidates), select_share=pt.select_share)
    fine = FineTable(np.concatenate([tr, ho, tr + ho], axis=1), pt.fine, pt.d)  # train | hold-out | all counts
    tables = {B: fine.coarse(B) for B in {*pt.candidates, pt.pinned}}
    counts, cut = _blocks(tables, pt.candidates, slice(0, 2))
    held, _ = _blocks(tables, pt.candidates, slice(2, 4))
    v = NoisyBinMean(T=T_LABEL, epsilon=budget.epsilon_per_candidate).release(counts @ values, counts.sum(axis=1), rng)
    p = np.clip(v, -T_LABEL, T_LABEL)
    losses = np.add.reduceat((held * (p[:, None] - values[None, :]) ** 2).sum(axis=1), cut[:-1])
    j = exponential_selection(losses, epsilon=budget.epsilon_select,
                              sensitivity=clipped_squared_loss_sensitivity(T_LABEL), rng=rng)
    dd = _excess_risk(law, v[cut[j]:cut[j + 1]], pt.candidates[j])
    # E[excess | sample] over the Laplace noise: Σ_l |B_l| ((ȳ_l − m_l)² + 2 scale_l² + var_l)
    nb = NoisyBinMean(T=T_LABEL, epsilon=pt.eps)
    grids = (*pt.candidates, pt.pinned)
    alls, cut_all = _blocks(tables, grids, slice(4, 6))
    n = alls.sum(axis=1)
    mean = np.concatenate([_tables(law, B)[0] for B in grids])
    var = np.concatenate([_tables(law, B)[1] for B in grids])
    vol = np.concatenate([np.full(B ** law.d, cell_volume(B, law.d)) for B in grids])
    ybar = np.divide(alls @ values, n, out=np.zeros(n.shape), where=n > 0)
    noise = np.where(n > 0, 2.0 * nb.scale(np.maximum(n, 1)) ** 2, 0.0)
    expected = np.add.reduceat(vol * ((ybar - mean) ** 2 + noise + var), cut_all[:-1])
    return _result(law, pt, j, dd, float(expected[-1]), expected[:-1])


def _knn_trial(pt, law, data, privacy, ev) -> dict:
    """003 Theorem 6: Z = Y + Lap(2T/ε) for every label; candidates k = q·n_train on the training part,
    compared by the debiased hold-out squared risk; the chosen fraction refitted on all N points."""
    X = data.random(pt.N)
    Y = law.sample_labels(law.eta(X[:, None]), data)
    mech = LaplaceLabels(T=T_LABEL, epsilon=pt.eps)
    Z = mech.sample(Y, privacy)
    n_tr, M = _split(pt.N, pt.holdout)
    q = np.array(pt.candidates)
    k_tr = np.rint(q * n_tr).astype(np.int64)
    use = np.flatnonzero(k_tr >= 1)
    q, k_tr = q[use], k_tr[use]
    k_all = np.rint(q * pt.N).astype(np.int64)
    order = stable_order(X)
    everyone = LineKNNPath.from_sorted(X[order], Z[order])
    in_train = order < n_tr  # the training points (the first n_tr drawn) in sorted order: still sorted
    train = LineKNNPath.from_sorted(X[order][in_train], Z[order][in_train])
    est = debiased_squared_risk(train.means(X[n_tr:], k_tr), Z[n_tr:], mech)
    X_eval = ev.random(pt.n_eval)
    eta = law.eta(X_eval[:, None])
    # hold-out estimate error: estimated minus population risk R* + E(η̂ − η)² of each training fit (the
    # latter over the evaluation points)
    true = law.bayes_risk() + np.mean((train.means(X_eval, k_tr) - eta[:, None]) ** 2, axis=0)
    E = np.mean((everyone.means(X_eval, np.append(k_all, pt.pinned)) - eta[:, None]) ** 2, axis=0)
    risks = E[:-1]
    j, best = int(np.argmin(est)), int(np.argmin(risks))
    return {"data_driven": float(risks[j]), "pinned": float(E[-1]), "oracle": float(risks[best]),
            "chosen_h": float(q[j]), "oracle_h": float(q[best]), "estimate_error": float(np.mean(est - true))}


# ------------------------------------------------------------------------------------- the grid
def grid_points(case: DataDrivenCase, profile: str) -> list[DataDrivenPoint]:
    """The grid points of a task at a profile.

    Histograms: N solves ``h(N) = 1/g`` for the theorem's tuning (constants 1,
    :func:`simulations.experiments.rates.machinery.n_for_scale`), so the pinned width is exactly 1/g. kNN: the
    listed N and the theorem's k (:func:`limits.tuning`).

    Parameters
    ----------
    case : DataDrivenCase.
    profile : "smoke", "quick" or "paper".

    Returns
    -------
    list of DataDrivenPoint, in increasing N.

    Raises
    ------
    KeyError
        For a profile the case does not list.

    References
    ----------
    003 Theorems 2, 4, 6, 8 (the tuning rules).

    Examples
    --------
    >>> [p.pinned for p in grid_points(CASES[1], "smoke")]
    [64, 128, 256]
    """
    out = []
    if case.kind == "bins":
        rc = RateCase(algorithm=case.algorithm, d=case.d, beta=case.beta, eps=case.eps, gamma=case.gamma, n_start=1.0)
        for g in case.pinned[profile]:
            N = int(round(n_for_scale(rc, g)))
            out.append(DataDrivenPoint(algorithm=case.algorithm, d=case.d, beta=case.beta, eps=case.eps, N=N,
                                       pinned=g, candidates=case.candidates[profile], fine=case.fine[profile]))
        return out
    for N in case.pinned[profile]:
        k = limits.tuning(case.algorithm, N=N, epsilon=case.eps, beta=case.beta, d=case.d)["k"]
        out.append(DataDrivenPoint(algorithm=case.algorithm, d=case.d, beta=case.beta, eps=case.eps, N=int(N),
                                   pinned=int(k), candidates=case.candidates[profile], n_eval=N_EVAL[profile]))
    return out


# ------------------------------------------------------------------------------- fits and claims
def central_ratio_bound(case: DataDrivenCase, n_candidates: int) -> float:
    """C of the central risk-ratio claim "data-driven <= C × pinned": ``2 (2m/(1 − HOLDOUT))^r``.

    The data-driven candidate runs at ``ε_fit/m = ε/(2m)`` on ``(1 − HOLDOUT) N`` labels, i.e. at an
    ``εN`` smaller by ``2m/(1 − HOLDOUT)``; at its best h the privacy term of 003 Theorems 4 / 8 scales
    as ``(εN)^{−r}`` (r the Table 1 privacy exponent), so the same constants give a risk larger by that
    factor to the power r; the factor 2 covers the selection's own noise and the grid. Derived from the
    accounting, not from the data.

    Parameters
    ----------
    case : DataDrivenCase (central).
    n_candidates : int, m.

    Returns
    -------
    float.

    References
    ----------
    003 Theorems 4, 8, Table 1 (the privacy terms).

    Examples
    --------
    >>> round(central_ratio_bound(CASES[1], 12), 6)  # r = 1: 2 · 24/0.8
    60.0
    """
    return 2.0 * (2.0 * n_candidates / (1.0 - HOLDOUT)) ** case.exponent()


def grid_tilt_bound(rho: float, theta: float, phi: float, decades: float) -> float:
    """Largest slope error a geometric bandwidth grid alone can give a log-log fit over ``decades`` of N.

    For a risk ``a h^θ + b h^{−φ}`` the minimum over a grid of ratio ρ is within the factor
    ``r = max (φ x^θ + θ x^{−φ})/(θ + φ)`` over ``x ∈ [ρ^{−1/2}, ρ^{1/2}]`` (the grid point nearest the
    continuous optimum, in units of it) of the continuous minimum; where the grid falls changes with N,
    so the fitted slope can be off by up to ``log10(r)/decades``.

    Parameters
    ----------
    rho : float > 1, grid ratio.
    theta, phi : float > 0, exponents of the bias and of the variance / privacy term in h.
    decades : float > 0, log10 of the N range of the fit.

    Returns
    -------
    float.

    Examples
    --------
    >>> round(grid_tilt_bound(2.0, 2.0, 1.0, 1.5), 4)  # r = (2 + 2/√2)/3 = 1.138
    0.0374
    """
    x = np.array([rho ** -0.5, rho ** 0.5])
    r = np.max((phi * x ** theta + theta * x ** -phi) / (theta + phi))
    return float(math.log10(r) / decades)


#: per task, the (grid ratio, bias exponent θ, variance/privacy exponent φ) of its risk in h (β = γ = 1
#: classification: bias h², local noise (N h ε²)^{-1}, central (εN h)^{-2}; β = 1/2 regression: bias h, central
#: privacy (εN h)^{-2}, kNN variance (N h)^{-1}), for :func:`grid_tilt_bound`
GRID_SHAPES = {"local_classification": (1.5, 2.0, 1.0), "central_classification": (2.0, 2.0, 2.0),
               "local_regression": (2 ** 0.5, 1.0, 1.0), "central_regression": (2.0, 1.0, 2.0)}


def paired_bootstrap(N, a, b, *, rng, n_boot: int = 2000, confidence: float = 0.95):
    """Paired percentile bootstrap of a slope difference and of a risk ratio at the largest N.

    ``a[i]``, ``b[i]`` are the trials at ``N[i]`` of two estimators on the same samples (paired); each
    replicate resamples the trial indices at every N (the same indices for a and b), refits both OLS
    slopes of log mean on log N and takes their difference, and the log ratio of the means at the
    largest N.

    Parameters
    ----------
    N : array (k,), sample sizes (> 0, at least two distinct).
    a, b : sequences of k 1-D arrays of equal lengths per N, positive means.
    rng : numpy Generator.
    n_boot : int, replicates.
    confidence : float in (0, 1).

    Returns
    -------
    ((diff, lo, hi), (log_ratio, lo, hi)) : slope(a) − slope(b) and ``ln(mean a / mean b)`` at the
    largest N, each with its percentile interval.

    Examples
    --------
    >>> N = [1e2, 1e3]
    >>> (d, _, _), (r, _, _) = paired_bootstrap(N, [[1.0, 1.0], [0.1, 0.1]], [[1.0, 1.0], [1.0, 1.0]],
    ...                                         rng=np.random.default_rng(0), n_boot=10)
    >>> round(d, 12), round(r, 12) == round(math.log(0.1), 12)
    (-1.0, True)
    """
    x = np.log(np.asarray(N, float))
    xc = x - x.mean()

    def slope(y):
        return (y * xc).sum(axis=-1) / (xc * xc).sum()

    A = [np.asarray(v, float) for v in a]
    B = [np.asarray(v, float) for v in b]
    ma, mb = np.empty((n_boot, x.size)), np.empty((n_boot, x.size))
    for i, (va, vb) in enumerate(zip(A, B)):
        idx = rng.integers(0, va.size, size=(n_boot, va.size))
        ma[:, i], mb[:, i] = va[idx].mean(axis=1), vb[idx].mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d_boot = slope(np.log(ma)) - slope(np.log(mb))
        r_boot = np.log(ma[:, -1] / mb[:, -1])
    q = [(1 - confidence) / 2, (1 + confidence) / 2]
    point_a = np.array([v.mean() for v in A])
    point_b = np.array([v.mean() for v in B])
    diff = float(slope(np.log(point_a)) - slope(np.log(point_b)))
    ratio = float(np.log(point_a[-1] / point_b[-1]))
    ok = np.isfinite(d_boot)
    dl, dh = np.quantile(d_boot[ok], q) if ok.any() else (np.nan, np.nan)
    ok = np.isfinite(r_boot)
    rl, rh = np.quantile(r_boot[ok], q) if ok.any() else (np.nan, np.nan)
    return (diff, float(dl), float(dh)), (ratio, float(rl), float(rh))


@dataclass
class CaseResult:
    """One task's measurements and fits (the plot's and the report's input)."""

    case: DataDrivenCase
    N: np.ndarray
    pinned: np.ndarray
    values: dict  # line -> list of per-N trial arrays
    fits: dict  # line -> SlopeFit
    diff: tuple  # (data-driven − pinned slope, lo, hi)
    log_ratio: tuple  # ln(data-driven / pinned) at the largest N, lo, hi
    bound: float  # C
    chosen: list  # per N: trial array of chosen h
    oracle_h: list
    estimate_error: list
    n_candidates: int


def _fit_case(case, points, per, seed) -> CaseResult:
    N = np.array([p.N for p in points], float)
    values = {ln: [np.asarray(r[ln], float) for r in per] for ln in LINES}
    fits = {ln: fit_loglog_slope(N, values[ln], rng=stream(seed, f"data_driven/{case.name}/{ln}", 0, EVAL))
            for ln in LINES}
    diff, ratio = paired_bootstrap(N, values["data_driven"], values["pinned"],
                                   rng=stream(seed, f"data_driven/{case.name}/paired", 0, EVAL))
    m = len(points[0].candidates)
    bound = LOCAL_RATIO_BOUND if case.privacy == "local" else central_ratio_bound(case, m)
    return CaseResult(case=case, N=N, pinned=np.array([p.pinned for p in points]), values=values, fits=fits,
                      diff=diff, log_ratio=ratio, bound=bound, chosen=[r["chosen_h"] for r in per],
                      oracle_h=[r["oracle_h"] for r in per], estimate_error=[r["estimate_error"] for r in per],
                      n_candidates=m)


def _claims(r: CaseResult) -> list[Claim]:
    c, f = r.case, r.fits["data_driven"]
    ref = -c.exponent()
    span = f"N {int(r.N[0]):.3g}–{int(r.N[-1]):.3g} ({np.log10(r.N[-1] / r.N[0]):.2f} decades, {len(r.N)} points, " \
           f"{r.values['data_driven'][0].size} trials each)"
    term = f" ({c.term} term)" if c.term else ""
    v1 = interval_verdict(ref, f.ci_low, f.ci_high, SLOPE_MARGIN)
    out = [Claim(
        claim=f"{c.name}: with h chosen from data, excess risk ∝ N^{ref:.3f}{term} (003 Table 1, {c.source()})",
        holds=holds_from(v1), expected=ref, measured=f.slope,
        detail=f"data-driven slope {f.slope:.3f}, bootstrap 95% CI [{f.ci_low:.3f}, {f.ci_high:.3f}]; verdict {v1} "
               f"at margin ±{SLOPE_MARGIN}; pinned {r.fits['pinned'].slope:.3f}, oracle {r.fits['oracle'].slope:.3f}; "
               f"{span}", kind="paper")]
    printed = -c.exponent("printed")
    if abs(printed - ref) > 1e-12:
        v = interval_verdict(printed, f.ci_low, f.ci_high, SLOPE_MARGIN)
        out.append(Claim(
            claim=f"{c.name}: 003's printed Table 1 exponent N^{printed:.3f} is excluded by the data-driven slope "
                  f"(derived {ref:.3f})",
            holds=holds_from(v, claim_is=EXCLUDED), expected=printed, measured=f.slope,
            detail=f"CI [{f.ci_low:.3f}, {f.ci_high:.3f}] against {printed:.3f} ± {SLOPE_MARGIN}: {v}; {span}",
            kind="erratum", finding=printed_finding(c)))
    d, lo, hi = r.diff
    v2 = interval_verdict(0.0, lo, hi, SLOPE_MARGIN)
    out.append(Claim(
        claim=f"{c.name}: the data-driven slope equals the pinned-h slope (difference 0 ± {SLOPE_MARGIN})",
        holds=holds_from(v2), expected=0.0, measured=d,
        detail=f"data-driven − pinned slope {d:+.3f}, paired bootstrap 95% CI [{lo:+.3f}, {hi:+.3f}]: {v2}; "
               f"slopes {f.slope:.3f} vs {r.fits['pinned'].slope:.3f}; {span}", kind="beyond"))
    lr, rlo, rhi = r.log_ratio
    v3 = bound_verdict(math.log(r.bound), rlo, rhi, 0.0, side="at_most")
    why = ("local: selection is post-processing and the chosen h is refitted on all N labels" if c.privacy == "local"
           else f"central: 2·(2m/{1 - HOLDOUT:g})^{c.exponent():.3f} with m = {r.n_candidates} candidates "
                f"(the candidates run at ε/(2m) on {1 - HOLDOUT:.0%} of the labels)")
    out.append(Claim(
        claim=f"{c.name}: data-driven excess risk <= {r.bound:.3g} × pinned excess risk at the largest N "
              f"(N = {int(r.N[-1]):.3g})",
        holds=holds_from(v3), expected=r.bound, measured=math.exp(lr),
        detail=f"ratio {math.exp(lr):.3g}, paired bootstrap 95% CI [{math.exp(rlo):.3g}, {math.exp(rhi):.3g}]: {v3}; "
               f"C = {r.bound:.3g} ({why}); oracle / pinned "
               f"{np.mean(r.values['oracle'][-1]) / np.mean(r.values['pinned'][-1]):.3g}", kind="beyond"))
    return out


def _tables_of(results: list[CaseResult]) -> dict:
    risk = {k: [] for k in ("case", "N", "pinned_scale", "line", "mean", "ci_low", "ci_high", "trials")}
    sel = {k: [] for k in ("case", "N", "pinned_h", "chosen_h_median", "chosen_h_q10", "chosen_h_q90",
                           "oracle_h_median", "estimate_error_mean", "estimate_error_ci_low",
                           "estimate_error_ci_high", "ratio_data_driven_pinned", "ratio_oracle_pinned",
                           "ratio_data_driven_oracle")}
    slopes = {k: [] for k in ("case", "line", "table1_slope", "fitted_slope", "ci_low", "ci_high", "verdict",
                              "margin")}
    for r in results:
        c = r.case
        for i, N in enumerate(r.N):
            for ln in LINES:
                m, _, n, lo, hi = t_interval(r.values[ln][i])
                for k, v in (("case", c.name), ("N", int(N)), ("pinned_scale", int(r.pinned[i])), ("line", ln),
                             ("mean", m), ("ci_low", lo), ("ci_high", hi), ("trials", n)):
                    risk[k].append(v)
            ch = np.asarray(r.chosen[i])
            em, _, _, elo, ehi = t_interval(r.estimate_error[i]) if c.privacy == "local" else ("",) * 5
            ph = 1.0 / r.pinned[i] if c.kind == "bins" else r.pinned[i] / N
            mean = {ln: float(np.mean(r.values[ln][i])) for ln in LINES}
            row = {"case": c.name, "N": int(N), "pinned_h": ph, "chosen_h_median": float(np.median(ch)),
                   "chosen_h_q10": float(np.quantile(ch, 0.1)), "chosen_h_q90": float(np.quantile(ch, 0.9)),
                   "oracle_h_median": float(np.median(r.oracle_h[i])), "estimate_error_mean": em,
                   "estimate_error_ci_low": elo, "estimate_error_ci_high": ehi,
                   "ratio_data_driven_pinned": mean["data_driven"] / mean["pinned"],
                   "ratio_oracle_pinned": mean["oracle"] / mean["pinned"],
                   "ratio_data_driven_oracle": mean["data_driven"] / mean["oracle"]}
            for k, v in row.items():
                sel[k].append(v)
        for ln in LINES:
            f = r.fits[ln]
            v = interval_verdict(-c.exponent(), f.ci_low, f.ci_high, SLOPE_MARGIN)
            for k, val in (("case", c.name), ("line", ln), ("table1_slope", -c.exponent()), ("fitted_slope", f.slope),
                           ("ci_low", f.ci_low), ("ci_high", f.ci_high), ("verdict", v), ("margin", SLOPE_MARGIN)):
                slopes[k].append(val)
    return {"risk_vs_N": risk, "selection": sel, "slopes": slopes}


def _slope_markdown(results: list[CaseResult]) -> str:
    lines = ["| task | Table 1 slope | data-driven [95% CI] | pinned [95% CI] | oracle [95% CI] | dd − pinned [95% CI] "
             "| dd / pinned at largest N [95% CI] (C) | N range |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        f = r.fits
        cell = {ln: f"{f[ln].slope:.3f} [{f[ln].ci_low:.3f}, {f[ln].ci_high:.3f}]" for ln in LINES}
        d, lo, hi = r.diff
        lr, rlo, rhi = r.log_ratio
        lines.append(f"| {r.case.name} | {-r.case.exponent():.3f} | {cell['data_driven']} | {cell['pinned']} | "
                     f"{cell['oracle']} | {d:+.3f} [{lo:+.3f}, {hi:+.3f}] | {math.exp(lr):.3g} "
                     f"[{math.exp(rlo):.3g}, {math.exp(rhi):.3g}] ({r.bound:.3g}) | "
                     f"{int(r.N[0]):.3g}–{int(r.N[-1]):.3g} |")
    return "\n".join(lines)


def _price(r: CaseResult) -> str:
    ratio = [np.mean(d) / np.mean(o) for d, o in zip(r.values["data_driven"], r.values["oracle"])]
    tilt = grid_tilt_bound(*GRID_SHAPES[r.case.algorithm], math.log10(r.N[-1] / r.N[0]))
    chosen = [float(np.median(c)) for c in r.chosen]
    return (f"- {r.case.name}: data-driven / oracle {' → '.join(f'{x:.2f}' for x in ratio)}; median chosen h "
            f"{chosen[0]:.3g} → {chosen[-1]:.3g}; grid tilt bound {tilt:.3f}.")


def _describe(case: DataDrivenCase, profile: str) -> str:
    cand = case.candidates[profile]
    if case.kind == "bins":
        grid = (f"bins per axis {{{', '.join(map(str, cand))}}} (m = {len(cand)})")
    else:
        grid = f"k/N ∈ {{2^(−a/2): a = 2..{len(cand) + 1}}} with k_train >= 1"
    law = ("SineClassification: η₁ = (1 + 0.8 sin(2πνx + φ))/2, ν ≈ 2.854, β = 1, γ = 1"
           if case.task == "classification"
           else f"±1 labels with E[Y|x] = Weierstrass profile (A = 0.25, β = 0.5, {WEIERSTRASS_TERMS} terms), |Y| = 1")
    acc = ("local: every label privatized once (train and hold-out), hold-out risk debiased, selection and refit on "
           "all N labels are post-processing" if case.privacy == "local" else
           f"central: ε = {case.eps:g} split ε_fit = ε_select = ε/2, each of the m candidates at ε/(2m) on the "
           "training labels; exponential-mechanism selection on the hold-out labels; basic composition")
    return f"- **{case.name}** ({case.algorithm}, d = {case.d}, ε = {case.eps:g}): law {law}; candidates {grid}; {acc}."


def compute(ctx) -> ExperimentResult:
    """Run the four tasks' grids through the engine, fit the three slopes per task and state the claims.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult with tables ``risk_vs_N`` (mean and 95% t-interval per task, N and line),
    ``selection`` (chosen / oracle h, hold-out estimate error, risk ratios per N) and ``slopes``; per
    task the claims "data-driven slope = Table 1 exponent", "data-driven slope = pinned slope",
    "data-driven risk <= C × pinned risk at the largest N" (and, for central regression, 003's printed
    exponent excluded).

    Raises
    ------
    ValueError
        For an unknown profile.

    References
    ----------
    003 Table 1; Theorems 2, 4, 6, 8.

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_data_driven``); an unknown profile is refused
    before any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    grids = [grid_points(c, ctx.profile) for c in CASES]
    per_point = {}
    for trials in sorted({c.trials[ctx.profile] for c in CASES}):  # one engine call per trial count
        configs = [p for c, g in zip(CASES, grids) if c.trials[ctx.profile] == trials for p in g]
        res = run_trials(trial, configs, trials, version=TRIAL_VERSION, **engine_options(ctx))
        for p, r in zip(configs, res.per_config):
            per_point[p] = r
    results = [_fit_case(c, g, [per_point[p] for p in g], ctx.seed) for c, g in zip(CASES, grids)]
    claims = [cl for r in results for cl in _claims(r)]
    heading = "Privacy accounting of the hold-out\n" + "-" * 34
    intro = __doc__.split("\n\n", 1)[1].split("References:")[0].strip().replace(
        heading, "**Privacy accounting of the hold-out.**")
    intro = intro.replace(":mod:", "")
    notes = [intro, "", "**Tasks and privacy accounting at this profile.**", "",
             *(_describe(c, ctx.profile) for c in CASES),
             "", _slope_markdown(results), "", "**Price of choosing h from data** (mean data-driven / oracle risk, "
             "smallest → largest N; tilt the grid alone can give the fit, `grid_tilt_bound`):", "",
             *(_price(r) for r in results), "",
             f"Slope claims use `interval_verdict` with margin ±{SLOPE_MARGIN} (SLOPE_MARGIN: the largest grid tilt "
             "bound of the four tasks at the quick profile, 0.040, rounded up); the risk ratio uses `bound_verdict` "
             "(holds when its whole CI lies below C). Pinned and oracle risks of the central tasks are averaged "
             "exactly over the mechanism's noise given the sample (same expectation as one draw, less variance). "
             "Table `selection`: chosen and oracle h per N, and the mean error "
             "of the privatized hold-out risk estimates (estimate − population risk, averaged over the candidates; "
             "0 in expectation for the local tasks, not computed for the central ones)."]
    if ctx.profile == "smoke":
        notes.append("\n_Smoke profile: short grids with few trials; the slopes are not meaningful._")
    return ExperimentResult(tables=_tables_of(results), claims=claims, notes="\n".join(notes),
                            data={"results": results, "profile": ctx.profile})


def plot(result) -> dict:
    """Log-log excess risk vs N per task: data-driven, pinned and oracle with 95% CI bands, the Table 1 slope dashed.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["results"]``).

    Returns
    -------
    dict
        ``{"rates_data_driven": matplotlib.figure.Figure}``.

    References
    ----------
    003 Table 1 (the dashed slopes); Theorems 2, 4, 6, 8.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['rates_data_driven']
    """
    results = result.data["results"]
    title = ("Excess risk vs N: h chosen from data (privatized 80/20 hold-out), pinned to the theorem's tuning, "
             "or oracle\n003 Table 1 tasks on fixed smooth laws (mean, 95% CI; dashed: Table 1 slope)")
    fig, axes = figure(2, 2, width=4.6, height=3.5, title=title)
    names = {"data_driven": "data-driven h", "pinned": "pinned h (theorem)", "oracle": "oracle h (not private)"}
    for ax, r in zip(axes, results):
        for i, ln in enumerate(LINES):
            st = [t_interval(v) for v in r.values[ln]]
            mean, lo, hi = (np.array([x[k] for x in st], float) for k in (0, 3, 4))
            f = r.fits[ln]
            band(ax, r.N, mean, np.maximum(lo, mean * 1e-2), hi, i=i,
                 label=f"{names[ln]}: slope {f.slope:.2f} [{f.ci_low:.2f}, {f.ci_high:.2f}]")
        ref = -r.case.exponent()
        oracle = np.array([np.mean(v) for v in r.values["oracle"]])
        xc = math.exp(np.log(r.N).mean())
        yc = math.exp(np.log(oracle).mean()) / 1.5
        ax.plot(r.N, yc * (r.N / xc) ** ref, "k--", lw=1.0, label=f"Table 1 slope {ref:.3f}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())  # decades only: minor labels overlap on short ranges
        ax.set_xlabel("N (sample size)")
        ax.set_ylabel("excess risk")
        ax.set_title(f"{r.case.name} ({r.case.algorithm}, ε = {r.case.eps:g})", fontsize=9)
        ax.legend(loc="lower left", fontsize=6.5)
    return {"rates_data_driven": fig}
