"""001 Lemma A.8 / Theorem A.11 geometry (:mod:`proofs_checks.partition_conditions`) and the smoke run of
``pcl2_partition_conditions``.

Expected values are closed forms: the icosahedron's spherical Voronoi cells (dodecahedron faces) have
diameter arccos(1/3), radius arccos(√((5 + 2√5)/15)) (the angle from an icosahedron vertex to the
centre of an adjacent face) and area 4π/12; a lattice cell's diameter is r√d; the few-points
probability is checked against exact rational binomial sums.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.partition_conditions import (lattice_cell_diameter, normal_lattice_cell_probabilities,
                                                prob_few_points, sampled_cell_diameters, sphere_cell_geometry)
from simulations.metric_spaces import SpherePacking

PHI = (1 + 5 ** 0.5) / 2


def _icosahedron() -> np.ndarray:
    v = np.array([(0, s, t * PHI) for s in (-1, 1) for t in (-1, 1)], float)
    v = np.concatenate([v, np.roll(v, 1, axis=1), np.roll(v, 2, axis=1)])
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_icosahedron_cells_exact():
    g = sphere_cell_geometry(_icosahedron())
    assert np.allclose(g["diameter"], math.acos(1 / 3), atol=1e-12)
    assert np.allclose(g["radius"], math.acos(math.sqrt((5 + 2 * math.sqrt(5)) / 15)), atol=1e-12)
    assert np.allclose(g["probability"], 1 / 12, atol=1e-12)
    r = math.acos(1 / math.sqrt(5))  # the icosahedron's edge angle: it is an r-packing, and a maximal one
    assert r < g["diameter"].min() <= g["diameter"].max() <= 2 * r and g["radius"].max() < r


def test_sphere_packing_sandwich_and_sample_lower_bound():
    sp = SpherePacking(0.5)
    g = sphere_cell_geometry(sp.centres)
    assert np.all(g["diameter"] >= sp.r * (1 - 1e-12)) and np.all(g["diameter"] <= 2 * g["radius"] + 1e-12)
    assert np.all(g["radius"] < sp.r) and math.isclose(g["radius"].max(), sp.covering_radius, rel_tol=1e-9)
    assert math.isclose(g["probability"].sum(), 1.0, rel_tol=1e-12)
    low = sampled_cell_diameters(sp.centres, per_cell=100)
    assert np.all(low <= g["diameter"] + 1e-12) and np.all(low > 0.7 * g["diameter"])


@pytest.mark.parametrize("d", [1, 2, 3])
def test_lattice_cell_diameter(d):
    assert math.isclose(lattice_cell_diameter(d, 0.3), 0.3 * math.sqrt(d), rel_tol=1e-12)


def test_normal_lattice_probabilities():
    p, tail = normal_lattice_cell_probabilities(0.7, reach=6.0)
    side = int(round(math.sqrt(p.size)))
    q = p.reshape(side, side)
    assert np.allclose(q, q[::-1, ::-1]) and np.allclose(q, q.T)
    assert abs(p.sum() + tail - 1) <= tail + 1e-14 and tail < 1e-8


def test_prob_few_points_exact():
    probs, n, k = (Fraction(1, 3), Fraction(1, 2), Fraction(1, 6)), 4, 1
    exact = sum(p * sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k + 1)) for p in probs)
    assert math.isclose(prob_few_points([float(p) for p in probs], n, k), float(exact), rel_tol=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: sphere_cell_geometry(np.eye(3)), "at least 4 points"),
    (lambda: sphere_cell_geometry(2 * _icosahedron()), "unit sphere"),
    (lambda: sphere_cell_geometry(np.vstack([np.eye(3), -np.eye(3)])), "radii must be < pi/4"),
    (lambda: sampled_cell_diameters(_icosahedron(), per_cell=0), "per_cell must be an integer >= 1"),
    (lambda: lattice_cell_diameter(0, 1.0), "d must be an integer >= 1"),
    (lambda: normal_lattice_cell_probabilities(-1.0), "r must be > 0"),
    (lambda: prob_few_points([0.6, 0.6], 3, 1), "sum to at most 1"),
    (lambda: prob_few_points([0.5], 3, -1), "k must be an integer >= 0"),
])
def test_guards(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_smoke_run_claims(smoke_run):
    """Exact, seed-free geometry: every claim holds at any seed."""
    run = smoke_run("pcl2_partition_conditions")
    claims = run.record["claims"]
    assert len(claims) == 6 and all(c["holds"] is True for c in claims)
    assert claims[0]["measured"] <= 2 and claims[1]["measured"] > 1
    for name in ("cell_geometry.csv", "few_points.csv", "pcl2_partition_conditions.png"):
        assert (run.folder / name).exists(), name
