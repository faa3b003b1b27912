"""The explicit lower bounds of 003 Theorems 1, 3, 5, 7, 9, 11 (``limits.lower_bounds``).

Expected values are recomputed here from the proofs' formulas with mpmath / fractions (eqs. (36)-(51),
(86)-(101), (121)-(130), (143), (156)-(163), Lemma 1 and 3, (186)-(188)), not read from the module; the
exponents come from ``limits.rate_exponent`` (003 Table 1 / the theorems).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

import limits
from limits import lower_bounds as LB

mp.mp.dps = 30

# (function, task, privacy, parameters, ε, Table 1 term)
CASES = [
    (LB.theorem1_bound, "classification", "local", dict(d=1, beta=1.0, gamma=1.0), 0.5, None),
    (LB.theorem1_bound, "classification", "local", dict(d=2, beta=0.5, gamma=0.5, C_M=2.0), 1.0, None),
    (LB.theorem3_bound, "classification", "central", dict(d=2, beta=1.0, gamma=1.0), 1e-3, "privacy"),
    (LB.theorem5_bound, "regression", "local", dict(d=1, beta=1.0), 0.3, None),
    (LB.theorem5_bound, "regression", "local", dict(d=3, beta=0.5), 2.0, None),
    (LB.theorem7_bound, "regression", "central", dict(d=1, beta=0.5), 1e-2, "privacy"),
    (LB.theorem9_bound, "regression_heavy_tailed", "local", dict(d=1, beta=1.0, p=2.0, M_p=4.0), 0.5, "privacy"),
    (LB.theorem9_bound, "regression_heavy_tailed", "local", dict(d=2, beta=0.5, p=4.0, M_p=1.0), 0.2, "privacy"),
    (LB.theorem11_bound, "regression_heavy_tailed", "central", dict(d=1, beta=1.0, p=3.0, M_p=2.0), 1e-3, "privacy"),
]
IDS = [f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)]


def _rules(privacy):
    return ("proof", "optimal") if privacy == "local" else ("proof",)


@pytest.mark.parametrize("fn, task, privacy, kw, eps, term", CASES, ids=IDS)
def test_bound_decays_at_the_table1_exponent(fn, task, privacy, kw, eps, term):
    """Log-log slope over 12 decades of N (10^12..10^24) = −(Table 1 exponent) to 1e-3, for each h rule."""
    a = limits.rate_exponent(task, privacy, beta=kw["beta"], d=kw["d"], gamma=kw.get("gamma"), p=kw.get("p"),
                             term=term)
    N = np.logspace(12, 24, 7)
    for rule in _rules(privacy):
        b = np.array([fn(n, eps, h=rule, **kw).bound for n in N])
        slope = np.polyfit(np.log(N), np.log(b), 1)[0]
        assert slope == pytest.approx(-a, abs=1e-3), (rule, slope, -a)


@pytest.mark.parametrize("fn, task, privacy, kw, eps, term", CASES, ids=IDS)
def test_positive_and_ingredients_consistent(fn, task, privacy, kw, eps, term):
    for n in (1e4, 1e7, 1e10, 1e15):
        lb = fn(n, eps, **kw)
        assert lb.bound > 0 and lb.minimax >= lb.bound and lb.nonprivate >= 0
        assert 0 < lb.per_cube_error <= 0.5 and lb.cubes >= 1 and 0 < lb.h <= 1
        assert lb.bound == pytest.approx(lb.cubes * lb.loss_per_cube * lb.per_cube_error, rel=1e-12)
        assert lb.h ** kw["beta"] <= 0.5 + 1e-12  # |eta_v| <= 1/2 (eq. (47)(b))
        if privacy == "central":
            assert lb.divergence == pytest.approx(math.log(2))  # group privacy: l eps <= ln 2 (Lemma 1/3)
            assert lb.per_cube_error == pytest.approx(lb.count_probability / 12)
        assert (lb.T is not None) == (task == "regression_heavy_tailed")


@pytest.mark.parametrize("fn, task, privacy, kw, eps, term", CASES, ids=IDS)
def test_bound_non_increasing_in_epsilon(fn, task, privacy, kw, eps, term):
    """More privacy budget never raises the bound: at a fixed family (h fixed) and with each h rule."""
    epsilons = np.geomspace(eps / 30, eps * 30, 13) if privacy == "central" else np.geomspace(0.01, 5.0, 13)
    N = 1e9
    h_fixed = fn(N, epsilons[-1], **kw).h  # valid for every ε (h^β <= 1/2)
    for h in (h_fixed, *_rules(privacy)):
        b = [fn(N, e, h=h, **kw).bound for e in epsilons]
        assert all(x >= y * (1 - 1e-12) for x, y in zip(b, b[1:])), (h, b)


def test_plateau_bump_norms_by_hand_and_against_the_simulated_bump():
    # d = 1: plateau 1/2 plus two triangles (1/8 each); squares: 1/2 + 2/24; d = 2: (2 - 1/4)/3 and 11/24 (by hand)
    assert LB.plateau_bump_norms(1) == (0.75, float(Fraction(2, 3)))
    assert LB.plateau_bump_norms(2) == pytest.approx((7 / 12, 11 / 24), rel=1e-15)
    from simulations.laws.holder_tsybakov import bump_l1, bump_l2sq  # the construction's own closed forms

    for d in range(1, 7):
        assert LB.plateau_bump_norms(d) == pytest.approx((bump_l1(d), bump_l2sq(d)), rel=1e-12)


@pytest.mark.parametrize("a", [0.2, 0.4, 0.5, 2 / 3, 0.9, 1.0, 3.0])
def test_assouad_optimum_maximizes_the_printed_function(a):
    s = np.geomspace(1e-4, 50, 200001)
    f = s ** a * np.maximum(np.exp(-s) / 2, 1 - np.sqrt(s / 2))
    s_star = LB.assouad_optimum(a)
    f_star = s_star ** a * max(math.exp(-s_star) / 2, 1 - math.sqrt(s_star / 2))
    assert f_star >= f.max() * (1 - 1e-9)


# ------------------------------------------------------------------ one hand value per theorem (mpmath)
def _assouad(delta):
    return mp.mpf(1) / 2 * max(mp.exp(-delta) / 2, 1 - mp.sqrt(delta / 2))


def _window(N, h, d, lo, hi):
    mu = N * h ** d
    low = mp.exp(-((mu - lo) ** 2) / (2 * mu)) if lo < mu else 1
    high = mp.exp(-((hi - mu) ** 2) / (hi + mu)) if hi > mu else 1
    return max(0, 1 - low - high)


def test_theorem1_hand_value():
    """N = 10^6, ε = 1, d = 1, β = γ = 1, h = 1/100: m = floor(h^0) = 1, δ = N (e−1)² h³ (2/3) (eq. (48)),
    bound = m · ½ h^{β+d} (3/4) · ½ max(e^{−δ}/2, 1 − √(δ/2)) (eqs. (42), (45))."""
    N, h = mp.mpf(10) ** 6, mp.mpf(1) / 100
    delta = N * (mp.e - 1) ** 2 * h ** 3 * mp.mpf(2) / 3
    want = 1 * h ** 2 * mp.mpf(3) / 8 * _assouad(delta)
    lb = LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, h=0.01)
    assert lb.cubes == 1 and lb.divergence == pytest.approx(float(delta), rel=1e-12)
    assert lb.bound == pytest.approx(float(want), rel=1e-12)


def test_theorem5_hand_value():
    """N = 10^5, ε = 1/2, d = 2, β = 1/2, h = 1/10: G = 100, ‖φ‖₂² = 11/24, δ = N (e^{1/2}−1)² h³ (11/24)."""
    N, h, l2 = mp.mpf(10) ** 5, mp.mpf(1) / 10, mp.mpf(11) / 24
    delta = N * (mp.exp(mp.mpf(1) / 2) - 1) ** 2 * h ** 3 * l2
    want = 100 * h ** 3 * l2 / 2 * _assouad(delta)
    lb = LB.theorem5_bound(1e5, 0.5, d=2, beta=0.5, h=0.1)
    assert lb.cubes == 100 and lb.bound == pytest.approx(float(want), rel=1e-12)


def test_theorem9_hand_value():
    """N = 10^4, ε = 1/2, d = 1, β = 1, p = 2, M_p = 4, h = 1/10: T = (4·10/2)^1 = 20 (eq. (159)),
    δ = N (e^{1/2}−1)² h³ (2/3) / T² (eq. (161); smaller than the non-private 3 T^0/M_p branch), G = 10."""
    N, h, T = mp.mpf(10) ** 4, mp.mpf(1) / 10, mp.mpf(20)
    delta = N * (mp.exp(mp.mpf(1) / 2) - 1) ** 2 * h ** 3 * mp.mpf(2) / 3 / T ** 2
    want = 10 * h ** 3 * mp.mpf(2) / 3 / 2 * _assouad(delta)
    lb = LB.theorem9_bound(1e4, 0.5, d=1, beta=1.0, p=2.0, M_p=4.0, h=0.1)
    assert lb.T == pytest.approx(20.0, rel=1e-14) and lb.divergence == pytest.approx(float(delta), rel=1e-12)
    assert lb.bound == pytest.approx(float(want), rel=1e-12)


def test_theorem3_hand_value():
    """N = 10^8, ε = 10^-3, d = 1, β = γ = 1, C_M = 1, proof's h: 2 N h = ln 2/(ε h) (eq. (100)); m = 1;
    C_E = 0.56 (1 − h²)^{-3/2}; bound = m · ½ h² (3/4) · (1/12) P(16 C_E² < n < ln 2/(ε h)) (eq. (99))."""
    N, eps = mp.mpf(10) ** 8, mp.mpf(10) ** -3
    h = mp.sqrt(mp.log(2) / (2 * eps * N))
    C_E = mp.mpf("0.56") / (1 - h ** 2) ** mp.mpf(1.5)
    P = _window(N, h, 1, 16 * C_E ** 2, mp.log(2) / (eps * h))
    want = h ** 2 * mp.mpf(3) / 8 * P / 12
    lb = LB.theorem3_bound(1e8, 1e-3, d=1, beta=1.0, gamma=1.0)
    assert lb.h == pytest.approx(float(h), rel=1e-12) and lb.cubes == 1
    assert lb.bound == pytest.approx(float(want), rel=1e-10)


def test_theorem7_hand_value():
    """N = 10^7, ε = 10^-2, d = 2, β = 1/2, proof's h: 2 N h² = ln 2/(ε h^{1/2}); G = floor(1/h)²;
    bound = G · ½ h³ (11/24) · (1/12) P(window) (eq. (143))."""
    N, eps = mp.mpf(10) ** 7, mp.mpf(10) ** -2
    h = (mp.log(2) / (2 * eps * N)) ** (1 / mp.mpf(2.5))
    C_E = mp.mpf("0.56") / (1 - h) ** mp.mpf(1.5)
    P = _window(N, h, 2, 16 * C_E ** 2, mp.log(2) / (eps * mp.sqrt(h)))
    G = mp.floor(1 / h) ** 2
    want = G * h ** 3 * mp.mpf(11) / 48 * P / 12
    lb = LB.theorem7_bound(1e7, 1e-2, d=2, beta=0.5)
    assert lb.cubes == float(G) and lb.bound == pytest.approx(float(want), rel=1e-10)


def test_theorem11_hand_value():
    """N = 10^9, ε = 10^-4, d = 1, β = 1, p = 2, M_p = 4: h³ = (M_p/2) ln 2/(2εN) (eqs. (186)-(188) with
    (159)), T = 2/h, three-point Lyapunov ratio for C_E, window ``16 C_E² < n < T ln 2/(ε h)`` (Lemma 3)."""
    N, eps, Mp = mp.mpf(10) ** 9, mp.mpf(10) ** -4, mp.mpf(4)
    h = (2 * mp.log(2) / (2 * eps * N)) ** (mp.mpf(1) / 3)
    T = Mp / 2 / h
    q = Mp / T ** 2
    C_E = mp.mpf("0.56") * (q * (T + h) ** 3 + h ** 3) / (T ** 2 * q - h ** 2) ** mp.mpf(1.5)
    P = _window(N, h, 1, 16 * C_E ** 2, T * mp.log(2) / (eps * h))
    want = mp.floor(1 / h) * h ** 3 * mp.mpf(2) / 3 / 2 * P / 12
    lb = LB.theorem11_bound(1e9, 1e-4, d=1, beta=1.0, p=2.0, M_p=4.0)
    assert lb.T == pytest.approx(float(T), rel=1e-12) and lb.berry_esseen == pytest.approx(float(C_E), rel=1e-12)
    assert lb.bound == pytest.approx(float(want), rel=1e-10)


def test_three_point_berry_esseen_constant_grows_like_sqrt_T_p_over_M_p():
    """Appendix L treats C_E as absolute; for the law (156) it is C_0 (T^p/M_p)^{1/2} (1 + o(1)) as h -> 0."""
    for N in (1e12, 1e16, 1e20):
        lb = LB.theorem11_bound(N, 1e-4, d=1, beta=1.0, p=3.0, M_p=2.0)
        ratio = lb.berry_esseen / (LB.BERRY_ESSEEN_C0 * math.sqrt(lb.T ** 3 / 2.0))
        assert ratio == pytest.approx(1.0, abs=0.05)
    # the window 16 C_E^2 < n < n_max empties as eps grows (n_max / C_E^2 ∝ 1/eps): no bound left at eps = 1
    assert LB.theorem11_bound(1e12, 1.0, d=1, beta=1.0, p=3.0, M_p=2.0).bound == 0.0


def test_dispatcher_matches_the_named_functions():
    assert limits.lower_bound("regression", "local", 1e6, 0.5, d=1, beta=1.0) == LB.theorem5_bound(1e6, 0.5, d=1,
                                                                                                  beta=1.0)
    assert LB.lower_bound("classification", "central", 1e8, 1e-3, d=1, beta=1.0, gamma=1.0).theorem == "003 Theorem 3"


@pytest.mark.parametrize("call, match", [
    (lambda: LB.theorem1_bound(0.5, 1.0, d=1, beta=1.0, gamma=1.0), "N must be >= 1.0, got N=0.5"),
    (lambda: LB.theorem1_bound(1e6, 0.0, d=1, beta=1.0, gamma=1.0), "epsilon must be > 0.0, got epsilon=0.0"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.5, gamma=1.0), "beta must be <= 1.*beta=1.5"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=0, beta=1.0, gamma=1.0), "d must be an integer >= 1, got d=0"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=None), "gamma.*required"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.5), "gamma must be <= 1.*gamma=1.5"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, h=0.6), "h must satisfy.*h=0.6"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, h="best"), "h must be one of.*h='best'"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, h=0.1, cubes=11), "cubes must be <= floor.*= 10 .*cubes=11"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, c_h=0), "c_h must be > 0.0, got c_h=0"),
    (lambda: LB.theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, C_M=-1), "C_M must be > 0.0, got C_M=-1"),
    (lambda: LB.theorem5_bound(1e6, 1.0, d=1, beta=1.0, phi_norms=(0.5,)), "phi_norms must be a pair"),
    (lambda: LB.theorem5_bound(1e6, 1.0, d=1, beta=1.0, phi_norms=(0.3, 0.5)), "phi_norms must satisfy"),
    (lambda: LB.theorem9_bound(1e6, 1.0, d=1, beta=1.0, p=1.5), "p must be >= 2.0, got p=1.5"),
    (lambda: LB.theorem9_bound(1e6, 1.0, d=1, beta=1.0, p=2.0, M_p=0), "M_p must be > 0.0, got M_p=0"),
    (lambda: LB.theorem9_bound(1e6, 1.0, d=1, beta=1.0, p=2.0, M_p=0.01, h=0.2), "T\\*\\*p >= M_p.*h=0.2"),
    (lambda: LB.theorem3_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0, berry_esseen=0),
     "berry_esseen must be > 0.0, got berry_esseen=0"),
    (lambda: LB.lower_bound("regression", "local_full", 1e6, 1.0, d=1, beta=1.0), "privacy='local_full'"),
    (lambda: LB.lower_bound("ranking", "local", 1e6, 1.0, d=1, beta=1.0), "task='ranking'"),
    (lambda: LB.plateau_bump_norms(1.0), "d must be an integer, got d=1.0"),
    (lambda: LB.assouad_optimum(0), "a must be > 0.0, got a=0"),
])
def test_bad_arguments_raise_value_error_naming_them(call, match):
    with pytest.raises(ValueError, match=match):
        call()
