"""A probabilistic k-nearest-neighbour classifier that also learns from soft or debiased label vectors.

``predict_proba(x)`` is the mean label vector of the ``n_neighbors`` nearest training points, where a
hard label y counts as the one-hot vector e_y. Label vectors may be soft labels (ALIBI's posterior)
or unbiased one-hot estimates with negative entries (the vector mechanism's debiased bits, 003 eq.
(12)-(13)); ``predict`` is the arg-max of the raw mean, ``predict_proba`` its clipped and normalized
version (uniform where every entry is <= 0).

Neighbours are exact Euclidean nearest neighbours by brute force (the digits have d = 64, where a
kd-tree does not help), ties broken by the smaller training index (a stable sort), so the classifier
is a deterministic function of its training data: the exact privacy check of LP-MST needs that.
"""

from __future__ import annotations

import numba
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_int
from simulations.estimators._common import check_finite_rows, check_fitted
from simulations.estimators._sklearn import LabelDPEstimatorMixin

__all__ = ["IndexedKNNClassifier", "SoftKNNClassifier", "first_fitted", "nearest_neighbours", "neighbour_order"]

_QUERY_BLOCK = 512  # query rows per distance block (bounds memory at block * n_train floats)


def nearest_neighbours(X_train: np.ndarray, X_query: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k nearest training rows of each query (Euclidean), ties by smaller index.

    Squared distances ``|q|^2 - 2 q.x + |x|^2`` in blocks (rounded to 1e-9 so the expansion's float
    noise cannot split exact ties); the k smallest by a stable arg-sort, so equal distances keep
    index order.

    Parameters
    ----------
    X_train : ndarray of float, shape (n, d)
        Training points.
    X_query : ndarray of float, shape (m, d)
        Query points.
    k : int
        Neighbours per query, 1 <= k <= n.

    Returns
    -------
    ndarray of int64, shape (m, k)
        Nearest first.

    References
    ----------
    000 Section 5.1 (k-NN on privatized labels).

    Examples
    --------
    >>> nearest_neighbours(np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([[0.9], [3.2]]), 2).tolist()
    [[1, 0], [2, 3]]
    """
    out = np.empty((X_query.shape[0], k), dtype=np.int64)
    sq = np.einsum("ij,ij->i", X_train, X_train)
    for s in range(0, X_query.shape[0], _QUERY_BLOCK):
        q = X_query[s:s + _QUERY_BLOCK]
        d2 = sq[None, :] - 2.0 * q @ X_train.T + np.einsum("ij,ij->i", q, q)[:, None]
        d2 = np.round(d2, 9)  # float noise of the expansion must not break exact ties
        order = np.argsort(d2, axis=1, kind="stable")[:, :k]
        out[s:s + q.shape[0]] = order
    return out


def neighbour_order(X_train, X_query) -> np.ndarray:
    """Every training index sorted by distance to each query (ties: smaller index).

    Parameters
    ----------
    X_train : array_like, shape (n, ...)
        Training points (flattened to rows).
    X_query : array_like, shape (m, ...)
        Query points (flattened to rows).

    Returns
    -------
    ndarray of int64, shape (m, n)
        Row i: the training indices, nearest to query i first.

    References
    ----------
    000 Section 5.1 (k-NN); used by :class:`IndexedKNNClassifier`.

    Examples
    --------
    >>> neighbour_order([[0.0], [1.0], [3.0], [3.5]], [[0.9]]).tolist()
    [[1, 0, 2, 3]]
    """
    X_train = np.asarray(X_train, dtype=float).reshape(len(X_train), -1)
    X_query = np.asarray(X_query, dtype=float).reshape(len(X_query), -1)
    return nearest_neighbours(X_train, X_query, X_train.shape[0])


def _label_matrix(y, K: int) -> np.ndarray:
    """Hard labels (n,) -> one-hot (n, K); label vectors (n, K) -> float copy."""
    y = np.asarray(y)
    if y.ndim == 1:
        if y.size and (not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= K):
            raise ValueError(f"y must hold integer labels in [0, {K}), got y={y!r}")
        Y = np.zeros((y.size, K))
        Y[np.arange(y.size), y] = 1.0
        return Y
    if y.ndim == 2 and y.shape[1] == K:
        return y.astype(float)
    raise ValueError(f"y must have shape (n,) or (n, {K}), got shape {y.shape}")


def _normalized(m: np.ndarray, K: int) -> np.ndarray:
    m = np.maximum(m, 0.0)
    tot = m.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, m / tot, 1.0 / K)


class SoftKNNClassifier(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """k-NN class probabilities from hard labels, soft labels or debiased label vectors.

    Parameters
    ----------
    n_neighbors : int >= 1, default 10
        k (cut to the number of training points).
    num_classes : int >= 2, default 10
        K; hard labels must lie in [0, K), label vectors have K columns.
    random_state : None, int or numpy.random.Generator, default None
        Unused (nothing is drawn); the parameter every estimator of the suite has.

    Attributes
    ----------
    X_ : ndarray of float, shape (n, d)
        Training points.
    Y_ : ndarray of float, shape (n, K)
        Their label vectors.
    classes_ : ndarray, shape (K,)
        ``0..K-1``.
    n_features_in_ : int
        d (the trailing axes of X flattened).

    References
    ----------
    000 Section 5.1 (k-NN on vector-mechanism labels), eq. (16) (arg-max of debiased sums);
    004 Algorithm 3 (a learner for LP-MST).

    Examples
    --------
    >>> X, y = np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([0, 0, 1, 1])
    >>> knn = SoftKNNClassifier(n_neighbors=3, num_classes=2).fit(X, y)
    >>> knn.predict_proba([[0.9]]).round(4).tolist(), knn.predict([[0.9], [3.2]]).tolist()
    ([[0.6667, 0.3333]], [0, 1])
    """

    _label_domain = "classes"

    def __init__(self, *, n_neighbors: int = 10, num_classes: int = 10, random_state=None):
        self.n_neighbors = n_neighbors
        self.num_classes = num_classes
        self.random_state = random_state

    def fit(self, X, y):
        """Store the training points and their label vectors.

        Parameters
        ----------
        X : array_like, shape (n, ...)
            Features (flattened to rows), n >= 1.
        y : array_like, shape (n,) or (n, K)
            Integer labels in [0, K), or label vectors (soft or debiased).

        Returns
        -------
        SoftKNNClassifier
            self, with ``X_``, ``Y_`` and ``classes_``.

        Raises
        ------
        ValueError
            If ``n_neighbors`` < 1, ``num_classes`` < 2, ``y`` has the wrong shape or labels, or X and y
            differ in length.

        Examples
        --------
        >>> X, y = np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([0, 0, 1, 1])
        >>> knn = SoftKNNClassifier(n_neighbors=3, num_classes=2).fit(X, y)
        >>> knn.Y_.tolist()
        [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
        """
        X, y = self._check_input(X, y)
        check_int("n_neighbors", self.n_neighbors, low=1)
        K = check_int("num_classes", self.num_classes, low=2)
        self._check_random_state()  # nothing is drawn
        X = check_finite_rows(X)
        Y = _label_matrix(y, K)
        if X.shape[0] != Y.shape[0] or X.shape[0] == 0:
            raise ValueError(f"X and y must have the same number (>= 1) of rows, got {X.shape[0]} and {Y.shape[0]}")
        self.X_, self.Y_ = X, Y
        self.classes_, self.n_features_in_ = np.arange(K), X.shape[1]
        return self

    def _mean_vectors(self, X) -> np.ndarray:
        check_fitted(self, "X_")
        X = check_finite_rows(X, d=self.n_features_in_, name=type(self).__name__)
        k = min(self.n_neighbors, self.X_.shape[0])
        nb = nearest_neighbours(self.X_, X, k)
        return self.Y_[nb].mean(axis=1)

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities: the mean neighbour label vector, clipped at 0 and normalized.

        Parameters
        ----------
        X : array_like, shape (m, ...)
            Query points.

        Returns
        -------
        ndarray of float, shape (m, K)
            Rows sum to 1 (uniform where every mean entry is <= 0).

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        Examples
        --------
        >>> X, y = np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([0, 0, 1, 1])
        >>> knn = SoftKNNClassifier(n_neighbors=3, num_classes=2).fit(X, y)
        >>> knn.predict_proba([[3.2]]).round(4).tolist()  # neighbours 3.0, 3.5, 1.0
        [[0.3333, 0.6667]]
        """
        self._check_predict_input(X)
        return _normalized(self._mean_vectors(X), self.num_classes)

    def predict(self, X) -> np.ndarray:
        """Arg-max of the mean neighbour label vector (ties: the smaller class).

        Parameters
        ----------
        X : array_like, shape (m, ...)
            Query points.

        Returns
        -------
        ndarray of int64, shape (m,)

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        Examples
        --------
        >>> X, y = np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([0, 0, 1, 1])
        >>> knn = SoftKNNClassifier(n_neighbors=3, num_classes=2).fit(X, y)
        >>> knn.predict([[0.0], [9.0]]).tolist()
        [0, 1]
        """
        self._check_predict_input(X)
        return np.argmax(self._mean_vectors(X), axis=1).astype(np.int64)


def _prefix_means_numpy(Y, nb, ks):
    """``(Σ_{r < k} Y[nb[:, r]]) / k`` for each k of ``ks`` by ``np.cumsum`` (the reference of :func:`_prefix_means`)."""
    csum = np.cumsum(Y[nb], axis=1)  # (m, kmax, K)
    return np.stack([csum[:, k - 1] / k for k in ks])


@numba.njit(cache=True)
def _prefix_means(Y, nb, ks, out):
    """:func:`_prefix_means_numpy` without the (m, kmax, K) gather and cumsum along a strided axis (a quarter
    of lp_mst_digits' CPU, issue 20): the same sums in the same order (np.cumsum adds sequentially), so the
    same floats. ``out``: (len(ks), m, K)."""
    m, kmax = nb.shape
    K = Y.shape[1]
    s = np.empty(K)
    for i in range(m):
        for r in range(kmax):
            row = nb[i, r]
            for c in range(K):
                s[c] = Y[row, c] if r == 0 else s[c] + Y[row, c]
            for g in range(ks.size):
                if ks[g] == r + 1:
                    for c in range(K):
                        out[g, i, c] = s[c] / ks[g]


@numba.njit(cache=True)
def _first_fitted(order, rows, fitted, k, out):
    for i in range(rows.size):
        r = rows[i]
        c = 0
        for j in range(order.shape[1]):
            t = order[r, j]
            if fitted[t]:
                out[i, c] = t
                c += 1
                if c == k:
                    break


def first_fitted(order, rows, fitted, k: int) -> np.ndarray:
    """The first ``k`` entries of each ``order[rows[i]]`` that are ``fitted``: (m,) rows -> (m, k) int64.

    A numba walk along each row that stops at the k-th fitted point (cost ~ k / (fitted fraction) per
    row instead of the whole row). ``fitted`` must hold at least k True entries.

    Parameters
    ----------
    order : ndarray (m_all, n) of int64
        :func:`neighbour_order` of the pool against the query points.
    rows : array of int, shape (m,)
        Query rows of ``order``.
    fitted : ndarray (n,) of bool
    k : int >= 1

    Returns
    -------
    ndarray (m, k) of int64, nearest first.

    Raises
    ------
    ValueError
        If fewer than k points are fitted.

    Examples
    --------
    >>> order = np.array([[2, 0, 1, 3], [3, 1, 2, 0]])
    >>> first_fitted(order, np.array([0, 1]), np.array([True, False, True, True]), 2)
    array([[2, 0],
           [3, 2]])
    """
    fitted = np.ascontiguousarray(fitted, dtype=np.bool_)
    k = check_int("k", k, low=1)
    if int(fitted.sum()) < k:
        raise ValueError(f"k must be <= the {int(fitted.sum())} fitted points, got k={k}")
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    out = np.empty((rows.size, k), dtype=np.int64)
    _first_fitted(np.ascontiguousarray(order, dtype=np.int64), rows, fitted, k, out)
    return out


class IndexedKNNClassifier(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """:class:`SoftKNNClassifier` on a fixed pool of points, with every neighbour order precomputed.

    Features are *indices*: ``fit(X, y)`` trains on pool points ``X`` (indices into the training
    pool, 0..n-1) and ``predict_proba(X)`` answers for query rows ``X`` of ``order``. The k nearest
    fitted points of a query are the first k fitted entries of its precomputed order, so the result
    equals :class:`SoftKNNClassifier` fitted on ``X_pool[idx]`` exactly (ties included) while each
    fit/predict costs a few array passes instead of a distance computation. Used when many models
    are trained on subsets of one data set (LP-MST stages, repeated trials).

    Parameters
    ----------
    order : ndarray (m, n) of int64
        :func:`neighbour_order` of the pool against every query point (shared, never modified).
    n_neighbors : int >= 1, default 10
        k (cut to the number of fitted points).
    num_classes : int >= 2, default 10
        K.
    random_state : None, int or numpy.random.Generator, default None
        Unused (nothing is drawn); the parameter every estimator of the suite has.

    Attributes
    ----------
    Y_pool_ : ndarray of float, shape (n, K)
        Label vectors of the fitted pool points (0 elsewhere).
    fitted_ : ndarray of bool, shape (n,)
        Which pool points are fitted.
    classes_ : ndarray, shape (K,)

    References
    ----------
    000 Section 5.1 (k-NN); 004 Algorithm 3 (the stages of LP-MST refit on subsets of one pool).

    Examples
    --------
    >>> order = neighbour_order(np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([[0.0], [1.0], [3.0], [3.5]]))
    >>> knn = IndexedKNNClassifier(order=order, n_neighbors=2, num_classes=2).fit(np.array([0, 1, 2]), [0, 0, 1])
    >>> knn.predict(np.array([0, 3])).tolist()  # query 3.5: fitted neighbours 3.0 (label 1), 1.0 (label 0) tie
    [0, 0]
    """

    _index_features = True
    _label_domain = "classes"

    def __init__(self, *, order, n_neighbors: int = 10, num_classes: int = 10, random_state=None):
        self.order = order
        self.n_neighbors = n_neighbors
        self.num_classes = num_classes
        self.random_state = random_state

    def __sklearn_clone__(self):
        # clone's default deep-copies array arguments; ``order`` is large and read-only, so share it
        return type(self)(**self.get_params(deep=False))

    def fit(self, X, y):
        """Mark the pool points ``X`` as fitted with labels ``y``.

        Parameters
        ----------
        X : array_like of int, shape (n_fit,)
            Distinct pool indices in [0, n).
        y : array_like, shape (n_fit,) or (n_fit, K)
            Integer labels in [0, K), or label vectors.

        Returns
        -------
        IndexedKNNClassifier
            self, with ``Y_pool_``, ``fitted_`` and ``classes_``.

        Raises
        ------
        ValueError
            If ``n_neighbors`` or ``num_classes`` is out of range, ``X`` is not distinct pool indices,
            or ``y`` does not match it.

        Examples
        --------
        >>> order = neighbour_order(np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([[0.0], [1.0], [3.0], [3.5]]))
        >>> knn = IndexedKNNClassifier(order=order, n_neighbors=2, num_classes=2).fit(np.array([0, 1, 2]), [0, 0, 1])
        >>> knn.fitted_.tolist()
        [True, True, True, False]
        """
        X, y = self._check_input(X, y)
        check_int("n_neighbors", self.n_neighbors, low=1)
        K = check_int("num_classes", self.num_classes, low=2)
        self._check_random_state()  # nothing is drawn
        idx = np.asarray(X).ravel()
        n_pool = self.order.shape[1]
        if idx.size == 0 or not np.issubdtype(idx.dtype, np.integer) or idx.min() < 0 or idx.max() >= n_pool \
                or np.unique(idx).size != idx.size:
            raise ValueError(f"X must be distinct pool indices in [0, {n_pool}), got X={idx!r}")
        Y = _label_matrix(y, K)
        if Y.shape[0] != idx.size:
            raise ValueError(f"X and y must have the same number of rows, got {idx.size} and {Y.shape[0]}")
        self.Y_pool_ = np.zeros((n_pool, K))
        self.Y_pool_[idx] = Y
        self.fitted_ = np.zeros(n_pool, dtype=bool)
        self.fitted_[idx] = True
        self.classes_, self.n_features_in_ = np.arange(K), 1  # one pool index per row
        return self

    def _mean_vectors(self, q) -> np.ndarray:
        check_fitted(self, "fitted_")
        q = np.asarray(q).ravel()
        k = min(self.n_neighbors, int(self.fitted_.sum()))
        nb = first_fitted(self.order, q, self.fitted_, k)  # the first k fitted points of each row
        return self.Y_pool_[nb].mean(axis=1)

    def mean_vectors_by_k(self, q, ks) -> np.ndarray:
        """Mean neighbour label vectors for several k at once.

        One neighbour walk to ``max(ks)`` and a cumulative sum over the neighbour axis, so a grid of
        k costs about one fit. Each slice equals ``_mean_vectors`` at that k up to float rounding
        of the sums (prefix sums instead of pairwise sums); ks larger than the fitted set are cut.

        Parameters
        ----------
        q : ndarray (m,) of int
            Query rows of ``order``.
        ks : sequence of int >= 1

        Returns
        -------
        ndarray (g, m, K)

        Examples
        --------
        >>> X = np.arange(4.0).reshape(-1, 1)
        >>> knn = IndexedKNNClassifier(order=neighbour_order(X, X), n_neighbors=2, num_classes=2)
        >>> knn.fit(np.array([1, 2, 3]), np.array([0, 1, 1])).mean_vectors_by_k(np.array([0]), [1, 3])[:, 0].tolist()
        [[1.0, 0.0], [0.3333333333333333, 0.6666666666666666]]
        """
        check_fitted(self, "fitted_")
        q = np.asarray(q).ravel()
        n_fit = int(self.fitted_.sum())
        ks = np.minimum(np.asarray(ks, dtype=np.int64).ravel(), n_fit)
        nb = first_fitted(self.order, q, self.fitted_, int(ks.max()))
        Y = self.Y_pool_
        if Y.dtype != np.float64 or Y.ndim != 2 or ks.min() < 1:
            return _prefix_means_numpy(Y, nb, ks)
        out = np.empty((ks.size, nb.shape[0], Y.shape[1]))
        _prefix_means(np.ascontiguousarray(Y), nb, ks, out)
        return out

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities at query rows ``X`` of ``order`` (mean label vector, clipped, normalized).

        Parameters
        ----------
        X : array_like of int, shape (m,)
            Query rows of ``order``.

        Returns
        -------
        ndarray of float, shape (m, K)

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        Examples
        --------
        >>> order = neighbour_order(np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([[0.0], [1.0], [3.0], [3.5]]))
        >>> knn = IndexedKNNClassifier(order=order, n_neighbors=2, num_classes=2).fit(np.array([0, 1, 2]), [0, 0, 1])
        >>> knn.predict_proba(np.array([0, 3])).tolist()
        [[1.0, 0.0], [0.5, 0.5]]
        """
        self._check_predict_input(X)
        return _normalized(self._mean_vectors(X), self.num_classes)

    def predict(self, X) -> np.ndarray:
        """Arg-max class at query rows ``X`` of ``order`` (ties: the smaller class).

        Parameters
        ----------
        X : array_like of int, shape (m,)
            Query rows of ``order``.

        Returns
        -------
        ndarray of int64, shape (m,)

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        Examples
        --------
        >>> order = neighbour_order(np.array([[0.0], [1.0], [3.0], [3.5]]), np.array([[0.0], [1.0], [3.0], [3.5]]))
        >>> knn = IndexedKNNClassifier(order=order, n_neighbors=2, num_classes=2).fit(np.array([0, 1, 2]), [0, 0, 1])
        >>> knn.predict(np.array([1, 2])).tolist()
        [0, 0]
        """
        self._check_predict_input(X)
        return np.argmax(self._mean_vectors(X), axis=1).astype(np.int64)
