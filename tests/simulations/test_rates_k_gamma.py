"""The K-class construction with margin exponent γ and the ``rates_k_gamma`` experiment (003 Theorems 2, 4
beyond K = 2, γ = 1; issue 23).

Expected values come from 003's equations written out here (eqs. (34)/(36), (84), (119)), from exact
arithmetic (sympy inequalities, integer counts of midpoints) or from ``scipy.integrate.quad`` (compared
within 1e-9: its requested tolerance 1e-11 plus rounding). The one statistical check (sampled bumps are
an unbiased estimate) compares two means within Z = 4.5 standard errors of their difference (two-sided
normal tail 7e-6) at a fixed seed.
"""

from __future__ import annotations

import csv
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from scipy import integrate

import limits
from limits import symbols as S
from simulations.engine import run_trials
from simulations.estimators.count_level import fit_from_counts
from simulations.estimators.partition import ExponentialBinClassifier, VectorBinClassifier
from simulations.experiments.rates import k_gamma as kg
from simulations.laws import BumpClassification, BumpField
from simulations.laws.multiclass import (MulticlassBumps, bump_count, edge_bump, edge_bump_l1, edge_holder_constant,
                                         margin_by_bisection)

QUAD = dict(epsabs=1e-11, epsrel=1e-11, limit=200)
Z = 4.5


def law(*, d=1, g=8, beta=0.5, gamma=1.0, K=3, A=1.0, seed=0, C_M=2.0):
    return MulticlassBumps.construction(d=d, g=g, beta=beta, gamma=gamma, num_classes=K, C_M=C_M, amplitude=A,
                                        rng=np.random.default_rng(seed))


# ------------------------------------------------------------------------------------ the construction
@pytest.mark.parametrize("d, gamma, K, A", [(1, 0.5, 2, 1.0), (1, 2.0, 5, 1.5), (2, 1.0, 4, 1.0), (2, 2.0, 3, 2.0)])
def test_eta_is_a_probability_vector_with_the_raised_class_on_top(d, gamma, K, A):
    lw = law(d=d, g=6, gamma=gamma, K=K, A=A, seed=d)
    X = np.random.default_rng(1).random((4000, d))
    eta = lw.eta(X)
    np.testing.assert_allclose(eta.sum(axis=1), 1.0, atol=1e-14)
    assert eta.min() >= 0.0 and eta.max() <= 1.0
    b, cls_ = lw.bump_value(X)
    on = (cls_ >= 0) & (b > 0)
    assert np.array_equal(eta[on].argmax(axis=1), cls_[on])
    top2 = np.sort(eta, axis=1)[:, -2:]
    np.testing.assert_allclose(top2[:, 1] - top2[:, 0], b, atol=1e-15)  # margin η* − η_s = b(x)
    off = ~on
    np.testing.assert_allclose(eta[off], 1.0 / K, atol=1e-15)  # every class ties off the bumps


def test_k2_unit_amplitude_gamma1_is_003_eq_34_36():
    """K = 2, A = 1, γ = 1 (linear edge): ``η_2 = (1 + η_v)/2`` with the bumps of 003 eq. (36), i.e. the suite's
    :class:`BumpClassification` with signs v = +1 where class 1 is raised, −1 where class 0 is."""
    lw = law(g=16, gamma=1.0, K=2, seed=3)
    signs = np.where(lw.classes < 0, 0, 2 * lw.classes - 1)
    ref = BumpClassification(field=BumpField(d=1, g=16, beta=0.5, signs=signs))
    X = np.random.default_rng(2).random((3000, 1))
    np.testing.assert_allclose(lw.eta(X), ref.eta(X), atol=1e-15)
    np.testing.assert_allclose(lw.cell_class_mass(16), ref.cell_class_mass(16), atol=1e-15)


@pytest.mark.parametrize("gamma", [0.5, 1.0, 2.0])
def test_each_eta_is_beta_holder_with_the_stated_constant(gamma):
    """Assumption 1(a): random pairs, pairs across cube edges and pairs at the bump's steep edge (α = 1/γ < 1)."""
    beta = 0.5
    lw = law(g=10, beta=beta, gamma=gamma, K=4, A=1.5, seed=4, C_M=8.0)
    r = np.random.default_rng(5)
    x = r.random(20000)
    dx = np.concatenate([r.random(10000) * 0.3, 10.0 ** r.uniform(-9, -2, 10000)]) * r.choice([-1, 1], 20000)
    x2 = np.clip(x + dx, 0, 1)
    edge = (np.arange(10) / 10)[:, None] + np.array([[1e-12, 1e-9, 1e-6]])  # at the start of each support
    x = np.concatenate([x, edge.ravel()])
    x2 = np.concatenate([x2, np.repeat(np.arange(10) / 10, 3)])
    diff = np.abs(lw.eta(x[:, None]) - lw.eta(x2[:, None])).max(axis=1)
    dist = np.abs(x - x2)
    ok = dist > 0
    assert np.all(diff[ok] <= lw.holder_constant * dist[ok] ** beta * (1 + 1e-12))
    assert lw.holder_constant == pytest.approx(2 * 1.5 * edge_holder_constant(1 / gamma) * 3 / 4)


