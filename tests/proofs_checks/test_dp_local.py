"""Exact label-DP checks of the local randomizers: tightness over the grid, exact arithmetic at
ε = ln 3 (vector: ε = 2 ln 3), and planted bugs caught with their exact wrong loss."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from proofs_checks import check_label_dp, is_tight, max_privacy_loss
from proofs_checks.exact import (k_star_exact, max_ratio_exact, rr_channel_exact, rr_top_k_channel_exact,
                                 rr_top_k_short_keep_channel_exact, top_k_exact, vector_channel_exact)
from proofs_checks.mechanisms.randomized_response import default_priors
from proofs_checks.mechanisms.vector import factorized_vector_loss
from proofs_checks.planted_bugs import (RRTopKShortKeep, RRTopKUniformFallback, VectorMechanismFullBitEpsilon, rr_top_k_short_keep_loss,
                                        vector_full_bit_epsilon_loss)
from simulations.mechanisms import ALIBI, RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism

EPS_GRID = [0.1, 0.5, 1.0, 2.0, 4.0, 8.0]
K_GRID = [2, 3, 5, 10]
grid = pytest.mark.parametrize("K,eps", [(K, e) for K in K_GRID for e in EPS_GRID])


def assert_tight(res, eps):
    assert res.holds, res.explanation
    assert is_tight(res.epsilon_actual, eps), f"loss {res.epsilon_actual} != epsilon {eps}"


# ---------------------------------------------------------------------------------------------
# Tightness over the grid (004 Lemma 1: the bound e^ε is attained; 000 eq. (14))

@grid
def test_rr_is_tight(K, eps):
    assert_tight(check_label_dp(RandomizedResponse(K, eps), eps), eps)


@grid
def test_rr_top_k_is_tight_for_k_at_least_2(K, eps):
    for k in range(1, K + 1):
        res = check_label_dp(RRTopK(K, eps, k), eps)  # default priors, ties at the top-k boundary included
        if k == 1:
            assert res.holds and res.epsilon_actual == 0.0  # always outputs the top label
        else:
            assert_tight(res, eps)


@grid
def test_rr_with_prior_every_prior(K, eps):
    m = RRWithPrior(K, eps)
    priors = default_priors(K)
    res = check_label_dp(m, eps, priors=priors)
    assert res.holds
    for p, loss in zip(priors, res.witness["losses"]):
        # Tight exactly when k* >= 2; k* = 1 outputs the top label whatever y is (loss 0).
        assert (is_tight(loss, eps) if m.k_star(p) >= 2 else loss == 0.0)
    # RRWithPrior reaches k* >= 2 on the uniform prior, so the worst case over priors is ε.
    assert m.k_star(np.full(K, 1.0 / K)) >= 2 and is_tight(res.epsilon_actual, eps)


@grid
def test_vector_is_tight_factorized_and_brute_force(K, eps):
    res = check_label_dp(VectorMechanism(K, eps), eps)
    assert_tight(res, eps)
    assert is_tight(res.witness["factorized"], eps)
    assert is_tight(res.witness["brute_force"], eps)  # K <= 10 < 12: both computed and stated
    assert "factorized" in res.explanation and "brute force over all" in res.explanation


@pytest.mark.parametrize("K", [13, 50, 200])
def test_vector_factorized_only_for_large_K(K):
    res = check_label_dp(VectorMechanism(K, 1.5), 1.5)
    assert_tight(res, 1.5)
    assert "brute_force" not in res.witness and "skipped" in res.explanation


@grid
def test_alibi_laplace_vector(K, eps):
    res = check_label_dp(ALIBI(K, eps), eps)
    assert_tight(res, eps)
    assert res.witness["attained"] == pytest.approx(eps, rel=1e-12)  # the supremum is attained
    assert not check_label_dp(ALIBI(K, eps), 0.99 * eps).holds


def test_smaller_claim_is_violated():
    for m in (RandomizedResponse(4, 1.0), RRTopK(4, 1.0, 3), RRWithPrior(4, 1.0), VectorMechanism(4, 1.0)):
        res = check_label_dp(m, 0.9)
        assert not res.holds and is_tight(res.epsilon_actual, 1.0)


def test_rr_with_prior_given_prior_and_errors():
    m = RRWithPrior(3, 1.0)
    assert check_label_dp(m, 1.0, prior=[1.0, 0.0, 0.0]).epsilon_actual == 0.0  # k* = 1
    with pytest.raises(ValueError, match="not both"):
        check_label_dp(m, 1.0, prior=[1.0, 0.0, 0.0], priors=[[1.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="empty"):
        check_label_dp(m, 1.0, priors=[])


def test_delta_is_passed_through():
    res = check_label_dp(RandomizedResponse(3, 1.0), 1.0, delta=1e-6)
    assert res.holds and res.delta == 1e-6


# ---------------------------------------------------------------------------------------------
# Exact arithmetic: e^ε = 3 (RR family), e^{ε/2} = 3 (vector mechanism)

LN3 = math.log(3)
RATIONAL_PRIORS = [[Fraction(1, 4)] * 4, [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)],
                   [Fraction(2, 5), Fraction(1, 5), Fraction(1, 5), Fraction(1, 5)],
                   [Fraction(3, 4), Fraction(1, 4), Fraction(0), Fraction(0)],
                   [Fraction(1, 10), Fraction(3, 10), Fraction(3, 10), Fraction(3, 10)]]


def as_float(P):
    return np.array([[float(x) for x in row] for row in P])


# rtol 1e-15 against the exact channels below: the float channel computes t = exp(-ε) once (numpy's exp:
# its own vectorized one on AVX-512 CPUs, the C library's elsewhere; within 1 ulp of exact either way) and
# then keep = 1/(1 + (k-1) t) and t·keep with three correctly rounded operations. With ε = fl(ln 3) (half an
# ulp off) the first-order relative error is <= 9e-16 for K <= 10; moving exp by 2 ulp either way still
# passes (checked by replacing np.exp in simulations.mechanisms.randomized_response).
@pytest.mark.parametrize("K", [2, 3, 5, 10])
def test_exact_rr(K):
    exact = rr_channel_exact(K, 3)
    assert max_ratio_exact(exact) == 3
    np.testing.assert_allclose(RandomizedResponse(K, LN3).channel_matrix(), as_float(exact), rtol=1e-15)
    assert max_privacy_loss(RandomizedResponse(K, LN3).channel_matrix()) == pytest.approx(LN3, rel=1e-14)


@pytest.mark.parametrize("prior", RATIONAL_PRIORS)
def test_exact_rr_top_k_and_with_prior(prior):
    fprior = [float(p) for p in prior]
    for k in range(1, 5):
        exact = rr_top_k_channel_exact(prior, k, 3)
        assert max_ratio_exact(exact) == (3 if k >= 2 else 1)
        np.testing.assert_array_equal(RRTopK(4, LN3, k).top_k(fprior), top_k_exact(prior, k))
        np.testing.assert_allclose(RRTopK(4, LN3, k).channel_matrix(fprior), as_float(exact), rtol=1e-15)
    ks = k_star_exact(prior, 3)
    assert RRWithPrior(4, LN3).k_star(fprior) == ks
    np.testing.assert_allclose(RRWithPrior(4, LN3).channel_matrix(fprior),
                               as_float(rr_top_k_channel_exact(prior, ks, 3)), rtol=1e-15)


def test_exact_k_star_ties():
    # (3/4, 1/4, 0, 0) at e^ε = 3: w_1 = 3/4 = w_2 exactly; both exact and float pick k* = 1.
    assert k_star_exact(RATIONAL_PRIORS[3], 3) == 1
    assert RRWithPrior(4, LN3).k_star([0.75, 0.25, 0.0, 0.0]) == 1
    # (1/4)*4: w_1 = 1/4, w_2 = 3/4 * 1/2 = 3/8, w_3 = 3/5 * 3/4 = 9/20, w_4 = 1/2: k* = 4.
    assert k_star_exact(RATIONAL_PRIORS[0], 3) == 4 == RRWithPrior(4, LN3).k_star([0.25] * 4)


@pytest.mark.parametrize("K", [2, 3, 4, 6])
def test_exact_vector(K):
    exact = vector_channel_exact(K, 3)
    assert max_ratio_exact(exact) == 9  # = e^ε at ε = 2 ln 3
    m = VectorMechanism(K, 2 * LN3)
    np.testing.assert_allclose(m.channel_matrix(), as_float(exact), rtol=1e-14)
    res = check_label_dp(m, 2 * LN3)
    assert res.witness["factorized"] == pytest.approx(math.log(9), rel=1e-14)
    assert res.witness["brute_force"] == pytest.approx(math.log(9), rel=1e-14)


# ---------------------------------------------------------------------------------------------
# Planted bugs: the checker finds exactly the derived wrong loss

@grid
def test_planted_vector_full_bit_epsilon(K, eps):
    res = check_label_dp(VectorMechanismFullBitEpsilon(K, eps), eps)
    assert not res.holds
    assert res.epsilon_actual == pytest.approx(vector_full_bit_epsilon_loss(eps), rel=1e-9)
    assert res.witness["brute_force"] == pytest.approx(2 * eps, rel=1e-9)
    assert factorized_vector_loss(VectorMechanismFullBitEpsilon(K, eps).bit_probabilities())[0] == \
        pytest.approx(2 * eps, rel=1e-9)


def test_planted_vector_bug_exact():
    # ε = 2 ln 3 with ε per bit: e^ε = 9 per bit, a/b = 9, two bits: exactly 81 = e^{2ε}.
    exact = vector_channel_exact(3, 9)
    assert max_ratio_exact(exact) == 81
    np.testing.assert_allclose(VectorMechanismFullBitEpsilon(3, 2 * LN3).channel_matrix(), as_float(exact),
                               rtol=1e-14)


def short_keep_loss_symbolic():
    """The planted RRTop-k bug's column ratio derived with sympy from its definition."""
    E, k = sp.symbols("E k", positive=True)
    q = E / (E + k)
    r = (1 - q) / (k - 1)
    return sp.simplify(q / r - E * (k - 1) / k), sp.simplify(sp.Rational(1) / k / r - (k - 1) * (E + k) / k**2)


