"""Pieces of the 004 learning experiments: the ε₉₀ interpolation, the exact excess loss of the
logistic law, and its label sampler.

Expected values: hand-computed interpolation (2√2), KL(p || uniform) = log K - H(p) computed
independently, and a z-test of the sampled labels against softmax(W* x) (|z| < 4.5 at a fixed seed).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulations.experiments.learning.lp_mst_digits import eps_at_fraction, method_accuracy
from simulations.experiments.learning.lp_rr_sgd import K, excess_loss, sample_law, sample_x, w_star


def test_eps_at_fraction():
    assert math.isclose(eps_at_fraction([1, 2, 4], [0.1, 0.5, 0.9], 0.7), 2 * math.sqrt(2), rel_tol=1e-12)
    assert eps_at_fraction([1, 2, 4], [0.1, 0.5, 0.6], 0.7) == math.inf
    assert eps_at_fraction([1, 2, 4], [0.8, 0.5, 0.9], 0.7) == 1.0
    # first crossing, not the last
    assert math.isclose(eps_at_fraction([1, 2, 4, 8], [0.1, 0.9, 0.6, 0.95], 0.5), 2 ** 0.5, rel_tol=1e-12)


def test_excess_loss_is_exact_kl():
    rng = np.random.default_rng(0)
    X = sample_x(500, 6, rng)
    assert abs(excess_loss(w_star(6), X)) < 1e-15
    U = X @ w_star(6).T
    P = np.exp(U - U.max(1, keepdims=True))
    P /= P.sum(1, keepdims=True)
    ref = np.mean([math.log(K) + sum(p * math.log(p) for p in row) for row in P])
    assert math.isclose(excess_loss(np.zeros((K, 6)), X), ref, rel_tol=1e-12)
    assert np.allclose(np.linalg.norm(X, axis=1), 1.0)


def test_sample_law_labels_follow_softmax():
    X, y = sample_law(40000, 5, np.random.default_rng(1))
    U = X @ w_star(5).T
    P = np.exp(U - U.max(1, keepdims=True))
    P /= P.sum(1, keepdims=True)
    for k in range(K):
        r = (y == k) - P[:, k]
        z = r.sum() / math.sqrt((P[:, k] * (1 - P[:, k])).sum())
        assert abs(z) < 4.5, (k, z)


def test_unknown_method():
    with pytest.raises(ValueError, match="method must be one of"):
        method_accuracy("PATE", 1.0, np.random.default_rng(0))
