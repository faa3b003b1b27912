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
    """Draw ``n`` points uniform on :math:`[0, 1]^d` (density f = 1, 003 Assumption 1(c) with c = 1).

    Parameters
    ----------
    n : int
        Number of points, >= 0.
    d : int
        Dimension.
    rng : numpy.random.Generator
        Source of randomness.

    Returns
    -------
    ndarray of float64, shape (n, d)
        The points.

    Raises
    ------
    ValueError
        If ``n`` is not an integer >= 0.

    References
    ----------
    003 Assumption 1(c)-(d) (the feature density of every law here is 1 on the unit cube).

    Examples
    --------
    >>> X = sample_uniform_features(5, 3, np.random.default_rng(0))
    >>> X.shape, bool(((0 <= X) & (X < 1)).all())
    ((5, 3), True)
    """
    check_int("n", n, low=0)
    return rng.random((n, d))


def check_points(X, d: int) -> np.ndarray:
    """Return ``X`` as a float array of shape (n, d) after checking it lies inside :math:`[0, 1]^d`.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points.
    d : int
        The dimension the points must have.

    Returns
    -------
    ndarray of float64, shape (n, d)
        The points.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D with ``d`` columns, or has an entry that is not finite or lies outside [0, 1].

    References
    ----------
    No paper source: the input guard of the laws (features live on the unit cube, 003 Assumption 1(c)).

    Examples
    --------
    >>> check_points([[0.0, 1.0]], 2).shape
    (1, 2)
    >>> check_points([[1.5]], 1)
    Traceback (most recent call last):
    ...
    ValueError: X must lie in [0, 1]^d
    """
    arr = np.asarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"X must have shape (n, {d}), got shape {arr.shape}")
    if arr.size and (not np.all(np.isfinite(arr)) or arr.min() < 0.0 or arr.max() > 1.0):
        raise ValueError("X must lie in [0, 1]^d")
    return arr


def midpoint_grid(m: int, d: int) -> np.ndarray:
    r"""The :math:`m^d` cell midpoints of the regular grid with ``m`` cells per axis.

    Averaging a function over these points is the midpoint rule. For an integrand that is Lipschitz
    with constant Λ (sup norm) on each cell, its error is at most :math:`\Lambda d / (2m)` (first order,
    and :math:`O(m^{-2})` for :math:`C^2` integrands); for a discontinuous predictor such as kNN no such
    bound holds, so prefer uniform random points and report their standard error.

    Parameters
    ----------
    m : int
        Cells per axis, >= 1.
    d : int
        Dimension, >= 1.

    Returns
    -------
    ndarray of float64, shape (m^d, d)
        Midpoints in C order (axis 0 slowest).

    Raises
    ------
    ValueError
        If ``m`` or ``d`` is not an integer >= 1.

    References
    ----------
    003 eq. (8)-(9) (the excess risk is an integral against the feature density, which this rule
    approximates).

    Examples
    --------
    >>> midpoint_grid(2, 2).tolist()
    [[0.25, 0.25], [0.25, 0.75], [0.75, 0.25], [0.75, 0.75]]
    """
    check_int("m", m, low=1)
    check_int("d", d, low=1)
    axis = (np.arange(m) + 0.5) / m
    mesh = np.meshgrid(*([axis] * d), indexing="ij")
    return np.stack([a.ravel() for a in mesh], axis=1)


def cell_volume(bins: int, d: int) -> float:
    r"""Volume :math:`\text{bins}^{-d}` of one cell of the regular grid with ``bins`` cells per axis.

    Parameters
    ----------
    bins : int
        Cells per axis.
    d : int
        Dimension.

    Returns
    -------
    float
        The volume.

    References
    ----------
    003 Theorems 2 and 8 (histogram estimators on cubes of side h = 1/bins).

    Examples
    --------
    >>> cell_volume(4, 2)
    0.0625
    """
    return float(bins) ** (-d)


def _check_bins(bins) -> int:
    return check_int("bins", bins, low=1)


