"""001 Lemma 3.3 on PCL's cubes (:func:`proofs_checks.partition_conditions.pcl_cube_probabilities`) and the smoke
run of ``pcl_partition_conditions``.

Expected values are exact: cube masses are lengths of the cut grid (fractions) or Beta(2, 5) cdf differences
(the cdf in closed form, 1 − (1 − t)^6 − 6t(1 − t)^5), and Pr[N(x) <= k] is summed as rational binomials.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.partition_conditions import pcl_cube_probabilities, prob_few_points
from proofs_checks.experiments.pcl_partition import MARGINALS, few_points_row


def _binom_cdf(k, n, p: Fraction) -> Fraction:
    return sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k + 1))


def test_cut_grid_masses_in_2d():
    # side 0.3: edges 0, .3, .6, .9, 1 -> lengths .3, .3, .3, .1; the corner cube (last, last) has mass 0.01
    p = pcl_cube_probabilities(0.3, 2).reshape(4, 4)
    lengths = np.array([0.3, 0.3, 0.3, 0.1])
    assert np.allclose(p, np.outer(lengths, lengths), atol=1e-15)
    assert p[3, 3] == pytest.approx(0.01, abs=1e-15)


def test_beta_marginal_masses_match_closed_form_cdf():
    F = lambda t: 1 - (1 - t) ** 6 - 6 * t * (1 - t) ** 5  # Beta(2, 5) cdf
    p = pcl_cube_probabilities(0.25, 1, MARGINALS["beta(2,5)"])
    expected = [F(b) - F(a) for a, b in ((0, .25), (.25, .5), (.5, .75), (.75, 1))]
    assert p == pytest.approx(expected, abs=1e-14)


@pytest.mark.parametrize("n,d,k", [(100, 1, 0), (100, 1, 10), (16, 2, 1), (64, 3, 10), (4096, 2, 1)])
def test_uniform_equal_cubes_exact_binomial(n, d, k):
    # n = m^(2d): r = 1/m exactly, m^d cubes of mass m^-d = n^-1/2; Pr[N(x) <= k] = P(Bin(n, n^-1/2) <= k)
    m = round(n ** (1 / (2 * d)))
    exact = _binom_cdf(k, n, Fraction(1, m ** d))
    row = few_points_row("uniform", d, n)
    assert row["cubes"] == m ** d
    assert math.isclose(row["few"][k], float(exact), rel_tol=1e-10)


def test_sliver_cube_raises_probability():
    # n = 10^6.5 in d = 3: 1/r = n^(1/6) = 12.115, just above 12, so each axis ends with a sliver of width
    # w = 1 − 12r and the corner cube has mass w^3 ≈ 8.6e-7, so small that it is empty with probability
    # (1 − w^3)^n ≈ 0.066; Pr[N(x) = 0] jumps (at n = 10^6, 1/r = 10 exactly: 1000 equal cubes, ~e^-1000)
    n = 3_162_278
    r = n ** (-1 / 6)
    w = 1 - 12 * r
    lo, hi = few_points_row("uniform", 3, 10 ** 6), few_points_row("uniform", 3, n)
    assert lo["cubes"] == 1000 and hi["cubes"] == 13 ** 3
    assert hi["min_mass"] == pytest.approx(w ** 3, rel=1e-9)
    corner = w ** 3 * (1 - w ** 3) ** n  # the corner cube's own share of Pr[N(x) = 0]
    assert hi["few"][0] >= corner > 1e-9 > lo["few"][0]


def test_smoke_claims(smoke_run):
    rec = smoke_run("pcl_partition_conditions").record
    assert [c["kind"] for c in rec["claims"]] == ["paper"] * 6 + ["beyond", "beyond"]
    # uniform, d = 1: the last decade of the smoke grid is n = 1e4 (100 cubes of mass 1/100) and 1e5; its
    # largest Pr[N(x) <= 10] is at least the exact P(Bin(10^4, 1/100) <= 10) = 7.6e-31
    first = rec["claims"][0]
    assert first["holds"] is True
    assert first["measured"] >= float(_binom_cdf(10, 10 ** 4, Fraction(1, 100))) > 1e-31
