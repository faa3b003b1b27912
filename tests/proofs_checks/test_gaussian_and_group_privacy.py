"""Exact privacy of LP-Normal-SGD's Gaussian step (004 Proposition 11) and group privacy (004 Fact 14).

References values: the hockey-stick divergence of two Gaussians integrated by mpmath (not the closed form
under test), Google's dp_accounting PLD accountant as an outside cross-check (skipped where it is not
installed), brute-force products of channels in ``fractions``, and the suite's float channel matrices.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from proofs_checks.gaussian_mechanism import gaussian_delta, gaussian_delta_complement, paper_constant, smallest_sigma
from proofs_checks.group_privacy import (binary_approximate_rr_exact, exact_channels, fact14_factor, group_delta,
                                         group_ratio, product_channel)
from proofs_checks.proof_steps import run_check
from simulations.learning.private_sgd import gaussian_sigma, gradient_span_projector
from simulations.mechanisms import RandomizedResponse, RRTopK, RRWithPrior


def _hockey_stick_by_quadrature(epsilon, mu):
    """∫ (φ(x) − e^ε φ(x − μ))_+ dx for N(0, 1) vs N(μ, 1): the positive part is x < μ/2 − ε/μ."""
    with mpmath.workdps(30):
        eps, mu = mpmath.mpf(epsilon), mpmath.mpf(mu)
        f = lambda x: mpmath.npdf(x) - mpmath.e**eps * mpmath.npdf(x - mu)  # noqa: E731
        return float(mpmath.quad(f, [-mpmath.inf, mu / 2 - eps / mu]))


@pytest.mark.parametrize("epsilon,sens,sigma", [(0.0, 1.0, 1.0), (0.5, 1.0, 4.0), (1.0, 2.0, 1.5), (3.0, 1.0, 0.3),
                                                (0.5, math.sqrt(2), 13.7)])
def test_gaussian_delta_is_the_hockey_stick(epsilon, sens, sigma):
    want = _hockey_stick_by_quadrature(epsilon, sens / sigma)
    assert gaussian_delta(epsilon, sens, sigma) == pytest.approx(want, rel=1e-9, abs=1e-300)
    assert gaussian_delta_complement(epsilon, sens, sigma) == pytest.approx(1 - want, rel=1e-9)


def test_smallest_sigma_is_the_threshold_and_below_the_classical_one():
    for eps, delta in [(0.1, 1e-5), (0.5, 1e-5), (0.9, 1e-9), (0.5, 0.3)]:
        s = smallest_sigma(eps, delta, 1.0)
        assert gaussian_delta(eps, 1.0, s) == pytest.approx(delta, rel=1e-9)
        assert gaussian_delta(eps, 1.0, 0.999 * s) > delta > gaussian_delta(eps, 1.0, 1.001 * s)
        assert s < math.sqrt(2 * math.log(1.25 / delta)) / eps  # Dwork and Roth's σ is sufficient, not tight
    assert smallest_sigma(0.5, 1e-5, 3.0) == pytest.approx(3 * smallest_sigma(0.5, 1e-5, 1.0), rel=1e-10)  # σ ∝ Δ


def test_suite_sigma_is_dp_and_agrees_with_dp_accounting():
    """The suite's LP-Normal-SGD (experiment lp_rr_sgd: L = √2, ε = 1/2, δ = 1e-5) at its worst-case sensitivity."""
    sigma = gaussian_sigma(math.sqrt(2), 0.5, 1e-5)
    exact = gaussian_delta(0.5, math.sqrt(2), sigma)
    assert exact == pytest.approx(_hockey_stick_by_quadrature(0.5, math.sqrt(2) / sigma), rel=1e-9)
    assert exact < 1e-5
    dp_accounting = pytest.importorskip("dp_accounting")
    from dp_accounting.pld import pld_privacy_accountant

    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    acc.compose(dp_accounting.GaussianDpEvent(noise_multiplier=sigma / math.sqrt(2)))
    assert acc.get_delta(0.5) == pytest.approx(exact, rel=1e-3)  # PLD is pessimistic by its discretization only


