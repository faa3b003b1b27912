"""k-NN regression means for many k at once on the line (d = 1), by prefix sums over sorted windows.

On the line the k nearest training points of a query are a contiguous window ``[l, l + k)`` of the
sorted sample. Sliding the window one step right (drop ``x_l``, add ``x_{l+k}``) brings it nearer
exactly when ``x_{l+k} − x < x − x_l``, a condition monotone in l; the best start is also
non-decreasing in the query, so for sorted queries one forward sweep per k finds every window
(``O(n + m)`` per k for m queries; a binary search per query, ``O(m log n)``, when queries are few),
and the neighbour mean is a difference of prefix sums, instead of the ``O(m k)`` of a walk. Ties are
broken towards the smaller coordinate, as
:class:`~simulations.estimators.line_knn.LineIndex` does, so the neighbours are the same; the
means agree with ``LineIndex.neighbour_mean`` up to the rounding of the prefix sums (tested).

Used to compare the k's of a grid on a hold-out (the data-driven choice of k for 003 Theorem 6).

References: 003 eq. (20) (the k-NN average), Theorem 6.
"""

from __future__ import annotations

import numba
import numpy as np

from simulations.estimators.line_knn import stable_order

__all__ = ["LineKNNPath", "line_knn_means"]


@numba.njit(cache=True)
def _window_means(xs, prefix, queries, ks, out):
    """``queries`` sorted ascending: the optimal window start is non-decreasing in the query, so one
    forward sweep per k finds every start (O(n + m) per k)."""
    n = xs.shape[0]
    for j in range(ks.shape[0]):
        k = ks[j]
        lo = 0
        for m in range(queries.shape[0]):
            x = queries[m]
            while lo < n - k and x - xs[lo] > xs[lo + k] - x:  # sliding right brings the window nearer
                lo += 1
            out[m, j] = (prefix[lo + k] - prefix[lo]) / k


@numba.njit(cache=True)
def _window_means_search(xs, prefix, queries, ks, out):
    """The same windows by binary search on the start (O(m log n) per k; for few queries)."""
    n = xs.shape[0]
    for m in range(queries.shape[0]):
        x = queries[m]
        p = np.searchsorted(xs, x)
        for j in range(ks.shape[0]):
            k = ks[j]
            lo = max(0, p - k)
            hi = min(p, n - k)
            while lo < hi:  # smallest start whose window sliding right does not bring nearer
                mid = (lo + hi) // 2
                if x - xs[mid] > xs[mid + k] - x:
                    lo = mid + 1
                else:
                    hi = mid
            out[m, j] = (prefix[lo + k] - prefix[lo]) / k


