"""``CircleMixture.r0`` (000 eq. (30)): the fast search returns the plain bisection's array bit for bit.

r0 is defined as the result of a bisection on the ball mass (a relative 1e-9 above the exact radius);
issue 20 made it ~5x cheaper by locating the root with Newton's method and replaying the bisection,
evaluating the ball mass only for midpoints within 1e-10 of that root. The oracle is the plain
bisection (``_r0_bisection``), every comparison evaluated; equality is exact, not approximate, so
that the committed ``vector_theorem2`` CSVs did not change.
"""

import numpy as np
import pytest

from simulations.laws import CircleMixture


@pytest.mark.parametrize("K", [2, 5, 10, 20, 50, 100])
def test_r0_equals_the_bisection_bit_for_bit_on_the_experiments_grid(K):
    # Both panels of vector_theorem2 (σ = 0.05 and σ = 2/K) and its masses 2k/N, k = 200, N = 2500..40000,
    # plus k = 50, N = 1000 of the smoke profile and mass 1/K (where p_r can be flat at exactly the mass in
    # floating point: a ball holding one well separated class; smoke has K = 10, 2k/N = 0.1); evaluation
    # points drawn from the law as in a trial.
    rng = np.random.default_rng(K)
    for sigma in (0.05, 2 / K):
        law = CircleMixture(K, sigma)
        X, _ = law.sample(16 if K < 50 else 8, rng)
        for mass in (2 * 200 / 2500, 2 * 200 / 10000, 2 * 200 / 40000, 2 * 50 / 1000, 1 / K):
            np.testing.assert_array_equal(law.r0(X, mass), law._r0_bisection(X, mass))


def test_r0_equals_the_bisection_at_edge_points_and_masses():
    law = CircleMixture(3, 0.1)
    X = np.array([[1.0, 0.0],            # exactly on a mean: noncentrality 0 for that component
                  [0.0, 0.0],            # the centre, equidistant from every mean
                  [4.0, -3.0],           # far outside: density ~ 0, the small-ball guess is useless
                  [np.cos(2 * np.pi / 3), np.sin(2 * np.pi / 3)]])
    for mass in (1e-9, 1e-4, 0.3, 0.9, 0.999):
        np.testing.assert_array_equal(law.r0(X, mass), law._r0_bisection(X, mass))
    r = law.r0(X, 0.3)
    np.testing.assert_allclose(law.ball_mass(X, r), 0.3, rtol=1e-8)  # the definition, to the bisection's width
    assert np.all(law.ball_mass(X, r * (1 - 2e-9)) < 0.3)


@pytest.mark.parametrize("mass", [0.0, 1.0, -0.1, float("nan")])
def test_r0_rejects_masses_outside_0_1(mass):
    with pytest.raises(ValueError, match="mass"):
        CircleMixture(2, 0.5).r0([[0.0, 0.0]], mass)
