"""limits.advisor: the closed-form proxies against exact enumeration of the channels, sympy, and 004's LP1.

Expected values come from enumeration of the mechanisms' channels (000 eq. (12)-(13), 004 eq. (1), the
OUE-style asymmetric flipping of 002 Limitations) in exact rational arithmetic (``Fraction`` at
e^{ε/2} = 3, i.e. ε = 2 ln 3), from sympy with a symbolic u = e^{ε/2}, from the suite's own channel
matrices (``simulations.mechanisms``) and from the LP1 solver of ``proofs_checks.rrwithprior_lp``
(004 Theorem 3), never from the advisor's output.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

import limits
from limits.advisor import (advise, debiased_covariance, delta_eps_factor, noise_to_signal, rr_with_prior_keep,
                            signal_probabilities)

EPS = 2 * math.log(3)  # e^{ε/2} = 3, e^ε = 9
U = F(3)


def _exact_params(mechanism, K, u=U):
    """(a, b) of the statistic T_j, exactly: 004 eq. (1), 000 eq. (12), asymmetric a = 1/2, b = 1/(e^ε + 1)."""
    e = u * u
    if mechanism == "rr":
        return e / (e + K - 1), 1 / (e + K - 1)
    if mechanism == "vector":
        return u / (1 + u), 1 / (1 + u)
    return F(1, 2) if isinstance(u, F) else sp.Rational(1, 2), 1 / (e + 1)


def _outputs(mechanism, K):
    """Every output with its statistic vector T(z): one-hot for RR, the bits for the vector mechanisms."""
    if mechanism == "rr":
        return [tuple(int(i == z) for i in range(K)) for z in range(K)]
    return list(itertools.product((0, 1), repeat=K))


def _p_out(mechanism, K, T, y, a, b):
    """P(output with statistic T | Y = y) from the mechanism's definition."""
    if mechanism == "rr":  # 004 eq. (1): a for the true label, b for each other one
        return a if T[y] else b
    prob = 1
    for j, t in enumerate(T):  # 000 eq. (12)-(13): independent bits given Y
        pj = a if j == y else b
        prob *= pj if t else 1 - pj
    return prob


def _exact_debiased_cov(mechanism, eta, u=U):
    """Mean and covariance of (T − b)/(a − b) by enumeration, exactly."""
    K = len(eta)
    a, b = _exact_params(mechanism, K, u)
    c = a - b
    outs = _outputs(mechanism, K)
    probs = [sum(eta[y] * _p_out(mechanism, K, T, y, a, b) for y in range(K)) for T in outs]
    est = [[(t - b) / c for t in T] for T in outs]
    mean = [sum(p * e[j] for p, e in zip(probs, est)) for j in range(K)]
    cov = [[sum(p * (e[j] - mean[j]) * (e[l] - mean[l]) for p, e in zip(probs, est)) for l in range(K)]
           for j in range(K)]
    return sum(probs), mean, cov


ETAS = [(F(1, 2), F(1, 2)), (F(1, 2), F(1, 3), F(1, 6)), (F(2, 5), F(3, 10), F(1, 5), F(1, 10)),
        (F(1, 4),) * 4, (F(1, 2), F(1, 2), F(0), F(0), F(0))]


