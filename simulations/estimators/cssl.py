"""Private consistent semi-supervised learning on the line (001 Section 4.1, Theorems 4.10-4.11).

Two learners for two concrete classes on R, ``"thresholds"`` ``h_t(x) = 1[x > t]`` (VC dimension 1)
and ``"intervals"`` ``h_{a,b}(x) = 1[a < x <= b]`` (VC dimension 2):

* :class:`SemiPrivateLearner` -- the semi-private learner behind 001 Theorem 4.10 (Beimel, Nissim,
  Stemmer 2016 style). The public unlabeled points ``U`` fix a finite hypothesis set: one
  representative per labelling of ``U`` by the class (its *dichotomies*, :func:`threshold_dichotomies`,
  :func:`interval_dichotomies`; ``|U| + 1`` of them for thresholds and ``1 + |U|(|U|+1)/2`` for
  intervals, Sauer's bound :func:`sauer_bound` with equality). The exponential mechanism then picks
  hypothesis ``j`` with probability ``∝ exp(−ε q_j / 2)``, ``q_j`` = its errors on the labeled sample
  ``S``. Replacing one labeled record changes every ``q_j`` by at most 1 (sensitivity 1), so the
  choice is ε-DP with respect to ``S`` for every fixed ``U`` (001 Definition 1.1's "differ on one
  point"; a label flip is a special case). ``epsilon=None`` is the non-private ERM (a uniform choice
  among the hypotheses of fewest errors).
* :class:`PrivateCSSL` -- the learner of the proof of 001 Theorem 4.11: PCDE (001 Algorithm 3,
  :class:`~simulations.estimators.pcde.PCDE`) on the unlabeled sample, a synthetic unlabeled sample
  ``Û`` of size ``n_synthetic`` drawn from the released density (:func:`sample_released_density`),
  then :class:`SemiPrivateLearner` on ``(S, Û)``.

Privacy of :class:`PrivateCSSL` (001 proof of Theorem 4.11, "by composition and post-processing"),
for inputs ``(S, U)`` and neighbours that differ in one record of ``S`` *or* one record of ``U``
(001 Definition 1.1 on the pair, the split into labeled and unlabeled part being public):

* a change in ``U``: ``f̂`` is (ε_U, δ)-DP (001 Theorem 4.2), ``Û`` and ``h`` are post-processing
  of ``f̂`` (``S`` fixed, fresh randomness);
* a change in ``S``: ``(f̂, Û)`` does not depend on ``S``, and for every ``Û`` the choice is
  ε_L-DP; a mixture over ``Û`` of ε_L-DP laws is ε_L-DP.

So the release ``(f̂, Û, h)`` is ``(max(ε_L, ε_U), δ)``-DP (parallel composition over the disjoint
parts). If one individual may appear in both samples (the same person's features in ``U`` and
record in ``S``), basic composition gives ``(ε_L + ε_U, δ)``. :meth:`PrivateCSSL.privacy_guarantee`
returns either; ``proofs_checks.cssl_check`` checks the labeled part exactly and reuses the exact
PCDE check for the unlabeled part.

References: 001 Definitions 1.1, 4.6-4.9, Theorems 4.2, 4.3, 4.10, 4.11, Remark 4.12, Algorithms 1, 3.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from scipy.special import logsumexp

from limits.validation import check_choice, check_int, check_positive, check_probability, check_real
from simulations.estimators.pcde import PCDE
from simulations.mechanisms import ExponentialMechanism, StabilityHistogram
from simulations.seeding import check_generator

from ._common import check_fitted
from ._sklearn import LabelDPEstimatorMixin

__all__ = ["CLASSES", "VC_DIMENSION", "PrivateCSSL", "SemiPrivateLearner", "cumulative_label_counts",
           "em_log_probabilities", "interval_dichotomies", "interval_errors", "pcde_release", "predict_hypotheses",
           "sample_released_density", "sauer_bound", "threshold_dichotomies", "threshold_errors"]

CLASSES = ("thresholds", "intervals")
#: VC dimension of each class on R
VC_DIMENSION = {"thresholds": 1, "intervals": 2}


# ----------------------------------------------------------------------------------------- guards
def _points_1d(X, name: str) -> np.ndarray:
    """``X`` of shape (n,) or (n, 1) as a finite float array of shape (n,)."""
    arr = np.asarray(X, dtype=float)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must have shape (n,) or (n, 1) (points of R), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{name} must be finite, got {name}[{i}]={arr[i]!r}")
    return arr


def _labels(y, n: int) -> np.ndarray:
    arr = np.asarray(y)
    if arr.shape != (n,):
        raise ValueError(f"y must have shape ({n},) (one label per point), got shape {arr.shape}")
    if arr.size and not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"y must hold labels in {{0, 1}}, got y={arr[:10]!r}")
    return arr.astype(np.int64)


def _epsilon_or_none(epsilon):
    return None if epsilon is None else check_positive("epsilon", epsilon)


# ----------------------------------------------------------------------------------- dichotomies
def sauer_bound(n: int, vc: int) -> int:
    """Sauer-Shelah bound ``Σ_{i <= d} C(n, i)`` on the number of labellings of n points by a class of VC dimension d.

    Parameters
    ----------
    n : int >= 0
        Number of (distinct) points.
    vc : int >= 0
        VC dimension d.

    Returns
    -------
    int

    References
    ----------
    Sauer (1972), Shelah (1972); used by 001 Theorem 4.10 (via Beimel et al. 2016) to make the
    class restricted to the public points finite.

    Examples
    --------
    >>> sauer_bound(5, 1), sauer_bound(5, 2)
    (6, 16)
    """
    n, vc = check_int("n", n, low=0), check_int("vc", vc, low=0)
    return sum(math.comb(n, i) for i in range(min(n, vc) + 1))


def threshold_dichotomies(U) -> np.ndarray:
    """One threshold per labelling of the public points by ``h_t(x) = 1[x > t]``.

    Parameters
    ----------
    U : array_like, shape (n,) or (n, 1)
        Public unlabeled points (duplicates allowed: they are merged).

    Returns
    -------
    ndarray, shape (k + 1,)
        ``[-inf, u_(1), ..., u_(k)]`` over the k distinct values in increasing order: ``t = u_(i)``
        labels ``u_(1..i)`` 0 and the rest 1, ``t = -inf`` labels everything 1. These are all the
        ``k + 1`` dichotomies (Sauer's bound with d = 1, attained).

    References
    ----------
    001 Theorem 4.10 (finite hypothesis set from the public sample).

    Examples
    --------
    >>> threshold_dichotomies([0.7, 0.2, 0.7]).tolist()
    [-inf, 0.2, 0.7]
    """
    u = np.unique(_points_1d(U, "U"))
    return np.concatenate([[-np.inf], u])


def interval_dichotomies(U) -> tuple[np.ndarray, np.ndarray]:
    """One interval ``(a, b]`` per labelling of the public points by ``h_{a,b}(x) = 1[a < x <= b]``.

    Parameters
    ----------
    U : array_like, shape (n,) or (n, 1)
        Public unlabeled points (duplicates are merged).

    Returns
    -------
    a, b : ndarray, shape (1 + k(k+1)/2,)
        First the empty labelling ``(a, b) = (-inf, -inf)``, then every non-empty block
        ``u_(i+1..j)`` of consecutive sorted distinct points as ``(a, b) = (u_(i), u_(j))``,
        ``0 <= i < j <= k`` with ``u_(0) = -inf``, ordered by ``(i, j)``. Sauer's bound with d = 2,
        ``1 + k + C(k, 2)``, is attained.

    References
    ----------
    001 Theorem 4.10.

    Examples
    --------
    >>> a, b = interval_dichotomies([0.5, 0.1])
    >>> list(zip(a.tolist(), b.tolist()))
    [(-inf, -inf), (-inf, 0.1), (-inf, 0.5), (0.1, 0.5)]
    """
    t = threshold_dichotomies(U)
    i, j = np.triu_indices(t.size, k=1)
    return np.concatenate([[-np.inf], t[i]]), np.concatenate([[-np.inf], t[j]])


def predict_hypotheses(hypothesis_class: str, params, X) -> np.ndarray:
    """Predictions of H hypotheses at n points: ``1[x > t]`` (thresholds) or ``1[a < x <= b]`` (intervals).

    Parameters
    ----------
    hypothesis_class : {"thresholds", "intervals"}
        The class of the hypotheses.
    params : array_like or pair of array_like
        Thresholds ``t`` of shape (H,), or a pair ``(a, b)`` of interval ends, each of shape (H,).
    X : array_like, shape (n,) or (n, 1)
        Points of R.

    Returns
    -------
    ndarray, int64, shape (H, n)

    Raises
    ------
    ValueError
        If ``hypothesis_class`` is unknown or ``X`` is not 1-D points.

    References
    ----------
    001 Theorem 4.10 (thresholds and intervals on R, VC dimensions 1 and 2).

    Examples
    --------
    >>> predict_hypotheses("thresholds", [-np.inf, 0.5], [0.2, 0.9]).tolist()
    [[1, 1], [0, 1]]
    """
    check_choice("hypothesis_class", hypothesis_class, CLASSES)
    x = _points_1d(X, "X")
    if hypothesis_class == "thresholds":
        t = np.asarray(params, dtype=float)
        return (x[None, :] > t[:, None]).astype(np.int64)
    a, b = (np.asarray(p, dtype=float) for p in params)
    return ((x[None, :] > a[:, None]) & (x[None, :] <= b[:, None])).astype(np.int64)


# --------------------------------------------------------------------------------- error counts
def cumulative_label_counts(thresholds, X, y, prefixes) -> tuple[np.ndarray, np.ndarray]:
    """Counts of each label at or below each threshold, on each prefix of the labeled sample.

    Parameters
    ----------
    thresholds : array_like, shape (H,)
        Increasing thresholds.
    X : array_like, shape (m,) or (m, 1)
        Labeled points.
    y : array_like, shape (m,)
        Labels in {0, 1}.
    prefixes : sequence of int
        Non-decreasing sample sizes in [0, m]; row p counts the first ``prefixes[p]`` points.

    Returns
    -------
    C1, C0 : int64 arrays, shape (P, H)
        ``C1[p, j] = #{i < m_p : y_i = 1, x_i <= t_j}``, ``C0`` likewise for label 0. One bincount and
        two cumulative sums over a (P, H + 1) table: O(m + P H).

    Raises
    ------
    ValueError
        If ``prefixes`` is not non-decreasing in [0, m], or ``X`` / ``y`` are malformed.

    References
    ----------
    001 Theorem 4.10 (the empirical errors the exponential mechanism scores).

    Examples
    --------
    >>> C1, C0 = cumulative_label_counts([-np.inf, 0.5], [0.2, 0.9, 0.4], [1, 1, 0], [1, 3])
    >>> C1.tolist(), C0.tolist()
    ([[0, 1], [0, 1]], [[0, 0], [0, 1]])
    """
    x = _points_1d(X, "X")
    y = _labels(y, x.size)
    t = np.asarray(thresholds, dtype=float)
    H = t.size
    pref = np.asarray(prefixes, dtype=np.int64)
    if pref.ndim != 1 or pref.size == 0 or pref.min() < 0 or pref.max() > x.size or np.any(np.diff(pref) < 0):
        raise ValueError(f"prefixes must be non-decreasing sizes in [0, {x.size}], got prefixes={prefixes!r}")
    # k_i = #{t_j < x_i}: x_i <= t_j  <=>  j >= k_i  (t sorted increasing)
    k = np.searchsorted(t, x, side="left")
    block = np.searchsorted(pref, np.arange(x.size), side="right")  # the first prefix holding point i
    keep = block < pref.size
    out = []
    for lab in (1, 0):
        sel = keep & (y == lab)
        flat = np.bincount(block[sel] * (H + 1) + k[sel], minlength=pref.size * (H + 1))
        hist = np.cumsum(flat.reshape(pref.size, H + 1), axis=0)  # over prefixes
        out.append(np.cumsum(hist, axis=1)[:, :H])  # #{x_i <= t_j}: k_i <= j
    return out[0], out[1]


def threshold_errors(thresholds, X, y, prefixes=None) -> np.ndarray:
    """Errors of every threshold on the labeled sample (or on each of its prefixes).

    Parameters
    ----------
    thresholds : array_like, shape (H,)
        Increasing thresholds (as returned by :func:`threshold_dichotomies`).
    X : array_like, shape (m,) or (m, 1)
    y : array_like, shape (m,), labels in {0, 1}
    prefixes : sequence of int, optional
        Non-decreasing sizes ``m_p <= m``; the errors on the first ``m_p`` records each.

    Returns
    -------
    ndarray, int64, shape (H,) or (P, H)
        ``q_j = #{i : 1[x_i > t_j] != y_i}``.

    Examples
    --------
    >>> threshold_errors([-np.inf, 0.5], [0.2, 0.9], [0, 1]).tolist()
    [1, 0]
    """
    m = np.shape(y)[0] if np.ndim(y) else 0
    pref = [m] if prefixes is None else prefixes
    C1, C0 = cumulative_label_counts(thresholds, X, y, pref)
    q = (C1 + (_class_totals(y, pref, 0) - C0)).astype(np.int64)
    return q[0] if prefixes is None else q


def _class_totals(y, prefixes, lab) -> np.ndarray:
    c = np.concatenate([[0], np.cumsum(np.asarray(y) == lab)])
    return c[np.asarray(prefixes, dtype=np.int64)][:, None]


def interval_errors(thresholds, X, y, prefixes=None) -> np.ndarray:
    """Errors of every interval dichotomy of :func:`interval_dichotomies` on the labeled sample.

    Parameters
    ----------
    thresholds : array_like, shape (k + 1,)
        ``[-inf, u_(1), ..., u_(k)]`` (:func:`threshold_dichotomies` of the same public points).
    X, y, prefixes : as in :func:`threshold_errors`.

    Returns
    -------
    ndarray, int64, shape (1 + k(k+1)/2,) or (P, 1 + k(k+1)/2)
        In the order of :func:`interval_dichotomies`: ``q(a, b) = #{y = 1 outside (a, b]} +
        #{y = 0 inside (a, b]}``.

    Examples
    --------
    >>> interval_errors([-np.inf, 0.1, 0.5], [0.3, 0.9], [1, 0]).tolist()
    [1, 1, 0, 0]
    """
    m = np.shape(y)[0] if np.ndim(y) else 0
    pref = [m] if prefixes is None else prefixes
    t = np.asarray(thresholds, dtype=float)
    C1, C0 = cumulative_label_counts(t, X, y, pref)
    n1 = _class_totals(y, pref, 1)
    i, j = np.triu_indices(t.size, k=1)
    inside1, inside0 = C1[:, j] - C1[:, i], C0[:, j] - C0[:, i]
    q = np.concatenate([n1, n1 - inside1 + inside0], axis=1).astype(np.int64)
    return q[0] if prefixes is None else q


def em_log_probabilities(errors, epsilon) -> np.ndarray:
    """Log-probabilities of the exponential mechanism ``P(j) ∝ exp(−ε q_j / 2)`` along the last axis.

    Parameters
    ----------
    errors : array_like, shape (..., H)
        Error counts (utility ``−q``, sensitivity 1 under replacing one labeled record).
    epsilon : float > 0 or None
        None: the non-private ERM, uniform over the minimizers (``-inf`` elsewhere).

    Returns
    -------
    ndarray, float, shape (..., H)

    References
    ----------
    001 Theorem 4.10 (McSherry-Talwar exponential mechanism over the dichotomies).

    Examples
    --------
    >>> np.round(np.exp(em_log_probabilities([0, 2], 2 * np.log(2))), 6).tolist()  # weights 2^{-q}
    [0.8, 0.2]
    """
    q = np.asarray(errors, dtype=float)
    if q.ndim == 0 or q.shape[-1] == 0:
        raise ValueError(f"errors must have at least one hypothesis along the last axis, got shape {q.shape}")
    if epsilon is None:
        best = q == q.min(axis=-1, keepdims=True)
        with np.errstate(divide="ignore"):
            return np.where(best, -np.log(best.sum(axis=-1, keepdims=True)), -np.inf)
    s = -0.5 * check_positive("epsilon", epsilon) * q
    return s - logsumexp(s, axis=-1, keepdims=True)


# ----------------------------------------------------------------------------- semi-private SSL
class SemiPrivateLearner(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Semi-private learner: exponential mechanism over the dichotomies of public points (001 Theorem 4.10).

    Parameters
    ----------
    epsilon : float > 0 or None, default 1.0
        Privacy of the labeled sample (weights ``exp(−ε q / 2)``); None: non-private ERM.
    hypothesis_class : {"thresholds", "intervals"}
    random_state : None, int or numpy.random.Generator, default None
        Draws the choice at ``fit`` (the privacy stream): a Generator is drawn from as it is, an int seeds
        a fresh one at each ``fit``.

    Attributes
    ----------
    hypotheses_ : ndarray (H,) for thresholds; tuple of two (H,) arrays ``(a, b)`` for intervals
        One representative per dichotomy of the public points.
    errors_ : int64 (H,)
        Their errors on the labeled sample.
    log_probabilities_ : float (H,)
        Exact law of the choice (the mechanism's channel for this labeled sample).
    index_ : int
        The chosen hypothesis.
    n_public_, n_labeled_ : int
    n_features_in_ : int
        1 (points of R).
    classes_ : ndarray, [0, 1]

    References
    ----------
    001 Theorem 4.10 (Beimel, Nissim, Stemmer 2016; Bassily, Moran, Alon 2019), Definition 1.1.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> est = SemiPrivateLearner(epsilon=1.0, random_state=rng).fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1],
    ...                                                             X_public=[0.15, 0.5, 0.85])
    >>> len(est.errors_), int(est.errors_.min())
    (4, 0)
    >>> est.predict([0.0, 1.0]).shape
    (2,)
    """

    _label_domain = "binary"
    _points_of_r = True

    def __init__(self, *, epsilon: float | None = 1.0, hypothesis_class: str = "thresholds", random_state=None):
        self.epsilon = epsilon
        self.hypothesis_class = hypothesis_class
        self.random_state = random_state

    # the one place the score enters the mechanism (proofs_checks plants a bug here)
    def _utility(self, errors: np.ndarray) -> np.ndarray:
        """Non-negative integer utility ``max q − q_j`` (= −errors shifted; sensitivity 1)."""
        return errors.max() - errors

    def fit(self, X, y, *, X_public=None) -> "SemiPrivateLearner":
        """Pick a hypothesis for the labeled sample ``(X, y)`` among the dichotomies of ``X_public``.

        Parameters
        ----------
        X : array_like, shape (m,) or (m, 1)
        y : array_like, shape (m,), labels in {0, 1}
        X_public : array_like, shape (n,) or (n, 1), optional
            Public (or synthetic) unlabeled points; None: the points ``X`` themselves (public under
            label DP, where only the labels are private).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            On a bad ``epsilon``, ``hypothesis_class``, shapes or labels (before any work).

        References
        ----------
        001 Theorem 4.10 (exponential mechanism over the dichotomies of the public points).

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> est = SemiPrivateLearner(epsilon=1.0, random_state=rng).fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1],
        ...                                                             X_public=[0.15, 0.5, 0.85])
        >>> est.n_public_, est.n_labeled_, est.errors_.tolist()
        (3, 4, [2, 1, 0, 1])
        """
        X, y = self._check_input(X, y)
        eps = _epsilon_or_none(self.epsilon)
        check_choice("hypothesis_class", self.hypothesis_class, CLASSES)
        rng = self._random_generator()
        x = _points_1d(X, "X")
        labels = _labels(y, x.size)
        t = threshold_dichotomies(x if X_public is None else X_public)
        if self.hypothesis_class == "thresholds":
            hyp, q = t, threshold_errors(t, x, labels)
        else:
            hyp, q = interval_dichotomies(t[1:]), interval_errors(t, x, labels)
        H = q.size
        if eps is None or H == 1:
            lp = em_log_probabilities(q, None if H == 1 else eps)
            self.index_ = int(rng.choice(np.flatnonzero(np.isfinite(lp))))
        else:
            mech = ExponentialMechanism(num_classes=H, epsilon=eps)
            util = self._utility(q)[None, :]
            lp = mech.log_probabilities(util)[0]
            self.index_ = int(mech.sample(util, rng)[0])
        self.hypotheses_, self.errors_, self.log_probabilities_ = hyp, q, lp
        self.n_public_, self.n_labeled_ = int(t.size - 1), int(x.size)
        self.n_features_in_, self.classes_ = 1, np.array([0, 1])
        return self

    @property
    def n_hypotheses_(self) -> int:
        """Number of dichotomies of the public points, H (n + 1 thresholds for n distinct points).

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> est = SemiPrivateLearner(epsilon=1.0, random_state=rng).fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1],
        ...                                                             X_public=[0.15, 0.5, 0.85])
        >>> est.n_hypotheses_
        4
        """
        check_fitted(self, "errors_")
        return int(self.errors_.size)

    @property
    def hypothesis_(self):
        """The chosen hypothesis: a threshold t (float) or an interval (a, b).

        Examples
        --------
        >>> est = SemiPrivateLearner(epsilon=None, random_state=0).fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1],
        ...                                                        X_public=[0.15, 0.5, 0.85])
        >>> est.hypothesis_  # the only threshold with no error
        0.5
        """
        check_fitted(self, "index_")
        if self.hypothesis_class == "thresholds":
            return float(self.hypotheses_[self.index_])
        return float(self.hypotheses_[0][self.index_]), float(self.hypotheses_[1][self.index_])

    def predict(self, X) -> np.ndarray:
        """Labels of the chosen hypothesis at ``X``.

        Parameters
        ----------
        X : array_like, shape (n,) or (n, 1)
            Points of R.

        Returns
        -------
        ndarray of int64, shape (n,)

        Raises
        ------
        ValueError
            If the learner is not fitted or ``X`` is not 1-D points.

        Examples
        --------
        >>> est = SemiPrivateLearner(epsilon=None, random_state=0).fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1],
        ...                                                        X_public=[0.15, 0.5, 0.85])
        >>> est.predict([0.0, 0.7]).tolist()
        [0, 1]
        """
        self._check_predict_input(X)
        check_fitted(self, "index_")
        h = self.hypothesis_
        params = [h] if self.hypothesis_class == "thresholds" else ([h[0]], [h[1]])
        return predict_hypotheses(self.hypothesis_class, params, X)[0]


# ---------------------------------------------------------------------- synthetic unlabeled data
def pcde_release(cells, counts, n: int, side: float, *, epsilon: float, delta: float, rng):
    """PCDE's release from given cube counts: the lines of :meth:`PCDE.fit` after the binning.

    For experiments that draw the cube counts of n points directly (a multinomial over the cubes,
    the same law as binning n drawn points); :meth:`PCDE.fit` on the points gives the same release
    for the same ``rng`` (tested).

    Parameters
    ----------
    cells : array_like of int, shape (L, d)
        Occupied cubes.
    counts : array_like of int, shape (L,)
        Their counts (> 0).
    n : int >= 1
        Sample size.
    side : float > 0
        Cube side r.
    epsilon : float > 0
        ε of the stability histogram (001 Algorithm 1).
    delta : float in (0, 1)
        δ of the stability histogram.
    rng : numpy.random.Generator or int seed
        Draws the Laplace noise.

    Returns
    -------
    cells : ndarray of int64, shape (L', d)
        The released cubes (count kept).
    values : ndarray of float, shape (L',)
        The density ``ĉ / (n r^d)`` on them.

    References
    ----------
    001 Algorithm 3 (lines 4-6), Algorithm 1.

    Examples
    --------
    >>> cells, values = pcde_release([[0], [1]], [500, 1], 501, 0.5, epsilon=1.0, delta=1e-6, rng=0)
    >>> cells.tolist()  # the one-point cube stays below the release threshold (2/ε) ln(2/δ) + 1 ≈ 30
    [[0]]
    """
    cells = np.asarray(cells, dtype=np.int64)
    c = np.asarray(counts, dtype=np.int64)
    released = StabilityHistogram(epsilon, delta).release(c, check_generator(rng))
    keep = released > 0
    return cells[keep], released[keep] / (check_int("n", n, low=1) * side ** cells.shape[1])


def sample_released_density(cells, values, side: float, size: int, rng) -> np.ndarray:
    """``size`` points from the piecewise-constant density ``values[j]`` on cube ``cells[j]`` (side r).

    The density is renormalized (001 Remark 4.1: PCDE's release is non-negative; its mass need not
    be 1). A cube is drawn with probability ``values[j] / Σ values``, then a uniform point in it.

    Parameters
    ----------
    cells : array_like of int, shape (L, d)
        Cubes of the density.
    values : array_like of float, shape (L,)
        Density on each cube, >= 0.
    side : float > 0
        Cube side r.
    size : int >= 0
        Number of points.
    rng : numpy.random.Generator or int seed
        Draws the cubes and the points.

    Returns
    -------
    ndarray, shape (size, d)
        Empty (0, d) when the density is 0 everywhere (nothing was released).

    Raises
    ------
    ValueError
        If ``values`` is negative, not finite or of the wrong shape, ``side`` <= 0 or ``size`` < 0.

    References
    ----------
    001 proof of Theorem 4.11 (``Û ~ f̂^{n_semi}``), Remark 4.1.

    Examples
    --------
    >>> pts = sample_released_density([[0], [3]], [1.0, 3.0], 0.5, 4, np.random.default_rng(1))
    >>> pts.shape, bool(np.all(((pts >= 0) & (pts < 0.5)) | ((pts >= 1.5) & (pts < 2.0))))
    ((4, 1), True)
    """
    cells = np.atleast_2d(np.asarray(cells, dtype=np.int64))
    v = np.asarray(values, dtype=float)
    side = check_positive("side", side)
    size = check_int("size", size, low=0)
    rng = check_generator(rng)
    if v.shape != (cells.shape[0],) or np.any(~np.isfinite(v)) or np.any(v < 0):
        raise ValueError(f"values must be finite and >= 0, one per cell ({cells.shape[0]}), got shape {v.shape}")
    d = cells.shape[1] if cells.size else 1
    if v.size == 0 or v.sum() <= 0:
        return np.empty((0, d))
    cum = np.cumsum(v)
    j = np.minimum(np.searchsorted(cum, rng.random(size) * cum[-1], side="right"), v.size - 1)
    return (cells[j] + rng.random((size, d))) * side


# -------------------------------------------------------------------------------- Theorem 4.11
class PrivateCSSL(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Private consistent semi-supervised learner of 001 Theorem 4.11 (classes on R).

    PCDE (001 Algorithm 3) on the unlabeled sample, ``n_synthetic`` synthetic points drawn from its
    released density, then :class:`SemiPrivateLearner` on the labeled sample with the synthetic
    points as its public sample.

    Parameters
    ----------
    epsilon : float > 0
        ε_L of the labeled part (the exponential mechanism).
    epsilon_unlabeled : float > 0 or None
        ε_U of PCDE; None: equal to ``epsilon``.
    delta : float in (0, 1)
        δ of PCDE's stability histogram (001 Algorithm 1).
    n_synthetic : int >= 0
        n_semi, the size of the synthetic unlabeled sample (001 Theorem 4.10's unlabeled size).
    hypothesis_class : {"thresholds", "intervals"}
    side : float > 0 or None
        PCDE's cube side; None: ``n^{-1/2}`` (001 Algorithm 3 with d = 1).
    random_state : None, int or numpy.random.Generator, default None
        PCDE's noise, the synthetic draws and the choice at ``fit``, in this order: a Generator is drawn
        from as it is, an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    density_ : fitted :class:`~simulations.estimators.pcde.PCDE`
    synthetic_ : float (n_synthetic,), the synthetic sample Û (empty if PCDE released nothing)
    learner_ : fitted :class:`SemiPrivateLearner`
    n_features_in_ : int
        1 (points of R).
    classes_ : ndarray, [0, 1]

    References
    ----------
    001 Theorem 4.11 and its proof, Theorems 4.2, 4.3, 4.10, Algorithm 3, Remark 4.1.

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> U = rng.random(4000)
    >>> X = rng.random(200); y = (X > 0.4).astype(int)
    >>> est = PrivateCSSL(epsilon=1.0, delta=1e-6, n_synthetic=100, random_state=rng).fit(X, y, X_unlabeled=U)
    >>> est.synthetic_.shape, est.privacy_guarantee()
    ((100,), (1.0, 1e-06))
    >>> abs(est.learner_.hypothesis_ - 0.4) < 0.1
    True
    """

    def __init__(self, *, epsilon: float = 1.0, epsilon_unlabeled: float | None = None, delta: float = 1e-6,
                 n_synthetic: int = 1000, hypothesis_class: str = "thresholds", side: float | None = None,
                 random_state=None):
        self.random_state = random_state
        self.epsilon = epsilon
        self.epsilon_unlabeled = epsilon_unlabeled
        self.delta = delta
        self.n_synthetic = n_synthetic
        self.hypothesis_class = hypothesis_class
        self.side = side

    def _check(self) -> tuple[float, float, float, int]:
        eps_l = check_positive("epsilon", self.epsilon)
        eps_u = eps_l if self.epsilon_unlabeled is None else check_positive("epsilon_unlabeled",
                                                                             self.epsilon_unlabeled)
        delta = check_probability("delta", self.delta)
        if delta == 0:
            raise ValueError(f"delta must be in (0, 1), got delta={self.delta}")
        check_choice("hypothesis_class", self.hypothesis_class, CLASSES)
        if self.side is not None:
            check_real("side", self.side, low=0.0, low_open=True)
        return eps_l, eps_u, delta, check_int("n_synthetic", self.n_synthetic, low=0)

    def privacy_guarantee(self, relation: str = "disjoint") -> tuple[float, float]:
        """(ε, δ) of the release ``(f̂, Û, h)`` (001 proof of Theorem 4.11).

        Parameters
        ----------
        relation : {"disjoint", "shared"}
            "disjoint": neighbours differ in one labeled *or* one unlabeled record: ``(max(ε_L, ε_U), δ)``;
            "shared": one individual may sit in both samples: ``(ε_L + ε_U, δ)`` (basic composition).

        Returns
        -------
        epsilon : float
            ε of the release.
        delta : float
            δ of the release.

        Raises
        ------
        ValueError
            If ``relation`` is unknown or a parameter is out of range.

        References
        ----------
        001 proof of Theorem 4.11 (composition of PCDE and the exponential mechanism).

        Examples
        --------
        >>> est = PrivateCSSL(epsilon=1.0, epsilon_unlabeled=0.5, delta=1e-6)
        >>> est.privacy_guarantee(), est.privacy_guarantee("shared")
        ((1.0, 1e-06), (1.5, 1e-06))
        """
        eps_l, eps_u, delta, _ = self._check()
        check_choice("relation", relation, ("disjoint", "shared"))
        return (max(eps_l, eps_u) if relation == "disjoint" else eps_l + eps_u), delta

    _label_domain = "binary"
    _points_of_r = True

    def fit(self, X, y, *, X_unlabeled=None) -> "PrivateCSSL":
        """Fit on the labeled sample ``(X, y)`` and the unlabeled sample ``X_unlabeled`` (both private).

        Parameters
        ----------
        X : array_like, shape (m,) or (m, 1)
            Labeled points of R.
        y : array_like, shape (m,)
            Labels in {0, 1}.
        X_unlabeled : array_like, shape (n,) or (n, 1), optional
            The private unlabeled sample, n >= 1; None: the points ``X`` themselves, one individual then
            sits in both samples and the release is ``privacy_guarantee("shared")``.

        Returns
        -------
        PrivateCSSL
            self, with ``density_``, ``synthetic_`` and ``learner_``.

        Raises
        ------
        ValueError
            On a bad parameter, malformed points or labels, or an empty ``X_unlabeled`` (before any work).

        References
        ----------
        001 Theorem 4.11 and its proof.

        Examples
        --------
        >>> rng = np.random.default_rng(3)
        >>> est = PrivateCSSL(epsilon=1.0, n_synthetic=50, random_state=rng).fit(
        ...     rng.random(100), rng.integers(0, 2, 100), X_unlabeled=rng.random(4000))
        >>> est.synthetic_.shape, est.learner_.n_labeled_
        ((50,), 100)
        """
        X, y = self._check_input(X, y)
        eps_l, eps_u, delta, n_syn = self._check()
        x = _points_1d(X, "X")
        labels = _labels(y, x.size)
        u = x if X_unlabeled is None else _points_1d(X_unlabeled, "X_unlabeled")
        if u.size < 1:
            raise ValueError(f"X_unlabeled must hold at least one point, got shape {np.shape(u)}")
        rng = self._random_generator()
        self.density_ = PCDE(epsilon=eps_u, delta=delta, side=self.side, random_state=rng).fit(u[:, None])
        syn = sample_released_density(self.density_.cells_, self.density_.values_, self.density_.side_, n_syn, rng)
        self.synthetic_ = syn[:, 0]
        self.learner_ = SemiPrivateLearner(epsilon=eps_l, hypothesis_class=self.hypothesis_class,
                                           random_state=rng).fit(x, labels, X_public=self.synthetic_)
        self.n_features_in_, self.classes_ = 1, np.array([0, 1])
        return self

    def predict(self, X) -> np.ndarray:
        """Labels of the chosen hypothesis at ``X``.

        Parameters
        ----------
        X : array_like, shape (n,) or (n, 1)
            Points of R.

        Returns
        -------
        ndarray of int64, shape (n,)

        Raises
        ------
        ValueError
            If the learner is not fitted or ``X`` is not 1-D points.

        Examples
        --------
        >>> rng = np.random.default_rng(3)
        >>> X = rng.random(200)
        >>> est = PrivateCSSL(epsilon=1.0, n_synthetic=100, random_state=rng).fit(
        ...     X, (X > 0.4).astype(int), X_unlabeled=rng.random(4000))
        >>> est.predict([0.0, 1.0]).tolist()
        [0, 1]
        """
        self._check_predict_input(X)
        check_fitted(self, "learner_")
        return self.learner_.predict(X)
