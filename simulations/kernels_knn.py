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
    """Label histogram of each neighbour list: labels (N,) int, idx (M, k) -> int64 (M, K)."""
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    if labels.ndim != 1:
        raise ValueError(f"labels must be 1-D, got shape {labels.shape}")
    return _label_counts(labels, _idx(idx), check_int("num_classes", num_classes, low=1))


def neighbour_label_counts_numpy(labels, idx, num_classes: int) -> np.ndarray:
    """Reference of :func:`neighbour_label_counts` (one ``bincount`` over flattened (row, label))."""
    idx = np.asarray(idx, dtype=np.int64)
    M = idx.shape[0]
    flat = np.repeat(np.arange(M), idx.shape[1]) * num_classes + np.asarray(labels, dtype=np.int64)[idx].ravel()
    return np.bincount(flat, minlength=M * num_classes).reshape(M, num_classes)


def neighbour_row_sums(V, idx) -> np.ndarray:
    """``S[m] = ∑_r V[idx[m, r]]``: V (N, K) uint8/bool (-> int64 sums) or float (-> float64 sums).

    Returns
    -------
    S : ndarray (M, K), int64 for integer/bool V, float64 otherwise.
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
    """Reference of :func:`neighbour_row_sums`: adds ``V[idx[:, r]]`` for r = 0 .. k-1 in order."""
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
    scores : (M, K) integer counts or sums (ties possible) or floats.
    jitter : (M, K) floats in [0, 1) or None
        For integer scores, ``argmax(scores + jitter / 2)``: ``jitter / 2 < 1/2`` cannot reorder
        unequal integers (no rounding up to the next integer for scores below 2^51), and iid uniform
        jitter picks uniformly among tied classes. None: the smallest tied index.

    Returns
    -------
    labels : int64 (M,)
    """
    scores = np.asarray(scores)
    if jitter is None:
        return np.argmax(scores, axis=1).astype(np.int64)
    jitter = np.asarray(jitter, dtype=np.float64)
    if jitter.shape != scores.shape:
        raise ValueError(f"jitter must have the shape of scores {scores.shape}, got {jitter.shape}")
    return np.argmax(scores + 0.5 * jitter, axis=1).astype(np.int64)
