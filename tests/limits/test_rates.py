"""Each cell of 003 Table 1 against the exponents of its theorem and proof, written here from the paper.

Expected exponents are exact Fractions computed from the formulas as printed in the cited equations,
never from the code under test.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

import limits
from limits import symbols as S

# (beta, gamma, d, p) grid, with degenerate values: gamma = 0, d = 1, p = 2 (lowest moment), large p.
GRID = [
    (F(1), F(1), 1, F(2)),
    (F(1, 2), F(0), 3, F(7, 2)),
    (F(2), F(5, 2), 5, F(10)),
    (F(3, 10), F(1, 3), 2, F(3)),
    (F(1), F(0), 1, F(1000)),
]


# Expected exponent of N, per (task, privacy, term), written from 003.
def paper_exponent(task, privacy, term, b, g, d, p):
    cls = b * (g + 1) / (2 * b + d)             # eq. (10), (14), (103): N^(-β(γ+1)/(2β+d))
    reg = 2 * b / (2 * b + d)                    # eq. (19), (21), (145): N^(-2β/(2β+d))
    table = {
        ("classification", "local", None): cls,                                  # Thm 1-2
        ("classification", "central", "nonprivate"): cls,                        # eq. (16)
        ("classification", "central", "privacy"): b * (g + 1) / (b + d),         # eq. (16), (18), (102)
        ("classification", "local_full", "privacy"): b * (g + 1) / (2 * b + 2 * d),  # Remark 1(2)
        ("classification", "local_full", "nonprivate"): cls,                     # Remark 1(2)
        ("classification", "none", None): cls,
        ("regression", "local", None): reg,                                      # Thm 5-6
        ("regression", "central", "nonprivate"): reg,                            # eq. (22), (24)
        ("regression", "central", "privacy"): 2 * b / (d + b),                   # eq. (22), (24), (144)
        ("regression", "local_full", None): b / (b + d),                         # Table 1
        ("regression", "none", None): reg,
        ("regression_heavy_tailed", "local", "privacy"): 2 * b * (p - 1) / (2 * p * b + d * (p - 1)),  # (25),(26)
        ("regression_heavy_tailed", "local", "nonprivate"): reg,
        ("regression_heavy_tailed", "central", "nonprivate"): reg,               # eq. (27), (29)
        ("regression_heavy_tailed", "central", "privacy"): 2 * b * (p - 1) / (p * b + d * (p - 1)),  # (27),(29)
        ("regression_heavy_tailed", "local_full", None): b * (p - 1) / (p * b + d * (p - 1)),  # Table 1
        ("regression_heavy_tailed", "none", None): reg,
    }
    return table[(task, privacy, term)]


CELL_TERMS = [
    ("classification", "local", None), ("classification", "central", "nonprivate"),
    ("classification", "central", "privacy"), ("classification", "local_full", "privacy"),
    ("classification", "local_full", "nonprivate"), ("classification", "none", None),
    ("regression", "local", None), ("regression", "central", "nonprivate"), ("regression", "central", "privacy"),
    ("regression", "local_full", None), ("regression", "none", None),
    ("regression_heavy_tailed", "local", "privacy"), ("regression_heavy_tailed", "local", "nonprivate"),
    ("regression_heavy_tailed", "central", "nonprivate"), ("regression_heavy_tailed", "central", "privacy"),
    ("regression_heavy_tailed", "local_full", None), ("regression_heavy_tailed", "none", None),
]


def kwargs(task, b, g, d, p):
    kw = dict(beta=float(b), d=d)
    if task == "classification":
        kw["gamma"] = float(g)
    if task == "regression_heavy_tailed":
        kw["p"] = float(p)
    return kw


@pytest.mark.parametrize("params", GRID)
@pytest.mark.parametrize("task,privacy,term", CELL_TERMS)
def test_exponent_matches_paper(task, privacy, term, params):
    b, g, d, p = params
    expected = paper_exponent(task, privacy, term, b, g, d, p)
    got = limits.rate_exponent(task, privacy, term=term, **kwargs(task, b, g, d, p))
    assert got == pytest.approx(float(expected), rel=1e-13)


@pytest.mark.parametrize("params", GRID)
@pytest.mark.parametrize("task", limits.TASKS)
@pytest.mark.parametrize("privacy", limits.PRIVACY)
def test_dominant_exponent_is_slowest_term(task, privacy, params):
    b, g, d, p = params
    terms = [t for (ta, pr, t) in CELL_TERMS if ta == task and pr == privacy]
    expected = min(paper_exponent(task, privacy, t, b, g, d, p) for t in terms)
    assert limits.rate_exponent(task, privacy, **kwargs(task, b, g, d, p)) == pytest.approx(float(expected), rel=1e-13)


# Numeric values against the cells written out from the paper (constants 1).
@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("N", [1.0, 37.0, 1e4, 1e9])
def test_values_match_table_formulas(N, eps):
    b, g, d, p = 1.5, 0.5, 3, 4.0
    cls, reg = b * (g + 1) / (2 * b + d), 2 * b / (2 * b + d)
    e2 = min(eps**2, 1.0)
    expected = {
        ("classification", "local"): (N * e2) ** -cls,
        ("classification", "central"): N**-cls + (eps * N) ** -(b * (g + 1) / (b + d)),
        ("classification", "local_full"): max((N * eps**2) ** -(b * (g + 1) / (2 * b + 2 * d)), N**-cls),
        ("classification", "none"): N**-cls,
        ("regression", "local"): (N * e2) ** -reg,
        ("regression", "central"): N**-reg + (eps * N) ** -(2 * b / (d + b)),
        ("regression", "local_full"): (N * e2) ** -(b / (b + d)),
        ("regression", "none"): N**-reg,
        ("regression_heavy_tailed", "local"): max((N * eps**2) ** -(2 * b * (p - 1) / (2 * p * b + d * (p - 1))),
                                                  N**-reg),
        ("regression_heavy_tailed", "central"): N**-reg + (eps * N) ** -(2 * b * (p - 1) / (p * b + d * (p - 1))),
        ("regression_heavy_tailed", "local_full"): (N * e2) ** -(b * (p - 1) / (p * b + d * (p - 1))),
        ("regression_heavy_tailed", "none"): N**-reg,
    }
    for (task, privacy), want in expected.items():
        got = limits.minimax_rate(task, privacy, N=N, epsilon=eps, beta=b, d=d, gamma=g, p=p)
        assert isinstance(got, float)
        assert got == pytest.approx(want, rel=1e-12), (task, privacy)


def test_printed_variant_pins_table1():
    """003 Table 1 as printed: central bounded regression privacy term (εN)^(-2β/(d+2β)); local-full
    classification equal to the local label-DP cell."""
    N, eps, b, d, g = 1e5, 0.3, 1.0, 2, 1.0
    got = limits.minimax_rate("regression", "central", N=N, epsilon=eps, beta=b, d=d, variant="printed")
    assert got == pytest.approx(N ** (-2 * b / (2 * b + d)) + (eps * N) ** (-2 * b / (d + 2 * b)), rel=1e-12)
    got = limits.minimax_rate("classification", "local_full", N=N, epsilon=eps, beta=b, d=d, gamma=g, variant="printed")
    assert got == pytest.approx((N * min(eps**2, 1)) ** (-b * (g + 1) / (2 * b + d)), rel=1e-12)
    # printed central-regression privacy exponent equals the non-private one (the contradiction)
    assert limits.rate_exponent("regression", "central", beta=b, d=d, term="privacy", variant="printed") == \
        pytest.approx(2 * b / (2 * b + d))


def test_printed_equals_derived_elsewhere_and_discrepancies_cover_the_differences():
    differing = set()
    for task in limits.TASKS:
        for privacy in limits.PRIVACY:
            diff = sp.simplify(limits.symbolic_rate(task, privacy) - limits.printed_rate(task, privacy))
            if diff != 0:
                differing.add((task, privacy))
    recorded = {(x.affects[1], x.affects[2]) for x in limits.DISCREPANCIES if x.affects[0] == "rate"}
    assert differing == recorded == {("regression", "central"), ("classification", "local_full")}


def test_symbolic_rate_uses_public_symbols_and_matches_numeric():
    expr = limits.symbolic_rate("regression_heavy_tailed", "central")
    assert expr.free_symbols == {S.N, S.epsilon, S.beta, S.d, S.p}
    vals = {S.N: 1234, S.epsilon: sp.Rational(1, 3), S.beta: sp.Rational(3, 2), S.d: 2, S.p: 3}
    num = limits.minimax_rate("regression_heavy_tailed", "central", N=1234, epsilon=1 / 3, beta=1.5, d=2, p=3)
    assert float(expr.subs(vals)) == pytest.approx(num, rel=1e-12)
    cls = limits.symbolic_rate("classification", "central", log_factors=True)
    assert S.K in cls.free_symbols and S.gamma in cls.free_symbols


@pytest.mark.parametrize("privacy,factor_terms", [("local", 1), ("central", 2)])
def test_log_factors_are_ln_K_of_theorems_2_and_4(privacy, factor_terms):
    """Theorem 2: (N(ε²∧1)/ln K)^(-a); Theorem 4: (N/ln K)^(-a) + (εN/ln K)^(-b)."""
    N, eps, b, g, d, K = 1e6, 0.5, 1.0, 1.0, 2, 10
    a, bb = b * (g + 1) / (2 * b + d), b * (g + 1) / (b + d)
    L = math.log(K)
    want = {"local": (N * eps**2 / L) ** -a, "central": (N / L) ** -a + (eps * N / L) ** -bb}[privacy]
    got = limits.minimax_rate("classification", privacy, N=N, epsilon=eps, beta=b, gamma=g, d=d, num_classes=K, log_factors=True)
    assert got == pytest.approx(want, rel=1e-12)
    # without log factors K does not enter
    assert limits.minimax_rate("classification", privacy, N=N, epsilon=eps, beta=b, gamma=g, d=d, num_classes=10) == \
        limits.minimax_rate("classification", privacy, N=N, epsilon=eps, beta=b, gamma=g, d=d, num_classes=2)


def test_log_factors_do_not_touch_cells_without_logs():
    kw = dict(N=1e5, epsilon=0.4, beta=1.0, d=2)
    for task, privacy in [("regression", "local"), ("regression", "central"), ("regression", "none")]:
        assert limits.minimax_rate(task, privacy, log_factors=True, num_classes=50, **kw) == \
            limits.minimax_rate(task, privacy, **kw)


def test_broadcasting_and_scalar_types():
    N = np.array([[10.0], [1e3], [1e6]])
    eps = np.array([0.1, 0.5, 1.0, 4.0])
    kw = dict(beta=1.0, d=2, gamma=0.5)
    out = limits.minimax_rate("classification", "central", N=N, epsilon=eps, **kw)
    assert out.shape == (3, 4)
    for i in range(3):
        for j in range(4):
            assert out[i, j] == limits.minimax_rate("classification", "central", N=float(N[i, 0]), epsilon=float(eps[j]), **kw)
    assert isinstance(limits.minimax_rate("regression", "none", N=np.float64(10), beta=1, d=1), float)
    assert limits.minimax_rate("regression", "none", N=[1, 10, 100], beta=1, d=1).shape == (3,)
    rt = limits.rate_terms("classification", "central", N=N, epsilon=eps, **kw)
    assert rt.terms["privacy"].shape == (3, 4) and rt.dominant.shape == (3, 4)
    np.testing.assert_allclose(rt.total, rt.terms["privacy"] + rt.terms["nonprivate"], rtol=1e-15)


def test_rate_terms_dominance_and_combine():
    # central regression, β=1, d=2: nonprivate N^(-1/2), privacy (εN)^(-2/3); equal at N = ε^(-4)
    eps = 0.5
    rt = limits.rate_terms("regression", "central", N=[10.0, 1e3], epsilon=eps, beta=1, d=2)
    assert rt.combine == "sum" and list(rt.dominant) == ["privacy", "nonprivate"]  # crossover at 16
    assert rt.exponents == pytest.approx({"nonprivate": 0.5, "privacy": 2 / 3})
    one = limits.rate_terms("regression", "local", N=100.0, epsilon=eps, beta=1, d=2)
    assert one.combine == "single" and one.dominant == "rate" and one.total == one.terms["rate"]
    mx = limits.rate_terms("regression_heavy_tailed", "local", N=1e8, epsilon=2.0, beta=1, d=1, p=3)
    assert mx.combine == "max" and mx.total == max(mx.terms.values())


# ---- limits the paper asserts -------------------------------------------------------------------

@pytest.mark.parametrize("privacy", ["central", "local", "local_full"])
def test_heavy_tailed_exponents_tend_to_bounded_noise_as_p_to_infinity(privacy):
    """003 lines 306-307 (local) and the p -> ∞ consistency of the central and local-full cells."""
    heavy = limits.cell("regression_heavy_tailed", privacy)
    bounded = limits.cell("regression", privacy)
    heavy_priv = [t for t in heavy.terms if t.name in ("privacy", "rate")][0]
    bounded_priv = [t for t in bounded.terms if t.name in ("privacy", "rate")][0]
    assert sp.simplify(sp.limit(heavy_priv.exponent, S.p, sp.oo) - bounded_priv.exponent) == 0


def test_central_heavy_tailed_rate_limit_is_bounded_rate_symbolically():
    lim = sp.limit(limits.symbolic_rate("regression_heavy_tailed", "central"), S.p, sp.oo)
    assert sp.simplify(lim - limits.symbolic_rate("regression", "central")) == 0
    lim_full = sp.limit(limits.symbolic_rate("regression_heavy_tailed", "local_full"), S.p, sp.oo)
    assert sp.simplify(lim_full - limits.symbolic_rate("regression", "local_full")) == 0


@pytest.mark.parametrize("eps", [1e-3, 0.3, 0.9])
def test_heavy_local_tends_to_bounded_local_numerically(eps):
    # the ∨ of Theorem 10 becomes (Nε²)^(-a) ∨ N^(-a) = (N(ε²∧1))^(-a) at p = ∞; at p = 1e9 the exponents
    # differ by O(1/p), so |log ratio| <= |Δa| * |log(N ε²)| with Δa computed from the paper's formulas.
    b, d, N = 1.0, 2, 1e6
    p = 1e9
    da = abs(2 * b * (p - 1) / (2 * p * b + d * (p - 1)) - 2 * b / (2 * b + d))
    heavy = limits.minimax_rate("regression_heavy_tailed", "local", N=N, epsilon=eps, beta=b, d=d, p=p)
    bounded = limits.minimax_rate("regression", "local", N=N, epsilon=eps, beta=b, d=d)
    assert abs(math.log(heavy / bounded)) <= da * abs(math.log(N * eps**2)) * (1 + 1e-9) + 1e-15


@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("eps", [1.0, 1.5, 10.0, 1e3])
def test_local_rate_equals_nonprivate_for_eps_at_least_one(task, eps):
    """Remark 1(1) and the text after Theorem 6: ε² ∧ 1 = 1 for ε >= 1."""
    kw = dict(N=np.array([1.0, 1e3, 1e7]), beta=0.7, d=3, gamma=0.4)
    np.testing.assert_array_equal(limits.minimax_rate(task, "local", epsilon=eps, **kw),
                                  limits.minimax_rate(task, "none", **kw))


def test_local_rate_strictly_above_nonprivate_for_small_eps():
    kw = dict(N=1e4, beta=1.0, d=2, gamma=1.0)
    assert limits.minimax_rate("classification", "local", epsilon=0.5, **kw) > limits.minimax_rate("classification", "none", **kw)


def test_heavy_local_reaches_nonprivate_for_large_eps():
    # (Nε²)^(-a_p) <= N^(-a) iff ε² >= N^(a/a_p - 1): beyond that the ∨ of Theorem 10 is the non-private term
    b, d, p, N = 1.0, 1, 3.0, 1e4
    a, ap = 2 * b / (2 * b + d), 2 * b * (p - 1) / (2 * p * b + d * (p - 1))
    eps_star = math.sqrt(N ** (a / ap - 1))
    for eps in (eps_star * 1.01, eps_star * 100):
        assert limits.minimax_rate("regression_heavy_tailed", "local", N=N, epsilon=eps, beta=b, d=d, p=p) == \
            limits.minimax_rate("regression_heavy_tailed", "none", N=N, beta=b, d=d, p=p)
    assert limits.minimax_rate("regression_heavy_tailed", "local", N=N, epsilon=eps_star / 2, beta=b, d=d, p=p) > \
        limits.minimax_rate("regression_heavy_tailed", "none", N=N, beta=b, d=d, p=p)


@pytest.mark.parametrize("params", GRID)
@pytest.mark.parametrize("task", limits.TASKS)
def test_central_privacy_term_decays_faster(task, params):
    """Text after Theorems 4 and 8 and Section 6.2: the central privacy term decays faster than the
    non-private one (equally fast for heavy tails at p = 2)."""
    b, g, d, p = params
    kw = kwargs(task, b, g, d, p)
    priv = limits.rate_exponent(task, "central", term="privacy", **kw)
    nonp = limits.rate_exponent(task, "central", term="nonprivate", **kw)
    if task == "regression_heavy_tailed" and p == 2:
        assert priv == pytest.approx(nonp, rel=1e-13)
    else:
        assert priv > nonp
        rt = limits.rate_terms(task, "central", N=[1e2, 1e8, 1e14], epsilon=0.5, **kw)
        ratio = rt.terms["privacy"] / rt.terms["nonprivate"]
        assert np.all(np.diff(ratio) < 0)


@pytest.mark.parametrize("params", GRID)
def test_heavy_tailed_local_is_slower(params):
    """003 lines 56-58 and 307-308: 2β(p-1)/(2pβ+d(p-1)) < 2β/(2β+d) for finite p."""
    b, g, d, p = params
    kw = kwargs("regression_heavy_tailed", b, g, d, p)
    assert limits.rate_exponent("regression_heavy_tailed", "local", **kw) < \
        limits.rate_exponent("regression", "local", beta=kw["beta"], d=d)
