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
from sklearn.base import BaseEstimator

from limits.validation import check_positive, check_probability, check_real
from simulations.mechanisms import StabilityHistogram
from simulations.seeding import check_generator

from ._common import check_fitted

__all__ = ["PCDE", "check_finite_points", "occupied_cubes", "tv_distance"]


def check_finite_points(X, name: str = "X") -> np.ndarray:
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
    """Integer coordinates of the occupied cubes (L, d) in lexicographic order and their counts (L,)."""
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


class PCDE(BaseEstimator):
    """Private density estimator (001 Algorithm 3).

    Parameters
    ----------
    epsilon : float > 0 or None (non-private histogram)
    delta : float in (0, 1)
    side : float > 0 or None (``n^{-1/(2d)}``)
    normalize : bool, Remark 4.1's renormalization to total mass 1.

    Attributes
    ----------
    side_, d_, n_ : float, int, int
    cells_ : int64 (L, d), integer coordinates of the cubes with a non-zero released count.
    values_ : float (L,), the density on those cubes (0 elsewhere).
    counts_ : int64 (L,), their true counts (diagnostics only; not part of the private output).
    """

    def __init__(self, *, epsilon: float | None = 1.0, delta: float = 1e-6, side: float | None = None,
                 normalize: bool = False):
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
        """The data-dependent part: side, occupied cube coordinates and counts (001 Algorithm 3 line 4)."""
        X = check_finite_points(X)
        n, d = X.shape
        if n < 1:
            raise ValueError(f"n must be >= 1 (the number of points), got n={n}")
        side = float(n) ** (-1.0 / (2 * d)) if self.side is None else check_real("side", self.side, low=0.0,
                                                                                  low_open=True)
        cells, counts = occupied_cubes(X, side)
        return side, cells, counts

    def fit(self, X, rng) -> "PCDE":
        mech = self._mechanism()
        side, cells, counts = self.cube_counts(X)
        n, d = np.shape(X)
        if mech is None:
            released = counts.astype(float)
        else:
            released = mech.release(counts, check_generator(rng))
        keep = released > 0
        self.side_, self.d_, self.n_ = side, d, n
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
        """A copy with Remark 4.1 applied to the same released counts: ``f̂ / ∫ f̂`` (unchanged if ∫ f̂ = 0)."""
        import copy

        out = copy.copy(self)
        m = self.total_mass_
        out.values_ = self.values_ / m if m > 0 else self.values_.copy()
        out.normalize = True
        return out

    def cube_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        lo = self.cells_ * self.side_
        return lo, lo + self.side_

    def density(self, X) -> np.ndarray:
        """f̂ at query points, shape (q,)."""
        check_fitted(self, "d_")
        X = check_finite_points(X)
        if X.shape[1] != self.d_:
            raise ValueError(f"X must have {self.d_} columns, got shape {X.shape}")
        K = np.floor(X / self.side_).astype(np.int64)
        out = np.zeros(X.shape[0])
        if self.cells_.shape[0] == 0:
            return out
        order = np.lexsort(self.cells_.T[::-1])
        cells = self.cells_[order]
        lookup = {tuple(c): v for c, v in zip(cells.tolist(), self.values_[order])}
        return np.array([lookup.get(tuple(k), 0.0) for k in K.tolist()])

    def l1_distance(self, law) -> float:
        """``∫ |f − f̂|`` exactly for a :class:`~simulations.laws.densities.ProductDensity` ``law``."""
        if self.cells_.shape[0] == 0:
            return 1.0
        lo, hi = self.cube_bounds()
        inside = law.l1_cubes(lo, hi, self.values_).sum()
        outside = 1.0 - law.mass(lo, hi).sum()
        return float(inside + max(outside, 0.0))

    @property
    def total_mass_(self) -> float:
        return float(self.values_.sum() * self.side_ ** self.d_)


def tv_distance(est: PCDE, law) -> float:
    """Total variation ``½ ∫ |f − f̂|`` (for a renormalized f̂ both are probability densities)."""
    return 0.5 * est.l1_distance(law)

