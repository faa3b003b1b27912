"""Invalid arguments raise ValueError naming the argument; nothing returns NaN silently."""

from __future__ import annotations

import numpy as np
import pytest

import limits

BASE = dict(task="classification", privacy="central", N=100.0, epsilon=0.5, beta=1.0, d=2, gamma=1.0, p=None, num_classes=2)

BAD = [
    (dict(task="clustering"), "task"),
    (dict(privacy="global"), "privacy"),
    (dict(N=0.5), "N"), (dict(N=0), "N"), (dict(N=-3), "N"), (dict(N=float("nan")), "N"),
    (dict(N=float("inf")), "N"), (dict(N=[1.0, 0.9]), "N"), (dict(N=[]), "N"), (dict(N="100"), "N"),
    (dict(N=True), "N"), (dict(N=[1, np.nan]), "N"), (dict(N=1 + 2j), "N"),
    (dict(epsilon=0.0), "epsilon"), (dict(epsilon=-0.1), "epsilon"), (dict(epsilon=None), "epsilon"), (dict(epsilon=[0.5, 0.0]), "epsilon"),
    (dict(epsilon=float("inf")), "epsilon"), (dict(epsilon=float("nan")), "epsilon"),
    (dict(beta=0.0), "beta"), (dict(beta=-1.0), "beta"), (dict(beta=float("nan")), "beta"), (dict(beta="1"), "beta"),
    (dict(d=0), "d"), (dict(d=2.0), "d"), (dict(d=1.5), "d"), (dict(d=-1), "d"), (dict(d=True), "d"),
    (dict(gamma=None), "gamma"), (dict(gamma=-0.5), "gamma"), (dict(gamma=float("inf")), "gamma"),
    (dict(num_classes=1), "num_classes"), (dict(num_classes=2.5), "num_classes"), (dict(num_classes=3.0), "num_classes"),
    (dict(task="regression_heavy_tailed", p=None), "p"),
    (dict(task="regression_heavy_tailed", p=1.99), "p"),
    (dict(task="regression_heavy_tailed", p=float("inf")), "p"),
    (dict(task="regression", p=1.0), "p"),  # given to a task that ignores it: still checked
]


@pytest.mark.parametrize("change,name", BAD)
@pytest.mark.parametrize("fn", ["minimax_rate", "rate_terms"])
def test_rate_functions_reject(fn, change, name):
    kw = dict(BASE, **change)
    task, privacy = kw.pop("task"), kw.pop("privacy")
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        getattr(limits, fn)(task, privacy, **kw)


@pytest.mark.parametrize("change,name", [c for c in BAD if not {"N", "epsilon", "num_classes"} & set(c[0])])  # no N, epsilon, num_classes
def test_rate_exponent_rejects(change, name):
    kw = dict(BASE, **change)
    task, privacy = kw.pop("task"), kw.pop("privacy")
    for drop in ("N", "epsilon", "num_classes"):
        kw.pop(drop)
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        limits.rate_exponent(task, privacy, **kw)


@pytest.mark.parametrize("change,name", [c for c in BAD if "N" not in c[0]])
def test_sample_complexity_rejects(change, name):
    kw = dict(BASE, **change)
    task, privacy = kw.pop("task"), kw.pop("privacy")
    kw.pop("N")
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        limits.sample_complexity(task, privacy, target=1e-3, **kw)


def test_other_names_rejected():
    with pytest.raises(ValueError, match="term"):
        limits.rate_exponent("regression", "central", beta=1.0, d=2, term="bias")
    with pytest.raises(ValueError, match="term"):
        limits.rate_exponent("regression", "local", beta=1.0, d=2, term="privacy")
    with pytest.raises(ValueError, match="variant"):
        limits.minimax_rate("regression", "local", N=10.0, epsilon=1.0, beta=1.0, d=2, variant="typo")
    with pytest.raises(ValueError, match="task"):
        limits.symbolic_rate("ranking", "local")
    with pytest.raises(ValueError, match="privacy"):
        limits.symbolic_rate("regression", "shuffle")
    with pytest.raises(ValueError, match="algorithm"):
        limits.symbolic_tuning("local_ranking")


def test_eps_optional_for_nonprivate_only():
    assert limits.minimax_rate("regression", "none", N=100.0, beta=1.0, d=2) == pytest.approx(0.1)
    for privacy in ("local", "central", "local_full"):
        with pytest.raises(ValueError, match="epsilon"):
            limits.minimax_rate("regression", privacy, N=100.0, beta=1.0, d=2)


def test_out_of_range_raises_instead_of_nan_or_zero():
    # N^(-β(γ+1)/(2β+d)) with β=1, γ=10, d=1: 1e300^(-11/3) underflows
    with pytest.raises(ValueError, match="finite positive"):
        limits.minimax_rate("classification", "none", N=1e300, beta=1.0, gamma=10.0, d=1)


def test_extreme_but_representable_values_are_exact():
    # computed in log space: (N(ε²∧1))^(-β/(β+d)) with N = 1, ε = 1e-300, β = 1, d = 2 is (1e-600)^(-1/3)
    got = limits.minimax_rate("regression", "local_full", N=1.0, epsilon=1e-300, beta=1.0, d=2)
    assert got == pytest.approx(1e200, rel=1e-12)
    # N^(-1/2) + (εN)^(-2/3) with N = ε = 1e300: the privacy term (1e-400) underflows, the total is 1e-150
    got = limits.minimax_rate("regression", "central", N=1e300, epsilon=1e300, beta=1.0, d=2)
    assert got == pytest.approx(1e-150, rel=1e-12)


