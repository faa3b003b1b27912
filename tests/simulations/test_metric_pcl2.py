"""Maximal packings (001 Definitions A.2-A.3), Voronoi assignment, PCL2 / PCL2b (001 Algorithms 4-5).

References: brute-force geodesic distances (O(n k) on small sets), the definitions, Algorithm 5's lines.
"""

import math

import numpy as np
import pytest

from simulations.estimators.pcl2 import PCL2, PCL2b, pcl2_radius
from simulations.metric_spaces import LatticePacking, SpherePacking, fibonacci_sphere, geodesic, sphere_points


@pytest.mark.parametrize("r", [1.1, 0.5, 0.21])
def test_sphere_packing_is_a_maximal_packing(r):
    sp = SpherePacking(r)
    C = sp.centres
    D = geodesic(C[:, None, :], C[None, :, :])  # brute force, k x k
    np.fill_diagonal(D, np.inf)
    assert D.min() >= r * (1 - 1e-12)  # an r-packing
    assert sp.min_separation() == pytest.approx(D.min(), abs=1e-9)
    # maximal: every point of S² is within < r of a centre; checked on 20 000 random points and a fine net
    rng = np.random.default_rng(0)
    P = rng.standard_normal((20000, 3))
    P = np.vstack([P / np.linalg.norm(P, axis=1, keepdims=True), fibonacci_sphere(20000)])
    near = geodesic(P[:, None, :], C[None, :, :]).min(axis=1)
    assert near.max() < r and sp.covering_radius < r
    assert near.max() <= sp.covering_radius + 1e-9  # the Voronoi-vertex radius is the sup


def test_sphere_assignment_is_nearest_centre():
    sp = SpherePacking(0.4)
    rng = np.random.default_rng(1)
    P = rng.standard_normal((3000, 3))
    P /= np.linalg.norm(P, axis=1, keepdims=True)
    D = geodesic(P[:, None, :], sp.centres[None, :, :])
    brute = np.argmin(D, axis=1)
    # two implementations: the packing's kd-tree on chordal distances (scipy) and arccos of dot products
    # (numpy's arccos: vectorized on AVX-512 CPUs). Rounding moves either distance by ~1e-15 rad, so they can
    # disagree only on a point within that of a Voronoi edge; assert this sample has none (the nearest
    # and second-nearest centres are > 1e-9 rad apart), so the exact comparison does not depend on the CPU
    two = np.sort(D, axis=1)[:, :2]
    assert np.min(two[:, 1] - two[:, 0]) > 1e-9
    assert np.array_equal(sp.assign(P), brute)


def test_lattice_packing_maximal_and_keys_round_trip():
    for d in (1, 2, 3):
        lp = LatticePacking(d, 0.3)
        assert lp.covering_radius < lp.r  # r√d/2 < r for d <= 3
        X = np.random.default_rng(d).standard_normal((2000, d)) * 5
        keys = lp.assign(X)
        C = lp.centre_of(keys)
        assert np.all(np.abs(X - C) <= lp.r / 2 + 1e-12)  # in the cube around its lattice point
    with pytest.raises(ValueError, match="d=4"):
        LatticePacking(4, 0.3)


def test_pcl2b_lines_8_to_10():
    sp = LatticePacking(1, 1.0)
    X = np.array([[0.0]] * 60 + [[5.0]] * 60 + [[9.0]] * 2)
    y = np.array([1] * 50 + [0] * 10 + [0] * 45 + [1] * 15 + [1, 1])
    est = PCL2b(space=sp, epsilon=1.0, delta=1e-3, random_state=np.random.default_rng(0)).fit(X, y)
    keys = sp.assign(np.array([[0.0], [5.0], [9.0], [20.0]]))
    bits = est.cell_bits(keys)
    # 50/60 ones: far above the threshold 2 ln(2000)+1 ≈ 16.2 -> 1; 15/60: ŷ ≈ 15 < ĉ/2 ≈ 30 -> 0;
    # 2 points: both counts suppressed w.p. 1 - O(δ) -> 0; an empty cell -> 0
    assert bits.tolist() == [1, 0, 0, 0]
    assert np.all(est.y_hat_[est.ones_ == 0] == 0)


def test_pcl2_noise_keyed_and_law():
    sp = SpherePacking(0.8)
    pts = fibonacci_sphere(50)
    y = (pts[:, 2] > 0).astype(int)
    est = PCL2(space=sp, epsilon=1.0, random_state=5).fit(pts, y)
    allc = np.arange(sp.n_cells)
    assert np.array_equal(est.cell_bits(allc[::-1])[::-1], est.cell_bits(allc))
    p = est.probability_one(allc)
    empty = ~np.isin(allc, est.occupied_)
    assert np.all(p[empty] == 0.5)


def test_bad_input():
    with pytest.raises(ValueError, match="n=0"):
        pcl2_radius(0, 2)
    with pytest.raises(ValueError, match="d=0.5"):
        pcl2_radius(10, 0.5)
    with pytest.raises(ValueError, match="unit sphere"):
        sphere_points(np.array([[1.0, 1.0, 0.0]]))
    with pytest.raises(ValueError, match="NaN"):
        SpherePacking(0.5).assign(np.array([[np.nan, 0, 1.0]]))
    with pytest.raises(ValueError, match="epsilon=-1"):
        PCL2(space=SpherePacking(1.0), epsilon=-1, random_state=0).fit(fibonacci_sphere(3), np.array([0, 1, 0]))
    with pytest.raises(ValueError, match="delta"):
        PCL2b(space=LatticePacking(1, 1.0), delta=1.0, random_state=0).fit(np.zeros((2, 1)), np.array([0, 1]))
    with pytest.raises(ValueError, match="r must be < pi"):
        SpherePacking(math.pi)
