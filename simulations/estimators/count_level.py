"""Count-level exact simulation of the partition (histogram) estimators of 003.

Every partition estimator of :mod:`simulations.estimators.partition` is a function of the per-cell
label counts ``n_{lj}`` (classification) or of the per-cell counts and label sums (regression),
plus the mechanism's noise. With uniform features and a law whose label takes finitely many values
``y_1..y_M``, the N pairs ``(cell(X_i), Y_i)`` are i.i.d. on the ``bins^d × M`` outcomes with
probabilities ``P(X ∈ B_l, Y = y_m)`` (the law's exact cell integrals), so the table of counts is
``Multinomial(N, P)``. Drawing that table and then the mechanism's output *from the counts* gives
the fitted cell values with exactly the distribution of the point-level path (sample N points,
privatize, bin), at a cost independent of N (numpy's multinomial draws one binomial per outcome).

Per-point (local) mechanisms are also simulated exactly at count level:

* the K-bit vector mechanism (003 eq. (11)-(12), Theorem 2): bit ``j`` of a point is 1 with
  probability ``a`` if its label is ``j`` and ``b`` otherwise, independently over bits and points,
  so ``S_{lj} = Bin(n_{lj}, a) + Bin(n_l − n_{lj}, b)``, independent over ``(l, j)`` given the
  counts (:func:`vector_mechanism_sums`);
* a label randomizer with channel ``P[y, z]`` (randomized response, RRWithPrior, ...): the outputs
  of the ``n_{ly}`` points of class ``y`` in cell ``l`` are ``Multinomial(n_{ly}, P[y])``, independent
  over ``(l, y)`` (:func:`randomized_response_counts`);
* local Laplace noise on responses: the noise part of a bin sum is a sum of ``n`` i.i.d.
  ``Lap(b)``. That sum is *not* Laplace; since ``Lap(b) = Exp(b) − Exp(b)`` it is exactly
  ``Gamma(n, b) − Gamma(n, b)`` (:func:`laplace_sum`).

Central mechanisms (the exponential mechanism of eq. (17), the noisy bin mean of eqs. (23), (28))
already act on counts and sums; :func:`fit_from_counts` calls the very same mechanism objects.
Clipping of a finite-valued label at level ``T`` clips the values ``y_m``; the clipped sum is
``∑_m n_{lm} clip(y_m)``, exact.

What is *not* reproduced bit for bit is the random stream: the two paths consume their generators
differently, so they agree in distribution (tested by exact enumeration and two-sample tests in
``tests/simulations/test_count_level.py``), not draw by draw.

References: 003 eqs. (11)-(13), (17), (23), (28); Theorems 2, 4, 8, 12.
"""

from __future__ import annotations

import numpy as np

from limits.validation import check_int, check_positive
from simulations.estimators._common import check_rng
from simulations.estimators.partition import (BinMajorityClassifier, BinMeanRegressor, ExponentialBinClassifier,
                                              LaplaceBinMeanRegressor, VectorBinClassifier, argmax_random_ties,
                                              bins_for_width)
from simulations.laws.base import ClassificationLaw
from simulations.mechanisms import ExponentialMechanism, NoisyBinMean, VectorMechanism
from simulations.seeding import check_generator

__all__ = ["cell_label_law", "draw_cell_counts", "fit_count_level", "fit_from_counts", "laplace_sum",
           "randomized_response_counts", "vector_mechanism_sums", "COUNT_LEVEL_ESTIMATORS"]

#: the estimators :func:`fit_from_counts` handles (003 Theorems 2, 4, 8, 12 and the baselines)
COUNT_LEVEL_ESTIMATORS = (BinMajorityClassifier, VectorBinClassifier, ExponentialBinClassifier, BinMeanRegressor,
                          LaplaceBinMeanRegressor)

_SUM_TOL = 1e-9


