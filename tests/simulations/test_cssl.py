"""The semi-supervised learners of 001 Section 4.1 (simulations/estimators/cssl.py) and their experiment.

Expected values come from brute force over the hypotheses (pure Python), exact rationals (ε = 2 ln 2 makes
the exponential mechanism's weights 2^{-q}), Sauer's bound computed with math.comb, and PCDE itself.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from simulations.estimators.cssl import (PrivateCSSL, SemiPrivateLearner, em_log_probabilities, interval_dichotomies,
                                         interval_errors, pcde_release, predict_hypotheses, sample_released_density,
                                         sauer_bound, threshold_dichotomies, threshold_errors)
from simulations.estimators.pcde import PCDE
from simulations.experiments.consistency import semi_supervised as ss

EPS_DYADIC = 2 * math.log(2)  # e^{-ε q / 2} = 2^{-q}: the mechanism's law is rational


def _labellings(cls, k):
    """Every labelling of k sorted points realizable by the class, by definition (independent of the code)."""
    if cls == "thresholds":
        return {tuple([0] * i + [1] * (k - i)) for i in range(k + 1)}
    out = {tuple([0] * k)}
    for i in range(k):
        for j in range(i, k):
            out.add(tuple(1 if i <= p <= j else 0 for p in range(k)))
    return out


@pytest.mark.parametrize("k", [0, 1, 2, 5, 9])
def test_dichotomies_are_all_labellings_and_meet_sauer(k):
    U = np.random.default_rng(k).permutation(np.linspace(0.1, 0.9, k)) if k else np.empty(0)
    t = threshold_dichotomies(U)
    a, b = interval_dichotomies(U)
    sorted_u = np.sort(U)
    got_t = {tuple(r) for r in predict_hypotheses("thresholds", t, sorted_u)} if k else {()}
    got_i = {tuple(r) for r in predict_hypotheses("intervals", (a, b), sorted_u)} if k else {()}
    assert t.size == len(got_t) == k + 1 == sum(math.comb(k, i) for i in range(2)) == sauer_bound(k, 1)
    assert a.size == len(got_i) == 1 + k + math.comb(k, 2) == sauer_bound(k, 2)
    if k:
        assert got_t == _labellings("thresholds", k) and got_i == _labellings("intervals", k)


def test_duplicates_merge():
    assert threshold_dichotomies([0.3, 0.3, 0.1]).tolist() == [-math.inf, 0.1, 0.3]


@pytest.mark.parametrize("cls", ["thresholds", "intervals"])
def test_error_counts_match_brute_force_on_prefixes(cls):
    rng = np.random.default_rng(1)
    U, X, y = rng.random(6), rng.random(25), rng.integers(0, 2, 25)
    t = threshold_dichotomies(U)
    params = t if cls == "thresholds" else interval_dichotomies(U)
    fn = threshold_errors if cls == "thresholds" else interval_errors
    q = fn(t, X, y, [0, 7, 25])
    for row, p in zip(q, (0, 7, 25)):
        brute = [sum(int(h != yy) for h, yy in zip(hrow, y[:p])) for hrow in predict_hypotheses(cls, params, X[:p])]
        assert row.tolist() == brute
    assert fn(t, X, y).tolist() == q[-1].tolist()


@pytest.mark.parametrize("cls", ["thresholds", "intervals"])
def test_exponential_mechanism_law_equals_exact_rationals(cls):
    """At ε = 2 ln 2 the weights are 2^{-q}: P(h) = 2^{-q_h} / Σ 2^{-q_j} exactly, q by brute force."""
    rng = np.random.default_rng(2)
    U, X = rng.random(5), rng.random(9)
    y = (X > 0.4).astype(int)
    y[0] ^= 1
    est = SemiPrivateLearner(epsilon=EPS_DYADIC, hypothesis_class=cls, random_state=0).fit(X, y, X_public=U)
    params = est.hypotheses_
    q = [sum(int(h != yy) for h, yy in zip(hrow, y)) for hrow in predict_hypotheses(cls, params, X)]
    z = sum(Fraction(1, 2 ** v) for v in q)
    exact = [Fraction(1, 2 ** v) / z for v in q]
    assert np.allclose(np.exp(est.log_probabilities_), [float(p) for p in exact], rtol=1e-13, atol=0)
    assert np.allclose(np.exp(em_log_probabilities(q, EPS_DYADIC)), [float(p) for p in exact], rtol=1e-13, atol=0)


def test_erm_is_uniform_over_minimizers():
    lp = em_log_probabilities([2, 0, 1, 0], None)
    assert np.exp(lp).tolist() == [0.0, 0.5, 0.0, 0.5]


def test_sampler_draws_from_the_reported_law():
    """Goodness of fit of the chosen index against log_probabilities_ (one fixed seed; chi-square p > 0.001,
    a false alarm has probability 1e-3)."""
    U, X, y = [0.2, 0.4, 0.6, 0.8], [0.1, 0.3, 0.5, 0.7, 0.9], [0, 0, 1, 1, 1]
    rng = np.random.default_rng(3)
    draws = [SemiPrivateLearner(epsilon=1.0, random_state=rng).fit(X, y, X_public=U).index_ for _ in range(300)]
    p = np.exp(SemiPrivateLearner(epsilon=1.0, random_state=0).fit(X, y, X_public=U).log_probabilities_)
    obs = np.bincount(draws, minlength=p.size)
    assert stats.chisquare(obs, 300 * p).pvalue > 1e-3


def test_pcde_release_from_counts_equals_pcde_fit():
    X = np.random.default_rng(4).normal(size=(3000, 1))
    est = PCDE(epsilon=1.0, delta=1e-6, random_state=np.random.default_rng(9)).fit(X)
    side, cells, counts = est.cube_counts(X)
    c2, v2 = pcde_release(cells, counts, 3000, side, epsilon=1.0, delta=1e-6, rng=np.random.default_rng(9))
    assert np.array_equal(c2, est.cells_) and np.array_equal(v2, est.values_)


def test_synthetic_sample_follows_the_released_density():
    cells, values, side = np.array([[-2], [0], [5]]), np.array([1.0, 2.0, 5.0]), 0.25
    pts = sample_released_density(cells, values, side, 4000, np.random.default_rng(5))[:, 0]
    k = np.floor(pts / side).astype(int)
    assert set(np.unique(k)) <= {-2, 0, 5}
    obs = np.array([(k == c).sum() for c in (-2, 0, 5)])
    assert stats.chisquare(obs, 4000 * values / values.sum()).pvalue > 1e-3
    assert sample_released_density(np.empty((0, 1), int), np.empty(0), side, 5, 0).shape == (0, 1)


def test_private_cssl_learns_and_states_its_privacy():
    rng = np.random.default_rng(6)
    U, X = rng.uniform(0, 1, 20000), rng.uniform(0, 1, 400)
    y = (X > 0.37).astype(int)
    est = PrivateCSSL(epsilon=1.0, delta=1e-6, n_synthetic=300, random_state=rng).fit(X, y, X_unlabeled=U)
    assert est.synthetic_.shape == (300,) and abs(est.learner_.hypothesis_ - 0.37) < 0.05
    assert est.predict([[0.1], [0.9]]).tolist() == [0, 1]
    assert est.privacy_guarantee() == (1.0, 1e-6)
    assert PrivateCSSL(epsilon=0.5, epsilon_unlabeled=1.0).privacy_guarantee("shared") == (1.5, 1e-6)


@pytest.mark.parametrize("make, match", [
    (lambda: SemiPrivateLearner(epsilon=0, random_state=0).fit([0.1], [1], X_public=[0.5]), "epsilon=0"),
    (lambda: SemiPrivateLearner(hypothesis_class="balls", random_state=0).fit([0.1], [1], X_public=[0.5]), "balls"),
    (lambda: SemiPrivateLearner(random_state=0).fit([0.1, 0.2], [1, 2], X_public=[0.5]), "labels in"),
    (lambda: SemiPrivateLearner(random_state=0).fit([0.1], [1], X_public=[[0.5, 0.1]]), "U must have shape"),
    (lambda: SemiPrivateLearner(random_state=0).fit([np.nan], [1], X_public=[0.5]), "X must be finite"),
    (lambda: SemiPrivateLearner().predict([0.1]), "not fitted"),
    (lambda: PrivateCSSL(delta=0, random_state=0).fit([0.1], [1], X_unlabeled=[0.5]), "delta"),
    (lambda: PrivateCSSL(n_synthetic=-1, random_state=0).fit([0.1], [1], X_unlabeled=[0.5]), "n_synthetic"),
    (lambda: PrivateCSSL(random_state=0).fit([0.1], [1], X_unlabeled=[]), "X_unlabeled"),
    (lambda: PrivateCSSL().privacy_guarantee("both"), "relation"),
    (lambda: threshold_errors([0.5], [0.1, 0.2], [0, 1], [3]), "prefixes"),
    (lambda: sauer_bound(-1, 1), "n must be"),
])
def test_guards(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# ------------------------------------------------------------------------------ the experiment's fast paths
def test_experiment_summaries_equal_the_estimator_law():
    rng = np.random.default_rng(7)
    t, w = 0.05, 0.02
    U = t - 1.2 * w + 2.4 * w * rng.random(12)
    X = t - w + 2 * w * rng.random(60)
    y = (X > t).astype(int)
    pref = [5, 20, 60]
    T = threshold_dichotomies(U)
    q, e = threshold_errors(T, X, y, pref), ss.threshold_law_errors(T, t, w)
    for eps in (0.7, None):
        p = np.exp(em_log_probabilities(q, eps))
        f, m = ss.em_summaries(q, eps, e, 0.05)
        assert np.allclose(f, p @ (e > 0.05)) and np.allclose(m, p @ e)
    a, b = interval_dichotomies(U)
    ei = ss.interval_law_errors(a, b, t, w)
    p = np.exp(em_log_probabilities(interval_errors(T, X, y, pref), 0.7))
    f, m = ss.interval_em_summaries(T, X, y, pref, 0.7, t, w, 0.05)
    assert np.allclose(f, p @ (ei > 0.05)) and np.allclose(m, p @ ei)
    x1, x0 = np.sort(X[y == 1]), np.sort(X[y == 0])
    assert ss.sorted_threshold_errors(T, x1, x0).tolist() == threshold_errors(T, X, y).tolist()


def test_law_errors_and_tv_are_exact():
    t, w = 0.5, 0.1
    # thresholds: the mass between T and t; intervals: symmetric difference with (t, inf)
    assert np.allclose(ss.threshold_law_errors(np.array([-np.inf, 0.45, 0.5, 0.7]), t, w), [0.5, 0.25, 0.0, 0.5])
    assert np.allclose(ss.interval_law_errors(np.array([0.45, -np.inf, 0.5]), np.array([0.7, 0.55, 0.55]), t, w),
                       [0.25, 0.75, 0.25])
    # TV of the uniform density on [0.4, 0.6] vs mass 1/2 on each of two cubes [0.4, 0.5), [0.5, 0.6): 0
    assert ss.release_tv(np.array([[4], [5]]), np.array([1.0, 1.0]), 0.1, t, w) == pytest.approx(0.0, abs=1e-12)
    # one cube [0.4, 0.8) holding all the mass: ½(½·|5 − 2.5|·0.2 ... ) = ½ (0.2·2.5 + 0.2·2.5) = 0.5
    assert ss.release_tv(np.array([[1]]), np.array([3.0]), 0.4, t, w) == pytest.approx(0.5)
    counts_cells, counts = ss.cube_counts(t, w, 1000, 0.03, np.random.default_rng(0))
    assert counts.sum() == 1000 and counts_cells.min() >= math.floor(0.4 / 0.03)


def test_interval_summaries_without_synthetic_points():
    f, m = ss.interval_em_summaries(np.array([-np.inf]), [0.5], [1], [1], 1.0, 0.5, 0.1, 0.05)
    assert f.tolist() == [1.0] and m[0] == pytest.approx(0.5)  # the empty labelling errs on the right half


def test_first_crossing():
    assert ss.first_crossing([10, 100], [0.5, 0.05], 0.1) == pytest.approx(10 ** (1 + 0.4 / 0.45))
    assert ss.first_crossing([10, 100], [0.5, 0.2], 0.1) == math.inf
    assert ss.first_crossing([10, 100], [0.05, 0.01], 0.1) == 10


def test_smoke_run(smoke_run):
    """Claims well formed at the smoke profile (verdicts are checked at the quick profile: README)."""
    run = smoke_run("semi_supervised_learning")
    record = run.record
    labels = [c["claim"][:4] for c in record["claims"]]
    assert labels == ["(i) ", "(ii)", "(iii", "(iii", "(iv)", "(v) "]
    for c in record["claims"]:
        assert c["verdict"] in ("holds", "fails", "inconclusive") and c["detail"]
        assert c["measured"] is not None
    for name in ("labeled_size_needed.csv", "needs_per_law.csv", "error_vs_m.csv", "error_vs_m.png",
                 "sample_sizes.png"):
        assert (run.folder / name).stat().st_size > 0
