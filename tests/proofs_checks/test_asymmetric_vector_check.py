"""The asymmetric vector mechanism's record and verifier (proofs_checks.mechanisms.asymmetric_vector).

Exact values: the headline loss ε (p = 1/2, q = 1/(e^ε + 1): ln[p(1-q)/(q(1-p))] = ε), the planted bugs' 2ε
and ε + ln 3, the over-private variant's ε/2, each derived by hand in the module and, at ε = ln 3 (q = 1/4,
rational), confirmed by an enumeration of the channel in fractions written here.
"""

import math
from fractions import Fraction

import pytest

from proofs_checks.catalogue import record_for
from proofs_checks.dp import check_label_dp, is_tight
from proofs_checks.mechanisms.asymmetric_vector import (AsymmetricVectorDoubleExponent, AsymmetricVectorHalfExponent,
                                                        AsymmetricVectorKeepThreeQuarters, verify_asymmetric_vector)
from simulations.mechanisms import AsymmetricVectorMechanism, VectorMechanism


def _fraction_loss(K, p, q):
    """max over (y, y', z) of P(z|y)/P(z|y') for independent bits (p on the label's bit, q elsewhere), exact."""
    def prob(y, c):
        return math.prod((p if j == y else q) if (c >> j) & 1 else 1 - (p if j == y else q) for j in range(K))
    return max(prob(y, c) / prob(y2, c) for y in range(K) for y2 in range(K) if y != y2 for c in range(2 ** K))


@pytest.mark.parametrize("K", [2, 3, 5, 10])
@pytest.mark.parametrize("eps", [0.25, 1.0, 3.0, 9.0])
def test_verifier_finds_epsilon_by_every_route(K, eps):
    res = check_label_dp(AsymmetricVectorMechanism(K, eps), eps)
    assert res.holds and is_tight(res.epsilon_actual, eps)
    for route in ("closed_form", "factorized_generic", "brute_force"):
        assert is_tight(res.witness[route], eps), route
    assert not check_label_dp(AsymmetricVectorMechanism(K, eps), 0.99 * eps).holds


@pytest.mark.parametrize("K", [13, 80])
def test_large_K_skips_the_routes_it_cannot_afford(K):
    res = verify_asymmetric_vector(AsymmetricVectorMechanism(K, 1.5), 1.5, 0.0)
    assert res.holds and is_tight(res.epsilon_actual, 1.5)
    assert "brute_force" not in res.witness and "skipped" in res.explanation
    assert ("factorized_generic" in res.witness) == (K <= 64)


def test_fraction_enumeration_at_eps_ln3():
    # ε = ln 3: q = 1/4. Correct: ratio 3 = e^ε. Planted bugs: q = 1/(9 + 1) -> 9 = e^(2ε);
    # p = 3/4, q = 1/4 -> 9 = 3 e^ε; over-private q = 1/(√3 + 1) is irrational, so it is checked at ε = 2 ln 3, where its
    # q = 1/(e^(ε/2) + 1) = 1/4 and its loss is the correct channel's ln 3 = ε/2.
    K, eps = 3, math.log(3)
    assert _fraction_loss(K, Fraction(1, 2), Fraction(1, 4)) == 3
    assert _fraction_loss(K, Fraction(1, 2), Fraction(1, 10)) == 9
    assert _fraction_loss(K, Fraction(3, 4), Fraction(1, 4)) == 9
    cases = ((AsymmetricVectorMechanism(K, eps), math.log(3)), (AsymmetricVectorDoubleExponent(K, eps), math.log(9)),
             (AsymmetricVectorKeepThreeQuarters(K, eps), math.log(9)),
             (AsymmetricVectorHalfExponent(K, 2 * eps), math.log(3)))
    for mech, exact in cases:
        assert verify_asymmetric_vector(mech, eps, 0.0).epsilon_actual == pytest.approx(exact, rel=1e-12), mech


@pytest.mark.parametrize("eps", [0.1, 0.5, 2.0])
def test_planted_bugs_exact_wrong_losses(eps):
    res = check_label_dp(AsymmetricVectorDoubleExponent(5, eps), eps)
    assert not res.holds and res.epsilon_actual == pytest.approx(2 * eps, rel=1e-12)
    res = check_label_dp(AsymmetricVectorKeepThreeQuarters(5, eps), eps)
    assert not res.holds and res.epsilon_actual == pytest.approx(eps + math.log(3), rel=1e-12)
    res = check_label_dp(AsymmetricVectorHalfExponent(5, eps), eps)  # over-private: holds, but ε is not attained
    assert res.holds and res.epsilon_actual == pytest.approx(eps / 2, rel=1e-12)
    assert not is_tight(res.epsilon_actual, eps)


def test_the_record_dispatches_subclasses_and_names_its_source():
    rec = record_for(AsymmetricVectorMechanism(3, 1.0))
    assert rec.source.startswith("002 Limitations") and "suite's own" in rec.source
    assert record_for(AsymmetricVectorKeepThreeQuarters(3, 1.0)) is rec
    assert record_for(VectorMechanism(3, 1.0)) is not rec  # the symmetric one keeps its own record
    assert [b.loss(1.0) for b in rec.planted_bugs] == [2.0, 1.0 + math.log(3)]


def test_verifier_reports_a_broken_bit_pair():
    # log-probabilities of a bit that do not sum to 1: the verifier says so and does not pass the mechanism.
    class Broken(AsymmetricVectorMechanism):
        __slots__ = ()

        def log_bit_probabilities(self):
            return math.log(0.5), math.log(0.4), math.log(0.25), math.log(0.75)

    res = verify_asymmetric_vector(Broken(3, 1.0), 10.0, 0.0)
    assert not res.holds and "NOT the two outcomes" in res.explanation
