"""LP-MST (004 Algorithm 3), the soft k-NN learners, and their guards.

Expected values come from the algorithm's text (stage 1 = plain RR: k* = K; the temperature formula
of 004 Appendix E written out with math.exp), from an independent brute-force k-NN, or from exact
enumeration of the privatized-label distribution (proofs_checks.lp_mst_check), against which the
sampler is tested by a chi-square goodness of fit at a fixed seed (p-value > 1e-4).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier

from proofs_checks.lp_mst_check import lp_mst_log_probabilities
from simulations.learning import (LPMST, ConstantModel, IndexedKNNClassifier, SoftKNNClassifier, neighbour_order,
                                  split_stages, tempered, top_k_mask)


def blobs(n, K, rng, d=2, spread=0.6):
    centers = rng.normal(scale=3.0, size=(K, d))
    y = rng.integers(0, K, size=n)
    return centers[y] + spread * rng.normal(size=(n, d)), y


# ------------------------------------------------------------------------------- guards
class NoProba:
    def fit(self, X, y):
        return self


@pytest.mark.parametrize("kwargs, message", [
    (dict(num_stages=0), "num_stages must be an integer >= 1, got num_stages=0"),
    (dict(num_stages=2, stage_fractions=(0.5, 0.4)), r"stage_fractions must sum to 1, got stage_fractions=\(0.5, 0.4\)"),
    (dict(num_stages=3, stage_fractions=(0.5, 0.5)), "stage_fractions must hold num_stages=3"),
    (dict(stage_fractions=(1.2, -0.2)), "stage_fractions must be positive"),
    (dict(learner=NoProba()), "learner must be a probabilistic classifier .* without predict_proba"),
    (dict(temperature=0.0), "temperature must be > 0.0, got temperature=0.0"),
    (dict(epsilon=-1.0), "epsilon must be > 0"),
    (dict(filter_labels="yes"), "filter_labels must be a bool"),
])
def test_bad_parameters(kwargs, message):
    rng = np.random.default_rng(0)
    X, y = blobs(20, 3, rng)
    base = dict(learner=SoftKNNClassifier(n_neighbors=3, num_classes=3), num_classes=3, epsilon=1.0)
    with pytest.raises(ValueError, match=message):
        LPMST(**{**base, **kwargs}, random_state=rng).fit(X, y)


def test_bad_labels_and_stages():
    rng = np.random.default_rng(0)
    X, y = blobs(20, 3, rng)
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=3, num_classes=3), num_classes=3, epsilon=1.0)
    with pytest.raises(ValueError, match=r"y: labels must lie in \[0, 3\), got min 1 and max 3"):
        est.set_params(random_state=rng).fit(X, np.where(y == 0, 3, y))
    with pytest.raises(ValueError, match=r"y: labels must lie in \[0, 3\), got min -1"):
        est.set_params(random_state=rng).fit(X, y - 1)
    with pytest.raises(ValueError, match="stages must be"):
        est.set_params(random_state=rng).fit(X, y, stages=np.zeros(20, dtype=int))
    with pytest.raises(ValueError, match="every stage needs at least one example"):
        LPMST(learner=SoftKNNClassifier(num_classes=3), num_classes=3, epsilon=1.0,
              num_stages=2, stage_fractions=(0.99, 0.01), random_state=rng).fit(X, y)
    with pytest.raises(ValueError, match="not fitted"):
        est.predict(X)


# ------------------------------------------------------------------------------- pieces
def test_split_stages_sizes_and_independence_of_labels():
    sizes = np.bincount(split_stages(10, [0.65, 0.35], np.random.default_rng(3)))
    assert sizes.tolist() == [round(6.5), 10 - round(6.5)]
    a = split_stages(1000, [0.4, 0.3, 0.3], np.random.default_rng(5))
    assert np.bincount(a).tolist() == [400, 300, 300]
    # the split is drawn from the rng alone: LPMST.fit gives the same stages whatever the labels
    rng = np.random.default_rng(0)
    X, y = blobs(60, 3, rng)
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=3, num_classes=3), num_classes=3, epsilon=1.0, num_stages=3)
    s1 = est.set_params(random_state=np.random.default_rng(11)).fit(X, y).stages_
    s2 = est.set_params(random_state=np.random.default_rng(11)).fit(X, (y + 1) % 3).stages_
    np.testing.assert_array_equal(s1, s2)


def test_tempered_matches_appendix_e():
    p = np.array([[0.7, 0.2, 0.1, 0.0], [0.25, 0.25, 0.25, 0.25]])
    for t in (0.5, 1.0, 3.0):
        logits = [[math.log(v) if v > 0 else -math.inf for v in row] for row in p]
        ref = [[math.exp(f / t) / sum(math.exp(g / t) for g in row) for f in row] for row in logits]
        np.testing.assert_allclose(tempered(p, t), ref, rtol=1e-13)


def test_top_k_mask():
    proba = np.array([[0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.1, 0.45, 0.45]])
    np.testing.assert_array_equal(top_k_mask(proba, np.array([1, 0, 2]), 2), [True, True, True])
    np.testing.assert_array_equal(top_k_mask(proba, np.array([2, 1, 0]), 2), [False, False, False])
    np.testing.assert_array_equal(top_k_mask(proba, np.array([1, 0, 2]), 1), [False, False, False])


def test_stage_one_is_plain_rr_and_later_stages_use_priors():
    rng = np.random.default_rng(1)
    X, y = blobs(300, 4, rng)
    est = LPMST(learner=SoftKNNClassifier(n_neighbors=15, num_classes=4), num_classes=4, epsilon=2.0,
                num_stages=2, stage_fractions=(0.5, 0.5), random_state=np.random.default_rng(2)).fit(X, y)
    assert np.all(est.k_star_[est.stages_ == 0] == 4)  # uniform prior: k* = K (plain RR)
    assert est.k_star_[est.stages_ == 1].mean() < 4  # learned prior shrinks the candidate set
    assert est.n_trained_.tolist() == [150, 300]
    assert len(est.models_) == 2 and est.model_ is est.models_[-1]
    assert np.all((est.privatized_labels_ >= 0) & (est.privatized_labels_ < 4))


def test_classes_mapping_when_a_class_is_absent():
    X = np.array([[0.0], [1.0], [5.0], [6.0]])
    lr = LogisticRegression().fit(X, np.array([0, 0, 3, 3]))
    est = LPMST(learner=LogisticRegression(), num_classes=4, epsilon=1.0)
    p = est.stage_priors(lr, np.array([[0.0], [6.0]]))
    assert p.shape == (2, 4) and np.all(p[:, [1, 2]] == 0)
    np.testing.assert_allclose(p[:, [0, 3]], lr.predict_proba(np.array([[0.0], [6.0]])), rtol=1e-12)


def test_single_class_stage_gives_constant_model():
    X = np.arange(6.0)[:, None]
    est = LPMST(learner=LogisticRegression(), num_classes=3, epsilon=1.0)
    z = np.array([2, 2, 2, -1, -1, -1])
    model, n_used = est.train_stage(X, z, np.array([0, 0, 0, 1, 1, 1]), 0, None, None)
    assert isinstance(model, ConstantModel) and n_used == 3
    np.testing.assert_array_equal(model.predict_proba(X[:2]), [[0, 0, 1], [0, 0, 1]])


def test_filtering_drops_exactly_the_labels_outside_the_top_k():
    rng = np.random.default_rng(4)
    X, y = blobs(200, 4, rng)
    kw = dict(learner=SoftKNNClassifier(n_neighbors=10, num_classes=4), num_classes=4, epsilon=1.0, num_stages=2)
    est = LPMST(filter_labels=True, **kw, random_state=np.random.default_rng(7)).fit(X, y)
    plain = LPMST(**kw, random_state=np.random.default_rng(7)).fit(X, y)
    np.testing.assert_array_equal(est.privatized_labels_, plain.privatized_labels_)  # filtering is post-processing
    first = np.flatnonzero(est.stages_ == 0)
    k = max(1, int(round(est.k_star_[est.stages_ == 1].mean())))
    proba = est.models_[0].predict_proba(X[first])
    # independent top-k: sort by (-p, class)
    inside = [est.privatized_labels_[i] in sorted(range(4), key=lambda c: (-proba[j, c], c))[:k]
              for j, i in enumerate(first)]
    assert est.n_trained_[1] == int(np.sum(inside)) + np.sum(est.stages_ == 1)
    assert est.n_trained_[1] < plain.n_trained_[1]


def test_generic_over_sklearn_classifiers():
    rng = np.random.default_rng(5)
    X, y = blobs(240, 3, rng, spread=0.3)
    for learner in (LogisticRegression(), KNeighborsClassifier(n_neighbors=7)):
        est = LPMST(learner=learner, num_classes=3, epsilon=4.0, num_stages=3, random_state=np.random.default_rng(1)).fit(X, y)
        assert est.predict(X).shape == (240,) and est.predict_proba(X).shape == (240, 3)
        assert np.mean(est.predict(X) == y) > 0.9  # well-separated blobs, ε = 4: a working classifier


# ------------------------------------------------------------------------------- k-NN learners
def test_soft_knn_matches_brute_force_and_indexed_version():
    rng = np.random.default_rng(6)
    X = rng.integers(0, 4, size=(40, 2)).astype(float)  # many exact distance ties
    Xq = rng.integers(0, 4, size=(15, 2)).astype(float)
    y = rng.integers(0, 3, size=40)
    k = 5
    ref = np.zeros((15, 3))
    for q in range(15):
        d = [((X[i] - Xq[q]) ** 2).sum() for i in range(40)]
        nb = sorted(range(40), key=lambda i: (d[i], i))[:k]
        for i in nb:
            ref[q, y[i]] += 1.0 / k
    np.testing.assert_allclose(SoftKNNClassifier(n_neighbors=k, num_classes=3).fit(X, y).predict_proba(Xq), ref)
    order = neighbour_order(X, np.concatenate([X, Xq]))
    sub = np.sort(rng.choice(40, 25, replace=False))
    a = SoftKNNClassifier(n_neighbors=k, num_classes=3).fit(X[sub], y[sub]).predict_proba(np.concatenate([X, Xq]))
    b = IndexedKNNClassifier(order=order, n_neighbors=k, num_classes=3).fit(sub, y[sub]).predict_proba(np.arange(55))
    # exact on every CPU: with integer coordinates every squared distance (BLAS matmul included) is a small
    # integer computed exactly whatever BLAS's summation order, so both pick the same neighbours in the
    # same order, and both average the same one-hot rows with the same numpy code
    np.testing.assert_array_equal(a, b)


def test_soft_knn_label_vectors():
    X = np.array([[0.0], [1.0], [10.0]])
    V = np.array([[0.8, 0.2], [-0.5, 1.5], [1.0, 0.0]])
    m = SoftKNNClassifier(n_neighbors=2, num_classes=2).fit(X, V)
    np.testing.assert_allclose(m.predict_proba([[0.2]]), [[0.15 / 1.0, 0.85]])  # mean (0.15, 0.85)
    assert m.predict([[0.2]]).tolist() == [1]
    with pytest.raises(ValueError, match=r"y must hold integer labels in \[0, 2\)"):
        m.fit(X, np.array([0, 1, 2]))


# ------------------------------------------------------------------------------- sampler vs exact law
class SmoothedKNN(SoftKNNClassifier):
    """A fast deterministic learner with non-degenerate priors: 0.8 * k-NN frequencies + 0.2 uniform."""

    def predict_proba(self, X):
        return 0.8 * super().predict_proba(X) + 0.2 / self.num_classes


def test_privatized_labels_follow_the_exact_distribution():
    """Chi-square of 2000 runs of fit (fixed partition, T = 3) against the enumerated P(z | y)."""
    X = np.array([[0.0], [1.0], [2.5], [4.0]])
    stages = np.array([0, 1, 0, 2])
    y = np.array([1, 0, 2, 2])
    est = LPMST(learner=SmoothedKNN(n_neighbors=2, num_classes=3), num_classes=3, epsilon=1.0, num_stages=3,
                temperature=0.7)
    logp = lp_mst_log_probabilities(est, X, stages)
    probs = np.exp(logp[tuple(y)])
    assert abs(probs.sum() - 1.0) < 1e-12
    rng = np.random.default_rng(2024)
    index = {z: c for c, z in enumerate(itertools.product(range(3), repeat=4))}
    counts = np.zeros(probs.size)
    for _ in range(2000):
        z = est.set_params(random_state=rng).fit(X, y, stages=stages).privatized_labels_
        counts[index[tuple(z.tolist())]] += 1
    live = probs > 0
    assert counts[~live].sum() == 0
    assert stats.chisquare(counts[live], 2000 * probs[live]).pvalue > 1e-4


@pytest.mark.parametrize("m,kmax,K,n_pool", [(40, 30, 10, 200), (5, 1, 3, 4), (3, 9, 2, 9)])
def test_prefix_means_kernel_equals_the_cumsum_reference_bit_for_bit(m, kmax, K, n_pool):
    # same sums in the same (sequential) order as np.cumsum: equal floats; ks unsorted, repeated, 1 and kmax
    from simulations.learning.soft_knn import _prefix_means, _prefix_means_numpy

    rng = np.random.default_rng(m)
    Y = rng.random((n_pool, K))
    Y /= Y.sum(axis=1, keepdims=True)
    nb = rng.integers(0, n_pool, (m, kmax)).astype(np.int64)
    ks = np.array(sorted({1, kmax, (kmax + 1) // 2}, reverse=True) + [1], dtype=np.int64)
    out = np.empty((ks.size, m, K))
    _prefix_means(Y, nb, ks, out)
    np.testing.assert_array_equal(out, _prefix_means_numpy(Y, nb, ks))
