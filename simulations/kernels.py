"""numba kernels for the estimators' inner loops, each with a plain numpy reference (the test oracle).

* :func:`bin_index` — flat index of the regular-grid cell of each point (C order, axis 0 slowest;
  the convention of :mod:`simulations.laws.base`): ``b_i = min(floor(x_i · bins), bins − 1)``.
* :func:`bin_label_counts` — fused bin index + per-(cell, class) label counts ``n_{lj}``
  (003 eq. (17)).
* :func:`bin_row_sums` — fused bin index + per-cell sums of integer vectors, e.g. the K-bit outputs
  of the vector mechanism, ``S_{lj}`` of 003 eq. (12); also returns the counts ``n_l``.
* :func:`bin_value_sums` — fused bin index + per-cell sums of real labels and counts (003 eq. (23)).
* :func:`neighbour_mean` — mean of ``values`` over each row of a neighbour-index matrix
  (003 eq. (20)).

The kernels add in the same order as their references (``np.bincount`` accumulates in input order;
the neighbour reference adds one neighbour rank after another). The tests assert bit-for-bit
equality where it holds on every CPU and numpy version: cell indices, integer counts and sums, and
the neighbour mean, whose reference spells out the kernel's order with elementwise additions. The
order inside ``np.bincount`` is numpy's implementation detail, so the float bin sums are compared
within the summation error bound (and exactly on values whose sums are exact in any order).
Compiled with ``cache=True`` so fresh worker processes load the machine code instead of
recompiling (docs/design.md, performance notes).
The estimators validate their inputs first; the kernels still refuse points outside ``[0, 1]^d``
(below 0 or NaN; above 1 goes to the last cell, as in the reference), labels outside ``[0, K)`` and
neighbour indices out of range, since numba does not bounds-check and would otherwise read or write
outside its arrays.
"""

from __future__ import annotations

import numba
import numpy as np

from limits.validation import check_int

__all__ = [
    "bin_index",
    "bin_index_numpy",
    "bin_label_counts",
    "bin_label_counts_numpy",
    "bin_row_sums",
    "bin_row_sums_numpy",
    "bin_value_sums",
    "bin_value_sums_numpy",
    "neighbour_mean",
    "neighbour_mean_numpy",
]


@numba.njit(cache=True, inline="always")
def _cell(X, i, bins):
    b = 0
    for j in range(X.shape[1]):
        x = X[i, j]
        # numba does not bounds-check: a negative, NaN or infinite coordinate would index outside
        # the count arrays, so refuse it here (one compare per coordinate, not measurable)
        if x >= 0.0:
            t = min(np.int64(x * bins), bins - 1) if x < 1.0 else bins - 1
        else:
            raise ValueError("X must lie in [0, 1]^d (got a negative or NaN coordinate)")
        b = b * bins + t
    return b


@numba.njit(cache=True)
def _bin_index(X, bins):
    out = np.empty(X.shape[0], dtype=np.int64)
    for i in range(X.shape[0]):
        out[i] = _cell(X, i, bins)
    return out


@numba.njit(cache=True)
def _bin_label_counts(X, bins, labels, K):
    counts = np.zeros((bins ** X.shape[1], K), dtype=np.int64)
    for i in range(X.shape[0]):
        y = labels[i]
        if y < 0 or y >= K:
            raise ValueError("labels must lie in [0, num_classes)")
        counts[_cell(X, i, bins), y] += 1
    return counts


@numba.njit(cache=True)
def _bin_row_sums(X, bins, Z):
    G = bins ** X.shape[1]
    K = Z.shape[1]
    sums = np.zeros((G, K), dtype=np.int64)
    counts = np.zeros(G, dtype=np.int64)
    for i in range(X.shape[0]):
        b = _cell(X, i, bins)
        counts[b] += 1
        for j in range(K):
            sums[b, j] += Z[i, j]
    return sums, counts


@numba.njit(cache=True)
def _bin_value_sums(X, bins, values):
    G = bins ** X.shape[1]
    sums = np.zeros(G, dtype=np.float64)
    counts = np.zeros(G, dtype=np.int64)
    for i in range(X.shape[0]):
        b = _cell(X, i, bins)
        counts[b] += 1
        sums[b] += values[i]
    return sums, counts


