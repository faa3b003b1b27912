"""Exact k-nearest-neighbour search in the plane on a uniform grid (numba), for the kNN methods of
000 Section 5.1.

The Figures 2-4 trials query k = 100-200 neighbours for 10^3-10^4 points in two dimensions; a kd-tree
keeps a k-heap per query and sorts it, which dominates the trial. Here the training points are
bucketed into square cells of side ``h`` (counting sort, O(N)); a query collects the points of the
squares of half-width ``R = 0, 1, 2, ...`` cells around its own cell, ring by ring. Every point within
distance ``R·h`` of the query lies in the square of half-width ``R`` (the query lies in the central
cell), so as soon as ``k`` collected points lie within ``R·h`` the k nearest are among the collected
ones: one selection (Hoare's FIND, :func:`_kth_smallest`) of the k-th smallest squared distance picks them. The search is
exact (same neighbour sets as a kd-tree or brute force, up to ties of distances, which have
probability 0 for continuous features); with ``sort=True`` the k neighbours come nearest first, the
order of ``cKDTree.query`` and of the plain reference (kNN sums add neighbours in that order).

``h`` is half the median k-NN distance of a few pilot queries, so the search usually stops at
``R = 2`` with about ``(5h)² / (π (2h)²) ≈ 2`` times k candidates.

References: 000 Section 5.1 and eq. (29) (the kNN average); 004 Algorithm 3 (LP-2ST's stage-1 model).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from limits.validation import check_int

__all__ = ["GridIndex"]

_PILOT = 64  # pilot queries that set the cell size


@numba.njit(cache=True)
def _bucket(X, x0, y0, h, nx, ny):
    n = X.shape[0]
    cell = np.empty(n, dtype=np.int64)
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    for i in range(n):
        cx = min(max(int((X[i, 0] - x0) / h), 0), nx - 1)
        cy = min(max(int((X[i, 1] - y0) / h), 0), ny - 1)
        c = cy * nx + cx
        cell[i] = c
        start[c + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    order = np.empty(n, dtype=np.int64)
    pts = np.empty((n, 2), dtype=np.float64)
    for i in range(n):
        c = cell[i]
        order[fill[c]] = i
        pts[fill[c], 0] = X[i, 0]
        pts[fill[c], 1] = X[i, 1]
        fill[c] += 1
    return order, pts, start


@numba.njit(cache=True)
def _add_cell(c, start, pts, order, qx, qy, d2, cand, n):
    for p in range(start[c], start[c + 1]):
        dx = pts[p, 0] - qx
        dy = pts[p, 1] - qy
        d2[n] = dx * dx + dy * dy
        cand[n] = order[p]
        n += 1
    return n


@numba.njit(cache=True)
def _kth_smallest(a, n, k, work):
    """The k-th smallest (1 <= k <= n) of ``a[:n]`` by Hoare's FIND, with ``work[:n]`` as scratch.

    The value equals ``np.partition(a[:n], k - 1)[k - 1]`` (an order statistic does not depend on the
    algorithm); written out because numba's ``np.partition`` took ~3 s of the ~5 s it cost to compile
    ``_query`` in every fresh clone (issue 20). Needs no NaN in ``a[:n]`` (distances are finite).
    """
    for i in range(n):
        work[i] = a[i]
    lo, hi, t = 0, n - 1, k - 1
    while lo < hi:
        x, y, z = work[lo], work[(lo + hi) // 2], work[hi]  # median of three as the pivot
        pivot = max(min(x, y), min(max(x, y), z))
        i, j = lo, hi
        while i <= j:
            while work[i] < pivot:
                i += 1
            while work[j] > pivot:
                j -= 1
            if i <= j:
                work[i], work[j] = work[j], work[i]
                i += 1
                j -= 1
        if t <= j:  # work[lo..j] <= pivot <= work[i..hi], and work[j+1..i-1] == pivot
            hi = j
        elif t >= i:
            lo = i
        else:
            return work[t]
    return work[t]


@numba.njit(cache=True)
def _query(Q, k, order, pts, start, x0, y0, h, nx, ny, sort):
    M = Q.shape[0]
    N = pts.shape[0]
    out_i = np.empty((M, k), dtype=np.int64)
    out_d = np.empty((M, k), dtype=np.float64)
    d2 = np.empty(N, dtype=np.float64)
    cand = np.empty(N, dtype=np.int64)
    sel_d = np.empty(k, dtype=np.float64)
    sel_i = np.empty(k, dtype=np.int64)
    work = np.empty(N, dtype=np.float64)
    for m in range(M):
        qx, qy = Q[m, 0], Q[m, 1]
        # the query's cell, clamped to one cell outside the grid: for a query outside the grid, the
        # square around the clamped cell still holds every indexed point within R·h of the query
        cx = int(min(max(np.floor((qx - x0) / h), -1.0), float(nx)))
        cy = int(min(max(np.floor((qy - y0) / h), -1.0), float(ny)))
        n = 0
        R = 0
        while True:
            for gy in range(max(cy - R, 0), min(cy + R, ny - 1) + 1):
                if gy == cy - R or gy == cy + R:  # top and bottom rows of the ring: every column
                    for gx in range(max(cx - R, 0), min(cx + R, nx - 1) + 1):
                        n = _add_cell(gy * nx + gx, start, pts, order, qx, qy, d2, cand, n)
                else:  # the two side columns
                    if 0 <= cx - R < nx:
                        n = _add_cell(gy * nx + cx - R, start, pts, order, qx, qy, d2, cand, n)
                    if R > 0 and 0 <= cx + R < nx:
                        n = _add_cell(gy * nx + cx + R, start, pts, order, qx, qy, d2, cand, n)
            if n >= k:
                rad2 = (R * h * (1.0 - 1e-9)) ** 2  # margin: cell indices of points on a cell edge may round
                inside = 0
                for j in range(n):
                    if d2[j] <= rad2:
                        inside += 1
                if inside >= k:
                    break
            if cx - R <= 0 and cy - R <= 0 and cx + R >= nx - 1 and cy + R >= ny - 1:
                break  # the square covers the whole grid: every point is a candidate
            R += 1
        thr = _kth_smallest(d2, n, k, work)
        s = 0
        for j in range(n):
            if d2[j] < thr:
                sel_d[s] = d2[j]
                sel_i[s] = cand[j]
                s += 1
        for j in range(n):  # the k-th distance itself (ties: lowest candidate position first)
            if s == k:
                break
            if d2[j] == thr:
                sel_d[s] = d2[j]
                sel_i[s] = cand[j]
                s += 1
        if sort:
            o = np.argsort(sel_d)
            for r in range(k):
                out_i[m, r] = sel_i[o[r]]
                out_d[m, r] = np.sqrt(sel_d[o[r]])
        else:
            for r in range(k):
                out_i[m, r] = sel_i[r]
                out_d[m, r] = np.sqrt(sel_d[r])
    return out_d, out_i


class GridIndex:
    """Uniform-grid index of points in the plane with an exact k-NN query (see the module docstring).

    Parameters
    ----------
    X : array (N, 2), finite
        The indexed points.
    k : int >= 1
        The number of neighbours the queries will ask for; sets the cell size (any k may be queried).
    cell : float > 0 or None
        The cell side; None (default) sets it from pilot queries (half the median distance to the k-th
        neighbour). Any positive side gives the same (exact) answers; it only moves the cost. A caller
        that knows the points' density passes it and skips the pilot's ``64 N`` distances.

    Raises
    ------
    ValueError
        If ``X`` is not finite of shape (N, 2) with N >= 1, k < 1, or ``cell`` is not > 0.

    References
    ----------
    000 Section 5.1 (k-NN on the plane, k = 100-200 of N = 10^4 points).

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [5.0, 5.0]])
    >>> dist, idx = GridIndex(X, 2).query(np.array([[0.9, 0.1]]), 2)
    >>> idx.tolist(), dist.round(4).tolist()
    ([[1, 0]], [[0.1414, 0.9055]])
    """

    def __init__(self, X, k: int, *, cell: float | None = None):
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != 2 or X.shape[0] < 1:
            raise ValueError(f"X must have shape (N, 2) with N >= 1, got shape {X.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must be finite")
        k = check_int("k", k, low=1)
        if cell is not None and not (isinstance(cell, (int, float, np.floating)) and math.isfinite(cell) and cell > 0):
            raise ValueError(f"cell must be a finite float > 0 or None, got cell={cell!r}")
        N = X.shape[0]
        lo, hi = X.min(axis=0), X.max(axis=0)
        span = float(max(hi[0] - lo[0], hi[1] - lo[1], 1e-12))
        if cell is None:
            # pilot: median distance to the k-th neighbour of evenly spaced indexed points (brute force)
            pilot = X[np.linspace(0, N - 1, min(_PILOT, N)).astype(np.int64)]
            kk = min(k, N) - 1
            d2 = (pilot[:, 0, None] - X[None, :, 0]) ** 2 + (pilot[:, 1, None] - X[None, :, 1]) ** 2
            cell = float(np.median(np.sqrt(np.partition(d2, kk, axis=1)[:, kk]))) / 2.0
        h = max(float(cell), span / 2048.0)  # at most 2048 x 2048 cells
        self.h = h
        self.x0, self.y0 = float(lo[0]), float(lo[1])
        self.nx = int((hi[0] - lo[0]) / h) + 1
        self.ny = int((hi[1] - lo[1]) / h) + 1
        self.n = N
        self._order, self._pts, self._start = _bucket(X, self.x0, self.y0, h, self.nx, self.ny)

    def query(self, Q, k: int, *, sort: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Distances and indices of the k nearest indexed points of each query (exact).

        Parameters
        ----------
        Q : array_like, shape (M, 2)
            Finite query points.
        k : int
            Neighbours, 1 <= k <= N.
        sort : bool, default True
            Nearest first; False returns the k neighbours in no particular order (cheaper).

        Returns
        -------
        dist : ndarray of float64, shape (M, k)
            Euclidean distances.
        idx : ndarray of int64, shape (M, k)
            Indices into the indexed points.

        Raises
        ------
        ValueError
            If k is out of range or ``Q`` is not finite of shape (M, 2).

        Examples
        --------
        >>> index = GridIndex(np.array([[0.0, 0.0], [3.0, 4.0]]), 1)
        >>> index.query(np.array([[0.0, 0.0]]), 2)[0].tolist()  # distances 0 and 5
        [[0.0, 5.0]]
        """
        k = check_int("k", k, low=1)
        if k > self.n:
            raise ValueError(f"k must be <= the {self.n} indexed points, got k={k}")
        Q = np.ascontiguousarray(Q, dtype=np.float64)
        if Q.ndim != 2 or Q.shape[1] != 2:
            raise ValueError(f"Q must have shape (M, 2), got shape {Q.shape}")
        if not np.all(np.isfinite(Q)):
            raise ValueError("Q must be finite")
        return _query(Q, k, self._order, self._pts, self._start, self.x0, self.y0, self.h, self.nx, self.ny,
                      bool(sort))
