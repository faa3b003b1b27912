"""Metric spaces of 001 Appendix A with a maximal r-packing and its Voronoi cells (KD-trees, no O(n²)).

* :class:`SpherePacking` -- the sphere S² with the geodesic metric ``ρ(x, y) = arccos(x·y)`` (bounded,
  diameter π, not a cube). Greedy maximal r-packing: candidates of a Fibonacci net (spacing ≪ r) are
  accepted in order when no accepted centre lies within geodesic distance < r (``cKDTree`` ball queries
  on the chordal distance ``2 sin(ρ/2)``, monotone in ρ); then the packing is completed *exactly*: the
  point of S² farthest from the centres is a vertex of their spherical Voronoi diagram
  (``scipy.spatial.SphericalVoronoi``), so while that covering radius is >= r the farthest vertex is
  added (it is >= r from every centre, so the set stays an r-packing). At the end every point of S²
  is within < r of a centre: the packing is maximal (001 Definition A.3), hence an r-cover (Theorem A.4).
* :class:`LatticePacking` -- R^d (unbounded), ``d <= 3``: the lattice ``r Z^d`` is an r-packing whose
  covering radius ``r √d / 2`` is < r for d <= 3, hence maximal; countable (001 Algorithm 5 line 3);
  its Voronoi cells are the cubes ``r (k + [−1/2, 1/2)^d)``, indexed lazily by ``k``.

Cells are returned as int64 keys (sphere: centre index; lattice: ``k`` packed in ``63 // d`` bits per axis).

References: 001 Appendix A, Definitions A.1-A.3, Theorem A.4, Algorithms 4-5, Lemma A.8.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import SphericalVoronoi, cKDTree

from limits.validation import check_int, check_positive

__all__ = ["LatticePacking", "SpherePacking", "fibonacci_sphere", "geodesic", "sphere_points"]


def fibonacci_sphere(m: int) -> np.ndarray:
    """``m`` nearly uniform points on S² (the Fibonacci lattice), shape (m, 3).

    Point ``i`` has height :math:`z_i = 1 - 2(i + 1/2)/m` and longitude :math:`\\pi(3 - \\sqrt{5})(i + 1/2)`
    (the golden angle), so the points cut S² into bands of equal area.

    Parameters
    ----------
    m : int >= 1
        Number of points.

    Returns
    -------
    ndarray, shape (m, 3)
        Unit vectors.

    Raises
    ------
    ValueError
        If ``m`` is not an int >= 1.

    References
    ----------
    001 Appendix A (the candidate net of :class:`SpherePacking`'s maximal packing, Definition A.3).

    Examples
    --------
    >>> P = fibonacci_sphere(4)
    >>> P.shape, P[:, 2].tolist(), bool(np.allclose(np.linalg.norm(P, axis=1), 1.0))
    ((4, 3), [0.75, 0.25, -0.25, -0.75], True)
    """
    m = check_int("m", m, low=1)
    i = np.arange(m) + 0.5
    z = 1 - 2 * i / m
    phi = math.pi * (3 - math.sqrt(5)) * i
    s = np.sqrt(1 - z * z)
    return np.stack([s * np.cos(phi), s * np.sin(phi), z], axis=1)


def geodesic(a, b) -> np.ndarray:
    """Geodesic distance on S² between rows of a and b (broadcast), arccos of the clipped dot product.

    :math:`\\rho(x, y) = \\arccos(x \\cdot y)`, the suite's bounded, non-cube metric space for the
    learners of 001 Appendix A;
    the dot product is clipped to [-1, 1] so rounding cannot give NaN.

    Parameters
    ----------
    a, b : array_like, shape (..., 3)
        Unit vectors (not checked: see :func:`sphere_points`); leading axes broadcast.

    Returns
    -------
    ndarray, shape (...)
        Distances in ``[0, π]``.

    References
    ----------
    001 Appendix A: Algorithm 4 (PCL2) needs a bounded metric space of finite doubling dimension
    (Definition A.1).

    Examples
    --------
    >>> print(f"{float(geodesic([1, 0, 0], [0, 1, 0])):.6f} {float(geodesic([0, 0, 1], [0, 0, -1])):.6f}")
    1.570796 3.141593
    """
    return np.arccos(np.clip(np.sum(np.asarray(a) * np.asarray(b), axis=-1), -1.0, 1.0))


def _chord(rho: float) -> float:
    return 2.0 * math.sin(rho / 2.0)


def sphere_points(X, name: str = "X") -> np.ndarray:
    """``X`` as unit vectors (n, 3); ValueError for NaN or points off the sphere (``|‖x‖ − 1| > 1e-9``).

    Parameters
    ----------
    X : array_like, shape (n, 3)
        Points of S².
    name : str, default "X"
        The argument's name in the error message.

    Returns
    -------
    ndarray of float64, shape (n, 3)
        ``X`` (not renormalized).

    Raises
    ------
    ValueError
        If ``X`` does not have shape (n, 3), holds a NaN, or a row's norm differs from 1 by more
        than 1e-9; the message names the first bad row.

    References
    ----------
    001 Appendix A (the domain of the learners of Algorithms 4-5 on the sphere).

    Examples
    --------
    >>> sphere_points([[0.0, 0.6, 0.8]]).shape
    (1, 3)
    >>> sphere_points([[0.0, 0.6, 0.7]], name="Xq")
    Traceback (most recent call last):
    ...
    ValueError: Xq must lie on the unit sphere S², got Xq[0]=[0.0, 0.6, 0.7] (norm 0.921954)
    """
    arr = np.asarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n, 3) (points of S²), got shape {arr.shape}")
    if arr.size and np.isnan(arr).any():
        i = int(np.argwhere(np.isnan(arr))[0, 0])
        raise ValueError(f"{name} must not contain NaN, got {name}[{i}]={arr[i].tolist()}")
    norm = np.linalg.norm(arr, axis=1)
    bad = np.abs(norm - 1) > 1e-9
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name} must lie on the unit sphere S², got {name}[{i}]={arr[i].tolist()} (norm {norm[i]:.6g})")
    return arr


class SpherePacking:
    """Maximal geodesic r-packing of S² and its Voronoi cells.

    Greedy packing of a Fibonacci net, completed exactly with the vertices of the spherical
    Voronoi diagram until the covering radius is < r (see the module's notes): the centres are
    pairwise >= r apart (an r-packing, 001 Definition A.3) and every point of S² is < r from one
    (maximal, hence an r-cover by 001 Theorem A.4), so each Voronoi cell has diameter <= 2r
    (001 Lemma A.8).

    Parameters
    ----------
    r : float in (0, π)
        The packing radius (Algorithm 4 line 2 sets :math:`r = n^{-1/(4d)}`).
    net_factor : int, default 16
        Candidates per packing cell: the net has ``max(64, int(net_factor · 4/r²))`` points.

    Attributes
    ----------
    centres : ndarray, shape (n_cells, 3)
        The packing's points, unit vectors.
    covering_radius : float
        Largest geodesic distance from a point of S² to its nearest centre (< r), computed
        exactly from the spherical Voronoi vertices; set to π (an upper bound) when there are
        fewer than 4 centres, which the Voronoi diagram needs.
    completions : int
        Centres added by the exact completion after the greedy pass.

    Raises
    ------
    ValueError
        If ``r`` is not in (0, π).

    Notes
    -----
    With fewer than 4 centres after the greedy pass (it happens at r = 1.9, not at r = 1.5) the exact
    completion is skipped, so maximality is not guaranteed: ``SpherePacking(3.0)`` keeps one
    centre although its antipode, at distance π >= 3, could be added. Algorithm 4's
    :math:`r = n^{-1/(4d)} \\le 1` is far from this range (r = 1 gives 10 centres).

    References
    ----------
    001 Appendix A: Definitions A.2-A.3, Theorem A.4, Algorithm 4 (PCL2) lines 3-4, Lemma A.8.

    Examples
    --------
    Spherical caps of radius r/2 around the centres are disjoint and caps of radius r cover S²,
    so for r = 1 the area bounds give ``2/(1 - cos 1) = 4.35 <= n_cells <= 2/(1 - cos 0.5) = 16.3``:

    >>> pk = SpherePacking(1.0)
    >>> 5 <= pk.n_cells <= 16, pk.min_separation() >= 1.0, pk.covering_radius < 1.0
    (True, True, True)
    """

    def __init__(self, r: float, net_factor: int = 16):
        self.r = check_positive("r", r)
        if not self.r < math.pi:
            raise ValueError(f"r must be < pi (the diameter of S²), got r={r}")
        m = max(64, int(net_factor * 4.0 / self.r ** 2))
        cand = fibonacci_sphere(m)
        tree = cKDTree(cand)
        blocked = np.zeros(m, bool)
        centres = []
        c = _chord(self.r) * (1 - 1e-12)  # strictly closer than r blocks
        for i in range(m):
            if not blocked[i]:
                centres.append(i)
                blocked[tree.query_ball_point(cand[i], c)] = True
        C = cand[centres]
        self.completions = 0
        while C.shape[0] >= 4:
            rad, far = self._covering(C)
            if rad < self.r:
                break
            C = np.vstack([C, far])
            self.completions += 1
        self.centres = C
        self.tree = cKDTree(C)
        self.covering_radius = self._covering(C)[0] if C.shape[0] >= 4 else math.pi

    @staticmethod
    def _covering(C):
        """Exact covering radius of S² by the centres C (max over spherical Voronoi vertices), and the vertex."""
        sv = SphericalVoronoi(C, radius=1.0, threshold=1e-9)
        V = sv.vertices / np.linalg.norm(sv.vertices, axis=1, keepdims=True)
        dist, idx = cKDTree(C).query(V)
        rho = 2 * np.arcsin(np.clip(dist / 2, 0, 1))
        k = int(np.argmax(rho))
        return float(rho[k]), V[k]

    @property
    def n_cells(self) -> int:
        """Number of centres, hence of Voronoi cells.

        Returns
        -------
        int
            ``centres.shape[0]``.

        Examples
        --------
        >>> pk = SpherePacking(2.0)
        >>> pk.n_cells == len(pk.centres)
        True
        """
        return self.centres.shape[0]

    def assign(self, X) -> np.ndarray:
        """Voronoi cell (index of the geodesically nearest centre) of each point, int64 (n,).

        Parameters
        ----------
        X : array_like, shape (n, 3)
            Points of S² (checked by :func:`sphere_points`).

        Returns
        -------
        ndarray of int64, shape (n,)
            Row indices into ``centres``, in ``[0, n_cells)``.

        Raises
        ------
        ValueError
            If ``X`` is not an (n, 3) array of unit vectors without NaN.

        References
        ----------
        001 Algorithm 4 lines 4-5: V(x), the Voronoi cell of x.

        Examples
        --------
        Each centre lies in its own cell:

        >>> pk = SpherePacking(1.0)
        >>> bool(np.array_equal(pk.assign(pk.centres), np.arange(pk.n_cells)))
        True
        """
        X = sphere_points(X)
        return self.tree.query(X)[1].astype(np.int64)

    def min_separation(self) -> float:
        """Smallest geodesic distance between two centres (>= r for a packing).

        Returns
        -------
        float
            :math:`\\min_{i \\ne j} \\rho(c_i, c_j)`, in (0, π].

        References
        ----------
        001 Definition A.3 (r-packing: every two points at distance >= r).

        Examples
        --------
        >>> SpherePacking(0.5).min_separation() >= 0.5
        True
        """
        d, _ = self.tree.query(self.centres, k=2)
        return float(2 * np.arcsin(np.clip(d[:, 1].min() / 2, 0, 1)))


class LatticePacking:
    """The maximal r-packing ``r Z^d`` of R^d (d <= 3) and its cubic Voronoi cells, indexed lazily.

    Lattice points are ``r`` apart (an r-packing); every point of R^d is within the covering
    radius :math:`r\\sqrt{d}/2 < r` of one for d <= 3 (maximal, 001 Definition A.3, hence an
    r-cover, Theorem A.4). The set is countable, as Algorithm 5 (PCL2b) line 3 requires of an
    unbounded space, and the cell of ``x`` is the cube ``r (k + [−1/2, 1/2)^d)`` around its
    nearest lattice point ``k r``.

    Parameters
    ----------
    d : int in {1, 2, 3}
        Dimension.
    r : float > 0
        Lattice spacing (the packing radius).

    Attributes
    ----------
    covering_radius : float
        :math:`r\\sqrt{d}/2`.
    BITS : int
        Bits per axis of a cell key, ``63 // d``.

    Raises
    ------
    ValueError
        If ``d`` is not an int in 1..3 or ``r`` is not > 0.

    References
    ----------
    001 Appendix A: Definition A.3, Theorem A.4, Algorithm 5 (PCL2b) lines 3-5.

    Examples
    --------
    >>> lat = LatticePacking(d=2, r=0.5)
    >>> round(lat.covering_radius, 6)          # 0.5 * sqrt(2) / 2
    0.353553
    >>> lat.centre_of(lat.assign([[0.2, -0.3], [0.26, 1.0]])).tolist()
    [[0.0, -0.5], [0.5, 1.0]]
    """

    def __init__(self, d: int, r: float):
        self.d = check_int("d", d, low=1)
        if self.d > 3:
            raise ValueError(f"d must be <= 3 (r Z^d is a maximal r-packing only for d <= 3), got d={d}")
        self.BITS = 63 // self.d  # bits per axis of a cell key; |k| < 2^(BITS-1)
        self.r = check_positive("r", r)
        self.covering_radius = self.r * math.sqrt(self.d) / 2

    def __repr__(self) -> str:  # its parameters: stable in estimator reprs and test ids (issue 37)
        return f"LatticePacking(d={self.d}, r={self.r!r})"

    @property
    def reach(self) -> float:
        """Points with every ``|x_a| < reach`` can be keyed.

        Returns
        -------
        float
            :math:`(2^{\\mathrm{BITS}-1} - 1)\\, r`.

        Examples
        --------
        >>> LatticePacking(d=3, r=1.0).reach == 2**20 - 1    # 63 // 3 = 21 bits per axis
        True
        """
        return ((1 << (self.BITS - 1)) - 1) * self.r

    def lattice_index(self, X) -> np.ndarray:
        """Nearest lattice point of each point, as integer coordinates ``k = floor(x / r + 1/2)``.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite points of R^d.

        Returns
        -------
        ndarray of int64, shape (n, d)
            ``k`` with ``x`` in the cube ``r (k + [−1/2, 1/2)^d)``.

        Raises
        ------
        ValueError
            If ``X`` does not have shape (n, d) or holds a NaN or an infinity.

        References
        ----------
        001 Algorithm 5 line 5: V(x), the Voronoi cell of x.

        Examples
        --------
        >>> LatticePacking(d=1, r=0.5).lattice_index([[0.24], [0.25], [-0.26]]).ravel().tolist()
        [0, 1, -1]
        """
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.d:
            raise ValueError(f"X must have shape (n, {self.d}), got shape {X.shape}")
        if X.size and not np.all(np.isfinite(X)):
            i = int(np.argwhere(~np.isfinite(X))[0, 0])
            raise ValueError(f"X must be finite (no NaN), got X[{i}]={X[i].tolist()}")
        return np.floor(X / self.r + 0.5).astype(np.int64)

    def assign(self, X) -> np.ndarray:
        """Cell key of each point: the nearest lattice point k, packed in ``63 // d`` bits per axis, int64 (n,).

        The key is :math:`\\sum_a (k_a + 2^{B-1})\\, 2^{B(d-1-a)}` with ``B = BITS``: one int64 per
        cell, so cells can be counted with integer keys without enumerating the lattice.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite points with every coordinate within :attr:`reach` of 0.

        Returns
        -------
        ndarray of int64, shape (n,)
            Cell keys; :meth:`centre_of` inverts them.

        Raises
        ------
        ValueError
            If ``X`` has the wrong shape, is not finite, or a point is too far from the origin to key.

        References
        ----------
        001 Algorithm 5 (PCL2b) lines 4-5.

        Examples
        --------
        In d = 1 a cell's key is ``k + 2^62``:

        >>> (LatticePacking(d=1, r=1.0).assign([[0.2], [-3.0]]) - 2**62).tolist()
        [0, -3]
        """
        K = self.lattice_index(X)
        half = 1 << (self.BITS - 1)
        if K.size and np.abs(K).max() >= half:
            raise ValueError(f"points beyond {half} cells from the origin cannot be keyed (|x| up to {half * self.r:g})")
        key = np.zeros(K.shape[0], np.int64)
        for a in range(self.d):
            key = (key << self.BITS) + (K[:, a] + half)
        return key

    def centre_of(self, keys) -> np.ndarray:
        """Lattice points (n, d) of the given keys.

        Parameters
        ----------
        keys : array_like of int, shape (n,)
            Keys made by :meth:`assign`.

        Returns
        -------
        ndarray of float64, shape (n, d)
            The centres ``k r`` of the cells.

        References
        ----------
        001 Algorithm 5 line 4 (the Voronoi cells centred at the packing's points).

        Examples
        --------
        >>> lat = LatticePacking(d=3, r=0.25)
        >>> lat.centre_of(lat.assign([[0.1, -0.2, 0.9]])).tolist()
        [[0.0, -0.25, 1.0]]
        """
        keys = np.asarray(keys, dtype=np.int64)
        half, mask = 1 << (self.BITS - 1), (1 << self.BITS) - 1
        out = np.empty((keys.size, self.d))
        rest = keys.copy()
        for a in range(self.d - 1, -1, -1):
            out[:, a] = ((rest & mask) - half) * self.r
            rest >>= self.BITS
        return out
