"""PCDE: the private cube-histogram density estimator of 001 Algorithm 3 on R^d, (ε, δ)-DP (full DP).

Algorithm (001 Algorithm 3, Theorem 4.2): cubes of side ``r = n^{-1/(2d)}`` anchored at the origin
(cube ``k ∈ Z^d`` is ``Π_a [k_a r, (k_a + 1) r)``); the counts of the cubes go through the
stability-based histogram (001 Algorithm 1, :class:`~simulations.mechanisms.StabilityHistogram`):
empty cubes stay 0 and receive no noise, non-empty ones get ``Lap(2/ε)`` and are released only above
``(2/ε) log(2/δ) + 1``; the estimate is ``f̂(x) = ĉ(x) / (n r^d)``.

Only occupied cubes exist in memory (integer coordinates, sorted unique keys), so R^d is fine.
Remark 4.1's post-processing (``normalize=True``): zero out negative values -- vacuous here, since
Algorithm 1 releases either 0 or a count above its threshold, which is > 0 -- and renormalize to
total mass 1: ``f̂ = ĉ / (r^d Σ_j ĉ_j)`` (left at 0 when every cube was suppressed). ``epsilon=None``
gives the non-private histogram ``count / (n r^d)`` (001 eq. (3)).

References: 001 Algorithm 1, Algorithm 3, eq. (3), Remark 4.1, Theorems 2.4, 4.2, 4.3.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, DensityMixin

from limits.validation import check_positive, check_probability, check_real
from simulations.mechanisms import StabilityHistogram

from ._common import check_fitted
from ._sklearn import LabelDPEstimatorMixin

__all__ = ["PCDE", "check_finite_points", "occupied_cubes", "tv_distance"]


def check_finite_points(X, name: str = "X") -> np.ndarray:
    """``X`` as a finite float array of shape (n, d), d >= 1.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points of R^d.
    name : str, default "X"
        The argument's name in error messages.

    Returns
    -------
    ndarray of float, shape (n, d)

    Raises
    ------
    ValueError
        If ``X`` is not 2-D with d >= 1, or holds a NaN or an infinity (the message names the row).

    References
    ----------
    001 Algorithm 3 (samples of R^d).

    Examples
    --------
    >>> check_finite_points([[0.5, -2.0]]).shape
    (1, 2)
    """
    arr = np.asarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] < 1:
        raise ValueError(f"{name} must have shape (n, d) with d >= 1, got shape {arr.shape}")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.argwhere(bad)[0, 0])
        raise ValueError(f"{name} must be finite (no NaN), got {name}[{i}]={arr[i].tolist()}")
    return arr


def _encode(K: np.ndarray, base: np.ndarray, span: np.ndarray) -> np.ndarray:
    key = np.zeros(K.shape[0], np.int64)
    for a in range(K.shape[1]):
        key = key * span[a] + (K[:, a] - base[a])
    return key


def occupied_cubes(X: np.ndarray, side: float):
    """The occupied cubes of side ``side`` and their point counts.

    Cube ``k`` (integer coordinates) is ``Π_a [k_a side, (k_a + 1) side)``.

    Parameters
    ----------
    X : ndarray of float, shape (n, d)
        Finite points.
    side : float > 0
        Cube side.

    Returns
    -------
    cells : ndarray of int64, shape (L, d)
        Integer coordinates of the occupied cubes, in lexicographic order.
    counts : ndarray of int64, shape (L,)
        Points per cube (sum n).

    References
    ----------
    001 Algorithm 3 line 4 (the histogram over the cubes).

    Examples
    --------
    >>> cells, counts = occupied_cubes(np.array([[0.1], [0.2], [-0.3], [0.9]]), 0.5)
    >>> cells.ravel().tolist(), counts.tolist()
    ([-1, 0, 1], [1, 2, 1])
    """
    K = np.floor(X / side).astype(np.int64)
    base, top = K.min(axis=0), K.max(axis=0)
    span = top - base + 1
    if float(np.prod(span.astype(float))) < 2.0 ** 62:
        keys, counts = np.unique(_encode(K, base, span), return_counts=True)
        cells = np.empty((keys.size, K.shape[1]), np.int64)
        rest = keys.copy()
        for a in range(K.shape[1] - 1, -1, -1):
            cells[:, a] = rest % span[a] + base[a]
            rest //= span[a]
        return cells, counts.astype(np.int64)
    cells, counts = np.unique(K, axis=0, return_counts=True)
    return cells, counts.astype(np.int64)


class PCDE(LabelDPEstimatorMixin, DensityMixin, BaseEstimator):
    """Private density estimator (001 Algorithm 3).

    Parameters
    ----------
    epsilon : float > 0 or None (non-private histogram)
    delta : float in (0, 1)
    side : float > 0 or None (``n^{-1/(2d)}``)
    normalize : bool, Remark 4.1's renormalization to total mass 1.
    random_state : None, int or numpy.random.Generator, default None
        Draws the Laplace noise at ``fit`` (nothing is drawn when ``epsilon`` is None): a Generator is
        drawn from as it is (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    side_, d_, n_ : float, int, int
        Cube side, dimension, sample size.
    n_features_in_ : int
        d.
    cells_ : ndarray of int64, shape (L, d)
        Integer coordinates of the cubes with a non-zero released count.
    values_ : ndarray of float, shape (L,)
        The density on those cubes (0 elsewhere): released count / (n side^d).
    counts_ : ndarray of int64, shape (L,)
        Their true counts (diagnostics only; not part of the private output).

    References
    ----------
    001 Algorithm 3, Algorithm 1 (stability histogram), Remark 4.1, Theorem 4.3.

    Examples
    --------
    Without privacy the density is count / (n side^d): 3 of 4 points in [0, 1/2) give 1.5.

    >>> X = np.array([[0.1], [0.2], [0.3], [0.9]])
    >>> est = PCDE(epsilon=None, side=0.5).fit(X)
    >>> est.values_.tolist(), est.total_mass_
    ([1.5, 0.5], 1.0)
    """

    _label_domain = "none"  # a density estimator: no labels

    def __init__(self, *, epsilon: float | None = 1.0, delta: float = 1e-6, side: float | None = None,
                 normalize: bool = False, random_state=None):
        self.random_state = random_state
        self.epsilon = epsilon
        self.delta = delta
        self.side = side
        self.normalize = normalize

    def _mechanism(self):
        if self.epsilon is None:
            return None
        check_positive("epsilon", self.epsilon)
        d = check_probability("delta", self.delta)
        if d == 0:
            raise ValueError(f"delta must be in (0, 1), got delta={self.delta}")
        return StabilityHistogram(self.epsilon, self.delta)

    def cube_counts(self, X):
        """The data-dependent part of the release: the side and the occupied cubes' counts.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite points, n >= 1.

        Returns
        -------
        side : float
            ``side``, or ``n^{-1/(2d)}`` when it is None.
        cells : ndarray of int64, shape (L, d)
            Occupied cubes (lexicographic order).
        counts : ndarray of int64, shape (L,)
            Their counts.

        Raises
        ------
        ValueError
            If ``X`` is not finite of shape (n, d), n = 0, or ``side`` <= 0.

        References
        ----------
        001 Algorithm 3 lines 2-4.

        Examples
        --------
        >>> side, cells, counts = PCDE(epsilon=None).cube_counts(np.array([[0.1], [0.2], [0.3], [0.9]]))
        >>> side, counts.tolist()  # side 4^(-1/2)
        (0.5, [3, 1])
        """
        X = check_finite_points(X)
        n, d = X.shape
        if n < 1:
            raise ValueError(f"n must be >= 1 (the number of points), got n={n}")
        side = float(n) ** (-1.0 / (2 * d)) if self.side is None else check_real("side", self.side, low=0.0,
                                                                                  low_open=True)
        cells, counts = occupied_cubes(X, side)
        return side, cells, counts

    def fit(self, X, y=None) -> "PCDE":
        """Release the histogram of the cubes through the stability histogram and divide by ``n side^d``.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite sample of R^d, n >= 1.
        y : None
            Ignored (a density estimator; scikit-learn's signature).

        Returns
        -------
        PCDE
            self, with ``side_``, ``d_``, ``n_``, ``cells_``, ``values_`` and ``counts_``.

        Raises
        ------
        ValueError
            If ``epsilon`` <= 0, ``delta`` is not in (0, 1), ``side`` <= 0, ``X`` is malformed, or
            ``random_state`` is invalid.

        References
        ----------
        001 Algorithm 3 lines 4-6; Remark 4.1 (``normalize``).

        Examples
        --------
        Four points never pass the stability threshold (about (2/ε) ln(2/δ) + 1 ≈ 30 at ε = 1, δ = 1e-6):

        >>> PCDE(epsilon=1.0, delta=1e-6, random_state=0).fit(np.array([[0.1], [0.2], [0.3], [0.9]])).cells_.shape
        (0, 1)
        """
        X, y = self._check_input(X, y, requires_y=False)
        mech = self._mechanism()
        rng = self._random_generator()
        side, cells, counts = self.cube_counts(X)
        n, d = np.shape(X)
        if mech is None:
            released = counts.astype(float)
        else:
            released = mech.release(counts, rng)
        keep = released > 0
        self.side_, self.d_, self.n_, self.n_features_in_ = side, d, n, d
        self.cells_, self.counts_ = cells[keep], counts[keep]
        c_hat = released[keep]
        vol = side ** d
        if self.normalize:
            c_hat = np.maximum(c_hat, 0.0)  # Remark 4.1 (vacuous for Algorithm 1's output)
            total = c_hat.sum()
            self.values_ = c_hat / (total * vol) if total > 0 else c_hat
        else:
            self.values_ = c_hat / (n * vol)
        return self

    def renormalized(self) -> "PCDE":
        """A copy with Remark 4.1 applied to the same released counts: ``f̂ / ∫ f̂`` (unchanged if ∫ f̂ = 0).

        Returns
        -------
        PCDE
            A fitted copy with ``normalize=True`` and total mass 1 (or 0).

        References
        ----------
        001 Remark 4.1.

        Examples
        --------
        >>> est = PCDE(epsilon=None, side=0.5).fit(np.array([[0.1], [0.9]]))
        >>> est.values_ = est.values_ / 2  # any released density of mass 1/2
        >>> est.renormalized().total_mass_
        1.0
        """
        import copy

        out = copy.copy(self)
        m = self.total_mass_
        out.values_ = self.values_ / m if m > 0 else self.values_.copy()
        out.normalize = True
        return out

    def cube_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Corners of the cubes with a released density.

        Returns
        -------
        lo, hi : ndarray of float, shape (L, d)
            ``cells_ * side_`` and ``lo + side_``.

        Examples
        --------
        >>> lo, hi = PCDE(epsilon=None, side=0.5).fit(np.array([[0.1], [0.9]])).cube_bounds()
        >>> lo.ravel().tolist(), hi.ravel().tolist()
        ([0.0, 0.5], [0.5, 1.0])
        """
        lo = self.cells_ * self.side_
        return lo, lo + self.side_

    def density(self, X) -> np.ndarray:
        """The released density f̂ at query points.

        Parameters
        ----------
        X : array_like, shape (q, d)
            Finite query points.

        Returns
        -------
        ndarray of float, shape (q,)
            0 outside the released cubes.

        Raises
        ------
        ValueError
            If the estimator is not fitted or ``X`` is not finite with d columns.

        Examples
        --------
        >>> est = PCDE(epsilon=None, side=0.5).fit(np.array([[0.1], [0.2], [0.3], [0.9]]))
        >>> est.density([[0.4], [0.6], [2.0]]).tolist()
        [1.5, 0.5, 0.0]
        """
        self._check_predict_input(X)
        check_fitted(self, "d_")
        X = check_finite_points(X)
        K = np.floor(X / self.side_).astype(np.int64)
        out = np.zeros(X.shape[0])
        if self.cells_.shape[0] == 0:
            return out
        order = np.lexsort(self.cells_.T[::-1])
        cells = self.cells_[order]
        lookup = {tuple(c): v for c, v in zip(cells.tolist(), self.values_[order])}
        return np.array([lookup.get(tuple(k), 0.0) for k in K.tolist()])

    def l1_distance(self, law) -> float:
        """The exact L1 distance ``∫ |f − f̂|`` to the density ``f`` of ``law``.

        Parameters
        ----------
        law : ProductDensity
            A :class:`~simulations.laws.densities.ProductDensity` (exact cube integrals).

        Returns
        -------
        float
            In [0, 2]; 1 when nothing was released (f̂ = 0).

        References
        ----------
        001 Theorem 4.3 (PCDE is L1-consistent).

        Examples
        --------
        >>> from simulations.laws.densities import ProductDensity
        >>> est = PCDE(epsilon=1.0, random_state=0).fit(np.array([[0.1], [0.2]]))  # too few points: nothing released
        >>> est.l1_distance(ProductDensity(1))
        1.0
        """
        if self.cells_.shape[0] == 0:
            return 1.0
        lo, hi = self.cube_bounds()
        inside = law.l1_cubes(lo, hi, self.values_).sum()
        outside = 1.0 - law.mass(lo, hi).sum()
        return float(inside + max(outside, 0.0))

    @property
    def total_mass_(self) -> float:
        """``∫ f̂``, the released density's total mass (1 without privacy; Remark 4.1 renormalizes it).

        Examples
        --------
        >>> PCDE(epsilon=None, side=0.5).fit(np.array([[0.1], [0.9]])).total_mass_
        1.0
        """
        return float(self.values_.sum() * self.side_ ** self.d_)


def tv_distance(est: PCDE, law) -> float:
    """Total variation ``½ ∫ |f − f̂|`` between ``law`` and the released density.

    For a renormalized f̂ (001 Remark 4.1) both are probability densities.

    Parameters
    ----------
    est : PCDE
        A fitted estimator.
    law : ProductDensity
        The true law.

    Returns
    -------
    float
        Half of :meth:`PCDE.l1_distance`.

    References
    ----------
    001 Theorem 4.3, Remark 4.1.

    Examples
    --------
    >>> from simulations.laws.densities import ProductDensity
    >>> tv_distance(PCDE(epsilon=1.0, random_state=0).fit(np.array([[0.1]])), ProductDensity(1))
    0.5
    """
    return 0.5 * est.l1_distance(law)

