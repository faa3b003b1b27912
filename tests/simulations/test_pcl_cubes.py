"""PCL (001 Algorithm 2), its kernels and the consistency laws.

Expected values: the numpy references (bit for bit), brute-force quadrature of η on fine midpoint grids
(independent of the closed forms), the Laplace tail formula, and a chi-square test of the keyed noise at
a fixed seed.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from simulations.estimators.pcl import PCL, pcl_side
from simulations.kernels_cells import (cube_votes, cube_votes_numpy, keyed_laplace, keyed_laplace_numpy,
                                       keyed_uniform, keyed_uniform_numpy)
from simulations.laws.consistency import (ConcentratedThreshold, RoughEta, SmoothEta, StepEta, cube_edges,
                                          cubes_per_axis)
from simulations.mechanisms import NoisyMajority


def test_keyed_stream_numba_equals_numpy_bit_for_bit():
    idx = np.arange(5000) * 7919
    for key in (0, 1, 2 ** 63 + 12345, 2 ** 64 - 1):
        assert np.array_equal(keyed_uniform(key, idx), keyed_uniform_numpy(key, idx))
        assert np.array_equal(keyed_laplace(key, idx, 0.7), keyed_laplace_numpy(key, idx, 0.7))


def test_keyed_laplace_law_ks():
    # Kolmogorov-Smirnov against Lap(2) at a fixed key; 1e5 draws, reject at the 1e-3 level only
    w = keyed_laplace(987654321, np.arange(100_000), 2.0)
    assert stats.kstest(w, stats.laplace(scale=2.0).cdf).pvalue > 1e-3


@pytest.mark.parametrize("d,side", [(1, 0.013), (2, 0.1), (3, 0.3), (5, 0.5)])
def test_cube_votes_match_numpy(d, side):
    rng = np.random.default_rng(d)
    X = rng.random((3000, d))
    X[:5] = 1.0  # the closed right end goes to the last cube
    y = rng.integers(0, 2, 3000)
    m = cubes_per_axis(side)
    c1, v1 = cube_votes(X, y, side, m)
    c2, v2 = cube_votes_numpy(X, y, side, m)
    assert np.array_equal(c1, c2) and np.array_equal(v1, v2)
    assert c1.sum() == 3000 and v1.sum() == (2 * y - 1).sum()


def test_cubes_per_axis():
    assert cubes_per_axis(1.0) == 1 and cubes_per_axis(0.5) == 2 and cubes_per_axis(1 / 3) == 3
    assert cubes_per_axis(0.3) == 4  # [0,.3) [.3,.6) [.6,.9) [.9,1]
    lo, hi = cube_edges(0.3)
    assert np.allclose(hi - lo, [0.3, 0.3, 0.3, 0.1])


def _brute_parts(law, side, fine=400):
    """(P_j, M_j) by the midpoint rule on a grid of `fine` points per cube edge length unit."""
    m = cubes_per_axis(side)
    g = (np.arange(fine) + 0.5) / fine
    mesh = np.stack([a.ravel() for a in np.meshgrid(*([g] * law.d), indexing="ij")], axis=1)
    eta = law.eta(mesh)
    k = np.minimum((mesh / side).astype(int), m - 1)
    flat = np.ravel_multi_index(tuple(k.T), (m,) * law.d)
    w = 1.0 / fine ** law.d
    P = np.bincount(flat, weights=np.maximum(2 * eta - 1, 0) * w, minlength=m ** law.d)
    M = np.bincount(flat, weights=np.maximum(1 - 2 * eta, 0) * w, minlength=m ** law.d)
    return P, M


@pytest.mark.parametrize("law,side,tol", [
    (SmoothEta(1), 0.07, 1e-5), (SmoothEta(2), 0.23, 1e-4),
    (StepEta(1), 0.07, 3e-3), (StepEta(2), 0.23, 3e-3),
    (RoughEta(1, fine=40), 0.07, 1e-12), (RoughEta(2, fine=8), 0.3, 1e-12)])
def test_cube_parts_against_quadrature(law, side, tol):
    P, M = law.cube_parts(side)
    Pb, Mb = _brute_parts(law, side, fine=400 if law.d == 2 else 4000)
    assert np.max(np.abs(P - Pb)) < tol and np.max(np.abs(M - Mb)) < tol


def test_step_eta_3d_volume_inclusion_exclusion():
    # P + M over all cubes = ∫ |2η-1| = 0.7 (uniform X); the half-space volume from the corner formula
    law = StepEta(3)
    P, M = law.cube_parts(0.17)
    assert abs(P.sum() + M.sum() - 0.7) < 1e-12
    rng = np.random.default_rng(5)
    X = rng.random((400_000, 3))
    frac = np.mean(X @ law.w > law.t)  # Monte Carlo, sd ~ 8e-4
    assert abs(P.sum() / 0.7 - frac) < 4e-3


def test_bayes_risks_against_quadrature():
    for law in (SmoothEta(2), StepEta(2), RoughEta(2, fine=8)):
        g = (np.arange(600) + 0.5) / 600
        mesh = np.stack([a.ravel() for a in np.meshgrid(g, g, indexing="ij")], axis=1)
        eta = law.eta(mesh)
        assert abs(np.mean(np.minimum(eta, 1 - eta)) - law.bayes_risk()) < 3e-3


def test_threshold_parts():
    law = ConcentratedThreshold(0.5, 0.05)
    P, M = law.cube_parts(0.1)  # threshold in the middle of cube [0.5, 0.6) -> all on one side
    assert P.sum() == pytest.approx(0.5) and M.sum() == pytest.approx(0.5)
    law = ConcentratedThreshold(0.55, 0.01)
    P, M = law.cube_parts(0.1)
    assert P[5] == pytest.approx(0.5) and M[5] == pytest.approx(0.5)  # both halves in cube 5
    # a constant classifier on that cube errs on exactly half the mass
    assert law.excess_risk_cubes(np.zeros(10, int), 0.1) == pytest.approx(0.5)


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_lazy_equals_eager_bit_for_bit(d):
    law = StepEta(d)
    X, y = law.sample(2000, np.random.default_rng(d))
    lazy = PCL(epsilon=0.5, lazy=True).fit(X, y, np.random.default_rng(11))
    eager = PCL(epsilon=0.5, lazy=False).fit(X, y, np.random.default_rng(11))
    assert eager.noise_ is not None and lazy.noise_ is None
    allc = np.arange(lazy.n_cubes_)
    # query the lazy learner in a shuffled order, in two batches, twice: same bits every time
    order = np.random.default_rng(3).permutation(allc)
    first = lazy.cube_bits(order)
    again = np.empty_like(first)
    again[: len(order) // 2] = lazy.cube_bits(order[: len(order) // 2])
    again[len(order) // 2:] = lazy.cube_bits(order[len(order) // 2:])
    assert np.array_equal(first, again)
    assert np.array_equal(lazy.all_bits(), eager.all_bits())
    assert np.array_equal(first, eager.all_bits()[order])
    Q = np.random.default_rng(4).random((500, d))
    assert np.array_equal(lazy.predict(Q), eager.predict(Q))


def test_classifier_law_equals_paper_exactly():
    # the paper's eager learner: independent bits with P(1) = P(Σ y + Lap(1/ε) > |C|/2) (NoisyMajority,
    # computed from the raw data, empty cubes included); the lazy learner's exact law from its state
    rng = np.random.default_rng(0)
    X = rng.random((7, 2)) * 0.66  # 7 points in the first 2x2 of a 3x3 grid: empty cubes exist
    y = rng.integers(0, 2, 7)
    est = PCL(epsilon=0.8, side=1 / 3).fit(X, y, rng)
    k = np.minimum((X * 3).astype(int), 2)
    flat = k[:, 0] * 3 + k[:, 1]
    sizes = np.bincount(flat, minlength=9)
    sums = np.bincount(flat, weights=y, minlength=9).astype(np.int64)
    paper = NoisyMajority(0.8).probability_one(sums, sizes)
    lazy = est.probability_one(np.arange(9))
    assert np.max(np.abs(paper - lazy)) < 1e-15
    assert np.all(lazy[sizes == 0] == 0.5)


def test_lazy_classifier_distribution_chi_square():
    # 3 cubes (one empty): 8 classifiers; 40 000 independent keys; chi-square goodness of fit against the
    # exact product law, reject at the 1e-3 level (fixed seed)
    X = np.array([[0.1], [0.2], [0.5]])
    y = np.array([1, 1, 0])
    est = PCL(epsilon=1.0, side=1 / 3).fit(X, y, 0)
    p1 = est.probability_one(np.arange(3))
    keys = np.random.default_rng(2026).integers(0, 2 ** 64, size=40_000, dtype=np.uint64)
    counts = np.zeros(8)
    for key in keys:
        est.noise_key_ = int(key)
        b = est.all_bits()
        counts[b[0] * 4 + b[1] * 2 + b[2]] += 1
    probs = np.array([np.prod([p1[j] if bits[j] else 1 - p1[j] for j in range(3)])
                      for bits in itertools.product((0, 1), repeat=3)])
    assert stats.chisquare(counts, probs * counts.sum()).pvalue > 1e-3


def test_nonprivate_rule_and_side():
    X = np.array([[0.05], [0.06], [0.07], [0.9]])
    y = np.array([1, 1, 0, 0])
    est = PCL(epsilon=None, side=0.5).fit(X, y, None)
    assert est.all_bits().tolist() == [1, 0]
    assert pcl_side(10 ** 6, 3) == pytest.approx(10 ** -1)
    assert PCL(epsilon=1.0).fit(np.random.default_rng(0).random((10 ** 4, 2)), np.zeros(10 ** 4, int), 0).side_ \
        == pytest.approx(10 ** -1)


@pytest.mark.parametrize("kwargs,X,y,match", [
    ({"epsilon": 0.0}, [[0.5]], [1], "epsilon=0.0"),
    ({"epsilon": -1.0}, [[0.5]], [1], "epsilon=-1.0"),
    ({}, np.zeros((0, 1)), [], "n=0"),
    ({}, [[1.5]], [1], r"X\[0\]=\[1.5\]"),
    ({}, [[0.2], [-0.1]], [1, 0], r"X\[1\]=\[-0.1\]"),
    ({}, [[float("nan")]], [1], "NaN"),
    ({}, [[0.2]], [2], "y must hold labels"),
    ({"side": 0.0}, [[0.2]], [1], "side=0.0"),
])
def test_bad_input(kwargs, X, y, match):
    with pytest.raises(ValueError, match=match):
        PCL(**kwargs).fit(np.asarray(X, dtype=float), np.asarray(y), 0)


def test_bad_input_guards():
    with pytest.raises(ValueError, match="n=0"):
        pcl_side(0, 1)
    with pytest.raises(ValueError, match="d=0"):
        pcl_side(10, 0)
    with pytest.raises(ValueError, match="spread"):
        ConcentratedThreshold(0.5, 0.0)
    est = PCL(epsilon=1.0).fit(np.array([[0.2, 0.3]]), np.array([1]), 0)
    with pytest.raises(ValueError, match="2 columns"):
        est.predict(np.array([[0.2]]))
