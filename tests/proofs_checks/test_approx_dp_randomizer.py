"""The best (ε, δ)-label-DP randomizer (issue 39): LPs, closed form, exact check, objectives.

Independent references: values derived by hand in exact arithmetic (uniform prior by symmetrization:
keep probability (e^ε + δ(K − 1))/(e^ε + K − 1); K = 2 by enumerating the vertices of the binary
(ε, δ) region), brute-force hockey sticks on Fractions, a multinomial enumeration of the arg-max
probability and the per-sample covariance written as a sum over outputs. At δ = 0 the LPs must give
004 Theorem 3's max_k w_k (hand example of 004: prior (0.6, 0.3, 0.1), e^ε = 3: w_2 = 0.675).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.approx_dp_randomizer import (APPROX_METHODS, POLISH_SLACK, approx_optimum, approx_randomizer_lp,
                                                channel_from_structured, mixture_channel, polish_approx_channel,
                                                uniform_keep_probability)
from proofs_checks.channel_objectives import (argmax_margin, argmax_probability, debiased_variance, noisy_law,
                                              vector_debiased_variance)
from proofs_checks.exact_hockey_stick import exact_hockey_stick
from proofs_checks.rrwithprior_lp import rrwithprior_value

LN3 = math.log(3)


def hockey_fraction(P, E) -> Fraction:
    """max over ordered pairs of Σ_z max(0, P[y][z] − E P[y'][z]), all in Fractions (brute force)."""
    K = len(P)
    return max(sum(max(Fraction(0), P[y][z] - E * P[y2][z]) for z in range(len(P[0])))
               for y in range(K) for y2 in range(K) if y != y2)


# ---------------------------------------------------------------- hand-derived optima (exact arithmetic)

def test_uniform_prior_keep_probability_by_symmetrization_exact():
    """K = 4, e^ε = 3, δ = 1/10: a − 3b = 1/10 and a + 3b = 1 give a = 11/20, b = 3/20; that channel's exact
    hockey stick is δ, and any larger keep probability breaks it; every LP returns 11/20."""
    a, b, E, d = Fraction(11, 20), Fraction(3, 20), Fraction(3), Fraction(1, 10)
    assert a + 3 * b == 1 and a - E * b == d
    sym = [[a if i == j else b for j in range(4)] for i in range(4)]
    assert hockey_fraction(sym, E) == d
    a2 = a + Fraction(1, 1000)
    worse = [[a2 if i == j else (1 - a2) / 3 for j in range(4)] for i in range(4)]
    assert hockey_fraction(worse, E) == d + Fraction(2, 1000)   # a2 − 3 (1 − a2)/3 = 2 a2 − 1
    assert uniform_keep_probability(4, LN3, 0.1) == pytest.approx(float(a), abs=1e-15)
    for m in APPROX_METHODS:
        assert approx_randomizer_lp([0.25] * 4, LN3, 0.1, m).value == pytest.approx(float(a), abs=1e-9)


def test_two_labels_by_the_vertices_of_the_binary_region():
    """K = 2, M = [[a, 1−a], [1−c, c]]: the (ε, δ) region's non-trivial vertices are (1, δ) and the symmetric
    a = c = (e^ε + δ)/(1 + e^ε); p = (9/10, 1/10), e^ε = 3, δ = 1/20: max(0.9 + 0.1/20, 3.05/4) = 0.905."""
    p, E, d = (Fraction(9, 10), Fraction(1, 10)), Fraction(3), Fraction(1, 20)
    best = max(p[0] + p[1] * d, (E + d) / (1 + E))
    assert best == Fraction(181, 200)
    for m in APPROX_METHODS:
        assert approx_randomizer_lp([0.9, 0.1], LN3, 0.05, m).value == pytest.approx(float(best), abs=1e-9)


def test_delta_zero_is_theorem_3():
    """004's example: prior (0.6, 0.3, 0.1), e^ε = 3: max_k w_k = w_2 = 3/4 · 0.9 = 0.675 (004 Theorem 3)."""
    for m in APPROX_METHODS:
        assert approx_randomizer_lp([0.6, 0.3, 0.1], LN3, 0.0, m).value == pytest.approx(0.675, abs=1e-9)
    assert approx_optimum([0.6, 0.3, 0.1], LN3, 0.0) == pytest.approx(0.675, abs=1e-12)


@pytest.mark.parametrize("K", [3, 5])
def test_general_structured_relaxation_meet_the_closed_form(K):
    """On fixed-seed Dirichlet priors: structured channel <= general <= relaxation, all = δ + (1 − δ) max_k w_k."""
    rng = np.random.default_rng([39, K])
    for _ in range(3):
        p = rng.dirichlet(np.full(K, 0.4))
        for eps, delta in ((0.3, 1e-3), (1.0, 0.05), (3.0, 0.3)):
            cf = delta + (1 - delta) * rrwithprior_value(p, eps)
            res = {m: approx_randomizer_lp(p, eps, delta, m) for m in APPROX_METHODS}
            for r in res.values():
                assert r.value == pytest.approx(cf, rel=1e-8)
            assert res["structured"].channel_value <= res["relaxation"].value + 1e-12
            assert res["structured"].channel_value == pytest.approx(cf, rel=1e-8)


def test_sizes_of_the_formulations():
    r = approx_randomizer_lp(np.full(100, 0.01), 1.0, 1e-4)       # structured: 2K + 1 variables, 4K + 1 rows
    assert (r.n_variables, r.n_constraints) == (201, 401)
    g = approx_randomizer_lp([0.5, 0.3, 0.2], 1.0, 1e-4, "general")  # K² + K²(K − 1) variables
    assert (g.n_variables, g.n_constraints) == (9 + 18, 3 + 6 * 4)


# ---------------------------------------------------------------- exactness of the privacy check

def test_lp_channels_pass_the_exact_check():
    p = np.array([0.5, 0.2, 0.15, 0.1, 0.05])
    for m in ("structured", "general"):
        for eps, delta in ((0.5, 0.0), (1.0, 1e-6), (2.0, 0.1)):
            r = approx_randomizer_lp(p, eps, delta, m)
            ex = exact_hockey_stick(r.channel, eps, delta)
            assert ex.private, (m, eps, delta, float(ex.max_hockey_stick - ex.delta))
            assert r.channel_value == pytest.approx(approx_optimum(p, eps, delta), abs=1e-9)


def test_planted_overshoot_is_caught_by_its_exact_size():
    """The mixture built with δ' = 0.02 checked at δ = 0.01: RR's part has H = 0 at e^ε = 3, so max H = δ'."""
    M = mixture_channel([1 / 3] * 3, LN3, 0.02)
    ex = exact_hockey_stick(M, LN3, 0.01)
    assert not ex.private
    assert float(ex.max_hockey_stick) == pytest.approx(0.02, abs=1e-15)
    assert exact_hockey_stick(M, LN3, 0.02 + 1e-12).private


def test_the_check_sums_over_outputs():
    """ε = 0, rows (0.6, 0.4, 0) and (0.4, 0.3, 0.3): every single term <= 0.2 but H = 0.2 + 0.1 = 0.3 > δ = 0.25."""
    ex = exact_hockey_stick([[0.6, 0.4, 0.0], [0.4, 0.3, 0.3]], 0.0, 0.25)
    assert not ex.private and ex.worst_pair == (0, 1)
    assert float(ex.max_hockey_stick) == pytest.approx(0.3, abs=1e-15)


def test_polish_restores_exact_privacy_at_a_small_cost():
    M = mixture_channel([0.5, 0.3, 0.2], 1.0, 1e-4 + 1e-9)       # overshoots δ = 1e-4 by 1e-9
    assert not exact_hockey_stick(M, 1.0, 1e-4).private
    P = polish_approx_channel(M, 1.0, 1e-4)
    ex = exact_hockey_stick(P, 1.0, 1e-4)
    assert ex.private and float(ex.delta - ex.max_hockey_stick) >= POLISH_SLACK / 2
    assert np.max(np.abs(P - M)) < 1e-8


def test_structured_channel_is_private_by_construction():
    """Random points (x, l) of the structured polytope: the rebuilt channel is stochastic and exactly (ε, δ)-DP."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        K, eps, delta = int(rng.integers(2, 7)), float(rng.uniform(0.1, 3)), float(rng.choice([0.0, 1e-3, 0.2]))
        M = polish_approx_channel(channel_from_structured(rng.uniform(0, 1, K), rng.uniform(0, 1, K), eps, delta),
                                  eps, delta)
        assert np.allclose(M.sum(axis=1), 1.0) and exact_hockey_stick(M, eps, delta).private


def test_oversized_requests_are_refused_up_front():
    with pytest.raises(ValueError, match=r"len\(prior\)=101 would need 1020100 slack variables"):
        approx_randomizer_lp(np.full(101, 1 / 101), 1.0, 0.1, "general")
    with pytest.raises(ValueError, match="num_labels"):
        argmax_probability(np.eye(2), [0.6, 0.4], 701)


@pytest.mark.parametrize("bad", [dict(delta=-0.1), dict(delta=1.5), dict(method="dense"), dict(epsilon=0.0)])
def test_guards_name_the_argument(bad):
    args = dict(prior=[0.5, 0.5], epsilon=1.0, delta=0.1, method="structured") | bad
    name = next(iter(bad))
    with pytest.raises(ValueError, match=name):
        approx_randomizer_lp(**args)


# ---------------------------------------------------------------- the objectives of 000

def test_argmax_probability_against_enumeration():
    """K = 3, n = 5: sum the multinomial pmf over every count vector whose strict maximum is at label 0."""
    M = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.3, 0.3, 0.4]])
    p = np.array([0.5, 0.3, 0.2])
    q, n, total = p @ M, 5, 0.0
    for c in itertools.product(range(n + 1), repeat=3):
        if sum(c) == n and c[0] > max(c[1:]):
            total += math.factorial(n) / math.prod(math.factorial(v) for v in c) * math.prod(q ** np.array(c))
    assert argmax_probability(M, p, n) == pytest.approx(total, rel=1e-12)


def test_argmax_margin_of_randomized_response_scales_the_gap():
    """RR keeps with a = e^ε/(e^ε+K−1), else b: p̃ = b + (a − b) p, so the margin is (a − b)(p_1 − p_2)."""
    K, E = 4, 3.0
    a, b = E / (E + K - 1), 1 / (E + K - 1)
    M = np.full((K, K), b) + (a - b) * np.eye(K)
    p = np.array([0.4, 0.3, 0.2, 0.1])
    assert argmax_margin(M, p) == pytest.approx((a - b) * 0.1, abs=1e-15)
    assert math.isnan(argmax_margin(M, np.full(K, 0.25)))


def test_debiased_variance_as_a_sum_over_outputs():
    """n tr Cov = Σ_z p̃_z |row z of M^{-1}|² − |p|² (one noisy label z contributes e_z M^{-1}, mean p)."""
    rng = np.random.default_rng(3)
    M = rng.dirichlet(np.ones(4), size=4) + 2 * np.eye(4)
    M /= M.sum(axis=1, keepdims=True)
    p = rng.dirichlet(np.ones(4))
    Minv = np.linalg.inv(M)
    expected = sum((p @ M)[z] * Minv[z] @ Minv[z] for z in range(4)) - p @ p
    assert debiased_variance(M, p) == pytest.approx(expected, rel=1e-10)


def test_rrwithprior_is_singular_and_delta_makes_it_invertible():
    p = np.array([0.9, 0.05, 0.05])                                  # k* = 1 at e^ε = 3: every row outputs 0
    assert math.isinf(debiased_variance(mixture_channel(p, LN3, 0.0), p))
    assert math.isfinite(debiased_variance(mixture_channel(p, LN3, 1e-3), p))
    assert noisy_law(mixture_channel(p, LN3, 0.0), p).tolist() == [1.0, 0.0, 0.0]


def test_vector_debiased_variance_by_hand():
    """000 eq. (24) with e^{ε/2} = 3: η̃_j = 1/4 + p_j / 2; K = 3, p = (1/2, 1/4, 1/4): η̃ = (1/2, 3/8, 3/8);
    Σ η̃(1 − η̃) = 1/4 + 2 · 15/64 = 23/32, times ((3 + 1)/(3 − 1))² = 4: 23/8."""
    assert vector_debiased_variance([0.5, 0.25, 0.25], 2 * LN3) == pytest.approx(23 / 8, rel=1e-12)


def test_exact_check_agrees_with_the_float_profile():
    """exact_hockey_stick (integers) against privacy_profile.channel_profile (floats) on random channels."""
    from proofs_checks.privacy_profile import channel_profile

    rng = np.random.default_rng(11)
    for _ in range(10):
        K, eps = int(rng.integers(2, 6)), float(rng.uniform(0, 2))
        M = rng.dirichlet(np.ones(K), size=K)
        exact = float(exact_hockey_stick(M, eps, 0.5).max_hockey_stick)
        assert exact == pytest.approx(float(channel_profile(M, eps)), abs=1e-12)


def test_smoke_run_answers_every_claim():
    """The experiment at its smoke profile: every claim decided (and yes / reproduced), tables of the grid's size."""
    from proofs_checks.experiments.approx_dp_randomizer import PROFILES, compute
    from simulations.experiments.base import RunContext

    res = compute(RunContext(profile="smoke"))
    cfg = PROFILES["smoke"]
    assert len(res.tables["optimum"]["K"]) == 3 * len(cfg.Ks) * len(cfg.epsilons) * len(cfg.deltas)
    assert [c.reading for c in res.claims] == ["reproduced"] + ["yes"] * (len(res.claims) - 1)
    assert {c.kind for c in res.claims} == {"paper", "beyond"}


@pytest.mark.parametrize("prior", [[0.25] * 4, [0.5, 0.3, 0.15, 0.05], [0.9, 0.05, 0.03, 0.02]])
def test_the_structured_family_contains_the_optimal_mixture(prior):
    """The restriction attains OPT because δ I + (1 − δ) R* is in it: rebuilt from its diagonal and its
    off-diagonal column minima, channel_from_structured returns the same channel."""
    for eps, delta in ((0.5, 0.01), (math.log(3), 0.1), (2.0, 1e-4)):
        M = mixture_channel(prior, eps, delta)
        off = M + np.diag(np.full(len(prior), np.inf))
        rebuilt = channel_from_structured(np.diag(M), off.min(axis=0), eps, delta)
        np.testing.assert_allclose(rebuilt, M, atol=1e-12)