class LineKNNPath:
    """A sorted training sample on the line with prefix sums of its values, queried for many k at once.

    Parameters
    ----------
    X : float array (n, 1) or (n,), training features (finite, n >= 1).
    values : float array (n,), the (privatized) labels averaged (finite).

    Raises
    ------
    ValueError
        On shapes that do not match or non-finite inputs.

    References
    ----------
    003 eq. (20), Theorem 6.

    Examples
    --------
    >>> path = LineKNNPath([0.0, 0.1, 0.5, 0.9], [1.0, 3.0, 5.0, 7.0])
    >>> path.means([0.05, 0.8], [1, 2]).tolist()
    [[1.0, 2.0], [7.0, 6.0]]
    """

    def __init__(self, X, values):
        x = np.asarray(X, dtype=np.float64)
        if x.ndim == 2 and x.shape[1] == 1:
            x = x[:, 0]
        v = np.asarray(values, dtype=np.float64)
        if x.ndim != 1 or x.size == 0 or v.shape != x.shape:
            raise ValueError(f"X (n, 1) and values (n,) expected, got shapes {np.shape(X)} and {np.shape(values)}")
        if not (np.all(np.isfinite(x)) and np.all(np.isfinite(v))):
            raise ValueError("X and values must be finite")
        order = stable_order(x)
        self._set(x[order], v[order])

    def _set(self, xs, vs):
        self.xs = np.ascontiguousarray(xs)
        self.prefix = np.concatenate([[0.0], np.cumsum(vs)])
        self.n = self.xs.size

    @classmethod
    def from_sorted(cls, xs, values) -> "LineKNNPath":
        """The path of features already sorted ascending (not re-checked beyond shapes and finiteness):
        saves the sort when several paths share one sorted sample.

        Parameters
        ----------
        xs : array_like of float, shape (n,)
            Features sorted ascending.
        values : array_like of float, shape (n,)
            The values in the same order.

        Returns
        -------
        LineKNNPath

        Raises
        ------
        ValueError
            If the arrays are not finite, 1-D, of equal non-zero length.

        Examples
        --------
        >>> LineKNNPath.from_sorted([0.0, 0.1, 0.5], [1.0, 3.0, 5.0]).means([0.0], [3]).tolist()
        [[3.0]]
        """
        x = np.asarray(xs, dtype=np.float64)
        v = np.asarray(values, dtype=np.float64)
        if x.ndim != 1 or x.size == 0 or v.shape != x.shape or not (np.all(np.isfinite(x)) and np.all(np.isfinite(v))):
            raise ValueError(f"xs and values must be finite 1-D arrays of equal non-zero length, got shapes "
                             f"{x.shape} and {v.shape}")
        self = cls.__new__(cls)
        self._set(x, v)
        return self

    def means(self, queries, ks) -> np.ndarray:
        """``η̂_k(q) = (1/k) Σ_{i ∈ N_k(q)} values_i`` for every query and every k.

        Parameters
        ----------
        queries : array_like of float, shape (m, 1) or (m,)
            Finite query points.
        ks : array_like of int, shape (J,)
            Neighbour counts in ``[1, n]``.

        Returns
        -------
        ndarray of float, shape (m, J)

        Raises
        ------
        ValueError
            On non-finite queries or a k outside ``[1, n]``.

        References
        ----------
        003 eq. (20).

        Examples
        --------
        >>> LineKNNPath([0.0, 0.1, 0.5, 0.9], [1.0, 3.0, 5.0, 7.0]).means([0.05], [1, 2, 4]).tolist()
        [[1.0, 2.0, 4.0]]
        """
        q = np.asarray(queries, dtype=np.float64)
        if q.ndim == 2 and q.shape[1] == 1:
            q = q[:, 0]
        k = np.asarray(ks)
        if q.ndim != 1 or k.ndim != 1 or not np.all(np.isfinite(q)):
            raise ValueError(f"queries must be finite of shape (m, 1) and ks of shape (J,), got shapes "
                             f"{np.shape(queries)} and {np.shape(ks)}")
        if k.size and (not np.issubdtype(k.dtype, np.integer) or k.min() < 1 or k.max() > self.n):
            raise ValueError(f"ks must be integers in [1, {self.n}], got ks={ks!r}")
        qorder = stable_order(q)  # sorted queries: one forward sweep per k
        out = np.empty((q.size, k.size))
        kernel = _window_means if q.size * max(1.0, np.log2(self.n)) > self.n else _window_means_search
        kernel(self.xs, self.prefix, np.ascontiguousarray(q[qorder]), np.ascontiguousarray(k, dtype=np.int64), out)
        res = np.empty_like(out)
        res[qorder] = out
        return res


def line_knn_means(X, values, queries, ks) -> np.ndarray:
    """``η̂_k(q) = (1/k) Σ_{i ∈ N_k(q)} values_i`` for every query q and every k of ``ks``.

    ``LineKNNPath(X, values).means(queries, ks)``; build the path once to query it several times.

    Parameters
    ----------
    X : float array (n, 1) or (n,), training features (finite).
    values : float array (n,), the (privatized) labels averaged.
    queries : float array (m, 1) or (m,), finite.
    ks : int array (J,), each in ``[1, n]``.

    Returns
    -------
    float array (m, J).

    Raises
    ------
    ValueError
        On shapes that do not match, non-finite inputs or a k outside ``[1, n]``.

    References
    ----------
    003 eq. (20), Theorem 6.

    Examples
    --------
    >>> line_knn_means([0.0, 0.1, 0.5, 0.9], [1.0, 3.0, 5.0, 7.0], [0.05, 0.8], [1, 2]).tolist()
    [[1.0, 2.0], [7.0, 6.0]]
    """
    return LineKNNPath(X, values).means(queries, ks)
