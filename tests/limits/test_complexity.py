"""Sample complexity, privacy cost and crossover: round trips and the paper's closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest

import limits

CASES = [
    ("classification", dict(beta=1.0, d=2, gamma=1.0)),
    ("classification", dict(beta=0.4, d=4, gamma=0.0)),
    ("regression", dict(beta=1.0, d=1)),
    ("regression", dict(beta=2.5, d=3)),
    ("regression_heavy_tailed", dict(beta=1.0, d=2, p=2.0)),
    ("regression_heavy_tailed", dict(beta=0.8, d=1, p=5.0)),
]


@pytest.mark.parametrize("variant", ["derived", "printed"])
@pytest.mark.parametrize("log_factors", [False, True])
@pytest.mark.parametrize("task,kw", CASES)
@pytest.mark.parametrize("privacy", limits.PRIVACY)
@pytest.mark.parametrize("eps", [0.05, 0.7, 4.0])
@pytest.mark.parametrize("target", [1e-2, 1e-4])
def test_round_trip(task, kw, privacy, eps, target, log_factors, variant):
    n = limits.sample_complexity(task, privacy, target=target, epsilon=eps, num_classes=7, log_factors=log_factors,
                                 variant=variant, **kw)
    if n < 1:  # the target is already met by one sample (rates have constants 1)
        pytest.skip("target met below N = 1")
    back = limits.minimax_rate(task, privacy, N=n, epsilon=eps, num_classes=7, log_factors=log_factors, variant=variant, **kw)
    assert back == pytest.approx(target, rel=1e-10)


def test_one_term_closed_form():
    # (N (ε²∧1))^(-β(γ+1)/(2β+d)) = t  <=>  N = t^(-(2β+d)/(β(γ+1))) / (ε²∧1)
    b, g, d, eps, t = 1.0, 1.0, 2, 0.3, 1e-3
    n = limits.sample_complexity("classification", "local", target=t, epsilon=eps, beta=b, gamma=g, d=d)
    assert n == pytest.approx(t ** (-(2 * b + d) / (b * (g + 1))) / eps**2, rel=1e-12)


def test_max_cell_closed_form():
    # Theorem 10 cell: (Nε²)^(-a_p) ∨ N^(-a) = t  <=>  N = max(t^(-1/a_p)/ε², t^(-1/a))
    b, d, p, eps, t = 1.0, 2, 3.0, 0.5, 1e-3
    a, ap = 2 * b / (2 * b + d), 2 * b * (p - 1) / (2 * p * b + d * (p - 1))
    n = limits.sample_complexity("regression_heavy_tailed", "local", target=t, epsilon=eps, beta=b, d=d, p=p)
    assert n == pytest.approx(max(t ** (-1 / ap) / eps**2, t ** (-1 / a)), rel=1e-12)


@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("eps", [0.01, 0.2, 0.5, 1.0, 3.0])
def test_local_privacy_cost_is_one_over_eps2_wedge_1(task, eps):
    """003 Remark 1(1) and the text after Theorem 6: sample complexity larger by 1/(ε² ∧ 1)."""
    cost = limits.privacy_cost(task, "local", target=1e-3, epsilon=eps, beta=1.0, d=2, gamma=0.5)
    assert cost == pytest.approx(1 / min(eps**2, 1.0), rel=1e-12)


@pytest.mark.parametrize("task,kw", CASES)
def test_central_privacy_cost_vanishes(task, kw):
    """After Theorems 4 and 8: the central privacy term's extra sample complexity becomes negligible.

    Bound: N_priv >= N_np = t^(-1/a) and N_priv^(-a) = t - (εN_priv)^(-b) >= t(1 - δ) with
    δ = (ε N_np)^(-b) / t, so 1 <= N_priv/N_np <= (1 - δ)^(-1/a)."""
    eps = 0.5
    a = limits.rate_exponent(task, "none", **kw)
    b = limits.rate_exponent(task, "central", term="privacy", **kw)
    if kw.get("p") == 2.0:
        # At p = 2 both central terms decay alike (b = a = 2β/(2β+d)), so the cost does not vanish:
        # N^(-a) + (εN)^(-a) = t gives N = (t / (1 + ε^(-a)))^(-1/a), a constant factor (1 + ε^(-a))^(1/a).
        assert b == pytest.approx(a, rel=1e-15) and a == pytest.approx(2 * kw["beta"] / (2 * kw["beta"] + kw["d"]))
        for t in (1e-2, 1e-4, 1e-6, 1e-8):
            cost = limits.privacy_cost(task, "central", target=t, epsilon=eps, **kw)
            assert cost == pytest.approx((1 + eps ** (-a)) ** (1 / a), rel=1e-10)
        return
    costs = []
    for t in (1e-2, 1e-4, 1e-6, 1e-8):
        cost = limits.privacy_cost(task, "central", target=t, epsilon=eps, **kw)
        n_np = t ** (-1 / a)
        delta = (eps * n_np) ** (-b) / t
        if delta < 1:
            assert 1 <= cost <= (1 - delta) ** (-1 / a) * (1 + 1e-12)
        costs.append(cost)
    assert all(c1 > c2 for c1, c2 in zip(costs, costs[1:]))
    assert costs[-1] - 1 < 0.05 * (costs[0] - 1)


def test_sample_complexity_arrays():
    t = np.array([1e-2, 1e-3, 1e-4])
    out = limits.sample_complexity("regression", "central", target=t, epsilon=0.5, beta=1.0, d=2)
    assert out.shape == (3,)
    for i in range(3):
        assert out[i] == limits.sample_complexity("regression", "central", target=float(t[i]), epsilon=0.5, beta=1.0, d=2)
    assert np.all(np.diff(out) > 0)
    grid = limits.sample_complexity("regression", "local", target=t[:, None], epsilon=np.array([0.1, 1.0]), beta=1.0, d=2)
    assert grid.shape == (3, 2)


@pytest.mark.parametrize("task,kw", [c for c in CASES if c[1].get("p") != 2.0])
@pytest.mark.parametrize("eps", [0.05, 0.5, 2.0])
def test_crossover_central(task, kw, eps):
    """(εN)^(-b) = N^(-a)  <=>  N = ε^(-b/(b-a)); above it the non-private term dominates."""
    a = limits.rate_exponent(task, "central", term="nonprivate", **kw)
    b = limits.rate_exponent(task, "central", term="privacy", **kw)
    n = limits.crossover(task, "central", epsilon=eps, **kw)
    assert n == pytest.approx(eps ** (-b / (b - a)), rel=1e-12)
    if n >= 1:
        rt = limits.rate_terms(task, "central", N=n, epsilon=eps, **kw)
        assert rt.terms["privacy"] == pytest.approx(rt.terms["nonprivate"], rel=1e-10)
        assert limits.rate_terms(task, "central", N=n * 2, epsilon=eps, **kw).dominant == "nonprivate"
        if n / 2 >= 1:
            assert limits.rate_terms(task, "central", N=n / 2, epsilon=eps, **kw).dominant == "privacy"


def test_crossover_local_heavy_tailed_is_where_privacy_starts_dominating():
    # β=1, d=2, p=3: N^(-1/2) = (9N)^(-2/5)  <=>  N = 9^4 (ε = 3 so that the privacy term starts smaller)
    kw = dict(beta=1.0, d=2, p=3.0)
    n = limits.crossover("regression_heavy_tailed", "local", epsilon=3.0, **kw)
    assert n == pytest.approx(9.0**4, rel=1e-12)
    assert limits.rate_terms("regression_heavy_tailed", "local", N=n * 2, epsilon=3.0, **kw).dominant == "privacy"
    assert limits.rate_terms("regression_heavy_tailed", "local", N=n / 2, epsilon=3.0, **kw).dominant == "nonprivate"


def test_crossover_errors():
    with pytest.raises(ValueError, match="one-term"):
        limits.crossover("regression", "local", epsilon=0.5, beta=1.0, d=2)
    with pytest.raises(ValueError, match="no crossover"):
        limits.crossover("regression_heavy_tailed", "central", epsilon=0.5, beta=1.0, d=2, p=2.0)
    with pytest.raises(ValueError, match="eps"):
        limits.crossover("regression", "central", epsilon=None, beta=1.0, d=2)
    with pytest.raises(ValueError, match="eps"):
        limits.crossover("regression", "central", epsilon=[0.5, 1.0], beta=1.0, d=2)


@pytest.mark.parametrize("target", [0.0, -1.0, float("nan"), float("inf"), [1e-2, 0.0]])
def test_invalid_target(target):
    with pytest.raises(ValueError, match="target"):
        limits.sample_complexity("regression", "local", target=target, epsilon=0.5, beta=1.0, d=2)


def test_privacy_cost_none_is_one():
    assert limits.privacy_cost("regression", "none", target=1e-3, beta=1.0, d=2) == 1.0
    assert math.isclose(limits.privacy_cost("regression", "local", target=1e-3, epsilon=2.0, beta=1.0, d=2), 1.0)


def test_sample_complexity_beyond_float_range_raises():
    # β=0.05, γ=0, d=5: exponent 0.05/5.1; target 1e-4 needs N = 1e4^(102) = 1e408
    with pytest.raises(ValueError, match="beyond floating-point range"):
        limits.sample_complexity("classification", "none", target=1e-4, beta=0.05, gamma=0.0, d=5)
