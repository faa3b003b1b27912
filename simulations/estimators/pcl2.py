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
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_positive, check_probability
from simulations.kernels_cells import keyed_laplace
from simulations.mechanisms import StabilityHistogram
from simulations.mechanisms.laplace import laplace_logsf

from ._common import check_fitted
from ._sklearn import LabelDPEstimatorMixin
from .pcl import check_binary_labels

__all__ = ["PCL2", "PCL2b", "pcl2_radius"]


def pcl2_radius(n: int, d: float) -> float:
    """The packing radius ``r = n^{-1/(4d)}`` of 001 Algorithms 4 and 5 (line 2).

    Parameters
    ----------
    n : int >= 1
        Sample size.
    d : float >= 1
        Doubling dimension used for the scale.

    Returns
    -------
    float
        ``n ** (-1 / (4 d))``, in (0, 1].

    Raises
    ------
    ValueError
        If ``n`` is not an integer >= 1 or ``d`` < 1.

    References
    ----------
    001 Algorithm 4 line 2, Algorithm 5 line 2.

    Examples
    --------
    >>> pcl2_radius(10_000, 1)  # 10^(4 * (-1/4))
    0.1
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got n={n!r}")
    d = check_positive("d", d)
    if d < 1:
        raise ValueError(f"d must be >= 1, got d={d}")
    return float(n) ** (-1.0 / (4 * d))


class _CellLearner(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Shared Voronoi-cell bookkeeping of PCL2 and PCL2b (cells of ``space``, lookups by cell key)."""

    _label_domain = "binary"

    def __init__(self, *, space, epsilon: float | None = 1.0, random_state=None):
        self.space = space
        self.epsilon = epsilon
        self.random_state = random_state

    def _cells(self, X, y):
        keys = self.space.assign(X)
        points = np.asarray(X)
        self.n_features_in_ = points.shape[1] if points.ndim == 2 else 1
        self.classes_ = np.array([0, 1])
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
        """Labels of query points: the bit of each point's Voronoi cell.

        Parameters
        ----------
        X : array_like, shape (q, ...)
            Points of the space (whatever ``space.assign`` takes).

        Returns
        -------
        ndarray of int64, shape (q,)
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the learner is not fitted, or ``space.assign`` refuses ``X``.

        References
        ----------
        001 Algorithm 4 line 6, Algorithm 5 line 10.

        Examples
        --------
        The cell at 0 votes 2 to 0 for label 1; the cell at 3 ties (a tie gives 0):

        >>> from simulations.metric_spaces import LatticePacking
        >>> X = np.array([[0.1], [0.2], [2.9], [3.1]])
        >>> PCL2(space=LatticePacking(1, 1.0), epsilon=None).fit(X, [1, 1, 0, 1]).predict([[0.0], [3.0]]).tolist()
        [1, 0]
        """
        self._check_predict_input(X)
        check_fitted(self, "occupied_")
        return self.cell_bits(self.space.assign(X))


