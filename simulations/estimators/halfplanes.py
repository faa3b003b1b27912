"""Half-planes of R² as a hypothesis class for the semi-private learner (001 Theorems 4.10-4.11 beyond R).

``h_{w,b}(x) = 1[w·x > b]`` (VC dimension 3). The semi-private learner of 001 Theorem 4.10 needs one
representative per labelling (dichotomy) that half-planes induce on the public points U:
:func:`halfplane_dichotomies` enumerates them exactly for points in general position. Every such labelling
other than "all 0" / "all 1" is realized by a line through two points of U, slightly turned or shifted so that
those two fall on the chosen sides (the classical rotation argument): for each pair and each orientation the
four choices for the two points give 8 candidates; duplicates are removed by comparing the packed labellings
bit for bit. For n points in general position there are ``n(n − 1) + 2`` dichotomies (Cover's count
``2 Σ_{k<=2} C(n − 1, k)``).

References: 001 Theorems 4.10-4.11 (the class is any class of finite VC dimension); Cover (1965) for the count.
"""

from __future__ import annotations

import numpy as np

__all__ = ["halfplane_dichotomies", "halfplane_predict"]


def _pair_candidates(U, I, J):
    """Packed labellings (8 per pair, shape (8P, ⌈n/8⌉)) and half-plane parameters realizing them."""
    d = U[J] - U[I]
    w = np.stack([-d[:, 1], d[:, 0]], axis=1)
    b = np.einsum("pk,pk->p", w, U[I])
    g = U @ w.T - b  # (n, P): signed offsets; points I, J lie on their line
    cols = np.arange(I.size)
    g[I, cols] = 0.0
    g[J, cols] = 0.0
    dd = np.einsum("pk,pk->p", d, d)
    t = (U @ d.T - np.einsum("pk,pk->p", U[I], d)) / dd  # position along the line
    slack = np.abs(g) / (1.0 + 2.0 * np.abs(t))
    slack[I, cols] = np.inf
    slack[J, cols] = np.inf
    eta = np.minimum(0.5 * slack.min(axis=0), 1.0)  # turning/shifting by less keeps every other point on its side
    labels, W, B = [], [], []
    for o in (1.0, -1.0):
        base = (o * g) > 0
        for si in (0, 1):
            for sj in (0, 1):
                lab = base.copy()
                lab[I, cols], lab[J, cols] = bool(si), bool(sj)
                a, beta = 2.0 * si - 1.0, (2.0 * sj - 1.0) - (2.0 * si - 1.0)
                labels.append(np.packbits(lab.T, axis=1))
                W.append(o * w + (eta * beta / dd)[:, None] * d)
                B.append(o * b - eta * a + eta * beta * np.einsum("pk,pk->p", d, U[I]) / dd)
    return np.concatenate(labels), np.concatenate(W), np.concatenate(B)


def halfplane_dichotomies(U, chunk: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """One half-plane per dichotomy that half-planes induce on the points U (general position assumed).

    Parameters
    ----------
    U : array_like, shape (n, 2)
        Points, no three on a line; with n < 2 only the two constant hypotheses are returned (both also at n = 0).
    chunk : int, default 4096
        Pairs processed at once (memory).

    Returns
    -------
    W : ndarray, shape (H, 2)
        Normals (``(0, 0)`` for the constant hypotheses).
    b : ndarray, shape (H,)
        Offsets: hypothesis k is ``1[W[k]·x > b[k]]``; its labels on U are all distinct from the others'.

    Raises
    ------
    ValueError
        If U is not of shape (n, 2), or not finite.

    References
    ----------
    001 Theorem 4.10 (a representative per dichotomy of the public points); Cover (1965).

    Examples
    --------
    Four points in convex position: ``4 · 3 + 2 = 14`` dichotomies (all 16 labellings but the two
    "diagonal" ones):

    >>> W, b = halfplane_dichotomies([[0, 0], [1, 0.1], [0.9, 1], [0.1, 0.8]])
    >>> W.shape
    (14, 2)
    """
    U = np.asarray(U, dtype=float)
    if U.size == 0:
        U = U.reshape(0, 2)
    if U.ndim != 2 or U.shape[1] != 2 or not np.all(np.isfinite(U)):
        raise ValueError(f"U must be a finite array of shape (n, 2), got shape {U.shape}")
    if U.shape[0] == 0:  # no public point: both constants (they differ on the law, not on U)
        return np.zeros((2, 2)), np.array([1.0, -1.0])
    I, J = np.triu_indices(U.shape[0], 1)
    n = U.shape[0]
    labels = [np.packbits(np.zeros((1, n), bool), axis=1), np.packbits(np.ones((1, n), bool), axis=1)]
    W, B = [np.zeros((2, 2))], [np.array([1.0, -1.0])]
    for s in range(0, I.size, chunk):
        lab, w, b = _pair_candidates(U, I[s:s + chunk], J[s:s + chunk])
        labels.append(lab)
        W.append(w)
        B.append(b)
    packed = np.concatenate(labels)
    _, first = np.unique(packed, axis=0, return_index=True)
    first.sort()
    return np.concatenate(W)[first], np.concatenate(B)[first]


def halfplane_predict(W, b, X) -> np.ndarray:
    """Labels ``1[W_k·x > b_k]`` of every hypothesis at every point, shape (H, n), bool.

    Parameters
    ----------
    W : array_like, shape (H, 2)
        Normals.
    b : array_like, shape (H,)
        Offsets.
    X : array_like, shape (n, 2)
        Points.

    Returns
    -------
    ndarray of bool, shape (H, n)

    References
    ----------
    001 Theorem 4.10 (the hypotheses of the exponential mechanism).

    Examples
    --------
    >>> halfplane_predict([[1.0, 0.0]], [0.5], [[0.0, 0.0], [1.0, 0.0]]).tolist()
    [[False, True]]
    """
    return (np.asarray(W, float) @ np.asarray(X, float).T) > np.asarray(b, float)[:, None]
