"""numba kernels for K-wide aggregation over neighbour lists, each with its plain numpy oracle.

* :func:`neighbour_label_counts` — ``C[m, j] = #{r : labels[idx[m, r]] = j}``: the kNN vote of
  randomized response, LP-2ST, and LP-2ST's stage-1 prior (004 Algorithm 3);
* :func:`neighbour_row_sums` — ``S[m, :] = ∑_r V[idx[m, r], :]`` for a matrix ``V`` (N, K) of
  uint8 bits (the vector mechanism's Z, 000 eq. (29): integer sums) or float64 (ALIBI's soft labels).

One pass over the neighbour lists with the K-wide row added in place: M·k·K operations without
the (M, k, K) temporary that numpy fancy indexing builds. The kernels add neighbour ranks in
order ``r = 0 .. k-1``, as the references do, so float sums agree bit for bit (tests assert it).
numba does not bounds-check, so the kernels refuse labels outside ``[0, K)`` and indices outside
``[0, N)``. Compiled with ``cache=True`` (fresh workers load the machine code).
"""

from __future__ import annotations

import numba
import numpy as np

from limits.validation import check_int

__all__ = ["neighbour_label_counts", "neighbour_label_counts_numpy", "neighbour_row_sums",
           "neighbour_row_sums_numpy", "vote"]


@numba.njit(cache=True)
def _label_counts(labels, idx, K):
    M, k = idx.shape
    n = labels.shape[0]
    out = np.zeros((M, K), dtype=np.int64)
    for m in range(M):
        for r in range(k):
            q = idx[m, r]
            if q < 0 or q >= n:
                raise ValueError("idx must hold indices in [0, len(labels))")
            y = labels[q]
            if y < 0 or y >= K:
                raise ValueError("labels must lie in [0, num_classes)")
            out[m, y] += 1
    return out


@numba.njit(cache=True)
def _row_sums(V, idx, out):
    """Adds V[idx[m, r]] into out[m] in r order (numba compiles one loop per out dtype)."""
    M, k = idx.shape
    n, K = V.shape
    for m in range(M):
        row = out[m]
        for r in range(k):
            q = idx[m, r]
            if q < 0 or q >= n:
                raise ValueError("idx must hold indices in [0, len(V))")
            v = V[q]
            for j in range(K):
                row[j] += v[j]
    return out


def _idx(idx) -> np.ndarray:
    idx = np.ascontiguousarray(idx, dtype=np.int64)
    if idx.ndim != 2 or idx.shape[1] < 1:
        raise ValueError(f"idx must have shape (M, k) with k >= 1, got shape {idx.shape}")
    return idx


def neighbour_label_counts(labels, idx, num_classes: int) -> np.ndarray:
    """Label histogram of each neighbour list: labels (N,) int, idx (M, k) -> int64 (M, K).

    :math:`C[m, j] = \\#\\{r : labels[idx[m, r]] = j\\}`: the kNN vote on (randomized) labels,
    e.g. for randomized response and for the stage-1 prior of LP-2ST (004 Algorithm 3).

    Parameters
    ----------
    labels : array_like of int, shape (N,)
        Class indices in ``[0, num_classes)``.
    idx : array_like of int, shape (M, k), k >= 1
        Neighbour indices into ``labels``, one row per query point.
    num_classes : int >= 1
        K.

    Returns
    -------
    ndarray of int64, shape (M, num_classes)
        Each row sums to k.

    Raises
    ------
    ValueError
        If ``labels`` is not 1-D, ``idx`` is not of shape (M, k >= 1), an index is outside
        ``[0, N)``, a neighbour's label is outside ``[0, num_classes)``, or ``num_classes`` < 1.

    References
    ----------
    004 eq. (1) (randomized response) and Algorithm 3 (LP-MST); 000 Section 5.1 (kNN base learner,
    k = 200).

    Examples
    --------
    >>> neighbour_label_counts([0, 2, 2, 1], [[0, 1, 2], [3, 3, 1]], num_classes=3).tolist()
    [[1, 0, 2], [0, 2, 1]]
    """
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    if labels.ndim != 1:
        raise ValueError(f"labels must be 1-D, got shape {labels.shape}")
    return _label_counts(labels, _idx(idx), check_int("num_classes", num_classes, low=1))


def neighbour_label_counts_numpy(labels, idx, num_classes: int) -> np.ndarray:
    """Reference of :func:`neighbour_label_counts` (one ``bincount`` over flattened (row, label)).

    Parameters
    ----------
    labels : array_like of int, shape (N,)
        Class indices in ``[0, num_classes)`` (not checked).
    idx : array_like of int, shape (M, k)
        Neighbour indices.
    num_classes : int >= 1
        K.

    Returns
    -------
    ndarray of int64, shape (M, num_classes)
        Equal to :func:`neighbour_label_counts` on valid input.

    References
    ----------
    004 Algorithm 3 (LP-MST).

    Examples
    --------
    >>> neighbour_label_counts_numpy([0, 2, 2, 1], [[0, 1, 2], [3, 3, 1]], 3).tolist()
    [[1, 0, 2], [0, 2, 1]]
    """
    idx = np.asarray(idx, dtype=np.int64)
    M = idx.shape[0]
    flat = np.repeat(np.arange(M), idx.shape[1]) * num_classes + np.asarray(labels, dtype=np.int64)[idx].ravel()
    return np.bincount(flat, minlength=M * num_classes).reshape(M, num_classes)