def test_numpy_scalar_and_integer_inputs_accepted():
    a = limits.minimax_rate("classification", "local", N=np.int64(100), epsilon=np.float32(0.5), beta=np.float64(1),
                            d=np.int32(2), gamma=0, num_classes=np.int64(3))
    assert a == pytest.approx((100 * 0.25) ** (-1 / 4), rel=1e-6)


# ---------------------------------------------------------------- issue 19: extreme but valid arguments
# Computed in log space where the answer is a float; refused with ValueError naming the arguments
# where the answer is outside the floating-point range. References are written out with mpmath.

def _mp(x):
    import mpmath

    return mpmath.mpf(x)


def test_tuning_at_tiny_and_huge_epsilon():
    import mpmath

    # Theorem 2, eq. (84): h = (N (ε² ∧ 1) / ln K)^(-1/(2β+d)) ~ 1e200 at ε = 1e-300: the cap h = 1
    # (ZeroDivisionError before: ε² underflowed to 0.0, raised to a negative power)
    assert limits.tuning("local_classification", N=1e4, epsilon=1e-300, beta=1, d=2) == {"h": 1.0}
    # Theorem 10: k ~ N^(...) ε^(-...) is clipped to N; T = (k ε²)^(1/(2p)) = (1e4 · 1e-600)^(1/6), eq. (181)
    # (ValueError "T is 0.0" before)
    t = limits.tuning("local_regression_heavy_tailed", N=1e4, epsilon=1e-300, beta=1, d=2, p=3)
    assert t["k"] == 10000
    assert t["T"] == pytest.approx(float((_mp(10000) * _mp("1e-300") ** 2) ** (_mp(1) / 6)), rel=1e-12)
    # Theorem 12: h = N^(-1/(2β+d)) + (εN)^(-(p-1)/(pβ+d(p-1))), T = (ε N h^d)^(1/p), eq. (194)-(195), at
    # N = ε = 1e300 (εN overflowed to inf and T was refused before)
    t = limits.tuning("central_regression_heavy_tailed", N=1e300, epsilon=1e300, beta=1, d=2, p=3)
    with mpmath.workdps(40):
        N, e = _mp("1e300"), _mp("1e300")
        h = N ** (-_mp(1) / 4) + (e * N) ** (-_mp(2) / 7)
        T = (e * N * h**2) ** (_mp(1) / 3)
    assert t["h"] == pytest.approx(float(h), rel=1e-12) and t["T"] == pytest.approx(float(T), rel=1e-12)


def test_crossover_outside_the_float_range_is_refused_by_name():
    # central regression, β = 1, d = 2: N = ε^(-b/(b-a)) = ε^(-4); ε = 1e-100 gives 1e400 (OverflowError before)
    with pytest.raises(ValueError, match=r"epsilon=1e-100.*beyond floating-point range \(above"):
        limits.crossover("regression", "central", epsilon=1e-100, beta=1, d=2)
    # ε = 1e300 gives 1e-1200 (0.0 returned silently before)
    with pytest.raises(ValueError, match=r"epsilon=1e\+300.*beyond floating-point range \(below"):
        limits.crossover("regression", "central", epsilon=1e300, beta=1, d=2)
    # still exact where the answer is a float: ε = 1e-50 -> 1e200
    assert limits.crossover("regression", "central", epsilon=1e-50, beta=1, d=2) == pytest.approx(1e200, rel=1e-12)


def test_sample_complexity_underflow_is_refused_and_privacy_cost_is_a_log_ratio():
    # N = target^(-(2β+d)/(2β)) = (1e300)^(-2): below the float range (0.0 returned before)
    with pytest.raises(ValueError, match=r"target=1e\+300.*beyond floating-point range \(below"):
        limits.sample_complexity("regression", "none", target=1e300, beta=1, d=2)
    # both sample sizes are ~1e600, their ratio is 1/ε² = 4 (003 Remark 1); ValueError before. The two logs
    # are ~1381, so the ratio carries an absolute rounding error ~1e-13.
    assert limits.privacy_cost("regression", "local", target=1e-300, epsilon=0.5, beta=1, d=2) == \
        pytest.approx(4.0, rel=1e-11)


def test_exponents_with_huge_beta_and_p():
    import mpmath

    # 2β(p-1)/(2pβ+d(p-1)) at β = p = 1e300: 2pβ overflows to inf and the exponent was nan (ValueError before)
    got = limits.minimax_rate("regression_heavy_tailed", "local", N=100.0, epsilon=1.0, beta=1e300, d=1, p=1e300)
    with mpmath.workdps(50):
        b, p, d, N = _mp("1e300"), _mp("1e300"), 1, _mp(100)
        want = max(N ** (-2 * b / (2 * b + d)), N ** (-2 * b * (p - 1) / (2 * p * b + d * (p - 1))))
    assert got == pytest.approx(float(want), rel=1e-12)


@pytest.mark.parametrize("fn", ["minimax_rate", "tuning"])
def test_integers_beyond_the_float_range_are_refused_by_name(fn):
    # float(10**400) raised OverflowError inside the guard before
    with pytest.raises(ValueError, match=r"\bN\b"):
        if fn == "tuning":
            limits.tuning("local_regression", N=10**400, epsilon=1.0, beta=1, d=2)
        else:
            limits.minimax_rate("regression", "none", N=10**400, beta=1, d=2)
    with pytest.raises(ValueError, match="target"):
        limits.sample_complexity("regression", "none", target=[], beta=1, d=2)
