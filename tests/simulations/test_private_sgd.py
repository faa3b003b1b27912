"""LP-RR-SGD / LP-Normal-SGD (004 Algorithms 5-6): unbiasedness by exact expectation, the span
projection, and the numba pass against the numpy oracle.

Exact references: e^ε = 3 (ε = ln 3) makes every RR / RRTop-k probability rational, so the
expectations over the randomized-response channel are sums of ``fractions.Fraction`` with no
rounding; eq. (7) and eq. (17) are re-implemented here in Fractions from the paper's text.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from simulations.learning.private_sgd import (debiased_gradient, debiased_loss, gaussian_sigma,
                                              gradient_span_projector, lp_sgd_logistic, lp_sgd_logistic_reference,
                                              step_sizes)
from simulations.mechanisms import RandomizedResponse

E = Fraction(3)  # e^ε with ε = ln 3


def rr_prob(z, y, K, E=E):
    return E / (E + K - 1) if z == y else Fraction(1) / (E + K - 1)


def eq7_fraction(grads, z, E=E):
    K = len(grads)
    c = (E + K - 1) / (E - 1)
    return [c * (grads[z][j] - sum(g[j] for g in grads) / (E + K - 1)) for j in range(len(grads[0]))]


@pytest.mark.parametrize("K", [2, 3, 5])
def test_eq7_is_unbiased_exactly(K):
    rng = np.random.default_rng(K)
    grads = [[Fraction(int(a), 7) for a in rng.integers(-20, 21, size=4)] for _ in range(K)]
    for y in range(K):
        mean = [sum(rr_prob(z, y, K) * eq7_fraction(grads, z)[j] for z in range(K)) for j in range(4)]
        assert mean == grads[y]  # exact: E_{z ~ RR(y)} ĝ(z) = g(y)
    # the code's floats agree with the exact formula, and their expectation under the code's own
    # RR channel is g(y) up to rounding
    G = np.array([[float(v) for v in g] for g in grads])
    P = RandomizedResponse(num_classes=K, epsilon=math.log(3)).channel_matrix()
    for z in range(K):
        np.testing.assert_allclose(debiased_gradient(G, z, math.log(3)), [float(v) for v in eq7_fraction(grads, z)],
                                   rtol=1e-12, atol=1e-12)
    for y in range(K):
        mean = sum(P[y, z] * debiased_gradient(G, z, math.log(3)) for z in range(K))
        np.testing.assert_allclose(mean, G[y], rtol=1e-12, atol=1e-12)


def test_eq17_lemma18_exactly():
    """E_{ỹ ~ RRTop-k(y)} ℓ̃(ỹ) = ℓ(y) for y ∈ Y_k (Lemma 18); for y ∉ Y_k (ỹ uniform on Y_k) the
    expectation is the mean of ℓ over Y_k (derived: (Σ/k - pΣ)/(1 - kp) = Σ/k)."""
    K, Y = 5, [3, 0, 4]
    k = len(Y)
    losses = [Fraction(2, 3), Fraction(5, 7), Fraction(1, 9), Fraction(4, 5), Fraction(3, 11)]
    p = Fraction(1) / (E + k - 1)

    def lt(z):
        return (losses[z] - p * sum(losses[j] for j in Y)) / (1 - k * p)

    for y in range(K):
        if y in Y:
            mean = sum((E * p if z == y else p) * lt(z) for z in Y)
            assert mean == losses[y]
        else:
            mean = sum(Fraction(1, k) * lt(z) for z in Y)
            assert mean == sum(losses[j] for j in Y) / k
    for z in Y:
        assert math.isclose(debiased_loss([float(v) for v in losses], z, math.log(3), candidates=Y), float(lt(z)),
                            rel_tol=1e-12)
    with pytest.raises(ValueError, match="noisy_label must be in the candidate set"):
        debiased_loss([float(v) for v in losses], 1, 1.0, candidates=Y)


def test_normal_noise_projection_is_the_span_projector():
    """Algorithm 6 (c)-(d) for the logistic loss: the projector onto span{(s - e_k) xᵀ} equals
    C ⊗ x̂x̂ᵀ (C = I - 11ᵀ/K), so C (B x̂) x̂ᵀ with B x̂ ~ N(0, σ² I_K) has the law of Π_{L_t}(B)."""
    rng = np.random.default_rng(3)
    K, p = 4, 6
    x = rng.normal(size=p)
    s = rng.dirichlet(np.ones(K))
    grads = np.stack([np.outer(s - np.eye(K)[k], x) for k in range(K)])
    xh = x / np.linalg.norm(x)
    C = np.eye(K) - np.ones((K, K)) / K
    np.testing.assert_allclose(gradient_span_projector(grads), np.kron(C, np.outer(xh, xh)), atol=1e-12)


@pytest.mark.parametrize("method, kw", [("rr", dict(epsilon=0.5)), ("normal", dict(epsilon=0.5, delta=1e-5)),
                                        ("nonprivate", {})])
def test_kernel_matches_numpy_oracle(method, kw):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 7))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = rng.integers(0, 3, size=400)
    a = lp_sgd_logistic(X, y, num_classes=3, method=method, radius=2.0, rng=np.random.default_rng(9), **kw)
    b = lp_sgd_logistic_reference(X, y, num_classes=3, method=method, radius=2.0, rng=np.random.default_rng(9), **kw)
    # two implementations: the kernel (sequential dot products, math.exp from the C library) and numpy (BLAS
    # gemv, whose summation order depends on the CPU's kernel, and numpy's exp, vectorized on AVX-512) differ
    # by a few ulp per step. Projected SGD on the logistic loss does not amplify such differences (a relative
    # 1e-15 change of every feature moves the final weights by < 3e-15 at these seeds), so 400 steps add up
    # to at most ~400 · 10 ulp ≈ 1e-12 relative; rtol 1e-10 leaves a factor 100, atol covers entries near 0.
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    assert np.linalg.norm(a) <= 2.0 * (1 + 1e-12)


def test_step_sizes_and_sigma_formulas():
    eta = step_sizes("rr", 4, D=2.0, L=math.sqrt(2), num_classes=3, epsilon=0.5)
    np.testing.assert_allclose(eta, [2.0 * 0.5 / (6 * 3 * math.sqrt(2) * math.sqrt(t)) for t in range(1, 5)])
    sig = gaussian_sigma(math.sqrt(2), 0.5, 1e-5)
    assert math.isclose(sig, math.sqrt(2) * math.sqrt(2 * math.log(1.25e5)) / 0.5)
    eta = step_sizes("normal", 2, D=2.0, L=1.0, num_classes=3, sigma=2.0)
    np.testing.assert_allclose(eta, [2.0 / math.sqrt((1 + 12) * t) for t in (1, 2)])


def test_guards():
    X, y = np.ones((3, 2)), np.array([0, 1, 2])
    with pytest.raises(ValueError, match="method must be one of"):
        lp_sgd_logistic(X, y, num_classes=3, method="dp", radius=1.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="epsilon must be a real number, got epsilon=None"):
        lp_sgd_logistic(X, y, num_classes=3, method="rr", radius=1.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="delta must be a real number, got delta=None"):
        lp_sgd_logistic(X, y, num_classes=3, method="normal", radius=1.0, epsilon=0.5, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"y: labels must lie in \[0, 3\)"):
        lp_sgd_logistic(X, y + 1, num_classes=3, method="rr", radius=1.0, epsilon=1.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="radius must be > 0"):
        lp_sgd_logistic(X, y, num_classes=3, method="rr", radius=0.0, epsilon=1.0, rng=np.random.default_rng(0))
