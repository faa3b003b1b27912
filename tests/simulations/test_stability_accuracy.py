"""001 Theorem 2.4's accuracy half: the closed form of E|ĉ − c| for Algorithm 1, the zero-count property,
the hidden constant, guards, and the smoke run of ``stability_histogram_accuracy``.

The closed forms are checked against mpmath quadrature of the Laplace density over a truncated support
``|w| <= 60 b``: what is left out is at most ``∫_{|w| > 60b} (|w| + c)² f(w) dw <= (60b + 2b + c)² e^{−60}``
(< 1e-20 relative for the counts here), far below the 1e-12 tolerance.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from simulations.mechanisms import StabilityHistogram
from simulations.mechanisms.stability_error import (abs_error_variance, constant_ratio, constant_ratio_bounds,
                                                    expected_abs_error, sup_constant_ratio)

EPS_DELTA = [(1.0, 1e-2), (0.25, 1e-6), (4.0, 1e-12), (0.1, 0.3)]


def _quadrature_moments(c: int, epsilon: float, delta: float):
    """E|ĉ − c| and E|ĉ − c|² by mpmath quadrature of Algorithm 1 (|ĉ − c| = |w| if c + w >= T else c)."""
    with mpmath.workdps(20):
        b = mpmath.mpf(2) / epsilon
        T = b * mpmath.log(2 / mpmath.mpf(delta)) + 1
        f = lambda w: mpmath.exp(-abs(w) / b) / (2 * b)  # noqa: E731
        lim = 60 * b
        t = T - c
        cuts = sorted({-lim, min(max(t, -lim), lim), mpmath.mpf(0), lim})
        m1 = m2 = mpmath.mpf(0)
        for lo, hi in zip(cuts, cuts[1:]):
            mid = (lo + hi) / 2
            g = (lambda w: abs(w)) if mid >= t else (lambda w: mpmath.mpf(c))
            m1 += mpmath.quad(lambda w: g(w) * f(w), [lo, hi])
            m2 += mpmath.quad(lambda w: g(w) ** 2 * f(w), [lo, hi])
        return float(m1), float(m2)


@pytest.mark.parametrize("epsilon,delta", EPS_DELTA)
def test_closed_form_matches_quadrature(epsilon, delta):
    T = StabilityHistogram(epsilon, delta).threshold
    counts = sorted({1, 3, math.floor(T), math.ceil(T), math.ceil(3 * T)})
    mean, var = expected_abs_error(counts, epsilon, delta), abs_error_variance(counts, epsilon, delta)
    for c, m, v in zip(counts, mean, var):
        m1, m2 = _quadrature_moments(c, epsilon, delta)
        assert math.isclose(m, m1, rel_tol=1e-12), (c, m, m1)
        assert math.isclose(v, m2 - m1 * m1, rel_tol=1e-9, abs_tol=1e-12), (c, v, m2 - m1 * m1)


def test_closed_form_limits():
    """Far above T the error is |W|: E = b, Var = b²; a count of 1 costs 1 unless W >= T − 1 (prob. δ/4)."""
    for epsilon, delta in EPS_DELTA:
        b = 2 / epsilon
        assert math.isclose(float(expected_abs_error([10**9], epsilon, delta)[0]), b, rel_tol=1e-12)
        assert math.isclose(float(abs_error_variance([10**9], epsilon, delta)[0]), b * b, rel_tol=1e-9)
        assert float(expected_abs_error([1], epsilon, delta)[0]) >= 1 - delta / 4


def test_zero_count_property_sampler_and_channel():
    """001 Theorem 2.4: count 0 ⇒ ĉ = 0 with probability 1 (no noise is drawn), whatever ε, δ."""
    rng = np.random.default_rng(7)
    counts = np.tile(np.array([0, 1, 0, 3, 0, 40]), (20000, 1))
    for epsilon, delta in EPS_DELTA + [(50.0, 0.9)]:
        mech = StabilityHistogram(epsilon, delta)
        out = mech.release(counts, rng)
        assert np.all(out[:, counts[0] == 0] == 0.0)
        assert float(mech.release_probability(np.array([0]))[0]) == 0.0
        assert float(expected_abs_error([0], epsilon, delta)[0]) == 0.0
        assert float(abs_error_variance([0], epsilon, delta)[0]) == 0.0


@pytest.mark.parametrize("epsilon", [0.05, 0.3, 1.0, 2.0])
@pytest.mark.parametrize("delta", [0.3, 1e-2, 1e-8, 1e-15])
def test_sup_within_hand_derived_bracket(epsilon, delta):
    """The exact supremum lies between the bounds derived without the closed form; past max(T, ln 1/δ) the
    ratio does not increase (so the maximum over 1..ceil(max(T, ln 1/δ)) is the supremum)."""
    sup, arg = sup_constant_ratio(epsilon, delta)
    lo, hi = constant_ratio_bounds(epsilon, delta)
    assert lo <= sup <= hi
    T = StabilityHistogram(epsilon, delta).threshold
    c0 = math.ceil(max(T, math.log(1 / delta)))
    tail = constant_ratio(np.arange(c0, 50 * c0), epsilon, delta)
    assert np.all(np.diff(tail) <= 1e-15) and tail.max() <= sup
    assert float(constant_ratio([arg], epsilon, delta)[0]) == sup


def test_constant_tends_to_two():
    """Both bounds tend to 2 as δ -> 0 (here within 0.04 of 2 at δ = 1e-300)."""
    lo, hi = constant_ratio_bounds(1.0, 1e-300)
    assert 1.96 < lo <= hi < 2.01


@pytest.mark.parametrize("call, match", [
    (lambda: expected_abs_error([-1], 1.0, 0.1), "counts must be integers >= 0"),
    (lambda: expected_abs_error([1.5], 1.0, 0.1), "counts must be integers"),
    (lambda: expected_abs_error([True], 1.0, 0.1), "counts must be integers"),
    (lambda: expected_abs_error([1], 0.0, 0.1), "epsilon must be > 0"),
    (lambda: expected_abs_error([1], 1.0, 0.0), "delta must be > 0"),
    (lambda: abs_error_variance([1], 1.0, 1.0), "delta must be < 1"),
    (lambda: constant_ratio([0, 1], 1.0, 0.1), "counts must be integers >= 1"),
    (lambda: sup_constant_ratio(1.0, 0.6), "delta must be <= 1/2"),
    (lambda: constant_ratio_bounds(3.0, 0.1), "epsilon must be <= 2"),
    (lambda: constant_ratio_bounds(1.0, 0.5), "delta must be < 1/e"),
])
def test_guards(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_smoke_run_claims_well_formed(smoke_run):
    run = smoke_run("stability_histogram_accuracy")
    rec = run.record
    claims = rec["claims"]
    assert len(claims) == 6
    for c in claims:
        assert set(c) >= {"claim", "expected", "measured", "holds", "verdict", "detail"} and c["detail"]
    assert claims[0]["verdict"] in ("holds", "inconclusive")  # few draws at smoke; never excluded
    assert all(c["holds"] is True for c in claims[1:])  # exact / deterministic claims
    assert claims[1]["measured"] == 0.0 and claims[3]["measured"] <= claims[3]["expected"]
    for name in ("simulated_vs_exact.csv", "hidden_constant.csv", "stability_histogram_accuracy.png"):
        assert (run.folder / name).exists(), name
