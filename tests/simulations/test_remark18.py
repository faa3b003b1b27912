"""001 Remark 1.8's classifier (PCDE plug-in on the joint (x, y) cells), its laws, its exact privacy.

References for expected values: hand counts, the closed forms Φ(±1) of a symmetric normal mixture,
scipy adaptive quadrature, and hand-derived δ(ε) of the stability histogram (module docstring of
``proofs_checks.remark18_check``): δ/4 for 001 Algorithm 1 on datasets smaller than its threshold,
½(δ/2)^{ε/2} with the 2/ε factor of the threshold dropped, 1 − e^{−ε/2}(1 + ε/4) for Lap(1/ε) noise
on counts above the threshold (two plain Laplace cells of loss ε each).
"""

import math

import numpy as np
import pytest
from scipy import integrate, optimize, special

from proofs_checks.remark18_check import (PCDEClassifierHalfScale, PCDEClassifierThresholdNoScale,
                                          remark18_classifier_profile, remark18_count_profile,
                                          remark18_probability_one)
from simulations.estimators.pcde_classifier import PCDEClassifier
from simulations.laws.mixtures import LocationMixture
from simulations.mechanisms import StabilityHistogram

# 4 cubes of side 1: cube 0 has labels (1, 1, 0) -> 1; cube 2 has (0, 0, 1) -> 0; cube -3 has (1, 0): a tie -> 0;
# cube 5 holds one point of label 1 -> 1 without privacy, suppressed (count 1 < threshold) with privacy.
X_TINY = np.array([[0.1], [0.5], [0.9], [2.2], [2.4], [2.6], [-2.5], [-2.1], [5.5]])
Y_TINY = np.array([1, 1, 0, 0, 0, 1, 1, 0, 1])


def test_nonprivate_prediction_by_hand():
    clf = PCDEClassifier(epsilon=None, side=1.0).fit(X_TINY, Y_TINY)
    assert clf.cells_[:, 0].tolist() == [-3, 0, 2, 5]
    assert clf.counts_.tolist() == [[1, 1], [1, 2], [2, 1], [0, 1]]
    assert clf.bits_.tolist() == [0, 1, 0, 1]
    q = np.array([[-2.9], [0.0], [0.99], [1.5], [2.0], [5.0], [100.0]])
    assert clf.predict(q).tolist() == [0, 1, 1, 0, 0, 1, 0]
    # f̂_y = c_{k,y} / (n r^d), n = 9, r = 1
    assert clf.joint_density(np.array([[0.3], [1.5]])).tolist() == [[1 / 9, 2 / 9], [0.0, 0.0]]


def test_private_prediction_by_hand_when_noise_is_negligible():
    # ε = 1e6: Lap(2e-6) noise, threshold (2e-6) ln(2e6) + 1 = 1.000029: a count of 2 is released (it would
    # need W < -5e5 scales not to be), a count of 1 needs W >= 2.9e-5 = 14.5 scales (probability ½e^{-14.5} =
    # 2.5e-7 per cell). So cube 0 (1, 2) -> (0, ≈2): 1; cube 2 (2, 1) -> (≈2, 0): 0; cube -3 (1, 1) and cube 5
    # (0, 1) are suppressed entirely: 0.
    clf = PCDEClassifier(epsilon=1e6, delta=1e-6, side=1.0, random_state=np.random.default_rng(7)).fit(X_TINY, Y_TINY)
    assert clf.cells_[:, 0].tolist() == [0, 2]
    assert np.round(clf.c_hat_).astype(int).tolist() == [[0, 2], [2, 0]]
    assert clf.bits_.tolist() == [1, 0]
    assert clf.predict(np.array([[-2.5], [0.5], [2.5], [5.5]])).tolist() == [0, 1, 0, 0]


def test_guards():
    X, y = X_TINY, Y_TINY
    for kwargs, msg in (({"epsilon": 0.0}, "epsilon"), ({"epsilon": 1.0, "delta": 0.0}, "delta"),
                        ({"epsilon": 1.0, "delta": 1.0}, "delta"), ({"epsilon": None, "side": -1.0}, "side")):
        with pytest.raises(ValueError, match=msg):
            PCDEClassifier(**kwargs, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="random_state"):
        PCDEClassifier(epsilon=1.0, random_state=-1).fit(X, y)
    with pytest.raises(ValueError, match="y must hold labels"):
        PCDEClassifier(epsilon=None).fit(X, y + 1)
    with pytest.raises(ValueError, match="finite"):
        PCDEClassifier(epsilon=None).fit(np.array([[np.nan]]), np.array([0]))
    with pytest.raises(ValueError, match="n must be >= 1"):
        PCDEClassifier(epsilon=None).fit(np.empty((0, 1)), np.empty(0, int))
    with pytest.raises(ValueError, match="not fitted"):
        PCDEClassifier().predict(X)
    with pytest.raises(ValueError, match="X has 2 features, but PCDEClassifier is expecting 1 features"):
        PCDEClassifier(epsilon=None).fit(X, y).predict(np.zeros((2, 2)))


