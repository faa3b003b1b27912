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
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_int, check_positive
from simulations.estimators._common import check_fitted
from simulations.estimators._sklearn import LabelDPEstimatorMixin
from simulations.mechanisms import GeometricHistogram, RRWithPrior
from simulations.mechanisms.labels import check_labels
from simulations.seeding import check_generator

__all__ = ["ClusterPriors", "cluster_prior_rr", "kmeans_clusters"]


def kmeans_clusters(features, num_clusters: int, rng: np.random.Generator, *, n_init: int = 1) -> np.ndarray:
    """k-means cluster index of each row of ``features``; label-free, so public under label DP.

    scikit-learn's ``KMeans`` (k-means++ initialization, Lloyd iterations) seeded from ``rng``.

    Parameters
    ----------
    features : array_like, shape (n, ...)
        Public features (flattened to rows).
    num_clusters : int
        C, 1 <= C <= n.
    rng : numpy.random.Generator or int seed
        Seeds KMeans.
    n_init : int, default 1
        KMeans restarts.

    Returns
    -------
    ndarray of int64, shape (n,)
        Cluster indices in 0..C-1.

    Raises
    ------
    ValueError
        If ``num_clusters`` < 1 or exceeds n.

    References
    ----------
    004 Algorithm 4 line 2 (clustering of the public representations).

    Examples
    --------
    >>> c = kmeans_clusters(np.array([[0.0], [0.1], [5.0], [5.1]]), 2, np.random.default_rng(0))
    >>> bool(c[0] == c[1] != c[2] == c[3])
    True
    """
    from sklearn.cluster import KMeans  # lazy import

    C = check_int("num_clusters", num_clusters, low=1)
    rng = check_generator(rng)
    F = np.asarray(features, dtype=float).reshape(len(features), -1)
    if C > F.shape[0]:
        raise ValueError(f"num_clusters must be <= the number of points {F.shape[0]}, got num_clusters={C}")
    km = KMeans(n_clusters=C, n_init=n_init, random_state=int(rng.integers(0, 2**31 - 1)))
    return km.fit_predict(F).astype(np.int64)