def neighbour_row_sums(V, idx) -> np.ndarray:
    """``S[m] = ∑_r V[idx[m, r]]``: V (N, K) uint8/bool (-> int64 sums) or float (-> float64 sums).

    With the vector mechanism's bits as ``V``, ``S / k`` is :math:`g_j(x) = \\frac{1}{k}\\sum_{i \\in
    N_k(x)} Z_i(j)` of 000 eq. (29); with ALIBI's soft labels it is their kNN sum. Neighbour
    ranks are added in order ``r = 0 .. k-1``.

    Parameters
    ----------
    V : array_like, shape (N, K)
        Bool or integer rows (summed exactly in int64) or real rows (summed in float64).
    idx : array_like of int, shape (M, k), k >= 1
        Neighbour indices into the rows of ``V``.

    Returns
    -------
    S : ndarray, shape (M, K)
        int64 for integer/bool V, float64 otherwise.

    Raises
    ------
    ValueError
        If ``V`` is not 2-D, ``idx`` is not of shape (M, k >= 1), or an index is outside ``[0, N)``.

    References
    ----------
    000 eq. (12)-(13) (the K-bit vector mechanism) and eq. (29) (its kNN estimate :math:`g_j`).

    Examples
    --------
    >>> Z = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.uint8)
    >>> neighbour_row_sums(Z, [[0, 2], [1, 2]]).tolist()
    [[2, 1], [1, 2]]
    >>> neighbour_row_sums(np.array([[0.5, 0.5], [0.25, 0.75]]), [[0, 1]]).tolist()
    [[0.75, 1.25]]
    """
    V = np.asarray(V)
    if V.ndim != 2:
        raise ValueError(f"V must have shape (N, K), got shape {V.shape}")
    idx = _idx(idx)
    if V.dtype == np.bool_:
        V = V.view(np.uint8)
    if np.issubdtype(V.dtype, np.integer):
        return _row_sums(np.ascontiguousarray(V), idx, np.zeros((idx.shape[0], V.shape[1]), dtype=np.int64))
    V = np.ascontiguousarray(V, dtype=np.float64)
    return _row_sums(V, idx, np.zeros((idx.shape[0], V.shape[1]), dtype=np.float64))


def neighbour_row_sums_numpy(V, idx) -> np.ndarray:
    """Reference of :func:`neighbour_row_sums`: adds ``V[idx[:, r]]`` for r = 0 .. k-1 in order.

    Parameters
    ----------
    V : array_like, shape (N, K)
        Bool, integer or real rows.
    idx : array_like of int, shape (M, k)
        Neighbour indices (not range-checked: numpy's negative indices wrap).

    Returns
    -------
    ndarray, shape (M, K)
        int64 for integer/bool V, float64 otherwise; bit-for-bit equal to the kernel on valid input.

    References
    ----------
    000 eq. (29).

    Examples
    --------
    >>> neighbour_row_sums_numpy(np.array([[1, 0], [0, 1], [1, 1]], dtype=np.uint8), [[0, 2], [1, 2]]).tolist()
    [[2, 1], [1, 2]]
    """
    V = np.asarray(V)
    idx = np.asarray(idx, dtype=np.int64)
    integer = V.dtype == np.bool_ or np.issubdtype(V.dtype, np.integer)
    out = np.zeros((idx.shape[0], V.shape[1]), dtype=np.int64 if integer else np.float64)
    for r in range(idx.shape[1]):
        out += V[idx[:, r]]
    return out


def vote(scores, jitter=None) -> np.ndarray:
    """``argmax_j scores[m, j]`` per row, ties broken uniformly at random by ``jitter``.

    Parameters
    ----------
    scores : array_like, shape (M, K)
        Integer counts or sums (ties possible) or floats.
    jitter : array_like of float, shape (M, K), values in [0, 1), or None
        For integer scores, ``argmax(scores + jitter / 2)``: ``jitter / 2 < 1/2`` cannot reorder
        unequal integers (no rounding up to the next integer for scores below 2^51), and iid uniform
        jitter picks uniformly among tied classes. None: the smallest tied index. (For float
        scores the jitter can reorder scores closer than 1/2.)

    Returns
    -------
    labels : ndarray of int64, shape (M,)
        The predicted class of each row.

    Raises
    ------
    ValueError
        If ``jitter`` does not have the shape of ``scores``.

    References
    ----------
    000 eq. (16) (the class with the largest estimate :math:`g_j`); 003 Theorem 2 (the plug-in
    classifier of the vector mechanism).

    Examples
    --------
    Row 0 ties classes 1 and 2; the jitter picks 2 without changing row 1's unique maximum:

    >>> scores = np.array([[1, 3, 3], [2, 0, 1]])
    >>> vote(scores).tolist()
    [1, 0]
    >>> vote(scores, jitter=np.array([[0.9, 0.1, 0.2], [0.0, 0.99, 0.0]])).tolist()
    [2, 0]
    """
    scores = np.asarray(scores)
    if jitter is None:
        return np.argmax(scores, axis=1).astype(np.int64)
    jitter = np.asarray(jitter, dtype=np.float64)
    if jitter.shape != scores.shape:
        raise ValueError(f"jitter must have the shape of scores {scores.shape}, got {jitter.shape}")
    return np.argmax(scores + 0.5 * jitter, axis=1).astype(np.int64)