@numba.njit(cache=True)
def _neighbour_mean(values, idx):
    M, k = idx.shape
    out = np.empty(M, dtype=np.float64)
    n = values.shape[0]
    for m in range(M):
        s = 0.0
        for j in range(k):
            q = idx[m, j]
            if q < 0 or q >= n:
                raise ValueError("idx must hold indices in [0, len(values))")
            s += values[q]
        out[m] = s / k
    return out


def _as_points(X):
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n, d), got shape {X.shape}")
    return X


def _rows(name, arr, n, ndim):
    """``arr`` with ``ndim`` axes and first axis ``n``: the kernels read ``arr[i]`` for every point i."""
    if arr.ndim != ndim or arr.shape[0] != n:
        raise ValueError(f"{name} must have {ndim} axes and {n} rows (one per point), got shape {arr.shape}")
    return arr


def _bins(bins) -> int:
    return check_int("bins", bins, low=1)


def bin_index(X, bins: int) -> np.ndarray:
    """Flat grid-cell index of each point: ``X`` (n, d) in [0, 1]^d -> int64 (n,).

    Cell ``(b_0, ..., b_{d-1})`` with :math:`b_a = \\min(\\lfloor x_a \\cdot bins \\rfloor, bins - 1)`
    (so ``x_a = 1`` is in the last cell), flattened in C order (axis 0 slowest):
    :math:`l = \\sum_a b_a \\, bins^{d-1-a}`. These are the bins :math:`B_l` of side
    :math:`h = 1/bins` of the partition estimators (003 eq. (12), (17), (23)).

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis; there are ``bins**d`` cells.

    Returns
    -------
    ndarray of int64, shape (n,)
        Cell indices in ``[0, bins**d)``.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, ``bins`` is not an int >= 1, or a coordinate is negative or NaN
        (coordinates above 1 go to the last cell, as in :func:`bin_index_numpy`).

    References
    ----------
    003 eq. (12) (the bins :math:`B_l`, :math:`l = 1, \\dots, G`, :math:`G = bins^d`).

    Examples
    --------
    Three points of a 2 × 2 grid; the coordinate ``1.0`` falls in the last cell of its axis:

    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> bin_index(X, 2).tolist()              # (0, 1) -> 1, (1, 1) -> 3, (1, 0) -> 2
    [1, 3, 2]
    """
    return _bin_index(_as_points(X), _bins(bins))


def bin_index_numpy(X, bins: int) -> np.ndarray:
    """Reference of :func:`bin_index`: plain numpy, the tests' oracle.

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.

    Returns
    -------
    ndarray of int64, shape (n,)
        The same indices as :func:`bin_index`.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, or (from :func:`numpy.ravel_multi_index`) a coordinate is so negative
        that its cell index is below 0; ``bins`` is not checked. The kernel is the checked entry point.

    References
    ----------
    003 eq. (12).

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> bin_index_numpy(X, 2).tolist()
    [1, 3, 2]
    """
    X = _as_points(X)
    b = np.minimum((X * bins).astype(np.int64), bins - 1)
    return np.ravel_multi_index(tuple(b.T), (bins,) * X.shape[1]).astype(np.int64)


def bin_label_counts(X, bins: int, labels, num_classes: int) -> np.ndarray:
    """Counts ``n_{lj}`` of label ``j`` in cell ``l``: int64 (bins^d, K).

    :math:`n_{lj} = \\#\\{i : X_i \\in B_l, Y_i = j\\}`, the counts the exponential mechanism of
    003 eq. (17) releases a label from, fused with :func:`bin_index` in one pass.

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.
    labels : array_like of int, shape (n,)
        Class indices in ``[0, num_classes)``.
    num_classes : int >= 1
        K.

    Returns
    -------
    ndarray of int64, shape (bins**d, num_classes)
        Row ``l`` holds the label counts of cell ``l``; the entries sum to n.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D or has a negative / NaN coordinate, ``labels`` is not of shape (n,)
        or holds a label outside ``[0, num_classes)``, or ``bins`` / ``num_classes`` < 1.

    References
    ----------
    003 eq. (17) (the counts :math:`n_{lj}`), Theorem 4.

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> bin_label_counts(X, 2, [0, 1, 1], num_classes=2).tolist()
    [[0, 0], [1, 0], [0, 1], [0, 1]]
    """
    X = _as_points(X)
    labels = _rows("labels", np.ascontiguousarray(labels, dtype=np.int64), X.shape[0], 1)
    return _bin_label_counts(X, _bins(bins), labels, check_int("num_classes", num_classes, low=1))


