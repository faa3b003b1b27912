"""Shared machinery of the data-generating laws: uniform features, the regular grid, exact risks.

Every law of the suite has features uniform on ``[0, 1]^d`` (density ``f = 1``, so Assumption 1(c)
of 003 holds with ``c = 1`` and 1(d) with ``θ = 2^{-d}``) and knows its conditional law of ``Y``
exactly. Risks are computed by integrating against the known η, never by sampling test labels:

* a predictor that is constant on the cells of the regular grid with ``bins`` cells per axis
  (the histogram estimators of 003 Theorems 2, 4, 8, 12) has its excess risk computed from exact
  per-cell integrals of η (closed forms or Gauss–Legendre quadrature that is exact for the
  piecewise polynomials involved); the only error is floating-point rounding;
* any other predictor (kNN) is evaluated at caller-supplied points, e.g. uniform points drawn
  from the EVAL stream (an unbiased estimate of the excess risk whose standard error the caller
  reports) or :func:`midpoint_grid` (a deterministic midpoint rule).

Grid convention (shared with :mod:`simulations.kernels`): cell ``(b_0, ..., b_{d-1})`` with
``b_i = min(floor(x_i * bins), bins - 1)`` has flat index ``numpy.ravel_multi_index`` in C order
(axis 0 slowest).

References: 003 Proposition 2, eqs. (8)-(9) (excess risk as an integral against η).
"""

from __future__ import annotations

import abc

import numpy as np

from limits.validation import check_int
from simulations.seeding import check_generator

__all__ = [
    "ClassificationLaw",
    "RegressionLaw",
    "cell_volume",
    "check_points",
    "midpoint_grid",
    "sample_uniform_features",
]


