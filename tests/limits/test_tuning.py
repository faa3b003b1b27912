"""Each tuning rule of 003 balances the bias and variance terms of the proof it comes from.

The bias/variance terms are written here from the cited equations; the rule under test comes from
``limits.symbolic_tuning``. "Balanced" means equal up to constants: the log-ratio of the two terms
does not depend on N, ε (or ln K). Min(ε², 1) / Min(ε, 1) are checked in both regimes ε < 1, ε >= 1.
"""

from __future__ import annotations

import math

import pytest
import sympy as sp

import limits
from limits import symbols as S

N, e, b, d, p, K, g = S.N, S.epsilon, S.beta, S.d, S.p, S.K, S.gamma
h, k, T = S.h, S.k, S.T
SMALL, LARGE = "eps<1", "eps>=1"


def regime(expr, which):
    """Resolve Min(ε^a, 1) for ε < 1 (-> ε^a) or ε >= 1 (-> 1)."""
    return expr.replace(lambda x: isinstance(x, sp.Min), lambda x: [a for a in x.args if a != 1][0]
                        if which == SMALL else sp.Integer(1))


def same_order(A, B, variables=(N, e, K)):
    """A ≍ B: log(A/B) has zero derivative in each variable."""
    L = sp.expand_log(sp.log(A) - sp.log(B), force=True)
    return all(sp.simplify(sp.diff(L, v)) == 0 for v in variables)


def branch(alg, param, name, variant="derived"):
    return limits.symbolic_tuning(alg, variant=variant)[param].branches[name]


@pytest.mark.parametrize("which", [SMALL, LARGE])
def test_theorem2_h_balances_eq83(which):
    # eq. (83): R ≲ (ln K / ((ε²∧1) N h^d))^((γ+1)/2) + h^(β(γ+1))
    hh = regime(branch("local_classification", "h", "rule"), which)
    e2 = e**2 if which == SMALL else 1
    var = (sp.log(K) / (e2 * N * h**d)) ** ((g + 1) / 2)
    bias = h ** (b * (g + 1))
    assert same_order(var.subs(h, hh), bias.subs(h, hh))
    # and the balanced value is Theorem 2's rate (14)
    rate = (N * e2 / sp.log(K)) ** (-b * (g + 1) / (2 * b + d))
    assert same_order(bias.subs(h, hh), rate)


def test_theorem4_h_balances_eq118():
    # eq. (118): R ≲ (ln K/(εNh^d) + sqrt(ln K/(Nh^d)) + h^β)^(γ+1)
    hp = branch("central_classification", "h", "privacy")
    hn = branch("central_classification", "h", "nonprivate")
    assert same_order((sp.log(K) / (e * N * h**d)).subs(h, hp), (h**b).subs(h, hp))
    assert same_order(sp.sqrt(sp.log(K) / (N * h**d)).subs(h, hn), (h**b).subs(h, hn))
    # (h^β)^(γ+1) at each branch is the matching term of (18)
    assert same_order((h ** (b * (g + 1))).subs(h, hp), (e * N / sp.log(K)) ** (-b * (g + 1) / (b + d)))
    assert same_order((h ** (b * (g + 1))).subs(h, hn), (N / sp.log(K)) ** (-b * (g + 1) / (2 * b + d)))


@pytest.mark.parametrize("which", [SMALL, LARGE])
def test_theorem6_k_balances_eq140(which):
    # eq. (140): R ≲ T²(1 + 8/ε²)/k + (k/N)^(2β/d); for ε < 1 the first term is ≍ 1/(kε²), else ≍ 1/k
    kk = regime(branch("local_regression", "k", "rule"), which)
    var = 1 / (k * e**2) if which == SMALL else 1 / k
    bias = (k / N) ** (2 * b / d)
    assert same_order(var.subs(k, kk), bias.subs(k, kk))
    e2 = e**2 if which == SMALL else 1
    assert same_order(bias.subs(k, kk), (N * e2) ** (-2 * b / (d + 2 * b)))  # rate (21)


def test_theorem8_h_balances_eq153():
    # eq. (153): MSE ≲ h^(2β) + 1/(N h^d) + 1/(N² h^(2d) ε²)
    hp = branch("central_regression", "h", "privacy")
    hn = branch("central_regression", "h", "nonprivate")
    assert same_order((1 / (N**2 * h ** (2 * d) * e**2)).subs(h, hp), (h ** (2 * b)).subs(h, hp))
    assert same_order((1 / (N * h**d)).subs(h, hn), (h ** (2 * b)).subs(h, hn))
    # the privacy term of the rate is (εN)^(-2β/(d+β)) (Theorem 8, eq. (24)), not Table 1's 2β/(d+2β)
    assert same_order((h ** (2 * b)).subs(h, hp), (e * N) ** (-2 * b / (d + b)))
    assert not same_order((h ** (2 * b)).subs(h, hp), (e * N) ** (-2 * b / (d + 2 * b)))


