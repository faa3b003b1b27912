"""PCL2 and PCL2b: Voronoi-cell learners of 001 Appendix A on doubling metric spaces (full DP).

* :class:`PCL2` (001 Algorithm 4, ε-DP): ``r = n^{-1/(4d)}`` (d = doubling dimension used for the
  scale), a maximal r-packing of the *space* (data-independent: :mod:`simulations.metric_spaces`),
  and on each Voronoi cell ``V`` the noisy vote ``1[Σ_{x_i∈V} (y_i − 1/2) + Lap(1/ε) > 0]``. Noise is
  keyed by the cell (as in :class:`~simulations.estimators.pcl.PCL`), so an empty cell's noise is
  drawn at its first query and is the same afterwards: this also works for countably many cells
  (R^d), where the learner stays ε-DP -- see the module notes of ``metric_space_consistency``.
* :class:`PCL2b` (001 Algorithm 5, (2ε, 2δ)-DP by Theorem A.14): two stability-based histograms
  (001 Algorithm 1) over the occupied cells, ``ĉ`` of all points and ``ŷ`` of the points labelled 1;
  ``ŷ(x) = min(ŷ_j, ĉ_j)`` and ``h(x) = 1[ŷ(x) > ĉ(x)/2]`` (cells never released: 0).

References: 001 Algorithms 1, 4, 5; Theorems A.6, A.12-A.15; Lemmas A.8-A.9.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator

from limits.validation import check_positive, check_probability
from simulations.kernels_cells import keyed_laplace
from simulations.mechanisms import StabilityHistogram
from simulations.mechanisms.laplace import laplace_logsf
from simulations.seeding import check_generator

from ._common import check_fitted
from .pcl import check_binary_labels

__all__ = ["PCL2", "PCL2b", "pcl2_radius"]


def pcl2_radius(n: int, d: float) -> float:
    """``r = n^{-1/(4d)}`` (001 Algorithm 4 line 2, Algorithm 5 line 2)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got n={n!r}")
    d = check_positive("d", d)
    if d < 1:
        raise ValueError(f"d must be >= 1, got d={d}")
    return float(n) ** (-1.0 / (4 * d))


class _CellLearner(BaseEstimator):
    def __init__(self, *, space, epsilon: float | None = 1.0):
        self.space = space
        self.epsilon = epsilon

    def _cells(self, X, y):
        keys = self.space.assign(X)
        n = keys.shape[0]
        if n < 1:
            raise ValueError(f"n must be >= 1 (the number of points), got n={n}")
        y = check_binary_labels(y, n)
        occ, inv = np.unique(keys, return_inverse=True)
        counts = np.bincount(inv, minlength=occ.size).astype(np.int64)
        ones = np.bincount(inv, weights=y, minlength=occ.size).astype(np.int64)
        return occ, counts, ones

    def _lookup(self, keys, values, default):
        keys = np.asarray(keys, dtype=np.int64)
        if self.occupied_.size == 0:
            return np.full(keys.shape, default, dtype=np.asarray(values).dtype)
        pos = np.minimum(np.searchsorted(self.occupied_, keys), self.occupied_.size - 1)
        return np.where(self.occupied_[pos] == keys, values[pos], default)

    def predict(self, X) -> np.ndarray:
        """Labels of query points, shape (q,): the bit of each point's Voronoi cell."""
        check_fitted(self, "occupied_")
        return self.cell_bits(self.space.assign(X))


class PCL2(_CellLearner):
    """001 Algorithm 4 on ``space`` (an object with ``assign(X) -> int64 keys``), ε-DP.

    Attributes: ``occupied_`` (sorted keys), ``counts_``, ``votes_`` (``Σ (2y − 1)``), ``noise_key_``.
    """

    def fit(self, X, y, rng) -> "PCL2":
        if self.epsilon is not None:
            check_positive("epsilon", self.epsilon)
        occ, counts, ones = self._cells(X, y)
        self.occupied_, self.counts_, self.votes_ = occ, counts, 2 * ones - counts
        self.noise_key_ = None if self.epsilon is None else int(check_generator(rng).integers(0, 2 ** 64, dtype=np.uint64))
        return self

    def cell_bits(self, keys) -> np.ndarray:
        keys = np.asarray(keys, dtype=np.int64)
        v = self._lookup(keys, self.votes_, 0).astype(float)
        w = 0.0 if self.epsilon is None else keyed_laplace(self.noise_key_, keys, 1 / self.epsilon).reshape(keys.shape)
        return (0.5 * v + w > 0).astype(np.int64)

    def probability_one(self, keys) -> np.ndarray:
        """Exact P(h = 1) on the given cells: ``P(W > −V/2)`` (1/2 on empty cells)."""
        v = self._lookup(keys, self.votes_, 0).astype(float)
        if self.epsilon is None:
            return (v > 0).astype(float)
        return np.exp(laplace_logsf(-0.5 * v, 1 / self.epsilon))


class PCL2b(_CellLearner):
    """001 Algorithm 5: two stability histograms (ε, δ each; (2ε, 2δ)-DP in total, Theorem A.14).

    Attributes: ``occupied_``, ``c_hat_``, ``y_hat_`` (released counts on the occupied cells, 0 if
    suppressed), ``counts_``, ``ones_`` (true counts, diagnostics only).
    """

    def __init__(self, *, space, epsilon: float = 1.0, delta: float = 1e-6):
        super().__init__(space=space, epsilon=epsilon)
        self.delta = delta

    def fit(self, X, y, rng) -> "PCL2b":
        check_positive("epsilon", self.epsilon)
        if not 0 < check_probability("delta", self.delta) < 1:
            raise ValueError(f"delta must be in (0, 1), got delta={self.delta}")
        rng = check_generator(rng)
        occ, counts, ones = self._cells(X, y)
        mech = StabilityHistogram(self.epsilon, self.delta)
        self.occupied_, self.counts_, self.ones_ = occ, counts, ones
        self.c_hat_ = mech.release(counts, rng)
        self.y_hat_ = mech.release(ones, rng)  # cells with no 1-label: count 0, released 0 (line 8)
        return self

    def cell_bits(self, keys) -> np.ndarray:
        c = self._lookup(keys, self.c_hat_, 0.0)
        yv = np.minimum(self._lookup(keys, self.y_hat_, 0.0), c)  # line 9
        return (yv > c / 2).astype(np.int64)  # line 10
