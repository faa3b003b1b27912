"""Exact privacy of the semi-supervised learners of 001 Section 4.1 (proofs_checks/cssl_check.py).

Expected values: the closed form derived in the module docstring, re-derived here in exact rationals at
ε = 2 ln 2 (a = e^{ε/2} = 2): sup loss = ln((1 + N 2^m) / (1 + N 2^{m-2})).
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.cssl_check import (SemiPrivateLearnerDoubledScore, check_private_cssl, check_semi_private,
                                      gap_points, semi_private_worst_loss)
from proofs_checks.dp import is_tight
from simulations.estimators.cssl import SemiPrivateLearner

PUBLIC = (0.2, 0.5, 0.8)


def _rational_sup(N, m):
    return math.log(Fraction(1 + N * 2 ** m) / Fraction(1 + N * Fraction(2) ** (m - 2)))


@pytest.mark.parametrize("k, m", [(2, 1), (2, 3), (3, 2), (3, 3)])
def test_thresholds_exact_loss_is_the_closed_form_below_eps(k, m):
    eps = 2 * math.log(2)
    public = PUBLIC[:k] if k <= 3 else None
    r = check_semi_private(eps, public=public, dataset_size=m)
    assert r.epsilon_actual == pytest.approx(_rational_sup(k, m), rel=1e-12)
    assert r.epsilon_actual == pytest.approx(semi_private_worst_loss(eps, k, m), rel=1e-12)
    assert r.holds and r.epsilon_actual < eps and not is_tight(r.epsilon_actual, eps)


def test_witness_is_the_derived_one_and_label_only_agrees():
    r = check_semi_private(1.0, public=PUBLIC, dataset_size=3)
    lowest = gap_points(PUBLIC)[0]  # below every public point
    assert r.witness["hypothesis"] == 0  # t = -inf, the all-ones labelling
    assert all(x == lowest for x, _ in r.witness["S"] + r.witness["S_prime"])
    lab = check_semi_private(1.0, public=PUBLIC, dataset_size=3, relation="label")
    assert lab.epsilon_actual == pytest.approx(r.epsilon_actual, rel=1e-12)


def test_loss_tends_to_eps_but_the_tiny_data_do_not_reach_it():
    vals = [semi_private_worst_loss(1.0, 3, m) for m in (1, 2, 4, 8, 16, 64)]
    assert all(a < b < 1.0 for a, b in zip(vals, vals[1:])) and vals[-1] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("eps, m", [(0.5, 2), (1.0, 3)])
def test_planted_bug_sensitivity_two_used_as_one_has_the_exact_loss_at_two_eps(eps, m):
    r = check_semi_private(eps, public=PUBLIC, dataset_size=m, learner=SemiPrivateLearnerDoubledScore)
    wrong = semi_private_worst_loss(2 * eps, 3, m)
    assert r.epsilon_actual == pytest.approx(wrong, rel=1e-12)
    assert not r.holds and wrong > eps  # N e^{ε(m-1)} > 1: the bug violates ε-DP


def test_intervals_within_eps_and_below_the_unattained_bound():
    r = check_semi_private(1.0, public=PUBLIC[:2], dataset_size=3, hypothesis_class="intervals")
    bound = semi_private_worst_loss(1.0, 3, 3)  # N = |H| - 1 = 1 + 2 + 1 - 1
    assert r.holds and r.epsilon_actual < bound < 1.0


def test_theorem_4_11_learner_exact_epsilon_delta():
    res = check_private_cssl(1.0, 1e-3, n_synthetic=3, dataset_size=3)
    assert res.holds and (res.epsilon, res.delta) == (1.0, 1e-3)
    assert res.labeled.epsilon_actual == pytest.approx(res.labeled_closed_form, rel=1e-12)
    # the stability histogram's worst pair empties a one-record cube: release probability δ/4 (full_dp_checks)
    assert res.unlabeled.delta_actual == pytest.approx(1e-3 / 4, rel=1e-9)


def test_guards():
    with pytest.raises(ValueError, match="relation"):
        check_semi_private(1.0, public=PUBLIC, dataset_size=2, relation="add")
    with pytest.raises(ValueError, match="dataset_size"):
        check_semi_private(1.0, public=PUBLIC, dataset_size=0)
    with pytest.raises(ValueError, match="n_alternatives"):
        semi_private_worst_loss(1.0, 0, 2)
    assert isinstance(SemiPrivateLearnerDoubledScore(), SemiPrivateLearner)
    assert gap_points([]).tolist() == [0.0] and np.all(np.diff(gap_points([0.3, 0.1])) > 0)
