"""k-nearest-neighbour regression of 003: plain, and with Laplace-privatized (clipped) labels.

``η̂(x) = (1/k) ∑_{i ∈ N_k(x)} Z_i`` (003 eq. (20)). Local label DP (Theorem 6): ``Z = Y + Lap(2T/ε)``
for labels bounded by T; heavy tails (Theorem 10): ``Z = Clip(Y, T) + Lap(2T/ε)``. As in
:mod:`simulations.estimators.partition`, ``fit(X, y)`` runs the whole private algorithm and keeps
the mechanism description in ``mechanism_``.

Neighbours come from ``scipy.spatial.cKDTree(leafsize=32, balanced_tree=False,
compact_nodes=False)``, the fastest build/query combination measured for d <= 5 and k <= 200
(docs/design.md), except on the line and in the plane:

* d = 1: :class:`~simulations.estimators.line_knn.LineIndex`, a sorted array walked outwards from
  each query: the same neighbours in the same nearest-first order, hence the same predictions bit for
  bit, 13-23x faster than tree + average at N = 3·10^4-10^5, k = 10^3-10^4 (one run,
  ``benchmarks/bench_rates.py --line-knn``), the sizes 003 Theorem 10's tuning asks for;
* d = 2: :class:`~simulations.estimators.grid_knn.GridIndex`, the exact grid search, its cell side
  set from the sample's density (half the radius that holds k points on average over the bounding
  box) instead of pilot queries. :meth:`KNNRegressor.neighbours` returns the same nearest-first lists
  as the tree; :meth:`KNNRegressor.predict` averages the same k neighbours taken in the grid's
  candidate order, without sorting them (the sort was most of the query at the k of 003 Theorem 10's
  d = 2 cells: 1.6-3x faster than tree + average at N ≈ 4·10^4, k = 200-1300,
  ``benchmarks/bench_rates.py --plane-knn``). The neighbour set is the tree's; only the summation
  order differs, so the mean differs from the tree's nearest-first sum by at most the float
  summation bound ``2 (k − 1) u mean|Z|`` (u = 2^-53), which the tests assert.

Elsewhere the neighbour average is the numba kernel :func:`simulations.kernels.neighbour_mean`.
Tree queries use ``workers`` threads (default 1: the engine parallelizes over trials, not inside one).

References: 003 eq. (20), Theorem 6, Theorem 10.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, RegressorMixin

from limits.validation import check_int
from simulations import kernels
from simulations.estimators._common import check_features, check_fitted, check_real_labels
from simulations.estimators._sklearn import LabelDPEstimatorMixin
from simulations.estimators.grid_knn import GridIndex
from simulations.estimators.line_knn import LineIndex
from simulations.mechanisms import ClippedLaplaceLabels, LaplaceLabels

__all__ = ["KNNRegressor", "LaplaceKNNRegressor", "build_tree", "plane_index"]

TREE_OPTIONS = {"leafsize": 32, "balanced_tree": False, "compact_nodes": False}


def build_tree(X) -> cKDTree:
    """The kd-tree used by the kNN estimators (the options measured fastest: docs/design.md, Performance).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Training points.

    Returns
    -------
    scipy.spatial.cKDTree
        Built with ``leafsize=32, balanced_tree=False, compact_nodes=False``.

    References
    ----------
    003 eq. (20) (the k nearest neighbours the estimator averages over).

    Examples
    --------
    >>> tree = build_tree(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]))
    >>> [int(i) for i in tree.query([0.9, 0.1], k=2)[1]]
    [1, 0]
    """
    return cKDTree(X, **TREE_OPTIONS)


def plane_index(X, k: int) -> GridIndex:
    """The exact grid k-NN index of points in the plane, cell side from their density.

    Parameters
    ----------
    X : array (N, 2), finite
        The indexed points.
    k : int >= 1
        The number of neighbours the queries will ask for.

    Returns
    -------
    GridIndex
        With cell side ``r_k / 2``, ``r_k = sqrt(k A / (π N))`` the radius that holds k of N points spread
        uniformly over the bounding box of area A (what GridIndex's pilot queries estimate for uniform
        points, without their 64 N distances). The answers do not depend on the side.

    References
    ----------
    003 eq. (20) (the k-NN average of Theorems 6 and 10).

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> plane_index(X, 1).query(np.array([[0.9, 0.8]]), 2)[1]
    array([[3, 1]])
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    ext = X.max(axis=0) - X.min(axis=0) if X.size else np.zeros(2)
    area = float(ext[0] * ext[1]) if X.ndim == 2 and X.shape[1:] == (2,) else 0.0
    r_k = math.sqrt(k * area / (math.pi * max(X.shape[0], 1)))
    return GridIndex(X, k, cell=r_k / 2.0 if r_k > 0 else None)