def test_logistic_label_sensitivity_and_isotropic_projected_noise():
    """For ∇_W ℓ = (softmax(Wx) − e_k) xᵀ: max_{k,k'} ‖∇_k − ∇_k'‖ = √2‖x‖, every difference lies in L_t, and the
    suite's noise C g x̂ᵀ (C = I − 11ᵀ/K) has covariance σ² × the projector on L_t (004 Algorithm 6 (c)-(d))."""
    rng = np.random.default_rng(3)
    K, p = 4, 5
    W, x = rng.normal(size=(K, p)), rng.normal(size=p)
    s = np.exp(W @ x) / np.exp(W @ x).sum()
    grads = np.array([np.outer(s - np.eye(K)[k], x) for k in range(K)])
    diffs = [np.linalg.norm(grads[a] - grads[b]) for a in range(K) for b in range(K) if a != b]
    assert max(diffs) == pytest.approx(math.sqrt(2) * np.linalg.norm(x), rel=1e-12)
    Pi = gradient_span_projector(grads)
    C, xh = np.eye(K) - 1.0 / K, x / np.linalg.norm(x)
    A = np.kron(C, xh[:, None])  # vec(C g x̂ᵀ) = A g (row-major vec)
    assert np.allclose(A @ A.T, Pi, atol=1e-12)
    assert all(np.allclose(Pi @ (grads[a] - grads[b]).ravel(), (grads[a] - grads[b]).ravel()) for a in range(K)
               for b in range(K))


def test_paper_constant_grows_without_bound_near_delta_one():
    # 2√2 is the δ → 0 limit of the classical constant at sensitivity 2L; near δ = 1 no constant suffices
    assert paper_constant(0.999, 1e-12) < 2 * math.sqrt(2)
    cs = [paper_constant(0.5, 1 - 10.0**-j) for j in (2, 4, 6)]
    assert cs[0] < cs[1] < cs[2] and cs[2] > 100
    # C = 2√2, ε = 1/2, δ = 1 − 1e-6 at sensitivity 2L = 2: μ = 2ε/(C √ln(1/δ)) ≈ 354 and, by the Chernoff tail
    # Φ(−a) <= e^{−a²/2}, 1 − δ(ε) = Φ(−μ/2 + ε/μ) + e^ε Φ(−μ/2 − ε/μ) <= (1 + e^ε) e^{−(μ/2 − ε/μ)²/2} < 1e-6 = 1 − δ
    mu = 2 * 0.5 / (2 * math.sqrt(2) * math.sqrt(-math.log1p(-1e-6)))
    a = mu / 2 - 0.5 / mu
    assert (1 + math.exp(0.5)) * math.exp(-a * a / 2) < 1e-6
    assert gaussian_delta_complement(0.5, mu, 1.0) < 1e-6  # the module agrees: not (1/2, 1 − 1e-6)-DP


def test_product_channel_and_group_ratio_of_rr():
    rr = binary_approximate_rr_exact(3, 0)  # (3/4, 1/4)
    P = product_channel(rr, 3)
    assert len(P) == 8 and all(sum(row) == 1 for row in P)
    assert P[0][0] == Fraction(27, 64) and P[7][0] == Fraction(1, 64)
    assert group_ratio(rr, 3) == 27  # e^{3ε}: three changed labels, loss exactly 3ε


def test_group_delta_of_approximate_rr_closed_form():
    """Binary (ε, δ)-RR with p = (E + δ)/(E + 1): δ_1 = p − E(1 − p) = δ; two labels at E²:
    p² − E²(1 − p)² = δ (p + E(1 − p)) = δ (2E + δ(1 − E))/(E + 1), below Fact 14's (E + 1) δ."""
    E, d = Fraction(3), Fraction(1, 10)
    ch = binary_approximate_rr_exact(E, d)
    assert group_delta(ch, 1, E) == d
    want = d * (2 * E + d * (1 - E)) / (E + 1)
    assert group_delta(ch, 2, E) == want
    assert want < fact14_factor(E, 2)[0] * d == (E + 1) * d


