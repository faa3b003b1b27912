"""The local-full-DP mechanisms of :mod:`simulations.mechanisms.joint` are exactly ε-DP under 003 Remark 1(2)'s
relation (any record (cell, label) replaced by any other), checked by the suite's exact channel checker; a
label-only randomizer that releases the cell in the clear is caught (infinite loss)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_checks.channels import check_channel
from simulations.mechanisms.joint import joint_rr_channel, joint_vector_channel
from simulations.mechanisms.randomized_response import RandomizedResponse


@pytest.mark.parametrize("G, K, eps", [(3, 2, 1.0), (2, 3, 0.3), (1, 2, 2.0)])
def test_joint_rr_is_exactly_eps_full_dp(G, K, eps):
    """Every pair of rows of the joint channel is a pair of neighbouring records; the worst ratio is the
    diagonal over an off-diagonal entry, e^ε exactly (004 eq. (1) with K -> G·K)."""
    res = check_channel(joint_rr_channel(G, K, eps), eps)
    assert res.holds and res.epsilon_actual == pytest.approx(eps, abs=1e-12)


@pytest.mark.parametrize("G, K, eps", [(2, 2, 1.0), (3, 2, 0.5)])
def test_joint_vector_mechanism_is_exactly_eps_full_dp(G, K, eps):
    """Two different records differ in two bits, each with likelihood ratio e^(ε/2) (003 eq. (12)): loss ε."""
    res = check_channel(joint_vector_channel(G, K, eps), eps)
    assert res.holds and res.epsilon_actual == pytest.approx(eps, abs=1e-12)


def test_label_only_randomizer_with_clear_cell_is_not_full_dp():
    """Planted: randomized response on the label and the cell released as is (local *label* DP, 003 Definition 3)
    on the joint alphabet. Records in different cells have disjoint output supports: the loss is infinite."""
    G, K, eps = 3, 2, 1.0
    rr = RandomizedResponse(num_classes=K, epsilon=eps).channel_matrix()
    P = np.kron(np.eye(G), rr)  # row (cell, y) -> output (cell, y'): the cell is copied
    res = check_channel(P, eps)
    assert not res.holds and math.isinf(res.epsilon_actual)
