"""Bad inputs to the exact checks, the auditor, the LP and the privacy profiles raise a ValueError naming the argument."""

import importlib
import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks import audit, dp, exact, planted_bugs, stability
from proofs_checks.mechanisms import _common, vector
from simulations.mechanisms import exponential

pp = importlib.import_module("proofs_checks.privacy_profile")
lp = importlib.import_module("proofs_checks.rrwithprior_lp")

CHANNEL = np.array([[0.7, 0.3], [0.3, 0.7]])
NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("eps", [NAN, INF, -1.0, "1"])
def test_check_channel_epsilon(eps):
    with pytest.raises(ValueError, match="epsilon"):
        dp.check_channel(CHANNEL, eps)


def test_check_channel_epsilon_zero_is_a_valid_claim():
    # ln(0.7/0.3) > 0, so the claim eps = 0 is checked (and violated), not refused
    assert not dp.check_channel(CHANNEL, 0.0).holds
    assert dp.check_channel(np.full((2, 2), 0.5), 0.0).holds


@pytest.mark.parametrize("k, n, alpha, arg", [(-1, 10, 0.05, "k"), (11, 10, 0.05, "k"), (0, 0, 0.05, "n"),
                                              (2.5, 10, 0.05, "k"), (5, 10, 0.0, "alpha"), (5, 10, 1.0, "alpha"),
                                              (5, 10, NAN, "alpha")])
@pytest.mark.parametrize("fn", [audit.clopper_pearson_lower, audit.clopper_pearson_upper])
def test_clopper_pearson_guards(fn, k, n, alpha, arg):
    with pytest.raises(ValueError, match=f"{arg} must"):
        fn(k, n, alpha)


def test_clopper_pearson_exact_edge_values():
    # k = n: lower bound solves p^n = alpha exactly; k = 0: upper bound solves (1 - p)^n = alpha
    assert audit.clopper_pearson_lower(10, 10, 0.05) == pytest.approx(0.05 ** 0.1, rel=1e-12)
    assert audit.clopper_pearson_upper(0, 10, 0.05) == pytest.approx(1 - 0.05 ** 0.1, rel=1e-12)


def test_audit_epsilon_rng_and_events():
    def draw(n, rng):
        return rng.integers(0, 2, n)

    with pytest.raises(ValueError, match="rng"):
        audit.audit_epsilon(draw, draw, audit.output_events(2), 10, None)
    with pytest.raises(ValueError, match="num_outputs"):
        audit.output_events(0)


@pytest.mark.parametrize("n, k", [(-1, 2), (3, 0), (2.0, 2)])
def test_compositions_guard(n, k):
    with pytest.raises(ValueError):
        _common.compositions(n, k)


@pytest.mark.parametrize("s, n, K", [(NAN, 3, 2), (0.5, 0, 2), (0.5, 3, 1), (-1.0, 3, 2)])
def test_exponential_worst_loss_guard(s, n, K):
    with pytest.raises(ValueError):
        exponential.exponential_worst_loss(s, n, K)


def test_exponential_worst_loss_n1_is_half_epsilon():
    # docstring claim, derived by hand: n = 1 gives s + ln((K-1+e^s)/(K-2+e^s+1)) = s
    assert exponential.exponential_worst_loss(0.75, 1, 3) == pytest.approx(0.75, rel=1e-14)


def test_privacy_profile_helpers_guards():
    with pytest.raises(ValueError, match="p and q"):
        pp.hockey_stick([0.5, 0.5], [1.0], 1.0)
    with pytest.raises(ValueError, match="eps"):
        pp.hockey_stick([0.5, 0.5], [0.5, 0.5], NAN)
    with pytest.raises(ValueError, match="loss"):
        pp.laplace_profile(-1.0, 1.0)
    with pytest.raises(ValueError, match="eps"):
        pp.laplace_profile(1.0, [0.0, NAN])
    with pytest.raises(ValueError, match="u must"):
        stability.plain_laplace_pair_delta(0.0, 1.0)


def test_lp_helpers_guards():
    with pytest.raises(ValueError, match="eps"):
        lp.lp1_polytope(3, NAN)
    with pytest.raises(ValueError, match="method"):
        lp.lp1_polytope(3, 1.0, method="zz")
    with pytest.raises(ValueError, match="num_classes"):
        lp.lp1_polytope(0, 1.0)
    with pytest.raises(ValueError, match="eps"):
        lp.polish_channel(CHANNEL, NAN)
    with pytest.raises(ValueError, match="channel"):
        lp.polish_channel([[NAN, 1.0]], 1.0)


def test_exact_channels_guards():
    with pytest.raises(ValueError, match="num_classes must"):
        exact.rr_channel_exact(0, 2)
    with pytest.raises(ValueError, match="E must"):
        exact.rr_channel_exact(3, -1)
    with pytest.raises(ValueError, match="num_classes must"):
        exact.vector_channel_exact(0, 2)
    with pytest.raises(ValueError, match="R must"):
        exact.vector_channel_exact(2, Fraction(0))
    # still exact for valid input: 004 eq. (1), E = 2, K = 3 -> 1/2 on the diagonal
    assert exact.rr_channel_exact(3, 2)[0][0] == Fraction(1, 2)


def test_planted_bug_losses_and_factorized_loss_guards():
    with pytest.raises(ValueError, match="epsilon"):
        planted_bugs.vector_full_bit_epsilon_loss(NAN)
    with pytest.raises(ValueError, match="k must"):
        planted_bugs.rr_top_k_short_keep_loss(1.0, 1)
    with pytest.raises(ValueError, match="epsilon"):
        planted_bugs.rr_top_k_uniform_fallback_loss(INF)
    with pytest.raises(ValueError, match="bit_probabilities"):
        vector.factorized_vector_loss([[1.5, -0.5]])
    with pytest.raises(ValueError, match="bit_probabilities"):
        vector.factorized_vector_loss([[NAN, 0.5], [0.5, 0.5]])
    assert planted_bugs.rr_top_k_uniform_fallback_loss(1.0) == pytest.approx(math.log(1 + math.e), rel=1e-15)


@pytest.mark.parametrize("k", [0, 4, 1.0])
def test_top_k_exact_k_range(k):
    with pytest.raises(ValueError, match="k must"):
        exact.top_k_exact([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], k)


def test_stability_profile_rejects_empty_dataset():
    from proofs_checks import stability_profile
    from simulations.mechanisms import StabilityHistogram
    with pytest.raises(ValueError, match="dataset_size"):
        stability_profile(StabilityHistogram(1.0, 1e-5), [1.0], dataset_size=0)


def test_audit_rejects_identical_labels():
    from proofs_checks import audit_label_randomizer
    from proofs_checks.audit import output_events
    from simulations.mechanisms import RandomizedResponse
    with pytest.raises(ValueError, match="y_prime"):
        audit_label_randomizer(RandomizedResponse(3, 1.0), 1, 1, output_events(3), 100, np.random.default_rng(0))
