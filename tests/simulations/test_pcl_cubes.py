"""PCL (001 Algorithm 2), its kernels and the consistency laws.

Expected values: the numpy references (bit for bit where both run the same correctly rounded operations:
the cube counts and the keyed uniforms; within a stated number of ulp where a transcendental function
enters: the keyed Laplace noise), SplitMix64's published outputs and an exact Python-integer SplitMix64,
correctly rounded values from mpmath, brute-force quadrature of η on fine midpoint grids (independent of the
closed forms), the Laplace tail formula, and a chi-square test of the keyed noise at a fixed seed.
"""

import itertools
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy import stats

from simulations.estimators.pcl import PCL, pcl_side
from simulations.kernels_cells import (cube_votes, cube_votes_numpy, first_outside_unit_cube, keyed_laplace,
                                       keyed_laplace_numpy, keyed_uniform, keyed_uniform_numpy)
from simulations.laws.consistency import (ConcentratedThreshold, RoughEta, SmoothEta, StepEta, _cos_reduced,
                                          cube_edges, cubes_per_axis)
from simulations.mechanisms import NoisyMajority
from tests._ulp import assert_allclose_ulp


KEYS = (0, 1, 2 ** 63 + 12345, 2 ** 64 - 1)
_MASK = (1 << 64) - 1


