"""``semi_supervised_learning``: private consistent semi-supervised learning (001 Section 4.1, Theorem 4.11).

The learner is the proof's (:mod:`simulations.estimators.cssl`): PCDE (001 Algorithm 3, (ε, δ)-DP)
on the private unlabeled sample of size n, ``n_semi`` synthetic points drawn from its release, and the
semi-private learner of Theorem 4.10 (exponential mechanism over the dichotomies of the synthetic
points, ε-DP in the labeled sample) on m labeled examples. ε_L = ε_U = ε, δ = 10^-6; the release is
(ε, δ)-DP under 001's relation (one labeled or one unlabeled record replaced; see the module above).

Laws: the concentrated thresholds of ``thresholds_contrast``, ``x ~ U[t − w, t + w]``, ``y = 1[x > t]``
(realizable by thresholds, Bayes error 0), with ``t = c w`` (c = 1.618, or uniform in [1.5, 3.5] per trial
for the unlabeled sweep) and spreads w = 0.2 ... 2e-5: scaled copies of one law (x -> x/10). Every step
but PCDE is affine-invariant and PCDE's grid (side ``r = n^{-1/2}``) is anchored at 0, so w acts only
through the magnitude of the cube counts at a given ``n w^2`` (PCDE's release threshold
``τ = (2/ε) ln(2/δ) + 1`` and the counts' noise): w changes what n (unlabeled) is needed, not m.

Exactness. Per trial the unlabeled cube counts are drawn as a multinomial over the cubes (the law of
binning n uniform points; :func:`~simulations.estimators.cssl.pcde_release` is then PCDE's release,
tested equal to :class:`~simulations.estimators.pcde.PCDE`), the synthetic sample from the release,
and one labeled sample of size m_max whose prefixes give every m of the grid. The exponential
mechanism is not sampled: its exact law over the hypotheses (closed form) and each hypothesis's exact
error under the law give ``P(err > α | S, Û)`` and ``E[err | S, Û]`` exactly; trials average over
(S, U, Û). ``m(α)`` = the smallest m with ``P(err > α) <= β`` (Definition 4.8 with β = 0.1), read off
the trial-mean curve by log-linear interpolation; 95% intervals by a bootstrap over trials.
``n_semi = ⌈2 VC/(εα) · ln(1/(αβ))⌉`` (Theorem 4.10's unlabeled size, constant 2: see ``N_SEMI_CONST``).

Claims: (i) error vs m at fixed unlabeled size falls like 1/m (log-log slope −1); (ii) m(α) grows like
1/(εα) (slope 1 against 1/(εα) over the α grid, per ε); (iii) m(α) is the same for every w (n = 100 w^-2
unlabeled points each) while the unlabeled size needed scales like w^-2 as the law concentrates;
(iv) the contrast with 001 Section 1 (``thresholds_contrast``): at the labeled size where the CSSL has
reached error α on every law, PCL (001 Algorithm 2, labeled data only) errs on half the mass of the
worst member of thresholds_contrast's family; (v) intervals (VC 2) need between 1 and 2 ln(2/β)/ln(1/β)
times the labels of thresholds (VC 1). The exact privacy checks are in :mod:`proofs_checks.cssl_check`.

References: 001 Definitions 4.6-4.9, Theorems 4.2, 4.3, 4.10, 4.11, Remark 4.12, Section 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.cssl import (VC_DIMENSION, cumulative_label_counts, interval_dichotomies, pcde_release,
                                         sample_released_density, threshold_dichotomies, threshold_errors)
from simulations.experiments.base import Claim, ExperimentResult
from simulations.experiments.consistency.thresholds_contrast import LOCATIONS, ThresholdPoint, threshold_trial
from simulations.plotting import MARKERS, color, figure
from simulations.seeding import EVAL, stream
from simulations.stats import EXCLUDED, HOLDS, interval_verdict, t_interval

DELTA = 1e-6          # PCDE's δ, as in private_density_estimation (001 asks δ << 1/n for a meaningful guarantee:
#                       true here for n <= 10^5 only; the unlabeled sizes needed at small w are far larger)
BETA = 0.1            # failure probability of Definitions 4.6 / 4.8
CENTER = 1 + (math.sqrt(5) - 1) / 2  # t = CENTER · w: the laws are scaled copies of one law (x -> x/10)
CENTER_RANGE = (1.5, 3.5)  # claim (iii-b): t = c w with c uniform here per trial (uniform offset to PCDE's grid)
SPREADS = (0.2, 0.02, 0.002, 0.0002, 0.00002)
W_MAIN = 0.02         # the law of claims (i), (ii), (v)
N_FACTOR = 100        # n = N_FACTOR / w^2 unlabeled points: PCDE's cube side r = w / 10
N_SYNTHETIC_FIXED = 4000  # claim (i): the synthetic size held fixed while m grows
FIT_M = (128, 2048)   # claim (i): the fitted range of m (see ERR_SLOPE_MARGIN)
ALPHA_B = 0.02        # claims (iii), (iv)
ALPHA_VC = 0.05       # claim (v)
N_BOOT = 1000
# Theorem 4.10's unlabeled size O(VC/(εα) ln(1/(αβ))) with this constant. The synthetic points must put one
# within mass α of t (else every hypothesis errs by more than α, whatever m): n_semi uniform points miss a
# window of mass 2α with probability ~ e^{-2α n_semi} = (αβ)^{2C/ε}; C = 2 keeps it <= (αβ)^2 <= 1e-4 for
# ε <= 2 (with C = 1 it is αβ = 1% at ε = 2, α = 0.1: a floor under P(err > α) near β).
N_SEMI_CONST = 2

# (i) In the dense-net limit the error law is scale-free: the labels between a candidate threshold and t
# form a Poisson process of rate m per unit of mass, so E err = c(ε)/m exactly. Over FIT_M the net of
# 4000 synthetic points floors the error at ~1/(4 · 4000 · 0.9) <= 10% of c(ε)/m (c >= 1.4 at ε = 2), and
# the far hypotheses (error 1/2, weight ~ n_semi e^{-εm/4}) are negligible from m = 128: together a slope
# bias <= ln(1.1)/ln(16) ≈ 0.035; the margin 0.1 leaves room for the Monte Carlo interval.
ERR_SLOPE_MARGIN = 0.1
# (ii) Theorem 4.10/4.11: m = O(VC/(εα) · ln(1/(αβ))). The log factor alone moves the local slope
# against 1/(εα) by 1/ln(1/(αβ)) <= 1/ln(1/(0.1 · 0.1)) ≈ 0.22 on our grid: slopes within 0.25 of 1 are
# what the theorem predicts, with or without the log.
M_SLOPE_MARGIN = 0.25
# (iii-a) At n = 100 w^-2 the pipeline is the same up to scale for every w; what is left is the relative
# noise of the released cube counts (Laplace 2/ε and multinomial, <= 10% per cube at w = 0.2, 125 points a
# cube) moving the synthetic density near t by at most ~10%: m(α) may differ by at most a factor 1.25.
M_FLAT_FACTOR = 1.25
# (iii-b) The laws t = c w are scaled copies (x -> x/10) and PCDE's grid is anchored at 0, so (w, n) and
# (w/10, 100 n) are the same pipeline rescaled, except that the cube counts are 100x larger: the release
# threshold (2/ε) ln(2/δ) + 1 ≈ 30 and the counts' relative noise matter less. Once the counts at n_U are
# large (>= 10^4 here: w <= 2e-4) nothing is left: n_U(w/10)/n_U(w) = 100, i.e. n_U ∝ w^-2. Margin: a quarter
# decade, the step of the n grid (the crossing is interpolated within a step). The wider pairs show how far
# from w^-2 the finite counts move n_U.
NU_DECADES_MARGIN = 0.25
NU_PAIR = (0.0002, 0.00002)
# (v) In the dense limit the interval learner's error is the sum of its left end's (the threshold problem at
# t) and its right end's (one-sided at t + w), each distributed at most like the threshold learner's error.
# So m_int(α, β) >= m_thr(α, β) (the sum dominates one term), and by the union bound
# P(e_a + e_b > α) <= P(e_a > α/2) + P(e_b > α/2), m_int(α, β) <= m_thr(α/2, β/2) ≈ 2 ln(2/β)/ln(1/β) m_thr(α, β)
# (m ∝ ln(1/β)/α: exponential tails, claim (ii)), i.e. VC(intervals)/VC(thresholds) = 2 times a β factor 1.30.
VC_RATIO_RANGE = (1.0, 2.0 * math.log(2.0 / BETA) / math.log(1.0 / BETA))

@dataclass(frozen=True, slots=True)
class Profile:
    """Grids and trial counts of one profile.

    Parameters
    ----------
    epsilons : tuple of float > 0
        Privacy parameters ε of claims (i)-(ii).
    alphas : tuple of float in (0, 1)
        Target errors α of claim (ii).
    grid_trials, law_trials, curve_trials, unlabeled_trials, pcl_trials : int >= 1
        Trials of the α grid and intervals, the laws of (iii-a), the curves of (i), the unlabeled sweep,
        PCL per family member.
    n_boot : int >= 1
        Bootstrap replicates of every interval.

    Examples
    --------
    >>> [round(1 / a) for a in PROFILES["quick"].alphas]
    [10, 20, 50, 100]
    """

    epsilons: tuple[float, ...]
    alphas: tuple[float, ...]
    grid_trials: int  # the α grid and the intervals
    law_trials: int  # the laws of claim (iii-a)
    curve_trials: int  # the fixed-size curves of claim (i)
    unlabeled_trials: int  # the unlabeled sweep
    pcl_trials: int  # PCL per threshold-family member
    n_boot: int  # bootstrap replicates


PROFILES = {
    "smoke": Profile(epsilons=(1.0,), alphas=(0.1, 0.05), grid_trials=12, law_trials=12, curve_trials=8,
                     unlabeled_trials=8, pcl_trials=2, n_boot=200),
    "quick": Profile(epsilons=(0.5, 1.0, 2.0), alphas=(0.1, 0.05, 0.02, 0.01), grid_trials=60, law_trials=100,
                     curve_trials=60, unlabeled_trials=50, pcl_trials=4, n_boot=N_BOOT),
    "paper": Profile(epsilons=(0.5, 1.0, 2.0), alphas=(0.1, 0.05, 0.02, 0.01, 0.005, 0.002), grid_trials=400,
                     law_trials=400, curve_trials=100, unlabeled_trials=200, pcl_trials=10, n_boot=2000),
}


def n_semi(alpha: float, epsilon: float, vc: int = 1, beta: float = BETA) -> int:
    """Theorem 4.10's unlabeled size with constant :data:`N_SEMI_CONST`: ``⌈2 VC/(εα) · ln(1/(αβ))⌉``.

    Parameters
    ----------
    alpha : float in (0, 1)
        Target error α.
    epsilon : float > 0
        Privacy parameter ε of the semi-private learner.
    vc : int >= 1, default 1
        VC dimension of the class (1: thresholds, 2: intervals).
    beta : float in (0, 1), default :data:`BETA` (0.1)
        Failure probability β (α β < 1 for a positive logarithm).

    Returns
    -------
    int
        The number of synthetic points drawn from PCDE's release.

    References
    ----------
    001 Theorem 4.10 (unlabeled size ``O(VC/(εα) ln(1/(αβ)))``), Theorem 4.11.

    Examples
    --------
    ``⌈2/(0.1) · ln 100⌉ = ⌈92.10⌉ = 93``; for intervals (VC 2) ``⌈184.21⌉ = 185``:

    >>> n_semi(0.1, 1.0), n_semi(0.1, 1.0, vc=2)
    (93, 185)
    """
    return math.ceil(N_SEMI_CONST * vc / (epsilon * alpha) * math.log(1.0 / (alpha * beta)))


def m_grid(m_max: int, m_min: int = 4, per_octave: int = 4) -> tuple[int, ...]:
    """Geometric grid of labeled sizes, ``per_octave`` points per doubling, from m_min to >= m_max.

    Parameters
    ----------
    m_max : int >= m_min
        The grid reaches at least this size.
    m_min : int >= 1, default 4
        The first size.
    per_octave : int >= 1, default 4
        Points per doubling.

    Returns
    -------
    tuple of int
        ``round(m_min · 2^(k / per_octave))`` for ``k = 0 .. ⌈log2(m_max/m_min) · per_octave⌉``, duplicates
        removed, increasing.

    References
    ----------
    001 Definition 4.8 (the labeled sample complexity m(α, β) is read off this grid).

    Examples
    --------
    ``4 · 2^(k/4)`` = 4, 4.76, 5.66, 6.73, 8; one point per octave from 4 to >= 10:

    >>> m_grid(8), m_grid(10, m_min=4, per_octave=1)
    ((4, 5, 6, 7, 8), (4, 8, 16))
    """
    top = math.ceil(math.log2(m_max / m_min) * per_octave)
    return tuple(int(v) for v in np.unique(np.round(m_min * 2.0 ** (np.arange(top + 1) / per_octave))))


@dataclass(frozen=True, slots=True)
class LabeledPoint:
    """A CSSL run whose labeled size is swept (claims i, ii, iii-a, v).

    Parameters
    ----------
    hypothesis_class : {"thresholds", "intervals"}
        The class of the semi-private learner ("intervals" runs :func:`interval_em_summaries`; any other
        value the thresholds).
    epsilon : float > 0
        ε of PCDE (with δ = :data:`DELTA`) and of the exponential mechanism.
    alpha : float in (0, 1)
        Target error α of ``P(err > α)``.
    spread : float > 0
        The law's half-width w: ``x ~ U[t − w, t + w]`` with ``t = CENTER · w``, ``y = 1[x > t]``.
    n_unlabeled : int >= 1
        Private unlabeled sample size n (PCDE's cube side ``n^{-1/2}``).
    n_synthetic : int >= 1
        Points drawn from PCDE's release (:func:`n_semi` or :data:`N_SYNTHETIC_FIXED`).
    m_min, m_max, per_octave : int >= 1
        The labeled-size grid :attr:`m` (:func:`m_grid`).

    References
    ----------
    001 Theorems 4.10, 4.11, Definition 4.8.

    Examples
    --------
    >>> p = LabeledPoint("thresholds", 1.0, 0.1, 0.2, 2500, 93, 4, 16, 1)
    >>> p.hypothesis_class, p.n_unlabeled, p.m
    ('thresholds', 2500, (4, 8, 16))
    """

    hypothesis_class: str
    epsilon: float
    alpha: float
    spread: float
    n_unlabeled: int
    n_synthetic: int
    m_min: int
    m_max: int
    per_octave: int

    @property
    def m(self) -> tuple:
        """The grid of labeled sizes (:func:`m_grid`).

        Returns
        -------
        tuple of int
            ``m_grid(m_max, m_min=m_min, per_octave=per_octave)``.

        Examples
        --------
        >>> LabeledPoint("intervals", 1.0, 0.1, 0.2, 2500, 185, 4, 8, 4).m
        (4, 5, 6, 7, 8)
        """
        return m_grid(self.m_max, m_min=self.m_min, per_octave=self.per_octave)


@dataclass(frozen=True, slots=True)
class UnlabeledPoint:
    """CSSL runs whose unlabeled size ``n = n_rel / w^2`` is swept at a fixed labeled size (claim iii-b).

    Several spreads run at once with common random numbers (the same c, relative labeled sample and
    privacy seeds for every w at each grid index).

    Parameters
    ----------
    epsilon : float > 0
        ε of PCDE and of the exponential mechanism.
    alpha : float in (0, 1)
        Target error α.
    spreads : tuple of float > 0
        The half-widths w of the laws.
    m : int >= 1
        Labeled sample size (the same relative sample ``t + w z`` for every w).
    n_synthetic : int >= 1
        Points drawn from PCDE's release.
    log10_n_rel : tuple of three float
        ``(first, last, step)`` of ``log10(n w^2)`` (:attr:`n_rel`).

    References
    ----------
    001 Theorem 4.11, Remark 4.12 (the unlabeled size depends on the law).

    Examples
    --------
    >>> p = UnlabeledPoint(1.0, 0.02, (0.2, 0.02), 64, 500, (1.0, 3.0, 1.0))
    >>> p.spreads, p.n_rel
    ((0.2, 0.02), (10.0, 100.0, 1000.0))
    """

    epsilon: float
    alpha: float
    spreads: tuple
    m: int
    n_synthetic: int
    log10_n_rel: tuple  # (first, last, step) of log10(n w^2)

    @property
    def n_rel(self) -> tuple:
        """The grid of ``n w^2`` (quarter or half decades).

        Returns
        -------
        tuple of float
            ``10 ** x`` for ``x = first, first + step, ...`` up to ``last`` (inclusive, within half a step).

        Examples
        --------
        >>> [round(v, 4) for v in UnlabeledPoint(1.0, 0.1, (0.2,), 16, 93, (0.0, 1.0, 0.5)).n_rel]
        [1.0, 3.1623, 10.0]
        """
        lo, hi, step = self.log10_n_rel
        return tuple(float(v) for v in 10 ** np.arange(lo, hi + step / 2, step))


# ------------------------------------------------------------------------------ the law, exactly
def cube_counts(t: float, w: float, n: int, side: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Counts of n points of ``U[t − w, t + w]`` in the cubes ``[k r, (k+1) r)`` (occupied ones), by one multinomial.

    This is the law of binning n uniform points, without drawing them: the probabilities are the cubes'
    overlaps with ``[t − w, t + w]`` divided by 2w.

    Parameters
    ----------
    t : float
        Centre of the law.
    w : float > 0
        Half-width of the law.
    n : int >= 0
        Number of points.
    side : float > 0
        Cube side r (PCDE's ``n^{-1/2}``); the grid is anchored at 0.
    rng : numpy.random.Generator
        Draws the multinomial.

    Returns
    -------
    cells : numpy.ndarray of int, shape (L, 1)
        Indices k of the occupied cubes, increasing.
    counts : numpy.ndarray of int64, shape (L,)
        Their counts (> 0, summing to n).

    References
    ----------
    001 Algorithm 3 line 3 (the cube histogram PCDE releases).

    Examples
    --------
    U[0, 1] on cubes of side 1/2: cubes 0 and 1 each get mass 1/2 (cube 2, [1, 1.5), gets 0); with 1000
    points both are occupied (an empty one has probability 2^-999):

    >>> cells, counts = cube_counts(0.5, 0.5, 1000, 0.5, np.random.default_rng(0))
    >>> cells.ravel().tolist(), int(counts.sum())
    ([0, 1], 1000)
    """
    k = np.arange(math.floor((t - w) / side), math.floor((t + w) / side) + 1)
    mass = np.maximum(0.0, np.minimum((k + 1) * side, t + w) - np.maximum(k * side, t - w))
    c = rng.multinomial(n, mass / mass.sum())
    keep = c > 0
    return k[keep][:, None], c[keep]


def threshold_law_errors(T, t: float, w: float) -> np.ndarray:
    """Exact error of ``1[x > T_j]`` under ``x ~ U[t − w, t + w]``, ``y = 1[x > t]``: mass between T_j and t.

    Parameters
    ----------
    T : numpy.ndarray of float, shape (H,)
        Thresholds (``-inf`` allowed).
    t : float
        The law's true threshold (its centre).
    w : float > 0
        Half-width of the law.

    Returns
    -------
    numpy.ndarray of float, shape (H,)
        ``|clip(T_j, t − w, t + w) − t| / (2w)``, in [0, 1/2].

    References
    ----------
    001 Theorem 4.10 (the error of each hypothesis of the finite class).

    Examples
    --------
    U[0.5, 1.5], t = 1: ``-inf`` and 0.5 label half of the mass wrong, 1.0 none, 2.0 (above the
    support) the upper half:

    >>> threshold_law_errors(np.array([-np.inf, 0.5, 1.0, 2.0]), 1.0, 0.5).tolist()
    [0.5, 0.5, 0.0, 0.5]
    """
    return np.abs(np.clip(T, t - w, t + w) - t) / (2 * w)


def interval_law_errors(a, b, t: float, w: float) -> np.ndarray:
    """Exact error of ``1[a < x <= b]``: mass of (a, b] left of t plus mass right of t outside (a, b].

    Parameters
    ----------
    a, b : array_like of float, shape (H,)
        Interval ends, ``a <= b`` (``(-inf, -inf)``: the empty labelling, all 0).
    t : float
        The law's true threshold.
    w : float > 0
        Half-width of the law ``U[t − w, t + w]``, labels ``y = 1[x > t]``.

    Returns
    -------
    numpy.ndarray of float, shape (H,)
        Errors in [0, 1].

    References
    ----------
    001 Theorem 4.10 (intervals on R, VC dimension 2).

    Examples
    --------
    U[0.5, 1.5], t = 1: the empty labelling misses the upper half (0.5); (1, 1.5] is exact; (1, 1.25]
    misses (1.25, 1.5] (0.25); (0.5, 1.5] labels the lower half 1 (0.5):

    >>> a, b = np.array([-np.inf, 1.0, 1.0, 0.5]), np.array([-np.inf, 1.5, 1.25, 1.5])
    >>> interval_law_errors(a, b, 1.0, 0.5).tolist()
    [0.5, 0.0, 0.25, 0.5]
    """
    lo, hi = t - w, t + w
    a, b = np.asarray(a), np.asarray(b)
    left = np.maximum(0.0, np.minimum(b, t) - np.maximum(a, lo))
    right_in = np.maximum(0.0, np.minimum(b, hi) - np.maximum(a, t))
    return (left + (hi - t) - right_in) / (2 * w)


def release_tv(cells, values, side: float, t: float, w: float) -> float:
    """Exact TV distance between ``U[t − w, t + w]`` and the renormalized release (1 if nothing was released).

    Parameters
    ----------
    cells : numpy.ndarray of int, shape (L, 1)
        Released cube indices k (cube ``[k r, (k+1) r)``).
    values : array_like of float, shape (L,)
        Released values (any positive scale: renormalized to a density ``v / (Σ v · r)``).
    side : float > 0
        Cube side r.
    t : float
        Centre of the law.
    w : float > 0
        Half-width of the law.

    Returns
    -------
    float
        ``½ ∫ |f − ĝ|`` in [0, 1]; 1.0 when nothing (or no positive mass) was released.

    References
    ----------
    001 Algorithm 3, Remark 4.1 (renormalization), Theorem 4.3 (TV consistency).

    Examples
    --------
    U[0, 1] on two cubes of side 1/2: equal values give the law itself; values 3 : 1 give densities 3/2 and
    1/2, at L1 distance 1/2, TV 1/4:

    >>> cells = np.array([[0], [1]])
    >>> release_tv(cells, [1, 1], 0.5, 0.5, 0.5), release_tv(cells, [3, 1], 0.5, 0.5, 0.5)
    (0.0, 0.25)
    >>> release_tv(np.zeros((0, 1), dtype=int), [], 0.5, 0.5, 0.5)
    1.0
    """
    v = np.asarray(values, dtype=float)
    if v.size == 0 or v.sum() <= 0:
        return 1.0  # nothing released: no density to compare, reported as the maximal distance
    g = v / (v.sum() * side)
    lo = cells[:, 0] * side
    ov = np.maximum(0.0, np.minimum(lo + side, t + w) - np.maximum(lo, t - w))
    l1 = np.sum(ov * np.abs(1.0 / (2 * w) - g) + (side - ov) * g) + (1.0 - ov.sum() / (2 * w))
    return 0.5 * float(l1)


def _synthetic(t, w, n, eps, n_syn, data, privacy):
    side = float(n) ** -0.5
    cells, counts = cube_counts(t, w, n, side, data)
    cells, values = pcde_release(cells, counts, n, side, epsilon=eps, delta=DELTA, rng=privacy)
    return cells, values, side, sample_released_density(cells, values, side, n_syn, privacy)[:, 0]


def em_summaries(q, epsilon, errors, alpha) -> tuple[np.ndarray, np.ndarray]:
    """``P(err > α)`` and ``E[err]`` under the exponential mechanism (or ERM) per row of error counts q (P, H).

    The same law as :func:`~simulations.estimators.cssl.em_log_probabilities` (tested), without logs:
    ``w_j = exp(−ε (q_j − min q) / 2)`` (ERM: ``1[q_j = min q]``), then two matrix-vector products.

    Parameters
    ----------
    q : array_like of float, shape (H,) or (P, H)
        Empirical error counts of the H hypotheses (one row per labeled prefix).
    epsilon : float > 0 or None
        ε of the exponential mechanism (score ``−q``, sensitivity 1); None: ERM, uniform over the
        minimizers.
    errors : numpy.ndarray of float, shape (H,)
        Each hypothesis's exact error under the law.
    alpha : float
        The level α.

    Returns
    -------
    p_fail : numpy.ndarray of float, shape (P,) (or () for 1-D q)
        ``P(err > α)`` under the mechanism's law.
    mean_err : numpy.ndarray of float, same shape
        ``E[err]``.

    References
    ----------
    001 Theorem 4.10 (the semi-private learner: exponential mechanism over the dichotomies).

    Examples
    --------
    Two hypotheses with 0 and 2 sample errors and law errors 0 and 1/2; at ε = ln 3 their weights are 1
    and 3^-1, so ``P(err > 0.1) = (1/3)/(4/3) = 1/4`` and ``E err = 1/8``; ERM picks the first:

    >>> import math
    >>> p, e = em_summaries([[0, 2]], math.log(3), np.array([0.0, 0.5]), 0.1)
    >>> np.round(p, 12).tolist(), np.round(e, 12).tolist()
    ([0.25], [0.125])
    >>> [x.tolist() for x in em_summaries([[0, 2]], None, np.array([0.0, 0.5]), 0.1)]
    [[0.0], [0.0]]
    """
    q = np.asarray(q, dtype=float)
    qmin = q.min(axis=-1, keepdims=True)
    wts = (q == qmin).astype(float) if epsilon is None else np.exp(-0.5 * epsilon * (q - qmin))
    z = wts.sum(axis=-1)
    return (np.einsum("...j,j->...", wts, (errors > alpha).astype(float)) / z,
            np.einsum("...j,j->...", wts, errors) / z)


def interval_em_summaries(T, X, y, prefixes, epsilon, t, w, alpha) -> tuple[np.ndarray, np.ndarray]:
    """:func:`em_summaries` for the interval class without forming the (P, H) error array.

    With ``D_k = #{y = 0, x <= T_k} − #{y = 1, x <= T_k}`` the interval ``(T_i, T_j]`` (i < j) makes
    ``n1 + D_j − D_i`` errors and the empty labelling ``n1``, so a pair's weight factorizes,
    ``exp(ε D_i / 2) · exp(−ε D_j / 2)`` (times a row constant): sums over the pairs are ``(A M) · B``
    with M the masked (i < j) matrix of ``1[err > α]`` or of the errors. Each row is shifted so that its
    best hypothesis has weight 1 (checked free of overflow).

    Parameters
    ----------
    T : numpy.ndarray of float, shape (k,)
        The thresholds of the synthetic sample, ``[-inf, u_(1), ..., u_(k-1)]``
        (:func:`~simulations.estimators.cssl.threshold_dichotomies`).
    X : numpy.ndarray of float, shape (m,)
        Labeled points.
    y : numpy.ndarray of int, shape (m,)
        Labels in {0, 1}.
    prefixes : sequence of int
        Non-decreasing labeled sizes in [0, m] (one row per prefix).
    epsilon : float > 0
        ε of the exponential mechanism.
    t : float
        The law's true threshold.
    w : float > 0
        Half-width of the law ``U[t − w, t + w]``.
    alpha : float
        The level α.

    Returns
    -------
    p_fail : numpy.ndarray of float, shape (P,)
        ``P(err > α)`` per prefix.
    mean_err : numpy.ndarray of float, shape (P,)
        ``E[err]`` per prefix.

    Raises
    ------
    ValueError
        If ``ε m / 2`` is too large for the factorized sums (an exponent above 700), or from
        :func:`~simulations.estimators.cssl.cumulative_label_counts` for bad prefixes.

    References
    ----------
    001 Theorem 4.10 (intervals, VC dimension 2).

    Examples
    --------
    Synthetic points 1 and 1.25 give four hypotheses: empty, (−inf, 1], (−inf, 1.25], (1, 1.25], with law
    errors 0.5, 1, 0.75, 0.25 under U[0.5, 1.5], t = 1. Without labels all weigh 1: ``P(err > 0.3) = 3/4``,
    ``E err = 2.5/4``. One label (1.1, 1): sample errors 1, 1, 0, 0, weights ``3^-q`` at ε = 2 ln 3:
    ``P = (5/3)/(8/3) = 0.625``, ``E err = 1.5/(8/3) = 0.5625``:

    >>> import math
    >>> T = np.array([-np.inf, 1.0, 1.25])
    >>> p, e = interval_em_summaries(T, np.array([1.1]), np.array([1]), [0, 1], 2 * math.log(3), 1.0, 0.5, 0.3)
    >>> np.round(p, 12).tolist(), np.round(e, 12).tolist()
    ([0.75, 0.625], [0.625, 0.5625])
    """
    if T.size < 2:  # no synthetic point: the empty labelling is the only hypothesis
        e0 = float(interval_law_errors(np.array([-np.inf]), np.array([-np.inf]), t, w)[0])
        return np.full(len(prefixes), float(e0 > alpha)), np.full(len(prefixes), e0)
    C1, C0 = cumulative_label_counts(T, X, y, prefixes)
    D = (C0 - C1).astype(float)
    rows = np.arange(D.shape[0])
    run = np.maximum.accumulate(D, axis=1)
    gain = run[:, :-1] - D[:, 1:]  # best D_i − D_j over i < j, per j
    jb = np.argmax(gain, axis=1) + 1
    ib = np.array([int(np.argmax(D[r, :jj])) for r, jj in zip(rows, jb)])
    top = gain[rows, jb - 1]  # max over pairs of D_i − D_j: the best pair makes n1 − top errors
    shift = np.minimum(top, 0.0)  # if the empty labelling is better (top < 0), it gets weight 1
    half = 0.5 * epsilon
    la = half * (D - D[rows, ib][:, None] + shift[:, None])
    lb = -half * (D - D[rows, jb][:, None])
    if max(np.max(la), np.max(lb)) > 700:
        raise ValueError("interval_em_summaries: ε·m/2 too large for the factorized sums (overflow)")
    A, B = np.exp(la), np.exp(lb)
    w_empty = np.exp(-half * (top - shift))
    k = T.size
    i, j = np.triu_indices(k, k=1)
    a, b = interval_dichotomies(T[1:])
    e = interval_law_errors(a, b, t, w)
    fail_m, err_m, mask = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    fail_m[i, j], err_m[i, j], mask[i, j] = e[1:] > alpha, e[1:], 1.0
    # einsum, not @: numpy's own loops; a multithreaded BLAS call on these small matrices is 30x slower
    # on a loaded 2-core machine
    z = (np.einsum("pi,ij->pj", A, mask) * B).sum(axis=1) + w_empty
    fail = ((np.einsum("pi,ij->pj", A, fail_m) * B).sum(axis=1) + w_empty * float(e[0] > alpha)) / z
    mean = ((np.einsum("pi,ij->pj", A, err_m) * B).sum(axis=1) + w_empty * e[0]) / z
    return fail, mean


def labeled_trial(cfg: LabeledPoint, trial: int, root_seed: int) -> dict:
    """Exact ``P(err > α | S_m, Û)`` and ``E[err | S_m, Û]`` over the m grid (thresholds: also the non-private ERM).

    One trial: PCDE's release of the unlabeled cube counts, ``cfg.n_synthetic`` synthetic points Û from
    it, one labeled sample of size ``m_max`` whose prefixes give every m of ``cfg.m``; the exponential
    mechanism's law over the dichotomies of Û is summarized exactly (not sampled).

    Parameters
    ----------
    cfg : LabeledPoint
        The run.
    trial : int >= 0
        Trial index.
    root_seed : int >= 0
        The run's root seed (DATA stream: cube counts and labeled sample; PRIVACY stream: PCDE's noise and
        the synthetic sample).

    Returns
    -------
    dict of str to numpy.ndarray, each of shape (len(cfg.m),)
        ``p_fail`` in [0, 1] and ``mean_err`` (thresholds: in [0, 1/2]; intervals: in [0, 1]); for
        thresholds also ``p_fail_erm`` and ``mean_err_erm`` of the non-private ERM on the same Û.

    Raises
    ------
    ValueError
        For a negative ``trial`` / ``root_seed``, or from :func:`interval_em_summaries`.

    References
    ----------
    001 Theorems 4.10, 4.11, Definition 4.8; Algorithm 3 (PCDE).

    Examples
    --------
    n w^2 = 100 (PCDE's cubes of side w/10 hold about 125 points, above the threshold ≈ 30):

    >>> out = labeled_trial(LabeledPoint("thresholds", 1.0, 0.1, 0.2, 2500, 93, 4, 16, 1), 0, 1)
    >>> sorted(out), out["p_fail"].shape
    (['mean_err', 'mean_err_erm', 'p_fail', 'p_fail_erm'], (3,))
    >>> bool(np.all((out["p_fail"] >= 0) & (out["p_fail"] <= 1))), bool(np.all(out["mean_err"] <= 0.5))
    (True, True)
    """
    data, privacy, _ = trial_streams(cfg, trial, root_seed)
    w = cfg.spread
    t = CENTER * w
    _, _, _, U = _synthetic(t, w, cfg.n_unlabeled, cfg.epsilon, cfg.n_synthetic, data, privacy)
    ms = cfg.m
    X = t - w + 2 * w * data.random(ms[-1])
    y = (X > t).astype(np.int64)
    T = threshold_dichotomies(U)
    if cfg.hypothesis_class == "intervals":
        fail, mean = interval_em_summaries(T, X, y, ms, cfg.epsilon, t, w, cfg.alpha)
        return {"p_fail": fail, "mean_err": mean}
    q, e = threshold_errors(T, X, y, ms), threshold_law_errors(T, t, w)
    out = {}
    for tag, eps in (("", cfg.epsilon), ("_erm", None)):
        out["p_fail" + tag], out["mean_err" + tag] = em_summaries(q, eps, e, cfg.alpha)
    return out


def sorted_threshold_errors(T, x1_sorted, x0_sorted) -> np.ndarray:
    """Errors of the thresholds T on a sample given as its sorted 1-labelled and 0-labelled points.

    ``#{x1 <= T_j} + #{x0 > T_j}`` by two binary searches; equals
    :func:`~simulations.estimators.cssl.threshold_errors` (tested).

    Parameters
    ----------
    T : numpy.ndarray of float, shape (H,)
        Thresholds.
    x1_sorted : numpy.ndarray of float, shape (m1,)
        The points labelled 1, increasing.
    x0_sorted : numpy.ndarray of float, shape (m0,)
        The points labelled 0, increasing.

    Returns
    -------
    numpy.ndarray of int64, shape (H,)
        The error counts of ``1[x > T_j]``.

    References
    ----------
    001 Theorem 4.10 (the empirical errors the exponential mechanism scores).

    Examples
    --------
    ``-inf`` labels the 0-point 0.2 wrong; 0.5 labels both points right:

    >>> sorted_threshold_errors(np.array([-np.inf, 0.5]), np.array([0.9]), np.array([0.2])).tolist()
    [1, 0]
    """
    return (np.searchsorted(x1_sorted, T, side="right")
            + (x0_sorted.size - np.searchsorted(x0_sorted, T, side="right"))).astype(np.int64)


def unlabeled_trial(cfg: UnlabeledPoint, trial: int, root_seed: int) -> dict:
    """Exact ``P(err > α | S, Û)`` and TV of the release over the grid ``n = n_rel / w^2``, per spread, shape (W, K).

    The law of spread w is ``t = c w`` with ``c ~ U[1.5, 3.5]`` drawn once per trial: the laws are scaled
    copies of one another (PCDE's grid is anchored at 0, so ``(w, n) -> (w/10, 100 n)`` rescales every cube
    by 1/10). The relative labeled sample and, at each grid index, the data and privacy streams are shared
    by all spreads (common random numbers), so what differs between spreads is only what the counts'
    magnitude changes in PCDE's release.

    Parameters
    ----------
    cfg : UnlabeledPoint
        The sweep.
    trial : int >= 0
        Trial index.
    root_seed : int >= 0
        The run's root seed.

    Returns
    -------
    dict of str to numpy.ndarray of float, shape (len(cfg.spreads), len(cfg.n_rel))
        ``p_fail`` (exponential mechanism over the thresholds, in [0, 1]) and ``tv`` (:func:`release_tv`,
        in [0, 1]).

    Raises
    ------
    ValueError
        For a negative ``trial`` / ``root_seed``.

    References
    ----------
    001 Theorem 4.11, Remark 4.12; Algorithm 3.

    Examples
    --------
    >>> cfg = UnlabeledPoint(1.0, 0.1, (0.2, 0.02), 16, 93, (1.0, 2.0, 1.0))
    >>> out = unlabeled_trial(cfg, 0, 1)
    >>> out["p_fail"].shape, out["tv"].shape, bool(np.all((out["tv"] >= 0) & (out["tv"] <= 1)))
    ((2, 2), (2, 2), True)
    """
    data, privacy, _ = trial_streams(cfg, trial, root_seed)
    c = CENTER_RANGE[0] + (CENTER_RANGE[1] - CENTER_RANGE[0]) * data.random()
    z = 2.0 * data.random(cfg.m) - 1.0  # labeled points at t + w z
    z1, z0 = np.sort(z[z > 0]), np.sort(z[z <= 0])
    seeds = [(d, p) for d, p in zip(data.bit_generator.seed_seq.spawn(len(cfg.n_rel)),
                                    privacy.bit_generator.seed_seq.spawn(len(cfg.n_rel)))]
    p_fail = np.empty((len(cfg.spreads), len(cfg.n_rel)))
    tv = np.empty_like(p_fail)
    for i, w in enumerate(cfg.spreads):
        t = c * w
        x1, x0 = t + w * z1, t + w * z0
        for k, (n_rel, (sd, sp)) in enumerate(zip(cfg.n_rel, seeds)):
            n = max(1, int(round(n_rel / w ** 2)))
            cells, values, side, U = _synthetic(t, w, n, cfg.epsilon, cfg.n_synthetic, np.random.default_rng(sd),
                                                np.random.default_rng(sp))
            T = threshold_dichotomies(U)
            fail, _ = em_summaries(sorted_threshold_errors(T, x1, x0), cfg.epsilon, threshold_law_errors(T, t, w),
                                   cfg.alpha)
            p_fail[i, k] = fail
            tv[i, k] = release_tv(cells, values, side, t, w)
    return {"p_fail": p_fail, "tv": tv}


# ------------------------------------------------------------------------------ crossings, intervals
def first_crossing(grid, curve, level: float) -> float:
    """Smallest x of the grid-interpolated curve with ``curve <= level`` (log-linear in x); inf if never.

    An infinite crossing means the need lies beyond the grid: an interval reaching it is reported as
    unbounded, i.e. inconclusive.

    Parameters
    ----------
    grid : sequence of float > 0, shape (K,)
        Increasing grid (here: labeled or unlabeled sizes).
    curve : array_like of float, shape (K,)
        Values on the grid (here: ``P(err > α)``).
    level : float
        The level (here: β).

    Returns
    -------
    float
        ``grid[0]`` if the curve starts at or below ``level``; else the interpolation, linear in
        ``log x``, between the first grid point at or below it and the one before; ``inf`` if none.

    References
    ----------
    001 Definition 4.8 (m(α, β): the smallest m with ``P(err > α) <= β``).

    Examples
    --------
    Half-way from 0.5 to 0 between 4 and 16 on a log scale is 8:

    >>> round(first_crossing([4, 16], [0.5, 0.0], 0.25), 9), first_crossing([4, 16], [0.5, 0.4], 0.25)
    (8.0, inf)
    >>> first_crossing([4, 16], [0.2, 0.1], 0.25)
    4.0
    """
    curve = np.asarray(curve, dtype=float)
    below = np.flatnonzero(curve <= level)
    if below.size == 0:
        return math.inf
    k = int(below[0])
    if k == 0:
        return float(grid[0])
    f0, f1 = curve[k - 1], curve[k]
    s = (f0 - level) / (f0 - f1)
    return float(math.exp(math.log(grid[k - 1]) + s * (math.log(grid[k]) - math.log(grid[k - 1]))))


def crossing_with_boot(grid, per_trial, level, rng, n_boot) -> tuple[float, np.ndarray]:
    """Crossing of the trial-mean curve and its bootstrap replicates (trials resampled), shape (n_boot,).

    Parameters
    ----------
    grid : sequence of float > 0, shape (K,)
        Increasing grid.
    per_trial : array_like of float, shape (trials, K)
        One curve per trial.
    level : float
        The level of :func:`first_crossing`.
    rng : numpy.random.Generator
        Draws the resampled trial indices.
    n_boot : int >= 1
        Number of replicates.

    Returns
    -------
    estimate : float
        :func:`first_crossing` of the mean curve.
    boot : numpy.ndarray of float, shape (n_boot,)
        The crossings of the resampled mean curves (``inf`` where one never crosses).

    References
    ----------
    001 Definition 4.8; the 95% intervals of m(α) in the claims.

    Examples
    --------
    Identical trials: every replicate equals the estimate (8, as in :func:`first_crossing`):

    >>> est, boot = crossing_with_boot([4, 16], [[0.5, 0.0], [0.5, 0.0]], 0.25, np.random.default_rng(0), 3)
    >>> round(est, 9), np.round(boot, 9).tolist()
    (8.0, [8.0, 8.0, 8.0])
    """
    per_trial = np.asarray(per_trial, dtype=float)
    est = first_crossing(grid, per_trial.mean(axis=0), level)
    idx = rng.integers(0, per_trial.shape[0], size=(n_boot, per_trial.shape[0]))
    means = per_trial[idx].mean(axis=1)
    return est, np.array([first_crossing(grid, row, level) for row in means])


def _ci(boot) -> tuple[float, float]:
    b = np.asarray(boot, dtype=float)
    if not np.all(np.isfinite(b)):
        return math.nan, math.nan
    lo, hi = np.quantile(b, [0.025, 0.975])
    return float(lo), float(hi)


def _slope(x, y) -> float:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    xc = x - x.mean()
    return float((xc * (y - y.mean())).sum() / (xc * xc).sum())


def _combine(verdicts) -> bool | None:
    if any(v == EXCLUDED for v in verdicts):
        return False
    return True if all(v == HOLDS for v in verdicts) else None


# ------------------------------------------------------------------------------------------ compute
def compute(ctx) -> ExperimentResult:
    """Run the labeled and unlabeled sweeps and PCL's contrast runs; state claims (i)-(v).

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper": :data:`PROFILES`), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Tables ``labeled_size_needed`` (m(α) per ε and α, with the non-private ERM's), ``needs_per_law``
        (labeled and unlabeled sizes needed per spread w) and ``error_vs_m`` (claim (i)'s curves); claims
        (i) error ∝ 1/m, (ii) m(α) ∝ 1/(εα), (iii) m(α) flat in w while the unlabeled size ∝ w^-2, (iv) PCL's
        failure on ``thresholds_contrast``'s family at the same labeled size, (v) intervals vs thresholds
        (omitted when its runs are absent); ``data`` for :func:`plot`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by :class:`RunContext`, before any work).

    References
    ----------
    001 Definitions 4.6-4.9, Theorems 4.2, 4.3, 4.10, 4.11, Remark 4.12, Section 1.

    Examples
    --------
    The run takes minutes (``paper_repro.py --only semi_supervised_learning``); the smoke profile:

    >>> PROFILES["smoke"].epsilons, PROFILES["smoke"].alphas
    ((1.0,), (0.1, 0.05))
    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    P = PROFILES[ctx.profile]
    smoke = ctx.profile == "smoke"
    opts = engine_options(ctx)
    # one bootstrap stream, drawn from by the claims in the order (i), (ii), (iii-a), (iii-b), (v)
    boot_rng = stream(ctx.seed, "semi_supervised_learning/bootstrap", 0, EVAL)
    r = _run_labeled_and_unlabeled(P, smoke, opts)
    claim_i, curves_i = _error_vs_m_claim(r, P, boot_rng)
    claim_ii, labeled_table, m_alpha, boots_ii = _labeled_size_claim(r, P, boot_rng)
    claim_iiia, m_w = _law_free_claim(r, P, boot_rng)
    claim_iiib, needs_table, n_u, tv_at = _unlabeled_size_claim(r, P, boot_rng, m_w)
    claim_iv, pcl, fail_at, m_star = _contrast_claim(r, P, smoke, opts, m_w)
    claim_v = _vc_claim(r, P, boot_rng, m_alpha, boots_ii)
    claims = [claim_i, claim_ii, claim_iiia, claim_iiib, claim_iv] + ([claim_v] if claim_v is not None else [])
    grid_pts, per = r.grid_pts, r.per
    data = {"curves_i": curves_i, "m_alpha": m_alpha, "epsilons": P.epsilons, "alphas": P.alphas,
            "m_w": m_w, "n_u": n_u, "spreads": list(r.w_pts), "pcl": dict(pcl),
            "fail_at": fail_at, "m_star": m_star, "alpha_b": r.alpha_b,
            "fail_curves": {a: (grid_pts[(1.0, a)].m, per[grid_pts[(1.0, a)]]["p_fail"].mean(axis=0))
                            for a in P.alphas if (1.0, a) in grid_pts}}
    tables = {"labeled_size_needed": labeled_table, "needs_per_law": needs_table, "error_vs_m": _error_table(curves_i)}
    notes = _notes(m_alpha, P.epsilons, P.alphas, r.w_pts, m_w, n_u, tv_at, pcl, m_star, P.grid_trials)
    return ExperimentResult(tables=tables, claims=claims, notes=notes, data=data)


@dataclass(frozen=True, slots=True)
class _Runs:
    """The trials of every claim: labeled-size sweeps (α grid, per law, intervals, fixed-size curves) and the
    unlabeled sweep, with their configs."""

    grid_pts: dict
    w_pts: dict
    vc_pt: LabeledPoint
    curve_pts: dict
    u_pt: UnlabeledPoint
    per: dict
    per_w: dict
    per_i: dict
    per_u: dict
    spreads: tuple
    alpha_b: float
    alpha_vc: float
    n_main: int
    m_u: int


def _run_labeled_and_unlabeled(P: Profile, smoke: bool, opts: dict) -> _Runs:
    """Run the labeled-size and unlabeled-size trials of claims (i), (ii), (iii-a), (iii-b) and (v)."""
    epsilons, n_tr, n_tr_w, n_tr_i, n_tr_u = P.epsilons, P.grid_trials, P.law_trials, P.curve_trials, P.unlabeled_trials
    alphas = P.alphas
    n_main = int(N_FACTOR / W_MAIN ** 2)
    spreads = SPREADS[2:4] if smoke else SPREADS

    # -- (ii) α grid per ε, thresholds, law W_MAIN; also (iii-a) at ALPHA_B for every w and (v)
    def lab_point(cls, eps, alpha, w):
        vc = VC_DIMENSION[cls]
        # m from below the non-private ERM's need (~1.6/α) to ~4x above the private need (~6 VC/(εα))
        lo = 2 ** math.floor(math.log2(0.5 / alpha))
        hi = 2 ** math.ceil(math.log2(24 * vc / (eps * alpha)))
        return LabeledPoint(cls, eps, alpha, w, int(N_FACTOR / w ** 2), n_semi(alpha, eps, vc), lo, hi, 4)

    grid_pts = {(eps, a): lab_point("thresholds", eps, a, W_MAIN) for eps in epsilons for a in alphas}
    alpha_b = alphas[-1] if smoke else ALPHA_B
    alpha_vc = alphas[-1] if smoke else ALPHA_VC
    w_pts = {w: lab_point("thresholds", 1.0, alpha_b, w) for w in spreads}
    vc_pt = lab_point("intervals", 1.0, alpha_vc, W_MAIN)
    lab_configs = list(dict.fromkeys([*grid_pts.values(), vc_pt]))
    res = run_trials(labeled_trial, lab_configs, n_tr, version="semi_supervised_learning/labeled/v2", **opts)
    per = {c: res.per_config[i] for i, c in enumerate(lab_configs)}
    res_w = run_trials(labeled_trial, list(w_pts.values()), n_tr_w, version="semi_supervised_learning/labeled/v2",
                       **opts)
    per_w = {c: res_w.per_config[i] for i, c in enumerate(w_pts.values())}

    # -- (i) error vs m at a fixed synthetic size, per ε
    curve_pts = {eps: LabeledPoint("thresholds", eps, 0.01, W_MAIN, n_main, N_SYNTHETIC_FIXED, 8,
                                   FIT_M[1] if smoke else 4096, 2) for eps in epsilons}
    res_i = run_trials(labeled_trial, list(curve_pts.values()), n_tr_i, version="semi_supervised_learning/labeled/v2",
                       **opts)
    per_i = {c: res_i.per_config[i] for i, c in enumerate(curve_pts.values())}

    # -- (iii-b) unlabeled size needed per w, at a fixed labeled size
    m_u = 2 ** math.ceil(math.log2(20 / alpha_b))
    u_pt = UnlabeledPoint(1.0, alpha_b, tuple(spreads), m_u, n_semi(alpha_b, 1.0), (-3.5, 1.5, 0.5 if smoke else 0.25))
    res_u = run_trials(unlabeled_trial, [u_pt], n_tr_u, version="semi_supervised_learning/unlabeled/v2", **opts)
    per_u = res_u.per_config[0]

    return _Runs(grid_pts=grid_pts, w_pts=w_pts, vc_pt=vc_pt, curve_pts=curve_pts, u_pt=u_pt, per=per, per_w=per_w,
                 per_i=per_i, per_u=per_u, spreads=tuple(spreads), alpha_b=alpha_b, alpha_vc=alpha_vc, n_main=n_main,
                 m_u=m_u)


def _error_vs_m_claim(r: _Runs, P: Profile, boot_rng) -> tuple[Claim, dict]:
    """(i) At a fixed unlabeled size the error falls like 1/m in the labeled size; also the curves."""
    curve_pts, per_i, n_main, n_boot, n_tr_i = r.curve_pts, r.per_i, r.n_main, P.n_boot, P.curve_trials
    rows_i, verdicts_i, curves_i = [], [], {}
    for eps, cfg in curve_pts.items():
        ms = np.array(cfg.m)
        E = per_i[cfg]["mean_err"]
        sel = (ms >= FIT_M[0]) & (ms <= FIT_M[1])
        est = _slope(np.log(ms[sel]), np.log(E[:, sel].mean(axis=0)))
        idx = boot_rng.integers(0, E.shape[0], size=(n_boot, E.shape[0]))
        boots = [_slope(np.log(ms[sel]), np.log(E[i][:, sel].mean(axis=0))) for i in idx]
        lo, hi = _ci(boots)
        v = interval_verdict(-1.0, lo, hi, ERR_SLOPE_MARGIN)
        verdicts_i.append(v)
        rows_i.append((eps, est, lo, hi, v, float(E[:, sel].mean(axis=0)[-1] * ms[sel][-1])))
        curves_i[eps] = (ms, E.mean(axis=0), np.quantile(E, 0.1, axis=0), np.quantile(E, 0.9, axis=0),
                         per_i[cfg]["mean_err_erm"].mean(axis=0))
    claim = Claim(
        claim=f"(i) At a fixed unlabeled size (n = {n_main:.0e} real, {N_SYNTHETIC_FIXED} synthetic points), the CSSL's "
              f"error falls like 1/m in the labeled size: log-log slope of E[err] vs m over m in {list(FIT_M)} "
              f"is −1 ± {ERR_SLOPE_MARGIN} for every ε",
        holds=_combine(verdicts_i), expected=-1.0, measured=rows_i[-1][1],
        detail="; ".join(f"ε = {e:g}: slope {s:.3f} [95% CI {lo:.3f}, {hi:.3f}] ({v}), m·E[err] at m = {FIT_M[1]}: "
                         f"{c:.2f}" for e, s, lo, hi, v, c in rows_i)
               + f"; law w = {W_MAIN}, {n_tr_i} trials, bootstrap over trials; margin: ERR_SLOPE_MARGIN", kind="paper")
    return claim, curves_i


def _labeled_size_claim(r: _Runs, P: Profile, boot_rng) -> tuple[Claim, dict, dict, dict]:
    """(ii) m(α) grows like 1/(εα); also its table, the crossings and their bootstrap."""
    grid_pts, per, epsilons, alphas, n_boot, n_tr = r.grid_pts, r.per, P.epsilons, P.alphas, P.n_boot, P.grid_trials
    m_alpha, rows_ii, verdicts_ii, boots_ii = {}, [], [], {}
    for (eps, a), cfg in grid_pts.items():
        est, boot = crossing_with_boot(cfg.m, per[cfg]["p_fail"], BETA, boot_rng, n_boot)
        erm, _ = crossing_with_boot(cfg.m, per[cfg]["p_fail_erm"], BETA, boot_rng, 1)
        m_alpha[(eps, a)] = (est, *_ci(boot), erm)
        boots_ii[(eps, a)] = boot
    for eps in epsilons:
        x = np.log([1.0 / (eps * a) for a in alphas])
        est = _slope(x, np.log([m_alpha[(eps, a)][0] for a in alphas]))
        B = np.stack([boots_ii[(eps, a)] for a in alphas], axis=1)
        ok = np.all(np.isfinite(B) & (B > 0), axis=1)
        boots = [_slope(x, np.log(r)) for r in B[ok]] if ok.all() else [math.nan]
        lo, hi = _ci(boots)
        v = interval_verdict(1.0, lo, hi, M_SLOPE_MARGIN)
        verdicts_ii.append(v)
        rows_ii.append((eps, est, lo, hi, v))
    const = {k: v[0] * k[0] * k[1] / math.log(1 / (k[1] * BETA)) for k, v in m_alpha.items()}
    claim = Claim(
        claim=f"(ii) The labeled size m(α) with P(err > α) <= β = {BETA} grows like 1/(εα) (001 Theorems 4.10-4.11, "
              f"VC = 1): log-log slope of m(α) vs 1/(εα) over α in {list(alphas)} is 1 ± {M_SLOPE_MARGIN} for every ε",
        holds=_combine(verdicts_ii), expected=1.0, measured=rows_ii[len(rows_ii) // 2][1],
        detail="; ".join(f"ε = {e:g}: slope {s:.3f} [95% CI {lo:.3f}, {hi:.3f}] ({v})" for e, s, lo, hi, v in rows_ii)
               + "; m(α)·εα/ln(1/(αβ)) (the O(·) constant) ranges "
               + f"{min(const.values()):.2f}-{max(const.values()):.2f}; n_semi = ⌈2/(εα)·ln(1/(αβ))⌉; {n_tr} trials per "
               "point; margin: M_SLOPE_MARGIN (the theorem's log factor)", kind="paper")
    table = {
        "epsilon": [k[0] for k in m_alpha], "alpha": [k[1] for k in m_alpha],
        "n_synthetic": [grid_pts[k].n_synthetic for k in m_alpha], "m_alpha": [v[0] for v in m_alpha.values()],
        "ci_low": [v[1] for v in m_alpha.values()], "ci_high": [v[2] for v in m_alpha.values()],
        "m_alpha_nonprivate_erm": [v[3] for v in m_alpha.values()],
        "m_eps_alpha_over_log": [const[k] for k in m_alpha]}

    return claim, table, m_alpha, boots_ii


def _law_free_claim(r: _Runs, P: Profile, boot_rng) -> tuple[Claim, dict]:
    """(iii-a) The labeled size needed does not depend on the law; also m(α) per spread."""
    w_pts, per_w, spreads, alpha_b, n_boot = r.w_pts, r.per_w, r.spreads, r.alpha_b, P.n_boot
    m_w, boots_w = {}, {}
    for w, cfg in w_pts.items():
        est, boot = crossing_with_boot(cfg.m, per_w[cfg]["p_fail"], BETA, boot_rng, n_boot)
        m_w[w], boots_w[w] = (est, *_ci(boot)), boot
    ref = W_MAIN if W_MAIN in w_pts else spreads[0]
    verdicts_iii, ratios = [], []
    for w in w_pts:
        if w == ref:
            continue
        r = np.log(boots_w[w] / boots_w[ref])
        lo, hi = _ci(r)
        verdicts_iii.append(interval_verdict(0.0, lo, hi, math.log(M_FLAT_FACTOR)))
        ratios.append((w, m_w[w][0] / m_w[ref][0], math.exp(lo) if math.isfinite(lo) else lo,
                       math.exp(hi) if math.isfinite(hi) else hi, verdicts_iii[-1]))
    worst = max(ratios, key=lambda r: abs(math.log(r[1])) if r[1] > 0 else math.inf)
    claim = Claim(
        claim=f"(iii-a) The labeled size needed does not depend on the law (Definition 4.8): m(α = {alpha_b}) for "
              f"w in {list(w_pts)} (n = {N_FACTOR}/w^2 unlabeled points each) is within a factor {M_FLAT_FACTOR} of "
              f"its value at w = {ref}",
        holds=_combine(verdicts_iii), expected=1.0, measured=worst[1],
        detail="; ".join(f"w = {w:g}: m(α) = {m_w[w][0]:.0f} [{m_w[w][1]:.0f}, {m_w[w][2]:.0f}]" for w in w_pts)
               + "; ratio to w = " + f"{ref:g}: " + "; ".join(f"w = {w:g}: {r:.3f} [{lo:.3f}, {hi:.3f}] ({v})"
                                                            for w, r, lo, hi, v in ratios)
               + "; margin: M_FLAT_FACTOR", kind="paper")
    return claim, m_w


def _unlabeled_size_claim(r: _Runs, P: Profile, boot_rng, m_w) -> tuple[Claim, dict, dict, dict]:
    """(iii-b) The unlabeled size needed grows like w^-2 (paired bootstrap: the laws share each trial's
    randomness); also the per-law table."""
    w_pts, per_u, spreads, alpha_b, m_u = r.w_pts, r.per_u, list(r.spreads), r.alpha_b, r.m_u
    n_rel, n_tr_u, n_boot = r.u_pt.n_rel, P.unlabeled_trials, P.n_boot
    n_u, boots_u, tv_at = {}, {}, {}
    idx = boot_rng.integers(0, n_tr_u, size=(n_boot, n_tr_u))
    for i, w in enumerate(spreads):
        grid = np.array(n_rel) / w ** 2
        curves = per_u["p_fail"][:, i, :]
        est = first_crossing(grid, curves.mean(axis=0), BETA)
        boot = np.array([first_crossing(grid, curves[r].mean(axis=0), BETA) for r in idx])
        n_u[w], boots_u[w] = (est, *_ci(boot)), boot
        k = int(np.argmin(np.abs(np.log(grid / est)))) if math.isfinite(est) else grid.size - 1
        tv_at[w] = float(per_u["tv"][:, i, k].mean())
    pair = NU_PAIR if all(w in spreads for w in NU_PAIR) else tuple(spreads[-2:])
    r = np.log10(boots_u[pair[1]] / boots_u[pair[0]])
    lo, hi = _ci(r)
    est = math.log10(n_u[pair[1]][0] / n_u[pair[0]][0])
    expected_dec = 2 * math.log10(pair[0] / pair[1])
    v = interval_verdict(expected_dec, lo, hi, NU_DECADES_MARGIN)
    claim = Claim(
        claim=f"(iii-b) The unlabeled size needed depends on the law: as it concentrates, n_U(α = {alpha_b}) grows like "
              f"w^-2 (PCDE's cube side n^(-1/2) must shrink with w): n_U(w = {pair[1]:g}) / n_U(w = {pair[0]:g}) = "
              f"10^{expected_dec:g} ± {NU_DECADES_MARGIN} decade",
        holds=_combine([v]), expected=expected_dec, measured=est,
        detail=f"log10 ratio {est:.3f} [95% CI {lo:.3f}, {hi:.3f}] ({v}); n_U per w (m = {m_u} labeled, n_semi = "
               f"{n_semi(alpha_b, 1.0)}, {n_tr_u} trials, t = c w with c ~ U{list(CENTER_RANGE)}): "
               + "; ".join(f"w = {w:g}: {n_u[w][0]:.3g} [{n_u[w][1]:.3g}, {n_u[w][2]:.3g}], TV(f̂, f) there "
                           f"{tv_at[w]:.2f}" for w in spreads)
               + "; log10 n_U step per decade of w: " + ", ".join(
                   f"{a:g} -> {b:g}: {math.log10(n_u[b][0] / n_u[a][0]):.2f}" for a, b in zip(spreads, spreads[1:]))
               + " (2 once the counts are large; below the release threshold and counts' noise at the wide end)"
               + f"; the proof of Theorem 4.11 asks TV <= β/n_semi = {BETA / n_semi(alpha_b, 1.0):.1e}: far from necessary"
               "; the laws are scaled copies run with common random numbers (paired bootstrap), so the interval is "
               "tight: what is tested is that nothing but the counts' magnitude depends on w; margin: NU_DECADES_MARGIN", kind="beyond")
    table = {
        "spread": list(w_pts), "m_alpha": [m_w[w][0] for w in w_pts], "m_ci_low": [m_w[w][1] for w in w_pts],
        "m_ci_high": [m_w[w][2] for w in w_pts], "n_unlabeled_used": [w_pts[w].n_unlabeled for w in w_pts],
        "n_unlabeled_needed": [n_u[w][0] for w in w_pts], "n_ci_low": [n_u[w][1] for w in w_pts],
        "n_ci_high": [n_u[w][2] for w in w_pts], "tv_at_needed": [tv_at[w] for w in w_pts]}

    return claim, table, n_u, tv_at


def _contrast_claim(r: _Runs, P: Profile, smoke: bool, opts: dict, m_w) -> tuple[Claim, dict, dict, int]:
    """(iv) Contrast with thresholds_contrast: PCL on labeled data only, at the CSSL's labeled size m*."""
    w_pts, per_w, alpha_b = r.w_pts, r.per_w, r.alpha_b
    m_star = int(math.ceil(max(v[2] for v in m_w.values())))
    fail_at = {w: float(np.interp(math.log(m_star), np.log(w_pts[w].m), per_w[w_pts[w]]["p_fail"].mean(axis=0)))
               for w in w_pts}
    locs = LOCATIONS[:3] if smoke else LOCATIONS
    pcl_pts = [ThresholdPoint(loc, w, m_star) for w in w_pts for loc in locs]
    res_p = run_trials(threshold_trial, pcl_pts, P.pcl_trials, version="thresholds_contrast/v1", **opts)
    pcl_all = [t_interval(res_p.per_config[i]["pcl_eps1"]) for i in range(len(pcl_pts))]
    pcl = {w: max(s[0] for s, p in zip(pcl_all, pcl_pts) if p.spread == w) for w in w_pts}
    k_worst = int(np.argmax([s[0] for s in pcl_all]))
    mean, _, _, plo, phi = pcl_all[k_worst]
    if not (math.isfinite(plo) and math.isfinite(phi)):
        plo = phi = mean
    v_pcl = interval_verdict(0.5, plo, phi, 0.1)
    cssl_ok = all(f <= BETA for f in fail_at.values())
    claim = Claim(
        claim=f"(iv) 001 Section 1 / thresholds_contrast: at the labeled size m* where the CSSL has "
              f"P(err > {alpha_b}) <= {BETA} on every law of the grid, PCL (ε = 1, labeled data only) has excess error "
              "1/2 on the worst member of the family {t in thresholds_contrast.LOCATIONS} x {w}: 1-D thresholds become "
              "privately learnable with a law-free labeled size only through the private unlabeled data, whose size "
              "depends on the law (iii-b)",
        holds=(_combine([v_pcl]) if cssl_ok else False), expected=0.5, measured=mean,
        detail=f"m* = {m_star} (measured); PCL worst mean excess over the locations, per w: " + "; ".join(f"w = {w:g}: {pcl[w]:.3f}" for w in w_pts)
               + f"; worst member t = {pcl_pts[k_worst].threshold:.4f}, w = {pcl_pts[k_worst].spread:g}: {mean:.3f} "
               f"[{plo:.3f}, {phi:.3f}]; CSSL P(err > α) at m*: " + "; ".join(f"w = {w:g}: {f:.3f}"
                                                                           for w, f in fail_at.items())
               + "; expected 1/2: when PCL's cube side m*^(-1/2) exceeds 2w and t lies inside a cube, either bit errs "
                 "on half the mass (margin 0.1); PCL trials from thresholds_contrast.threshold_trial", kind="paper")
    return claim, pcl, fail_at, m_star


def _vc_claim(r: _Runs, P: Profile, boot_rng, m_alpha, boots_ii) -> Claim | None:
    """(v) VC(C) enters the labeled size: intervals against thresholds at α_vc, ε = 1 (None if not on the grid)."""
    grid_pts, per, vc_pt, alpha_vc, n_boot = r.grid_pts, r.per, r.vc_pt, r.alpha_vc, P.n_boot
    thr_cfg = grid_pts.get((1.0, alpha_vc))
    est_i, boot_i = crossing_with_boot(vc_pt.m, per[vc_pt]["p_fail"], BETA, boot_rng, n_boot)
    if thr_cfg is not None:
        est_t, boot_t = m_alpha[(1.0, alpha_vc)][0], boots_ii[(1.0, alpha_vc)]
        lo, hi = _ci(boot_i / boot_t)
        mid, half = sum(VC_RATIO_RANGE) / 2, (VC_RATIO_RANGE[1] - VC_RATIO_RANGE[0]) / 2
        v = interval_verdict(mid, lo, hi, half)
        return Claim(
            claim=f"(v) VC(C) enters the labeled size: intervals (VC 2) need between {VC_RATIO_RANGE[0]:g} and "
                  f"2 ln(2/β)/ln(1/β) = {VC_RATIO_RANGE[1]:.3g} times the labels of thresholds (VC 1) at α = {alpha_vc}, "
                  "ε = 1",
            holds=_combine([v]), expected=VC_RATIO_RANGE[1], measured=est_i / est_t,
            detail=f"m(α): intervals {est_i:.0f} (n_semi = {vc_pt.n_synthetic}: "
                   f"{1 + vc_pt.n_synthetic * (vc_pt.n_synthetic + 1) // 2} hypotheses), thresholds {est_t:.0f}; ratio "
                   f"{est_i / est_t:.3f} [95% CI {lo:.3f}, {hi:.3f}] ({v}); band VC_RATIO_RANGE (the sum of the "
                   "two end-point errors; union bound for the top)", kind="paper")

    return None


def _error_table(curves_i) -> dict:
    """Claim (i)'s curves as a table: mean error (and the non-private ERM's) per (ε, m)."""
    return {
        "epsilon": [e for e in curves_i for _ in curves_i[e][0]], "m": [int(m) for e in curves_i for m in curves_i[e][0]],
        "mean_err": [float(v) for e in curves_i for v in curves_i[e][1]],
        "mean_err_nonprivate_erm": [float(v) for e in curves_i for v in curves_i[e][4]]}


def _notes(m_alpha, epsilons, alphas, w_pts, m_w, n_u, tv_at, pcl, m_star, n_tr) -> str:
    lines = ["| ε \\ α | " + " | ".join(f"{a:g}" for a in alphas) + " |", "| --- |" + " --- |" * len(alphas)]
    for eps in epsilons:
        lines.append(f"| {eps:g} | " + " | ".join(f"{m_alpha[(eps, a)][0]:.0f} (ERM {m_alpha[(eps, a)][3]:.0f})"
                                                 for a in alphas) + " |")
    lines += ["", "| w | m(α) labeled | n unlabeled used | n_U unlabeled needed | TV(f̂, f) at n_U | PCL excess at m* |",
              "| --- | --- | --- | --- | --- | --- |"]
    for w in w_pts:
        lines.append(f"| {w:g} | {m_w[w][0]:.0f} | {w_pts[w].n_unlabeled:.2g} | {n_u[w][0]:.3g} | {tv_at[w]:.2f} | "
                     f"{pcl[w]:.3f} |")
    return ("Labeled size m(α) needed for P(err > α) <= β = 0.1 (law w = 0.02; in brackets the non-private ERM on the "
            f"same synthetic points, Remark 4.12's O(VC/α) floor), {n_tr} trials per point:\n\n"
            + "\n".join(lines[:2 + len(epsilons)])
            + f"\n\nPer law (α = {ALPHA_B}, ε = 1; m* = {m_star}): the labeled need is flat in w, the unlabeled need is "
            "not: it grows like w^-2 as the law concentrates (PCDE's cube side must reach the scale of w) and also for the "
            "widest law, where the cubes' counts must pass the stability histogram's release threshold (2/ε)ln(2/δ)+1 ≈ 30. "
            "The learner succeeds although TV(f̂, f) is far above the β/n_semi the proof of Theorem 4.11 asks for: what "
            "it needs is synthetic points that cover the support finely (an α-net of dichotomies), not a close density.\n\n"
            + "\n".join(lines[2 + len(epsilons):]))


# ---------------------------------------------------------------------------------------------- plot
def plot(result: ExperimentResult) -> dict:
    """Two figures: error vs labeled size (claim i and the failure curves), and the sample sizes needed (ii-iv).

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data``).

    Returns
    -------
    dict
        ``{"error_vs_m": Figure, "sample_sizes": Figure}`` (matplotlib figures).

    References
    ----------
    001 Theorems 4.10, 4.11, Definition 4.8, Section 1.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> sorted(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['error_vs_m', 'sample_sizes']
    """
    D = result.data
    fig1, axes = figure(1, 2, width=4.6, height=3.5,
                        title="Private CSSL (001 Theorem 4.11), thresholds, x ~ U[t−w, t+w], w = 0.02: "
                              "error vs labeled size m")
    ax = axes[0]
    for i, (eps, (ms, mean, lo, hi, erm)) in enumerate(D["curves_i"].items()):
        ax.plot(ms, mean, marker=MARKERS[i], ms=3, color=color(i), label=f"ε = {eps:g}")
        ax.fill_between(ms, np.maximum(lo, 1e-7), hi, color=color(i), alpha=0.15, lw=0)
    ax.plot(ms, erm, "k--", lw=1.2, label="non-private ERM, same Û")
    ax.plot(ms, 2.0 / ms, ":", color="grey", label="2/m (slope −1)")
    ax.axvspan(*FIT_M, color="grey", alpha=0.07)
    ax.set(xscale="log", yscale="log", xlabel="labeled size m", ylabel="E[err] (mean; band: 10-90% of trials)",
           title=f"fixed unlabeled size, {N_SYNTHETIC_FIXED} synthetic points")
    ax.legend(fontsize=7)
    ax = axes[1]
    for i, (a, (ms, f)) in enumerate(D["fail_curves"].items()):
        ax.plot(ms, np.maximum(f, 1e-4), marker=MARKERS[i], ms=3, color=color(i), label=f"α = {a:g}")
    ax.axhline(BETA, color="k", ls="--", lw=1, label=f"β = {BETA}")
    ax.set(xscale="log", yscale="log", xlabel="labeled size m", ylabel="P(err > α) (exact given S, Û; floor 1e-4)",
           title="ε = 1: failure probability per target α")
    ax.legend(fontsize=7)
    return {"error_vs_m": fig1, "sample_sizes": _sample_sizes_figure(D)}


def _sample_sizes_figure(D: dict):
    """Claims (ii)-(iv): m(α) vs 1/(εα), the needs per law, CSSL vs PCL at the same labeled size."""
    fig2, axes = figure(1, 3, width=4.2, height=3.5,
                        title="Labeled size needed: uniform in the law (001 Definition 4.8); "
                              "unlabeled size: law-dependent")
    ax = axes[0]
    for i, eps in enumerate(D["epsilons"]):
        xs = np.array([1.0 / (eps * a) for a in D["alphas"]])
        v = np.array([D["m_alpha"][(eps, a)][:3] for a in D["alphas"]])
        ax.errorbar(xs, v[:, 0], yerr=[v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]], marker=MARKERS[i], ms=4, capsize=2,
                    color=color(i), label=f"ε = {eps:g}")
    xs_all = np.array([1.0 / (e * a) for e in D["epsilons"] for a in D["alphas"]])
    ref = np.median([D["m_alpha"][(e, a)][0] * e * a for e in D["epsilons"] for a in D["alphas"]])
    ax.plot(np.sort(xs_all), ref * np.sort(xs_all), ":", color="grey", label="∝ 1/(εα)")
    ax.set(xscale="log", yscale="log", xlabel="1/(εα)", ylabel="m(α): P(err > α) <= 0.1",
           title="m(α) vs 1/(εα) (95% CI)")
    ax.legend(fontsize=7)
    ax = axes[1]
    ws = np.array(D["spreads"])
    m = np.array([D["m_w"][w] for w in ws])
    n = np.array([D["n_u"][w] for w in ws])
    ax.errorbar(ws, m[:, 0], yerr=[m[:, 0] - m[:, 1], m[:, 2] - m[:, 0]], marker="o", capsize=2, color=color(0),
                label="labeled m(α)")
    ax.errorbar(ws, n[:, 0], yerr=[n[:, 0] - n[:, 1], n[:, 2] - n[:, 0]], marker="s", capsize=2, color=color(1),
                label="unlabeled n_U(α)")
    small = ws <= 0.002
    ax.plot(ws[small], n[-1, 0] * (ws[small] / ws[-1]) ** -2.0, ":", color="grey", label="∝ w^-2")
    ax.set(xscale="log", yscale="log", xlabel="spread w of the law", ylabel="sample size needed",
           title=f"needs per law (α = {D['alpha_b']}, ε = 1)")
    ax.legend(fontsize=7)
    ax = axes[2]
    x = np.arange(len(ws))
    ax.bar(x - 0.2, [D["fail_at"][w] for w in ws], width=0.4, color=color(0), label="CSSL: P(err > α)")
    ax.bar(x + 0.2, [D["pcl"][w] for w in ws], width=0.4, color=color(1), label="PCL (labeled only): excess")
    ax.axhline(BETA, color="k", ls="--", lw=1)
    ax.set_xticks(x, [f"{w:g}" for w in ws])
    ax.set(xlabel="spread w", ylabel="error measure", ylim=(0, 0.6),
           title=f"same labeled size m* = {D['m_star']}")
    ax.legend(fontsize=7)
    return fig2


# Registered through simulations/experiments/catalogue.py ("semi_supervised_learning"):
# name, what it reproduces, report order.
