"""The black-box auditor: Clopper-Pearson bounds (closed forms, exact coverage), no false claims on
correct mechanisms beyond the stated rate, and the planted bugs flagged."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from proofs_checks import audit_epsilon, audit_label_randomizer
from proofs_checks.audit import clopper_pearson_lower, clopper_pearson_upper, output_events
from proofs_checks.planted_bugs import (RRTopKShortKeep, VectorMechanismFullBitEpsilon, rr_top_k_short_keep_loss,
                                        vector_full_bit_epsilon_loss)
from simulations.mechanisms import RandomizedResponse, VectorMechanism


def bit_events():
    """The four patterns of (Z(0), Z(1)): the bits that move between labels 0 and 1."""
    return [lambda z, u=u, v=v: (z[:, 0] == u) & (z[:, 1] == v) for u in (0, 1) for v in (0, 1)]


@pytest.mark.parametrize("n", [1, 7, 100])
@pytest.mark.parametrize("alpha", [0.05, 1e-3])
def test_clopper_pearson_closed_forms(n, alpha):
    # P(X = n) = p^n = alpha at the lower bound for k = n; symmetric for k = 0.
    assert clopper_pearson_lower(n, n, alpha) == pytest.approx(alpha ** (1 / n), rel=1e-10)
    assert clopper_pearson_upper(0, n, alpha) == pytest.approx(1 - alpha ** (1 / n), rel=1e-10)
    assert clopper_pearson_lower(0, n, alpha) == 0.0 and clopper_pearson_upper(n, n, alpha) == 1.0


@pytest.mark.parametrize("p", [0.01, 0.2, 0.5, 0.93])
def test_clopper_pearson_exact_coverage(p):
    # Exact (no simulation): P_k~Bin(n,p)(bound fails) <= alpha for both one-sided bounds.
    n, alpha = 60, 0.05
    pmf = stats.binom.pmf(np.arange(n + 1), n, p)
    lower_fails = sum(pmf[k] for k in range(n + 1) if clopper_pearson_lower(k, n, alpha) > p)
    upper_fails = sum(pmf[k] for k in range(n + 1) if clopper_pearson_upper(k, n, alpha) < p)
    assert lower_fails <= alpha and upper_fails <= alpha


def violation_threshold(trials, rate):
    """Largest count of false claims compatible with rate: P(Binomial(trials, rate) > t) < 1e-4."""
    return int(stats.binom.isf(1e-4, trials, rate))


def test_correct_rr_never_overclaims_beyond_its_confidence():
    m, eps, confidence, seeds = RandomizedResponse(3, 1.0), 1.0, 0.9, 150
    lbs = [audit_label_randomizer(m, 0, 1, output_events(3), 3000, np.random.default_rng(s), confidence).epsilon_lower
           for s in range(seeds)]
    assert sum(lb > eps for lb in lbs) <= violation_threshold(seeds, 1 - confidence)
    assert np.mean(lbs) > 0.5  # and the audit is informative: most of ε is found


def test_correct_vector_never_overclaims_beyond_its_confidence():
    m, eps, confidence, seeds = VectorMechanism(3, 1.0), 1.0, 0.9, 150
    lbs = [audit_label_randomizer(m, 0, 1, bit_events(), 3000, np.random.default_rng(s), confidence).epsilon_lower
           for s in range(seeds)]
    assert sum(lb > eps for lb in lbs) <= violation_threshold(seeds, 1 - confidence)
    assert np.mean(lbs) > 0.5


def test_flags_planted_vector_bug():
    eps = 1.0
    res = audit_label_randomizer(VectorMechanismFullBitEpsilon(3, eps), 0, 1, bit_events(), 20000,
                                 np.random.default_rng(2024), confidence=0.95)
    assert res.violates(eps), res.explanation
    # The lower bound is below the true (wrong) loss 2ε, at the same confidence.
    assert res.epsilon_lower <= vector_full_bit_epsilon_loss(eps)
    # The witness event is z(0) = 1, z(1) = 0 (a/b) or its mirror.
    assert (res.event, res.direction) in {(2, "a/b"), (1, "b/a")}


def test_flags_planted_rr_top_k_bug_at_small_epsilon():
    eps, k, prior = 0.1, 2, np.array([0.5, 0.3, 0.2])
    res = audit_label_randomizer(RRTopKShortKeep(3, eps, k), 0, 1, output_events(3), 20000,
                                 np.random.default_rng(7), confidence=0.95, prior=prior)
    assert res.violates(eps) and res.epsilon_lower <= rr_top_k_short_keep_loss(eps, k)


def test_audit_epsilon_generic_callables():
    # Two Bernoulli "mechanisms" with ratio exactly 2 on the event {1}: the bound sits below ln 2.
    res = audit_epsilon(lambda n, g: g.random(n) < 0.4, lambda n, g: g.random(n) < 0.2,
                        [lambda z: z], 50000, np.random.default_rng(0), confidence=0.99, both_directions=False)
    assert 0.5 < res.epsilon_lower <= math.log(2)
    assert "confidence 0.99" in res.explanation and res.counts[0] > res.counts[1]


def test_no_separating_event_gives_zero():
    res = audit_epsilon(lambda n, g: np.zeros(n), lambda n, g: np.zeros(n), [lambda z: z == 1], 100,
                        np.random.default_rng(0))
    assert res.epsilon_lower == 0.0 and not res.violates(0.0)


@pytest.mark.parametrize("kw,match", [({"n": 0}, "n must"), ({"confidence": 1.0}, "confidence"),
                                      ({"confidence": 0.0}, "confidence"), ({"events": []}, "events")])
def test_invalid_arguments(kw, match):
    args = {"sample_a": lambda n, g: np.zeros(n), "sample_b": lambda n, g: np.zeros(n),
            "events": [lambda z: z == 0], "n": 10, "rng": np.random.default_rng(0)}
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        audit_epsilon(**args)


def test_audit_label_randomizer_rejects_labels_outside_the_classes():
    with pytest.raises(ValueError, match="labels"):
        audit_label_randomizer(RandomizedResponse(3, 1.0), 0, 5, output_events(3), 10, np.random.default_rng(0))



@pytest.mark.parametrize("bound", [clopper_pearson_lower, clopper_pearson_upper])
@pytest.mark.parametrize("k,n,alpha,match", [(5, 3, 0.05, "k must be <= n"), (-1, 3, 0.05, "k must be"),
                                             (0, 0, 0.05, "n must be"), (1, 3, 0.0, "alpha")])
def test_clopper_pearson_invalid_arguments(bound, k, n, alpha, match):
    with pytest.raises(ValueError, match=match):
        bound(k, n, alpha)