def test_gamma_beta_above_one_and_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="gamma \\* beta"):
        MulticlassBumps(d=1, g=4, beta=1.0, gamma=2.0, num_classes=2, classes=np.array([0, -1, -1, 1]))
    with pytest.raises(ValueError, match="amplitude"):
        MulticlassBumps(d=1, g=4, beta=0.5, gamma=1.0, num_classes=2, classes=np.array([0, -1, -1, 1]), amplitude=3.0)
    with pytest.raises(ValueError, match="classes"):
        MulticlassBumps(d=1, g=4, beta=0.5, gamma=1.0, num_classes=2, classes=np.array([0, -1, 2, 1]))
    with pytest.raises(ValueError, match="bins must equal g"):
        law(g=8).cell_class_mass(16)
    with pytest.raises(ValueError, match="d = 1"):
        margin_by_bisection(law(d=2, g=4), [0.1])


# ------------------------------------------------------------------------------------------ integrals
@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0])
def test_bump_l1_against_quadrature(alpha):
    """``‖φ‖_1 = ∫_0^{1/2} ψ(r) d(2r)^d``: radial quadrature (the edge point 1/4 as a break point) against the
    binomial closed form, d = 1, 2, 3."""
    for d in (1, 2, 3):
        psi = lambda r: float(edge_bump(np.array([[r]]), alpha)[0])  # noqa: E731  (φ on the axis = ψ(|u|))
        val = integrate.quad(lambda r: psi(r) * d * 2.0 ** d * r ** (d - 1), 0.0, 0.5, points=[0.25], **QUAD)[0]
        assert edge_bump_l1(d, alpha) == pytest.approx(val, abs=1e-9)


def test_cell_masses_against_quadrature_and_sum_to_one():
    lw = law(g=6, gamma=2.0, K=3, A=1.0, seed=7, C_M=4.0)
    M = lw.cell_class_mass(6)
    assert M.sum() == pytest.approx(1.0, abs=1e-14)
    cells, _ = lw.active_cells()
    for c in (int(cells[0]), int(cells[-1]), int(np.flatnonzero(lw.classes < 0)[0])):  # two active cubes, an inactive
        for j in range(3):
            val = integrate.quad(lambda x: float(lw.eta(np.array([[x]]))[0, j]), c / 6, (c + 1) / 6,
                                 points=[(c + 0.25) / 6, (c + 0.75) / 6], **QUAD)[0]
            assert M[c, j] == pytest.approx(val, abs=1e-9)
    cells, masses, gaps = lw.bump_cell_masses()
    np.testing.assert_allclose(masses[:-1], M[cells], atol=1e-15)
    assert masses.sum() == pytest.approx(1.0, abs=1e-14)
    np.testing.assert_allclose(gaps, (lw.cell_bayes_mass(6)[:, None] - M)[cells], atol=1e-15)


# ---------------------------------------------------------------------------------- Assumption 1(b)
def test_margin_probability_against_an_exact_computation_d1():
    """P(0 < η* − η_s < t) exactly (sympy): the margin ``A h^β (4(1/2 − r))^α`` falls from the plateau value to 0
    as the distance r to a cube's centre goes from 1/4 to 1/2, so {margin < t} is ``r ∈ (r*, 1/2)`` with r* the
    root of margin = t."""
    for gamma, t in ((2, sp.Rational(1, 10)), (sp.Rational(1, 2), sp.Rational(1, 7))):
        lw = MulticlassBumps(d=1, g=4, beta=0.5, gamma=float(gamma), num_classes=3, classes=np.array([2, -1, 0, 1]))
        r = sp.Symbol("r", positive=True)
        height = sp.Rational(1, 2)  # A h^β = 1 * (1/4)^(1/2)
        (root,) = [x for x in sp.solve(sp.Eq(height * (4 * (sp.Rational(1, 2) - r)) ** (1 / sp.S(gamma)), t), r)
                   if sp.Rational(1, 4) < x < sp.Rational(1, 2)]
        exact = 3 * 2 * (sp.Rational(1, 2) - root) * sp.Rational(1, 4)  # 3 bumps, two edges each, dx = h du
        assert float(lw.margin_probability(float(t))) == pytest.approx(float(exact), rel=1e-12)
        assert float(margin_by_bisection(lw, [float(t)])[0]) == pytest.approx(float(exact), rel=1e-9)


