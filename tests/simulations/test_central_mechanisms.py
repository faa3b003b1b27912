"""Continuous and central mechanisms: parameters, exact distributions, samplers against them.

Goodness-of-fit tests run at fixed seeds and reject at significance 0.001 (confidence 99.9%): a
correct sampler fails one of them with probability 0.001 per test at a fresh seed; the fixed seeds
make the outcome deterministic. Expected distributions come from scipy.stats or from closed forms
written here independently of the code under test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy import stats

from simulations.mechanisms import (ClippedLaplaceLabels, ExponentialMechanism, GeometricHistogram, LaplaceLabels,
                                    NoisyBinMean, NoisyMajority, StabilityHistogram)
from simulations.mechanisms.laplace import laplace_logcdf, laplace_logsf

ALPHA = 1e-3
EPS = [0.1, 0.5, 1.0, 2.0, 4.0, 8.0]


# ---------------------------------------------------------------- invalid arguments

@pytest.mark.parametrize("make", [
    lambda: LaplaceLabels(T=0.0, epsilon=1.0), lambda: LaplaceLabels(T=1.0, epsilon=0.0),
    lambda: LaplaceLabels(T=1.0, epsilon=math.inf), lambda: ClippedLaplaceLabels(T=-1.0, epsilon=1.0),
    lambda: NoisyBinMean(T=1.0, epsilon=-1.0), lambda: NoisyBinMean(T=1.0, epsilon=1.0, clip="yes"),
    lambda: ExponentialMechanism(1, 1.0), lambda: ExponentialMechanism(3, math.nan),
    lambda: ExponentialMechanism(2.0, 1.0), lambda: NoisyMajority(0.0), lambda: StabilityHistogram(1.0, 0.0),
    lambda: StabilityHistogram(1.0, 1.0), lambda: StabilityHistogram(0.0, 1e-5), lambda: GeometricHistogram(-2.0),
])
def test_invalid_parameters(make):
    with pytest.raises(ValueError):
        make()


def test_invalid_inputs():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="labels must lie in"):
        LaplaceLabels(T=1.0, epsilon=1.0).sample(np.array([0.0, 1.5]), rng)
    with pytest.raises(ValueError, match="finite"):
        ClippedLaplaceLabels(T=1.0, epsilon=1.0).sample(np.array([np.inf]), rng)
    m = NoisyBinMean(T=1.0, epsilon=1.0)
    with pytest.raises(ValueError, match="T \\* count"):
        m.release(np.array([3.0]), np.array([2]), rng)
    with pytest.raises(ValueError, match="counts"):
        m.release(np.array([0.5]), np.array([-1]), rng)
    with pytest.raises(ValueError, match="bin_index"):
        m.bin_sums(np.array([0.5]), np.array([3]), 2)
    with pytest.raises(ValueError, match="clip=True"):
        m.bin_sums(np.array([2.5]), np.array([0]), 1)
    with pytest.raises(ValueError, match="counts"):
        ExponentialMechanism(3, 1.0).probabilities([[1, -1, 0]])
    with pytest.raises(ValueError, match="columns"):
        ExponentialMechanism(3, 1.0).probabilities([[1, 1]])
    with pytest.raises(ValueError, match="integers"):
        ExponentialMechanism(2, 1.0).probabilities([[0.5, 1.0]])
    with pytest.raises(ValueError, match="exceed"):
        NoisyMajority(1.0).release(np.array([3]), np.array([2]), rng)
    with pytest.raises(ValueError, match="counts"):
        StabilityHistogram(1.0, 1e-5).release(np.array([-1]), rng)


# ---------------------------------------------------------------- Laplace helpers and labels

@pytest.mark.parametrize("scale", [0.05, 1.0, 7.0])
def test_laplace_log_tails_match_scipy(scale):
    t = np.array([-50.0, -3.0, -0.1, 0.0, 0.1, 3.0, 50.0])
    # reference: the Laplace tail P(W > t) = ½e^{-t/b} (t >= 0), 1 - ½e^{t/b} (t < 0) in 50-digit arithmetic,
    # and scipy where it does not underflow
    mp.mp.dps = 50
    ref = [float(mp.log(mp.exp(-mp.mpf(x) / scale) / 2 if x >= 0 else 1 - mp.exp(mp.mpf(x) / scale) / 2)) for x in t]
    mid = np.abs(t) < 20 * scale
    np.testing.assert_allclose(laplace_logsf(t, scale)[mid], stats.laplace.logsf(t[mid], scale=scale), rtol=1e-12)
    np.testing.assert_allclose(laplace_logsf(t, scale), ref, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(laplace_logcdf(-t, scale), ref, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("T,eps", [(1.0, 0.5), (3.0, 2.0), (0.2, 8.0)])
def test_laplace_labels_noise_is_laplace_2T_over_eps(T, eps):
    rng = np.random.default_rng(11)
    y = rng.uniform(-T, T, size=20000)
    z = LaplaceLabels(T=T, epsilon=eps).sample(y, rng)
    assert stats.kstest(z - y, stats.laplace(scale=2 * T / eps).cdf).pvalue > ALPHA


def test_clipped_laplace_clips_before_noise():
    rng = np.random.default_rng(12)
    T, eps = 2.0, 1.0
    y = rng.standard_t(df=2.5, size=20000) * 3
    z = ClippedLaplaceLabels(T=T, epsilon=eps).sample(y, rng)
    assert stats.kstest(z - np.clip(y, -T, T), stats.laplace(scale=2 * T / eps).cdf).pvalue > ALPHA
    m = ClippedLaplaceLabels(T=T, epsilon=eps)
    assert m.log_density(0.3, 10.0) == pytest.approx(stats.laplace.logpdf(0.3, loc=T, scale=2 * T / eps), rel=1e-12)


def test_laplace_labels_reproducible_and_shape():
    m = LaplaceLabels(T=1.0, epsilon=1.0)
    y = np.linspace(-1, 1, 7)
    a = m.sample(y, np.random.default_rng(5))
    b = m.sample(y, np.random.default_rng(5))
    assert a.shape == (7,) and np.array_equal(a, b)
    assert m.sample(np.array([]), np.random.default_rng(0)).shape == (0,)


# ---------------------------------------------------------------- noisy bin means

@pytest.mark.parametrize("clip", [False, True])
def test_noisy_bin_mean_release(clip):
    rng = np.random.default_rng(21)
    T, eps, L = 1.5, 0.7, 4000
    m = NoisyBinMean(T=T, epsilon=eps, clip=clip)
    idx = rng.integers(0, L, size=60000)
    y = rng.normal(0, 2, size=idx.size) if clip else rng.uniform(-T, T, size=idx.size)
    sums, counts = m.bin_sums(y, idx, L)
    yc = np.clip(y, -T, T)
    np.testing.assert_allclose(sums, [yc[idx == i].sum() for i in range(L)], atol=1e-9)
    assert counts.sum() == idx.size
    out = m.release(sums, counts, rng)
    live = counts > 0
    w = (out[live] - sums[live] / counts[live]) * counts[live] * eps / (2 * T)  # standardized: Lap(1)
    assert stats.kstest(w, stats.laplace.cdf).pvalue > ALPHA
    np.testing.assert_allclose(m.scale(np.array([1, 4])), [2 * T / eps, 2 * T / (4 * eps)])


def test_noisy_bin_mean_empty_bins_release_zero():
    out = NoisyBinMean(T=1.0, epsilon=1.0).release(np.zeros(3), np.array([0, 0, 0]), np.random.default_rng(0))
    assert np.array_equal(out, np.zeros(3))


# ---------------------------------------------------------------- exponential mechanism

def _fraction_probs(counts, w):
    """P(j) = w^{n_j} / Σ_k w^{n_k} in exact rational arithmetic (ε = 2 ln w)."""
    num = [Fraction(w) ** int(n) for n in counts]
    tot = sum(num)
    return [x / tot for x in num]


@pytest.mark.parametrize("counts", [[0, 0], [3, 1, 0], [5, 5, 2, 0, 1], [0, 0, 0, 9]])
def test_exponential_probabilities_exact_at_eps_2ln3(counts):
    em = ExponentialMechanism(len(counts), 2 * math.log(3))  # e^{ε/2} = 3: probabilities are rational
    exact = _fraction_probs(counts, 3)
    np.testing.assert_allclose(em.probabilities([counts])[0], [float(p) for p in exact], rtol=1e-13)


def test_exponential_probabilities_stable_for_huge_counts():
    em = ExponentialMechanism(3, 8.0)
    p = em.probabilities([[100000, 99999, 0]])[0]
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p[:2], [1 / (1 + math.exp(-4)), math.exp(-4) / (1 + math.exp(-4))], rtol=1e-12)
    assert p[2] == 0.0 or p[2] < 1e-300


@pytest.mark.parametrize("eps,counts", [(1.0, [2, 0, 1]), (0.1, [4, 4, 0, 1, 3]), (4.0, [1, 0])])
def test_exponential_sampler_chi_square(eps, counts):
    em = ExponentialMechanism(len(counts), eps)
    rng = np.random.default_rng(31)
    n = 40000
    draws = em.sample(np.tile(counts, (n, 1)), rng)
    obs = np.bincount(draws, minlength=len(counts))
    w = np.exp(eps / 2 * np.array(counts, dtype=float))  # 003 eq. (17), written out independently
    expected = n * w / w.sum()
    keep = expected > 0
    assert obs[~keep].sum() == 0
    assert stats.chisquare(obs[keep], expected[keep]).pvalue > ALPHA


def test_exponential_sample_vectorized_many_bins():
    em = ExponentialMechanism(4, 1.0)
    counts = np.random.default_rng(1).integers(0, 30, size=(10000, 4))
    c = em.sample(counts, np.random.default_rng(2))
    assert c.shape == (10000,) and c.min() >= 0 and c.max() <= 3


# ---------------------------------------------------------------- noisy majority

@pytest.mark.parametrize("eps", EPS)
def test_noisy_majority_probability_matches_laplace_tail(eps):
    s = np.array([0, 1, 2, 3, 0, 5])
    n = np.array([1, 2, 3, 3, 0, 6])
    m = NoisyMajority(eps)
    expected = stats.laplace.sf(n / 2 - s, scale=1 / eps)
    np.testing.assert_allclose(m.probability_one(s, n), expected, rtol=1e-12)
    np.testing.assert_allclose(np.exp(m.log_probability_zero(s, n)), 1 - expected, rtol=1e-9)


def test_noisy_majority_sampler_chi_square():
    m = NoisyMajority(1.0)
    rng = np.random.default_rng(41)
    s, n = np.repeat([0, 2, 3], 20000), np.repeat([3, 3, 3], 20000)
    bits = m.release(s, n, rng)
    for val in (0, 2, 3):
        sel = s == val
        p = float(m.probability_one(np.array([val]), np.array([3]))[0])
        ones = int(bits[sel].sum())
        assert stats.chisquare([ones, sel.sum() - ones], [sel.sum() * p, sel.sum() * (1 - p)]).pvalue > ALPHA


# ---------------------------------------------------------------- stability histogram

def test_stability_threshold_as_printed():
    m = StabilityHistogram(0.5, 1e-6)
    assert m.threshold == pytest.approx(2 / 0.5 * math.log(2 / 1e-6) + 1, rel=1e-15)
    assert m.scale == 4.0
    # a count of one is released with probability ½ exp(-(threshold - 1)/scale) = δ/4
    assert m.release_probability([1])[0] == pytest.approx(1e-6 / 4, rel=1e-12)
    assert m.release_probability([0])[0] == 0.0


def test_stability_sampler_release_rate_and_values():
    m = StabilityHistogram(1.0, 1e-2)  # threshold 2 ln 200 + 1 ≈ 11.6
    rng = np.random.default_rng(51)
    counts = np.repeat([0, 10, 13], 20000)
    out = m.release(counts, rng)
    assert np.all(out[counts == 0] == 0)
    for c in (10, 13):
        sel = counts == c
        p = float(stats.laplace.sf(m.threshold - c, scale=2.0))
        rel = int((out[sel] != 0).sum())
        assert stats.chisquare([rel, sel.sum() - rel], [sel.sum() * p, sel.sum() * (1 - p)]).pvalue > ALPHA
    released = out[(counts == 13) & (out != 0)]
    assert released.min() >= m.threshold
    # released values: Laplace(13, 2) conditioned on >= threshold
    lo = stats.laplace.cdf(m.threshold, loc=13, scale=2)
    cdf = lambda x: (stats.laplace.cdf(x, loc=13, scale=2) - lo) / (1 - lo)  # noqa: E731
    assert stats.kstest(released, cdf).pvalue > ALPHA


# ---------------------------------------------------------------- geometric histogram

@pytest.mark.parametrize("eps", EPS)
def test_geometric_log_pmf_is_scipy_dlaplace(eps):
    m = GeometricHistogram(eps)
    h = np.array([[3, 0, 1]])
    z = np.array([[5, -2, 1]])
    expected = stats.dlaplace.logpmf(z - h, eps / 2).sum()
    assert m.log_pmf(z, h)[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_geometric_sampler_chi_square(eps):
    m = GeometricHistogram(eps)
    rng = np.random.default_rng(61)
    noise = (m.sample(np.full((20000, 2), 4), rng) - 4).ravel()
    edges = np.arange(-6, 7)
    obs = np.array([(noise < -6).sum()] + [(noise == k).sum() for k in edges] + [(noise > 6).sum()])
    pmf = stats.dlaplace(eps / 2)
    exp = noise.size * np.array([pmf.cdf(-7)] + [pmf.pmf(k) for k in edges] + [pmf.sf(6)])
    assert stats.chisquare(obs, exp).pvalue > ALPHA


def test_geometric_priors_step_c():
    pri = GeometricHistogram.priors(np.array([[3, -1, 1], [-1, -2, 0]]))
    np.testing.assert_allclose(pri, [[0.75, 0.0, 0.25], [1 / 3, 1 / 3, 1 / 3]])
