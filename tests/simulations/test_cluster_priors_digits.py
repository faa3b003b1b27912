"""``cluster_priors_digits`` (004 Algorithm 4 on the digits): fair tuning of every method's k (issue 22).

What is checked: the profiles are frozen dataclasses; bad input is refused before work; the chosen k is the
one the validation rule picks and never depends on the test labels; the cluster histograms never see the
validation labels (each label is used by one release only: the privacy accounting of the module docstring).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulations.experiments.learning import cluster_priors_digits as cpd
from simulations.experiments.learning import lp_mst_digits as lmd
from simulations.experiments.base import RunContext

_PT = cpd.ClusterPoint(clusters=(10,), eps_p=(1.0,), eps_total=(1.0, 4.0), eps_p_rr=(0.5,), k_grid=(5, 20, 80))


def test_profiles_are_frozen_dataclasses():
    assert set(cpd.PROFILES) == {"smoke", "quick", "paper"}
    for prof in cpd.PROFILES.values():
        assert isinstance(prof, cpd.Profile)
        with pytest.raises(dataclasses.FrozenInstanceError):
            prof.trials = 1
    with pytest.raises(ValueError, match="profile"):
        cpd.compute(RunContext(profile="huge"))


@pytest.fixture(scope="module")
def trial():
    return cpd.cluster_trial(_PT, 0, 5)


def test_tuned_accuracy_is_the_accuracy_at_the_chosen_k(trial):
    acc, k, by_k = trial["rr_acc"], trial["rr_k"], trial["rr_by_k"]
    assert acc.shape == k.shape == (2, 2) and by_k.shape == (2, 2, 3)
    for i in range(2):
        for j in range(2):
            assert acc[i, j] == by_k[i, j, _PT.k_grid.index(int(k[i, j]))]


def test_k_never_depends_on_the_test_labels(trial, monkeypatch):
    """Shuffling the test labels moves the accuracies but not one chosen k (tuning sees the validation split only)."""
    order, y_tr, y_te, n = lmd.digits_pool()
    shuffled = np.random.default_rng(0).permutation(y_te)
    monkeypatch.setattr(lmd, "digits_pool", lambda: (order, y_tr, shuffled, n))
    other = cpd.cluster_trial(_PT, 0, 5)
    np.testing.assert_array_equal(other["rr_k"], trial["rr_k"])
    assert not np.array_equal(other["rr_acc"], trial["rr_acc"])


def test_histograms_never_see_the_validation_labels(monkeypatch):
    """The cluster histograms (ε_p) are computed on the fit labels only; the validation labels are released once,
    by RR at ε: every label is used by one ε-label-DP release (parallel composition)."""
    seen = []
    real = cpd.cluster_prior_rr

    def spy(clusters, labels, **kw):
        seen.append(np.asarray(labels).size)
        return real(clusters, labels, **kw)

    monkeypatch.setattr(cpd, "cluster_prior_rr", spy)
    cpd.cluster_trial(_PT, 1, 5)
    n = lmd.digits_pool()[3]
    fit, val = lmd.validation_split(n, _PT.validation_fraction, np.random.default_rng(0))
    assert seen == [fit.size] * 2 and fit.size + val.size == n and val.size == round(0.2 * n)


def test_each_trial_draws_its_own_kmeans_partition():
    """issue 35: k-means' random start is part of the method, so each trial has its own partition (the CIs over
    trials then cover it); the same (root seed, trial) gives the same partition in any process."""
    a, b = cpd._partition(10, "train", 5, 0), cpd._partition(10, "train", 5, 1)
    assert a.shape == b.shape == (1347,) and set(np.unique(a)) == set(range(10))
    # two k-means partitions with 10 clusters agree on every pair of points only if they are the same partition
    same_pair = lambda lab: lab[:300, None] == lab[None, :300]  # noqa: E731
    assert (same_pair(a) != same_pair(b)).any()
    cpd._partition.cache_clear()
    assert np.array_equal(cpd._partition(10, "train", 5, 0), a)

