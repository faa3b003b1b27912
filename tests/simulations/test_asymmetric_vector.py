"""The asymmetric K-bit vector mechanism (002 Limitations paragraph: asymmetric flipping; the suite's p = 1/2,
q = 1/(e^ε + 1) construction): its bits, exact channel, sampler, debiasing and guards.

Expected values are written here from the definition (plain floats, fractions at ε = ln 3 where q = 1/4),
never read from the class.
"""

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from scipy import stats

from simulations.mechanisms import AsymmetricVectorMechanism, VectorMechanism, output_bits

ALPHA = 1e-4  # chi-square p-value floor at fixed seeds: a correct sampler fails w.p. 1e-4 per test


def _fits(outputs, probs, label):
    counts = np.bincount(outputs, minlength=len(probs))
    assert counts.size == len(probs)
    p = stats.chisquare(counts, counts.sum() * np.asarray(probs)).pvalue
    assert p > ALPHA, f"{label}: chi-square p-value {p:.3g}"


def _fraction_channel(K, p, q):
    """P[y][c] = prod_j P(Z(j) = bit_j(c) | y) with p on bit y, q elsewhere, in exact arithmetic."""
    return [[math.prod((p if j == y else q) if (c >> j) & 1 else 1 - (p if j == y else q) for j in range(K))
             for c in range(2 ** K)] for y in range(K)]


@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0, 20.0])
def test_bits_are_one_half_and_one_over_e_eps_plus_one(eps):
    K = 4
    q = 1.0 / (math.exp(eps) + 1.0)
    Q = AsymmetricVectorMechanism(K, eps).bit_probabilities()
    np.testing.assert_allclose(Q, [[0.5 if j == y else q for j in range(K)] for y in range(K)], rtol=1e-13)


def test_channel_is_exact_at_eps_ln3():
    # ε = ln 3: p = 1/2, q = 1/(3 + 1) = 1/4 exactly, so the channel is a table of fractions.
    K = 3
    ref = _fraction_channel(K, Fraction(1, 2), Fraction(1, 4))
    P = AsymmetricVectorMechanism(K, math.log(3)).channel_matrix()
    np.testing.assert_allclose(P, np.array(ref, dtype=float), rtol=1e-13)
    assert P[0, 1] == pytest.approx(float(Fraction(1, 2) * Fraction(3, 4) ** 2), rel=1e-13)  # z = (1, 0, 0), y = 0
    assert all(sum(row) == 1 for row in ref)


@pytest.mark.parametrize("K", [2, 3, 5])
@pytest.mark.parametrize("eps", [0.1, 2.0, 8.0])
def test_channel_is_product_of_bits_in_output_bits_order(K, eps):
    m = AsymmetricVectorMechanism(K, eps)
    q = 1.0 / (math.exp(eps) + 1.0)
    P = m.channel_matrix()
    bits = output_bits(K)
    for y in range(K):
        for c in range(2 ** K):
            ref = math.prod((0.5 if j == y else (q if bits[c, j] else 1 - q)) for j in range(K))
            assert P[y, c] == pytest.approx(ref, rel=1e-12)


def test_log_channel_is_finite_at_large_epsilon():
    # q = 1/(e^800 + 1) underflows; ln q = -800 - ln(1 + e^-800) does not.
    L = AsymmetricVectorMechanism(3, 800.0).log_channel_matrix()
    assert np.all(np.isfinite(L))
    assert L[0, 0b110] == pytest.approx(math.log(0.5) + 2 * -800.0, rel=1e-15)  # z(0) = 0, z(1) = z(2) = 1


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5, 7.0])
def test_privacy_loss_is_epsilon(eps):
    # ln[p(1-q)/(q(1-p))] with p = 1/2: ln((1-q)/q) = ln e^eps.
    q = 1.0 / (math.exp(eps) + 1.0)
    assert math.log((1 - q) / q) == pytest.approx(eps, rel=1e-12)
    assert AsymmetricVectorMechanism(6, eps).privacy_loss() == pytest.approx(eps, rel=1e-12)


@pytest.mark.parametrize("K,eps", [(2, 0.5), (3, 1.0), (4, 4.0)])
def test_sampler_fits_channel(K, eps):
    m, rng = AsymmetricVectorMechanism(K, eps), np.random.default_rng(4100 + K)
    P = m.channel_matrix()
    weights = 1 << np.arange(K)
    for y in range(K):
        bits = m.sample(np.full(30000, y), rng)
        assert bits.dtype == np.uint8 and set(np.unique(bits)) <= {0, 1}
        _fits(bits.astype(np.int64) @ weights, P[y], f"asymmetric y={y}")


def test_sampler_large_K_true_bit_and_ones_elsewhere():
    # K = 100 spans sampling blocks: the true bit ~ Bernoulli(1/2); ones elsewhere ~ Binomial(K - 1, q).
    K, eps, n = 100, 2.0, 40000
    q = 1.0 / (math.exp(eps) + 1.0)
    labels = np.random.default_rng(11).integers(0, K, n)
    bits = AsymmetricVectorMechanism(K, eps).sample(labels, np.random.default_rng(12))
    true_bit = bits[np.arange(n), labels].astype(np.int64)
    _fits(true_bit, [0.5, 0.5], "true bit")
    others = bits.sum(axis=1).astype(np.int64) - true_bit
    pmf = stats.binom.pmf(np.arange(K), K - 1, q)
    lo, hi = 5, 22  # pool the tails so every expected count is large
    pooled = np.r_[pmf[:lo].sum(), pmf[lo:hi], pmf[hi:].sum()]
    _fits(np.clip(others, lo - 1, hi) - (lo - 1), pooled, "ones elsewhere")