def sample_uniform_features(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points uniform on ``[0, 1]^d``, shape ``(n, d)``."""
    check_int("n", n, low=0)
    return rng.random((n, d))


def check_points(X, d: int) -> np.ndarray:
    """Return ``X`` as a float array of shape ``(n, d)`` inside ``[0, 1]^d``."""
    arr = np.asarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"X must have shape (n, {d}), got shape {arr.shape}")
    if arr.size and (not np.all(np.isfinite(arr)) or arr.min() < 0.0 or arr.max() > 1.0):
        raise ValueError("X must lie in [0, 1]^d")
    return arr


def midpoint_grid(m: int, d: int) -> np.ndarray:
    """The ``m^d`` cell midpoints of the regular grid with ``m`` cells per axis, shape ``(m^d, d)``.

    Averaging a function over these points is the midpoint rule. For an integrand that is Lipschitz
    with constant ``Λ`` (sup norm) on each cell, its error is at most ``Λ d / (2m)`` (first order,
    and ``O(m^-2)`` for C^2 integrands); for a discontinuous predictor such as kNN no such bound
    holds, so prefer uniform random points and report their standard error.
    """
    check_int("m", m, low=1)
    check_int("d", d, low=1)
    axis = (np.arange(m) + 0.5) / m
    mesh = np.meshgrid(*([axis] * d), indexing="ij")
    return np.stack([a.ravel() for a in mesh], axis=1)


def cell_volume(bins: int, d: int) -> float:
    """Volume ``bins^{-d}`` of one cell of the regular grid with ``bins`` cells per axis."""
    return float(bins) ** (-d)


def _check_bins(bins) -> int:
    return check_int("bins", bins, low=1)


class ClassificationLaw(abc.ABC):
    """Base of the classification laws: ``K`` classes ``0..K-1``, class probabilities ``eta``.

    Subclasses define ``d``, ``num_classes``, :meth:`eta`, :meth:`cell_class_mass`,
    :meth:`cell_bayes_mass` and :meth:`bayes_risk`.
    """

    @abc.abstractmethod
    def eta(self, X) -> np.ndarray:
        """Class probabilities ``η_j(x) = P(Y = j | X = x)``, shape ``(n, K)``."""

    @abc.abstractmethod
    def cell_class_mass(self, bins: int) -> np.ndarray:
        """``∫_cell η_j(x) dx`` for every grid cell and class, shape ``(bins^d, K)``."""

    @abc.abstractmethod
    def cell_bayes_mass(self, bins: int) -> np.ndarray:
        """``∫_cell η*(x) dx`` with ``η* = max_j η_j``, shape ``(bins^d,)``."""

    @abc.abstractmethod
    def bayes_risk(self) -> float:
        """``R* = 1 - ∫ η*(x) dx`` (003 eq. (6))."""

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``n`` pairs: ``X`` of shape ``(n, d)`` and integer labels ``Y`` of shape ``(n,)``.

        One uniform per label, inverted through the cumulative class probabilities.
        """
        rng = check_generator(rng)
        X = sample_uniform_features(n, self.d, rng)
        cdf = np.cumsum(self.eta(X), axis=1)
        u = rng.random(n)
        Y = (cdf[:, :-1] <= u[:, None]).sum(axis=1).astype(np.int64)
        return X, Y

    def excess_risk_partition(self, labels, bins: int) -> float:
        """Exact excess 0-1 risk of the classifier predicting ``labels[l]`` on grid cell ``l``.

        ``∑_l ∫_{B_l} (η*(x) − η_{c_l}(x)) dx`` (003 eq. (8) with f = 1).

        Parameters
        ----------
        labels : int array of shape (bins^d,), one class per cell in C order.
        bins : int, cells per axis.
        """
        bins = _check_bins(bins)
        lab = np.asarray(labels)
        G = bins ** self.d
        if lab.shape != (G,) or not np.issubdtype(lab.dtype, np.integer):
            raise ValueError(f"labels must be an integer array of shape ({G},), got {lab.dtype} {lab.shape}")
        if lab.size and (lab.min() < 0 or lab.max() >= self.num_classes):
            raise ValueError(f"labels must lie in [0, {self.num_classes})")
        mass = self.cell_class_mass(bins)
        gap = self.cell_bayes_mass(bins) - mass[np.arange(G), lab]
        return float(np.sum(gap))  # each term is >= 0 up to rounding; not clamped, so errors show

    def excess_risk_points(self, labels, X) -> float:
        """Mean of ``η*(x) − η_{c(x)}(x)`` over the points ``X`` (shape (n, d)), labels (n,)."""
        X = check_points(X, self.d)
        lab = np.asarray(labels, dtype=np.int64)
        if lab.shape != (X.shape[0],):
            raise ValueError(f"labels must have shape ({X.shape[0]},), got {lab.shape}")
        eta = self.eta(X)
        return float(np.mean(eta.max(axis=1) - eta[np.arange(X.shape[0]), lab]))

    def bayes_classifier_partition(self, bins: int) -> np.ndarray:
        """The best classifier constant on each cell: ``argmax_j ∫_cell η_j``, shape (bins^d,)."""
        return np.argmax(self.cell_class_mass(_check_bins(bins)), axis=1)


class RegressionLaw(abc.ABC):
    """Base of the regression laws: ``Y = η(X) + noise``, squared loss.

    Subclasses define ``d``, :meth:`eta`, :meth:`sample_labels`, :meth:`cell_moments` and
    :meth:`bayes_risk`.
    """

    @abc.abstractmethod
    def eta(self, X) -> np.ndarray:
        """Regression function ``η(x) = E[Y | X = x]``, shape ``(n,)``."""

    @abc.abstractmethod
    def sample_labels(self, eta_x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Labels given the regression function at the sampled points, shape ``(n,)``."""

    @abc.abstractmethod
    def cell_moments(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        """Per grid cell: the mean of η over the cell and the within-cell variance of η.

        Returns ``(mean, var)`` both of shape ``(bins^d,)``: ``mean = ∫_cell η / |cell|`` and
        ``var = ∫_cell η² / |cell| − mean²`` (computed without cancellation where possible).
        """

    @abc.abstractmethod
    def bayes_risk(self) -> float:
        """``R* = E[(Y − η(X))²]`` (003 eq. (7))."""

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``n`` pairs: ``X`` of shape ``(n, d)`` and real labels ``Y`` of shape ``(n,)``."""
        rng = check_generator(rng)
        X = sample_uniform_features(n, self.d, rng)
        return X, self.sample_labels(self.eta(X), rng)

    def excess_risk_partition(self, values, bins: int) -> float:
        """Exact excess squared risk ``∫ (g − η)²`` of ``g = values[l]`` on grid cell ``l``.

        Per cell: ``|cell| ((v − mean)² + var)`` (003 eq. (9) with f = 1).
        """
        bins = _check_bins(bins)
        v = np.asarray(values, dtype=float)
        G = bins ** self.d
        if v.shape != (G,) or not np.all(np.isfinite(v)):
            raise ValueError(f"values must be a finite array of shape ({G},), got shape {v.shape}")
        mean, var = self.cell_moments(bins)
        return float(cell_volume(bins, self.d) * np.sum((v - mean) ** 2 + np.maximum(var, 0.0)))

    def excess_risk_points(self, predictions, X) -> float:
        """Mean of ``(g(x) − η(x))²`` over the points ``X`` (shape (n, d))."""
        X = check_points(X, self.d)
        g = np.asarray(predictions, dtype=float)
        if g.shape != (X.shape[0],):
            raise ValueError(f"predictions must have shape ({X.shape[0]},), got {g.shape}")
        return float(np.mean((g - self.eta(X)) ** 2))