def bin_label_counts_numpy(X, bins: int, labels, num_classes: int) -> np.ndarray:
    """Reference of :func:`bin_label_counts` (one ``np.bincount`` over ``cell · K + label``).

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.
    labels : array_like of int, shape (n,)
        Class indices in ``[0, num_classes)`` (not checked).
    num_classes : int >= 1
        K.

    Returns
    -------
    ndarray of int64, shape (bins**d, num_classes)
        Equal to :func:`bin_label_counts` on valid input.

    References
    ----------
    003 eq. (17).

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> bin_label_counts_numpy(X, 2, [0, 1, 1], 2).tolist()
    [[0, 0], [1, 0], [0, 1], [0, 1]]
    """
    G = bins ** np.shape(X)[1]
    flat = bin_index_numpy(X, bins) * num_classes + np.asarray(labels, dtype=np.int64)
    return np.bincount(flat, minlength=G * num_classes).reshape(G, num_classes)


def bin_row_sums(X, bins: int, Z) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell sums of the integer rows ``Z`` (n, K) -> (int64 (bins^d, K), counts int64 (bins^d,)).

    :math:`S_{lj} = \\sum_{i: X_i \\in B_l} Z_i(j)` (003 eq. (12)), e.g. of the K-bit outputs of the
    vector mechanism, and the cell counts :math:`n_l`, in one pass.

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.
    Z : array_like of int or bool, shape (n, K)
        One integer row per point (the vector mechanism's bits are uint8).

    Returns
    -------
    sums : ndarray of int64, shape (bins**d, K)
        :math:`S_{lj}`.
    counts : ndarray of int64, shape (bins**d,)
        :math:`n_l`, points per cell.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D or has a negative / NaN coordinate, ``Z`` is not 2-D with n rows,
        or ``bins`` < 1.

    References
    ----------
    003 eq. (12) and Theorem 2; 000 eq. (12)-(13) (the K-bit vector mechanism).

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> Z = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 1]], dtype=np.uint8)
    >>> sums, counts = bin_row_sums(X, 2, Z)
    >>> sums.tolist(), counts.tolist()
    ([[0, 0, 0], [1, 0, 1], [1, 1, 1], [0, 1, 1]], [0, 1, 1, 1])
    """
    X = _as_points(X)
    return _bin_row_sums(X, _bins(bins), _rows("Z", np.ascontiguousarray(Z), X.shape[0], 2))


def bin_row_sums_numpy(X, bins: int, Z) -> tuple[np.ndarray, np.ndarray]:
    """Reference of :func:`bin_row_sums` (one weighted ``np.bincount`` per column).

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.
    Z : array_like of int or bool, shape (n, K)
        One integer row per point.

    Returns
    -------
    sums : ndarray of int64, shape (bins**d, K)
    counts : ndarray of int64, shape (bins**d,)
        Equal to :func:`bin_row_sums` (sums are exact in float64 below :math:`2^{53}`).

    References
    ----------
    003 eq. (12).

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> sums, counts = bin_row_sums_numpy(X, 2, [[1, 0, 1], [0, 1, 1], [1, 1, 1]])
    >>> sums.tolist(), counts.tolist()
    ([[0, 0, 0], [1, 0, 1], [1, 1, 1], [0, 1, 1]], [0, 1, 1, 1])
    """
    G = bins ** np.shape(X)[1]
    idx = bin_index_numpy(X, bins)
    Z = np.asarray(Z)
    sums = np.stack([np.bincount(idx, weights=Z[:, j], minlength=G) for j in range(Z.shape[1])], axis=1)
    return sums.astype(np.int64), np.bincount(idx, minlength=G)


def bin_value_sums(X, bins: int, values) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell sums of real ``values`` (n,) and counts: (float64 (bins^d,), int64 (bins^d,)).

    The sums :math:`\\sum_i \\mathbf{1}(X_i \\in B_l) Y_i` and counts :math:`n_l` of the private
    bin mean of 003 eq. (23) (which divides and adds the Laplace noise :math:`W_l`).

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.
    values : array_like of float, shape (n,)
        Real labels (e.g. clipped regression responses).

    Returns
    -------
    sums : ndarray of float64, shape (bins**d,)
        Sum of the values in each cell, added in input order.
    counts : ndarray of int64, shape (bins**d,)
        :math:`n_l`.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D or has a negative / NaN coordinate, ``values`` does not have shape
        (n,), or ``bins`` < 1.

    References
    ----------
    003 eq. (23), Theorem 8.

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> sums, counts = bin_value_sums(X, 2, [0.5, 0.25, 1.0])
    >>> sums.tolist(), counts.tolist()
    ([0.0, 0.5, 1.0, 0.25], [0, 1, 1, 1])
    """
    X = _as_points(X)
    return _bin_value_sums(X, _bins(bins), _rows("values", np.ascontiguousarray(values, dtype=np.float64), X.shape[0], 1))