class ClassificationLaw(abc.ABC):
    r"""Base of the classification laws: K classes ``0..K-1`` with class probabilities :math:`\eta_j(x)`.

    Features are uniform on :math:`[0, 1]^d`. Subclasses define ``d``, ``num_classes``, :meth:`eta`,
    :meth:`cell_class_mass`, :meth:`cell_bayes_mass` and :meth:`bayes_risk`; the base class derives
    sampling and the exact excess risk of partition classifiers from them.

    References
    ----------
    003 eqs. (5)-(6), (8) (Bayes classifier, Bayes risk, excess risk as an integral against η).

    Examples
    --------
    A concrete law: one boundary at :math:`x_1 = 1/2` with a linear margin of width 1/4.

    >>> from simulations.laws.benchmarks import BoundaryClassification
    >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
    >>> round(law.bayes_risk(), 12), law.bayes_classifier_partition(2).tolist()
    (0.125, [1, 0])
    """

    @abc.abstractmethod
    def eta(self, X) -> np.ndarray:
        r"""Class probabilities :math:`\eta_j(x) = P(Y = j \mid X = x)`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n, K)
            Rows sum to 1.

        References
        ----------
        003 Section 3.2 (the class probabilities :math:`\eta_j`).

        Examples
        --------
        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.eta([[0.625]]).tolist()
        [[0.75, 0.25]]
        """

    @abc.abstractmethod
    def cell_class_mass(self, bins: int) -> np.ndarray:
        r""":math:`\int_{\text{cell}} \eta_j(x)\,dx` for every cell of the regular grid and every class.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        ndarray of float64, shape (bins^d, K)
            Exact integrals, cells in C order.

        References
        ----------
        003 eq. (8) with f = 1.

        Examples
        --------
        On [0, 1/2] the boundary law has :math:`\int s = -3/8`, so the masses are :math:`(1/2 \mp 3/8)/2`:

        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.cell_class_mass(2).tolist()
        [[0.0625, 0.4375], [0.4375, 0.0625]]
        """

    @abc.abstractmethod
    def cell_bayes_mass(self, bins: int) -> np.ndarray:
        r""":math:`\int_{\text{cell}} \eta^*(x)\,dx` with :math:`\eta^* = \max_j \eta_j`.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        ndarray of float64, shape (bins^d,)
            Exact integrals, cells in C order.

        References
        ----------
        003 eq. (8) with f = 1.

        Examples
        --------
        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.cell_bayes_mass(2).tolist()
        [0.4375, 0.4375]
        """

    @abc.abstractmethod
    def bayes_risk(self) -> float:
        r"""The Bayes risk :math:`R^* = 1 - \int \eta^*(x)\,dx` (003 eq. (6)).

        Returns
        -------
        float
            :math:`R^*`.

        References
        ----------
        003 eq. (6).

        Examples
        --------
        :math:`1 - (1 + \int |s|)/2` with :math:`\int |s| = 3/4`:

        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> round(law.bayes_risk(), 12)
        0.125
        """

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        r"""Draw ``n`` pairs (X, Y): X uniform on the unit cube, Y from :math:`\eta(X)`.

        One uniform per label, inverted through the cumulative class probabilities.

        Parameters
        ----------
        n : int
            Number of pairs, >= 0.
        rng : numpy.random.Generator
            Source of randomness (features first, then labels).

        Returns
        -------
        X : ndarray of float64, shape (n, d)
            Features.
        Y : ndarray of int64, shape (n,)
            Labels in ``0 .. K-1``.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is not a Generator, SeedSequence or int seed.

        References
        ----------
        003 Section 3.2 (the data model: X with density f, Y | X with probabilities η).

        Examples
        --------
        Where :math:`|x_1 - 1/2| \ge 1/4` the label is deterministic (class 0 on the right):

        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> X, Y = law.sample(200, np.random.default_rng(0))
        >>> X.shape, Y.dtype, bool(np.all(Y[X[:, 0] >= 0.75] == 0))
        ((200, 1), dtype('int64'), True)
        """
        rng = check_generator(rng)
        X = sample_uniform_features(n, self.d, rng)
        cdf = np.cumsum(self.eta(X), axis=1)
        u = rng.random(n)
        Y = (cdf[:, :-1] <= u[:, None]).sum(axis=1).astype(np.int64)
        return X, Y

    def excess_risk_partition(self, labels, bins: int) -> float:
        r"""Exact excess 0-1 risk of the classifier predicting ``labels[l]`` on grid cell l.

        :math:`\sum_l \int_{B_l} (\eta^*(x) - \eta_{c_l}(x))\,dx` (003 eq. (8) with f = 1); the only error is
        floating-point rounding (terms are not clamped at 0, so errors show).

        Parameters
        ----------
        labels : array_like of int, shape (bins^d,)
            One class per cell in C order, in ``0 .. K-1``.
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        float
            The excess risk.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1 or ``labels`` has the wrong shape, dtype or range.

        References
        ----------
        003 Proposition 2, eq. (8).

        Examples
        --------
        The Bayes cell labels have excess 0; predicting 0 everywhere costs 7/16 - 1/16 on the left cell:

        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.excess_risk_partition(np.array([1, 0]), 2), law.excess_risk_partition(np.array([0, 0]), 2)
        (0.0, 0.375)
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
        r"""Mean pointwise regret of a classifier over the points X (an estimate of 003 eq. (8)).

        The mean of :math:`\eta^*(x) - \eta_{c(x)}(x)` over the rows of X.

        Parameters
        ----------
        labels : array_like of int, shape (n,)
            Predicted class at each point.
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        float
            The mean pointwise regret.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) in the unit cube or ``labels`` has another length.

        References
        ----------
        003 Proposition 2, eq. (8).

        Examples
        --------
        At x = 1/4 the Bayes class is 1 with :math:`\eta_1 = 1`; predicting 0 there costs 1:

        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.excess_risk_points([0, 0], [[0.25], [0.75]])
        0.5
        """
        X = check_points(X, self.d)
        lab = np.asarray(labels, dtype=np.int64)
        if lab.shape != (X.shape[0],):
            raise ValueError(f"labels must have shape ({X.shape[0]},), got {lab.shape}")
        eta = self.eta(X)
        return float(np.mean(eta.max(axis=1) - eta[np.arange(X.shape[0]), lab]))

    def bayes_classifier_partition(self, bins: int) -> np.ndarray:
        r"""The best classifier constant on each cell: :math:`\arg\max_j \int_{\text{cell}} \eta_j`.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        ndarray of int64, shape (bins^d,)
            One class per cell in C order.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (8) (minimizing it cell by cell).

        Examples
        --------
        >>> from simulations.laws.benchmarks import BoundaryClassification
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.bayes_classifier_partition(2).tolist()
        [1, 0]
        """
        return np.argmax(self.cell_class_mass(_check_bins(bins)), axis=1)


class RegressionLaw(abc.ABC):
    r"""Base of the regression laws: :math:`Y = \eta(X) + \text{noise}`, squared loss.

    Features are uniform on :math:`[0, 1]^d`. Subclasses define ``d``, :meth:`eta`, :meth:`sample_labels`,
    :meth:`cell_moments` and :meth:`bayes_risk`; the base class derives sampling and the exact excess
    risk of piecewise-constant predictors.

    References
    ----------
    003 eqs. (7), (9).

    Examples
    --------
    A concrete law: :math:`\eta(x) = |x - 1/2|` plus uniform noise on [-0.3, 0.3] (variance 0.03).

    >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
    >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
    >>> round(law.bayes_risk(), 12)
    0.03
    """

    @abc.abstractmethod
    def eta(self, X) -> np.ndarray:
        r"""The regression function :math:`\eta(x) = E[Y \mid X = x]`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            :math:`\eta` at each point.

        References
        ----------
        003 Section 3.2 (the regression function η).

        Examples
        --------
        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> law.eta([[0.0], [0.25]]).tolist()
        [0.5, 0.25]
        """

    @abc.abstractmethod
    def sample_labels(self, eta_x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        r"""Draw labels given the regression function at the sampled points.

        Parameters
        ----------
        eta_x : ndarray of float64, shape (n,)
            :math:`\eta(X_i)`.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n,)
            Labels with :math:`E[Y_i] = \eta(X_i)`.

        References
        ----------
        003 Section 3.2 (Y | X has mean η(X)); Assumptions 2-3 (bounded or heavy-tailed noise).

        Examples
        --------
        With zero noise the labels are η itself:

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law.sample_labels(np.array([0.25, 0.5]), np.random.default_rng(0)).tolist()
        [0.25, 0.5]
        """

    @abc.abstractmethod
    def cell_moments(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Per grid cell: the mean of η over the cell and the within-cell variance of η.

        :math:`\text{mean} = \int_{\text{cell}} \eta / |\text{cell}|` and
        :math:`\text{var} = \int_{\text{cell}} \eta^2 / |\text{cell}| - \text{mean}^2` (computed without
        cancellation where possible).

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        mean : ndarray of float64, shape (bins^d,)
            Cell means of η.
        var : ndarray of float64, shape (bins^d,)
            Within-cell variances of η.

        References
        ----------
        003 eq. (9) with f = 1.

        Examples
        --------
        :math:`\eta = |x - 1/2|` on [0, 1/2]: mean 1/4, :math:`E\eta^2 = 1/12`, variance 1/12 - 1/16 = 1/48.

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> mean, var = law.cell_moments(2)
        >>> mean.tolist(), bool(np.allclose(var, 1 / 48, rtol=1e-12, atol=0))
        ([0.25, 0.25], True)
        """

    @abc.abstractmethod
    def bayes_risk(self) -> float:
        r"""The Bayes risk :math:`R^* = E[(Y - \eta(X))^2]` (003 eq. (7)).

        Returns
        -------
        float
            :math:`R^*`.

        References
        ----------
        003 eq. (7).

        Examples
        --------
        Uniform noise on [-0.3, 0.3]: :math:`0.3^2/3 = 0.03`.

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> round(law.bayes_risk(), 12)
        0.03
        """

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        r"""Draw ``n`` pairs (X, Y): X uniform on the unit cube, Y from :meth:`sample_labels`.

        Parameters
        ----------
        n : int
            Number of pairs, >= 0.
        rng : numpy.random.Generator
            Source of randomness (features first, then labels).

        Returns
        -------
        X : ndarray of float64, shape (n, d)
            Features.
        Y : ndarray of float64, shape (n,)
            Real labels.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is not a Generator, SeedSequence or int seed.

        References
        ----------
        003 Section 3.2 (the data model).

        Examples
        --------
        The noise is bounded by 0.3 around :math:`\eta(X) = |X - 1/2|`:

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> X, Y = law.sample(100, np.random.default_rng(0))
        >>> X.shape, bool(np.all(np.abs(Y - np.abs(X[:, 0] - 0.5)) <= 0.3))
        ((100, 1), True)
        """
        rng = check_generator(rng)
        X = sample_uniform_features(n, self.d, rng)
        return X, self.sample_labels(self.eta(X), rng)

    def excess_risk_partition(self, values, bins: int) -> float:
        r"""Exact excess squared risk :math:`\int (g - \eta)^2` of g = ``values[l]`` on grid cell l.

        Per cell: :math:`|\text{cell}|\,((v - \text{mean})^2 + \text{var})` (003 eq. (9) with f = 1).

        Parameters
        ----------
        values : array_like of float, shape (bins^d,)
            Finite prediction per cell, C order.
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        float
            The excess risk.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1 or ``values`` is not a finite array of shape (bins^d,).

        References
        ----------
        003 Proposition 2, eq. (9).

        Examples
        --------
        Predicting each cell's mean of :math:`|x - 1/2|` leaves only the within-cell variance 1/48:

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> round(law.excess_risk_partition([0.25, 0.25], 2) * 48, 12)
        1.0
        """
        bins = _check_bins(bins)
        v = np.asarray(values, dtype=float)
        G = bins ** self.d
        if v.shape != (G,) or not np.all(np.isfinite(v)):
            raise ValueError(f"values must be a finite array of shape ({G},), got shape {v.shape}")
        mean, var = self.cell_moments(bins)
        return float(cell_volume(bins, self.d) * np.sum((v - mean) ** 2 + np.maximum(var, 0.0)))

    def excess_risk_points(self, predictions, X) -> float:
        r"""Mean of :math:`(g(x) - \eta(x))^2` over the points X (a Monte Carlo or quadrature estimate of eq. (9)).

        Parameters
        ----------
        predictions : array_like of float, shape (n,)
            :math:`g(X_i)`.
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        float
            The mean squared error against η.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) in the unit cube or ``predictions`` has another length.

        References
        ----------
        003 Proposition 2, eq. (9).

        Examples
        --------
        Predicting 0 where :math:`\eta = 1/2` and where :math:`\eta = 0`: mean of 1/4 and 0.

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> law.excess_risk_points([0.0, 0.0], [[0.0], [0.5]])
        0.125
        """
        X = check_points(X, self.d)
        g = np.asarray(predictions, dtype=float)
        if g.shape != (X.shape[0],):
            raise ValueError(f"predictions must have shape ({X.shape[0]},), got {g.shape}")
        return float(np.mean((g - self.eta(X)) ** 2))
