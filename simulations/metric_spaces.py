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
    """``m`` nearly uniform points on S² (the Fibonacci lattice), shape (m, 3)."""
    m = check_int("m", m, low=1)
    i = np.arange(m) + 0.5
    z = 1 - 2 * i / m
    phi = math.pi * (3 - math.sqrt(5)) * i
    s = np.sqrt(1 - z * z)
    return np.stack([s * np.cos(phi), s * np.sin(phi), z], axis=1)


def geodesic(a, b) -> np.ndarray:
    """Geodesic distance on S² between rows of a and b (broadcast), arccos of the clipped dot product."""
    return np.arccos(np.clip(np.sum(np.asarray(a) * np.asarray(b), axis=-1), -1.0, 1.0))


def _chord(rho: float) -> float:
    return 2.0 * math.sin(rho / 2.0)


def sphere_points(X, name: str = "X") -> np.ndarray:
    """``X`` as unit vectors (n, 3); ValueError for NaN or points off the sphere (|‖x‖ − 1| > 1e-9)."""
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

    Parameters
    ----------
    r : float in (0, π)
    net_factor : int, candidates per packing cell: the net has about ``net_factor · 4/r²`` points.
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
        return self.centres.shape[0]

    def assign(self, X) -> np.ndarray:
        """Voronoi cell (index of the geodesically nearest centre) of each point, int64 (n,)."""
        X = sphere_points(X)
        return self.tree.query(X)[1].astype(np.int64)

    def min_separation(self) -> float:
        """Smallest geodesic distance between two centres (>= r for a packing)."""
        d, _ = self.tree.query(self.centres, k=2)
        return float(2 * np.arcsin(np.clip(d[:, 1].min() / 2, 0, 1)))


class LatticePacking:
    """The maximal r-packing ``r Z^d`` of R^d (d <= 3) and its cubic Voronoi cells, indexed lazily."""

    def __init__(self, d: int, r: float):
        self.d = check_int("d", d, low=1)
        if self.d > 3:
            raise ValueError(f"d must be <= 3 (r Z^d is a maximal r-packing only for d <= 3), got d={d}")
        self.BITS = 63 // self.d  # bits per axis of a cell key; |k| < 2^(BITS-1)
        self.r = check_positive("r", r)
        self.covering_radius = self.r * math.sqrt(self.d) / 2

    @property
    def reach(self) -> float:
        """Points with every |x_a| < reach can be keyed."""
        return ((1 << (self.BITS - 1)) - 1) * self.r

    def lattice_index(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.d:
            raise ValueError(f"X must have shape (n, {self.d}), got shape {X.shape}")
        if X.size and not np.all(np.isfinite(X)):
            i = int(np.argwhere(~np.isfinite(X))[0, 0])
            raise ValueError(f"X must be finite (no NaN), got X[{i}]={X[i].tolist()}")
        return np.floor(X / self.r + 0.5).astype(np.int64)

    def assign(self, X) -> np.ndarray:
        """Cell key of each point: the nearest lattice point k, packed in ``63 // d`` bits per axis, int64 (n,)."""
        K = self.lattice_index(X)
        half = 1 << (self.BITS - 1)
        if K.size and np.abs(K).max() >= half:
            raise ValueError(f"points beyond {half} cells from the origin cannot be keyed (|x| up to {half * self.r:g})")
        key = np.zeros(K.shape[0], np.int64)
        for a in range(self.d):
            key = (key << self.BITS) + (K[:, a] + half)
        return key

    def centre_of(self, keys) -> np.ndarray:
        """Lattice points (n, d) of the given keys."""
        keys = np.asarray(keys, dtype=np.int64)
        half, mask = 1 << (self.BITS - 1), (1 << self.BITS) - 1
        out = np.empty((keys.size, self.d))
        rest = keys.copy()
        for a in range(self.d - 1, -1, -1):
            out[:, a] = ((rest & mask) - half) * self.r
            rest >>= self.BITS
        return out
