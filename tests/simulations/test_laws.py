"""Data-generating laws: the 003 constructions against the paper's equations, exact cell integrals
against independent integrations, exact excess risks against brute-force Monte Carlo.

Statistical checks: a Monte Carlo mean is compared with the exact value within Z = 4.5 standard
errors (two-sided normal tail 7e-6 per check, CLT), at fixed seeds; with ~40 such checks the chance
that a correct implementation fails somewhere is below 3e-4. Integrals from ``scipy.integrate.quad``
are compared within 1e-9 (its requested absolute tolerance 1e-11 plus rounding).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate

from simulations.kernels import bin_index
from simulations.laws import (
    AdditiveRegression,
    BoundaryClassification,
    BumpClassification,
    BumpField,
    BumpRegression,
    LomaxNoise,
    ThreePointRegression,
    UniformNoise,
    midpoint_grid,
    three_point_T,
)
from simulations.laws.holder_tsybakov import bump, bump_box_integrals, bump_l1, bump_l2sq

Z = 4.5
QUAD = dict(epsabs=1e-11, epsrel=1e-11, limit=200)


def rng(seed):
    return np.random.default_rng(seed)


def quad2(fn, x0, x1, y0, y1, xpoints, ypoints):
    """Nested adaptive quadrature with the integrand's kinks as break points (``ypoints(x)``).

    The integrands here are piecewise polynomial, so Gauss–Kronrod is exact on each piece up to
    rounding once the kinks are break points.
    """
    def inner(x):
        pts = [p for p in ypoints(x) if y0 < p < y1]
        return integrate.quad(lambda y: fn(x, y), y0, y1, points=pts or None, **QUAD)[0]
    pts = [p for p in xpoints if x0 < p < x1]
    return integrate.quad(inner, x0, x1, points=pts or None, **QUAD)[0]


# ------------------------------------------------------------------------------------- the bump φ

def test_bump_shape_eq35():
    u = np.array([[0.0, 0.0], [0.25, -0.1], [0.375, 0.0], [0.5, 0.2], [0.6, 0.0], [-0.49, 0.49]])
    # plateau 1 on ||u||_inf <= 1/4, linear 4(1/2 - r) to 0 at the boundary, 0 outside (003 eq. (35))
    np.testing.assert_allclose(bump(u), [1.0, 1.0, 0.5, 0.0, 0.0, 0.04], atol=1e-15)
    grid = midpoint_grid(50, 3) - 0.5
    vals = bump(grid)
    assert vals.min() >= 0.0 and vals.max() <= 1.0


def _trapezoid_antiderivative(t: Fraction) -> Fraction:
    """∫_{-1/2}^{t} ψ(|s|) ds for the 1-D bump, written piece by piece with exact fractions."""
    q = Fraction(1, 4)
    h = Fraction(1, 2)
    if t <= -h:
        return Fraction(0)
    if t <= -q:  # rising edge 4(s + 1/2)
        return 2 * (t + h) ** 2
    if t <= q:
        return Fraction(1, 8) + (t + q)
    if t <= h:  # falling edge 4(1/2 - s)
        return Fraction(1, 8) + h + Fraction(1, 8) - 2 * (h - t) ** 2
    return Fraction(3, 4)


@pytest.mark.parametrize("lo,hi", [(-0.5, 0.5), (-0.3, 0.1), (0.2, 0.45), (-0.5, -0.4), (0.0, 0.0), (0.25, 0.25)])
def test_bump_box_integrals_1d_exact(lo, hi):
    I1, I2 = bump_box_integrals(np.array([[lo]]), np.array([[hi]]))
    exact = _trapezoid_antiderivative(Fraction(hi)) - _trapezoid_antiderivative(Fraction(lo))
    assert I1[0] == pytest.approx(float(exact), abs=1e-14)
    sq, _ = integrate.quad(lambda s: bump(np.array([[s]]))[0] ** 2, lo, hi, points=[-0.25, 0.25], **QUAD) if hi > lo else (0.0, 0)
    assert I2[0] == pytest.approx(sq, abs=1e-9)


def test_bump_norms_by_hand():
    # d = 1: plateau 1/2 plus two triangles of area 1/8; ||φ||_2^2: 1/2 + 2 * (1/4)/3
    assert bump_l1(1) == pytest.approx(0.75, abs=1e-15)
    assert bump_l2sq(1) == pytest.approx(0.5 + 1 / 6, abs=1e-15)
    # d = 2 by layers: plateau area 1/4, then ∫_{1/4}^{1/2} 4(1/2 - r) d(4r^2) = 1/3
    assert bump_l1(2) == pytest.approx(0.25 + 1 / 3, abs=1e-15)
    I1, I2 = bump_box_integrals(np.full((1, 2), -0.5), np.full((1, 2), 0.5))
    assert I1[0] == pytest.approx(bump_l1(2), abs=1e-14) and I2[0] == pytest.approx(bump_l2sq(2), abs=1e-14)


@pytest.mark.parametrize("box", [((-0.5, -0.5), (0.5, 0.5)), ((-0.3, 0.1), (0.2, 0.45)), ((0.3, -0.45), (0.5, -0.2)),
                                 ((-0.1, -0.1), (0.1, 0.1))])
def test_bump_box_integrals_2d_vs_quadrature(box):
    lo, hi = np.array([box[0]]), np.array([box[1]])
    I1, I2 = bump_box_integrals(lo, hi)
    # kinks: |u_i| = 1/4 and the diagonals |u_1| = |u_2|
    xpts = [-0.25, 0.0, 0.25, lo[0, 1], -lo[0, 1], hi[0, 1], -hi[0, 1]]
    for power, got in ((1, I1[0]), (2, I2[0])):
        ref = quad2(lambda x, y: bump(np.array([[x, y]]))[0] ** power, lo[0, 0], hi[0, 0], lo[0, 1], hi[0, 1],
                    xpts, lambda x: [-0.25, 0.25, x, -x])
        assert got == pytest.approx(ref, abs=1e-10)


# ------------------------------------------------------------------------------ the 003 construction

def _eta_v_direct(X, g, beta, signs):
    """003 eq. (36) term by term: ∑_k v_k φ((x − c_k)/h) h^β over all cubes."""
    h = 1.0 / g
    d = X.shape[1]
    out = np.zeros(X.shape[0])
    for k, v in enumerate(signs):
        if v == 0:
            continue
        c = (np.array(np.unravel_index(k, (g,) * d)) + 0.5) * h
        out += v * bump((X - c) / h) * h ** beta
    return out


@pytest.mark.parametrize("d,g,beta", [(1, 7, 0.5), (2, 4, 1.0), (2, 5, 0.3)])
def test_bump_field_matches_eq36(d, g, beta):
    f = BumpField.random(d=d, g=g, beta=beta, num_bumps=g ** d // 2 + 1, rng=rng(1))
    X = rng(2).random((3000, d))
    np.testing.assert_allclose(f.value(X), _eta_v_direct(X, g, beta, f.signs), atol=1e-15)
    law = BumpClassification(field=f)
    eta = law.eta(X)
    np.testing.assert_allclose(eta[:, 1], (1 + f.value(X)) / 2)  # 003 eq. (34)
    np.testing.assert_allclose(eta.sum(axis=1), 1.0)


@pytest.mark.parametrize("d,g,bins", [(1, 7, 5), (1, 4, 8), (2, 3, 4), (2, 4, 4)])
def test_bump_cell_integrals_vs_quadrature(d, g, bins):
    f = BumpField.random(d=d, g=g, beta=0.7, num_bumps=g ** d, rng=rng(3))
    int_eta, int_sq, int_abs = f.cell_integrals(bins)
    assert int_eta.shape == (bins ** d,)
    assert int_abs.sum() == pytest.approx(f.integral_abs(), rel=1e-12)
    assert int_sq.sum() == pytest.approx(f.integral_sq(), rel=1e-12)
    e = np.arange(bins + 1) / bins
    cells = [0, bins ** d - 1, bins ** d // 2]
    for cell in cells:
        b = np.unravel_index(cell, (bins,) * d)
        if d == 1:
            ref, _ = integrate.quad(lambda x: f.value(np.array([[x]]))[0], e[b[0]], e[b[0] + 1],
                                    points=np.arange(1, 4 * g) / (4 * g), **QUAD)
        else:
            quarter = np.arange(4 * g + 1) / (4 * g)  # cube edges, centres and plateau edges
            centres = (np.arange(g) + 0.5) / g
            ey = (e[b[1]], e[b[1] + 1])
            xpts = list(quarter) + [c + s * abs(y - cy) for c in centres for cy in centres for y in ey for s in (-1, 1)]
            ref = quad2(lambda x, y: f.value(np.array([[x, y]]))[0], e[b[0]], e[b[0] + 1], *ey, xpts,
                        lambda x: list(quarter) + [cy + s * abs(x - c) for c in centres for cy in centres for s in (-1, 1)])
        assert int_eta[cell] == pytest.approx(ref, abs=1e-10)


def test_bump_field_invalid():
    with pytest.raises(ValueError, match="signs"):
        BumpField(d=1, g=3, beta=0.5, signs=np.array([1, 0]))
    with pytest.raises(ValueError, match="signs"):
        BumpField(d=1, g=2, beta=0.5, signs=np.array([2, 0]))
    with pytest.raises(ValueError, match="beta"):
        BumpField(d=1, g=2, beta=1.5, signs=np.array([1, 0]))
    with pytest.raises(ValueError, match="amplitude"):
        BumpField(d=1, g=1, beta=0.5, signs=np.array([1]), amplitude=2.0)  # L h^β > 1
    with pytest.raises(ValueError, match="num_bumps"):
        BumpField.random(d=1, g=2, beta=0.5, num_bumps=3, rng=rng(0))
    with pytest.raises(ValueError, match="X"):
        BumpField.random(d=2, g=2, beta=0.5, num_bumps=1, rng=rng(0)).value(np.full((2, 2), 1.5))


@pytest.mark.parametrize("d,beta,gamma,h", [(1, 1.0, 1.0, 0.05), (2, 0.5, 1.0, 0.1), (2, 1.0, 1.0, 0.07), (2, 1.0, 0.5, 0.2)])
def test_lower_bound_classification_eq37(d, beta, gamma, h):
    law = BumpClassification.lower_bound(d=d, h=h, beta=beta, gamma=gamma, rng=rng(4), C_M=1.0)
    g = math.ceil(1 / h - 1e-9)
    hh = 1 / g
    assert law.field.g == g
    assert law.field.num_bumps == min(g ** d, max(1, math.floor(hh ** (gamma * beta - d))))  # eq. (37)
    # Assumption 1(b) with C_T = C_M max(1, d/2) (amplitude 1, ρ = 0): P(0 < margin < t) <= C_T t^γ
    t = np.logspace(-6, 0, 61)
    assert np.all(law.margin_probability(t) <= max(1.0, d / 2) * t ** gamma + 1e-15)


def test_margin_probability_vs_monte_carlo():
    law = BumpClassification.lower_bound(d=2, h=0.1, beta=1.0, gamma=1.0, rng=rng(5), num_classes=3, rho=0.2)
    X = rng(6).random((200_000, 2))
    eta = np.sort(law.eta(X), axis=1)
    margin = eta[:, -1] - eta[:, -2]
    for t in (0.01, 0.05, 0.08, 0.2):
        p = law.margin_probability(t)
        emp = np.mean((margin > 0) & (margin < t))
        assert abs(emp - p) <= Z * math.sqrt(p * (1 - p) / X.shape[0]) + 1e-12


@pytest.mark.parametrize("beta", [0.3, 0.5, 1.0])
def test_bump_holder_condition(beta):
    law = BumpClassification.lower_bound(d=2, h=0.125, beta=beta, gamma=1.0, rng=rng(7), C_M=20.0)
    r = rng(8)
    X = r.random((20_000, 2))
    Xp = np.clip(X + r.normal(scale=r.choice([1e-3, 1e-2, 0.1]), size=X.shape), 0, 1)
    diff = np.abs(law.eta(X)[:, 1] - law.eta(Xp)[:, 1])
    dist = np.linalg.norm(X - Xp, axis=1)
    assert np.all(diff <= law.holder_constant * dist ** beta + 1e-14)


# --------------------------------------------------------------------------- three-point law (156)

def test_three_point_T_eq159_by_hand():
    assert three_point_T(M_p=2.0, p=3.0, h=1 / 16, beta=0.5) == pytest.approx(2.0, rel=1e-15)  # (½·2·4)^{1/2}
    assert three_point_T(M_p=1.0, p=2.0, h=0.25, beta=1.0) == pytest.approx(2.0, rel=1e-15)


@pytest.mark.parametrize("p,M_p,h,beta", [(2.0, 1.0, 0.1, 0.5), (4.0, 3.0, 0.05, 1.0), (3.0, 1.0, 0.2, 0.7)])
def test_three_point_moments_eq157_158(p, M_p, h, beta):
    law = ThreePointRegression.lower_bound(d=1, h=h, beta=beta, p=p, M_p=M_p, rng=rng(9))
    X = rng(10).random((500, 1))
    eta = law.eta(X)
    plus, zero, minus = law.probabilities(eta)
    assert np.all(plus >= 0) and np.all(minus >= 0) and np.all(zero >= 0)
    np.testing.assert_allclose(plus + zero + minus, 1.0, atol=1e-15)
    np.testing.assert_allclose(law.T * plus - law.T * minus, eta, atol=1e-13)  # eq. (158)
    np.testing.assert_allclose(law.T ** p * (plus + minus), M_p, rtol=1e-13)  # eq. (157)
    Y = law.sample_labels(eta, rng(11))
    assert set(np.unique(Y)) <= {-law.T, 0.0, law.T}


def test_three_point_invalid():
    f = BumpField.random(d=1, g=10, beta=1.0, num_bumps=10, rng=rng(0))
    with pytest.raises(ValueError, match="M_p <= T"):
        ThreePointRegression(field=f, p=2.0, M_p=5.0, T=2.0)
    with pytest.raises(ValueError, match="T\\*\\*\\(p-1\\)"):
        ThreePointRegression(field=f, p=2.0, M_p=1.0, T=20.0)


# ------------------------------------------------------------------------------- benchmark laws

def test_boundary_classification_margin_and_holder_by_hand():
    law = BoundaryClassification(d=2, kappa=1.0, width=0.25, theta=0.5)
    # |s| < t  <=>  |x_1 − 1/2| < t/4 for t <= 1: probability t/2
    assert law.margin_probability(0.5) == pytest.approx(0.25)
    assert (law.beta, law.gamma) == (1.0, 1.0)
    law2 = BoundaryClassification(d=1, kappa=0.5, width=0.25)
    assert law2.gamma == 2.0
    t = np.logspace(-5, -0.01, 30)
    # Assumption 1(b) with γ = 1/κ and C_T = 2w
    assert np.all(law2.margin_probability(t) <= 2 * 0.25 * t ** 2 + 1e-15)
    r = rng(12)
    X = r.random((20_000, 1))
    Xp = np.clip(X + r.normal(scale=0.01, size=X.shape), 0, 1)
    diff = np.abs(law2.eta(X)[:, 0] - law2.eta(Xp)[:, 0])
    assert np.all(diff <= law2.holder_constant * np.abs(X - Xp)[:, 0] ** 0.5 + 1e-14)


@pytest.mark.parametrize("d,K,rho,bins", [(1, 2, 0.0, 7), (2, 4, 0.3, 5)])
def test_boundary_classification_cells_vs_quadrature(d, K, rho, bins):
    law = BoundaryClassification(d=d, kappa=0.6, num_classes=K, rho=rho)
    mass = law.cell_class_mass(bins)
    bayes = law.cell_bayes_mass(bins)
    other = bins ** -(d - 1)
    e = np.arange(bins + 1) / bins
    for cell in range(0, bins ** d, max(1, bins ** d // 6)):
        b0 = np.unravel_index(cell, (bins,) * d)[0]
        for j in range(K):
            ref, _ = integrate.quad(lambda x: law.eta(np.array([[x] + [0.5] * (d - 1)]))[0, j], e[b0], e[b0 + 1],
                                    points=[law.theta], **QUAD)
            assert mass[cell, j] == pytest.approx(ref * other, abs=1e-10)
        ref, _ = integrate.quad(lambda x: law.eta(np.array([[x] + [0.5] * (d - 1)]))[0].max(), e[b0], e[b0 + 1],
                                points=[law.theta], **QUAD)
        assert bayes[cell] == pytest.approx(ref * other, abs=1e-10)
    assert mass.sum() == pytest.approx(1.0, abs=1e-12)
    assert law.bayes_risk() == pytest.approx(1 - bayes.sum(), abs=1e-12)


@pytest.mark.parametrize("profile,beta", [("weierstrass", 0.5), ("weierstrass", 1.0), ("kink", 0.4)])
def test_additive_regression_cells_vs_quadrature(profile, beta):
    law = AdditiveRegression(d=1, beta=beta, profile=profile, terms=8, noise=UniformNoise(0.3))
    bins = 6
    mean, var = law.cell_moments(bins)
    e = np.arange(bins + 1) / bins
    pts = np.arange(1, 2 ** 9) / 2 ** 9
    for b in range(bins):
        pb = [x for x in np.append(pts, law.theta) if e[b] < x < e[b + 1]]
        m1, _ = integrate.quad(lambda x: law.g(x), e[b], e[b + 1], points=pb, **QUAD)
        m2, _ = integrate.quad(lambda x: law.g(x) ** 2, e[b], e[b + 1], points=pb, **QUAD)
        assert mean[b] == pytest.approx(m1 * bins, abs=1e-9)
        assert var[b] == pytest.approx(m2 * bins - (m1 * bins) ** 2, abs=1e-9)


def test_additive_regression_2d_combines_axes():
    law = AdditiveRegression(d=2, beta=0.5, terms=6, noise=UniformNoise(0.3))
    mean, var = law.cell_moments(3)
    m1, v1 = AdditiveRegression(d=1, beta=0.5, terms=6, noise=UniformNoise(0.3)).cell_moments(3)
    # cell (i, j) in C order: independent coordinates add means and variances
    np.testing.assert_allclose(mean.reshape(3, 3), m1[:, None] + m1[None, :], atol=1e-14)
    np.testing.assert_allclose(var.reshape(3, 3), v1[:, None] + v1[None, :], atol=1e-14)


def test_noise_clipped_means_vs_quadrature():
    lom = LomaxNoise(shape=2.5, scale=1.5)
    for c, T in ((0.3, 2.0), (-1.0, 0.5), (2.5, 1.0)):
        shift = c - lom.mean_raw
        dens = lambda x: lom.shape / lom.scale * (1 + x / lom.scale) ** (-lom.shape - 1)
        ref, _ = integrate.quad(lambda x: np.clip(shift + x, -T, T) * dens(x), 0, np.inf, **QUAD)
        assert lom.clipped_mean(c, T) == pytest.approx(ref, abs=1e-8)
    uni = UniformNoise(1.0)
    for c, T in ((0.5, 1.0), (-0.2, 0.5), (0.0, 3.0)):
        ref, _ = integrate.quad(lambda x: np.clip(c + x, -T, T) / 2, -1, 1, points=[-T - c, T - c], **QUAD)
        assert uni.clipped_mean(c, T) == pytest.approx(ref, abs=1e-10)
    assert lom.mean_raw == pytest.approx(1.0)  # scale/(shape − 1)
    lom5 = LomaxNoise(shape=5.0, scale=2.0)
    # Var of Lomax(α, λ): λ² α / ((α − 1)² (α − 2)) = 4·5/(16·3)
    assert lom5.abs_moment(2.0) == pytest.approx(20 / 48, rel=1e-9)
    assert lom5.variance == pytest.approx(20 / 48, rel=1e-14)
    lom8 = LomaxNoise(shape=8.0)  # E|ξ|^6 < ∞, so the CLT standard error of |ξ|^3 is meaningful
    xi = lom8.sample(400_000, rng(30))
    m3 = np.abs(xi) ** 3
    assert abs(m3.mean() - lom8.abs_moment(3.0)) <= Z * m3.std() / math.sqrt(xi.size)
    assert LomaxNoise.for_moment(4.0).shape == 4.25


def test_benchmark_invalid():
    with pytest.raises(ValueError, match="kappa"):
        BoundaryClassification(d=1, kappa=1.5)
    with pytest.raises(ValueError, match="rho"):
        BoundaryClassification(d=1, kappa=1.0, rho=1.0)
    with pytest.raises(ValueError, match="profile"):
        AdditiveRegression(d=1, beta=0.5, profile="sine", noise=UniformNoise(1.0))
    with pytest.raises(ValueError, match="noise"):
        AdditiveRegression(d=1, beta=0.5, noise=1.0)
    with pytest.raises(ValueError, match="shape"):
        LomaxNoise(shape=2.0)
    with pytest.raises(ValueError, match="labels"):
        BoundaryClassification(d=1, kappa=1.0).excess_risk_partition(np.array([0, 2]), 2)
    with pytest.raises(ValueError, match="values"):
        AdditiveRegression(d=1, beta=0.5, noise=UniformNoise(1.0)).excess_risk_partition(np.zeros(3), 2)


# ------------------------------------------------------- exact risks vs brute-force Monte Carlo

def _classification_laws():
    return [
        BoundaryClassification(d=1, kappa=1.0),
        BoundaryClassification(d=2, kappa=0.5, num_classes=4, rho=0.4),
        BumpClassification.lower_bound(d=2, h=0.25, beta=1.0, gamma=1.0, rng=rng(13), C_M=4.0),
        BumpClassification.lower_bound(d=1, h=0.1, beta=0.5, gamma=1.0, rng=rng(14), num_classes=3, rho=0.1),
    ]


@pytest.mark.parametrize("law", _classification_laws(), ids=lambda l: type(l).__name__ + str(l.d))
def test_classification_excess_risk_exact_vs_monte_carlo(law):
    bins, n = 3, 400_000
    G = bins ** law.d
    labels = rng(15).integers(0, law.num_classes, G)
    exact = law.excess_risk_partition(labels, bins)
    X, Y = law.sample(n, rng(16))
    pred = labels[bin_index(X, bins)]
    best = np.argmax(law.eta(X), axis=1)
    D = (pred != Y).astype(float) - (best != Y)
    assert abs(D.mean() - exact) <= Z * D.std() / math.sqrt(n)
    eta = law.eta(X)
    pointwise = eta.max(axis=1) - eta[np.arange(n), pred]
    assert law.excess_risk_points(pred, X) == pytest.approx(pointwise.mean(), rel=1e-12)
    assert abs(pointwise.mean() - exact) <= Z * pointwise.std() / math.sqrt(n)
    bayes = (best != Y).astype(float)
    assert abs(bayes.mean() - law.bayes_risk()) <= Z * bayes.std() / math.sqrt(n)
    # the best partition classifier has the smallest exact risk, zero only if η* is cell-constant
    assert law.excess_risk_partition(law.bayes_classifier_partition(bins), bins) <= exact + 1e-15


def _regression_laws():
    return [
        AdditiveRegression(d=1, beta=0.5, noise=UniformNoise(0.5), terms=10),
        AdditiveRegression(d=2, beta=0.7, profile="kink", noise=LomaxNoise(shape=6.0)),
        BumpRegression.lower_bound(d=2, h=0.2, beta=1.0, rng=rng(17)),
        ThreePointRegression.lower_bound(d=1, h=0.1, beta=0.5, p=4.0, M_p=1.0, rng=rng(18)),
    ]


@pytest.mark.parametrize("law", _regression_laws(), ids=lambda l: type(l).__name__ + str(l.d))
def test_regression_excess_risk_exact_vs_monte_carlo(law):
    bins, n = 4, 400_000
    values = rng(19).normal(scale=0.3, size=bins ** law.d)
    exact = law.excess_risk_partition(values, bins)
    X, Y = law.sample(n, rng(20))
    eta = law.eta(X)
    D = (values[bin_index(X, bins)] - Y) ** 2 - (eta - Y) ** 2
    assert abs(D.mean() - exact) <= Z * D.std() / math.sqrt(n)
    R = (eta - Y) ** 2
    assert abs(R.mean() - law.bayes_risk()) <= Z * R.std() / math.sqrt(n)
    # evaluation at uniform points (no labels) is an unbiased estimate of the same excess risk
    pointwise = (values[bin_index(X, bins)] - eta) ** 2
    assert law.excess_risk_points(values[bin_index(X, bins)], X) == pytest.approx(pointwise.mean(), rel=1e-12)
    assert abs(pointwise.mean() - exact) <= Z * pointwise.std() / math.sqrt(n)


def test_grid_convention_matches_kernels():
    for d, bins in ((1, 5), (2, 3), (3, 2)):
        np.testing.assert_array_equal(bin_index(midpoint_grid(bins, d), bins), np.arange(bins ** d))


def test_sampling_label_frequencies():
    law = BoundaryClassification(d=1, kappa=1.0, num_classes=3, rho=0.3)
    n = 200_000
    _, Y = law.sample(n, rng(21))
    p = law.cell_class_mass(1)[0]
    freq = np.bincount(Y, minlength=3) / n
    assert np.all(np.abs(freq - p) <= Z * np.sqrt(p * (1 - p) / n))