class PCL2(_CellLearner):
    """Private Voronoi-cell classifier on a metric space (001 Algorithm 4), ε-DP under full DP.

    On each Voronoi cell ``V`` of the packing the classifier is the noisy vote
    :math:`1[\\sum_{x_i \\in V} (y_i - 1/2) + W_V > 0]`, :math:`W_V \\sim \\mathrm{Lap}(1/\\varepsilon)`
    keyed by the cell, so an empty cell gets its noise at its first query.

    Parameters
    ----------
    space : packing object
        The maximal r-packing and its Voronoi cells: any object with ``assign(X) -> int64 keys (n,)``,
        e.g. :class:`~simulations.metric_spaces.SpherePacking` or
        :class:`~simulations.metric_spaces.LatticePacking` with ``r = pcl2_radius(n, d)``.
    epsilon : float > 0 or None, default 1.0
        Privacy parameter; None gives the non-private majority vote (ties and empty cells: 0).
    random_state : None, int or numpy.random.Generator, default None
        Draws the 64-bit noise key at ``fit`` (nothing is drawn when ``epsilon`` is None): a Generator is
        drawn from as it is (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    occupied_ : ndarray of int64, shape (L,)
        Sorted keys of the cells holding a training point.
    counts_ : ndarray of int64, shape (L,)
        Points per occupied cell.
    votes_ : ndarray of int64, shape (L,)
        Doubled votes ``V = Σ (2 y_i − 1)`` per occupied cell.
    noise_key_ : int or None
        64-bit key of the per-cell Laplace noise (None without privacy).

    References
    ----------
    001 Algorithm 4, Theorems A.6 and A.12.

    Examples
    --------
    >>> from simulations.metric_spaces import LatticePacking
    >>> X = np.array([[0.1], [0.2], [2.9], [3.1]])
    >>> est = PCL2(space=LatticePacking(1, 1.0), epsilon=1.0, random_state=np.random.default_rng(0)).fit(X, [1, 1, 0, 0])
    >>> est.votes_.tolist()
    [2, -2]
    >>> round(float(est.probability_one(est.occupied_[:1])[0]), 4)  # 1 - exp(-1)/2
    0.8161
    """

    def fit(self, X, y) -> "PCL2":
        """Count the votes of each occupied cell and draw the noise key.

        Parameters
        ----------
        X : array_like, shape (n, ...)
            Training points (whatever ``space.assign`` takes), n >= 1.
        y : array_like of int, shape (n,)
            Labels in {0, 1}.

        Returns
        -------
        PCL2
            self, with ``occupied_``, ``counts_``, ``votes_`` and ``noise_key_`` set.

        Raises
        ------
        ValueError
            If ``epsilon`` is not positive, n = 0, ``y`` is not binary of shape (n,), or ``random_state`` is
            invalid.

        References
        ----------
        001 Algorithm 4 lines 3-6.

        Examples
        --------
        >>> from simulations.metric_spaces import LatticePacking
        >>> est = PCL2(space=LatticePacking(1, 1.0), epsilon=None).fit([[0.1], [0.2], [2.9]], [1, 0, 0])
        >>> est.counts_.tolist(), est.votes_.tolist()
        ([2, 1], [0, -1])
        """
        X, y = self._check_input(X, y)
        if self.epsilon is not None:
            check_positive("epsilon", self.epsilon)
        rng = self._random_generator()
        occ, counts, ones = self._cells(X, y)
        self.occupied_, self.counts_, self.votes_ = occ, counts, 2 * ones - counts
        self.noise_key_ = None if self.epsilon is None else int(rng.integers(0, 2 ** 64, dtype=np.uint64))
        return self

    def votes_of(self, keys) -> np.ndarray:
        """Doubled votes ``V = Σ (2 y_i − 1)`` of the given cells (0 on cells without training points).

        Parameters
        ----------
        keys : array_like of int64
            Cell keys (``space.assign`` output), any shape.

        Returns
        -------
        ndarray of int64, same shape as ``keys``

        Raises
        ------
        ValueError
            If the learner is not fitted.

        References
        ----------
        001 Algorithm 4 line 5 (the vote of a cell, doubled to stay an integer).

        Examples
        --------
        >>> from simulations.metric_spaces import LatticePacking
        >>> space = LatticePacking(1, 1.0)
        >>> est = PCL2(space=space, epsilon=None).fit([[0.1], [0.2], [2.9]], [1, 1, 0])
        >>> est.votes_of(space.assign([[0.0], [3.0], [9.0]])).tolist()
        [2, -1, 0]
        """
        check_fitted(self, "occupied_")
        return self._lookup(keys, self.votes_, 0)

    def cell_bits(self, keys) -> np.ndarray:
        """The classifier on the given cells: ``1[V/2 + W > 0]`` with the cell's keyed noise W.

        Parameters
        ----------
        keys : array_like of int64
            Cell keys, any shape.

        Returns
        -------
        ndarray of int64, same shape as ``keys``
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the learner is not fitted.

        References
        ----------
        001 Algorithm 4 line 6.

        Examples
        --------
        >>> from simulations.metric_spaces import LatticePacking
        >>> space = LatticePacking(1, 1.0)
        >>> est = PCL2(space=space, epsilon=None).fit([[0.1], [2.9]], [1, 0])
        >>> est.cell_bits(space.assign([[0.0], [3.0]])).tolist()
        [1, 0]
        """
        keys = np.asarray(keys, dtype=np.int64)
        v = self.votes_of(keys).astype(float)
        w = 0.0 if self.epsilon is None else keyed_laplace(self.noise_key_, keys, 1 / self.epsilon).reshape(keys.shape)
        return (0.5 * v + w > 0).astype(np.int64)

    def probability_one(self, keys) -> np.ndarray:
        """Exact ``P(h = 1)`` on the given cells over the noise: ``P(W > −V/2)``, ``W ~ Lap(1/ε)``.

        Parameters
        ----------
        keys : array_like of int64
            Cell keys, any shape.

        Returns
        -------
        ndarray of float, same shape as ``keys``
            In [0, 1]: 1/2 on empty cells; ``1[V > 0]`` when ``epsilon`` is None.

        Raises
        ------
        ValueError
            If the learner is not fitted.

        References
        ----------
        001 Algorithm 4 line 6 (the Laplace tail of the noisy vote).

        Examples
        --------
        >>> from simulations.metric_spaces import LatticePacking
        >>> space = LatticePacking(1, 1.0)
        >>> est = PCL2(space=space, epsilon=1.0, random_state=0).fit([[0.1], [0.2]], [1, 1])
        >>> np.round(est.probability_one(space.assign([[0.0], [5.0]])), 4).tolist()  # 1 - e^{-1}/2, 1/2
        [0.8161, 0.5]
        """
        v = self.votes_of(keys).astype(float)
        if self.epsilon is None:
            return (v > 0).astype(float)
        return np.exp(laplace_logsf(-0.5 * v, 1 / self.epsilon))


