"""Full-DP (replace one record (x, y)) checks of 001's learners and building blocks.

Expected values are derived by hand in the docstrings of proofs_checks.full_dp: a vote moved by 1/2 in two
cells costs ε/2 + ε/2 in the Laplace tails; a one-point cube under a label flip costs ln(2e^{ε/2} - 1).
"""

import itertools
import math

import numpy as np
import pytest

from proofs_checks import check_label_dp, is_tight, stability_profile
from proofs_checks.full_dp import (bits_loss, full_dp_noisy_majority, full_dp_pcl, full_dp_stability_histogram,
                                   neighbouring_multisets)
from simulations.mechanisms import NoisyMajority, StabilityHistogram


def test_neighbouring_multisets_count():
    # k domain points, n records: each multiset S, each distinct element e of S, each e' != e
    pairs = list(neighbouring_multisets(3, 2))
    assert len(pairs) == 3 * 2 + 3 * 2 * 2  # {a,a}: 1 element x 2 replacements; {a,b}: 2 x 2
    assert all(len(set(zip(*[sorted(S), sorted(S2)]))) >= 1 for S, S2 in pairs)


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
@pytest.mark.parametrize("n", [2, 3])
def test_noisy_majority_full_dp_is_exactly_eps(eps, n):
    r = full_dp_noisy_majority(NoisyMajority(eps), eps, num_cells=3, dataset_size=n)
    assert r.holds and is_tight(r.epsilon_actual, eps)


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
def test_noisy_majority_full_dp_single_record(eps):
    # one record moving from cube c (vote 1/2 -> 0) to an empty cube c' (0 -> ±1/2): for the bit pattern
    # (h_c = 1, h_c' = 0) the log-ratio is ln((1 - ½e^{-ε/2})/½) + ln(½/(½e^{-ε/2})) = ln(2 - e^{-ε/2}) + ε/2
    r = full_dp_noisy_majority(NoisyMajority(eps), eps, num_cells=3, dataset_size=1)
    assert r.epsilon_actual == pytest.approx(eps / 2 + math.log(2 - math.exp(-eps / 2)), rel=1e-12)


def test_full_vs_label_only_difference_single_point():
    eps = 1.0
    label_only = check_label_dp(NoisyMajority(eps), eps, sizes=(1,)).epsilon_actual
    assert label_only == pytest.approx(math.log(2 * math.exp(eps / 2) - 1), rel=1e-12)
    one_cell = full_dp_noisy_majority(NoisyMajority(eps), eps, num_cells=1, dataset_size=1).epsilon_actual
    assert one_cell == pytest.approx(label_only, rel=1e-12)  # one cell: a replacement is a label flip
    two_cells = full_dp_noisy_majority(NoisyMajority(eps), eps, num_cells=2, dataset_size=2).epsilon_actual
    assert two_cells == pytest.approx(eps, rel=1e-12)  # label-only needs a cube of >= 2 points for ε


def test_planted_bug_half_noise_scale_has_loss_two_eps():
    eps = 0.7
    r = full_dp_noisy_majority(NoisyMajority(2 * eps), eps, num_cells=2, dataset_size=2)
    assert not r.holds and r.epsilon_actual == pytest.approx(2 * eps, rel=1e-12)


@pytest.mark.parametrize("d,m,n", [(1, 3, 3), (2, 2, 2)])
def test_pcl_learner_full_dp_exactly_eps(d, m, n):
    r = full_dp_pcl(0.9, cubes_per_axis=m, d=d, dataset_size=n)
    assert r.holds and is_tight(r.epsilon_actual, 0.9)


def test_bits_loss_equals_enumeration_of_all_outputs():
    rng = np.random.default_rng(1)
    p, q = rng.uniform(0.05, 0.95, 4), rng.uniform(0.05, 0.95, 4)
    best = 0.0
    for z in itertools.product((0, 1), repeat=4):
        z = np.array(z, bool)
        lp = np.log(np.where(z, p, 1 - p)).sum()
        lq = np.log(np.where(z, q, 1 - q)).sum()
        best = max(best, abs(lp - lq))
    assert bits_loss(np.log(p), np.log1p(-p), np.log(q), np.log1p(-q)) == pytest.approx(best, rel=1e-12)


@pytest.mark.parametrize("eps,delta", [(1.0, 1e-3), (0.5, 1e-5)])
def test_stability_histogram_full_dp_equals_label_only(eps, delta):
    mech = StabilityHistogram(eps, delta)
    full = full_dp_stability_histogram(mech, eps, delta, domain_size=3, dataset_size=4)
    label = float(stability_profile(mech, [eps], dataset_size=4)[0])
    assert full.holds
    assert full.delta_actual == pytest.approx(label, rel=1e-12)
    # the pair (1, 0) -> (0, 1): cell A released with prob ½ e^{-(τ-1)/b} = δ/4 only under S
    assert full.delta_actual >= delta / 4 * (1 - 1e-9)


def test_bad_input():
    with pytest.raises(ValueError, match="epsilon=0"):
        full_dp_pcl(0)
    with pytest.raises(ValueError, match="dataset_size=0"):
        list(neighbouring_multisets(2, 0))
    with pytest.raises(ValueError, match="delta=1.5"):
        full_dp_stability_histogram(StabilityHistogram(1.0, 1e-3), 1.0, 1.5)


def test_pcde_learner_full_dp_equals_stability_histogram():
    from proofs_checks.full_dp import full_dp_pcde
    eps, delta = 1.0, 1e-3
    r = full_dp_pcde(eps, delta, dataset_size=3)
    ref = full_dp_stability_histogram(StabilityHistogram(eps, delta), eps, delta, domain_size=3, dataset_size=3)
    assert r.holds and r.delta_actual == pytest.approx(ref.delta_actual, rel=1e-12)


def test_pcl2_learner_on_the_sphere_full_dp_exactly_eps():
    from proofs_checks.full_dp import full_dp_pcl2
    r = full_dp_pcl2(1.0, r=1.3, domain_cells=3, dataset_size=3)
    assert r.holds and is_tight(r.epsilon_actual, 1.0)


def test_pcl2b_probability_against_monte_carlo_free_limits():
    from proofs_checks.full_dp import pcl2b_probability_one
    mech = StabilityHistogram(1.0, 0.1)
    assert pcl2b_probability_one(mech, 0, 0) == 0.0 and pcl2b_probability_one(mech, 5, 0) == 0.0
    # far above the threshold the released counts are c + W1, k + W2: P(k + W2 > (c + W1)/2) -> 1 for k = c
    assert pcl2b_probability_one(mech, 400, 400) == pytest.approx(1.0, abs=1e-12)
    # one point: ĉ and ŷ are released only if 1 + W >= τ; P(h=1) <= P(ĉ released) = δ/4
    assert pcl2b_probability_one(mech, 1, 1) <= 0.1 / 4


def test_pcl2b_theorem_a14_holds_and_is_loose():
    from proofs_checks.full_dp import full_dp_pcl2b
    r = full_dp_pcl2b(1.0, 0.1, num_cells=2, dataset_size=8)
    assert r.holds and r.delta_actual < 0.2  # Theorem A.14: (2ε, 2δ)
    at_eps = full_dp_pcl2b(1.0, 0.1, num_cells=2, dataset_size=8, claimed_epsilon=1.0, claimed_delta=0.1)
    assert at_eps.holds  # the released classifier is even (ε, δ) on these datasets