class KNNRegressor(LabelDPEstimatorMixin, RegressorMixin, BaseEstimator):
    """Non-private k-NN regressor: :math:`\\hat\\eta(x) = \\frac{1}{k} \\sum_{i \\in N_k(x)} Y_i`.

    Parameters
    ----------
    k : int >= 1
        Number of neighbours, at most the number of training points.
    workers : int, default 1
        Threads of the tree query (−1: all cores; 0 is refused).
    random_state : None, int or numpy.random.Generator, default None
        Unused (nothing is drawn); the parameter of every estimator of the suite.

    Attributes
    ----------
    index_ : scipy.spatial.cKDTree, LineIndex or GridIndex
        Neighbour index of the training points (a sorted line for d = 1, the exact planar grid of
        :func:`plane_index` for d = 2, a kd-tree above).
    targets_ : ndarray of float, shape (n,)
        The labels averaged by ``predict``.
    n_features_in_ : int
        d.
    mechanism_ : None

    References
    ----------
    003 eq. (20) without noise (the non-private baseline).

    Examples
    --------
    >>> X = np.array([[0.1, 0.1], [0.2, 0.3], [0.8, 0.9]])
    >>> KNNRegressor(k=2).fit(X, [0.5, 0.3, -0.2]).predict([[0.15, 0.15]]).tolist()
    [0.4]
    """

    def __init__(self, *, k: int, workers: int = 1, random_state=None):
        self.k = k
        self.workers = workers
        self.random_state = random_state

    def _fit_index(self, X, y):
        check_int("k", self.k, low=1)
        if check_int("workers", self.workers, low=-1) == 0:
            raise ValueError("workers must be -1 (all cores) or >= 1, got workers=0")
        X = check_features(X, unit_cube=False)
        y = check_real_labels(y, X.shape[0])
        if self.k > X.shape[0]:
            raise ValueError(f"k must be <= the number of training points n_samples = {X.shape[0]}, got k={self.k}")
        self.n_features_in_ = X.shape[1]
        d = X.shape[1]
        self.index_ = LineIndex(X) if d == 1 else (plane_index(X, self.k) if d == 2 else build_tree(X))
        return y

    def fit(self, X, y):
        """Build the neighbour index and store the labels.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite training points.
        y : array_like of float, shape (n,)
            Finite real labels.

        Returns
        -------
        KNNRegressor
            self, with ``index_``, ``targets_`` and ``n_features_in_``.

        Raises
        ------
        ValueError
            If ``k`` < 1 or exceeds n, ``workers`` is 0 or < −1, or ``X`` / ``y`` are malformed.

        Examples
        --------
        >>> KNNRegressor(k=1).fit([[0.0], [1.0]], [3.0, 4.0]).targets_.tolist()
        [3.0, 4.0]
        """
        X, y = self._check_input(X, y)
        self._check_random_state()  # nothing is drawn
        self.targets_ = self._fit_index(X, y)
        self.mechanism_ = None
        return self

    def neighbours(self, X) -> np.ndarray:
        """Indices of the ``k`` nearest training points of each query, nearest first.

        Parameters
        ----------
        X : array_like, shape (m, d)
            Finite query points.

        Returns
        -------
        ndarray of int64, shape (m, k)

        Raises
        ------
        ValueError
            If the estimator is not fitted or ``X`` does not have d columns.

        References
        ----------
        003 eq. (20) (the set :math:`N_k(x)`).

        Examples
        --------
        >>> KNNRegressor(k=2).fit([[0.0], [1.0], [5.0]], [0.0, 1.0, 2.0]).neighbours([[0.8]]).tolist()
        [[1, 0]]
        """
        check_fitted(self, "targets_")
        X = check_features(X, unit_cube=False, d=self.n_features_in_, name=type(self).__name__)
        if isinstance(self.index_, (LineIndex, GridIndex)):
            _, idx = self.index_.query(X, self.k)
        else:
            _, idx = self.index_.query(X, k=self.k, workers=self.workers)
        return np.asarray(idx, dtype=np.int64).reshape(X.shape[0], self.k)

    def predict(self, X) -> np.ndarray:
        """The neighbour average :math:`\\hat\\eta(x)` at each query point (003 eq. (20)).

        Parameters
        ----------
        X : array_like, shape (m, d)
            Finite query points.

        Returns
        -------
        ndarray of float, shape (m,)

        Raises
        ------
        ValueError
            If the estimator is not fitted or ``X`` does not have d columns.

        Examples
        --------
        >>> KNNRegressor(k=2).fit([[0.0], [1.0], [5.0]], [0.0, 1.0, 2.0]).predict([[0.8], [4.0]]).tolist()
        [0.5, 1.5]
        """
        self._check_predict_input(X)
        check_fitted(self, "targets_")
        if isinstance(self.index_, LineIndex):  # same floats as the lists below, without them
            X = check_features(X, unit_cube=False, d=self.n_features_in_, name=type(self).__name__)
            return self.index_.neighbour_mean(X, self.k, self.targets_)
        if isinstance(self.index_, GridIndex):  # the same neighbours, unsorted: the mean needs no order
            X = check_features(X, unit_cube=False, d=self.n_features_in_, name=type(self).__name__)
            return kernels.neighbour_mean(self.targets_, self.index_.query(X, self.k, sort=False)[1])
        return kernels.neighbour_mean(self.targets_, self.neighbours(X))