def check_cell_probabilities(cell_probabilities) -> np.ndarray:
    """``cell_probabilities`` as a float array of shape (G, M): finite, >= 0, summing to 1 (within 1e-9)."""
    P = np.asarray(cell_probabilities, dtype=float)
    if P.ndim != 2 or P.size == 0:
        raise ValueError(f"cell_probabilities must have shape (cells, outcomes), got shape {P.shape}")
    if not np.all(np.isfinite(P)) or P.min() < 0:
        raise ValueError(f"cell_probabilities must be finite and >= 0, got min={np.nanmin(P)!r}")
    total = float(P.sum())
    if abs(total - 1.0) > _SUM_TOL * max(1.0, P.size ** 0.5):
        raise ValueError(f"cell_probabilities must sum to 1, got sum={total!r}")
    return P


def check_counts(counts, shape=None) -> np.ndarray:
    """Non-negative integer counts, optionally of a given shape."""
    c = np.asarray(counts)
    if c.size and not np.issubdtype(c.dtype, np.integer):
        raise ValueError(f"counts must be integers, got dtype {c.dtype}")
    if shape is not None and c.shape != tuple(shape):
        raise ValueError(f"counts must have shape {tuple(shape)}, got shape {c.shape}")
    if c.size and c.min() < 0:
        raise ValueError(f"counts must be >= 0, got a negative count counts.min()={int(c.min())}")
    return c.astype(np.int64, copy=False)


def cell_label_law(law, bins: int) -> tuple[np.ndarray, np.ndarray | None]:
    """The exact joint law of (grid cell, label) of ``law`` on the grid with ``bins`` cells per axis.

    Parameters
    ----------
    law : ClassificationLaw or regression law
        A :class:`~simulations.laws.base.ClassificationLaw` (labels ``0..K−1``) or a regression law
        with finitely many label values exposing ``cell_label_masses(bins)`` (``BumpRegression``,
        ``ThreePointRegression``).
    bins : int >= 1
        Cells per axis.

    Returns
    -------
    masses : ndarray of float, shape (bins^d, M)
        ``P(X ∈ B_l, Y = y_m)``, summing to 1.
    values : ndarray of float, shape (M,), or None
        Label values for regression laws; None for classification (labels are ``m``).

    Raises
    ------
    ValueError
        If ``bins`` < 1 or the law has no finite label set.

    References
    ----------
    003 Theorems 2, 4, 8 (the estimators depend on the data only through these cell counts).

    Examples
    --------
    >>> from simulations.laws.benchmarks import BoundaryClassification
    >>> masses, values = cell_label_law(BoundaryClassification(d=1, kappa=1.0), 2)
    >>> masses.shape, round(float(masses.sum()), 12), values
    ((2, 2), 1.0, None)
    """
    bins = check_int("bins", bins, low=1)
    if isinstance(law, ClassificationLaw):
        return check_cell_probabilities(_drop_rounding(law.cell_class_mass(bins))), None
    if not hasattr(law, "cell_label_masses"):
        raise ValueError(f"law must have finitely many label values (a cell_label_masses method) for count-level "
                         f"simulation, got law={type(law).__name__}")
    masses, values = law.cell_label_masses(bins)
    return check_cell_probabilities(_drop_rounding(masses)), np.asarray(values, dtype=float)


def _drop_rounding(masses) -> np.ndarray:
    """Set to 0 the masses in (−1e-12, 0): the rounding of a law's closed-form cell integrals (a mass of
    0 computed as a difference); a larger negative mass is left for the check to refuse."""
    m = np.asarray(masses, dtype=float)
    return np.where((m < 0) & (m > -1e-12), 0.0, m)


def draw_cell_counts(cell_probabilities, N: int, rng: np.random.Generator) -> np.ndarray:
    """``Multinomial(N, P)`` over the (cell, label) outcomes.

    The counts of N i.i.d. pairs with ``P(cell = l, label = m) = P[l, m]``; O(G·M) whatever N
    (one binomial per outcome).

    Parameters
    ----------
    cell_probabilities : array_like of float, shape (G, M)
        P, non-negative, summing to 1.
    N : int >= 0
        Number of points.
    rng : numpy.random.Generator or int seed
        The DATA stream.

    Returns
    -------
    ndarray of int64, shape (G, M)
        Counts summing to N.

    Raises
    ------
    ValueError
        If P is not a probability table or N < 0.

    Examples
    --------
    >>> int(draw_cell_counts([[0.5, 0.0], [0.0, 0.5]], 10, np.random.default_rng(0)).sum())
    10
    >>> draw_cell_counts([[1.0, 0.0]], 7, 0).tolist()
    [[7, 0]]
    """
    P = check_cell_probabilities(cell_probabilities)
    N = check_int("N", N, low=0)
    rng = check_generator(rng)
    flat = P.ravel() / P.sum()
    return rng.multinomial(N, flat).reshape(P.shape).astype(np.int64, copy=False)