def test_margin_probability_against_exact_midpoint_count_d2():
    """d = 2: ``{0 < ψ(‖u‖_∞) < s}`` is the square annulus ``‖u‖_∞ > 1/2 − s^γ/4``; with ``s^γ = 1/5`` its inner
    edge 9/20 lies between the points of a 40-per-cube midpoint grid, so counting midpoints is exact."""
    for gamma in (0.5, 1.0, 2.0):
        lw = MulticlassBumps(d=2, g=2, beta=0.5, gamma=gamma, num_classes=4, classes=np.array([1, -1, 3, 0]))
        w = Fraction(1, 5)  # s^γ, so the inner half-width is 1/2 − w/4 = 9/20
        t = float(w) ** (1 / gamma) * lw.scale
        M = 40
        mid = (np.arange(M) + 0.5) / M - 0.5  # midpoints of one cube, in units of its side
        uu = np.maximum(np.abs(mid)[:, None], np.abs(mid)[None, :])
        inside = int(np.count_nonzero(uu > 9 / 20))  # no midpoint lies on the edge 9/20 = 18/40
        exact = Fraction(3 * inside, 4 * M * M)  # 3 of the 4 cubes are active
        assert float(lw.margin_probability(t)) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("gamma", [0.5, 1.0, 2.0])
def test_margin_condition_holds_with_C_M_and_is_sharp(gamma):
    lw = law(g=200, gamma=gamma, K=5, A=2.0, seed=9)
    t = lw.scale * np.geomspace(1e-4, 20, 200)
    t = t[np.abs(t / lw.scale - 1) > 1e-9]
    p = lw.margin_probability(t)
    x = bump_count(d=1, g=200, beta=0.5, gamma=gamma, C_M=2.0, amplitude=2.0)
    assert np.all(p <= 2.0 * lw.num_bumps / x * t ** gamma * (1 + 1e-12))
    assert lw.margin_constant == pytest.approx(2.0 * lw.num_bumps / x)
    low = t < lw.scale
    slope = np.polyfit(np.log(t[low]), np.log(p[low]), 1)[0]
    assert slope == pytest.approx(gamma, abs=1e-9)  # d = 1: exactly ∝ t^γ below the plateau


# --------------------------------------------------------------------------------------- the tuning
@pytest.mark.parametrize("K", [2, 4, 16, 64, 1000])
def test_tuned_width_carries_ln_K_as_003_states(K):
    """003 eq. (84): h = (N(ε²∧1)/ln K)^{−1/(2β+d)}; eq. (119), privacy branch: (ln K/(εN))^{1/(β+d)};
    both as :mod:`limits`' symbolic rules evaluated with sympy."""
    N, beta, d = 1e6, 0.5, 1
    assert kg.tuned_width(kg.LOCAL, N=N, K=K, eps=0.5, beta=beta, d=d) == pytest.approx(
        (N * 0.25 / math.log(K)) ** (-1 / (2 * beta + d)), rel=1e-12)
    assert kg.tuned_width(kg.CENTRAL, N=N, K=K, eps=1e-3, beta=beta, d=d) == pytest.approx(
        (math.log(K) / (1e-3 * N)) ** (1 / (beta + d)), rel=1e-12)
    subs = {S.N: N, S.epsilon: sp.Float(0.5), S.beta: sp.Rational(1, 2), S.d: 1, S.K: K}
    local = limits.symbolic_tuning("local_classification")["h"].expr.subs(subs)
    assert kg.tuned_width(kg.LOCAL, N=N, K=K, eps=0.5) == pytest.approx(float(local), rel=1e-12)
    central = limits.symbolic_tuning("central_classification")["h"].branches["privacy"].subs({**subs, S.epsilon: 1e-3})
    assert kg.tuned_width(kg.CENTRAL, N=N, K=K, eps=1e-3) == pytest.approx(float(central), rel=1e-12)


