"""Exact privacy profiles δ(ε'): closed forms against independent integrations and a rigorous sandwich.

Sandwich used for continuous outputs: partition the output space into cells (masses from scipy's
Laplace CDF, written here independently of the code). By data processing the partition's hockey
stick δ_part(ε') is a lower bound; if the log-likelihood ratio varies by at most v inside every cell,
then on a cell A, ∫_A (p - e^{ε'} q)_+ <= e^v (p(A) - e^{ε'-v} q(A))_+, so δ(ε') <= e^v δ_part(ε' - v).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from proofs_checks import privacy_profile
from proofs_checks.privacy_profile import hockey_stick, laplace_profile
from proofs_checks.stability import plain_laplace_pair_delta, stability_pair_delta, stability_profile
from simulations.mechanisms import (ExponentialMechanism, LaplaceLabels, NoisyBinMean, RandomizedResponse,
                                    StabilityHistogram)

EPS = [0.1, 0.5, 1.0, 2.0, 4.0, 8.0]
# δ sums masses such as 1 - δ/4 computed in doubles: absolute agreement to a few ulps of 1
ABS = 1e-15


def _cell_masses(center, b, edges):
    """Masses of Laplace(center, b) on consecutive intervals given by ``edges`` (may include ±inf)."""
    return np.diff(stats.laplace.cdf(edges, loc=center, scale=b))


def _hs(p, q, e):
    return float(np.maximum(0.0, p - math.exp(e) * q).sum())


# ---------------------------------------------------------------- 1-D Laplace

@pytest.mark.parametrize("loss", [0.1, 1.0, 4.0])
def test_laplace_profile_matches_integration(loss):
    b, shift = 1.0, loss  # sensitivity/scale = loss
    for ep in [0.0, 0.3 * loss, 0.9 * loss, loss, 2 * loss]:
        def f(z):
            return max(0.0, stats.laplace.pdf(z, scale=b) - math.exp(ep) * stats.laplace.pdf(z, loc=shift, scale=b))
        val = sum(integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-12)[0]
                  for lo, hi in [(-np.inf, 0.0), (0.0, shift), (shift, np.inf)])
        assert float(laplace_profile(loss, ep)) == pytest.approx(val, abs=1e-11)


@pytest.mark.parametrize("eps", EPS)
def test_laplace_mechanisms_profiles(eps):
    ep = np.array([0.0, eps / 2, eps, 2 * eps])
    d = privacy_profile(LaplaceLabels(2.0, eps), ep)
    assert d[0] == pytest.approx(-math.expm1(-eps / 2), rel=1e-12)  # total variation 1 - e^{-ε/2}
    assert d[2] == 0.0 and d[3] == 0.0
    np.testing.assert_allclose(privacy_profile(NoisyBinMean(1.0, eps), ep, counts=[3, 5]), d, rtol=1e-12)


# ---------------------------------------------------------------- 2-D plain Laplace (stability limit)

def _sandwich(edges1, centers1, edges2, centers2, b, v, eps_list, value):
    """Assert δ_part(ε') <= value(ε') <= e^v δ_part(ε' - v) for a product of two Laplace-cell partitions."""
    p1, q1 = (_cell_masses(c, b, edges1) for c in centers1)
    p2, q2 = (_cell_masses(c, b, edges2) for c in centers2)
    P, Q = np.outer(p1, p2).ravel(), np.outer(q1, q2).ravel()
    for ep in eps_list:
        lower = _hs(P, Q, ep)
        upper = math.exp(v) * _hs(P, Q, ep - v)
        assert lower - 1e-12 <= value(ep) <= upper + 1e-12


@pytest.mark.parametrize("b", [0.25, 2.0, 20.0])
def test_plain_laplace_pair_sandwich(b):
    """Cells at counts (2 -> 1) and (1 -> 2): log-ratio constant outside [1, 2], slope 2/b inside."""
    h = 1 / 400
    edges = np.r_[-np.inf, np.linspace(1.0, 2.0, 401), np.inf]
    v = 2 * (2 * h / b)
    u = 1 / b
    _sandwich(edges, (2.0, 1.0), edges, (1.0, 2.0), b, v, [0.0, 0.5 * u, u, 1.5 * u, 2 * u],
              lambda ep: float(plain_laplace_pair_delta(u, ep)))


def test_plain_laplace_pair_limits():
    u = 0.7
    assert float(plain_laplace_pair_delta(u, 2 * u)) == pytest.approx(0.0, abs=1e-15)
    assert float(plain_laplace_pair_delta(u, 3 * u)) == 0.0
    # ε' = 0: total variation of the product lies between one cell's TV (1 - e^{-u/2}) and the sum of both
    tv = float(plain_laplace_pair_delta(u, 0.0))
    assert 1 - math.exp(-u / 2) < tv < 2 * (1 - math.exp(-u / 2))


# ---------------------------------------------------------------- stability histogram

@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("delta", [1e-6, 1e-2])
def test_pair_one_to_zero_is_delta_over_4(eps, delta):
    """(1,0) vs (0,1): each side releases a cell the other never releases, w.p. δ/4; else identical."""
    m = StabilityHistogram(eps, delta)
    ep = np.array([0.0, eps / 2, eps, 3 * eps])
    np.testing.assert_allclose(stability_pair_delta(m, (1, 0), (0, 1), ep), delta / 4, rtol=1e-12, atol=ABS)


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_pair_below_threshold_four_outcomes(eps):
    """(2,0) vs (1,1), counts below the threshold: released regions have constant loss, so each cell
    reduces to {0, released}; the hockey stick of the 4 outcomes is exact."""
    m = StabilityHistogram(eps, 1e-4)
    tau, b = m.threshold, 2 / eps
    r = lambda c: stats.laplace.sf(tau, loc=c, scale=b)  # noqa: E731
    p = np.outer([1 - r(2), r(2)], [1.0, 0.0]).ravel()  # cell x count 2, cell y count 0
    q = np.outer([1 - r(1), r(1)], [1 - r(1), r(1)]).ravel()  # counts 1 and 1
    for ep in [0.0, eps / 4, eps / 2, eps]:
        assert stability_pair_delta(m, (2, 0), (1, 1), [ep])[0] == pytest.approx(_hs(p, q, ep), rel=1e-12, abs=ABS)
        assert stability_pair_delta(m, (1, 1), (2, 0), [ep])[0] == pytest.approx(_hs(q, p, ep), rel=1e-12, abs=ABS)


def test_pair_above_threshold_sandwich():
    """Counts (30, 27) -> (29, 28) above the threshold (≈ 25.4): both cells have a middle piece (quadrature)."""
    m = StabilityHistogram(1.0, 1e-5)
    tau, b, h = m.threshold, m.scale, 1 / 400

    def edges(c, c2):
        lo, hi = min(c, c2), max(c, c2)
        return np.r_[-np.inf, tau, np.linspace(max(tau, lo), hi, 401), np.inf]  # atom (below tau), ..., top

    def masses(c, e):  # the first interval (-inf, tau) is the atom at 0
        return _cell_masses(c, b, e)

    e1, e2 = edges(30, 29), edges(27, 28)
    P = np.outer(masses(30, e1), masses(27, e2)).ravel()
    Q = np.outer(masses(29, e1), masses(28, e2)).ravel()
    v = 2 * (2 * h / b)
    for ep in [0.0, 0.2, 0.5, 0.8, 1.0]:
        val = stability_pair_delta(m, (30, 27), (29, 28), [ep])[0]
        assert _hs(P, Q, ep) - 1e-12 <= val <= math.exp(v) * _hs(P, Q, ep - v) + 1e-12


@pytest.mark.parametrize("eps", [0.5, 1.0, 4.0])
def test_stability_profile_properties(eps):
    m = StabilityHistogram(eps, 1e-5)
    ep = np.linspace(0, 2 * eps, 41)
    full, wit = stability_profile(m, ep, return_witness=True)
    assert np.all(np.diff(full) <= 1e-15)  # non-increasing in ε'
    small = stability_profile(m, ep, dataset_size=7)
    assert np.all(small <= full + 1e-15)  # fewer datasets, smaller δ
    assert full[0] >= float(plain_laplace_pair_delta(eps / 2, 0.0)) - 1e-15
    at_eps = stability_profile(m, [eps])[0]
    assert at_eps == pytest.approx(1e-5 / 4, rel=1e-9)
    assert np.all(full[ep >= eps] == pytest.approx(1e-5 / 4, rel=1e-9))
    assert privacy_profile(m, [eps])[0] == at_eps


def test_stability_dataset_profile_uses_all_pairs():
    """With n = 2 the pairs are (1,0)<->(0,1), (2,0)<->(1,1), (1,1)<->(0,2): δ is their maximum."""
    m = StabilityHistogram(1.0, 1e-3)
    ep = np.array([0.0, 0.3, 1.0])
    pairs = [((1, 0), (0, 1)), ((2, 0), (1, 1)), ((1, 1), (0, 2))]
    best = np.max([stability_pair_delta(m, x, y, ep) for a, b in pairs for x, y in ((a, b), (b, a))], axis=0)
    np.testing.assert_allclose(stability_profile(m, ep, dataset_size=2), best, rtol=1e-15)


# ---------------------------------------------------------------- finite-output mechanisms

@pytest.mark.parametrize("eps", EPS)
def test_exponential_profile_single_label(eps):
    """n = 1, K = 2: outputs (w, 1)/(w+1) vs (1, w)/(w+1), w = e^{ε/2}: δ(0) = (w-1)/(w+1), δ(ε/2) = 0."""
    w = math.exp(eps / 2)
    d = privacy_profile(ExponentialMechanism(2, eps), [0.0, eps / 4, eps / 2], bin_size=1)
    assert d[0] == pytest.approx((w - 1) / (w + 1), rel=1e-12)
    assert d[1] == pytest.approx(max(0.0, (w - math.exp(eps / 4)) / (w + 1)), rel=1e-12)
    assert d[2] == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_randomized_response_profile(eps):
    """Rows of K-RR: δ(0) = total variation = (e^ε - 1)/(e^ε + K - 1); δ(ε) = 0."""
    K = 4
    d = privacy_profile(RandomizedResponse(K, eps), [0.0, eps])
    assert d[0] == pytest.approx((math.exp(eps) - 1) / (math.exp(eps) + K - 1), rel=1e-12)
    assert d[1] == pytest.approx(0.0, abs=1e-15)


def test_hockey_stick_and_arguments():
    assert hockey_stick([0.5, 0.5], [1.0, 0.0], 0.0) == 0.5
    np.testing.assert_allclose(hockey_stick([0.5, 0.5], [1.0, 0.0], [0.0, 10.0]), [0.5, 0.5])
    with pytest.raises(ValueError):
        privacy_profile(LaplaceLabels(1.0, 1.0), [-0.1])
    with pytest.raises(ValueError):
        privacy_profile(object(), [0.0])