def test_mixture_law_closed_forms():
    law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
    assert law.bayes_positive_mass() == pytest.approx(special.ndtr(1.0) - 0.5, abs=1e-15)
    assert law.bayes_risk() == pytest.approx(special.ndtr(-1.0), abs=1e-15)
    # h = 1 exactly on the Bayes region [1, ∞) has zero excess; h = 1 on [0, 1) costs ∫_0^1 (f_0 − f_1)
    assert law.excess_risk_cubes([[1.0]], [[60.0]], [1]) == pytest.approx(0.0, abs=1e-15)
    cost = 0.5 * ((special.ndtr(1) - 0.5) - (special.ndtr(-1) - special.ndtr(-2)))
    assert law.excess_risk_cubes([[0.0]], [[1.0]], [1]) - law.bayes_positive_mass() == pytest.approx(cost, abs=1e-15)
    assert law.joint_l1_cubes(np.empty((0, 1)), np.empty((0, 1)), np.empty((0, 2))) == 1.0


@pytest.mark.parametrize("kind", ["normal", "cauchy"])
def test_bayes_region_1d_against_quadrature(kind):
    law = LocationMixture(kind=kind, means=[[0.0], [1.5]], prior1=0.4, sigma=0.5)
    diff = lambda x: float(law.class_densities(np.array([[x]]))[0] @ [-1.0, 1.0])  # noqa: E731
    roots = [optimize.brentq(diff, a, b) for a, b in ((0.0, 1.5), (1.5, 40.0)) if diff(a) * diff(b) < 0]
    pts = [-np.inf] + roots + [np.inf]
    ref = sum(max(0.0, integrate.quad(diff, a, b, epsabs=1e-13, limit=400)[0]) for a, b in zip(pts, pts[1:]))
    assert law.bayes_positive_mass() == pytest.approx(ref, abs=1e-9)


def test_bayes_region_2d_normal_against_monte_carlo():
    law = LocationMixture(kind="normal", means=[[0.0, 0.0], [1.0, 0.6]], prior1=0.5, sigma=0.5)
    X, _ = law.sample(200_000, np.random.default_rng(11))
    e = law.eta(X)
    mc = np.minimum(e, 1 - e)  # L* = E min(η, 1 − η); standard error < 4e-4, test at 5 SE
    assert abs(mc.mean() - law.bayes_risk()) < 5 * mc.std() / math.sqrt(mc.size)


# ----------------------------------------------------------------------------- exact privacy
def test_count_profile_is_delta_over_four_below_the_threshold():
    eps, delta = 1.0, 1e-3  # threshold 2 ln 2000 + 1 = 16.2 > 3 records
    grid = [0.0, 0.5, 1.0, 2.0]
    r = remark18_count_profile(PCDEClassifier(epsilon=eps, delta=delta, side=0.5), eps, delta, dataset_size=3,
                               epsilons=grid)
    assert r.check.holds and r.check.delta_actual == pytest.approx(delta / 4, rel=1e-12)
    assert np.all(np.diff(r.deltas) <= 1e-15)  # δ(ε') non-increasing
    clf = remark18_classifier_profile(PCDEClassifier(epsilon=eps, delta=delta, side=0.5), eps, delta, dataset_size=3,
                                      epsilons=grid)
    assert clf.check.holds and clf.check.delta_actual == pytest.approx(delta / 4, rel=1e-9)
    assert np.all(clf.deltas <= r.deltas * (1 + 1e-9))  # post-processing


def test_probability_one_by_hand():
    mech = StabilityHistogram(1.0, 1e-3)
    b, tau = mech.scale, mech.threshold
    assert remark18_probability_one(mech, 3, 0) == 0.0
    assert remark18_probability_one(mech, 0, 1) == pytest.approx(0.5 * math.exp(-(tau - 1) / b), rel=1e-12)
    # c_0 = c_1 = 1 below τ: P(W_1 >= τ − 1, W_0 < W_1) = ∫_t^∞ e^{-w/b}/(2b) (1 − ½e^{-w/b}) dw
    #   = ½ e^{-t/b} − ⅛ e^{-2t/b} with t = τ − 1 = b ln(2/δ): δ/4 − δ²/32
    assert remark18_probability_one(mech, 1, 1) == pytest.approx(1e-3 / 4 - 1e-6 / 32, rel=1e-9)


