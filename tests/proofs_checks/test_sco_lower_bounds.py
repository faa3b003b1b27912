"""004 Appendix F lower bounds on their construction (proofs_checks.sco_lower_bounds), against brute force.

Expected values come from 004's formulas written out here, or from enumerating every random outcome of the
algorithm (randomized-response signs, sample positions) in exact arithmetic, never from the module itself.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from proofs_checks.sco_lower_bounds import (fact14_delta, lemma15_bound, lemma16_erm_privacy, lemma16_sco_privacy,
                                            lp_rr_sgd_excess, majority_excess, prop12_bound, prop13_bound,
                                            prop13_chain, rr_keep, sco_majority_excess)

LN3 = math.log(3)  # e^ε = 3: randomized response keeps a sign with 3/4 exactly


def test_prop13_bound_is_the_proofs_last_display():
    # 004 Proposition 13: (DL/(2√n)) (1 − √((e^ε + δ)/(e^ε + 1))); e^ε = 3, δ = 1/5, n = 9, D = 2, L = 3
    want = mpmath.mpf(2 * 3) / (2 * 3) * (1 - mpmath.sqrt(mpmath.mpf(3.2) / 4))
    assert prop13_bound(LN3, 0.2, 9, D=2.0, L=3.0) == pytest.approx(float(want), rel=1e-13)
    assert prop13_bound(LN3, 1.0, 9) == 0.0  # δ = 1: vacuous


def _noisy_erm_by_enumeration(m: int, keep: Fraction):
    """E[excess], E√|I| of ŵ = (D/2) z/√m (D = L = 1) over all 2^m right/wrong patterns, exactly (sqrt in mpmath)."""
    excess, e_sqrt = mpmath.mpf(0), mpmath.mpf(0)
    for right in itertools.product((True, False), repeat=m):
        prob = math.prod(keep if r else 1 - keep for r in right)
        I = sum(right)
        # L(ŵ, S) = −(1/m) Σ ỹ_i ŵ_i = −(1/(2m√m)) (I − (m − I)); L(w*, S) = −1/(2√m)
        loss = -mpmath.mpf(I - (m - I)) / (2 * m * mpmath.sqrt(m))
        excess += mpmath.mpf(prob.numerator) / prob.denominator * (loss + 1 / (2 * mpmath.sqrt(m)))
        e_sqrt += mpmath.mpf(prob.numerator) / prob.denominator * mpmath.sqrt(I)
    return excess, e_sqrt


@pytest.mark.parametrize("m", [1, 2, 5, 8])
@pytest.mark.parametrize("delta", [Fraction(0), Fraction(1, 10)])
def test_prop13_chain_against_enumeration(m, delta):
    keep = (3 + delta) / 4  # (e^ε + δ)/(e^ε + 1), e^ε = 3
    excess, e_sqrt = _noisy_erm_by_enumeration(m, keep)
    c = prop13_chain(LN3, float(delta), m)
    assert c["excess"] == pytest.approx(float(excess), rel=1e-12)
    assert c["step15"] == pytest.approx(float(1 / (2 * mpmath.sqrt(m)) - e_sqrt / (2 * m)), rel=1e-12)
    assert c["excess"] >= c["step15"] >= c["jensen"] - 1e-15
    assert c["jensen"] == pytest.approx(c["bound"], rel=1e-12)  # (ε, δ)-RR attains (13): (14) is an equality
    assert rr_keep(LN3, float(delta)) == pytest.approx(float(keep), rel=1e-15)


def _sgd_by_enumeration(m: int, epsilon: float, method: str, D=1.0, L=1.0):
    """004 Algorithm 5 run literally (K = 2, eq. (7), projection on the ball) for every sign pattern, averaged."""
    E = math.exp(epsilon) if method == "rr" else None
    keep = E / (E + 1) if method == "rr" else 1.0
    total = 0.0
    for right in itertools.product((True, False), repeat=m):
        prob = math.prod(keep if r else 1 - keep for r in right)
        if prob == 0:
            continue
        w = np.zeros(m)
        for t in range(1, m + 1):
            z = 1 if right[t - 1] else -1  # ỹ_t = +1 without loss of generality
            grads = {1: -L * np.eye(m)[t - 1], -1: L * np.eye(m)[t - 1]}  # ∇(−L y⟨w, x⟩) for y = ±1
            if method == "rr":
                g = (E + 1) / (E - 1) * (grads[z] - (grads[1] + grads[-1]) / (E + 1))  # eq. (7), K = 2
                eta = D * epsilon / (6 * 2 * L * math.sqrt(t))  # Theorem 9
            else:
                g, eta = grads[z], D / (L * math.sqrt(t))
            w = w - eta * g
            nrm = np.linalg.norm(w)
            if nrm > D / 2:
                w *= D / 2 / nrm
        total += prob * (-L / m * w.sum() + D * L / (2 * math.sqrt(m)))
    return total


@pytest.mark.parametrize("m,epsilon,method", [(3, 0.5, "rr"), (6, 1.0, "rr"), (5, 5.0, "rr"), (7, None, "nonprivate")])
def test_lp_rr_sgd_excess_against_the_algorithm(m, epsilon, method):
    # ε = 5 and the non-private steps make the ball projection active: the closed form must still match
    assert lp_rr_sgd_excess(epsilon, m, method=method) == pytest.approx(_sgd_by_enumeration(m, epsilon, method), abs=1e-12)


def test_lp_rr_sgd_projection_is_exercised_and_refusals():
    # non-private: a_1 = η_1 L = D = 2R, so the first step already hits the ball; w = (1/2) e_1 after step 1
    assert lp_rr_sgd_excess(None, 1, method="nonprivate") == pytest.approx(0.0, abs=1e-15)
    with pytest.raises(ValueError, match="method must be one of"):
        lp_rr_sgd_excess(1.0, 3, method="normal")
    with pytest.raises(ValueError, match="m must be"):
        lp_rr_sgd_excess(1.0, 0)


def test_fact14_delta_and_lemma15_bound_by_hand():
    assert fact14_delta(math.log(2), 3, 0.01) == pytest.approx((8 - 1) / (2 - 1) * 0.01, rel=1e-14)
    # Lemma 15 at ε' = 1/4, δ' = 0.001, m = 8: k = 4, group δ = (e − 1)/(e^{1/4} − 1) 0.001, Prop. 13 at ε = 1
    group = (math.e - 1) / math.expm1(0.25) * 0.001
    want = 1 / (2 * math.sqrt(8)) * (1 - math.sqrt((math.e + group) / (math.e + 1)))
    assert lemma15_bound(0.25, 0.001, 8) == pytest.approx(want, rel=1e-12)
    assert lemma15_bound(1 / 3, 0.0, 5) == pytest.approx(prop13_bound(1.0, 0.0, 5), rel=1e-12)  # k = ⌊3⌋
    assert lemma15_bound(0.01, 1.0, 5) == 0.0  # group δ >= 1: vacuous
    with pytest.raises(ValueError, match="epsilon_prime"):
        lemma15_bound(1.5, 0.0, 5)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 7])
def test_majority_excess_against_enumeration(k):
    keep = Fraction(3, 4)
    gain = Fraction(0)  # E[sign(Σ_j z_j ỹ)] over the 2^k patterns
    for right in itertools.product((True, False), repeat=k):
        s = sum(1 if r else -1 for r in right)
        gain += math.prod(keep if r else 1 - keep for r in right) * (s > 0) - \
            math.prod(keep if r else 1 - keep for r in right) * (s < 0)
    want = 1 / (2 * math.sqrt(3)) * (1 - float(gain))  # m = 3 points, D = L = 1
    assert majority_excess(LN3, 3, k) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("m,n", [(1, 3), (2, 3), (3, 4)])
def test_sco_majority_excess_against_enumeration(m, n):
    keep, pos = Fraction(3, 4), Fraction(1, m)
    gain = Fraction(0)  # per point 0, by symmetry the same for every point
    for hits in itertools.product(range(m), repeat=n):
        p_hits = pos**n
        N = sum(h == 0 for h in hits)
        for right in itertools.product((True, False), repeat=N):
            s = sum(1 if r else -1 for r in right)
            gain += p_hits * math.prod(keep if r else 1 - keep for r in right) * ((s > 0) - (s < 0))
    assert sco_majority_excess(LN3, m, n) == pytest.approx(1 / (2 * math.sqrt(m)) * (1 - float(gain)), rel=1e-12)


def test_lemma16_round_trip_and_prop12_assembly():
    eps_sco, delta_sco = lemma16_sco_privacy(0.5, 1e-4)
    ell = math.log(2 / 1e-4)
    assert (eps_sco, delta_sco) == pytest.approx((0.5 / (4 * ell), math.exp(-0.5) * 1e-4 / (8 * ell)), rel=1e-14)
    eps_back, delta_erm = lemma16_erm_privacy(0.5, delta_sco)
    assert (eps_back, delta_erm) == pytest.approx((eps_sco, 1e-4), rel=1e-10)
    r = prop12_bound(8, 1e-7, 128)
    assert r["m"] == 16 and r["bound"] == pytest.approx(lemma15_bound(1 / 8, r["delta_erm"], 16, 8), rel=1e-14)
    # Ω̃(DL/√(εn)): with kε_E = 1 the bound is exactly c DL/(4 √(ε n ln(2/δ_E))), c = 1 − √((e + δ_k)/(e + 1))
    c = 1 - math.sqrt((math.e + fact14_delta(1 / 8, 8, r["delta_erm"])) / (math.e + 1))
    assert r["bound"] == pytest.approx(c / (4 * math.sqrt(r["epsilon"] * math.log(2 / r["delta_erm"]) * 128)), rel=1e-9)
    with pytest.raises(ValueError, match="multiple of k"):
        prop12_bound(3, 1e-7, 128)
    with pytest.raises(ValueError, match="delta_sco must leave"):
        lemma16_erm_privacy(0.5, 0.1)