class PCL2b(_CellLearner):
    """Voronoi-cell classifier from two stability histograms (001 Algorithm 5), (2ε, 2δ)-DP.

    ``ĉ`` releases the point count and ``ŷ`` the count of label-1 points of each occupied cell
    through the stability histogram (001 Algorithm 1); the classifier is
    :math:`1[\\min(\\hat y_j, \\hat c_j) > \\hat c_j / 2]` (cells never released: 0).

    Parameters
    ----------
    space : packing object
        Any object with ``assign(X) -> int64 keys (n,)`` (see :class:`PCL2`).
    epsilon : float > 0, default 1.0
        ε of each histogram.
    delta : float in (0, 1), default 1e-6
        δ of each histogram.
    random_state : None, int or numpy.random.Generator, default None
        Draws the Laplace noise of ``ĉ`` then ``ŷ`` at ``fit``: a Generator is drawn from as it is (the
        engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    occupied_ : ndarray of int64, shape (L,)
        Sorted keys of the occupied cells.
    c_hat_, y_hat_ : ndarray of float, shape (L,)
        Released counts (0 where suppressed).
    counts_, ones_ : ndarray of int64, shape (L,)
        True counts (diagnostics only, not part of the private output).

    References
    ----------
    001 Algorithm 5, Algorithm 1, Theorem A.14.

    Examples
    --------
    >>> from simulations.metric_spaces import LatticePacking
    >>> est = PCL2b(space=LatticePacking(1, 1.0), epsilon=1.0, delta=1e-6, random_state=0).fit([[0.1], [0.2]], [1, 1])
    >>> est.c_hat_.tolist()  # 2 points never pass the threshold 1 + (2/ε) ln(2/δ)
    [0.0]
    """

    def __init__(self, *, space, epsilon: float = 1.0, delta: float = 1e-6, random_state=None):
        super().__init__(space=space, epsilon=epsilon, random_state=random_state)
        self.delta = delta

    def fit(self, X, y) -> "PCL2b":
        """Release the two count histograms of the occupied cells.

        Parameters
        ----------
        X : array_like, shape (n, ...)
            Training points (whatever ``space.assign`` takes), n >= 1.
        y : array_like of int, shape (n,)
            Labels in {0, 1}.

        Returns
        -------
        PCL2b
            self, with ``occupied_``, ``counts_``, ``ones_``, ``c_hat_`` and ``y_hat_`` set.

        Raises
        ------
        ValueError
            If ``epsilon`` <= 0, ``delta`` is not in (0, 1), n = 0, ``y`` is not binary, or ``random_state`` is invalid.

        References
        ----------
        001 Algorithm 5 lines 3-8.

        Examples
        --------
        >>> from simulations.metric_spaces import LatticePacking
        >>> est = PCL2b(space=LatticePacking(1, 1.0), epsilon=1.0, random_state=0).fit([[0.1], [0.2], [3.0]], [1, 0, 0])
        >>> est.counts_.tolist(), est.ones_.tolist()
        ([2, 1], [1, 0])
        """
        X, y = self._check_input(X, y)
        check_positive("epsilon", self.epsilon)
        if not 0 < check_probability("delta", self.delta) < 1:
            raise ValueError(f"delta must be in (0, 1), got delta={self.delta}")
        rng = self._random_generator()
        occ, counts, ones = self._cells(X, y)
        mech = StabilityHistogram(self.epsilon, self.delta)
        self.occupied_, self.counts_, self.ones_ = occ, counts, ones
        self.c_hat_ = mech.release(counts, rng)
        self.y_hat_ = mech.release(ones, rng)  # cells with no 1-label: count 0, released 0 (line 8)
        return self

    def cell_bits(self, keys) -> np.ndarray:
        """The classifier on the given cells: ``1[min(ŷ, ĉ) > ĉ/2]`` (0 on cells never released).

        Parameters
        ----------
        keys : array_like of int64
            Cell keys, any shape.

        Returns
        -------
        ndarray of int64, same shape as ``keys``
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the learner is not fitted.

        References
        ----------
        001 Algorithm 5 lines 9-10.

        Examples
        --------
        >>> from simulations.metric_spaces import LatticePacking
        >>> space = LatticePacking(1, 1.0)
        >>> est = PCL2b(space=space, epsilon=1.0, random_state=0).fit([[0.1]], [1])
        >>> est.cell_bits(space.assign([[0.0], [4.0]])).tolist()  # nothing released: 0 everywhere
        [0, 0]
        """
        check_fitted(self, "occupied_")
        c = self._lookup(keys, self.c_hat_, 0.0)
        yv = np.minimum(self._lookup(keys, self.y_hat_, 0.0), c)  # line 9
        return (yv > c / 2).astype(np.int64)  # line 10