def vector_mechanism_sums(label_counts, mechanism: VectorMechanism, rng: np.random.Generator) -> np.ndarray:
    """Bin sums ``S_{lj} = ∑_{X_i ∈ B_l} Z_i(j)`` of the vector mechanism's bits, drawn from the counts.

    ``S_{lj} = Bin(n_{lj}, a) + Bin(n_l − n_{lj}, b)`` with ``(a, b) = mechanism.flip_probabilities()``
    (003 eq. (12)): the exact law of the point-level sums given the counts.

    Parameters
    ----------
    label_counts : array_like of int, shape (G, K)
        ``n_{lj}``.
    mechanism : VectorMechanism
        With ``num_classes = K``.
    rng : numpy.random.Generator or int seed
        The PRIVACY stream.

    Returns
    -------
    ndarray of int64, shape (G, K)
        ``S_{lj}``, each in ``[0, n_l]``.

    Raises
    ------
    ValueError
        If the counts are negative or their shape does not match K.

    References
    ----------
    003 eq. (12); 000 eqs. (12)-(13).

    Examples
    --------
    >>> from simulations.mechanisms import VectorMechanism
    >>> S = vector_mechanism_sums([[3, 0], [0, 0]], VectorMechanism(num_classes=2, epsilon=1.0), 0)
    >>> S.shape, S[1].tolist()  # an empty cell sums nothing
    ((2, 2), [0, 0])
    """
    n = check_counts(label_counts)
    if n.ndim != 2 or n.shape[1] != mechanism.num_classes:
        raise ValueError(f"label_counts must have shape (cells, {mechanism.num_classes}), got shape {n.shape}")
    rng = check_generator(rng)
    a, b = mechanism.flip_probabilities()
    others = n.sum(axis=1, keepdims=True) - n
    return rng.binomial(n, a) + rng.binomial(others, b)


def randomized_response_counts(label_counts, channel, rng: np.random.Generator) -> np.ndarray:
    """Per-cell counts of the outputs of a per-label channel, drawn from the label counts.

    Parameters
    ----------
    label_counts : array_like of int, shape (G, K)
        ``n_{ly}``.
    channel : array_like of float, shape (K, J)
        Row ``y`` = the output law given label ``y`` (rows sum to 1).
    rng : numpy.random.Generator or int seed
        The PRIVACY stream.

    Returns
    -------
    ndarray of int64, shape (G, J)
        ``∑_y Multinomial(n_{ly}, channel[y])`` per cell.

    Raises
    ------
    ValueError
        If the shapes disagree or a channel row is not a probability vector.

    References
    ----------
    004 eq. (1) (randomized response's channel).

    Examples
    --------
    The identity channel returns the counts:

    >>> randomized_response_counts([[3, 1]], np.eye(2), 0).tolist()
    [[3, 1]]
    """
    n = check_counts(label_counts)
    C = np.asarray(channel, dtype=float)
    if n.ndim != 2 or C.ndim != 2 or C.shape[0] != n.shape[1]:
        raise ValueError(f"channel must have shape ({n.shape[1] if n.ndim == 2 else '?'}, outputs), got {C.shape}")
    if not np.all(np.isfinite(C)) or C.min() < 0 or np.any(np.abs(C.sum(axis=1) - 1.0) > 1e-9):
        raise ValueError(f"channel rows must be probability vectors, got row sums {C.sum(axis=1)!r}")
    rng = check_generator(rng)
    out = np.zeros((n.shape[0], C.shape[1]), dtype=np.int64)
    for y in range(C.shape[0]):
        out += rng.multinomial(n[:, y], C[y] / C[y].sum())
    return out


