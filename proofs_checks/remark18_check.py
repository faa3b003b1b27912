"""Exact privacy of 001 Remark 1.8's classifier (:class:`~simulations.estimators.pcde_classifier.PCDEClassifier`)
under full DP, by enumeration of tiny datasets.

Domain: a few points of R, each with label 0 or 1 (records ``(x, y)``); every multiset of
``dataset_size`` records and every replacement of one record by another (001 Definition 1.1, via
:func:`proofs_checks.full_dp.neighbouring_multisets`). Each dataset is binned by the learner's own
:meth:`~PCDEClassifier.cell_counts` into joint cells (cube, label), and its stability histogram is
read from :meth:`~PCDEClassifier.mechanism` (noise scale and threshold), so a learner with a wrong
mechanism is checked as it would run. Two outputs are checked, each as the whole curve δ(ε'):

* the released counts (:func:`remark18_count_profile`) -- what Theorem 2.4 certifies; cells whose
  counts do not change are identical independent factors and cancel, and a replacement moves one
  unit between two cells, so each pair's δ(ε') is the exact two-cell value of
  :func:`proofs_checks.stability.stability_pair_delta` (as :func:`proofs_checks.full_dp.full_dp_pcde`
  does for PCDE);
* the released classifier (:func:`remark18_classifier_profile`) -- one independent bit per cube,
  ``P(h_k = 1) = P(ĉ_{k,1} > ĉ_{k,0})`` from :func:`remark18_probability_one`; at most two cubes
  change, so δ(ε') is a hockey-stick sum over at most four joint outcomes. Post-processing makes it
  at most the count-level value at every ε'.

Hand-derived values (tests). While every count stays below the threshold τ (``dataset_size < τ``),
a released cell has log-likelihood ratio ``±1/b`` (b the Laplace scale), and the only pairs with
``δ(ε) > 0`` move a lone record out of a cell, which then releases with probability
``½ e^{-(τ-1)/b}`` under one dataset only: δ(ε) = ``½ e^{-(τ-1)/b}``, = δ/4 for 001 Algorithm 1
(``b = 2/ε``, ``τ = (2/ε) ln(2/δ) + 1``). Planted bugs:

* :class:`PCDEClassifierThresholdNoScale` -- threshold ``ln(2/δ) + 1`` (the factor 2/ε dropped):
  δ(ε) = ``½ (δ/2)^{ε/2}`` while ``dataset_size < τ`` (e.g. ε = 1, δ = 1e-3: 0.01118 > δ);
* :class:`PCDEClassifierHalfScale` -- ``Lap(1/ε)`` (sensitivity taken as 1, as for add/remove
  neighbours; a replacement moves two counts). Below the threshold it is invisible (δ(ε) =
  ``½ e^{-ε(τ-1)} = δ²/8``); once a pair of changed cells has both counts at or above τ on both
  sides, the threshold merges only outcomes of constant likelihood ratio, the two cells are plain
  Laplace cells with loss ``u = ε`` each, and δ(ε) = ``1 − e^{-ε/2}(1 + ε/4)`` (the closed form of two
  Laplace cells, e.g. 0.4482 at ε = 2), the largest value any pair can reach.

Idealized real arithmetic for the Laplace noise (see ``simulations.mechanisms.laplace``).

References: 001 Definition 1.1, Algorithm 1, Theorem 2.4, Algorithm 3, Theorem 4.2, Theorem 1.7,
Remark 1.8.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate

from limits.validation import check_finite_array, check_int, check_positive, check_probability
from simulations.estimators.pcde_classifier import PCDEClassifier
from simulations.mechanisms import StabilityHistogram
from simulations.mechanisms.laplace import laplace_logcdf, laplace_logsf

from .channels import DPCheckResult, within
from .full_dp import neighbouring_multisets
from .stability import stability_pair_delta

__all__ = ["PCDEClassifierHalfScale", "PCDEClassifierThresholdNoScale", "Remark18Profile", "remark18_classifier_profile",
           "remark18_count_profile", "remark18_probability_one"]


# ------------------------------------------------------------------------------------ planted bugs
@dataclass(frozen=True, slots=True)
class _StabilityHalfScale(StabilityHistogram):
    """BUG: ``Lap(1/ε)`` noise (the paper's threshold kept)."""

    @property
    def scale(self) -> float:
        return 1.0 / self.epsilon


@dataclass(frozen=True, slots=True)
class _StabilityThresholdNoScale(StabilityHistogram):
    """BUG: threshold ``ln(2/δ) + 1`` (the factor 2/ε of 001 Algorithm 1 line 7 dropped)."""

    @property
    def threshold(self) -> float:
        return math.log(2.0 / self.delta) + 1.0


class PCDEClassifierHalfScale(PCDEClassifier):
    r"""PLANTED BUG: Remark 1.8's learner with :math:`\mathrm{Lap}(1/\varepsilon)` noise (exact δ(ε): module docstring).

    Sensitivity taken as 1 (as for add/remove neighbours; a replacement moves two counts). Below the
    threshold it is invisible (:math:`\delta(\varepsilon) = \tfrac12 e^{-\varepsilon(\tau-1)} = \delta^2/8`);
    with counts at or above τ it reaches :math:`1 - e^{-\varepsilon/2}(1 + \varepsilon/4)`.

    Parameters
    ----------
    epsilon : float > 0 or None, default 1.0
        The claimed ε (None: the non-private rule).
    delta : float in (0, 1), default 1e-6
        The claimed δ.
    side : float > 0, optional
        Cube side of the learner.
    random_state : None, int or numpy.random.Generator, default None
        Draws the noise at ``fit``, as in :class:`~simulations.estimators.pcde_classifier.PCDEClassifier`.

    Raises
    ------
    ValueError
        As :class:`~simulations.estimators.pcde_classifier.PCDEClassifier`.

    References
    ----------
    001 Remark 1.8, Algorithm 1, Theorem 2.4.

    Examples
    --------
    On datasets of 2 records (below τ) the classifier's δ(ε) is :math:`\delta^2/8`:

    >>> r = remark18_classifier_profile(PCDEClassifierHalfScale(epsilon=1.0, delta=1e-3, side=0.5), 1.0, 1e-3,
    ...                                 dataset_size=2)
    >>> abs(r.check.delta_actual - 1e-6 / 8) < 1e-18
    True
    """

    def mechanism(self):
        """The stability histogram with the bug's Laplace scale 1/ε (threshold kept); None for the non-private rule.

        Returns
        -------
        StabilityHistogram or None
            The mechanism the learner releases its counts through.

        References
        ----------
        001 Remark 1.8, Algorithm 1.

        Examples
        --------
        >>> PCDEClassifierHalfScale(epsilon=1.0, delta=1e-3, side=0.5).mechanism().scale   # 001 Algorithm 1: 2/eps
        1.0
        """
        m = super().mechanism()
        return None if m is None else _StabilityHalfScale(m.epsilon, m.delta)


class PCDEClassifierThresholdNoScale(PCDEClassifier):
    r"""PLANTED BUG: Remark 1.8's learner with threshold :math:`\ln(2/\delta) + 1`.

    The factor 2/ε of 001 Algorithm 1 line 7 is dropped: a lone record is released with probability
    :math:`\tfrac12 e^{-(\tau-1)/b} = \tfrac12 (\delta/2)^{\varepsilon/2}` (b = 2/ε) while
    ``dataset_size`` < τ, e.g. 0.01118 > δ at ε = 1, δ = 1e-3.

    Parameters
    ----------
    epsilon : float > 0 or None, default 1.0
        The claimed ε (None: the non-private rule).
    delta : float in (0, 1), default 1e-6
        The claimed δ.
    side : float > 0, optional
        Cube side of the learner.
    random_state : None, int or numpy.random.Generator, default None
        Draws the noise at ``fit``, as in :class:`~simulations.estimators.pcde_classifier.PCDEClassifier`.

    Raises
    ------
    ValueError
        As :class:`~simulations.estimators.pcde_classifier.PCDEClassifier`.

    References
    ----------
    001 Remark 1.8, Algorithm 1 (line 7), Theorem 2.4.

    Examples
    --------
    >>> r = remark18_count_profile(PCDEClassifierThresholdNoScale(epsilon=1.0, delta=1e-3, side=0.5), 1.0, 1e-3,
    ...                            dataset_size=2)
    >>> r.check.holds, abs(r.check.delta_actual - 0.5 * (1e-3 / 2) ** 0.5) < 1e-15
    (False, True)
    """

    def mechanism(self):
        r"""The stability histogram with the bug's threshold :math:`\ln(2/\delta) + 1`; None for the non-private rule.

        Returns
        -------
        StabilityHistogram or None
            The mechanism the learner releases its counts through.

        References
        ----------
        001 Remark 1.8, Algorithm 1 (line 7).

        Examples
        --------
        >>> import math
        >>> m = PCDEClassifierThresholdNoScale(epsilon=1.0, delta=1e-3, side=0.5).mechanism()
        >>> abs(m.threshold - (math.log(2000) + 1)) < 1e-12
        True
        """
        m = super().mechanism()
        return None if m is None else _StabilityThresholdNoScale(m.epsilon, m.delta)


# ------------------------------------------------------------------------------------ the checks
@dataclass(frozen=True)
class Remark18Profile:
    r"""The exact δ(ε') curve of one output of the learner over all neighbouring tiny datasets.

    Parameters
    ----------
    epsilons : ndarray, shape (m,)
        The ε' values (sorted, the claimed ε included).
    deltas : ndarray, shape (m,)
        The exact :math:`\max_{S \sim S'} \delta_{S,S'}(\varepsilon')`.
    witnesses : list
        m pairs (S, S') of sorted record-index tuples (None where every pair gives 0).
    pairs : int
        The number of ordered neighbouring pairs enumerated.
    check : DPCheckResult
        The verdict at the claimed (ε, δ) (``delta_actual`` = δ(ε) exactly).

    References
    ----------
    001 Remark 1.8, Theorem 2.4.

    Examples
    --------
    >>> r = remark18_count_profile(PCDEClassifier(epsilon=1.0, delta=1e-3, side=0.5), 1.0, 1e-3, dataset_size=2)
    >>> r.epsilons.tolist(), r.pairs
    ([0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0], 48)
    """

    epsilons: np.ndarray
    deltas: np.ndarray
    witnesses: list
    pairs: int
    check: DPCheckResult


def remark18_probability_one(mech: StabilityHistogram, count0: int, count1: int) -> float:
    r"""Exact :math:`P(h = 1) = P(\hat c_1 > \hat c_0)` on a cube with ``count0`` / ``count1`` points of label 0 / 1.

    :math:`\hat c_y = c_y + W_y` if :math:`c_y > 0` and :math:`c_y + W_y \ge \tau`, else 0 (001
    Algorithm 1). So h = 0 when :math:`c_1 = 0`; h = 1 iff :math:`\hat c_1` is released when
    :math:`c_0 = 0`: :math:`P = P(W \ge \tau - c_1)`; otherwise h = 1 iff
    :math:`U_1 = c_1 + W_1 \ge \tau` and :math:`U_0 < U_1` (a suppressed :math:`\hat c_0` has
    :math:`U_0 < \tau \le U_1`): :math:`P = \int_\tau^\infty \mathrm{lap}(u - c_1) F(u - c_0)\, du`
    (adaptive quadrature split at the kinks, absolute error < 1e-13).

    Parameters
    ----------
    mech : StabilityHistogram
        Gives the Laplace scale b and the threshold τ.
    count0, count1 : int >= 0
        The cube's counts of label 0 and label 1.

    Returns
    -------
    float
        The probability, in [0, 1].

    Raises
    ------
    ValueError
        A negative count.

    References
    ----------
    001 Remark 1.8, Algorithm 1.

    Examples
    --------
    A lone 1-label: :math:`\tfrac12 e^{-(\tau-1)/b} = \delta/4`.

    >>> from simulations.mechanisms import StabilityHistogram
    >>> mech = StabilityHistogram(1.0, 1e-3)
    >>> round(remark18_probability_one(mech, 0, 1) / 1e-3, 9), remark18_probability_one(mech, 1, 0)
    (0.25, 0.0)
    """
    c0, c1 = int(count0), int(count1)
    if c0 < 0 or c1 < 0:
        raise ValueError(f"counts must be >= 0, got count0={count0}, count1={count1}")
    b, tau = mech.scale, mech.threshold
    if c1 == 0:
        return 0.0
    if c0 == 0:
        return float(np.exp(laplace_logsf(tau - c1, b)))

    def integrand(u):
        return math.exp(-abs(u - c1) / b) / (2 * b) * float(np.exp(laplace_logcdf(u - c0, b)))

    cuts = sorted({p for p in (float(c0), float(c1)) if p > tau})
    val, last = 0.0, tau
    for p in cuts + [math.inf]:
        val += integrate.quad(integrand, last, p, epsabs=1e-14, epsrel=1e-12, limit=200)[0]
        last = p
    return val


def _records(points) -> tuple[np.ndarray, list[tuple[int, int]]]:
    pts = check_finite_array("points", points).ravel()
    if pts.size < 1:
        raise ValueError(f"points must hold at least one point, got points={points!r}")
    return pts, [(i, y) for i in range(pts.size) for y in (0, 1)]


def _setup(learner, epsilon, delta, epsilons, points, dataset_size):
    if not isinstance(learner, PCDEClassifier):
        raise ValueError(f"learner must be a PCDEClassifier, got learner={learner!r}")
    mech = learner.mechanism()
    if mech is None:
        raise ValueError("learner must be private (epsilon=None is the non-private rule: it has no finite δ(ε))")
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    check_int("dataset_size", dataset_size, low=1)
    grid = np.unique(np.concatenate([check_finite_array("epsilons", np.atleast_1d(
        epsilons if epsilons is not None else np.linspace(0.0, 2 * epsilon, 9))), [epsilon]]))
    if grid.min() < 0:
        raise ValueError(f"epsilons must be >= 0, got epsilons={epsilons!r}")
    pts, rec = _records(points)

    def counts(S):
        X = pts[[rec[e][0] for e in S]][:, None]
        y = np.array([rec[e][1] for e in S])
        _, cells, c = learner.cell_counts(X, y)
        return {(int(k), lab): int(c[j, lab]) for j, k in enumerate(cells[:, 0]) for lab in (0, 1) if c[j, lab]}

    return mech, epsilon, delta, grid, rec, counts


def _finish(grid, best, wit, count, epsilon, delta, what, method) -> Remark18Profile:
    i = int(np.flatnonzero(grid == epsilon)[0])
    d = float(best[i])
    holds = within(d, delta) if delta > 0 else d == 0.0
    w = wit[i]
    expl = (f"full DP, Remark 1.8 classifier, {what}: all {count} ordered neighbouring pairs; exact "
            f"delta(epsilon={epsilon:g}) = {d:.6g} ({'<=' if holds else '>'} delta = {delta:g})")
    chk = DPCheckResult(holds=bool(holds), epsilon=epsilon, delta=delta, epsilon_actual=epsilon, delta_actual=d,
                        method=method, witness={"S": list(w[0]), "S_prime": list(w[1])} if w else {},
                        explanation=expl)
    return Remark18Profile(epsilons=grid, deltas=best, witnesses=wit, pairs=count, check=chk)


def remark18_count_profile(learner: PCDEClassifier, epsilon: float, delta: float, *, epsilons=None,
                           points=(-0.9, 0.3), dataset_size: int = 3) -> Remark18Profile:
    """Exact δ(ε') of the joint cell counts the learner releases, over all neighbouring datasets.

    Parameters
    ----------
    learner : PCDEClassifier (private; its ``side`` should put the points in distinct cubes)
    epsilon, delta : the claimed (ε, δ), checked at ε' = ε.
    epsilons : array_like of ε' >= 0 or None (default: 9 values in [0, 2ε]); ε is always added.
    points : array_like of 1-D points; records are (point, label), 2 per point.
    dataset_size : int >= 1.

    Returns
    -------
    Remark18Profile

    Raises
    ------
    ValueError
        On a non-private or foreign learner, bad (ε, δ), a negative ε' or a bad dataset size.

    References
    ----------
    001 Algorithm 1, Theorem 2.4, Algorithm 3, Theorem 4.2, Remark 1.8.

    Examples
    --------
    >>> r = remark18_count_profile(PCDEClassifier(epsilon=1.0, delta=1e-3, side=0.5), 1.0, 1e-3, dataset_size=2)
    >>> r.check.holds, round(r.check.delta_actual / 1e-3, 12)   # exactly δ/4
    (True, 0.25)
    """
    mech, epsilon, delta, grid, rec, counts = _setup(learner, epsilon, delta, epsilons, points, dataset_size)
    cache: dict = {}
    best = np.zeros(grid.size)
    wit: list = [None] * grid.size
    count = 0
    for S, S2 in neighbouring_multisets(len(rec), dataset_size):
        count += 1
        c, c2 = counts(S), counts(S2)
        changed = sorted(k for k in set(c) | set(c2) if c.get(k, 0) != c2.get(k, 0))
        if not changed:
            continue
        if len(changed) != 2:
            raise AssertionError(f"a replacement must move one unit between two cells, got {S} -> {S2}")
        key = tuple((c.get(k, 0), c2.get(k, 0)) for k in changed)
        if key not in cache:
            (a, a2), (b, b2) = key
            cache[key] = stability_pair_delta(mech, (a, b), (a2, b2), grid)
        better = cache[key] > best
        best = np.where(better, cache[key], best)
        for i in np.flatnonzero(better):
            wit[i] = (S, S2)
    return _finish(grid, best, wit, count, epsilon, delta, f"released (cube, label) counts, {dataset_size} records "
                   f"over {len(rec) // 2} points", "exact hockey-stick of the stability histogram's changed cells")


def remark18_classifier_profile(learner: PCDEClassifier, epsilon: float, delta: float, *, epsilons=None,
                                points=(-0.9, 0.3), dataset_size: int = 3) -> Remark18Profile:
    """Exact δ(ε') of the released classifier (one bit per cube), over all neighbouring datasets.

    Each cube's bit has the probability of :func:`remark18_probability_one` given its two counts,
    independently of the other cubes; the cubes whose counts do not change cancel from the hockey
    stick, so δ(ε') is a sum over at most four joint outcomes. Post-processing of the counts, so at
    most :func:`remark18_count_profile` at every ε'.

    Parameters
    ----------
    learner : PCDEClassifier
        A private learner (its ``side`` should put the points in distinct cubes).
    epsilon : float > 0
        The claimed ε, checked at ε' = ε.
    delta : float in [0, 1]
        The claimed δ.
    epsilons : array_like of float >= 0, optional
        The ε' values (default: 9 values in [0, 2ε]); ε is always added.
    points : array_like of float, default (-0.9, 0.3)
        The 1-D points; records are (point, label), 2 per point.
    dataset_size : int >= 1, default 3
        Records per dataset.

    Returns
    -------
    Remark18Profile
        The δ(ε') curve, witnesses and the verdict at (ε, δ).

    Raises
    ------
    ValueError
        On a non-private or foreign learner, bad (ε, δ), a negative ε' or a bad dataset size.

    References
    ----------
    001 Remark 1.8, Algorithm 1, Theorem 2.4, Algorithm 3, Theorem 4.2.

    Examples
    --------
    >>> r = remark18_classifier_profile(PCDEClassifier(epsilon=1.0, delta=1e-3, side=0.5), 1.0, 1e-3,
    ...                                 dataset_size=2)
    >>> r.check.holds, round(r.check.delta_actual / 1e-3, 12)   # a lone 1-label's cube: P(h = 1) = δ/4
    (True, 0.25)
    """
    mech, epsilon, delta, grid, rec, counts = _setup(learner, epsilon, delta, epsilons, points, dataset_size)
    p1: dict = {}

    def prob(c0, c1):
        if (c0, c1) not in p1:
            p1[(c0, c1)] = remark18_probability_one(mech, c0, c1)
        return p1[(c0, c1)]

    e = np.exp(grid)[:, None]
    best = np.zeros(grid.size)
    wit: list = [None] * grid.size
    count = 0
    for S, S2 in neighbouring_multisets(len(rec), dataset_size):
        count += 1
        c, c2 = counts(S), counts(S2)
        cubes = sorted({k[0] for k in set(c) | set(c2) if c.get(k, 0) != c2.get(k, 0)})
        P, Q = np.ones(1), np.ones(1)
        for k in cubes:
            a = prob(c.get((k, 0), 0), c.get((k, 1), 0))
            b = prob(c2.get((k, 0), 0), c2.get((k, 1), 0))
            P, Q = np.concatenate([P * (1 - a), P * a]), np.concatenate([Q * (1 - b), Q * b])
        val = np.maximum(0.0, P[None, :] - e * Q[None, :]).sum(axis=1)
        better = val > best
        best = np.where(better, val, best)
        for i in np.flatnonzero(better):
            wit[i] = (S, S2)
    return _finish(grid, best, wit, count, epsilon, delta, f"released classifier bits, {dataset_size} records over "
                   f"{len(rec) // 2} points", "exact hockey-stick over the changed cubes' bits (Laplace tails + quadrature)")