def test_theorem10_T_and_k_balance_eq180():
    # eq. (180): R ≲ T^(2(1-p)) + 1/k + T²/(kε²) + (k/N)^(2β/d)
    TT = branch("local_regression_heavy_tailed", "T", "rule")  # in terms of k
    clip, noise = T ** (2 * (1 - p)), T**2 / (k * e**2)
    assert same_order(clip.subs(T, TT), noise.subs(T, TT), (N, e, k))
    bias = (k / N) ** (2 * b / d)
    kp = branch("local_regression_heavy_tailed", "k", "privacy")
    kn = branch("local_regression_heavy_tailed", "k", "nonprivate")
    assert same_order(clip.subs(T, TT).subs(k, kp), bias.subs(k, kp))
    assert same_order((1 / k).subs(k, kn), bias.subs(k, kn))
    D = 2 * p * b + d * (p - 1)
    assert same_order(bias.subs(k, kp), (N * e**2) ** (-2 * b * (p - 1) / D))  # rate (26)/(182)


def test_theorem10_printed_k_does_not_balance():
    """The printed k ~ (Nε²)^(2pβ/(2pβ+d(p-1))) has the right N-exponent but the wrong ε-exponent."""
    TT = branch("local_regression_heavy_tailed", "T", "rule")
    kp = branch("local_regression_heavy_tailed", "k", "privacy", variant="printed")
    assert sp.simplify(kp - (N * e**2) ** (2 * p * b / (2 * p * b + d * (p - 1)))) == 0
    clip = (T ** (2 * (1 - p))).subs(T, TT).subs(k, kp)
    bias = ((k / N) ** (2 * b / d)).subs(k, kp)
    assert same_order(clip, bias, (N,))
    assert not same_order(clip, bias, (e,))
    # the p -> ∞ limit of the derived k is Theorem 6's k (eq. 141, ε < 1), as the text after Theorem 10 says
    kd = branch("local_regression_heavy_tailed", "k", "privacy")
    k6 = regime(branch("local_regression", "k", "rule"), SMALL)
    assert sp.simplify(sp.limit(kd, p, sp.oo) - k6) == 0
    assert sp.simplify(sp.limit(kp, p, sp.oo) - k6) != 0


def test_theorem12_T_and_h_balance_eq193():
    # eq. (193): MSE ≲ h^(2β) + T^(2(1-p)) + T²/(N² h^(2d) ε²) + 1/(N h^d)
    TT = branch("central_regression_heavy_tailed", "T", "rule")  # in terms of h
    clip, noise = T ** (2 * (1 - p)), T**2 / (N**2 * h ** (2 * d) * e**2)
    assert same_order(clip.subs(T, TT), noise.subs(T, TT), (N, e, h))
    hp = branch("central_regression_heavy_tailed", "h", "privacy")
    hn = branch("central_regression_heavy_tailed", "h", "nonprivate")
    assert same_order(clip.subs(T, TT).subs(h, hp), (h ** (2 * b)).subs(h, hp))
    assert same_order((1 / (N * h**d)).subs(h, hn), (h ** (2 * b)).subs(h, hn))
    assert same_order((h ** (2 * b)).subs(h, hp), (e * N) ** (-2 * b * (p - 1) / (p * b + d * (p - 1))))  # (29)


@pytest.mark.parametrize("pv", [3, sp.Rational(7, 2), 10])
def test_theorem12_printed_h_does_not_balance(pv):
    TT = branch("central_regression_heavy_tailed", "T", "rule")
    hp = branch("central_regression_heavy_tailed", "h", "privacy", variant="printed")
    assert sp.simplify(hp - (e * N) ** (-1 / (p * b + d * (p - 1)))) == 0
    clip = (T ** (2 * (1 - p))).subs(T, TT).subs(h, hp).subs(p, pv)
    assert not same_order(clip, (h ** (2 * b)).subs(h, hp).subs(p, pv))
    # at p = 2 printed and derived coincide
    hd = branch("central_regression_heavy_tailed", "h", "privacy")
    assert sp.simplify((hp - hd).subs(p, 2)) == 0


# ---- numeric tuning --------------------------------------------------------------------------