def test_short_keep_ratios_symbolic():
    assert short_keep_loss_symbolic() == (0, 0)


@grid
def test_planted_rr_top_k_short_keep(K, eps):
    for k in range(2, K + 1):
        for prior in default_priors(K)[:4]:
            res = check_label_dp(RRTopKShortKeep(K, eps, k), eps, prior=prior)
            expected = rr_top_k_short_keep_loss(eps, k)
            assert res.epsilon_actual == pytest.approx(expected, rel=1e-9, abs=1e-12)
            # Violated iff ε < ln(k/(k-1)) / 2; otherwise untight: the checker never reports ε.
            assert res.holds == (eps >= math.log(k / (k - 1)) / 2)
            assert not is_tight(res.epsilon_actual, eps)


@pytest.mark.parametrize("E,k", [(3, 2), (3, 3), (3, 5), (Fraction(11, 10), 2), (Fraction(6, 5), 4),
                                 (Fraction(4, 3), 4)])
def test_planted_rr_top_k_short_keep_exact(E, k):
    E = Fraction(E)
    prior = [Fraction(1, 6)] * 6
    exact = rr_top_k_short_keep_channel_exact(prior, k, E)
    assert all(sum(row) == 1 for row in exact)  # the missing mass went to Y_k minus y
    expected = E * (k - 1) / k if E >= Fraction(k, k - 1) else Fraction(k, k - 1) / E
    assert max_ratio_exact(exact) == expected
    m = RRTopKShortKeep(6, math.log(E), k)
    np.testing.assert_allclose(m.channel_matrix([1 / 6] * 6), as_float(exact), rtol=1e-14)
    assert max_privacy_loss(as_float(exact)) == pytest.approx(rr_top_k_short_keep_loss(math.log(E), k), rel=1e-12)


