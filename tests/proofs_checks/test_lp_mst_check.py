"""Exact ε-label-DP check of LP-MST (004 Observation 4) on tiny data sets.

Expected values: Observation 4 (loss <= ε; = ε since stage 1 is plain RR with K >= 2, whose loss
is exactly ε); a hand-derived distribution for a two-example case; and the planted leak (priors
from true labels), whose loss is infinite because a one-hot prior makes RRWithPrior copy the
earlier example's true label deterministically (k* = 1).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from proofs_checks.lp_mst_check import check_lp_mst, lp_mst_log_probabilities
from simulations.learning import LPMST, SoftKNNClassifier


def test_two_examples_match_hand_derivation():
    """Stage 1: example 0 by RR; stage 2: 1-NN prior = one-hot(z_0), so k* = 1 and z_1 = z_0.
    Hence P(z_0, z_1 | y_0, y_1) = RR(z_0 | y_0) * 1[z_1 = z_0]."""
    eps, K = 0.7, 3
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=K), num_classes=K, epsilon=eps, num_stages=2)
    logp = lp_mst_log_probabilities(est, np.array([[0.0], [1.0]]), np.array([0, 1]))
    E = math.exp(eps)
    for (y0, y1), (c, (z0, z1)) in itertools.product(itertools.product(range(K), repeat=2),
                                                   enumerate(itertools.product(range(K), repeat=2))):
        rr = E / (E + K - 1) if z0 == y0 else 1 / (E + K - 1)
        expected = rr if z1 == z0 else 0.0
        assert math.isclose(math.exp(logp[y0, y1, c]), expected, rel_tol=1e-12, abs_tol=0.0)


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_lp_2st_knn_is_exactly_eps(eps):
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=2, num_classes=3), num_classes=3, epsilon=eps, num_stages=2)
    res = check_lp_mst(est, np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 1, 0, 1]))
    assert res.holds and res.tight, res
    assert res.n_labellings == 81 and res.n_outputs == 81
    y, y2, z = res.witness
    assert sum(a != b for a, b in zip(y, y2)) == 1  # neighbours differ in one label


def test_lp_3st_logistic_with_filtering_and_temperature():
    est = LPMST(learner=LogisticRegression(C=10.0), num_classes=2, epsilon=1.0, num_stages=3, temperature=0.5,
                filter_labels=True)
    res = check_lp_mst(est, np.arange(6.0)[:, None], np.array([0, 1, 2, 0, 1, 2]))
    assert res.holds and res.tight, res


def test_planted_leak_is_caught_with_infinite_loss():
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=1.0, num_stages=2)
    res = check_lp_mst(est, np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 1, 0, 1]), leak="true_labels")
    assert not res.holds and res.loss == math.inf


def test_guards():
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=1.0, num_stages=2)
    with pytest.raises(ValueError, match="too many for exact enumeration"):
        check_lp_mst(est, np.zeros((9, 1)), np.array([0, 1] * 4 + [0]))
    with pytest.raises(ValueError, match="stages must use every stage"):
        check_lp_mst(est, np.zeros((3, 1)), np.array([0, 0, 0]))
    with pytest.raises(ValueError, match="leak must be one of"):
        check_lp_mst(est, np.zeros((2, 1)), np.array([0, 1]), leak="yes")