@pytest.mark.parametrize("beta, d, gamma", [(0.5, 1, 0.5), (0.5, 1, 2.0), (1.0, 3, 1.0), (0.25, 2, 4.0)])
def test_bound_power_of_ln_K(beta, d, gamma):
    """Module docstring: at the tuned h the bound grows like (ln K)^{β(γ+1)/(2β+d)} (local, eq. (14)) and the
    privacy term like (ln K)^{β(γ+1)/(β+d)} (central, eq. (18))."""
    b, g = Fraction(beta), Fraction(gamma)
    assert kg.bound_power(kg.LOCAL, gamma, beta=beta, d=d) == pytest.approx(float(b * (g + 1) / (2 * b + d)), rel=1e-14)
    assert kg.bound_power(kg.CENTRAL, gamma, beta=beta, d=d) == pytest.approx(float(b * (g + 1) / (b + d)), rel=1e-14)


def test_grid_points_have_the_tuned_width():
    prof = kg.PROFILES["smoke"]
    for alg in kg.ALGORITHMS:
        for p in kg.slope_points(alg, 1.0, prof):
            assert 1.0 / kg.tuned_width(alg, N=p.N, K=p.K, eps=p.eps) == pytest.approx(p.g, rel=1e-3)
        for row in kg.growth_points(alg, 2.0, prof):
            assert abs(1.0 / kg.tuned_width(alg, N=row[0].N, K=row[0].K, eps=row[0].eps) - row[0].g) <= 0.5
            assert max(p.amplitude for p in row) * row[0].g ** -0.5 <= 1.0  # every law valid


# ---------------------------------------------------------------------------------- the mechanisms, K > 2
@pytest.mark.parametrize("alg, cls", [(kg.LOCAL, VectorBinClassifier), (kg.CENTRAL, ExponentialBinClassifier)])
def test_fit_cells_is_fit_from_counts_for_K_above_2(alg, cls):
    K, g = 5, 12
    counts = np.random.default_rng(11).integers(0, 40, size=(g, K))
    ours = kg.fit_cells(alg, counts, K, 0.7, np.random.default_rng(3))
    est = fit_from_counts(cls(num_classes=K, epsilon=0.7, h=1 / g), counts, np.random.default_rng(3), d=1)
    assert np.array_equal(ours, est.cell_values_)
    assert ours.max() < K and len(set(ours.tolist())) > 2  # K > 2 classes are predicted


def test_sampled_bumps_are_an_unbiased_estimate_of_the_full_law_risk():
    base = dict(algorithm=kg.LOCAL, d=1, beta=0.5, gamma=0.5, K=3, eps=1.0, N=3000, g=30, C_M=2.0, amplitude=2.0)
    full = run_trials(kg.k_gamma_trial, [kg.KGammaPoint(**base)], 160, root_seed=5, progress=False)["excess"][0]
    samp = run_trials(kg.k_gamma_trial, [kg.KGammaPoint(**base, sampled_bumps=8)], 160, root_seed=6,
                      progress=False)["excess"][0]
    se = math.sqrt(full.var(ddof=1) / full.size + samp.var(ddof=1) / samp.size)
    assert abs(full.mean() - samp.mean()) <= Z * se


# ------------------------------------------------------------------------------------------ smoke run
def test_smoke_run_claims_are_well_formed(smoke_run):
    run = smoke_run("rates_k_gamma")
    rec = run.record
    claims = rec["claims"]
    assert len(claims) == 2 * 3 + 2 * 3 + 2 * 3  # N-slopes, K-growth, Assumption 1(b) (two per γ)
    for c in claims:
        assert c["verdict"] in ("holds", "fails", "inconclusive")
        assert c["holds"] is (None if c["verdict"] == "inconclusive" else c["verdict"] == "holds")
        assert isinstance(c["expected"], float) and c["detail"]
    margin = [c for c in claims if "Assumption 1(b)" in c["claim"] or "margin exponent" in c["claim"]]
    assert len(margin) == 6 and all(c["verdict"] == "holds" for c in margin)  # exact checks: any seed
    for name in ("excess_vs_N", "excess_vs_K", "growth_in_K", "margin_check"):
        assert (run.folder / f"{name}.csv").exists()
    with open(run.folder / "growth_in_K.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            b, g = Fraction(1, 2), Fraction(row["gamma"])
            expected = b * (g + 1) / ((2 * b + 1) if row["algorithm"] == kg.LOCAL else (b + 1))
            assert float(row["bound_power"]) == pytest.approx(float(expected), rel=1e-12)