@pytest.mark.parametrize("mechanism", ["rr", "vector", "vector_asymmetric"])
@pytest.mark.parametrize("eta", ETAS, ids=lambda e: "-".join(map(str, e)))
def test_debiased_covariance_equals_exact_enumeration(mechanism, eta):
    total, mean, cov = _exact_debiased_cov(mechanism, eta)
    assert total == 1
    assert mean == list(eta)  # the debiased statistic is unbiased (000 eq. (24))
    got = debiased_covariance(mechanism, EPS, [float(x) for x in eta])
    np.testing.assert_allclose(got, np.array(cov, dtype=float), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mechanism", ["rr", "vector", "vector_asymmetric"])
def test_contrast_closed_forms_in_the_docstring_hold_symbolically(mechanism):
    """The module docstring's contrast variances, against enumeration with a symbolic u = e^{ε/2}."""
    u = sp.symbols("u", positive=True)
    eta = (sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(1, 6))
    K = len(eta)
    _, _, cov = _exact_debiased_cov(mechanism, eta, u)
    contrast = cov[0][0] + cov[1][1] - 2 * cov[0][1]
    ej, el = eta[0], eta[1]
    if mechanism == "rr":
        a, b = _exact_params("rr", K, u)
        qj, ql = b + (a - b) * ej, b + (a - b) * el
        stated = (qj + ql - (qj - ql) ** 2) / (a - b) ** 2
    elif mechanism == "vector":
        stated = 2 * u / (u - 1) ** 2 + ej + el - (ej - el) ** 2
    else:
        stated = 8 * u**2 / (u**2 - 1) ** 2 + 2 * (ej + el) - (ej - el) ** 2
    assert sp.simplify(contrast - stated) == 0


def test_symmetric_minus_asymmetric_constant_is_at_most_one_half():
    u = sp.symbols("u", positive=True)
    diff = sp.simplify(2 * u / (u - 1) ** 2 - 8 * u**2 / (u**2 - 1) ** 2)
    assert sp.simplify(diff - 2 * u / (u + 1) ** 2) == 0
    assert sp.simplify(sp.Rational(1, 2) - diff - (u - 1) ** 2 / (2 * (u + 1) ** 2)) == 0  # >= 0


def test_covariance_matches_the_suites_channel_matrices():
    """An independent float path: the simulations' exact channels (000 eq. (12)-(13), 004 eq. (1))."""
    from simulations.mechanisms import AsymmetricVectorMechanism, RandomizedResponse, VectorMechanism, output_bits
    eta = np.array([0.4, 0.3, 0.2, 0.1])
    K = eta.size
    for mechanism, P, T in (("vector", VectorMechanism(K, 1.3).channel_matrix(), output_bits(K)),
                            ("vector_asymmetric", AsymmetricVectorMechanism(K, 1.3).channel_matrix(), output_bits(K)),
                            ("rr", RandomizedResponse(K, 1.3).channel_matrix(), np.eye(K))):
        a, b = signal_probabilities(mechanism, 1.3, K)
        pz = eta @ P
        est = (np.asarray(T, float) - b) / (a - b)
        mean = pz @ est
        cov = (est - mean).T @ (pz[:, None] * (est - mean))
        np.testing.assert_allclose(mean, eta, atol=1e-12)
        np.testing.assert_allclose(debiased_covariance(mechanism, 1.3, eta), cov, atol=1e-10)


def test_one_hot_eta_gives_the_asymmetric_mechanisms_conditional_variances():
    """At η = e_y the diagonal is the variance of a debiased bit given Y (AsymmetricVectorMechanism's own)."""
    from simulations.mechanisms import AsymmetricVectorMechanism
    var_one, var_zero = AsymmetricVectorMechanism(3, EPS).debiased_variances()
    np.testing.assert_allclose(np.diag(debiased_covariance("vector_asymmetric", EPS, [1.0, 0.0, 0.0])),
                               [var_one, var_zero, var_zero], rtol=1e-12)
    # exactly, e^ε = 9: a = 1/2, b = 1/10, c = 2/5: (1/4)/(4/25) = 25/16 and (9/100)/(4/25) = 9/16
    assert (var_one, var_zero) == (pytest.approx(25 / 16, rel=1e-12), pytest.approx(9 / 16, rel=1e-12))


def test_noise_to_signal_exact_values():
    # two-class tie at e^{ε/2} = 3: symmetric 2·3/4 + 1 = 5/2; asymmetric 8·9/64 + 2 = 25/8;
    # RR with K = 5: a = 9/13, b = 1/13, q = (5/13, 5/13), c = 8/13: (10/13)/(64/169) = 65/32
    tie = [0.5, 0.5, 0.0, 0.0, 0.0]
    assert noise_to_signal("vector", EPS, tie) ** 2 == pytest.approx(2.5, rel=1e-13)
    assert noise_to_signal("vector_asymmetric", EPS, tie) ** 2 == pytest.approx(25 / 8, rel=1e-13)
    assert noise_to_signal("rr", EPS, tie) ** 2 == pytest.approx(65 / 32, rel=1e-13)
    # the pair is η's top two, whatever their position
    assert noise_to_signal("rr", EPS, [0.0, 0.0, 0.5, 0.0, 0.5]) == pytest.approx(math.sqrt(65 / 32), rel=1e-13)


def test_uniform_crossover_of_the_two_vector_mechanisms():
    # at the uniform η the asymmetric mechanism wins iff K > u + 2 + 1/u = 16/3 at u = 3
    for K, asym_wins in ((5, False), (6, True)):
        eta = [1 / K] * K
        assert (noise_to_signal("vector_asymmetric", EPS, eta) < noise_to_signal("vector", EPS, eta)) is asym_wins


def test_delta_eps_factor_is_000_eq_21_for_the_symmetric_mechanism():
    assert delta_eps_factor("vector", EPS, 7) == pytest.approx((3 + 1) / (3 - 1), rel=1e-14)
    assert delta_eps_factor("rr", EPS, 7) == pytest.approx((9 + 6) / (9 - 1), rel=1e-14)
    assert delta_eps_factor("vector_asymmetric", EPS, 7) == pytest.approx(2 * 10 / 8, rel=1e-14)


@pytest.mark.parametrize("prior", [[0.5, 0.3, 0.2], [0.7, 0.1, 0.1, 0.05, 0.05], [0.25] * 4, [1.0, 0.0, 0.0]])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
def test_rr_with_prior_keep_is_the_lp1_optimum(prior, epsilon):
    lp = pytest.importorskip("proofs_checks.rrwithprior_lp")
    assert rr_with_prior_keep(epsilon, prior) == pytest.approx(lp.rrwithprior_lp(prior, epsilon).value, abs=1e-7)


def test_rr_with_prior_keep_exact_and_miss_rate_lower_bound():
    e = 3.0  # ε = ln 3; prior (0.6, 0.3, 0.1): w = (0.6, 0.675, 0.6)
    assert rr_with_prior_keep(math.log(e), [0.3, 0.1, 0.6]) == pytest.approx(0.675, rel=1e-13)
    # only the top-1 miss rate 0.4: max(0.6 · 1, 3/5) = 0.6 <= the full value 0.675
    assert rr_with_prior_keep(math.log(e), top_k_miss=(1, 0.4), num_classes=3) == pytest.approx(0.6, rel=1e-13)
    # a useless prior: the k = K term, RR's e^ε/(e^ε + K − 1) = 3/12
    assert rr_with_prior_keep(math.log(e), top_k_miss=(1, 1.0), num_classes=10) == pytest.approx(0.25, rel=1e-13)


def test_large_epsilon_stays_finite():
    # ε = 600: every proxy is finite; RR keeps with probability 1 − (K−1)e^{−ε} ≈ 1
    adv = advise(5, 600.0, 100)
    assert all(math.isfinite(r.noise_to_signal) for r in adv.rows)
    assert adv.row("rr").keep_probability == pytest.approx(1.0)


def test_advise_rules_and_rows():
    adv = advise(10, 1.0, 10_000)
    assert [r.mechanism for r in adv.rows] == ["rr", "vector", "vector_asymmetric"]  # no prior: no RRWithPrior row
    # the recommendation is the smallest of the three exact contrast variances at the two-class tie
    u, e = math.exp(0.5), math.e
    v = {"rr": (e + 1) * (e + 9) / (e - 1) ** 2, "vector": 2 * u / (u - 1) ** 2 + 1,
         "vector_asymmetric": 8 * e / (e - 1) ** 2 + 2}
    assert {r.mechanism: r.noise_to_signal**2 for r in adv.rows} == pytest.approx(v, rel=1e-12)
    assert adv.recommended == min(v, key=v.get) == "vector"
    assert adv.row("vector").effective_n == pytest.approx(10_000 / v["vector"], rel=1e-12)
    assert adv.minimax_rate == pytest.approx((10_000 / math.log(10)) ** (-2 / 4), rel=1e-12)  # 003 Table 1
    # the noisy-labels rule: RRWithPrior when the prior helps, RR when it cannot (uniform prior: w_K wins)
    assert advise(10, 1.0, 100, top_k_miss=(2, 0.1), use_case="noisy_labels").recommended == "rr_with_prior"
    assert advise(4, 1.0, 100, prior=[0.25] * 4, use_case="noisy_labels").recommended == "rr"
    assert advise(2, 2.0, 100).recommended == "rr"  # K = 2: (e²+1)²/(e²−1)² = 1.73 < 2e/(e−1)² + 1 = 2.84


@pytest.mark.parametrize("kwargs, match", [
    (dict(num_classes=1, epsilon=1.0, N=10), "num_classes"),
    (dict(num_classes=3, epsilon=0.0, N=10), "epsilon"),
    (dict(num_classes=3, epsilon=1.0, N=0), "N"),
    (dict(num_classes=3, epsilon=800.0, N=10), "epsilon must be <= 700"),
    (dict(num_classes=3, epsilon=1.0, N=10, use_case="deep"), "use_case"),
    (dict(num_classes=3, epsilon=1.0, N=10, at="median"), "at"),
    (dict(num_classes=3, epsilon=1.0, N=10, prior=[0.5, 0.5]), "prior must have num_classes=3"),
    (dict(num_classes=3, epsilon=1.0, N=10, prior=[0.5, 0.6, -0.1]), "prior must be finite and non-negative"),
    (dict(num_classes=3, epsilon=1.0, N=10, top_k_miss=(4, 0.1)), r"top_k_miss\[0\]"),
    (dict(num_classes=3, epsilon=1.0, N=10, top_k_miss=(1, 1.5)), r"top_k_miss\[1\]"),
    (dict(num_classes=3, epsilon=1.0, N=10, prior=[1 / 3] * 3, top_k_miss=(1, 0.1)), "at most one"),
])
def test_advise_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        limits.advise(**kwargs)