def bin_value_sums_numpy(X, bins: int, values) -> tuple[np.ndarray, np.ndarray]:
    """Reference of :func:`bin_value_sums` (a weighted ``np.bincount``).

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Points of :math:`[0, 1]^d`.
    bins : int >= 1
        Cells per axis.
    values : array_like of float, shape (n,)
        Real labels.

    Returns
    -------
    sums : ndarray of float64, shape (bins**d,)
        Equal to the kernel's within the summation error (numpy's order inside ``bincount`` is
        its own); exactly equal where sums are exact in any order.
    counts : ndarray of int64, shape (bins**d,)

    References
    ----------
    003 eq. (23).

    Examples
    --------
    >>> X = np.array([[0.1, 0.9], [0.5, 0.5], [1.0, 0.0]])
    >>> sums, counts = bin_value_sums_numpy(X, 2, [0.5, 0.25, 1.0])
    >>> sums.tolist(), counts.tolist()
    ([0.0, 0.5, 1.0, 0.25], [0, 1, 1, 1])
    """
    G = bins ** np.shape(X)[1]
    idx = bin_index_numpy(X, bins)
    sums = np.bincount(idx, weights=np.asarray(values, dtype=np.float64), minlength=G)
    return sums.astype(np.float64, copy=False), np.bincount(idx, minlength=G)  # (bincount of nothing is int)


def neighbour_mean(values, idx) -> np.ndarray:
    """``out[m] = mean_j values[idx[m, j]]``: values (n,), idx (M, k) int -> (M,).

    The k-nearest-neighbour average :math:`\\hat\\eta(x) = \\frac{1}{k}\\sum_{i \\in N_k(x)} Z_i` of
    003 eq. (20), given the neighbour lists; neighbours are added in rank order ``j = 0 .. k-1``.

    Parameters
    ----------
    values : array_like of float, shape (n,)
        One value per training point (e.g. Laplace-privatized labels).
    idx : array_like of int, shape (M, k), k >= 1
        Neighbour indices into ``values``, one row per query point.

    Returns
    -------
    ndarray of float64, shape (M,)

    Raises
    ------
    ValueError
        If ``values`` is not 1-D, ``idx`` is not of shape (M, k >= 1), or an index is outside
        ``[0, n)``.

    References
    ----------
    003 eq. (20), Theorem 6.

    Examples
    --------
    >>> neighbour_mean([1.0, 2.0, 4.0], [[0, 1], [2, 2]]).tolist()    # (1 + 2)/2, (4 + 4)/2
    [1.5, 4.0]
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    idx = np.ascontiguousarray(idx, dtype=np.int64)
    if values.ndim != 1 or idx.ndim != 2 or idx.shape[1] < 1:
        raise ValueError(f"values must be 1-D and idx of shape (M, k >= 1), got shapes {values.shape} and {idx.shape}")
    return _neighbour_mean(values, idx)


def neighbour_mean_numpy(values, idx) -> np.ndarray:
    """Reference of :func:`neighbour_mean` (sums neighbour ranks in order, as the kernel does).

    Parameters
    ----------
    values : array_like of float, shape (n,)
        One value per training point.
    idx : array_like of int, shape (M, k)
        Neighbour indices (not range-checked: numpy's negative indices wrap).

    Returns
    -------
    ndarray of float64, shape (M,)
        Bit-for-bit equal to :func:`neighbour_mean` on valid input (same order of additions).

    References
    ----------
    003 eq. (20).

    Examples
    --------
    >>> neighbour_mean_numpy([1.0, 2.0, 4.0], [[0, 1], [2, 2]]).tolist()
    [1.5, 4.0]
    """
    idx = np.asarray(idx, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    total = np.zeros(idx.shape[0])
    for j in range(idx.shape[1]):  # one neighbour rank at a time: the kernel's summation order
        total += values[idx[:, j]]
    return total / idx.shape[1]
