"""Priors from public features: k-means clusters + a discrete-Laplace label histogram per cluster
(004 Algorithm 4), fed to RRWithPrior with the remaining budget.

Under label DP the features are public, so the clustering costs no privacy. Each cluster's label
histogram H_c gets ``dlaplace(ε_p / 2)`` noise per count (:class:`GeometricHistogram`, ε_p-label DP:
one label change moves one unit between two counts of one cluster), and the prior of every example
of cluster c is ``max(H̃_c, 0) / Σ_k max(H̃_c[k], 0)`` (uniform if no count is positive). The
labels are then privatized by RRWithPrior at ε - ε_p; by sequential composition the labels are
ε-label DP. (004 uses SSL representations; on the digits the raw pixels are the public features.)

:meth:`ClusterPriors.predict` is 004 Appendix B's accuracy measure of the histogram query alone:
test points get the arg-max of their cluster's noisy histogram (clusters fitted on train + test
features, histograms from the training labels only).

References: 004 Algorithm 4, Section 5.2, Appendix B (Figure 2).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator

from limits.validation import check_int, check_positive
from simulations.mechanisms import GeometricHistogram, RRWithPrior
from simulations.mechanisms.labels import check_labels
from simulations.seeding import check_generator

__all__ = ["ClusterPriors", "cluster_prior_rr", "kmeans_clusters"]


def kmeans_clusters(features, num_clusters: int, rng: np.random.Generator, *, n_init: int = 1) -> np.ndarray:
    """k-means cluster index (0..C-1) of each row of ``features`` (n, d); label-free (public).

    scikit-learn's ``KMeans`` (k-means++ initialization, Lloyd iterations) seeded from ``rng``.
    """
    from sklearn.cluster import KMeans  # lazy import

    C = check_int("num_clusters", num_clusters, low=1)
    rng = check_generator(rng)
    F = np.asarray(features, dtype=float).reshape(len(features), -1)
    if C > F.shape[0]:
        raise ValueError(f"num_clusters must be <= the number of points {F.shape[0]}, got num_clusters={C}")
    km = KMeans(n_clusters=C, n_init=n_init, random_state=int(rng.integers(0, 2**31 - 1)))
    return km.fit_predict(F).astype(np.int64)


class ClusterPriors(BaseEstimator):
    """004 Algorithm 4: noisy per-cluster label histograms turned into priors.

    Parameters
    ----------
    num_classes : int >= 2
    epsilon_prior : float > 0
        ε_p, the budget of the histogram query.

    Attributes (after ``fit``)
    --------------------------
    noisy_histograms_ : (C, K) int64, H̃_c
    cluster_priors_ : (C, K), p_c (step (c))
    """

    def __init__(self, *, num_classes: int, epsilon_prior: float):
        self.num_classes = num_classes
        self.epsilon_prior = epsilon_prior

    def fit(self, X, y, rng: np.random.Generator, *, num_clusters: int | None = None):
        """X (n,) cluster index of each labelled example; y (n,) labels in [0, K). Returns self."""
        check_int("num_classes", self.num_classes, low=2)
        check_positive("epsilon_prior", self.epsilon_prior)
        rng = check_generator(rng)
        labels = check_labels(y, self.num_classes)
        clusters = np.asarray(X)
        if clusters.shape != labels.shape or (clusters.size and (not np.issubdtype(clusters.dtype, np.integer)
                                                                 or clusters.min() < 0)):
            raise ValueError(f"X (the cluster indices) must be non-negative integers, one per label, "
                             f"got shape {clusters.shape}")
        C = int(clusters.max()) + 1 if num_clusters is None else check_int("num_clusters", num_clusters, low=1)
        H = np.zeros((C, self.num_classes), dtype=np.int64)
        np.add.at(H, (clusters, labels), 1)  # step 4(a)
        self.noisy_histograms_ = GeometricHistogram(self.epsilon_prior).sample(H, rng)  # step 4(b)
        self.cluster_priors_ = GeometricHistogram.priors(self.noisy_histograms_)  # step 4(c)
        return self

    def priors(self, clusters) -> np.ndarray:
        """Step 4(d): the prior of each example from its cluster, (m,) -> (m, K)."""
        return self.cluster_priors_[np.asarray(clusters, dtype=np.int64)]

    def predict(self, X) -> np.ndarray:
        """Arg-max of the cluster's noisy histogram (004 Appendix B's accuracy measure), (m,) -> (m,)."""
        return np.argmax(self.noisy_histograms_[np.asarray(X, dtype=np.int64)], axis=1).astype(np.int64)


def cluster_prior_rr(clusters, labels, *, num_classes: int, epsilon: float, epsilon_prior: float,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Privatize labels with RRWithPrior at ε - ε_p under cluster priors bought with ε_p.

    Returns ``(privatized labels (n,), priors (n, K))``; the pair is ε-label DP (composition).
    """
    epsilon = check_positive("epsilon", epsilon)
    epsilon_prior = check_positive("epsilon_prior", epsilon_prior)
    if epsilon_prior >= epsilon:
        raise ValueError(f"epsilon_prior must be < epsilon={epsilon} (the rest goes to RRWithPrior), "
                         f"got epsilon_prior={epsilon_prior}")
    cp = ClusterPriors(num_classes=num_classes, epsilon_prior=epsilon_prior).fit(clusters, labels, rng)
    P = cp.priors(clusters)
    z = RRWithPrior(num_classes=num_classes, epsilon=epsilon - epsilon_prior).sample(labels, rng, prior=P)
    return z, P