def laplace_sum(n, scale: float, rng: np.random.Generator) -> np.ndarray:
    """Exact draw of ``∑_{i<n} W_i`` with ``W_i`` i.i.d. ``Lap(scale)``, for each entry of ``n``.

    ``Lap(b) = Exp(b) − Exp(b)`` (independent), so the sum is ``Gamma(n, b) − Gamma(n, b)``; 0 where
    ``n = 0``. Not Laplace for n >= 2 (its variance is ``2 n b²`` and its tails are lighter).

    Parameters
    ----------
    n : array_like of int
        Counts >= 0, any shape.
    scale : float > 0
        Laplace scale b.
    rng : numpy.random.Generator or int seed
        The PRIVACY stream.

    Returns
    -------
    ndarray of float, shape of ``np.atleast_1d(n)``
        The sums (0 where n = 0).

    Raises
    ------
    ValueError
        If a count is negative or ``scale`` <= 0.

    References
    ----------
    003 Theorem 6 (labels privatized by Laplace noise, summed per neighbourhood).

    Examples
    --------
    >>> s = laplace_sum([0, 2], 1.0, 0)
    >>> s.shape, float(s[0])
    ((2,), 0.0)
    """
    n = check_counts(np.atleast_1d(n))
    scale = check_positive("scale", scale)
    rng = check_generator(rng)
    out = np.zeros(n.shape)
    live = n > 0
    k = n[live].astype(float)
    out[live] = rng.gamma(k, scale) - rng.gamma(k, scale)
    return out


def fit_from_counts(estimator, counts, rng, *, d: int, values=None):
    """Fit a partition estimator from the (cell, label) count table instead of the points.

    Parameters
    ----------
    estimator : estimator
        An unfitted instance of one of :data:`COUNT_LEVEL_ESTIMATORS`; its ``h`` gives
        ``bins = ceil(1/h)``.
    counts : array_like of int, shape (bins^d, M)
        ``n_{lm}`` = points of cell l with label m (classification: m is the class, M = K;
        regression: the label value ``values[m]``).
    rng : numpy.random.Generator or int seed
        The PRIVACY stream (mechanism noise, ties), as ``random_state`` at ``estimator.fit`` (the
        estimator's own ``random_state`` is not read).
    d : int >= 1
        Dimension.
    values : array_like of float, shape (M,), optional
        Label values (regression estimators only).

    Returns
    -------
    estimator
        The estimator, with the attributes ``fit`` sets (``bins_``, ``n_features_in_``, ``counts_``,
        ``cell_values_``, ``mechanism_``), distributed as after ``fit`` on N points with these counts.

    Raises
    ------
    ValueError
        If the estimator is not a count-level one, the counts do not match its grid, or ``values``
        is missing / present where it must not be.

    References
    ----------
    003 Theorems 2, 4, 8, 12 (each estimator is a function of the cell counts).

    Examples
    --------
    Cell 0 holds three 0s and one 1, cell 1 two 1s: the majority rule gives (0, 1).

    >>> from simulations.estimators import BinMajorityClassifier
    >>> est = fit_from_counts(BinMajorityClassifier(num_classes=2, h=0.5), [[3, 1], [0, 2]], 0, d=1)
    >>> est.cell_values_.tolist(), est.counts_.tolist()
    ([0, 1], [4, 2])
    """
    if not isinstance(estimator, COUNT_LEVEL_ESTIMATORS):
        raise ValueError(f"estimator must be one of {[c.__name__ for c in COUNT_LEVEL_ESTIMATORS]}, "
                         f"got estimator={type(estimator).__name__}")
    d = check_int("d", d, low=1)
    bins = bins_for_width(estimator.h)
    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[0] != bins ** d:
        raise ValueError(f"counts must have shape ({bins ** d}, outcomes) for h={estimator.h}, d={d}, got {c.shape}")
    c = check_counts(c)
    rng = check_rng(rng, required=not isinstance(estimator, BinMeanRegressor))
    estimator.bins_ = bins
    estimator.n_features_in_ = d
    n_l = c.sum(axis=1)
    if isinstance(estimator, (BinMajorityClassifier, VectorBinClassifier, ExponentialBinClassifier)):
        K = check_int("num_classes", estimator.num_classes, low=2)
        if values is not None or c.shape[1] != K:
            raise ValueError(f"a classifier takes label counts of shape ({bins ** d}, {K}) and no values")
        estimator.classes_ = np.arange(K)
        estimator.counts_ = n_l
        if isinstance(estimator, VectorBinClassifier):
            estimator.mechanism_ = VectorMechanism(num_classes=K, epsilon=estimator.epsilon)
            estimator.cell_values_ = argmax_random_ties(vector_mechanism_sums(c, estimator.mechanism_, rng), rng)
        elif isinstance(estimator, ExponentialBinClassifier):
            estimator.mechanism_ = ExponentialMechanism(num_classes=K, epsilon=estimator.epsilon)
            estimator.cell_values_ = estimator.mechanism_.sample(c, rng)
        else:
            estimator.mechanism_ = None
            estimator.cell_values_ = argmax_random_ties(c, rng)
        return estimator
    if values is None:
        raise ValueError("a regression estimator needs the label values of the count columns, got values=None")
    v = np.asarray(values, dtype=float)
    if v.shape != (c.shape[1],) or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be {c.shape[1]} finite label values, got shape {v.shape}")
    estimator.counts_ = n_l
    if isinstance(estimator, BinMeanRegressor):
        sums = c @ v
        estimator.cell_values_ = np.divide(sums, n_l, out=np.zeros_like(sums), where=n_l > 0)
        estimator.mechanism_ = None
        return estimator
    estimator.mechanism_ = NoisyBinMean(T=estimator.T, epsilon=estimator.epsilon, clip=estimator.clip)
    if estimator.clip:
        v = np.clip(v, -estimator.T, estimator.T)
    elif np.any((np.abs(v) > estimator.T) & (c.sum(axis=0) > 0)):
        raise ValueError(f"labels must lie in [-T, T] = [{-estimator.T}, {estimator.T}] (or set clip=True)")
    estimator.cell_values_ = estimator.mechanism_.release(c @ v, n_l, rng)
    return estimator