def test_sampler_rare_ones_at_large_epsilon():
    # ε = 16: q = 1/(e^16 + 1) ≈ 1.1e-7 < 2^-20 is drawn from ln q; 10^6 bits off the label hold ~0.11 ones,
    # so P(no one) = (1 - q)^(10^6) ≈ 0.89 and more than 3 ones has probability ≈ 0.1125^4/24 ≈ 7e-6.
    n, K = 250000, 5
    bits = AsymmetricVectorMechanism(K, 16.0).sample(np.zeros(n, dtype=int), np.random.default_rng(5))
    assert bits[:, 1:].sum() <= 3
    assert abs(bits[:, 0].mean() - 0.5) < 5 * math.sqrt(0.25 / n)


@pytest.mark.parametrize("mech", [AsymmetricVectorMechanism(3, 1.3), VectorMechanism(3, 1.3)],
                         ids=["asymmetric", "symmetric"])
def test_debias_is_unbiased_by_exact_expectation(mech):
    # E[debias(Z) | y] = sum_c P[y, c] debias(bits_c) = e_y (000 eq. (24) inverted), enumerated over 2^K outputs.
    P = mech.channel_matrix()
    expected = P @ mech.debias(output_bits(3).astype(float))
    np.testing.assert_allclose(expected, np.eye(3), atol=1e-12)


def test_debias_exact_in_fractions_at_eps_ln3():
    # p = 1/2, q = 1/4: E[(Z(j) - q)/(p - q)] over the fraction channel is exactly 1{j = y}.
    K, p, q = 3, Fraction(1, 2), Fraction(1, 4)
    ref = _fraction_channel(K, p, q)
    for y in range(K):
        for j in range(K):
            mean = sum(ref[y][c] * (((c >> j) & 1) - q) / (p - q) for c in range(2 ** K))
            assert mean == (1 if j == y else 0)
    m = AsymmetricVectorMechanism(K, math.log(3))
    np.testing.assert_allclose(m.debias([[0.5, 0.25, 0.0]]), [[1.0, 0.0, -1.0]], atol=1e-12)


def test_debiased_variances_and_one_half_minimizes_the_zero_bit_variance():
    eps = 1.7
    m = AsymmetricVectorMechanism(4, eps)
    q = 1.0 / (math.exp(eps) + 1.0)
    var_one, var_zero = m.debiased_variances()
    assert var_one == pytest.approx(0.25 / (0.5 - q) ** 2, rel=1e-12)
    assert var_zero == pytest.approx(4 * math.exp(eps) / math.expm1(eps) ** 2, rel=1e-12)
    # at the same loss eps, keep probability p forces q/(1-q) = p/((1-p) e^eps); p = 1/2 is the grid minimum
    grid = np.linspace(0.02, 0.98, 97)
    odds = grid / (1 - grid) * math.exp(-eps)
    qq = odds / (1 + odds)
    v = qq * (1 - qq) / (grid - qq) ** 2
    assert grid[np.argmin(v)] == pytest.approx(0.5) and v.min() == pytest.approx(var_zero, rel=1e-12)
    # the symmetric mechanism's zero-bit variance b(1-b)/(a-b)^2 is larger by cosh^2(eps/4)
    a, b = VectorMechanism(4, eps).flip_probabilities()
    assert b * (1 - b) / (a - b) ** 2 == pytest.approx(var_zero * math.cosh(eps / 4) ** 2, rel=1e-12)


def test_reproducible_and_empty():
    m, labels = AsymmetricVectorMechanism(3, 1.0), np.arange(10) % 3
    np.testing.assert_array_equal(m.sample(labels, np.random.default_rng(9)), m.sample(labels, np.random.default_rng(9)))
    assert m.sample(np.array([], dtype=int), np.random.default_rng(0)).shape == (0, 3)


@pytest.mark.parametrize("kwargs,match", [
    ({"num_classes": 1, "epsilon": 1.0}, "num_classes"),
    ({"num_classes": 2.5, "epsilon": 1.0}, "num_classes"),
    ({"num_classes": 3, "epsilon": 0.0}, "epsilon"),
    ({"num_classes": 3, "epsilon": math.inf}, "epsilon"),
    ({"num_classes": 3, "epsilon": math.nan}, "epsilon"),
])
def test_constructor_guards(kwargs, match):
    with pytest.raises(ValueError, match=match):
        AsymmetricVectorMechanism(**kwargs)


def test_sample_and_channel_guards():
    m = AsymmetricVectorMechanism(3, 1.0)
    with pytest.raises(ValueError, match="labels"):
        m.sample([0, 3], np.random.default_rng(0))
    with pytest.raises(ValueError, match="labels"):
        m.sample([[0, 1]], np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        m.sample([0], None)
    with pytest.raises(ValueError, match="num_classes must be <= 16"):
        AsymmetricVectorMechanism(17, 1.0).channel_matrix()
    with pytest.raises(ValueError, match="num_classes must be <= 16"):
        AsymmetricVectorMechanism(17, 1.0).log_channel_matrix()


def test_all_outputs_enumerated_once():
    assert sorted(map(tuple, output_bits(3).tolist())) == sorted(product((0, 1), repeat=3))
