"""Exact label-DP checks of the continuous and central mechanisms, and their planted bugs.

Expected losses are derived by hand (docstrings of the tests) or recomputed here by independent
enumeration in exact rational arithmetic (``fractions``) at ε values that make the exponentials
rational; none is copied from the checker's output.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks import check_label_dp
from proofs_checks.mechanisms._common import compositions
from simulations.mechanisms.exponential import exponential_worst_loss
from proofs_checks.dp import TOL
from proofs_checks.planted_bugs_central import (ExponentialNoHalf, GeometricFullBudget, LaplaceHalfScale,
                                                NoisyBinMeanEq23AsPrinted, StabilityNoPlusOne)
from simulations.mechanisms import (ClippedLaplaceLabels, ExponentialMechanism, GeometricHistogram, LaplaceLabels,
                                    NoisyBinMean, NoisyMajority, StabilityHistogram)

EPS = [0.1, 0.5, 1.0, 2.0, 4.0, 8.0]


def tight(actual, expected):
    return abs(actual - expected) <= TOL * max(1.0, abs(expected))


# ---------------------------------------------------------------- Laplace labels and bin means

@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("T", [0.25, 1.0, 3.0])
@pytest.mark.parametrize("cls", [LaplaceLabels, ClippedLaplaceLabels])
def test_laplace_labels_tight(cls, T, eps):
    """sup ln f(z-T)/f(z+T) = 2T/b = 2T/(2T/ε) = ε, attained for z >= T (003 Theorems 6, 10)."""
    r = check_label_dp(cls(T=T, epsilon=eps), eps)
    assert r.holds and tight(r.epsilon_actual, eps)
    assert r.witness["y"] == T and r.witness["y_prime"] == -T
    assert tight(r.witness["grid_max"], eps)  # the brute-force grid reaches the supremum at the endpoints
    assert not check_label_dp(cls(T=T, epsilon=eps), eps * 0.999).holds


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("counts", [[1], [2, 7, 30], [100]])
def test_noisy_bin_mean_tight(eps, counts):
    """A bin mean moves by 2T/n_l; scale 2T/(n_l ε) gives exactly ε for every n_l (003 eq. (28))."""
    for clip in (False, True):
        r = check_label_dp(NoisyBinMean(T=2.0, epsilon=eps, clip=clip), eps, counts=counts)
        assert r.holds and tight(r.epsilon_actual, eps)


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("T", [0.5, 1.0, 2.0, 5.0])
def test_eq23_as_printed_loses_T_eps(T, eps):
    """003 eq. (23) prints Lap(2/(n_l ε)); labels in [-T, T] move the mean by 2T/n_l: loss T ε."""
    r = check_label_dp(NoisyBinMeanEq23AsPrinted(T=T, epsilon=eps), eps)
    assert tight(r.epsilon_actual, T * eps)
    assert r.holds == (T <= 1.0)


# ---------------------------------------------------------------- exponential mechanism

def exact_exponential_loss(w: int | Fraction, n: int, K: int) -> Fraction:
    """max over neighbouring count vectors and outputs of P(j|D)/P(j|D') for P(j) ∝ w^{n_j}, exactly."""
    best = Fraction(0)
    for counts in itertools.product(range(n + 1), repeat=K):
        if sum(counts) != n:
            continue
        for a, b in itertools.permutations(range(K), 2):
            if counts[a] == 0:
                continue
            moved = list(counts)
            moved[a] -= 1
            moved[b] += 1
            z, z2 = sum(Fraction(w) ** c for c in counts), sum(Fraction(w) ** c for c in moved)
            for j in range(K):
                ratio = (Fraction(w) ** counts[j] / z) / (Fraction(w) ** moved[j] / z2)
                best = max(best, ratio, 1 / ratio)
    return best


@pytest.mark.parametrize("K,n", [(2, 1), (2, 2), (2, 5), (3, 1), (3, 4), (4, 3)])
def test_exponential_exact_rational_mode(K, n):
    """At ε = 2 ln 3 the weights e^{ε n/2} = 3^n are integers: exact enumeration in fractions."""
    eps = 2 * math.log(3)
    r = check_label_dp(ExponentialMechanism(K, eps), eps, bin_size=n)
    exact = exact_exponential_loss(3, n, K)
    assert r.epsilon_actual == pytest.approx(math.log(exact), rel=1e-12)
    # the closed form of the worst case: s + ln((K-1+w^n)/(K-2+w+w^{n-1})), w = e^s = 3
    closed = Fraction(3) * (K - 1 + Fraction(3) ** n) / (K - 2 + 3 + Fraction(3) ** (n - 1))
    assert closed == exact
    assert r.holds


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("K,n", [(2, 6), (3, 6), (5, 4), (10, 3)])
def test_exponential_grid(eps, K, n):
    """ε-DP, never tight at finite n: the loss is the closed form, < ε, and ε/2 for n = 1."""
    r = check_label_dp(ExponentialMechanism(K, eps), eps, bin_size=n)
    assert r.holds and r.epsilon_actual < eps
    w = math.exp(eps / 2)
    closed = eps / 2 + math.log((K - 1 + w ** n) / (K - 2 + w + w ** (n - 1)))
    assert r.epsilon_actual == pytest.approx(closed, rel=1e-11)
    assert exponential_worst_loss(eps / 2, 1, K) == pytest.approx(eps / 2, rel=1e-12)


def test_exponential_loss_approaches_eps():
    eps = 1.0
    losses = [exponential_worst_loss(eps / 2, n, 3) for n in (1, 2, 5, 20, 80)]
    assert all(a < b for a, b in zip(losses, losses[1:])) and eps - losses[-1] < 1e-15 + 3 * math.exp(-40)


def test_compositions():
    c = compositions(4, 3)
    assert len(c) == math.comb(6, 2) and np.all(c.sum(axis=1) == 4) and len({tuple(r) for r in c}) == len(c)


# ---------------------------------------------------------------- noisy majority

@pytest.mark.parametrize("eps", EPS)
def test_noisy_majority_tight(eps):
    """A cube of n >= 2 points, sum s = 0 -> 1: P(W > n/2 - 1)/P(W > n/2) = e^{ε} exactly (both tails >= 0)."""
    r = check_label_dp(NoisyMajority(eps), eps, sizes=(1, 2, 3))
    assert r.holds and tight(r.epsilon_actual, eps)


@pytest.mark.parametrize("eps", EPS)
def test_noisy_majority_single_point_cube(eps):
    """n = 1: P(W > -1/2)/P(W > 1/2) = (1 - ½e^{-ε/2}) / (½e^{-ε/2}) = 2e^{ε/2} - 1 < e^ε."""
    r = check_label_dp(NoisyMajority(eps), eps, sizes=(1,))
    assert r.epsilon_actual == pytest.approx(math.log(2 * math.exp(eps / 2) - 1), rel=1e-12)
    assert r.holds and r.epsilon_actual < eps


# ---------------------------------------------------------------- geometric histogram

@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("n,K", [(1, 2), (3, 2), (3, 3), (4, 3)])
def test_geometric_tight(eps, n, K):
    """Two counts move by one, each costing a = ε/2: loss exactly ε (004 Algorithm 4)."""
    r = check_label_dp(GeometricHistogram(eps), eps, dataset_size=n, num_classes=K)
    assert r.holds and tight(r.epsilon_actual, eps)


def test_geometric_exact_rational_mode():
    """ε = 2 ln 2: a = ln 2, r = e^{-a} = 1/2, P(Z = k) = (1/3) 2^{-|k|}; independent enumeration in fractions."""
    eps = 2 * math.log(2)
    n, K = 2, 2
    pmf = lambda k: Fraction(1, 3) * Fraction(1, 2) ** abs(k)  # noqa: E731
    best = Fraction(0)
    outs = range(-4, n + 5)
    for h in [(2, 0), (1, 1), (0, 2)]:
        for a, b in [(0, 1), (1, 0)]:
            if h[a] == 0:
                continue
            h2 = list(h)
            h2[a] -= 1
            h2[b] += 1
            for z in itertools.product(outs, repeat=K):
                p = pmf(z[0] - h[0]) * pmf(z[1] - h[1])
                q = pmf(z[0] - h2[0]) * pmf(z[1] - h2[1])
                best = max(best, p / q)
    assert best == 4  # e^ε
    r = check_label_dp(GeometricHistogram(eps), eps, dataset_size=n, num_classes=K)
    assert r.epsilon_actual == pytest.approx(math.log(best), rel=1e-12)


# ---------------------------------------------------------------- stability histogram

@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("delta", [1e-8, 1e-5, 1e-2, 0.5])
def test_stability_meets_delta_with_factor_4(eps, delta):
    """δ(ε) = P(a count of 1 is released) = ½ exp(-(ε/2)·(2/ε)ln(2/δ)) = δ/4 (001 Algorithm 1)."""
    r = check_label_dp(StabilityHistogram(eps, delta), eps, delta)
    assert r.holds
    assert r.delta_actual == pytest.approx(delta / 4, rel=1e-9)
    assert r.epsilon_actual <= eps  # the smallest ε' meeting δ
    assert not check_label_dp(StabilityHistogram(eps, delta), eps, 0.0).holds  # not pure DP


def test_stability_small_dataset_enumeration():
    r = check_label_dp(StabilityHistogram(1.0, 1e-5), 1.0, 1e-5, dataset_size=6)
    assert r.holds and r.delta_actual == pytest.approx(1e-5 / 4, rel=1e-9)


# ---------------------------------------------------------------- planted bugs: exact wrong losses

@pytest.mark.parametrize("eps", EPS)
def test_bug_exponential_no_half(eps):
    """exp(ε n) on a bin of two labels, K = 2: loss ε + ln((1+e^{2ε})/(2e^ε)) = ε + ln cosh ε > ε."""
    r = check_label_dp(ExponentialNoHalf(2, eps), eps, bin_size=2)
    assert not r.holds
    assert r.epsilon_actual == pytest.approx(eps + math.log(math.cosh(eps)), rel=1e-11)
    # bins of one label hide the bug: loss exactly ε
    r1 = check_label_dp(ExponentialNoHalf(2, eps), eps, bin_size=1)
    assert r1.holds and tight(r1.epsilon_actual, eps)


def test_bug_exponential_no_half_rational():
    """ε = ln 3: buggy weights 3^{n}, exact loss = the correct mechanism's at 2ε (fractions)."""
    eps = math.log(3)
    r = check_label_dp(ExponentialNoHalf(3, eps), eps, bin_size=4)
    assert r.epsilon_actual == pytest.approx(math.log(exact_exponential_loss(3, 4, 3)), rel=1e-12)
    assert not r.holds


@pytest.mark.parametrize("eps", EPS)
def test_bug_laplace_half_scale(eps):
    """Lap(T/ε): sup ratio 2T/(T/ε) = 2ε."""
    r = check_label_dp(LaplaceHalfScale(T=1.5, epsilon=eps), eps)
    assert not r.holds and tight(r.epsilon_actual, 2 * eps)


@pytest.mark.parametrize("eps", EPS)
def test_bug_geometric_full_budget(eps):
    """dlaplace(ε) per count, two counts move: loss 2ε."""
    r = check_label_dp(GeometricFullBudget(eps), eps)
    assert not r.holds and tight(r.epsilon_actual, 2 * eps)


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("delta", [1e-8, 1e-5])
def test_bug_stability_no_plus_one(eps, delta):
    """Threshold (2/ε)ln(2/δ): a count of 1 is released w.p. ½ exp(-(ε/2)((2/ε)ln(2/δ) - 1)) = (δ/4)e^{ε/2}.

    That is the exact δ(ε); it exceeds δ iff e^{ε/2} > 4, i.e. ε > 2 ln 4 ≈ 2.77 (ε = 4, 8 here).
    """
    r = check_label_dp(StabilityNoPlusOne(eps, delta), eps, delta)
    expected = delta / 4 * math.exp(eps / 2)
    assert r.delta_actual == pytest.approx(expected, rel=1e-9)
    assert r.holds == (eps < 2 * math.log(4))


# ---------------------------------------------------------------- argument checks

def test_checker_arguments():
    with pytest.raises(ValueError):
        check_label_dp(ExponentialMechanism(3, 1.0), 1.0, bin_size=0)
    with pytest.raises(ValueError):
        check_label_dp(GeometricHistogram(1.0), 1.0, num_classes=1)
    with pytest.raises(ValueError):
        check_label_dp(LaplaceLabels(1.0, 1.0), -1.0)