class LaplaceKNNRegressor(KNNRegressor):
    """Local label DP k-NN regressor: labels privatized once, then averaged over neighbours.

    ``clip=False``: 003 Theorem 6, :math:`Z = Y + \\mathrm{Lap}(2T/\\varepsilon)`, labels must satisfy
    ``|Y| <= T``. ``clip=True``: 003 Theorem 10,
    :math:`Z = \\mathrm{Clip}(Y, T) + \\mathrm{Lap}(2T/\\varepsilon)`.

    Parameters
    ----------
    k : int >= 1
        Number of neighbours.
    epsilon : float > 0
        Local label-DP budget of each label.
    T : float > 0
        Label bound (``clip=False``) or clipping level (``clip=True``).
    clip : bool, default False
        Clip the labels to ``[−T, T]`` before adding noise.
    workers : int, default 1
        Threads of the tree query.
    random_state : None, int or numpy.random.Generator, default None
        Draws the Laplace noise (the PRIVACY stream): a Generator is drawn from as it is (the engine passes
        its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    index_, n_features_in_ : as in :class:`KNNRegressor`
    targets_ : ndarray of float, shape (n,)
        The privatized labels Z.
    mechanism_ : LaplaceLabels or ClippedLaplaceLabels
        The label randomizer (for the privacy checks).

    References
    ----------
    003 eq. (20), Theorem 6, Theorem 10.

    Examples
    --------
    >>> est = LaplaceKNNRegressor(k=2, epsilon=1.0, T=1.0, random_state=0).fit([[0.0], [1.0], [5.0]], [0.0, 1.0, -1.0])
    >>> est.mechanism_, est.targets_.shape
    (LaplaceLabels(T=1.0, epsilon=1.0), (3,))
    """

    _label_domain = "bounded"

    def __init__(self, *, k: int, epsilon: float, T: float, clip: bool = False, workers: int = 1,
                 random_state=None):
        super().__init__(k=k, workers=workers, random_state=random_state)
        self.epsilon = epsilon
        self.T = T
        self.clip = clip

    def fit(self, X, y):
        """Privatize every label once (Laplace of scale 2T/ε) and build the neighbour index.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite training points (public under label DP).
        y : array_like of float, shape (n,)
            Finite real labels, ``|y| <= T`` unless ``clip``.

        Returns
        -------
        LaplaceKNNRegressor
            self, with ``index_``, ``targets_`` and ``mechanism_``.

        Raises
        ------
        ValueError
            If ``clip`` is not a bool, ``T`` / ``epsilon`` / ``k`` / ``workers`` is out of range, a label
            exceeds ``T`` without ``clip``, ``X`` / ``y`` are malformed, or ``random_state`` is invalid.

        Examples
        --------
        >>> est = LaplaceKNNRegressor(k=1, epsilon=2.0, T=1.0, clip=True, random_state=0).fit([[0.0], [1.0]], [9.0, -9.0])
        >>> est.mechanism_.scale  # 2T/ε
        1.0
        """
        X, y = self._check_input(X, y)
        if not isinstance(self.clip, (bool, np.bool_)):
            raise ValueError(f"clip must be a bool, got clip={self.clip!r}")
        cls = ClippedLaplaceLabels if self.clip else LaplaceLabels
        self.mechanism_ = cls(T=self.T, epsilon=self.epsilon)
        rng = self._random_generator()
        y = self._fit_index(X, y)
        self.targets_ = self.mechanism_.sample(y, rng)
        return self