def test_exact_channels_are_the_suites_channels():
    chans = exact_channels(3)
    prior = np.array([0.5, 0.3, 0.2])
    floats = {"RR K=2": RandomizedResponse(2, math.log(3)).channel_matrix(),
              "RR K=3": RandomizedResponse(3, math.log(3)).channel_matrix(),
              "RRTop-2 K=3": RRTopK(3, math.log(3), 2).channel_matrix(prior),
              "RRWithPrior K=3 (k*=2)": RRWithPrior(3, math.log(3)).channel_matrix(prior)}
    for name, P in floats.items():
        assert np.allclose(np.array(chans[name], dtype=float), P, atol=1e-12), name


def test_fact14_factor_and_refusals():
    assert fact14_factor(Fraction(3, 2), 3) == (1 + Fraction(3, 2) + Fraction(9, 4), 3 * Fraction(9, 4))
    with pytest.raises(ValueError, match="E0 must be exact"):
        fact14_factor(2.0, 2)
    with pytest.raises(ValueError, match="probability vectors"):
        group_ratio([[Fraction(1, 2), Fraction(1, 3)]], 1)
    with pytest.raises(ValueError, match="exact numbers"):
        product_channel([[0.5, 0.5]], 1)


def test_convex_sco_checks_and_their_findings():
    expected = {"004-prop13-chain": (True, ()), "004-prop12-assembly": (True, ()),
                "004-fact14-group-privacy": (True, ()), "004-lemma20-population-gap": (True, ()),
                "004-lemma15-replication": (False, ("004 lemma15 delta scaling",)),
                "004-prop11-gaussian-privacy": (False, ("004 prop11 delta near one",)),
                "004-lemma20-proof-line": (False, ("004 lemma20 proof loss",))}
    for cid, (passed, topics) in expected.items():
        r = run_check(cid, "smoke")
        assert (r.passed, tuple(f.topic for f in r.findings)) == (passed, topics), cid


def test_lemma15_printed_delta_makes_the_group_delta_exceed_one():
    """The printed δ' = C/ε' (C = 0.01, ε' = 1/100): δ' = 1 and Fact 14's δ = (e − 1)/(e^{1/100} − 1) ≈ 171 > 1;
    δ' = C ε' = 1e-4 gives (e − 1)/(e^{1/100} − 1) 1e-4 ≈ 0.0171 < 1 (the corrected reading)."""
    factor = (mpmath.e - 1) / mpmath.expm1(mpmath.mpf(1) / 100)
    assert float(factor) == pytest.approx(170.97, abs=0.01)
    r = run_check("004-lemma15-replication", "smoke")
    assert "170.97" in r.findings[0].derived and "0.0171" in r.findings[0].derived


def test_lemma20_proof_line_with_l_is_rr_bias():
    """Every label in Y_k = Y (k = K = 2), one x, e^ε = 3: E_{ỹ}[ℓ(ỹ)] − ℓ(y) = (1/4)(ℓ(y') − ℓ(y)) for RR, so with
    ℓ = (0, 1) and P(y = 0) = 1 the printed line gives 1/4 while Lemma 20's left side is 0 (Lemma 18: ℓ̃ unbiased)."""
    from proofs_checks.exact import rr_top_k_channel_exact
    from proofs_checks.proof_steps.convex_sco import _lemma20_gap

    P, priors, losses = [[Fraction(1), Fraction(0)]], [[2, 1]], [[Fraction(0), Fraction(1)]]
    gap, outside = _lemma20_gap(P, priors, losses, 2, Fraction(3))
    assert (gap, outside) == (0, 0)
    C = rr_top_k_channel_exact(priors[0], 2, 3)
    assert abs(losses[0][0] - sum(C[0][z] * losses[0][z] for z in range(2))) == Fraction(1, 4)