def test_short_keep_at_crossover_has_zero_loss():
    # E = k/(k-1) = 4/3 at k = 4: every column is constant, loss 0 exactly.
    exact = rr_top_k_short_keep_channel_exact([Fraction(1, 5)] * 5, 4, Fraction(4, 3))
    assert max_ratio_exact(exact) == 1


def test_planted_bug_needs_k_2():
    with pytest.raises(ValueError, match="k >= 2"):
        RRTopKShortKeep(3, 1.0, 1)


def test_exact_inputs_must_be_rational():
    with pytest.raises(ValueError, match="exact"):
        rr_channel_exact(3, 3.0)


@grid
def test_planted_rr_top_k_uniform_fallback_always_flagged(K, eps):
    # Hand derivation (planted_bugs docstring): loss = ln(1 + e^eps) > eps for every k >= 2.
    for k in range(2, K + 1):
        for prior in default_priors(K)[:4]:
            res = check_label_dp(RRTopKUniformFallback(K, eps, k), eps, prior=prior)
            assert res.epsilon_actual == pytest.approx(math.log(1 + math.exp(eps)), rel=1e-9)
            assert not res.holds


@pytest.mark.parametrize("E,k", [(3, 2), (3, 4), (Fraction(3, 2), 3)])
def test_planted_rr_top_k_uniform_fallback_exact(E, k):
    # Exact channel from the sampler's two steps, in fractions: keep w.p. E/(E+k), else uniform on Y_k.
    E = Fraction(E)
    K = 5
    keep = E / (E + k)
    exact = [[Fraction(0)] * K for _ in range(K)]
    for y in range(K):
        for z in range(k):  # Y_k = first k labels for the decreasing prior below
            exact[y][z] = (keep if (y == z) else 0) + (1 - keep) / k if y < k else Fraction(1, k)
    assert all(sum(row) == 1 for row in exact)
    assert max_ratio_exact(exact) == E + 1
    prior = [0.3, 0.25, 0.2, 0.15, 0.1]
    m = RRTopKUniformFallback(K, math.log(E), k)
    np.testing.assert_allclose(m.channel_matrix(prior), as_float(exact), rtol=1e-14)
