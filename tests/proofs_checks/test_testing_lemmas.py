"""Tests of :mod:`proofs_checks.testing_lemmas` and the ``lemma_tests_lp`` experiment (003 Lemmas 1, 3, eq. (97)).

Expected values are solved by hand in each docstring, never read off the solver."""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_checks.channels import check_channel
from proofs_checks.testing_lemmas import (group_test_optimum, label_cube, min_bayes_error_counts,
                                          min_private_test_error)


def test_one_label_lp_optimum_by_hand():
    """n = 1, ε = ln 2, D = (−1), D' = (+1): minimize a + b with a = q(−), b = 1 − q(+) under a >= (1 − b)/2,
    b >= (1 − a)/2 (both DP constraints): the vertex a = b = 1/3, value 2/3 (003 eq. (91) is attained)."""
    res = min_private_test_error([1, 0], [0, 1], n=1, num_values=2, epsilon=math.log(2))
    assert res.value == pytest.approx(2 / 3, abs=1e-9)
    assert res.accept == pytest.approx([1 / 3, 2 / 3], abs=1e-9)
    # the optimal test as a channel label -> (accept, reject) is exactly ln 2-DP (all row pairs are neighbours)
    chk = check_channel(np.stack([res.accept, 1 - res.accept], axis=1), math.log(2))
    assert chk.holds and chk.epsilon_actual == pytest.approx(math.log(2), abs=1e-7)


def test_two_labels_lp_optimum_is_one_over_root_two():
    """n = 2, l = 2 (D = (−,−), D' = (+,+)), ε = ln 2/2 (lε = ln 2): the chain q = (e^{−ε}/2, 1/2, 1 − e^{−ε}/2)
    on the number of +1 labels is feasible (ratios e^ε) and a lower bound follows from the two-step chain
    a >= e^{−ε} q(mid), 1 − q(mid) <= e^ε b: value e^{−ε} = 2^{−1/2} > 2/3, not the proof's 2/(1 + e^{lε}) = 2/3."""
    null = np.array([1.0, 0, 0, 0])  # label_cube(2, 2): rows (0,0), (1,0), (0,1), (1,1); digit 0 = label −1
    alt = np.array([0, 0, 0, 1.0])
    assert label_cube(2, 2).tolist() == [[0, 0], [1, 0], [0, 1], [1, 1]]
    res = min_private_test_error(null, alt, n=2, num_values=2, epsilon=math.log(2) / 2)
    assert res.value == pytest.approx(2 ** -0.5, abs=1e-9)
    assert group_test_optimum(2, math.log(2) / 2) == pytest.approx(2 ** -0.5, rel=1e-15)


@pytest.mark.parametrize("l, eps, expected", [(1, math.log(2), 2 / 3), (3, math.log(2), 1 / 3),
                                              (4, math.log(3), 1 / 9), (0, 1.0, 1.0)])
def test_group_test_optimum_closed_form(l, eps, expected):
    """By hand: l odd 2e^{−(l−1)ε/2}/(1 + e^ε): l = 3, e^ε = 2: 2·(1/2)/3 = 1/3; l even e^{−lε/2}: l = 4,
    e^ε = 3: 1/9."""
    assert group_test_optimum(l, eps) == pytest.approx(expected, rel=1e-14)


def test_bayes_lp_on_counts_equals_the_full_cube():
    """Symmetry: for i.i.d. labels the best DP test may be taken a function of the count (003 eq. (97));
    the count LP and the LP on all 2^4 labellings agree."""
    n, a, eps = 4, 0.4, 0.7
    cube = 2 * label_cube(n, 2) - 1
    lik = {v: np.prod((1 + v * a * cube) / 2, axis=1) for v in (-1, 1)}
    full = min_private_test_error(0.5 * lik[-1], 0.5 * lik[1], n=n, num_values=2, epsilon=eps)
    assert min_bayes_error_counts(n, a, eps).value == pytest.approx(full.value, abs=1e-9)


def test_bayes_lp_one_label_by_hand():
    """n = 1, a = 1 (Y = V), ε = ln 2: error ½(q(−) + 1 − q(+)) = ½·(2/3) = 1/3 (the one-label optimum above)."""
    assert min_bayes_error_counts(1, 1.0, math.log(2)).value == pytest.approx(1 / 3, abs=1e-9)


def test_guards():
    with pytest.raises(ValueError, match="epsilon"):
        min_private_test_error([1, 0], [0, 1], n=1, num_values=2, epsilon=-1.0)
    with pytest.raises(ValueError, match="null_weights"):
        min_private_test_error([1, 0, 0], [0, 1], n=1, num_values=2, epsilon=1.0)
    with pytest.raises(ValueError, match="a must"):
        min_bayes_error_counts(3, 1.5, 1.0)


def test_experiment_smoke_claims():
    """The smoke run: both lemmas hold exactly at the edge (min 2/3 at l = 1), the closed form matches, the
    conditioning counterexample is 1/3, eq. (97) holds."""
    from proofs_checks.experiments.lemma_tests_lp import compute
    from simulations.experiments.base import RunContext

    res = compute(RunContext(profile="smoke"))
    by_kind = [(c.kind, c.holds) for c in res.claims]
    assert all(h for _, h in by_kind) and [k for k, _ in by_kind].count("erratum") == 1
    assert res.claims[0].measured == pytest.approx(2 / 3, abs=1e-9)
    err = [c for c in res.claims if c.kind == "erratum"][0]
    assert err.finding == "003 lemma1 conditioning" and err.measured == pytest.approx(1 / 3, abs=1e-9)


def test_three_point_bayes_lp_one_label_by_hand():
    """003 eq. (156) with M_p/T^p = 1/2, η/T = 1/2, one label, ε = ln 2: under V = 1 the label is T or 0 (½ each),
    under V = −1 it is −T or 0. The error ¼(q(−T) + q(0)) + ¼(1 − q(T) + 1 − q(0)) = ¼(2 + q(−T) − q(T)) does not
    depend on q(0); min q(−T) − q(T) = 2/3 − 1 (the one-label optimum above), so the error is ¼(2 − 1/3) = 5/12."""
    from proofs_checks.testing_lemmas import min_bayes_error_three_point

    assert min_bayes_error_three_point(1, 0.5, 0.5, math.log(2)).value == pytest.approx(5 / 12, abs=1e-9)
    with pytest.raises(ValueError, match="eta_over_T"):
        min_bayes_error_three_point(2, 0.3, 0.5, 1.0)
