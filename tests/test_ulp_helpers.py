"""The comparison helpers of tests/_ulp.py, on values built by hand with ``np.nextafter`` (so a
helper that accepted everything, or measured in the wrong unit, fails here)."""

import math

import numpy as np
import pytest

from tests._ulp import (U, assert_allclose_ulp, assert_no_near_neighbour_ties, assert_within, gamma, min_relative_gap,
                         ulp_distance)


def _steps(x, n):
    """x moved n representable doubles towards +inf."""
    for _ in range(n):
        x = np.nextafter(x, np.inf)
    return x


def test_ulp_distance_counts_spacings():
    x = np.array([1.0, 3.7, -2.5e-300, 1e300])
    for n in (0, 1, 2, 5):
        np.testing.assert_array_equal(ulp_distance(x, _steps(x, n)), float(n))
    # across a binade: from 1 - 2^-53 (spacing 2^-53) up to 1 + 2^-52 (spacing 2^-52) is 3·2^-53,
    # i.e. 1.5 spacings of the larger magnitude
    assert ulp_distance(1.0 - 2.0 ** -53, 1.0 + 2.0 ** -52) == 1.5
    assert ulp_distance(0.0, 0.0) == 0.0 and ulp_distance(-0.0, 0.0) == 0.0
    assert ulp_distance(np.inf, np.inf) == 0.0 and ulp_distance(np.nan, np.nan) == 0.0
    assert ulp_distance(np.inf, 1.0) == np.inf and ulp_distance(np.nan, 1.0) == np.inf
    assert ulp_distance(np.inf, -np.inf) == np.inf


def test_assert_allclose_ulp_passes_at_and_fails_above_the_bound():
    x = np.linspace(-3, 7, 11)
    assert_allclose_ulp(_steps(x, 4), x, 4)
    with pytest.raises(AssertionError, match="differ by more than 3 ulp"):
        assert_allclose_ulp(_steps(x, 4), x, 3)
    with pytest.raises(AssertionError, match="shapes"):
        assert_allclose_ulp(x, x[:-1], 1)
    with pytest.raises(AssertionError):
        assert_allclose_ulp(np.array([np.nan]), np.array([1.0]), 1e9)


def test_assert_within():
    assert_within([1.0, 2.0], [1.1, 2.0], [0.11, 0.0])
    with pytest.raises(AssertionError, match="outside the bound"):
        assert_within([1.0, 2.0], [1.1, 2.0], 0.05)
    with pytest.raises(AssertionError):
        assert_within([np.nan], [1.0], 1.0)


def test_gamma_and_summation_bound():
    assert gamma(0) == 0 and gamma(10) == pytest.approx(10 * 2.0 ** -53, rel=1e-14)
    assert U == 2.0 ** -53 == np.finfo(np.float64).eps / 2
    # the bound holds for the worst case of the classic example: 1 + many tiny terms in both orders
    v = np.r_[1.0, np.full(1000, 2.0 ** -54)]
    forward = 0.0
    for t in v:
        forward += t
    exact = math.fsum(v)
    assert abs(forward - exact) <= gamma(v.size - 1) * np.abs(v).sum()
    assert forward != exact  # the bound is not vacuous here: recursive summation does err


def test_min_relative_gap():
    assert min_relative_gap([1.0, 2.0, 4.0]) == pytest.approx(0.5)
    assert min_relative_gap(np.array([[0.0, 1.0], [1.0, 1.0]]), axis=1) == 0.0
    assert min_relative_gap([5.0]) == np.inf


def test_assert_no_near_neighbour_ties():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    assert_no_near_neighbour_ties(X, np.array([[0.1, 0.1]]), 2)  # squared distances 0.02, 0.82, 3.62
    # (1, 1) is at squared distance 1 from (1, 0) and 2 from both (0, 0) and (0, 2): a tie at ranks 2-3
    with pytest.raises(AssertionError, match="near-tied"):
        assert_no_near_neighbour_ties(X, np.array([[1.0, 1.0]]), 2)
    # a tie beyond the k + 1 nearest does not matter: k = 1 looks at ranks 1-2 only (1 and 2)
    assert_no_near_neighbour_ties(X, np.array([[1.0, 1.0]]), 1)
    # two distances 1e-13 apart relatively are a near-tie at the default 1e-12
    Y = np.array([[1.0], [-(1.0 + 1e-13)]])
    with pytest.raises(AssertionError, match="near-tied"):
        assert_no_near_neighbour_ties(Y, np.array([[0.0]]), 1)
