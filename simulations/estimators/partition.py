"""Histogram (regular-partition) estimators of 003: bin majority / vector-mechanism sums / exponential
mechanism per bin for classification, bin means with and without Laplace noise for regression.

Design: an estimator is the *whole* algorithm, privatization included. ``fit(X, y, rng)`` takes the
raw labels and draws the mechanism's noise from ``rng`` (the PRIVACY stream of
:mod:`simulations.seeding`); the mechanism description it used is kept in ``mechanism_`` so that
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
from sklearn.base import BaseEstimator

from limits.validation import check_int, check_positive, check_real
from simulations import kernels
from simulations.estimators._common import check_features, check_fitted, check_real_labels, check_rng
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
    """Cells per axis for bin width ``h`` in (0, 1]: ``ceil(1/h)`` (tolerating rounding of 1/h)."""
    h = check_real("h", h, low=0.0, high=1.0, low_open=True)
    return max(1, math.ceil(1.0 / h - 1e-9))


def argmax_random_ties(scores, rng: np.random.Generator) -> np.ndarray:
    """Row-wise argmax of integer-valued ``scores`` (L, K), ties broken uniformly at random.

    Adding independent uniforms on [0, 1/2) keeps every strict order of integers and makes each of
    the tied maxima equally likely to come out on top.
    """
    s = np.asarray(scores)
    return np.argmax(s + 0.5 * rng.random(s.shape), axis=1).astype(np.int64)


class _BinEstimator(BaseEstimator):
    """Shared partition logic: ``h`` -> ``bins_``, prediction by cell lookup."""

    def _features(self, X):
        X = check_features(X, unit_cube=True)
        self.bins_ = bins_for_width(self.h)
        self.n_features_ = X.shape[1]
        return X

    def predict(self, X) -> np.ndarray:
        """The value of the cell of each point: ``X`` (n, d) in [0, 1]^d -> (n,)."""
        check_fitted(self, "cell_values_")
        X = check_features(X, unit_cube=True, d=self.n_features_)
        return self.cell_values_[kernels.bin_index(X, self.bins_)]


class _BinClassifier(_BinEstimator):
    def __init__(self, *, num_classes: int, h: float):
        self.num_classes = num_classes
        self.h = h

    def _check(self, X, y, rng):
        check_int("num_classes", self.num_classes, low=2)
        X = self._features(X)
        y = check_labels(y, self.num_classes)
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X and y must have the same number of rows, got {X.shape[0]} and {y.shape[0]}")
        return X, y, check_rng(rng, required=True)


class BinMajorityClassifier(_BinClassifier):
    """Non-private baseline: the majority label of each cell (``argmax_j n_{lj}``).

    Parameters
    ----------
    num_classes : int >= 2.
    h : float in (0, 1], bin width.

    ``fit(X, y, rng)``: X (n, d) in [0, 1]^d, y (n,) in 0..K-1; rng breaks ties.
    """

    def fit(self, X, y, rng):
        """Per cell ``c_l = argmax_j n_{lj}``, ties uniformly at random.

        Parameters
        ----------
        X : array_like, shape (n, d), features in [0, 1]^d.
        y : array_like of int, shape (n,), labels in 0..K-1.
        rng : numpy Generator (or int seed), breaks ties.

        Returns
        -------
        self, with ``bins_``, ``counts_`` (shape (bins^d,)) and ``cell_values_`` (int, shape (bins^d,)).
        """
        X, y, rng = self._check(X, y, rng)
        counts = kernels.bin_label_counts(X, self.bins_, y, self.num_classes)
        self.counts_ = counts.sum(axis=1)
        self.cell_values_ = argmax_random_ties(counts, rng)
        self.mechanism_ = None
        return self


class _PrivateBinClassifier(_BinClassifier):
    """A bin classifier with a privacy budget: stores ``epsilon`` besides ``num_classes`` and ``h``."""

    def __init__(self, *, num_classes: int, epsilon: float, h: float):
        super().__init__(num_classes=num_classes, h=h)
        self.epsilon = epsilon

    def _check(self, X, y, rng):
        check_positive("epsilon", self.epsilon)  # refused before fit sets any attribute
        return super()._check(X, y, rng)


class VectorBinClassifier(_PrivateBinClassifier):
    """Local label DP (003 Theorem 2): each label through the K-bit vector mechanism, bin sums
    ``S_{lj} = ∑_{X_i ∈ B_l} Z_i(j)`` (eq. (12)), ``c_l = argmax_j S_{lj}`` (eq. (13)).

    Parameters
    ----------
    num_classes : int >= 2.
    epsilon : float > 0.
    h : float in (0, 1].
    """

    def fit(self, X, y, rng):
        """Privatize every label with the vector mechanism, then ``c_l = argmax_j S_{lj}`` (003 eqs. (12)-(13)).

        Parameters
        ----------
        X : array_like, shape (n, d), features in [0, 1]^d.
        y : array_like of int, shape (n,), labels in 0..K-1.
        rng : numpy Generator (or int seed), draws the privacy noise and breaks ties.

        Returns
        -------
        self, with ``bins_``, ``counts_`` (shape (bins^d,)) and ``cell_values_`` (int, shape (bins^d,)).
        """
        X, y, rng = self._check(X, y, rng)
        self.mechanism_ = VectorMechanism(num_classes=self.num_classes, epsilon=self.epsilon)
        Z = self.mechanism_.sample(y, rng)  # (n, K) bits
        sums, self.counts_ = kernels.bin_row_sums(X, self.bins_, Z)
        self.cell_values_ = argmax_random_ties(sums, rng)
        return self


class ExponentialBinClassifier(_PrivateBinClassifier):
    """Central label DP (003 Theorem 4): per cell, class ``j`` w.p. ``∝ exp(ε n_{lj}/2)`` (eq. (17)).

    Parameters
    ----------
    num_classes : int >= 2.
    epsilon : float > 0.
    h : float in (0, 1].
    """

    def fit(self, X, y, rng):
        """Per cell, draw ``c_l`` from the exponential mechanism on the counts ``n_{lj}`` (003 eq. (17)).

        Parameters
        ----------
        X : array_like, shape (n, d), features in [0, 1]^d.
        y : array_like of int, shape (n,), labels in 0..K-1.
        rng : numpy Generator (or int seed), draws the mechanism's output.

        Returns
        -------
        self, with ``bins_``, ``counts_`` (shape (bins^d,)) and ``cell_values_`` (int, shape (bins^d,)).
        """
        X, y, rng = self._check(X, y, rng)
        self.mechanism_ = ExponentialMechanism(num_classes=self.num_classes, epsilon=self.epsilon)
        counts = kernels.bin_label_counts(X, self.bins_, y, self.num_classes)
        self.counts_ = counts.sum(axis=1)
        self.cell_values_ = self.mechanism_.sample(counts, rng)
        return self


class BinMeanRegressor(_BinEstimator):
    """Non-private baseline: the mean label of each cell (0 in empty cells, as 003 eq. (23)).

    Parameters
    ----------
    h : float in (0, 1].

    ``fit(X, y, rng=None)``: rng is accepted for a uniform interface and not used.
    """

    def __init__(self, *, h: float):
        self.h = h

    def fit(self, X, y, rng=None):
        """Per cell the mean label, 0 in empty cells.

        Parameters
        ----------
        X : array_like, shape (n, d), features in [0, 1]^d.
        y : array_like, shape (n,), finite real labels.
        rng : checked, then ignored (uniform interface).

        Returns
        -------
        self, with ``bins_``, ``counts_`` and ``cell_values_`` (float), both of shape (bins^d,).
        """
        check_rng(rng, required=False)
        X = self._features(X)
        y = check_real_labels(y, X.shape[0])
        sums, self.counts_ = kernels.bin_value_sums(X, self.bins_, y)
        self.cell_values_ = np.divide(sums, self.counts_, out=np.zeros_like(sums), where=self.counts_ > 0)
        self.mechanism_ = None
        return self


class LaplaceBinMeanRegressor(_BinEstimator):
    """Central label DP bin means: ``η̂_l = mean of labels in B_l + Lap(2T/(n_l ε))``.

    ``clip=False``: 003 eq. (23), Theorem 8 (labels must satisfy ``|Y| <= T``, Assumption 2; 003 prints
    the scale ``2/(n_l ε)``, i.e. T = 1, see :class:`simulations.mechanisms.NoisyBinMean`).
    ``clip=True``: 003 eq. (28), Theorem 12 (labels clipped to ``[−T, T]`` first, heavy tails).

    Parameters
    ----------
    h : float in (0, 1].
    epsilon : float > 0.
    T : float > 0, label bound or clipping level.
    clip : bool.
    """

    def __init__(self, *, h: float, epsilon: float, T: float, clip: bool = False):
        self.h = h
        self.epsilon = epsilon
        self.T = T
        self.clip = clip

    def fit(self, X, y, rng):
        """Per cell the (clipped) mean label plus Laplace noise (003 eq. (23) / eq. (28)).

        Parameters
        ----------
        X : array_like, shape (n, d), features in [0, 1]^d.
        y : array_like, shape (n,), finite real labels (``|Y| <= T`` unless ``clip``).
        rng : numpy Generator (or int seed), draws the Laplace noise.

        Returns
        -------
        self, with ``bins_``, ``counts_`` and ``cell_values_`` (float), both of shape (bins^d,).
        """
        self.mechanism_ = NoisyBinMean(T=self.T, epsilon=self.epsilon, clip=self.clip)
        X = self._features(X)
        y = check_real_labels(y, X.shape[0])
        rng = check_rng(rng, required=True)
        if self.clip:
            y = np.clip(y, -self.T, self.T)  # the fused kernel sums; NoisyBinMean's bound check follows
        elif y.size and np.max(np.abs(y)) > self.T:
            raise ValueError(f"labels must lie in [-T, T] = [{-self.T}, {self.T}] (or set clip=True)")
        sums, self.counts_ = kernels.bin_value_sums(X, self.bins_, y)
        self.cell_values_ = self.mechanism_.release(sums, self.counts_, rng)
        return self