def _splitmix64(z: int) -> int:
    """SplitMix64's output function in Python integers (exact modulo 2^64): the independent oracle."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def test_keyed_uniform_is_splitmix64_bit_for_bit():
    # Integer arithmetic, an exact int -> float conversion (< 2^53), one correctly rounded addition of 1/2
    # and a division by 2^53 (exact): the same bits on every CPU, for numba, numpy and Python integers.
    idx = np.arange(5000) * 7919
    for key in KEYS:
        fast = keyed_uniform(key, idx)
        assert np.array_equal(fast, keyed_uniform_numpy(key, idx))
        for j in idx[:50]:
            a = _splitmix64((key + (int(j) + 1) * 0x9E3779B97F4A7C15) & _MASK) >> 11
            assert fast[j // 7919] == float(Fraction(2 * a + 1, 2 ** 54))  # (a + 1/2) / 2^53, rounded once
    # SplitMix64 with seed 0 (Vigna's splitmix64.c: the state advances by γ before each output) starts
    # 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F: counters 0, 1, 2 under key 0
    published = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    want = [float(Fraction(2 * (z >> 11) + 1, 2 ** 54)) for z in published]
    assert keyed_uniform(0, [0, 1, 2]).tolist() == want


# Bounds of the keyed Laplace stream (issue 19). ``keyed_laplace`` (numba) and ``keyed_laplace_numpy`` run
# the same correctly rounded operations (the uniform above, u - 1/2, 2u), then one transcendental, log1p,
# then one multiplication by the scale. numba calls the C library's log1p; numpy calls its own vectorized
# log1p where the CPU has AVX-512 (SVML) and the C library's elsewhere. Each is within 1 ulp of the
# correctly rounded log1p (glibc documents 1 ulp for log1p; numpy validates its float64 log1p, SVML
# included, to 1 ulp in numpy/_core/tests/test_umath_accuracy.py), so the two log1p values are at most 2
# spacings apart (spacing at the larger magnitude, as tests/_ulp.py measures). The multiplication by the
# scale turns that into at most 2·2 = 4 spacings of the product (the product may fall in the binade below,
# where the spacing is half as large) and rounds each product once more (½ + ½): fewer than 5 ulp.
# Observed: up to 2 ulp in about 6 % of draws on an AVX-512 EPYC (issue 19); 0 where both call glibc.
NUMBA_VS_NUMPY_MAX_ULP = 5
# Against the correctly rounded scale·log1p(t) (mpmath at 120 bits, then rounded to nearest double): the
# kernel's log1p is within 1 spacing of the correctly rounded log1p, itself within ½ of the truth: 1.5
# spacings, at most 3 of the product, + ½ for the product's rounding + ½ from the truth to its rounding: < 4.
VS_CORRECTLY_ROUNDED_MAX_ULP = 4


def test_keyed_laplace_numba_is_the_one_implementation():
    # what lazy = eager rests on: the kernel's value of counter j depends on (key, j) only, not on which other
    # counters are asked for, in which order or in which batch -- exactly, since it is one code path
    idx = np.arange(5000) * 7919
    perm = np.random.default_rng(0).permutation(idx.size)
    for key in KEYS:
        full = keyed_laplace(key, idx, 0.7)
        assert np.array_equal(keyed_laplace(key, idx[perm], 0.7), full[perm])
        assert np.array_equal(np.concatenate([keyed_laplace(key, idx[:7], 0.7), keyed_laplace(key, idx[7:], 0.7)]),
                              full)


@pytest.mark.parametrize("scale", [0.7, 2.0, 1 / 3])
def test_keyed_laplace_numba_equals_numpy_within_ulp(scale):
    idx = np.arange(5000) * 7919
    for key in KEYS:
        assert_allclose_ulp(keyed_laplace(key, idx, scale), keyed_laplace_numpy(key, idx, scale),
                            NUMBA_VS_NUMPY_MAX_ULP, err_msg=f"key={key}")


def _laplace_correctly_rounded(key, idx, scale):
    """scale·log1p(2(u − ½)) (left tail) or −scale·log1p(−2(u − ½)), u the keyed uniform, evaluated at
    120 bits and rounded to the nearest double (the argument t is the double the kernel computes)."""
    u = keyed_uniform_numpy(key, idx) - 0.5  # exact bits (test above); u - 1/2 and 2u: same in every implementation
    out = []
    for ui in u:
        t = 2.0 * ui if ui < 0.0 else -2.0 * ui
        with mp.workprec(120):
            v = mp.mpf(scale) * mp.log1p(mp.mpf(t)) * (1 if ui < 0.0 else -1)
        with mp.workprec(53):
            out.append(float(+v))  # + rounds to 53 bits, to nearest
    return np.array(out)


def test_keyed_laplace_against_correctly_rounded_values():
    idx = np.arange(1500) * 7919
    for key in KEYS[1:3]:
        truth = _laplace_correctly_rounded(key, idx, 0.7)
        assert_allclose_ulp(keyed_laplace(key, idx, 0.7), truth, VS_CORRECTLY_ROUNDED_MAX_ULP, err_msg="numba")
        assert_allclose_ulp(keyed_laplace_numpy(key, idx, 0.7), truth, VS_CORRECTLY_ROUNDED_MAX_ULP,
                            err_msg="numpy")


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
    # exact: both modes read the noise from the one numba kernel (keyed_laplace), eager for every cube at fit
    # time, lazy for the queried cubes; nothing here goes through numpy's transcendental functions
    law = StepEta(d)
    X, y = law.sample(2000, np.random.default_rng(d))
    lazy = PCL(epsilon=0.5, lazy=True, random_state=np.random.default_rng(11)).fit(X, y)
    eager = PCL(epsilon=0.5, lazy=False, random_state=np.random.default_rng(11)).fit(X, y)
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
    est = PCL(epsilon=0.8, side=1 / 3, random_state=rng).fit(X, y)
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
    est = PCL(epsilon=1.0, side=1 / 3, random_state=0).fit(X, y)
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
    est = PCL(epsilon=None, side=0.5).fit(X, y)
    assert est.all_bits().tolist() == [1, 0]
    assert pcl_side(10 ** 6, 3) == pytest.approx(10 ** -1)
    assert PCL(epsilon=1.0, random_state=0).fit(np.random.default_rng(0).random((10 ** 4, 2)), np.zeros(10 ** 4, int)).side_ \
        == pytest.approx(10 ** -1)


@pytest.mark.parametrize("kwargs,X,y,match", [
    ({"epsilon": 0.0}, [[0.5]], [1], "epsilon=0.0"),
    ({"epsilon": -1.0}, [[0.5]], [1], "epsilon=-1.0"),
    ({}, np.zeros((0, 1)), [], "n=0"),
    ({}, [[1.5]], [1], r"X\[0\]=\[1.5\]"),
    ({}, [[0.2], [-0.1]], [1, 0], r"X\[1\]=\[-0.1\]"),
    ({}, [[float("nan")]], [1], "NaN"),
    ({}, [[0.2]], [2], "y must hold labels"),
    ({}, [[0.2], [0.3]], [1, -1], "y must hold labels"),
    ({}, [[0.2]], [0.5], "Unknown label type: continuous"),  # scikit-learn's wording (issue 37)
    ({}, [[0.2, 0.3], [0.4, 1.0 + 2 ** -52]], [1, 0], r"X\[1\]=\[0.4, 1.0000000000000002\]"),
    ({"side": 0.0}, [[0.2]], [1], "side=0.0"),
])
def test_bad_input(kwargs, X, y, match):
    with pytest.raises(ValueError, match=match):
        PCL(**kwargs, random_state=0).fit(np.asarray(X, dtype=float), np.asarray(y))


def test_bad_input_guards():
    with pytest.raises(ValueError, match="n=0"):
        pcl_side(0, 1)
    with pytest.raises(ValueError, match="d=0"):
        pcl_side(10, 0)
    with pytest.raises(ValueError, match="spread"):
        ConcentratedThreshold(0.5, 0.0)
    est = PCL(epsilon=1.0, random_state=0).fit(np.array([[0.2, 0.3]]), np.array([1]))
    with pytest.raises(ValueError, match="X has 1 features, but PCL is expecting 2 features as input"):
        est.predict(np.array([[0.2]]))


def test_first_outside_unit_cube_matches_numpy():
    rng = np.random.default_rng(5)
    for shape in ((0, 2), (1, 1), (50, 3), (7, 1)):
        X = rng.random(shape)
        assert first_outside_unit_cube(X) == -1
        for value in (-0.0 - 2 ** -1074, 1.0 + 2 ** -52, np.nan, np.inf, -np.inf):
            if X.size:
                Y = X.copy()
                j = int(rng.integers(Y.size))
                Y.flat[j] = value
                Y.flat[j + 1:] = 2.0  # later bad entries must not be reported first
                bad = np.flatnonzero(~((Y.ravel() >= 0.0) & (Y.ravel() <= 1.0)))
                assert first_outside_unit_cube(Y) == bad[0] == j
    assert first_outside_unit_cube(np.array([[0.0, 1.0]])) == -1  # both ends of the closed interval


@pytest.mark.parametrize("d", [1, 2, 3])
def test_smooth_eta_kernel_equals_numpy_within_ulp(d):
    # Same operations in the same order but cos: the kernel's polynomial one is within 1 ulp of the exact
    # value (test below), numpy's within 4 (libm, or its SIMD one on AVX-512), a product of d factors adds d
    # roundings -> at most 5d ulp (measured at 10^6 points: 1, 3, 6 ulp for d = 1, 2, 3).
    law = SmoothEta(d)
    X = np.random.default_rng(d).random((20000, d))
    X[:3] = [[0.0] * d, [1.0] * d, [law.PHASES[0] + 0.25] * d]  # the last: a zero of cos (relative error)
    assert_allclose_ulp(law._g(X), law._g_numpy(X), max_ulp=5 * d)
    # far from [0, 1]: the C library's cos (the reduction by π/2 is exact only for |2π(x − φ)| < 2^18)
    assert_allclose_ulp(law._g(X * 1e5), law._g_numpy(X * 1e5), max_ulp=5 * d)


def test_polynomial_cos_within_one_ulp_of_the_exact_value():
    # _cos_reduced against cos rounded to double from 60-digit arithmetic, on the kernel's range (2π(x − φ) with
    # x in [0, 1]) and at the doubles nearest to kπ/2 (where cos is tiny and the reduction must be accurate)
    rng = np.random.default_rng(7)
    b = np.concatenate([rng.uniform(-2 * np.pi, 2 * np.pi, 3000), rng.uniform(-1e-3, 1e-3, 200), [0.0, -0.0],
                        [np.nextafter(k * np.pi / 2, s) for k in range(-4, 5) for s in (-np.inf, 0.0, np.inf)],
                        rng.uniform(-(2.0 ** 18), 2.0 ** 18, 300)])
    with mp.workdps(60):
        exact = np.array([float(mp.cos(mp.mpf(float(x)))) for x in b])
    assert_allclose_ulp(np.array([_cos_reduced(x) for x in b]), exact, max_ulp=1)


@pytest.mark.parametrize("d,fine", [(1, 300), (2, 17), (3, 7)])
def test_rough_eta_kernel_equals_numpy_bit_for_bit(d, fine):
    # integer cell arithmetic and a lookup: one code path's result, bit for bit
    law = RoughEta(d, fine=fine)
    X = np.random.default_rng(d).random((20000, d))
    X[:4] = [[0.0] * d, [1.0] * d, [1 - 2 ** -53] * d, [1 / fine] * d]
    np.testing.assert_array_equal(law.eta(X), law._eta_numpy(X))
