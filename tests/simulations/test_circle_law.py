"""CircleMixture (000 Section 5.1): posterior, Bayes accuracy against independent quadratures, guards."""

import math

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate
from scipy.stats import norm

from simulations.laws import CircleMixture


def test_bayes_accuracy_closed_forms():
    # K = 2: the Bayes region of class 0 is the half-plane x1 > 0, so accuracy = Φ(1/σ).
    for s in (0.3, 0.7, 1.5):
        assert abs(CircleMixture(2, s).bayes_accuracy() - norm.cdf(1 / s)) < 1e-10
    # K = 4: the wedge |x2| < x1 is a quadrant in coordinates rotated by 45°, where the class-0 mean
    # is (1/√2, 1/√2) with independent coordinates: accuracy = Φ(1/(√2 σ))².
    for s in (0.2, 0.5, 1.0):
        assert abs(CircleMixture(4, s).bayes_accuracy() - norm.cdf(1 / (math.sqrt(2) * s)) ** 2) < 1e-10


@pytest.mark.parametrize("K,sigma", [(3, 0.3), (7, 0.1), (50, 0.04)])
def test_bayes_accuracy_cartesian_wedge_dblquad(K, sigma):
    # Independent: Cartesian dblquad of the class-0 Gaussian density over its wedge |x2| <= x1 tan(π/K).
    tan = math.tan(math.pi / K)

    def phi(x2, x1):
        return math.exp(-((x1 - 1) ** 2 + x2 ** 2) / (2 * sigma ** 2)) / (2 * math.pi * sigma ** 2)

    val, _ = integrate.dblquad(phi, 0, 1 + 12 * sigma, lambda x1: -x1 * tan, lambda x1: x1 * tan,
                               epsabs=1e-11, epsrel=1e-10)
    assert abs(CircleMixture(K, sigma).bayes_accuracy() - val) < 1e-6


@pytest.mark.parametrize("K,sigma", [(3, 0.35), (6, 0.15)])
def test_bayes_accuracy_full_plane_grid(K, sigma):
    # No symmetry used: midpoint rule of max_j φ_j(x) / K over a box holding all the mass.
    law = CircleMixture(K, sigma)
    half = 1 + 8 * sigma
    m = 1600
    g = -half + (np.arange(m) + 0.5) * (2 * half / m)
    x1, x2 = np.meshgrid(g, g, indexing="ij")
    X = np.stack([x1.ravel(), x2.ravel()], axis=1)
    mu = law.means()
    best = np.zeros(X.shape[0])
    for j in range(K):
        best = np.maximum(best, np.exp(-((X - mu[j]) ** 2).sum(axis=1) / (2 * sigma ** 2)))
    val = best.sum() * (2 * half / m) ** 2 / (K * 2 * math.pi * sigma ** 2)
    assert abs(law.bayes_accuracy() - val) < 1e-4


def test_posterior_rows_sum_to_one_and_match_mpmath():
    law = CircleMixture(5, 0.05)
    rng = np.random.default_rng(1)
    X = np.concatenate([law.sample(50, rng)[0], [[0.0, 0.0], [300.0, -200.0], [1e-3, 1e-3]]])
    eta = law.posterior(X)
    assert np.all(np.isfinite(eta)) and np.all(eta >= 0)
    np.testing.assert_allclose(eta.sum(axis=1), 1.0, atol=1e-12)
    mp.mp.dps = 50
    mu = law.means()
    for x, row in zip(X[::7], eta[::7]):
        w = [mp.exp(-((mp.mpf(x[0]) - mu[j, 0]) ** 2 + (mp.mpf(x[1]) - mu[j, 1]) ** 2) / (2 * mp.mpf(0.05) ** 2))
             for j in range(5)]
        tot = mp.fsum(w)
        for j in range(5):
            assert abs(float(w[j] / tot) - row[j]) < 1e-12


def test_sample_and_bayes_accuracy_by_monte_carlo():
    law = CircleMixture(10, 0.2)
    X, Y = law.sample(200_000, np.random.default_rng(2))
    assert X.shape == (200_000, 2) and Y.dtype == np.int64
    counts = np.bincount(Y, minlength=10)
    assert np.all(np.abs(counts - 20_000) < 5 * math.sqrt(200_000 * 0.1 * 0.9))  # 5-sigma binomial
    hit = (np.argmax(law.posterior(X), axis=1) == Y).astype(float)
    se = hit.std() / math.sqrt(hit.size)
    assert abs(hit.mean() - law.bayes_accuracy()) < 5 * se  # 5-sigma: fails with prob < 1e-6


def test_density_integrates_and_ball_mass():
    law = CircleMixture(4, 0.3)
    # ball mass of a huge ball is 1; of radius 0 is 0; a mid ball vs dblquad of the density
    x = np.array([[0.2, -0.1]])
    assert law.ball_mass(x, 50.0)[0] == pytest.approx(1.0, abs=1e-12)
    assert law.ball_mass(x, 0.0)[0] == 0.0
    r = 0.4
    val, _ = integrate.dblquad(lambda t, rho: rho * law.density(np.array([[0.2 + rho * math.cos(t),
                                                                           -0.1 + rho * math.sin(t)]]))[0],
                               0, r, 0, 2 * math.pi, epsabs=1e-10)
    assert law.ball_mass(x, r)[0] == pytest.approx(val, abs=1e-8)
    r0 = law.r0(x, 0.04)
    assert law.ball_mass(x, r0)[0] == pytest.approx(0.04, rel=1e-7)


def test_lipschitz_two_classes_closed_form():
    # K = 2: η_0 = 1/(1 + exp(-2 x1/σ²)), |∇η_0| = (2/σ²) η_0 (1 − η_0) <= 1/(2σ²), attained at x1 = 0.
    s = 0.5
    assert CircleMixture(2, s).lipschitz() == pytest.approx(1 / (2 * s ** 2), rel=1e-9)


@pytest.mark.parametrize("kw,name", [(dict(num_classes=1, sigma=0.1), "num_classes=1"),
                                     (dict(num_classes=2.0, sigma=0.1), "num_classes=2.0"),
                                     (dict(num_classes=3, sigma=0.0), "sigma=0.0"),
                                     (dict(num_classes=3, sigma=-1.0), "sigma=-1.0"),
                                     (dict(num_classes=3, sigma=float("nan")), "sigma=nan"),
                                     (dict(num_classes=3, sigma=float("inf")), "sigma=inf")])
def test_guards(kw, name):
    with pytest.raises(ValueError, match=name):
        CircleMixture(**kw)


def test_sample_guard():
    with pytest.raises(ValueError, match="n=-1"):
        CircleMixture(3, 0.1).sample(-1, np.random.default_rng(0))
    X, Y = CircleMixture(3, 0.1).sample(0, np.random.default_rng(0))
    assert X.shape == (0, 2) and Y.shape == (0,)