class ClusterPriors(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """004 Algorithm 4: noisy per-cluster label histograms turned into priors.

    Parameters
    ----------
    num_classes : int >= 2
    epsilon_prior : float > 0
        ε_p, the budget of the histogram query.
    random_state : None, int or numpy.random.Generator, default None
        Draws the noise at ``fit`` (the PRIVACY stream): a Generator is drawn from as it is, an int seeds a
        fresh one at each ``fit``.

    Attributes
    ----------
    noisy_histograms_ : ndarray of int64, shape (C, K)
        H̃_c, the label histograms plus discrete Laplace noise.
    cluster_priors_ : ndarray of float, shape (C, K)
        p_c = max(H̃_c, 0) / Σ max(H̃_c, 0) (uniform if no count is positive; step (c)).
    classes_ : ndarray, ``0..K-1``
    n_features_in_ : int, 1 (one cluster index per row)

    References
    ----------
    004 Algorithm 4, Appendix B.

    Examples
    --------
    >>> clusters, y = np.array([0, 0, 0, 1, 1]), np.array([1, 1, 0, 2, 2])
    >>> cp = ClusterPriors(num_classes=3, epsilon_prior=1.0, random_state=np.random.default_rng(0)).fit(clusters, y)
    >>> cp.noisy_histograms_.shape, cp.cluster_priors_.sum(axis=1).tolist()
    ((2, 3), [1.0, 1.0])
    """

    _index_features = True
    _label_domain = "classes"

    def __init__(self, *, num_classes: int, epsilon_prior: float, random_state=None):
        self.num_classes = num_classes
        self.epsilon_prior = epsilon_prior
        self.random_state = random_state

    def fit(self, X, y, *, num_clusters: int | None = None):
        """Count the labels of each cluster and release the counts with discrete Laplace noise.

        Parameters
        ----------
        X : array_like of int, shape (n,)
            Cluster index of each labelled example (from :func:`kmeans_clusters`).
        y : array_like of int, shape (n,)
            Labels in [0, K).
        num_clusters : int or None, default None
            C; None: ``max(X) + 1``.

        Returns
        -------
        ClusterPriors
            self, with ``noisy_histograms_`` and ``cluster_priors_``.

        Raises
        ------
        ValueError
            If ``num_classes`` < 2, ``epsilon_prior`` <= 0, ``random_state`` is invalid, the labels or
            cluster indices are invalid, or ``num_clusters`` < 1.

        References
        ----------
        004 Algorithm 4 steps 4(a)-(c).

        Examples
        --------
        >>> clusters, y = np.array([0, 0, 0, 1, 1]), np.array([1, 1, 0, 2, 2])
        >>> cp = ClusterPriors(num_classes=3, epsilon_prior=1.0, random_state=np.random.default_rng(0)).fit(clusters, y)
        >>> int(cp.noisy_histograms_.shape[0])
        2
        """
        X, y = self._check_input(X, y)
        check_int("num_classes", self.num_classes, low=2)
        check_positive("epsilon_prior", self.epsilon_prior)
        rng = self._random_generator()
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
        self.classes_, self.n_features_in_ = np.arange(self.num_classes), 1
        return self

    def priors(self, clusters) -> np.ndarray:
        """The prior of each example: its cluster's p_c (004 Algorithm 4 step 4(d)).

        Parameters
        ----------
        clusters : array_like of int, shape (m,)
            Cluster indices.

        Returns
        -------
        ndarray of float, shape (m, K)
            Rows summing to 1.

        Examples
        --------
        >>> clusters, y = np.array([0, 0, 0, 1, 1]), np.array([1, 1, 0, 2, 2])
        >>> cp = ClusterPriors(num_classes=3, epsilon_prior=1.0, random_state=np.random.default_rng(0)).fit(clusters, y)
        >>> bool(np.array_equal(cp.priors([1, 0]), cp.cluster_priors_[[1, 0]]))
        True
        """
        check_fitted(self, "cluster_priors_")
        return self.cluster_priors_[np.asarray(clusters, dtype=np.int64)]

    def predict(self, X) -> np.ndarray:
        """Arg-max of each example's cluster histogram (004 Appendix B's accuracy measure).

        Parameters
        ----------
        X : array_like of int, shape (m,)
            Cluster indices.

        Returns
        -------
        ndarray of int64, shape (m,)

        Examples
        --------
        >>> clusters, y = np.array([0, 0, 0, 1, 1]), np.array([1, 1, 0, 2, 2])
        >>> cp = ClusterPriors(num_classes=3, epsilon_prior=1.0, random_state=np.random.default_rng(0)).fit(clusters, y)
        >>> cp.predict([0, 1]).shape
        (2,)
        """
        self._check_predict_input(X)
        check_fitted(self, "noisy_histograms_")
        return np.argmax(self.noisy_histograms_[np.asarray(X, dtype=np.int64)], axis=1).astype(np.int64)


def cluster_prior_rr(clusters, labels, *, num_classes: int, epsilon: float, epsilon_prior: float,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Privatize labels with RRWithPrior at ε - ε_p under cluster priors bought with ε_p.

    The pair is ε-label DP by sequential composition (ε_p for the histograms, ε − ε_p for RRWithPrior).

    Parameters
    ----------
    clusters : array_like of int, shape (n,)
        Cluster index of each example.
    labels : array_like of int, shape (n,)
        Labels in [0, K).
    num_classes : int >= 2
        K.
    epsilon : float > 0
        Total budget ε.
    epsilon_prior : float
        ε_p, 0 < ε_p < ε.
    rng : numpy.random.Generator or int seed
        Draws the histogram noise, then the RRWithPrior outputs.

    Returns
    -------
    z : ndarray of int64, shape (n,)
        Privatized labels.
    priors : ndarray of float, shape (n, K)
        The prior each label was privatized with.

    Raises
    ------
    ValueError
        If ε <= 0, ε_p <= 0 or ε_p >= ε, or the inputs are invalid.

    References
    ----------
    004 Algorithm 4, Algorithm 2 (RRWithPrior).

    Examples
    --------
    >>> z, P = cluster_prior_rr([0, 0, 1], [1, 1, 2], num_classes=3, epsilon=2.0, epsilon_prior=0.5,
    ...                         rng=np.random.default_rng(0))
    >>> z.shape, P.shape
    ((3,), (3, 3))
    """
    epsilon = check_positive("epsilon", epsilon)
    epsilon_prior = check_positive("epsilon_prior", epsilon_prior)
    if epsilon_prior >= epsilon:
        raise ValueError(f"epsilon_prior must be < epsilon={epsilon} (the rest goes to RRWithPrior), "
                         f"got epsilon_prior={epsilon_prior}")
    cp = ClusterPriors(num_classes=num_classes, epsilon_prior=epsilon_prior, random_state=rng).fit(clusters, labels)
    P = cp.priors(clusters)
    z = RRWithPrior(num_classes=num_classes, epsilon=epsilon - epsilon_prior).sample(labels, rng, prior=P)
    return z, P