def test_numeric_values_follow_the_theorems():
    Nv, ev, bv, dv, pv, Kv = 1e5, 0.4, 1.0, 2, 3.0, 5
    L = math.log(Kv)
    t = limits.tuning("local_classification", N=Nv, epsilon=ev, beta=bv, d=dv, num_classes=Kv)
    assert t == {"h": pytest.approx((Nv * ev**2 / L) ** (-1 / (2 * bv + dv)), rel=1e-12)}
    t = limits.tuning("central_classification", N=Nv, epsilon=ev, beta=bv, d=dv, num_classes=Kv)
    assert t["h"] == pytest.approx((L / (ev * Nv)) ** (1 / (bv + dv)) + (L / Nv) ** (1 / (2 * bv + dv)), rel=1e-12)
    t = limits.tuning("central_classification", N=Nv, epsilon=ev, beta=bv, d=dv, num_classes=Kv, log_factors=False)
    assert t["h"] == pytest.approx((1 / (ev * Nv)) ** (1 / (bv + dv)) + (1 / Nv) ** (1 / (2 * bv + dv)), rel=1e-12)
    t = limits.tuning("local_regression", N=Nv, epsilon=ev, beta=bv, d=dv)
    assert t == {"k": round(Nv ** (2 * bv / (dv + 2 * bv)) * ev ** (-2 * dv / (dv + 2 * bv)))}
    t = limits.tuning("central_regression", N=Nv, epsilon=ev, beta=bv, d=dv)
    assert t["h"] == pytest.approx(Nv ** (-1 / (2 * bv + dv)) + (ev * Nv) ** (-1 / (dv + bv)), rel=1e-12)
    D = 2 * pv * bv + dv * (pv - 1)
    t = limits.tuning("local_regression_heavy_tailed", N=Nv, epsilon=ev, beta=bv, d=dv, p=pv)
    k_expected = round(max(Nv ** (2 * pv * bv / D) * ev ** (-2 * dv * (pv - 1) / D), Nv ** (2 * bv / (2 * bv + dv))))
    assert t["k"] == k_expected
    assert t["T"] == pytest.approx((k_expected * ev**2) ** (1 / (2 * pv)), rel=1e-12)
    t = limits.tuning("central_regression_heavy_tailed", N=Nv, epsilon=ev, beta=bv, d=dv, p=pv)
    h_expected = Nv ** (-1 / (2 * bv + dv)) + (ev * Nv) ** (-(pv - 1) / (pv * bv + dv * (pv - 1)))
    assert t["h"] == pytest.approx(h_expected, rel=1e-12)
    assert t["T"] == pytest.approx((ev * Nv * h_expected**dv) ** (1 / pv), rel=1e-12)


def test_printed_variant_numeric():
    Nv, ev, bv, dv, pv = 1e5, 0.4, 1.0, 2, 3.0
    t = limits.tuning("local_regression_heavy_tailed", N=Nv, epsilon=ev, beta=bv, d=dv, p=pv, variant="printed")
    D = 2 * pv * bv + dv * (pv - 1)
    assert t["k"] == round(max((Nv * ev**2) ** (2 * pv * bv / D), Nv ** (2 * bv / (2 * bv + dv))))
    t = limits.tuning("central_regression_heavy_tailed", N=Nv, epsilon=ev, beta=bv, d=dv, p=pv, variant="printed")
    assert t["h"] == pytest.approx(Nv ** (-1 / (2 * bv + dv)) + (ev * Nv) ** (-1 / (pv * bv + dv * (pv - 1))))
    # algorithms without a printed/derived difference give the same rule
    for alg in ("local_classification", "central_classification", "local_regression", "central_regression"):
        assert limits.tuning(alg, N=Nv, epsilon=ev, beta=bv, d=dv, variant="printed") == \
            limits.tuning(alg, N=Nv, epsilon=ev, beta=bv, d=dv)


@pytest.mark.parametrize("alg", list(limits.ALGORITHMS))
@pytest.mark.parametrize("Nv", [1, 1.5, 2, 10, 1e3, 1e12])
@pytest.mark.parametrize("ev", [1e-3, 0.5, 1.0, 50.0])
def test_numeric_tuning_is_usable(alg, Nv, ev):
    t = limits.tuning(alg, N=Nv, epsilon=ev, beta=1.0, d=2, p=3.0)
    if "h" in t:
        assert isinstance(t["h"], float) and 0 < t["h"] <= 1
    if "k" in t:
        assert isinstance(t["k"], int) and 1 <= t["k"] <= math.floor(Nv)
    if "T" in t:
        assert math.isfinite(t["T"]) and t["T"] > 0


def test_T_uses_rounded_k_and_capped_h():
    t = limits.tuning("local_regression_heavy_tailed", N=5, epsilon=0.01, beta=1.0, d=1, p=2.0)
    assert t["k"] == 5  # the rule asks for more neighbours than samples: clipped to N
    assert t["T"] == pytest.approx((5 * 0.01**2) ** (1 / 4), rel=1e-12)
    t = limits.tuning("central_regression_heavy_tailed", N=2, epsilon=0.01, beta=1.0, d=1, p=2.0)
    assert t["h"] == 1.0
    assert t["T"] == pytest.approx((0.01 * 2 * 1.0) ** (1 / 2), rel=1e-12)


@pytest.mark.parametrize("kw,match", [
    (dict(algorithm="local_svm"), "algorithm"),
    (dict(N=0.5), "N"), (dict(N=float("nan")), "N"), (dict(epsilon=0.0), "epsilon"), (dict(epsilon=None), "epsilon"),
    (dict(beta=-1.0), "beta"), (dict(d=0), "d"), (dict(d=2.0), "d"), (dict(num_classes=1), "num_classes"),
    (dict(gamma=-1.0), "gamma"), (dict(variant="typeset"), "variant"),
    (dict(algorithm="central_regression_heavy_tailed", p=None), "p"),
    (dict(algorithm="local_regression_heavy_tailed", p=1.5), "p"),
])
def test_invalid_tuning_arguments(kw, match):
    args = dict(algorithm="local_regression_heavy_tailed", N=100.0, epsilon=1.0, beta=1.0, d=2, p=3.0)
    args.update(kw)
    alg = args.pop("algorithm")
    with pytest.raises(ValueError, match=match):
        limits.tuning(alg, **args)
