"""The three terms of a partition estimator's excess risk: bias², sampling, privacy (003 Theorems 2, 4, 8, 12).

Measured, per trial, from one count table (:mod:`simulations.estimators.count_level`):

* ``bias``: the excess risk of the *oracle* partition rule, the estimator's population target on each
  cell (the majority class of the cell's exact label masses; the cell mean of the (clipped) label);
  deterministic given the law and the grid;
* ``sampling``: ``R(non-private estimator on the same counts) − bias`` (bin majority / bin mean of the
  clipped labels, same bins), the non-private estimation error;
* ``privacy``: ``R(private estimator) − R(non-private estimator on the same counts)``, the cost of the
  mechanism.

The three add up to the excess risk exactly. For regression (squared loss, cell means) the
decomposition is the usual one (per cell ``(v − m)² = (v − v̂)² + 2(v − v̂)(v̂ − m) + (v̂ − m)²`` with
mean-zero cross terms for Laplace noise); for classification it is a telescoping of risks.

Predicted (:func:`expected_terms`): the same three terms from the theorems' own error expansions,
computed without simulation — for regression ``bias = ∫ (η − target)²`` (exact, from the law),
``sampling = ∑_l Var(Y_clip | B_l) / N`` and ``privacy = 8T²/(εN h^d)²`` (Laplace of scale
``2T/(n_l ε)`` with ``n_l ≈ N h^d``); for classification on the aligned construction (every bump a
whole cell, ``bias = 0``) ``sampling = ∑_bumps ∫|η_v| · P(majority wrong)`` and ``privacy`` the same
with ``P(exponential mechanism wrong) − P(majority wrong)``, both with ``n_c − n_w`` normal of mean
``N h^d δ`` and variance ``N h^d`` (``δ`` = the cell mean of ``|η_v|``), averaged over it by
Gauss–Hermite quadrature.

References: 003 eqs. (17), (23), (28); proofs of Theorems 4 (eq. (112)-(119)), 8 (eq. (150)-(154)),
12 (eq. (190)-(195)).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from simulations.estimators import BinMajorityClassifier, BinMeanRegressor
from simulations.estimators.count_level import cell_label_law, draw_cell_counts, fit_from_counts
from simulations.estimators.partition import bins_for_width

__all__ = ["TERMS", "count_level_terms", "expected_terms", "oracle_values"]

TERMS = ("bias", "sampling", "privacy")


def _classifier(est) -> bool:
    return hasattr(est, "num_classes")


def oracle_values(est, masses, values):
    """The estimator's population target per cell: majority class of the masses, or the mean of the
    (clipped, for ``clip=True``) label values.

    Parameters
    ----------
    est : partition estimator
        A classifier (has ``num_classes``) or a regressor (``T`` and ``clip`` read when present).
    masses : numpy.ndarray, shape (cells, labels)
        Exact probability of each (cell, label) pair (:func:`~simulations.estimators.count_level.cell_label_law`).
    values : numpy.ndarray, shape (labels,)
        The label values (regression); unused for classification.

    Returns
    -------
    numpy.ndarray, shape (cells,)
        Classes (int64; ties to the smallest) or cell means (0 where a cell has no mass).

    References
    ----------
    003 Theorems 2, 4 (bin majority) and 8, 12 (bin means): the population targets of the estimators.

    Examples
    --------
    Two cells, labels ±1: masses (1/4, 1/4) give the mean 0, (1/2, 0) the mean −1 and class 0:

    >>> from simulations.estimators import BinMajorityClassifier, BinMeanRegressor
    >>> masses, values = np.array([[0.25, 0.25], [0.5, 0.0]]), np.array([-1.0, 1.0])
    >>> oracle_values(BinMeanRegressor(h=0.5), masses, values).tolist()
    [0.0, -1.0]
    >>> oracle_values(BinMajorityClassifier(num_classes=2, h=0.5), masses, values).tolist()
    [0, 0]
    """
    if _classifier(est):
        return np.argmax(masses, axis=1).astype(np.int64)
    v = _target_values(est, values)
    w = masses.sum(axis=1)
    return np.divide(masses @ v, w, out=np.zeros(w.shape), where=w > 0)


def _target_values(est, values):
    return np.clip(values, -est.T, est.T) if getattr(est, "clip", False) else values


def count_level_terms(law, est, N: int, data_rng, privacy_rng, tie_rng) -> dict:
    """Fit ``est`` at count level on N points of ``law`` and return its excess risk and three terms.

    Parameters
    ----------
    law : a law with exact cell label masses (:func:`~simulations.estimators.count_level.cell_label_law`).
    est : an unfitted partition estimator (003 Theorems 2, 4, 8, 12); fitted in place.
    N : sample size (any size: the cost is independent of N).
    data_rng, privacy_rng : the DATA and PRIVACY streams (counts; mechanism).
    tie_rng : a third stream for the ties of the non-private majority (so that the private fit draws
        exactly as ``fit_count_level`` would).

    Returns
    -------
    dict of floats: ``excess``, ``bias``, ``sampling``, ``privacy`` (the last three add up to ``excess``).

    References
    ----------
    003 proofs of Theorems 4 (eq. (112)-(119)), 8 (eq. (150)-(154)), 12 (eq. (190)-(195)).

    Examples
    --------
    Central regression on 10 cubes of the 003 eq. (121) construction at N = 100:

    >>> from simulations.experiments.rates.machinery import RatePoint, construction, estimator
    >>> pt = RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=100, g=10)
    >>> rngs = [np.random.default_rng(s) for s in (0, 1, 2, 3)]
    >>> out = count_level_terms(construction(pt, rngs[0]), estimator(pt), 100, *rngs[1:])
    >>> sorted(out), abs(out["bias"] + out["sampling"] + out["privacy"] - out["excess"]) < 1e-12
    (['bias', 'excess', 'privacy', 'sampling'], True)
    """
    bins = bins_for_width(est.h)
    masses, values = cell_label_law(law, bins)
    counts = draw_cell_counts(masses, N, data_rng)
    fit_from_counts(est, counts, privacy_rng, d=law.d, values=values)
    excess = law.excess_risk_partition(est.cell_values_, bins)
    if _classifier(est):
        base = fit_from_counts(BinMajorityClassifier(num_classes=est.num_classes, h=est.h), counts, tie_rng, d=law.d)
    else:
        base = fit_from_counts(BinMeanRegressor(h=est.h), counts, None, d=law.d, values=_target_values(est, values))
    r_np = law.excess_risk_partition(base.cell_values_, bins)
    bias = law.excess_risk_partition(oracle_values(est, masses, values), bins)
    return {"excess": excess, "bias": bias, "sampling": r_np - bias, "privacy": excess - r_np}


_GH_X, _GH_W = np.polynomial.hermite_e.hermegauss(80)  # probabilists' Hermite: ∫ f(z) φ(z) dz


def _expected_exp_wrong(mu: float, sd: float, eps: float) -> float:
    """``E[1/(1 + exp(ε D/2))]`` for ``D ~ Normal(mu, sd²)`` (K = 2: the exponential mechanism's error)."""
    D = mu + sd * _GH_X
    return float(np.sum(_GH_W * special.expit(-eps * D / 2.0)) / math.sqrt(2 * math.pi))


def expected_terms(law, est, N: float, epsilon: float) -> dict:
    """The three terms predicted by the theorems' error expansions (no simulation); see the module text.

    Classification: K = 2 and the aligned construction (bins = cubes) only.

    Parameters
    ----------
    law : a law with exact cell label masses
        E.g. the 003 construction (:func:`simulations.experiments.rates.machinery.construction`).
    est : partition estimator
        Its bin width ``h`` (and ``T``, ``clip`` for regression; ``num_classes`` for classification).
    N : float
        Sample size, > 0.
    epsilon : float
        Privacy parameter ε > 0.

    Returns
    -------
    dict of str to float
        ``bias``, ``sampling``, ``privacy``.

    Raises
    ------
    ValueError
        If a classifier has ``num_classes != 2``.

    References
    ----------
    003 proofs of Theorems 4 (eq. (112)-(119)), 8 (eq. (150)-(154)), 12 (eq. (190)-(195)).

    Examples
    --------
    Regression, labels ±1 (T = 1), ε = 1, N = 100 on bins of width 1/10: the privacy term is
    ``8T²/(εN h^d)² = 8/10² = 0.08``:

    >>> from simulations.experiments.rates.machinery import RatePoint, construction, estimator
    >>> pt = RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=100, g=10)
    >>> law = construction(pt, np.random.default_rng(0))
    >>> round(expected_terms(law, estimator(pt), 100, 1.0)["privacy"], 12)
    0.08
    """
    bins = bins_for_width(est.h)
    masses, values = cell_label_law(law, bins)
    G = masses.shape[0]
    vol = 1.0 / G
    bias = law.excess_risk_partition(oracle_values(est, masses, values), bins)
    if _classifier(est):
        if est.num_classes != 2:
            raise ValueError(f"expected_terms handles K = 2 only, got num_classes={est.num_classes}")
        gap = np.abs(masses[:, 1] - masses[:, 0])  # ∫_cell |η_1 − η_0| = ∫_cell |η_v| on aligned cells
        n = N * vol
        sampling = privacy = 0.0
        for cell_gap in np.unique(np.round(gap[gap > 0], 15)):
            k = int(np.count_nonzero(np.isclose(gap, cell_gap, rtol=1e-9, atol=0)))
            mu, sd = N * cell_gap, math.sqrt(n)
            p_maj = float(special.ndtr(-mu / sd))
            p_exp = _expected_exp_wrong(mu, sd, epsilon)
            sampling += k * cell_gap * p_maj
            privacy += k * cell_gap * (p_exp - p_maj)
        return {"bias": bias, "sampling": sampling, "privacy": privacy}
    v = _target_values(est, values)
    w = masses.sum(axis=1)
    mean = np.divide(masses @ v, w, out=np.zeros(G), where=w > 0)
    second = np.divide(masses @ (v * v), w, out=np.zeros(G), where=w > 0)
    sampling = float(np.sum(second - mean ** 2)) / N  # ∑_l P_l Var_l / n_l with n_l ≈ N P_l
    privacy = 8.0 * est.T ** 2 / (epsilon * N * vol) ** 2
    return {"bias": bias, "sampling": sampling, "privacy": privacy}

