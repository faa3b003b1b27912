"""Issue 14: the exact checker refuses what is not a mechanism, rejects unknown keywords, audits only
well-shaped samplers, accepts float32 priors, samples correctly at large ε, and scales in K."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy import stats

from proofs_checks import audit_epsilon, check_label_dp, max_privacy_loss, privacy_profile
from proofs_checks.audit import output_events
from proofs_checks.dp import log_privacy_loss_witness
from proofs_checks.mechanisms.alibi import alibi_loss_brute_force
from proofs_checks.mechanisms.vector import factorized_log_loss
from simulations.mechanisms import (ALIBI, ExponentialMechanism, RandomizedResponse, RRTopK, RRWithPrior,
                                    VectorMechanism, rr_probabilities, top_k_order)
from simulations.mechanisms import _rare
from simulations.mechanisms.randomized_response import rr_top_k_log_channel, rr_top_k_loss

# ---------------------------------------------------------------- not a channel: refused


@pytest.mark.parametrize("bad, match", [
    ([[0.9, 0.9], [0.5, 0.5]], "rows must sum to 1"),  # a row summing to 1.8 (loss 0.588 was reported)
    (np.zeros((3, 3)), "rows must sum to 1"),  # all zero: "holds" at ε = 0 before
    ([[2.0, 2.0], [2.0, 2.0]], "rows must sum to 1"),  # entries equal to 2
    ([[1.5, -0.5], [0.5, 0.5]], "non-negative"),
    ([[np.nan, 1.0], [0.5, 0.5]], "NaN"),
    ([[0.5, 0.5 + 2e-12], [0.5, 0.5]], "rows must sum to 1"),  # beyond 1e-12
])
def test_check_label_dp_refuses_non_channels(bad, match):
    with pytest.raises(ValueError, match=f"channel.*{match}|{match}"):
        check_label_dp(np.asarray(bad, dtype=float), 0.0)
    with pytest.raises(ValueError, match=match):
        max_privacy_loss(bad)


def test_rounding_within_tolerance_is_accepted():
    P = np.array([[0.1, 0.2, 0.7], [0.7, 0.2, 0.1]])
    P[0, 0] += 4e-13  # within 1e-12 + 3 * 2^-52
    assert check_label_dp(P, math.log(7)).holds


def test_wrong_number_of_rows():
    with pytest.raises(ValueError, match=r"one row per label \(3 rows\)"):
        check_label_dp(np.full((2, 2), 0.5), 1.0, num_classes=3)


def test_custom_mechanism_channel_is_validated():
    class Broken:
        def channel_matrix(self):
            return np.array([[0.9, 0.9], [0.1, 0.9]])

    with pytest.raises(ValueError, match="rows must sum to 1"):
        check_label_dp(Broken(), 1.0, kind="channel")


# ---------------------------------------------------------------- unknown keywords raise


def test_misspelt_keyword_raises():
    p = np.array([0.7, 0.2, 0.1])
    with pytest.raises(TypeError, match=r"\['prio'\].*accepted: \['prior', 'priors'\]"):
        check_label_dp(RRWithPrior(3, 1.0), 1.0, prio=p)
    with pytest.raises(TypeError, match="bin_sise"):
        check_label_dp(ExponentialMechanism(3, 1.0), 1.0, bin_sise=3)
    with pytest.raises(TypeError, match="prior"):
        check_label_dp(RandomizedResponse(3, 1.0), 1.0, prior=p)  # RR takes no prior
    with pytest.raises(TypeError, match="prio"):
        privacy_profile(RRWithPrior(3, 1.0), [0.5], prio=p)


# ---------------------------------------------------------------- audit: sampler output shape


def test_audit_refuses_short_sampler_output():
    # A 0-DP mechanism (always 0) whose sampler returns n // 2 outputs was "certified" to violate 0.5.
    def half(n, rng):
        return np.zeros(n // 2, dtype=np.int64)

    with pytest.raises(ValueError, match=r"sample_a must return n=10000 outputs.*\(5000,\)"):
        audit_epsilon(half, lambda n, rng: np.zeros(n, dtype=np.int64), output_events(2), 10_000,
                      np.random.default_rng(0))
    with pytest.raises(ValueError, match="sample_b"):
        audit_epsilon(lambda n, rng: np.zeros(n, dtype=np.int64), half, output_events(2), 100,
                      np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"events\[0\] must return"):
        audit_epsilon(lambda n, rng: np.zeros(n), lambda n, rng: np.zeros(n), [lambda z: z[:3] == 0], 10,
                      np.random.default_rng(0))


# ---------------------------------------------------------------- float32 priors


def softmax32(rng, K, size):
    x = rng.normal(size=(size, K)).astype(np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


@pytest.mark.parametrize("K", [2, 10, 1000])
def test_float32_softmax_priors_accepted(K):
    rng = np.random.default_rng(K)
    P = softmax32(rng, K, 200)
    m = RRWithPrior(K, 1.0)
    ks = m.k_star(P)
    p64 = P.astype(np.float64)
    np.testing.assert_array_equal(ks, m.k_star(p64 / p64.sum(axis=1, keepdims=True)))
    for p in P[:5]:
        assert m.k_star(p) >= 1 and check_label_dp(m, 1.0, prior=p).holds
    assert m.sample(np.zeros(200, dtype=np.int64), np.random.default_rng(0), P).shape == (200,)


@pytest.mark.parametrize("bad, match", [([0.6, 0.3], "sum to 1"), ([1.2, -0.2], "non-negative"),
                                        ([np.nan, 1.0], "finite")])
def test_float32_real_errors_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        RRWithPrior(2, 1.0).k_star(np.array(bad, dtype=np.float32))


# ---------------------------------------------------------------- samplers at large ε


class AllZeroUniforms(np.random.Generator):
    """A Generator whose uniforms are all 0 (the lowest point of the 2^-53 grid); integers come from PCG64."""

    def random(self, size=None, dtype=np.float64, out=None):
        if out is not None:
            out[...] = 0.0
            return out
        return np.zeros(size)


def test_rr_at_large_epsilon_can_flip():
    # ε = 40, K = 10: keep rounds to 1.0, so u < keep always kept the label; the flip has probability
    # 9 e^-40 / (1 + 9 e^-40) = 3.8e-17 and now happens when the staged uniforms fall below it.
    keep, _ = rr_probabilities(40.0, 10)
    assert keep == 1.0
    out = RandomizedResponse(10, 40.0).sample(np.zeros(50, dtype=np.int64), AllZeroUniforms(np.random.PCG64(0)))
    assert np.all(out != 0)
    # An ordinary generator never flips (3.8e-17 per label).
    out = RandomizedResponse(10, 40.0).sample(np.zeros(10_000, dtype=np.int64), np.random.default_rng(0))
    assert np.all(out == 0)


def test_vector_at_large_epsilon_sets_rare_bits():
    m = VectorMechanism(4, 80.0)
    z = m.sample(np.zeros(3, dtype=np.int64), AllZeroUniforms(np.random.PCG64(0)))
    # all-zero uniforms pass every stage: off-label bits 1 (prob e^-40), the label's bit 0 (prob e^-40)
    np.testing.assert_array_equal(z, [[0, 1, 1, 1]] * 3)


def _binomial_ok(count, n, q, level=1e-4):
    """Two-sided exact binomial test at the stated level (fixed seed: fails with probability <= level)."""
    return stats.binomtest(int(count), n, q).pvalue > level


def test_rare_event_frequency_with_small_stages(monkeypatch):
    # With stages of 1/4 the same code path draws q = 1e-3 in five stages; its frequency must be q.
    monkeypatch.setattr(_rare, "STAGE_LOG2", 2)
    rng = np.random.default_rng(1)
    n = 2_000_000
    for q in (1e-3, 0.3 * 4.0 ** -3):
        u = rng.random(n)
        hit = _rare.refine_rare_event(np.zeros(n, bool), u, math.log(q), rng)
        assert _binomial_ok(hit.sum(), n, q), (q, hit.sum())
    u = rng.random(1000)
    assert not _rare.refine_rare_event(np.ones(1000, bool), u, -np.inf, rng).any()


def test_rr_and_vector_rare_frequencies(monkeypatch):
    monkeypatch.setattr(_rare, "STAGE_LOG2", 2)
    n = 1_000_000
    eps = 9.0  # RR, K = 10: q = 9 e^-9 / (1 + 9 e^-9) ≈ 1.1e-3 < 1/4: staged
    q = 9 * math.exp(-eps) / (1 + 9 * math.exp(-eps))
    out = RandomizedResponse(10, eps).sample(np.zeros(n, dtype=np.int64), np.random.default_rng(2))
    assert _binomial_ok((out != 0).sum(), n, q)
    b = 1 / (1 + math.exp(eps / 2))  # vector, ε = 9: b ≈ 0.011
    z = VectorMechanism(3, eps).sample(np.zeros(n // 4, dtype=np.int64), np.random.default_rng(3))
    assert _binomial_ok((z[:, 0] == 0).sum(), n // 4, b) and _binomial_ok(z[:, 1:].sum(), n // 2, b)


# ---------------------------------------------------------------- scale: closed forms vs brute force


@pytest.mark.parametrize("K", [2, 3, 7])
@pytest.mark.parametrize("eps", [1e-3, 0.7, 5.0])
def test_alibi_closed_form_matches_brute_force(K, eps):
    m = ALIBI(K, eps)
    loss = m.privacy_loss()
    brute, _ = alibi_loss_brute_force(m)
    assert loss == pytest.approx(brute, rel=1e-15) and loss == pytest.approx(eps, rel=1e-15)


def test_alibi_and_vector_checks_at_huge_K():
    # ALIBI at K = 10^5 built a 74 GiB identity before; the vector check built K x K tables.
    res = check_label_dp(ALIBI(100_000, 1.0), 1.0)
    assert res.holds and res.epsilon_actual == pytest.approx(1.0, rel=1e-15)
    assert res.witness["attained"] == pytest.approx(1.0, rel=1e-12)
    res = check_label_dp(VectorMechanism(10_000, 2.0), 2.0)
    assert res.holds and res.epsilon_actual == pytest.approx(2.0, rel=1e-15)
    res = check_label_dp(RRWithPrior(10_000, 2.0), 2.0, prior=np.full(10_000, 1e-4))
    assert res.holds and res.epsilon_actual == pytest.approx(2.0, rel=1e-15)
    res = check_label_dp(RRTopK(10_000, 2.0, 50), 2.0)  # default priors: no K x K identity either
    assert res.holds and res.epsilon_actual == pytest.approx(2.0, rel=1e-15)


@pytest.mark.parametrize("K", [2, 3, 6])
@pytest.mark.parametrize("eps", [0.3, 2.0, 9.0])
def test_vector_generic_factorization_agrees(K, eps):
    m = VectorMechanism(K, eps)
    with np.errstate(divide="ignore"):
        Q = m.bit_probabilities()
        gen, _ = factorized_log_loss(np.log(Q), np.log1p(-Q))
    res = check_label_dp(m, eps)
    assert res.epsilon_actual == pytest.approx(gen, rel=1e-12)
    assert res.witness["brute_force"] == pytest.approx(eps, rel=1e-12)


@pytest.mark.parametrize("K", [2, 3, 6])
def test_rr_top_k_structured_matches_dense_and_float_channel(K):
    rng = np.random.default_rng(K)
    for _ in range(5):
        p = rng.dirichlet(np.ones(K))
        order = top_k_order(p)
        for k in range(1, K + 1):
            for eps in (0.2, 3.0):
                dense = log_privacy_loss_witness(rr_top_k_log_channel(order, k, eps))
                assert rr_top_k_loss(order, k, eps) == dense
                assert dense[0] == pytest.approx(max_privacy_loss(RRTopK(K, eps, k).channel_matrix(p)),
                                                 rel=1e-12, abs=1e-15)


class ZerosFirst(np.random.Generator):
    """Uniforms all 0 for the first ``calls`` calls of ``random``, then the real stream."""

    def __init__(self, bitgen, calls):
        super().__init__(bitgen)
        self.calls = calls

    def random(self, size=None, dtype=np.float64, out=None):
        if self.calls > 0:
            self.calls -= 1
            return np.zeros(size)
        return super().random(size)


def test_exponential_and_geometric_at_large_epsilon_can_leave_the_mode():
    from simulations.mechanisms import ExponentialMechanism, GeometricHistogram

    # ε = 40, counts (3, 0): the other class has probability e^-60 / (1 + e^-60); inversion of one
    # uniform never drew it.
    out = ExponentialMechanism(2, 40.0).sample([[3, 0]] * 4, AllZeroUniforms(np.random.PCG64(0)))
    np.testing.assert_array_equal(out, [1, 1, 1, 1])
    assert np.all(ExponentialMechanism(2, 40.0).sample([[3, 0]] * 1000, np.random.default_rng(0)) == 0)
    # ε_p = 80 (a = 40): numpy's geometric added no noise at all; now Z != 0 w.p. 2e^-40 / (1 + e^-40).
    noisy = GeometricHistogram(80.0).sample([[5, 5, 5]], ZerosFirst(np.random.PCG64(0), calls=10))
    assert np.all(noisy != 5)


def test_exponential_rare_classes_frequency(monkeypatch):
    from simulations.mechanisms import ExponentialMechanism

    monkeypatch.setattr(_rare, "STAGE_LOG2", 2)
    # K = 3, counts (4, 0, 0), s = ε/2 with e^{4s} = 1998: P(not class 0) = 2 / (e^{4s} + 2) = 1e-3, split evenly.
    eps = 2 * math.log(1998) / 4
    n = 1_000_000
    out = ExponentialMechanism(3, eps).sample(np.tile([4, 0, 0], (n, 1)), np.random.default_rng(5))
    assert _binomial_ok((out != 0).sum(), n, 1e-3)
    assert _binomial_ok((out == 1).sum(), int((out != 0).sum()), 0.5)


def test_geometric_rare_noise_frequency(monkeypatch):
    from simulations.mechanisms import GeometricHistogram

    monkeypatch.setattr(_rare, "STAGE_LOG2", 2)
    m = GeometricHistogram(9.2)  # a = 4.6 > 2 ln 2: the staged path; r = e^-a
    r = math.exp(-m.a)
    z = m.sample(np.zeros((1, 1_000_000), dtype=np.int64), np.random.default_rng(6)).ravel()
    nz = int((z != 0).sum())
    assert _binomial_ok(nz, z.size, 2 * r / (1 + r))  # P(Z != 0) of dlaplace(a)
    assert _binomial_ok(int((np.abs(z) >= 2).sum()), nz, r)  # P(|Z| >= 2 | Z != 0) = r
    assert _binomial_ok(int((z > 0).sum()), nz, 0.5)


def test_solver_channels_need_a_stated_tolerance():
    from proofs_checks import check_channel

    P = np.array([[0.75, 0.25 + 5e-11], [0.25, 0.75]])  # an LP solution off by 5e-11
    with pytest.raises(ValueError, match="rows must sum to 1"):
        check_channel(P, 1.2)
    assert check_channel(P, 1.2, row_sum_atol=1e-9).holds


def test_sampler_has_no_exact_profile():
    with pytest.raises(ValueError, match="black-box sampler"):
        privacy_profile(lambda labels, rng: labels, [0.5], num_classes=3)


# ---------------------------------------------------------------- issue 19: an enumeration too large is refused up front


@pytest.mark.parametrize("K", [10**5, 10**7])
def test_prior_enumeration_too_large_is_refused_before_any_work(K):
    # num_classes=10**7 ran for minutes (drawing 65 priors of 10^7 entries, then a 10^7 x 10^7 channel each)
    import time

    calls = []

    def prior_fn(prior):
        calls.append(prior.size)
        raise AssertionError("the randomizer must not be called")

    t0 = time.perf_counter()
    size = re.escape(f"{65 * K * K:.3g}")
    with pytest.raises(ValueError, match=rf"num_classes={K} over 65 priors .* {size} in all, above "
                                         r"max_entries=1e\+09; pass max_entries="):
        check_label_dp(prior_fn, 1.0, kind="prior_channel", num_classes=K)
    assert time.perf_counter() - t0 < 1.0 and calls == []


def test_max_entries_is_the_stated_limit():
    def prior_fn(prior):
        return RandomizedResponse(prior.size, 1.0).channel_matrix()

    # 2 given priors x 4 x 4 = 32 entries
    priors = [np.full(4, 0.25), [0.4, 0.3, 0.2, 0.1]]
    with pytest.raises(ValueError, match="32 in all, above max_entries=31"):
        check_label_dp(prior_fn, 1.0, kind="prior_channel", priors=priors, max_entries=31)
    assert check_label_dp(prior_fn, 1.0, kind="prior_channel", priors=priors, max_entries=32).holds
    with pytest.raises(ValueError, match="prior must be an array of shape"):
        check_label_dp(prior_fn, 1.0, kind="prior_channel", prior=0.5)
