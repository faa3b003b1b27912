"""Local label randomizers: exact channels against independent constructions from the papers'
formulas, samplers against channels (chi-square at fixed seeds), tie handling, invalid arguments.

Goodness of fit: each chi-square test asserts p-value > 1e-4 at a fixed seed, i.e. a correct
sampler is rejected with probability 1e-4 per test (the seeds are fixed, so the outcome is
deterministic; a failure means the sampler and the channel disagree or a one-in-10^4 seed).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simulations.mechanisms import ALIBI, RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism, output_bits

ALPHA = 1e-4
EPS_GRID = [0.1, 0.5, 1.0, 2.0, 4.0, 8.0]
K_GRID = [2, 3, 5, 10]


def assert_fits(outputs, probs, label=""):
    """Chi-square goodness of fit of integer outputs to probabilities (zero cells must stay empty)."""
    probs = np.asarray(probs, dtype=float)
    counts = np.bincount(outputs, minlength=probs.size)
    assert counts.size == probs.size
    zero = probs == 0
    assert counts[zero].sum() == 0, f"{label}: output of probability 0 was drawn"
    if np.count_nonzero(~zero) < 2:
        return
    p = stats.chisquare(counts[~zero], counts.sum() * probs[~zero]).pvalue
    assert p > ALPHA, f"{label}: chi-square p-value {p:.3g}"


# ---------------------------------------------------------------------------------------------
# Independent references written from the papers' text with plain Python floats

def rr_reference(K, eps):
    E = math.exp(eps)
    return [[E / (E + K - 1) if z == y else 1 / (E + K - 1) for z in range(K)] for y in range(K)]


def top_set(prior, k):
    return sorted(range(len(prior)), key=lambda i: (-prior[i], i))[:k]


def rr_top_k_reference(prior, k, eps):
    E, K = math.exp(eps), len(prior)
    Yk = top_set(prior, k)
    P = [[0.0] * K for _ in range(K)]
    for y in range(K):
        for z in Yk:
            if y in Yk:
                P[y][z] = E / (E + k - 1) if z == y else 1 / (E + k - 1)
            else:
                P[y][z] = 1 / k
    return P


def k_star_reference(prior, eps):
    E = math.exp(eps)
    srt = sorted(prior, reverse=True)
    w = [E / (E + k - 1) * sum(srt[:k]) for k in range(1, len(prior) + 1)]
    best = max(w)
    return 1 + next(i for i, v in enumerate(w) if v >= best * (1 - 1e-12))


def priors_for(K):
    """Priors with distinct values, ties at every top-k boundary, zeros and a point mass."""
    out = [np.full(K, 1.0 / K), np.arange(K, 0, -1) / (K * (K + 1) / 2), np.arange(1, K + 1) / (K * (K + 1) / 2)]
    if K >= 3:
        tie = np.array([3.0, 2.0, 2.0] + [1.0] * (K - 3))
        out.append(tie / tie.sum())
        out.append(np.r_[0.5, 0.5, np.zeros(K - 2)])
    out.append(np.eye(K)[K - 1])
    return out


# ---------------------------------------------------------------------------------------------
# Channels

@pytest.mark.parametrize("K", K_GRID)
@pytest.mark.parametrize("eps", EPS_GRID)
def test_rr_channel_is_eq1(K, eps):
    np.testing.assert_allclose(RandomizedResponse(K, eps).channel_matrix(), rr_reference(K, eps), rtol=1e-13)


@pytest.mark.parametrize("K", K_GRID)
@pytest.mark.parametrize("eps", [0.1, 1.0, 8.0])
def test_rr_top_k_channel_is_algorithm1(K, eps):
    for prior in priors_for(K):
        for k in range(1, K + 1):
            P = RRTopK(K, eps, k).channel_matrix(prior)
            np.testing.assert_allclose(P, rr_top_k_reference(list(prior), k, eps), rtol=1e-13, atol=0)
            np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-14)


def test_rr_top_k_with_k_equal_K_is_rr():
    np.testing.assert_allclose(RRTopK(5, 1.3, 5).channel_matrix(np.full(5, 0.2)),
                               RandomizedResponse(5, 1.3).channel_matrix(), rtol=1e-14)


@pytest.mark.parametrize("K", K_GRID)
@pytest.mark.parametrize("eps", EPS_GRID)
def test_k_star_is_algorithm2(K, eps):
    m = RRWithPrior(K, eps)
    for prior in priors_for(K):
        # k* compares floats: the library with np.exp(-ε) (numpy's vectorized exp on AVX-512 CPUs), the
        # reference with math.exp(ε) (the C library), and the two may differ in the last bits. Both count
        # w_k as tied with the maximum within the relative K_STAR_RTOL = 1e-12, so they agree unless some
        # w_k lies within rounding (~1e-15) of that threshold. Assert this grid has none: every relative gap
        # to the maximum is a true tie (< 1e-14) or clearly larger (> 1e-9).
        E = math.exp(eps)
        srt = sorted(prior, reverse=True)
        w = np.array([E / (E + k - 1) * sum(srt[:k]) for k in range(1, K + 1)])
        rel = (w.max() - w) / w.max()
        assert np.all((rel < 1e-14) | (rel > 1e-9)), (prior, rel)
        assert m.k_star(prior) == k_star_reference(list(prior), eps)
        np.testing.assert_allclose(m.channel_matrix(prior),
                                   rr_top_k_reference(list(prior), k_star_reference(list(prior), eps), eps),
                                   rtol=1e-13)
    stacked = np.array(priors_for(K))
    np.testing.assert_array_equal(m.k_star(stacked), [k_star_reference(list(p), eps) for p in stacked])


def test_objective_is_probability_of_correct_output():
    # 004 Section 3.1: Pr[RRTop-k(y) = y] for y ~ p equals w_k.
    rng = np.random.default_rng(5)
    for _ in range(20):
        K = int(rng.integers(2, 8))
        p = rng.dirichlet(np.ones(K))
        eps = float(rng.uniform(0.1, 5))
        w = RRWithPrior(K, eps).objective(p)
        for k in range(1, K + 1):
            assert w[k - 1] == pytest.approx(float(p @ np.diag(RRTopK(K, eps, k).channel_matrix(p))), rel=1e-12)


def test_k_star_exact_tie_takes_smallest_k():
    # ε = ln 3, p = (3/4, 1/4): w_1 = 3/4 and w_2 = 3/(3+1) * 1 = 3/4 exactly -> k* = 1.
    assert RRWithPrior(2, math.log(3)).k_star([0.75, 0.25]) == 1
    # Just past the tie the larger k wins.
    assert RRWithPrior(2, math.log(3)).k_star([0.74, 0.26]) == 2


def test_top_k_ties_at_boundary_use_label_order_for_every_label():
    # Labels 1, 2, 3 tie at the k = 2 boundary: Y_2 = {0, 1} for every true label.
    prior = np.array([0.4, 0.2, 0.2, 0.2])
    m = RRTopK(4, 1.0, 2)
    np.testing.assert_array_equal(m.top_k(prior), [0, 1])
    P = m.channel_matrix(prior)
    assert np.all(P[:, 2:] == 0)  # no row, whatever the label, puts mass outside {0, 1}
    rng = np.random.default_rng(11)
    for y in range(4):
        assert set(np.unique(m.sample(np.full(2000, y), rng, prior))) <= {0, 1}


def test_rr_with_prior_k_star_ignores_label():
    m = RRWithPrior(5, 0.5)
    prior = np.array([0.25, 0.25, 0.25, 0.125, 0.125])
    k = m.k_star(prior)
    support = m.channel_matrix(prior) > 0
    assert np.all(support == support[0])  # same output set for every label
    assert support[0].sum() == k


def test_vector_bits_are_eq12():
    a, b = math.exp(0.5) / (1 + math.exp(0.5)), 1 / (1 + math.exp(0.5))
    Q = VectorMechanism(4, 1.0).bit_probabilities()
    np.testing.assert_allclose(Q, [[a if j == y else b for j in range(4)] for y in range(4)], rtol=1e-14)


@pytest.mark.parametrize("K", [2, 3, 5])
@pytest.mark.parametrize("eps", [0.1, 2.0, 8.0])
def test_vector_channel_is_product_of_bits(K, eps):
    Q = VectorMechanism(K, eps).bit_probabilities()
    P = VectorMechanism(K, eps).channel_matrix()
    assert P.shape == (K, 2**K)
    for y in range(K):
        for c in range(2**K):
            ref = math.prod(Q[y, j] if (c >> j) & 1 else 1 - Q[y, j] for j in range(K))
            assert P[y, c] == pytest.approx(ref, rel=1e-12)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-13)


def test_output_bits_order():
    np.testing.assert_array_equal(output_bits(3)[6], [0, 1, 1])  # 6 = 0b110: Z(1) = Z(2) = 1


def test_vector_channel_refuses_large_K():
    with pytest.raises(ValueError, match="num_classes must be <= 16"):
        VectorMechanism(17, 1.0).channel_matrix()


# ---------------------------------------------------------------------------------------------
# Samplers agree with the channels (chi-square, p > 1e-4 at fixed seeds)

@pytest.mark.parametrize("K,eps", [(2, 0.1), (5, 1.0), (10, 4.0)])
def test_rr_sampler_fits_channel(K, eps):
    m, rng = RandomizedResponse(K, eps), np.random.default_rng(100 + K)
    P = m.channel_matrix()
    for y in range(K):
        assert_fits(m.sample(np.full(20000, y), rng), P[y], f"RR y={y}")


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_rr_top_k_sampler_fits_channel(k):
    prior = np.array([0.1, 0.3, 0.2, 0.2, 0.2])
    m, rng = RRTopK(5, 1.0, k), np.random.default_rng(200 + k)
    P = m.channel_matrix(prior)
    for y in range(5):
        assert_fits(m.sample(np.full(20000, y), rng, prior), P[y], f"RRTop-{k} y={y}")


def test_rr_with_prior_sampler_per_example_priors():
    # Two priors with different k* interleaved in one call; each group is checked against its channel.
    K, eps = 5, 1.0
    m = RRWithPrior(K, eps)
    p1, p2 = np.array([0.6, 0.1, 0.1, 0.1, 0.1]), np.array([0.1, 0.25, 0.25, 0.3, 0.1])
    assert m.k_star(p1) != m.k_star(p2)
    n = 40000
    rng = np.random.default_rng(303)
    labels = rng.integers(0, K, n)
    which = rng.integers(0, 2, n).astype(bool)
    priors = np.where(which[:, None], p2, p1)
    z = m.sample(labels, np.random.default_rng(304), priors)
    for flag, p in ((False, p1), (True, p2)):
        P = m.channel_matrix(p)
        for y in range(K):
            sel = (which == flag) & (labels == y)
            assert_fits(z[sel], P[y], f"RRWithPrior group={flag} y={y}")


def test_rr_with_prior_sampler_shared_prior():
    m, prior = RRWithPrior(4, 2.0), np.array([0.4, 0.3, 0.2, 0.1])
    P, rng = m.channel_matrix(prior), np.random.default_rng(7)
    for y in range(4):
        assert_fits(m.sample(np.full(20000, y), rng, prior), P[y], f"RRWithPrior y={y}")


@pytest.mark.parametrize("K,eps", [(2, 0.5), (3, 1.0), (4, 4.0)])
def test_vector_sampler_fits_channel(K, eps):
    m, rng = VectorMechanism(K, eps), np.random.default_rng(400 + K)
    P = m.channel_matrix()
    weights = 1 << np.arange(K)
    for y in range(K):
        bits = m.sample(np.full(30000, y), rng)
        assert bits.dtype == np.uint8 and set(np.unique(bits)) <= {0, 1}
        assert_fits(bits.astype(np.int64) @ weights, P[y], f"vector y={y}")


def test_vector_sampler_large_K_bit_means():
    # K = 100 spans several sampling blocks; number of ones outside the true bit ~ Binomial(K-1, b).
    K, eps, n = 100, 1.0, 20000
    m = VectorMechanism(K, eps)
    a, b = m.flip_probabilities()
    labels = np.random.default_rng(1).integers(0, K, n)
    bits = m.sample(labels, np.random.default_rng(2))
    assert bits.shape == (n, K)
    true_bit = bits[np.arange(n), labels]
    assert_fits(true_bit.astype(np.int64), [1 - a, a], "true bit")
    others = bits.sum(axis=1).astype(np.int64) - true_bit
    pmf = stats.binom.pmf(np.arange(K), K - 1, b)
    lo, hi = 25, 50  # pool the tails so every expected count is large
    pooled = np.r_[pmf[:lo].sum(), pmf[lo:hi], pmf[hi:].sum()]
    assert_fits(np.clip(others, lo - 1, hi) - (lo - 1), pooled, "ones elsewhere")


def test_samplers_are_reproducible():
    labels = np.arange(10) % 3
    for m, kw in ((RandomizedResponse(3, 1.0), {}), (VectorMechanism(3, 1.0), {}), (ALIBI(3, 1.0), {}),
                  (RRWithPrior(3, 1.0), {"prior": [0.5, 0.3, 0.2]})):
        np.testing.assert_array_equal(m.sample(labels, np.random.default_rng(9), **kw),
                                      m.sample(labels, np.random.default_rng(9), **kw))


def test_empty_labels():
    assert RandomizedResponse(3, 1.0).sample(np.array([], dtype=int), np.random.default_rng(0)).shape == (0,)
    assert VectorMechanism(3, 1.0).sample(np.array([], dtype=int), np.random.default_rng(0)).shape == (0, 3)


# ---------------------------------------------------------------------------------------------
# ALIBI

def test_alibi_noise_is_laplace_with_scale_2_over_eps():
    K, eps, n = 4, 0.5, 20000
    m = ALIBI(K, eps)
    labels = np.random.default_rng(0).integers(0, K, n)
    o = m.sample(labels, np.random.default_rng(1))
    noise = o.copy()
    noise[np.arange(n), labels] -= 1.0
    p = stats.kstest(noise.ravel(), stats.laplace(scale=2 / eps).cdf).pvalue
    assert p > ALPHA


def test_alibi_soft_labels_are_bayes_posterior():
    # Independent route: the full density f(o | c) of every class, normalised with the prior.
    K, eps = 5, 1.5
    m = ALIBI(K, eps)
    rng = np.random.default_rng(3)
    o = m.sample(rng.integers(0, K, 50), rng)
    prior = rng.dirichlet(np.ones(K))
    for pr in (None, prior):
        dens = np.stack([np.exp(m.log_density(o, np.full(50, c))) for c in range(K)], axis=1)
        post = dens * (np.ones(K) / K if pr is None else pr)
        post /= post.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(m.soft_labels(o, pr), post, rtol=1e-10)


def test_alibi_density_integrates_to_one():
    m = ALIBI(2, 1.0)
    x = np.linspace(-60, 60, 1201)
    g = np.stack(np.meshgrid(x, x, indexing="ij"), -1).reshape(-1, 2)
    f = np.exp(m.log_density(g, np.zeros(len(g), dtype=int)))
    # The grid (step h = 0.1) contains the centre e_0 = (1, 0); a Laplace(b) density summed over a
    # lattice through its centre gives h * sum_j e^{-|j| h / b} / (2b) = u coth(u), u = h / (2b),
    # exactly (geometric series). The density factorises over the K = 2 coordinates, so the Riemann
    # sum is (u coth u)^2 up to the truncated tails (< e^{-29}) and float rounding.
    h, b = x[1] - x[0], m.scale
    assert b == 2.0  # 2/ε with ε = 1
    u = h / (2 * b)
    assert f.sum() * h**2 == pytest.approx((u / math.tanh(u)) ** 2, rel=1e-9)


def test_alibi_zero_prior_class_gets_zero_posterior():
    m = ALIBI(3, 1.0)
    o = m.sample(np.array([0, 1, 2]), np.random.default_rng(0))
    post = m.soft_labels(o, [0.5, 0.5, 0.0])
    assert np.all(post[:, 2] == 0) and np.allclose(post.sum(axis=1), 1)


# ---------------------------------------------------------------------------------------------
# Invalid arguments

@pytest.mark.parametrize("cls", [RandomizedResponse, RRWithPrior, VectorMechanism, ALIBI])
@pytest.mark.parametrize("K,eps", [(1, 1.0), (2.0, 1.0), (True, 1.0), (3, 0.0), (3, -1.0), (3, math.inf),
                                   (3, math.nan), (3, "1")])
def test_invalid_parameters(cls, K, eps):
    with pytest.raises(ValueError):
        cls(K, eps)


@pytest.mark.parametrize("k", [0, 4, 1.5])
def test_rr_top_k_invalid_k(k):
    with pytest.raises(ValueError, match="k must be"):
        RRTopK(3, 1.0, k)


@pytest.mark.parametrize("labels", [[0, 3], [-1], [0.0, 1.0], [[0, 1]]])
def test_invalid_labels(labels):
    rng = np.random.default_rng(0)
    for m, kw in ((RandomizedResponse(3, 1.0), {}), (VectorMechanism(3, 1.0), {}), (ALIBI(3, 1.0), {}),
                  (RRTopK(3, 1.0, 2), {"prior": [0.5, 0.3, 0.2]})):
        with pytest.raises(ValueError, match="labels"):
            m.sample(labels, rng, **kw)


@pytest.mark.parametrize("prior", [[0.5, 0.5], [0.5, 0.6, -0.1], [0.3, 0.3, 0.3], [[0.5, 0.3, 0.2]] * 3,
                                   [np.nan, 0.5, 0.5]])
def test_invalid_priors(prior):
    with pytest.raises(ValueError, match="prior"):
        RRWithPrior(3, 1.0).sample([0, 1], np.random.default_rng(0), prior)


def test_channel_needs_one_prior():
    with pytest.raises(ValueError, match="one distribution"):
        RRTopK(3, 1.0, 2).channel_matrix([[0.5, 0.3, 0.2]] * 2)
    with pytest.raises(ValueError, match="one distribution"):
        RRWithPrior(3, 1.0).channel_matrix([[0.5, 0.3, 0.2]] * 2)


def test_alibi_invalid_noisy():
    with pytest.raises(ValueError, match="noisy"):
        ALIBI(3, 1.0).soft_labels(np.zeros((2, 4)))