def fit_count_level(estimator, law, N: int, data_rng: np.random.Generator, privacy_rng: np.random.Generator):
    """Count-level counterpart of ``estimator.set_params(random_state=privacy_rng).fit(*law.sample(N, data_rng))``.

    Draws the (cell, label) counts of N points from the law's exact cell probabilities
    (``data_rng``), then the mechanism's output from them (``privacy_rng``). Same distribution of the
    fitted ``cell_values_`` as the point-level path; cost independent of N.

    Parameters
    ----------
    estimator : estimator
        An unfitted count-level estimator (see :func:`fit_from_counts`).
    law : law
        A law accepted by :func:`cell_label_law`.
    N : int >= 0
        Sample size.
    data_rng : numpy.random.Generator or int seed
        The DATA stream (the counts).
    privacy_rng : numpy.random.Generator or int seed
        The PRIVACY stream (the mechanism).

    Returns
    -------
    estimator
        The fitted estimator.

    Raises
    ------
    ValueError
        As :func:`cell_label_law` and :func:`fit_from_counts`.

    References
    ----------
    003 Theorems 2, 4, 8, 12.

    Examples
    --------
    >>> from simulations.estimators import BinMajorityClassifier
    >>> from simulations.laws.benchmarks import BoundaryClassification
    >>> est = fit_count_level(BinMajorityClassifier(num_classes=2, h=0.5), BoundaryClassification(d=1, kappa=1.0),
    ...                       1000, np.random.default_rng(0), np.random.default_rng(1))
    >>> int(est.counts_.sum()), est.cell_values_.shape
    (1000, (2,))
    """
    bins = bins_for_width(estimator.h)
    masses, values = cell_label_law(law, bins)
    counts = draw_cell_counts(masses, N, data_rng)
    return fit_from_counts(estimator, counts, privacy_rng, d=law.d, values=values)