def test_probability_one_against_the_sampler_above_the_threshold():
    # the learner's own release (StabilityHistogram.release) at a fixed seed; 2e5 draws: SE <= 1.2e-3, 5 SE
    mech = StabilityHistogram(1.0, 0.1)  # τ = 2 ln 20 + 1 = 6.99
    rng = np.random.default_rng(5)
    for c0, c1 in ((5, 7), (7, 5), (9, 9), (3, 12)):
        r = mech.release(np.tile([c0, c1], (200_000, 1)), rng)
        p = remark18_probability_one(mech, c0, c1)
        assert abs(np.mean(r[:, 1] > r[:, 0]) - p) < 5 * math.sqrt(p * (1 - p) / 200_000)


def test_planted_threshold_bug_caught_with_its_exact_value():
    eps, delta = 1.0, 1e-3
    r = remark18_count_profile(PCDEClassifierThresholdNoScale(epsilon=eps, delta=delta, side=0.5), eps, delta,
                               dataset_size=3, epsilons=[eps])
    assert not r.check.holds
    assert r.check.delta_actual == pytest.approx(0.5 * (delta / 2) ** (eps / 2), rel=1e-12)  # 0.01118 > δ


def test_planted_half_scale_bug_invisible_below_and_caught_above_the_threshold():
    eps, delta = 1.0, 1e-3  # counts <= 3 < τ: only the lone-record release, ½ e^{-ε(τ-1)} = δ²/8
    low = remark18_count_profile(PCDEClassifierHalfScale(epsilon=eps, delta=delta, side=0.5), eps, delta,
                                 dataset_size=3, epsilons=[eps])
    assert low.check.holds and low.check.delta_actual == pytest.approx(delta ** 2 / 8, rel=1e-12)
    eps, delta = 4.0, 0.5  # τ = ½ ln 4 + 1 = 1.69 <= 2: the label flip (3, 2) -> (2, 3) is two plain Laplace cells
    high = remark18_count_profile(PCDEClassifierHalfScale(epsilon=eps, delta=delta, side=0.5), eps, delta,
                                  dataset_size=5, points=(0.3,), epsilons=[eps])
    assert not high.check.holds
    assert high.check.delta_actual == pytest.approx(1 - math.exp(-eps / 2) * (1 + eps / 4), rel=1e-9)  # 0.7293


def test_check_guards():
    with pytest.raises(ValueError, match="private"):
        remark18_count_profile(PCDEClassifier(epsilon=None), 1.0, 1e-3)
    with pytest.raises(ValueError, match="PCDEClassifier"):
        remark18_count_profile(object(), 1.0, 1e-3)
    with pytest.raises(ValueError, match="epsilon=0"):
        remark18_count_profile(PCDEClassifier(), 0, 1e-3)
    with pytest.raises(ValueError, match="dataset_size=0"):
        remark18_classifier_profile(PCDEClassifier(), 1.0, 1e-3, dataset_size=0)
    with pytest.raises(ValueError, match="epsilons"):
        remark18_count_profile(PCDEClassifier(), 1.0, 1e-3, epsilons=[-1.0])


# ----------------------------------------------------------------------------- the experiment
def test_smoke_claims_well_formed(smoke_run):
    run = smoke_run("remark18_classifier")
    rec = run.record
    claims = rec["claims"]
    assert len(claims) == 4
    for c in claims:
        assert set(c) >= {"claim", "expected", "measured", "holds", "verdict", "detail"}
        assert c["verdict"] in ("holds", "fails", "inconclusive")
        assert c["holds"] is None if c["verdict"] == "inconclusive" else c["holds"] == (c["verdict"] == "holds")
    assert all("Remark 1.8" in c["claim"] for c in claims)
    assert claims[-1]["holds"] is True and claims[-1]["measured"] == 0  # the corollary's inequality: exact, any seed
    header = (run.folder / "excess_vs_n.csv").read_text().splitlines()[0]
    assert header == "law,n,delta,rule,trials,mean_excess,ci_low,ci_high"
    assert (run.folder / "comparison.csv").exists() and (run.folder / "excess_vs_n.png").exists()
