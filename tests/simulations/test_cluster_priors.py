"""Cluster priors (004 Algorithm 4): histograms per cluster, normalization, the ε split, guards.

Expected histograms are counted here with a Python loop; at ε_p = 60 the discrete Laplace noise is
0 with probability tanh(15)^(C K) > 1 - 1e-11, so the noisy histogram equals the exact one.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulations.learning import ClusterPriors, cluster_prior_rr, kmeans_clusters


def test_histograms_and_priors_match_counts():
    rng = np.random.default_rng(0)
    clusters = rng.integers(0, 4, size=200)
    labels = rng.integers(0, 3, size=200)
    cp = ClusterPriors(num_classes=3, epsilon_prior=60.0, random_state=rng).fit(clusters, labels)
    H = [[0] * 3 for _ in range(4)]
    for c, y in zip(clusters, labels):
        H[c][y] += 1
    np.testing.assert_array_equal(cp.noisy_histograms_, H)
    np.testing.assert_allclose(cp.priors(clusters), np.array(H, float)[clusters] / np.array(H, float)[clusters].sum(1, keepdims=True))
    np.testing.assert_array_equal(cp.predict([0, 1, 2, 3]), np.argmax(H, axis=1))


def test_noise_has_the_discrete_laplace_variance():
    """Var of dlaplace(a) = 2 e^{-a} / (1 - e^{-a})^2; 2000 x 10 counts at ε_p = 1 (a = 1/2):
    the sample variance is within 5 standard errors (fixed seed)."""
    cp = ClusterPriors(num_classes=10, epsilon_prior=1.0, random_state=np.random.default_rng(1)).fit(np.repeat(np.arange(2000), 1), np.zeros(2000, dtype=int))
    H = np.zeros((2000, 10), dtype=int)
    H[:, 0] = 1
    noise = (cp.noisy_histograms_ - H).ravel()
    a = 0.5
    var = 2 * np.exp(-a) / (1 - np.exp(-a)) ** 2
    m4 = noise.astype(float) ** 4
    se = np.sqrt((m4.mean() - var ** 2) / noise.size)
    assert abs(noise.var() - var) < 5 * se
    assert abs(noise.mean()) < 5 * np.sqrt(var / noise.size)


def test_cluster_prior_rr_with_pure_clusters_keeps_labels():
    # one class per cluster, large ε_p: the prior is one-hot, RRWithPrior keeps the label (k* = 1)
    clusters = np.repeat(np.arange(5), 40)
    labels = clusters % 3
    z, P = cluster_prior_rr(clusters, labels, num_classes=3, epsilon=61.0, epsilon_prior=60.0,
                            rng=np.random.default_rng(2))
    np.testing.assert_array_equal(z, labels)
    np.testing.assert_array_equal(P.argmax(axis=1), labels)


def test_kmeans_is_reproducible_and_label_free():
    rng = np.random.default_rng(3)
    F = np.concatenate([rng.normal(0, 0.1, (30, 2)), rng.normal(5, 0.1, (30, 2))])
    a = kmeans_clusters(F, 2, np.random.default_rng(7))
    b = kmeans_clusters(F, 2, np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)
    assert len(set(a[:30])) == 1 and len(set(a[30:])) == 1 and a[0] != a[30]


def test_guards():
    c, y = np.zeros(10, dtype=int), np.zeros(10, dtype=int)
    with pytest.raises(ValueError, match="epsilon_prior must be < epsilon=1.0 .* got epsilon_prior=1.0"):
        cluster_prior_rr(c, y, num_classes=3, epsilon=1.0, epsilon_prior=1.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="epsilon_prior must be < epsilon=1.0 .* got epsilon_prior=2.0"):
        cluster_prior_rr(c, y, num_classes=3, epsilon=1.0, epsilon_prior=2.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"labels must lie in \[0, 3\)"):
        ClusterPriors(num_classes=3, epsilon_prior=0.5, random_state=np.random.default_rng(0)).fit(c, y + 3)
    with pytest.raises(ValueError, match="num_clusters must be <= the number of points 3"):
        kmeans_clusters(np.zeros((3, 2)), 4, np.random.default_rng(0))
