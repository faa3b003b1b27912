"""Histogram (regular-partition) estimators of 003: bin majority / vector-mechanism sums / exponential
mechanism per bin for classification, bin means with and without Laplace noise for regression.

Design: an estimator is the *whole* algorithm, privatization included. ``fit(X, y)`` takes the
raw labels and draws the mechanism's noise from ``random_state`` (the engine passes the PRIVACY stream of
:mod:`simulations.seeding`, a Generator); the mechanism description it used is kept in ``mechanism_`` so that
tests and ``proofs_checks`` can verify its privacy. Features are public under label DP, so the
partition and the counts ``n_l`` are computed from them directly.

The partition: ``bins = ceil(1/h)`` cells per axis of ``[0, 1]^d`` (side ``1/bins <= h``; 003 asks
for cells "of length h" covering the support), cell index convention of
:mod:`simulations.kernels`. After ``fit``: ``bins_``, ``cell_values_`` of shape ``(bins^d,)``
(a class per cell, or a real value per cell) and ``counts_`` (``n_l``). ``cell_values_`` and
``bins_`` go straight into ``law.excess_risk_partition`` for the exact excess risk.

Ties in an argmax are broken uniformly at random (003 does not say how); this is post-processing and
costs no privacy.

References: 003 eqs. (12)-(13) and Theorem 2; eq. (17) and Theorem 4; eq. (23) and Theorem 8;
eq. (28) and Theorem 12.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from limits.validation import check_int, check_positive, check_real
from simulations import kernels
from simulations.estimators._common import check_features, check_fitted, check_real_labels
from simulations.estimators._sklearn import LabelDPEstimatorMixin
from simulations.mechanisms import ExponentialMechanism, NoisyBinMean, VectorMechanism
from simulations.mechanisms.labels import check_labels

__all__ = [
    "BinMajorityClassifier",
    "BinMeanRegressor",
    "ExponentialBinClassifier",
    "LaplaceBinMeanRegressor",
    "VectorBinClassifier",
    "argmax_random_ties",
    "bins_for_width",
]


def bins_for_width(h) -> int:
    """Cells per axis of the regular partition of bin width ``h``: ``ceil(1/h)``.

    The cells have side ``1/bins <= h``, as 003 asks for cells "of length h" covering ``[0, 1]^d``;
    ``1/h`` within 1e-9 of an integer counts as that integer (so ``h = 0.1`` gives 10, not 11).

    Parameters
    ----------
    h : float in (0, 1]
        Bin width.

    Returns
    -------
    int
        Number of cells per axis, >= 1.

    Raises
    ------
    ValueError
        If ``h`` is not a real number in (0, 1].

    References
    ----------
    003 Theorem 2 (the partition into cubes of side h).

    Examples
    --------
    >>> bins_for_width(0.1), bins_for_width(0.3), bins_for_width(1.0)
    (10, 4, 1)
    """
    h = check_real("h", h, low=0.0, high=1.0, low_open=True)
    return max(1, math.ceil(1.0 / h - 1e-9))


def argmax_random_ties(scores, rng: np.random.Generator) -> np.ndarray:
    """Row-wise argmax of integer-valued ``scores``, ties broken uniformly at random.

    Adding independent uniforms on [0, 1/2) keeps every strict order of integers and makes each of
    the tied maxima equally likely to come out on top. 003 does not say how ties are broken; this is
    post-processing and costs no privacy.

    Parameters
    ----------
    scores : array_like of int, shape (L, K)
        Integer-valued scores (counts or bit sums) per row.
    rng : numpy.random.Generator
        Draws the tie-breaking uniforms, shape (L, K).

    Returns
    -------
    ndarray of int64, shape (L,)
        The column of a maximum of each row.

    References
    ----------
    003 eq. (13) (``c_l = argmax_j S_{lj}``).

    Examples
    --------
    >>> argmax_random_ties([[1, 3, 2], [5, 0, 1]], np.random.default_rng(0)).tolist()
    [1, 0]
    """
    s = np.asarray(scores)
    return np.argmax(s + 0.5 * rng.random(s.shape), axis=1).astype(np.int64)


class _BinEstimator(BaseEstimator):
    """Shared partition logic: ``h`` -> ``bins_``, prediction by cell lookup (the concrete classes put
    :class:`LabelDPEstimatorMixin` first in their bases and declare ``_unit_cube``: X in [0, 1]^d)."""

    def _features(self, X):
        X = check_features(X, unit_cube=True)
        self.bins_ = bins_for_width(self.h)
        self.n_features_in_ = X.shape[1]
        return X

    def predict(self, X) -> np.ndarray:
        """The fitted value of the cell of each point.

        Parameters
        ----------
        X : array_like, shape (m, d)
            Points in [0, 1]^d, d as in ``fit``.

        Returns
        -------
        ndarray, shape (m,)
            ``cell_values_`` of the cell of each point (a class, or a real value for the regressors).

        Raises
        ------
        ValueError
            If the estimator is not fitted or ``X`` is not finite in [0, 1]^d with d columns.

        Examples
        --------
        >>> X = np.array([[0.1, 0.1], [0.2, 0.3], [0.8, 0.9]])
        >>> BinMeanRegressor(h=0.5).fit(X, [0.5, 0.3, -0.2]).predict([[0.4, 0.4], [0.6, 0.7]]).tolist()
        [0.4, -0.2]
        """
        self._check_predict_input(X)
        check_fitted(self, "cell_values_")
        X = check_features(X, unit_cube=True, d=self.n_features_in_, name=type(self).__name__)
        return self.cell_values_[kernels.bin_index(X, self.bins_)]


class _BinClassifier(LabelDPEstimatorMixin, ClassifierMixin, _BinEstimator):
    _unit_cube = True
    _label_domain = "classes"

    def __init__(self, *, num_classes: int, h: float, random_state=None):
        self.num_classes = num_classes
        self.h = h
        self.random_state = random_state

    def _check(self, X, y):
        check_int("num_classes", self.num_classes, low=2)
        X = self._features(X)
        y = check_labels(y, self.num_classes)
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X and y must have the same number of rows, got {X.shape[0]} and {y.shape[0]}")
        rng = self._random_generator()
        self.classes_ = np.arange(self.num_classes)
        return X, y, rng


class BinMajorityClassifier(_BinClassifier):
    """Non-private histogram classifier: the majority label of each cell, ``c_l = argmax_j n_{lj}``.

    The non-private baseline of 003's classification rates (Table 1, last column).

    Parameters
    ----------
    num_classes : int >= 2
        K, labels lie in ``0..K-1``.
    h : float in (0, 1]
        Bin width; ``bins_for_width(h)`` cells per axis.
    random_state : None, int or numpy.random.Generator, default None
        Breaks ties at ``fit``: a Generator is drawn from as it is, an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    bins_ : int
        Cells per axis.
    counts_ : ndarray of int64, shape (bins^d,)
        Points per cell ``n_l``.
    cell_values_ : ndarray of int64, shape (bins^d,)
        The class of each cell (uniformly random in empty cells).
    mechanism_ : None
        No privacy mechanism.

    References
    ----------
    003 Section 3 (the histogram classifier of Theorem 2 without privatization).

    Examples
    --------
    >>> X = np.array([[0.1, 0.1], [0.2, 0.3], [0.3, 0.2], [0.8, 0.9], [0.9, 0.6]])
    >>> est = BinMajorityClassifier(num_classes=3, h=0.5, random_state=np.random.default_rng(0)).fit(X, [1, 1, 0, 2, 2])
    >>> est.counts_.tolist(), int(est.cell_values_[0]), int(est.cell_values_[3])
    ([3, 0, 0, 2], 1, 2)
    """

    def fit(self, X, y):
        """Per cell ``c_l = argmax_j n_{lj}``, ties uniformly at random.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Features in [0, 1]^d.
        y : array_like of int, shape (n,)
            Labels in ``0..K-1``.

        Returns
        -------
        BinMajorityClassifier
            self, with ``bins_``, ``counts_`` and ``cell_values_`` (shape (bins^d,)).

        Raises
        ------
        ValueError
            If a constructor argument is out of range, ``X`` is not finite in [0, 1]^d with shape (n, d),
            ``y`` has the wrong shape or values, or ``random_state`` is invalid (before any attribute is set).

        Examples
        --------
        >>> est = BinMajorityClassifier(num_classes=2, h=1.0, random_state=0).fit([[0.2], [0.5], [0.9]], [1, 1, 0])
        >>> est.cell_values_.tolist()
        [1]
        """
        X, y = self._check_input(X, y)
        X, y, rng = self._check(X, y)
        counts = kernels.bin_label_counts(X, self.bins_, y, self.num_classes)
        self.counts_ = counts.sum(axis=1)
        self.cell_values_ = argmax_random_ties(counts, rng)
        self.mechanism_ = None
        return self


class _PrivateBinClassifier(_BinClassifier):
    """A bin classifier with a privacy budget: stores ``epsilon`` besides ``num_classes`` and ``h``."""

    def __init__(self, *, num_classes: int, epsilon: float, h: float, random_state=None):
        super().__init__(num_classes=num_classes, h=h, random_state=random_state)
        self.epsilon = epsilon

    def _check(self, X, y):
        check_positive("epsilon", self.epsilon)  # refused before fit sets any attribute
        return super()._check(X, y)


class VectorBinClassifier(_PrivateBinClassifier):
    """Local label DP histogram classifier (003 Theorem 2): vector-mechanism bits summed per cell.

    Each label goes through the K-bit vector mechanism (each bit flipped with probability
    :math:`1/(1 + e^{\\varepsilon/2})`), the bits are summed per cell,
    :math:`S_{lj} = \\sum_{X_i \\in B_l} Z_i(j)` (eq. (12)), and :math:`c_l = \\arg\\max_j S_{lj}` (eq. (13)).

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        Local label-DP budget of each label.
    h : float in (0, 1]
        Bin width.
    random_state : None, int or numpy.random.Generator, default None
        Draws the mechanism's noise at ``fit`` (the PRIVACY stream): a Generator is drawn from as it is
        (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    bins_, counts_, cell_values_ : int, ndarray (bins^d,), ndarray (bins^d,)
        As in :class:`BinMajorityClassifier`.
    mechanism_ : VectorMechanism
        The mechanism the labels went through (for the privacy checks).

    References
    ----------
    003 eqs. (11)-(13), Theorem 2; 000 eqs. (12)-(13) (the vector mechanism).

    Examples
    --------
    >>> X = np.array([[0.1, 0.1], [0.2, 0.3], [0.8, 0.9]])
    >>> est = VectorBinClassifier(num_classes=3, epsilon=1.0, h=0.5, random_state=np.random.default_rng(0)).fit(X, [1, 1, 2])
    >>> est.mechanism_, est.counts_.tolist()
    (VectorMechanism(num_classes=3, epsilon=1.0), [2, 0, 0, 1])
    """

    def fit(self, X, y):
        """Privatize every label with the vector mechanism, then ``c_l = argmax_j S_{lj}`` (003 eqs. (12)-(13)).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Features in [0, 1]^d (public under label DP).
        y : array_like of int, shape (n,)
            Labels in ``0..K-1``.

        Returns
        -------
        VectorBinClassifier
            self, with ``bins_``, ``counts_``, ``cell_values_`` and ``mechanism_``.

        Raises
        ------
        ValueError
            If a constructor argument is out of range, ``X`` is not finite in [0, 1]^d with shape (n, d),
            ``y`` has the wrong shape or values, or ``random_state`` is invalid (before any attribute is set).

        Examples
        --------
        >>> est = VectorBinClassifier(num_classes=2, epsilon=1.0, h=0.5, random_state=0).fit([[0.2], [0.9]], [0, 1])
        >>> est.bins_, est.cell_values_.shape
        (2, (2,))
        """
        X, y = self._check_input(X, y)
        X, y, rng = self._check(X, y)
        self.mechanism_ = VectorMechanism(num_classes=self.num_classes, epsilon=self.epsilon)
        Z = self.mechanism_.sample(y, rng)  # (n, K) bits
        sums, self.counts_ = kernels.bin_row_sums(X, self.bins_, Z)
        self.cell_values_ = argmax_random_ties(sums, rng)
        return self


class ExponentialBinClassifier(_PrivateBinClassifier):
    """Central label DP histogram classifier (003 Theorem 4): the exponential mechanism per cell.

    In cell l, class j is released with probability :math:`\\propto \\exp(\\varepsilon n_{lj} / 2)`
    (eq. (17)), where :math:`n_{lj}` counts the labels j of the cell.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        Central label-DP budget.
    h : float in (0, 1]
        Bin width.
    random_state : None, int or numpy.random.Generator, default None
        Draws the mechanism's noise at ``fit`` (the PRIVACY stream): a Generator is drawn from as it is
        (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    bins_, counts_, cell_values_ : int, ndarray (bins^d,), ndarray (bins^d,)
        As in :class:`BinMajorityClassifier`.
    mechanism_ : ExponentialMechanism
        The per-cell release (for the privacy checks).

    References
    ----------
    003 eq. (17), Theorem 4.

    Examples
    --------
    A cell with counts (2, 0) releases class 0 with probability :math:`e^{1}/(e^{1} + 1) \\approx 0.731`
    at ε = 1:

    >>> est = ExponentialBinClassifier(num_classes=2, epsilon=1.0, h=1.0, random_state=0).fit([[0.2], [0.4]], [0, 0])
    >>> p = est.mechanism_.probabilities(np.array([[2, 0]]))
    >>> np.round(p, 3).tolist()
    [[0.731, 0.269]]
    """

    def fit(self, X, y):
        """Per cell, draw ``c_l`` from the exponential mechanism on the counts ``n_{lj}`` (003 eq. (17)).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Features in [0, 1]^d.
        y : array_like of int, shape (n,)
            Labels in ``0..K-1``.

        Returns
        -------
        ExponentialBinClassifier
            self, with ``bins_``, ``counts_``, ``cell_values_`` and ``mechanism_``.

        Raises
        ------
        ValueError
            If a constructor argument is out of range, ``X`` is not finite in [0, 1]^d with shape (n, d),
            ``y`` has the wrong shape or values, or ``random_state`` is invalid (before any attribute is set).

        Examples
        --------
        >>> est = ExponentialBinClassifier(num_classes=3, epsilon=1.0, h=0.5, random_state=0).fit([[0.2], [0.9]], [0, 2])
        >>> est.counts_.tolist(), est.cell_values_.shape
        ([1, 1], (2,))
        """
        X, y = self._check_input(X, y)
        X, y, rng = self._check(X, y)
        self.mechanism_ = ExponentialMechanism(num_classes=self.num_classes, epsilon=self.epsilon)
        counts = kernels.bin_label_counts(X, self.bins_, y, self.num_classes)
        self.counts_ = counts.sum(axis=1)
        self.cell_values_ = self.mechanism_.sample(counts, rng)
        return self


class BinMeanRegressor(LabelDPEstimatorMixin, RegressorMixin, _BinEstimator):
    """Non-private histogram regressor: the mean label of each cell (0 in empty cells, as 003 eq. (23)).

    Parameters
    ----------
    h : float in (0, 1]
        Bin width.
    random_state : None, int or numpy.random.Generator, default None
        Unused (nothing is drawn); the parameter every estimator of the suite has.

    Attributes
    ----------
    bins_ : int
        Cells per axis.
    counts_ : ndarray of int64, shape (bins^d,)
        Points per cell.
    cell_values_ : ndarray of float, shape (bins^d,)
        Mean label per cell.
    mechanism_ : None

    References
    ----------
    003 eq. (23) without noise (the non-private baseline of Table 1's regression rates).

    Examples
    --------
    >>> X = np.array([[0.1, 0.1], [0.2, 0.3], [0.8, 0.9]])
    >>> BinMeanRegressor(h=0.5).fit(X, [0.5, 0.3, -0.2]).cell_values_.tolist()
    [0.4, 0.0, 0.0, -0.2]
    """

    _unit_cube = True

    def __init__(self, *, h: float, random_state=None):
        self.h = h
        self.random_state = random_state

    def fit(self, X, y):
        """Per cell the mean label, 0 in empty cells.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Features in [0, 1]^d.
        y : array_like of float, shape (n,)
            Finite real labels.

        Returns
        -------
        BinMeanRegressor
            self, with ``bins_``, ``counts_`` and ``cell_values_``.

        Raises
        ------
        ValueError
            If ``h`` is not in (0, 1], ``X`` is not finite in [0, 1]^d, or ``y`` is not finite of shape (n,).

        Examples
        --------
        >>> BinMeanRegressor(h=1.0).fit([[0.2], [0.7]], [1.0, 2.0]).cell_values_.tolist()
        [1.5]
        """
        X, y = self._check_input(X, y)
        self._check_random_state()  # nothing is drawn
        X = self._features(X)
        y = check_real_labels(y, X.shape[0])
        sums, self.counts_ = kernels.bin_value_sums(X, self.bins_, y)
        self.cell_values_ = np.divide(sums, self.counts_, out=np.zeros_like(sums), where=self.counts_ > 0)
        self.mechanism_ = None
        return self


class LaplaceBinMeanRegressor(LabelDPEstimatorMixin, RegressorMixin, _BinEstimator):
    """Central label DP histogram regressor: noisy bin means :math:`\\hat\\eta_l = \\bar Y_l + \\mathrm{Lap}(2T/(n_l \\varepsilon))`.

    ``clip=False``: 003 eq. (23), Theorem 8 (labels must satisfy ``|Y| <= T``, Assumption 2; 003 prints
    the scale ``2/(n_l ε)``, i.e. T = 1, see :class:`simulations.mechanisms.NoisyBinMean`).
    ``clip=True``: 003 eq. (28), Theorem 12 (labels clipped to ``[−T, T]`` first, heavy tails).
    Empty cells release 0.

    Parameters
    ----------
    h : float in (0, 1]
        Bin width.
    epsilon : float > 0
        Central label-DP budget.
    T : float > 0
        Label bound (``clip=False``) or clipping level (``clip=True``).
    clip : bool, default False
        Clip the labels to ``[−T, T]`` before averaging.
    random_state : None, int or numpy.random.Generator, default None
        Draws the mechanism's noise at ``fit`` (the PRIVACY stream): a Generator is drawn from as it is
        (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    bins_, counts_, cell_values_ : int, ndarray (bins^d,), ndarray (bins^d,)
        As in :class:`BinMeanRegressor` (noisy values).
    mechanism_ : NoisyBinMean
        The release (for the privacy checks).

    References
    ----------
    003 eq. (23), Theorem 8; eq. (28), Theorem 12; Assumption 2.

    Examples
    --------
    >>> X = np.array([[0.1, 0.1], [0.2, 0.3], [0.8, 0.9]])
    >>> est = LaplaceBinMeanRegressor(h=0.5, epsilon=1.0, T=1.0, random_state=0).fit(X, [0.5, 0.3, -0.2])
    >>> est.mechanism_, est.counts_.tolist(), est.cell_values_[1:3].tolist()  # empty cells release 0
    (NoisyBinMean(T=1.0, epsilon=1.0, clip=False), [2, 0, 0, 1], [0.0, 0.0])
    """

    _unit_cube = True
    _label_domain = "bounded"

    def __init__(self, *, h: float, epsilon: float, T: float, clip: bool = False, random_state=None):
        self.random_state = random_state
        self.h = h
        self.epsilon = epsilon
        self.T = T
        self.clip = clip

    def fit(self, X, y):
        """Per cell the (clipped) mean label plus Laplace noise (003 eq. (23) / eq. (28)).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Features in [0, 1]^d.
        y : array_like of float, shape (n,)
            Finite real labels, ``|y| <= T`` unless ``clip``.

        Returns
        -------
        LaplaceBinMeanRegressor
            self, with ``bins_``, ``counts_``, ``cell_values_`` and ``mechanism_``.

        Raises
        ------
        ValueError
            If ``h``, ``epsilon``, ``T`` or ``clip`` is invalid, ``X`` or ``y`` is malformed, a label
            exceeds ``T`` without ``clip``, or ``random_state`` is invalid.

        Examples
        --------
        >>> est = LaplaceBinMeanRegressor(h=1.0, epsilon=1.0, T=1.0, clip=True, random_state=0).fit([[0.2], [0.7]], [5.0, -1.0])
        >>> est.counts_.tolist(), est.cell_values_.shape
        ([2], (1,))
        """
        X, y = self._check_input(X, y)
        self.mechanism_ = NoisyBinMean(T=self.T, epsilon=self.epsilon, clip=self.clip)
        X = self._features(X)
        y = check_real_labels(y, X.shape[0])
        rng = self._random_generator()
        if self.clip:
            y = np.clip(y, -self.T, self.T)  # the fused kernel sums; NoisyBinMean's bound check follows
        elif y.size and np.max(np.abs(y)) > self.T:
            raise ValueError(f"labels must lie in [-T, T] = [{-self.T}, {self.T}] (or set clip=True)")
        sums, self.counts_ = kernels.bin_value_sums(X, self.bins_, y)
        self.cell_values_ = self.mechanism_.release(sums, self.counts_, rng)
        return self
