"""PCL2's partition conditions, measured on the packings the suite builds (001 Lemma A.8, Theorem A.11).

001 Lemma A.8: every Voronoi cell V of a maximal r-packing has ``diam(V) <= 2r`` (``r = n^{-1/(4d)}``).
001 Theorem A.11: a partition rule is universally consistent if (1) ``diam(V(x)) -> 0`` and (2)
``Pr[N(x) <= k] -> 0`` for every constant k, where N(x) counts the sample points in x's cell.

Geometry, exact:

* **S²** (geodesic metric, :class:`~simulations.metric_spaces.SpherePacking`): the cells are the
  regions of ``scipy.spatial.SphericalVoronoi`` of the centres. A cell is the intersection of
  hemispheres, i.e. ``{u/|u| : u in conv(vertices)}``; for a point a, ``{u : angle(a, u) <= s}`` is a
  convex cone when ``s < π/2``, so the largest angle from a to the cell is attained at a vertex as long
  as it is below π/2. Hence (once every cell radius is < π/4, checked) the **exact** diameter is the
  largest vertex-to-vertex distance, and the radius ``R_V`` (largest distance from the centre) the
  largest centre-to-vertex distance. Packing-covering sandwich: the packing is r-separated, so V holds
  the open ball of radius r/2 around its centre (``diam >= r``), and it is an r-cover (001 Theorem A.4),
  so ``R_V < r`` and ``diam <= 2 R_V < 2r``. A dense Fibonacci sample gives an independent **lower
  bound** on each diameter (its largest within-cell distance).
* **R^d** (PCL2b's lattice ``r Z^d``, :class:`~simulations.metric_spaces.LatticePacking`): the cells are
  cubes of side r, diameter ``r √d`` exactly.

Condition (2), exact for a given law P: the sample is independent of the test point, so
``Pr[N(x) <= k] = Σ_V P(V) · P(Bin(n, P(V)) <= k)``. On S² with P uniform, ``P(V)`` is the cell's area
over 4π (exact spherical-polygon areas); on R² with P = N(0, I₂), ``P(V)`` is a product of normal-cdf
differences, summed over the cells inside ``[−12, 12]²`` (the rest has mass < 1e-31, a bound on the
truncation error). Lemma A.9's proof bounds the same quantity by ``(2k + 4) m_T / n + Pr(T̄)`` with m_T
the number of cells meeting the ball T of radius ``θ = n^{1/(2d)}``.

References: 001 Appendix A: Definitions A.2-A.3, Theorem A.4, Algorithms 4-5, Lemmas A.8-A.9,
Theorem A.11.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special, stats
from scipy.spatial import SphericalVoronoi, cKDTree

from limits.validation import check_int, check_positive
from simulations.metric_spaces import fibonacci_sphere, sphere_points

__all__ = ["lattice_cell_diameter", "normal_lattice_cell_probabilities", "pcl_cube_probabilities", "prob_few_points",
           "sampled_cell_diameters", "sphere_cell_geometry"]

NORMAL_REACH = 12.0


def _angles(dots) -> np.ndarray:
    return np.arccos(np.clip(dots, -1.0, 1.0))


def sphere_cell_geometry(centres) -> dict:
    """Exact diameter, radius and uniform-law probability of every spherical Voronoi cell of ``centres``.

    Parameters
    ----------
    centres : array_like, shape (m, 3), m >= 4
        Distinct points of S² (e.g. ``SpherePacking(r).centres``).

    Returns
    -------
    dict
        ``"diameter"`` (m,): the exact geodesic diameter of each cell (largest vertex-to-vertex
        distance); ``"radius"`` (m,): the largest geodesic distance from the centre to its cell;
        ``"probability"`` (m,): cell area / 4π.

    Raises
    ------
    ValueError
        If ``centres`` is not an (m, 3) array of unit vectors with m >= 4, or a cell radius is >= π/4
        (then the vertex argument of the module docstring does not apply).

    References
    ----------
    001 Lemma A.8, Theorem A.4.

    Examples
    --------
    The 12 vertices of an icosahedron: pentagonal cells whose vertices are those of a dodecahedron;
    the radius is the angle between an icosahedron vertex and a neighbouring dodecahedron vertex
    (cos = 0.7947...), the diameter the angle between two non-adjacent dodecahedron vertices of a
    face, arccos(1/3).

    >>> phi = (1 + 5 ** 0.5) / 2
    >>> ico = np.array([(0, s, t * phi) for s in (-1, 1) for t in (-1, 1)], float)
    >>> ico = np.concatenate([ico, np.roll(ico, 1, axis=1), np.roll(ico, 2, axis=1)])
    >>> g = sphere_cell_geometry(ico / np.linalg.norm(ico, axis=1, keepdims=True))
    >>> bool(np.allclose(g["diameter"], np.arccos(1 / 3))), bool(np.allclose(g["probability"], 1 / 12))
    (True, True)
    """
    C = sphere_points(centres, "centres")
    if C.shape[0] < 4:
        raise ValueError(f"centres must hold at least 4 points, got {C.shape[0]}")
    sv = SphericalVoronoi(C, radius=1.0, threshold=1e-9)
    sv.sort_vertices_of_regions()
    V = sv.vertices / np.linalg.norm(sv.vertices, axis=1, keepdims=True)
    m = C.shape[0]
    diameter, radius = np.empty(m), np.empty(m)
    for i, region in enumerate(sv.regions):
        P = V[region]
        radius[i] = float(_angles(P @ C[i]).max())
        diameter[i] = float(_angles((P @ P.T).min()))
    if radius.max() >= math.pi / 4:
        i = int(np.argmax(radius))
        raise ValueError(f"cell radii must be < pi/4 for the exact vertex diameter, got radius={radius[i]:.4g} "
                         f"at centre {i}")
    return {"diameter": diameter, "radius": radius, "probability": sv.calculate_areas() / (4 * math.pi)}


def sampled_cell_diameters(centres, per_cell: int = 200) -> np.ndarray:
    """Lower bounds on the cell diameters: the largest within-cell distance of a dense Fibonacci sample.

    Parameters
    ----------
    centres : array_like, shape (m, 3)
        Points of S²; each sample point belongs to the cell of its geodesically nearest centre.
    per_cell : int >= 1
        Sample points per cell on average (``per_cell · m`` points in all).

    Returns
    -------
    numpy.ndarray, shape (m,)
        For each cell the largest geodesic distance between two sample points in it (0 when fewer
        than two fall in it). Every entry is at most the cell's true diameter.

    Raises
    ------
    ValueError
        On centres off the sphere or ``per_cell < 1``.

    References
    ----------
    001 Lemma A.8.

    Examples
    --------
    >>> C = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], float)
    >>> d = sampled_cell_diameters(C, per_cell=2000)   # octahedron: opposite corners at arccos(-1/3) ≈ 1.911
    >>> bool(np.all(d <= np.arccos(-1 / 3))), bool(np.all(d > 1.85))
    (True, True)
    """
    C = sphere_points(centres, "centres")
    per_cell = check_int("per_cell", per_cell, low=1)
    S = fibonacci_sphere(per_cell * C.shape[0])
    cell = cKDTree(C).query(S)[1]
    order = np.argsort(cell, kind="stable")
    bounds = np.searchsorted(cell[order], np.arange(C.shape[0] + 1))
    out = np.zeros(C.shape[0])
    for i in range(C.shape[0]):
        P = S[order[bounds[i]:bounds[i + 1]]]
        if P.shape[0] >= 2:
            out[i] = float(_angles((P @ P.T).min()))
    return out


def lattice_cell_diameter(d: int, r: float) -> float:
    """Diameter of a Voronoi cell of the lattice packing ``r Z^d``: the cube's diagonal, from its corners.

    Parameters
    ----------
    d : int >= 1
    r : float > 0

    Returns
    -------
    float
        The largest Euclidean distance between two of the ``2^d`` corners of ``r([−½, ½]^d)`` (= r √d).

    Raises
    ------
    ValueError
        On ``d < 1`` or ``r <= 0``.

    References
    ----------
    001 Lemma A.8, Algorithm 5.

    Examples
    --------
    >>> round(lattice_cell_diameter(2, 0.5) / 0.5, 12) == round(2 ** 0.5, 12)
    True
    """
    d = check_int("d", d, low=1)
    r = check_positive("r", r)
    corners = r * (np.array(np.meshgrid(*[[-0.5, 0.5]] * d, indexing="ij")).reshape(d, -1).T)
    diff = corners[:, None, :] - corners[None, :, :]
    return float(np.sqrt((diff ** 2).sum(axis=-1)).max())


def normal_lattice_cell_probabilities(r: float, reach: float = NORMAL_REACH) -> tuple[np.ndarray, float]:
    """``P(V)`` of the cells of ``r Z²`` under X ~ N(0, I₂), for the cells inside ``[−reach, reach]²``.

    Parameters
    ----------
    r : float > 0
        Lattice spacing (cells ``r(k + [−½, ½)²)``).
    reach : float > 0

    Returns
    -------
    (numpy.ndarray, float)
        The probabilities (flattened, (2I + 1)² cells with ``I = ceil(reach / r)``) and an upper bound
        on the mass of the cells left out, ``4 Φ(−r(I + ½))``.

    Raises
    ------
    ValueError
        On ``r <= 0`` or ``reach <= 0``.

    References
    ----------
    001 Algorithm 5 (PCL2b's lattice packing), Theorem A.11.

    Examples
    --------
    >>> p, tail = normal_lattice_cell_probabilities(0.5)
    >>> bool(abs(p.sum() - 1) < 1e-14), tail < 1e-30
    (True, True)
    """
    r, reach = check_positive("r", r), check_positive("reach", reach)
    I = int(math.ceil(reach / r))
    i = np.arange(0, I + 1)
    a, b = r * (i - 0.5), r * (i + 0.5)
    q_pos = special.ndtr(-a) - special.ndtr(-b)  # upper tails: no cancellation far out
    q_pos[0] = 1.0 - 2.0 * special.ndtr(-0.5 * r)
    q = np.concatenate([q_pos[:0:-1], q_pos])
    return np.outer(q, q).ravel(), float(4.0 * special.ndtr(-r * (I + 0.5)))


def prob_few_points(probabilities, n: int, k: int) -> float:
    """``Pr[N(x) <= k] = Σ_V P(V) P(Bin(n, P(V)) <= k)``: the chance that x's cell holds at most k of n points.

    Parameters
    ----------
    probabilities : array_like, shape (m,)
        Cell probabilities ``P(V)`` (non-negative, summing to at most 1).
    n : int >= 1
        Sample size.
    k : int >= 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On negative probabilities, a sum above 1 (+1e-9), ``n < 1`` or ``k < 0``.

    References
    ----------
    001 Theorem A.11 condition (2), Lemma A.9.

    Examples
    --------
    >>> prob_few_points([0.5, 0.5], 2, 0)  # each cell is empty with probability 1/4
    0.25
    """
    p = np.asarray(probabilities, dtype=float)
    if p.size and (p.min() < 0 or p.sum() > 1 + 1e-9 or not np.all(np.isfinite(p))):
        raise ValueError(f"probabilities must be non-negative and sum to at most 1, got sum={p.sum()!r}")
    n, k = check_int("n", n, low=1), check_int("k", k, low=0)
    return float(np.sum(p * stats.binom.cdf(k, n, p)))


def pcl_cube_probabilities(side: float, d: int, cdf=None) -> np.ndarray:
    """``P(C)`` of PCL's cubes of side r over ``[0, 1]^d`` for a product law with marginal cdf F (001 Algorithm 2).

    The cubes start at 0 on every axis (``[k r, (k + 1) r)``, the last cut at 1, as
    :func:`simulations.laws.consistency.cube_edges`), so an axis contributes ``F(hi_k) − F(lo_k)`` and a
    cube the product over its axes.

    Parameters
    ----------
    side : float in (0, 1]
        The cube side r (PCL: ``n^{-1/(2d)}``).
    d : int >= 1
        Dimension.
    cdf : callable or None, default None
        The marginal cdf F on [0, 1], vectorized; None: uniform (F(t) = t).

    Returns
    -------
    numpy.ndarray, shape (m^d,)
        The cube probabilities (C order), summing to 1 up to rounding.

    Raises
    ------
    ValueError
        On ``side`` outside (0, 1] or ``d < 1``.

    References
    ----------
    001 Algorithm 2 (cubes of side r), Lemma 3.3.

    Examples
    --------
    Side 0.4 on [0, 1]: cubes [0, 0.4), [0.4, 0.8), [0.8, 1] (the last cut at 1); in d = 2 the corner cube
    has mass 0.2² = 0.04:

    >>> p = pcl_cube_probabilities(0.4, 2)
    >>> p.size, round(float(p[-1]), 12), round(float(p.sum()), 12)
    (9, 0.04, 1.0)
    """
    from simulations.laws.consistency import cube_edges

    d = check_int("d", d, low=1)
    lo, hi = cube_edges(side)
    F = (lambda t: t) if cdf is None else cdf
    axis = np.asarray(F(hi), dtype=float) - np.asarray(F(lo), dtype=float)
    out = axis
    for _ in range(d - 1):
        out = np.multiply.outer(out, axis)
    return np.ascontiguousarray(out).ravel()
