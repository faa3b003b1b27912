"""Exact profiles of multi-release pipelines (proofs_checks.accounting_check) and the label_dp_accounting experiment.

Expected values: fractions for RR products; the closed form of ternary RR for a two-example LP-2ST whose
stage 2 copies stage 1 (proofs_checks.lp_mst_check's hand derivation); the one-cluster derivation of
cluster priors' loss (max(ε_p, ε) with one label, ε_p + ε with two: see cluster_prior_profile's docstring);
PCL2b's closed-form bit probability below the threshold (proofs_checks.full_dp.pcl2b_probability_one).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.accounting_check import (cluster_prior_profile, epsilon_for_delta, lp_mst_profile,
                                            pcl2b_label_profile, product_profile)
from simulations.learning import LPMST, SoftKNNClassifier
from simulations.mechanisms import StabilityHistogram


def test_product_profile_of_binary_rr_matches_fractions():
    M = [[0.75, 0.25], [0.25, 0.75]]
    # three releases at ε = ln 3, ε' = ln 3: outputs with j ones have P = 3^{3-j}/64, Q = 3^j/64
    expected = sum(Fraction(math.comb(3, j)) * max(Fraction(0), Fraction(3 ** (3 - j) - 3 * 3 ** j, 64)) for j in range(4))
    assert math.isclose(float(product_profile(M, 3, [math.log(3)])[0]), float(expected), rel_tol=1e-12)


def test_product_profile_refuses_large_products():
    with pytest.raises(ValueError, match="too many to enumerate"):
        product_profile(np.full((2, 10), 0.1), 7, [0.0])


@pytest.mark.parametrize("eps", [0.4, 1.0])
def test_lp_mst_profile_is_ternary_rr_when_stage_two_copies(eps):
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=eps, num_stages=2)
    grid = np.linspace(0, eps, 5)
    got = lp_mst_profile(est, np.array([[0.0], [1.0]]), np.array([0, 1]), grid)
    E = math.exp(eps)
    assert np.allclose(got, (E - np.exp(grid)) / (E + 2), rtol=0, atol=1e-13)


@pytest.mark.parametrize("eps_p, eps", [(1.0, 0.5), (0.6, 1.0)])
def test_cluster_priors_one_label_is_max_two_labels_is_sum(eps_p, eps):
    assert math.isclose(cluster_prior_profile(2, 1, eps_p, eps, [0.0])[1], max(eps_p, eps), rel_tol=1e-9)
    assert math.isclose(cluster_prior_profile(2, 2, eps_p, eps, [0.0])[1], eps_p + eps, rel_tol=1e-9)


def test_cluster_profile_vanishes_at_the_loss():
    d, loss = cluster_prior_profile(2, 2, 1.0, 0.5, [0.0, 1.5])
    assert d[0] > 0.1 and d[1] < 1e-15 and math.isclose(loss, 1.5, rel_tol=1e-9)


def test_pcl2b_one_point_cell_is_the_closed_form_bit():
    """One point: k = 0 gives P(h = 1) = 0, k = 1 the closed form e^{(2 - 2τ)/b}/4 - e^{(2 - 3τ)/b}/12 (c = k = 1
    below τ); Bernoulli(0) against Bernoulli(p) has hockey stick p at every ε'."""
    eps, delta = 2.0, 2 * math.exp(-1)  # b = 1, τ = 2
    mech = StabilityHistogram(eps, delta)
    b, tau = mech.scale, mech.threshold
    p = math.exp((2 - 2 * tau) / b) / 4 - math.exp((2 - 3 * tau) / b) / 12
    assert np.allclose(pcl2b_label_profile(eps, delta, 1, [0.0, 1.0, 5.0]), p, rtol=1e-10, atol=0)


def test_epsilon_for_delta_returns_zero_below_target():
    assert epsilon_for_delta(lambda e: 0.01, 0.1, high=1.0) == 0.0


def test_experiment_smoke_claims_hold_with_the_derived_numbers():
    pytest.importorskip("dp_accounting")
    from proofs_checks.experiments.label_dp_accounting import compute, plot
    from simulations.experiments.base import RunContext

    res = compute(RunContext(profile="smoke"))
    assert [c.kind for c in res.claims] == ["paper", "paper", "beyond", "paper", "beyond", "beyond", "beyond"]
    assert all(c.holds for c in res.claims), [c.detail for c in res.claims if not c.holds]
    lp, cluster = res.claims[0], res.claims[1]
    assert math.isclose(lp.measured, 1.0, rel_tol=1e-9)  # LP-2ST at ε = 1: exact loss ε (004 Observation 4)
    assert math.isclose(cluster.measured, 1.5, rel_tol=1e-9)  # ε_p + ε = 1 + 0.5, two labels in the cluster
    many = res.claims[-1]
    assert abs(many.expected - 4.306791372516507) < 1e-6 and many.expected <= many.measured <= many.expected + 0.01
    import matplotlib.pyplot as plt

    for fig in plot(res).values():
        plt.close(fig)
