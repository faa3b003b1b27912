"""Tests of ``proofs_checks.findings()``: shape, the known discrepancies, the union with
``limits.DISCREPANCIES``, cross-checks of the two independent derivations, and a smoke run of the
``proof_checks`` experiment."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

import limits
from proofs_checks import all_checks, findings
from proofs_checks.findings import LIMITS_KEY_TO_CHECK, LOOSE_TOPICS
from proofs_checks.proof_steps.monomials import SYM, exponents, same_monomial
from proofs_checks.proof_steps.tuning_rates import derive_upper

N, eps, h, k, T, beta, d, gamma, p, L = (SYM[s] for s in "N eps h k T beta d gamma p L".split())


@pytest.fixture(scope="module")
def found():
    return findings("smoke")


def test_findings_are_dicts_with_required_fields(found):
    assert len(found) >= 10
    for f in found:
        for key in ("source", "printed", "derived", "evidence", "severity", "origin"):
            assert isinstance(f[key], str) and f[key], (key, f)
        assert f["source"][:3] in ("000", "001", "002", "003", "004")
    pairs = [(f["source"], f["printed"]) for f in found]
    assert len(pairs) == len(set(pairs))  # de-duplicated


def test_known_table1_discrepancy_is_reported(found):
    # seeds README: Table 1 central regression (bounded noise) prints (eps N)^(-2b/(d+2b)); Theorems 7-8 give (d+b)
    hit = [f for f in found if "Table 1 (central, regression bounded)" in f["source"]]
    assert len(hit) == 1
    assert "d+2beta" in hit[0]["printed"] and "(N eps)^(-2*beta/(beta + d))" in hit[0]["derived"]
    assert hit[0]["severity"] == "rate"


@pytest.mark.parametrize("source", ["003 Theorem 12 statement", "003 Theorem 10 and eq. (181)", "003 eq. (187)",
                                    "003 Theorem 8, eq. (23)", "003 Table 1 (local full, classification)",
                                    "003 eq. (46)(c) (and (161))", "003 eq. (60)", "003 eq. (113)", "003 eq. (80)"])
def test_each_hand_derived_discrepancy_is_listed(found, source):
    assert any(f["source"] == source for f in found), source


def test_union_with_limits_discrepancies(found):
    keys = [r["key"] for r in limits.discrepancies()]
    assert keys, "limits.DISCREPANCIES is empty"
    for key in keys:
        if key in LIMITS_KEY_TO_CHECK:  # derived twice: merged, both evidences kept
            merged = [f for f in found if f.get("check_id") == LIMITS_KEY_TO_CHECK[key]]
            assert merged and all(f["origin"] == "both" and key in f["evidence"] for f in merged), key
        else:  # found only by limits: carried over
            assert any(key in f["evidence"] for f in found), key


def test_every_failed_check_contributes_findings(found):
    failed = {c.check_id for c in all_checks("smoke") if not c.passed}
    assert failed == {f["check_id"] for f in found if f["check_id"]}


# ---- cross-checks against limits (independent derivation) ----------------------------------------

def _to_mine(expr):
    """limits' symbols -> this package's (by name); ln K -> L; eps ∧ 1 -> eps (the eps <= 1 regime)."""
    expr = expr.replace(sp.Min, lambda *args: [a for a in args if a != 1][0])
    expr = expr.subs(sp.log(limits.symbols.K), L)
    return expr.subs({s: SYM["eps" if s.name == "epsilon" else s.name] for s in expr.free_symbols if s.name != "K"})


_ALGOS = {"local_classification": "thm2", "central_classification": "thm4", "local_regression": "thm6",
          "central_regression": "thm8", "local_regression_heavy_tailed": "thm10",
          "central_regression_heavy_tailed": "thm12"}


@pytest.mark.parametrize("algorithm", sorted(_ALGOS))
def test_tuning_branches_agree_with_limits(algorithm):
    tunings, _ = derive_upper(_ALGOS[algorithm])
    rules = limits.symbolic_tuning(algorithm)
    for param, rule in rules.items():
        mine = tunings[SYM[param]][0]
        theirs = [_to_mine(b) for b in rule.branches.values()]
        assert len(mine) == len(theirs), (param, mine, theirs)
        for t in theirs:
            assert any(same_monomial(t, m) for m in mine), (algorithm, param, t, mine)


@pytest.mark.parametrize("b,dd,pp", [(1.0, 1, 2.0), (1.0, 2, 3.0), (2.0, 3, 5.0)])
def test_numeric_tuning_agrees_with_limits(b, dd, pp):
    Nv, ev = 1e6, 0.5
    t = limits.tuning("central_regression_heavy_tailed", N=Nv, epsilon=ev, beta=b, d=dd, p=pp)
    tunings, _ = derive_upper("thm12")
    vals = {N: Nv, eps: ev, beta: b, d: dd, p: pp}
    h_mine = sum(float(x.subs(vals)) for x in tunings[h][0])  # h ~ A + B (eq. (195))
    assert math.isclose(t["h"], min(1.0, h_mine), rel_tol=1e-9)
    T_mine = float(tunings[T][0][0].subs(vals | {h: t["h"]}))
    assert math.isclose(t["T"], T_mine, rel_tol=1e-9)


_CELLS = [("classification", "local", "thm2", None), ("classification", "central", "thm4", "privacy"),
          ("regression", "local", "thm6", None), ("regression", "central", "thm8", "privacy"),
          ("regression", "central", "thm8", "nonprivate"), ("regression_heavy_tailed", "local", "thm10", "privacy"),
          ("regression_heavy_tailed", "central", "thm12", "privacy")]


@pytest.mark.parametrize("task,privacy,key,term", _CELLS)
@pytest.mark.parametrize("b,dd,g,pp", [(1.0, 1, 1.0, 2.0), (0.5, 3, 0.0, 4.0), (2.0, 2, 2.0, 3.0)])
def test_rate_exponents_agree_with_limits(task, privacy, key, term, b, dd, g, pp):
    _, rate = derive_upper(key)
    if term == "nonprivate":
        mine = next(t for t in rate if eps not in exponents(t))
    else:
        mine = next(t for t in rate if eps in exponents(t))
    a_mine = -float(exponents(mine)[N].subs({beta: b, d: dd, gamma: g, p: pp}))
    kw = {"gamma": g} if task == "classification" else {"p": pp} if task == "regression_heavy_tailed" else {}
    a_lim = limits.rate_exponent(task, privacy, beta=b, d=dd, term=term, **kw)
    assert math.isclose(a_mine, a_lim, rel_tol=1e-12)


# ---- the experiment -------------------------------------------------------------------------------

def test_proof_checks_experiment_smoke(smoke_run):
    """Read from the test run's one smoke run (tests/conftest.py), at the default root seed as before."""
    run = smoke_run("proof_checks")
    folder = run.folder
    saved = run.record
    assert saved["claims"] and len(saved["claims"]) == len(all_checks("smoke"))
    checks = all_checks("smoke")
    # a check that agrees with the paper is a paper claim that holds; one that fails is an erratum (confirmed,
    # naming its finding) or, for a loose finding, a beyond question answered no
    assert sum(c["kind"] == "paper" and c["holds"] for c in saved["claims"]) == sum(c.passed for c in checks)
    assert sum(c["kind"] != "paper" for c in saved["claims"]) == sum(not c.passed for c in checks)
    topics = {f["topic"] for f in findings("smoke")}
    errata = [c for c in saved["claims"] if c["kind"] == "erratum"]
    assert errata and all(c["holds"] and c["finding"] in topics for c in errata)
    assert "### Proof checks" in saved["notes"] and "### Findings" in saved["notes"]
    assert (folder / "proof_checks.png").exists() and (folder / "findings.csv").exists()


# ---- 001 findings read off the text (TEXT_FINDINGS) and the "loose" kind ---------------------------

def test_001_text_findings_listed_and_kinds(found):
    """Each text finding is listed once with its test; only 001 Algorithm 1's δ (valid, 4x conservative) and
    003 eq. (126)'s factor ½ (valid, conservative by 2) are "loose", every other finding is an error."""
    from proofs_checks.findings import TEXT_FINDINGS

    for rec in TEXT_FINDINGS:
        hit = [f for f in found if f["source"] == rec["source"]]
        want = "loose" if rec["topic"] in LOOSE_TOPICS else "error"
        assert len(hit) == 1 and hit[0]["origin"] == "text" and hit[0]["kind"] == want, rec["source"]
        test_name = hit[0]["evidence"].split("test_findings.py::")[1].split()[0]
        assert callable(globals().get(test_name)), test_name
    assert {f["kind"] for f in found} == {"error", "loose"}
    loose = [f for f in found if f["kind"] == "loose"]
    assert sorted(f["topic"] for f in loose) == sorted(LOOSE_TOPICS)
    assert any("loose by 4x" in f["derived"] for f in loose)
    assert any("conservative by 2" in f["derived"] for f in loose)


def test_001_thm32_estimator_is_scaled_by_N():
    """Algorithm 2's bit 1[Σ y + w > N/2] is the plug-in rule of η̂ + w/N, not of the printed η̂ + w
    (exact rational enumeration over cube sizes N <= 6, label sums and noise values)."""
    from fractions import Fraction as F

    differs = 0
    for N in range(1, 7):
        for s in range(N + 1):
            for w in (F(i, 4) for i in range(-40, 41)):
                bit = s + w > F(N, 2)
                assert bit == (F(s, N) + w / N > F(1, 2))
                differs += bit != (F(s, N) + w > F(1, 2))
    assert differs > 0


def test_001_eq1_repeats_one_over_epsilon():
    """On an exact law of N(x): the corrected 4th line of eq. (1) equals the 3rd, the printed one differs by
    (1/ε)(1/ε − 1) E[1/N; 0 < N < M]; the final bound follows from the corrected line (ε <= 1) and not from
    the printed one (ε = 1/10)."""
    e = sp.Symbol("epsilon", positive=True)
    law = {0: sp.Rational(1, 10), 1: sp.Rational(2, 10), 2: sp.Rational(3, 10), 3: sp.Rational(1, 10),
           5: sp.Rational(3, 10)}
    M = 3

    def E(f, cond):
        return sum(p * f(n) for n, p in law.items() if cond(n))

    def P(cond):
        return sum(p for n, p in law.items() if cond(n))

    low, high = (lambda n: 0 < n < M), (lambda n: n >= M)
    inv = lambda n: sp.Rational(1, n)  # noqa: E731
    line3 = E(lambda n: 1 / (e * n), lambda n: n > 0)
    printed = (E(lambda n: 1 / (e * n), low) / P(low) * P(low) + E(inv, high) / P(high) * P(high)) / e
    corrected = (E(inv, low) / P(low) * P(low) + E(inv, high) / P(high) * P(high)) / e
    assert sp.simplify(corrected - line3) == 0
    assert sp.simplify(printed - line3 - (1 / e) * (1 / e - 1) * E(inv, low)) == 0
    assert (printed - line3).subs(e, sp.Rational(1, 2)) > 0
    final = (P(lambda n: n < M) + sp.Rational(1, M)) / e
    for ev in (sp.Rational(1, 10), sp.Rational(1, 2), 1):
        assert (corrected + P(lambda n: n == 0) - final).subs(e, ev) <= 0
    assert (printed + P(lambda n: n == 0) - final).subs(e, sp.Rational(1, 10)) > 0


def test_001_lemma_a8_proof_bound_is_2r():
    """The icosahedron's vertices are a maximal r-packing of S² (r = arccos(1/√5), covering radius R with
    cos² R = (5 + 2√5)/15 > cos² r) whose Voronoi cells have diameter arccos(1/3): above r, within 2r
    (exact in Q(√5) with sympy; R < π/4, so a cell's diameter is attained at its vertices, the normalized
    centres of the 5 faces around the vertex)."""
    phi = (1 + sp.sqrt(5)) / 2
    base = [sp.Matrix([0, s, t * phi]) for s in (-1, 1) for t in (-1, 1)]
    verts = base + [sp.Matrix([v[2], v[0], v[1]]) for v in base] + [sp.Matrix([v[1], v[2], v[0]]) for v in base]
    q = lambda x: sp.radsimp(sp.expand(x))  # noqa: E731
    dot = lambda a, b: q(a.dot(b))  # noqa: E731
    norm2 = q(phi ** 2 + 1)  # every vertex
    assert all(dot(v, v) == norm2 for v in verts)
    cos_r = q(phi / norm2)
    assert cos_r == 1 / sp.sqrt(5)
    assert max(float(dot(v, w)) for i, v in enumerate(verts) for w in verts[i + 1:]) == float(q(phi))  # r-packing
    v0 = verts[3]
    nbrs = [v for v in verts if dot(v, v0) == q(phi)]
    faces = [(a, b) for i, a in enumerate(nbrs) for b in nbrs[i + 1:] if dot(a, b) == q(phi)]
    corners = [v0 + a + b for a, b in faces]  # unnormalized, all of the same norm
    assert len(nbrs) == 5 and len(corners) == 5 and len({dot(c, c) for c in corners}) == 1
    cos2_R = q(dot(corners[0], v0) ** 2 / (dot(corners[0], corners[0]) * norm2))
    assert sp.radsimp(cos2_R - (5 + 2 * sp.sqrt(5)) / 15) == 0
    assert float(cos2_R) > float(cos_r ** 2) and float(cos2_R) > 0.5  # R < r (maximal packing) and R < π/4
    cos_diam = min({q(dot(c, d) / dot(c, c)) for i, c in enumerate(corners) for d in corners[i + 1:]}, key=float)
    assert cos_diam == sp.Rational(1, 3)
    assert float(2 * cos_r ** 2 - 1) < float(cos_diam) < float(cos_r)  # cos 2r < cos diam < cos r: r < diam < 2r


def test_001_thm24_constant_grows_with_epsilon():
    """mpmath quadrature of E|ĉ − 1| for Algorithm 1 (|ĉ − 1| = 1 when 1 + W < T, |W| otherwise): the ratio
    ε E / min{ln(1/δ), 1} is at least ε (1 − δ/4), so no constant bounds it uniformly in ε."""
    import mpmath

    delta = mpmath.mpf("0.01")
    for eps in (2, 4, 8, 32):
        b = mpmath.mpf(2) / eps
        T = b * mpmath.log(2 / delta) + 1
        f = lambda w: mpmath.exp(-abs(w) / b) / (2 * b)  # noqa: E731
        E = mpmath.quad(f, [-mpmath.inf, 0, T - 1]) + mpmath.quad(lambda w: abs(w) * f(w), [T - 1, mpmath.inf])
        ratio = eps * E / min(mpmath.log(1 / delta), 1)
        assert ratio >= eps * (1 - delta / 4) and ratio <= eps * (1 + delta * (T + b) / 4)


def test_001_thm17_delta_condition_too_weak():
    """At δ = 2^(−√n/2) (allowed by Theorem 1.7) Algorithm 1's threshold exceeds the expected count
    √n·f_max of every cube of side n^(−1/2) for the standard normal (f_max = 1/√(2π) < ln 2), ε = 1."""
    from simulations.mechanisms.histograms import StabilityHistogram

    f_max = 1 / math.sqrt(2 * math.pi)
    for n in (10 ** 2, 10 ** 4, 10 ** 6):  # 2^(-√n/2) underflows past n ≈ 4·10^6
        delta = 2.0 ** (-math.sqrt(n) / 2)
        threshold = StabilityHistogram(epsilon=1.0, delta=delta).threshold
        assert threshold == pytest.approx(2 * math.log(2 / delta) + 1, rel=1e-12)
        assert threshold > math.log(2) * math.sqrt(n) > f_max * math.sqrt(n)


def test_001_thmA13_delta_range_is_footnote3s():
    """001 Theorem A.13 (δ = ω(2^(−n^(1/4)))) vs footnote 3 (δ = ω(2^(−√n))): δ = 2^(−√n/2) is in the footnote's
    range, not the theorem's; in the proof, (12) needs Pr[N(x) <= k] -> 0 at k ∝ ln(1/δ) ∝ √n, which Lemma A.9's
    bound (2k + 4)(4θ)^d / n^(3/4) + Pr(T̄) gives with θ = n^(1/(8d)) but not with the printed θ = n^(1/(2d))."""
    n = sp.Symbol("n", positive=True)
    delta = 2 ** (-sp.sqrt(n) / 2)
    assert sp.limit(delta / 2 ** (-sp.sqrt(n)), n, sp.oo) == sp.oo  # ω(2^-√n): footnote 3's range
    assert sp.limit(delta / 2 ** (-n ** sp.Rational(1, 4)), n, sp.oo) == 0  # not ω(2^-n^(1/4)): Theorem A.13's
    k = sp.sqrt(n)  # k(n) ∝ ln(1/δ) = (√n/2) ln 2, up to the constant
    for d in (1, 2, 3):
        printed = (2 * k + 4) * (4 * n ** sp.Rational(1, 2 * d)) ** d / n ** sp.Rational(3, 4)
        slower = (2 * k + 4) * (4 * n ** sp.Rational(1, 8 * d)) ** d / n ** sp.Rational(3, 4)
        assert sp.limit(printed, n, sp.oo) == sp.oo and sp.limit(slower, n, sp.oo) == 0
        # the printed θ is exactly the k = o(n^(1/4)) of Lemma A.9: (2k + 4) 4^d / n^(1/4)
        assert sp.simplify(printed - (2 * k + 4) * 4 ** d / n ** sp.Rational(1, 4)) == 0


def test_004_alg3_stage1_prior_is_m0():
    """Stage 1 can only use the trivial M(0) (uniform): RRWithPrior on the uniform prior is exactly RR,
    which is 004's 'LP-1ST is equivalent to vanilla RR' — with the printed M(1) stage 1 would need a model
    trained on its own randomized labels."""
    from simulations.mechanisms import RandomizedResponse, RRWithPrior

    for K, eps in ((2, 0.5), (10, 1.0), (10, 4.0)):
        uniform = np.full(K, 1.0 / K)
        np.testing.assert_allclose(RRWithPrior(K, eps).channel_matrix(uniform),
                                   RandomizedResponse(K, eps).channel_matrix(), rtol=1e-12, atol=0)


# ---- 003 findings read off the text (issue 35) -------------------------------------------------------

def test_003_thm2_cube_mass_is_c_h_d():
    """Uniform f = 1 on [0, 1]^d (c = 1): a cube of side h = 1/G holds mass exactly h^d = c h^d, which is
    below the printed c N h^d for every N > 1, and c N h^d exceeds 1 (no probability can) once N > h^-d."""
    for d in (1, 2, 3):
        for G in (2, 5, 10):
            h = sp.Rational(1, G)
            mass = sp.integrate(sp.Integer(1), *[(sp.Symbol(f"x{i}"), 0, h) for i in range(d)])
            assert mass == h ** d  # = c h^d with c = 1
            for N in (2, 10, G ** d + 1):
                assert mass < N * h ** d
            assert (G ** d + 1) * h ** d > 1


def test_003_thm2_cube_diameter_is_sqrt_d_h():
    """The largest distance between two points of [0, h]^d is √d h (opposite corners, exact); the printed
    √d L is not a bound when L < h (e.g. L = h/2), and (63) follows from √d h for β ≤ 1."""
    h, L, beta = sp.Rational(1, 3), sp.Rational(1, 6), sp.Rational(1, 2)
    for d in (1, 2, 3, 5):
        corners = [sp.Matrix(c) * h for c in __import__("itertools").product((0, 1), repeat=d)]
        diam = max(sp.sqrt((a - b).dot(a - b)) for a in corners for b in corners)
        assert sp.simplify(diam - sp.sqrt(d) * h) == 0
        assert diam > sp.sqrt(d) * L  # the printed bound fails
        assert L * diam ** beta <= L * sp.sqrt(d) * h ** beta  # (63): L (√d h)^β <= L √d h^β


def test_003_eq13_ties_have_positive_probability():
    """K = 2, one sample with label 1: the K-bit vector mechanism (000 eq. (12)-(13), ε/2 per bit) keeps each
    bit with probability 1 − q, q = 1/(1 + e^(ε/2)); the two sums tie (both bits 0 or both 1) with probability
    2q(1 − q) > 0 at every ε, by exact enumeration of the four outputs; ties stay possible with more samples."""
    eps = sp.Symbol("epsilon", positive=True)
    q = 1 / (1 + sp.exp(eps / 2))
    p_bit = [1 - q, q]  # P(bit j = 1) for the true label 1 -> one-hot (1, 0)
    tie = sum((p_bit[0] if b1 else 1 - p_bit[0]) * (p_bit[1] if b2 else 1 - p_bit[1])
              for b1 in (0, 1) for b2 in (0, 1) if b1 == b2)
    assert sp.simplify(tie - 2 * q * (1 - q)) == 0
    for e in (sp.Rational(1, 10), 1, 4, 16):
        assert tie.subs(eps, e) > 0
    assert sp.limit(tie, eps, 0) == sp.Rational(1, 2)


def test_003_lower_bound_construction_needs_gamma_beta_le_1():
    """Bumps φ(u) = (1 − |2u|)^b on [−1/2, 1/2] (β-Hölder iff b >= β, for β <= 1): P(0 < φ(U) < s) = s^(1/b)
    exactly (U uniform), so the margin ratio P(0 < φ(U) < s)/s^γ = s^(1/b − γ) stays bounded as s -> 0 iff
    γb <= 1; with b = β, the smallest allowed, iff γβ <= 1."""
    s, u = sp.symbols("s u", positive=True)
    for b in (sp.Rational(1, 2), 1, 2):
        # φ(u) < s  <=>  |2u| > 1 - s^(1/b); the mass of that set under U ~ Uniform[-1/2, 1/2]:
        mass = 2 * sp.integrate(sp.Integer(1), (u, (1 - s ** (1 / b)) / 2, sp.Rational(1, 2)))
        assert sp.simplify(mass - s ** (1 / b)) == 0
        for gamma in (sp.Rational(1, 4), sp.Rational(1, 2), 1, 2, 4):
            ratio_at_0 = sp.limit(mass / s ** gamma, s, 0, "+")
            assert (ratio_at_0 == sp.oo) == (gamma * b > 1), (b, gamma)


def test_003_appendix_l_berry_esseen_ratio_grows():
    """The law (156) at η_v = 0: Y = ±T with probability M_p/(2T^p) each, else 0. Its standardized third
    absolute moment E|Y|³/σ³ (the Berry–Esseen constant's factor) is exactly (T^p/M_p)^(1/2): unbounded in T."""
    T, M, p = sp.symbols("T M_p p", positive=True)
    pt = M / (2 * T ** p)
    var = 2 * pt * T ** 2
    third = 2 * pt * T ** 3
    ratio = sp.simplify(third / var ** sp.Rational(3, 2))
    assert sp.simplify(ratio - sp.sqrt(T ** p / M)) == 0
    assert sp.limit(ratio.subs({p: 2, M: 4}), T, sp.oo) == sp.oo


def test_003_eq126_factor_is_one():
    """(125) says ‖a − b‖ >= ‖a + b‖ (a = η̂, b = v φ h^β on the cube, weighted by f); then
    2‖b‖ <= ‖a − b‖ + ‖a + b‖ <= 2‖a − b‖, so ‖a − b‖² >= ‖b‖²: the factor is 1, not ½, and a = 0 attains
    it. Checked on random instances satisfying (125) and exactly at a = 0."""
    rng = np.random.default_rng(126)
    seen = 0
    for _ in range(2000):
        a, b = rng.normal(size=7), rng.normal(size=7)
        if np.sum((a - b) ** 2) >= np.sum((a + b) ** 2):
            seen += 1
            assert np.sum((a - b) ** 2) >= np.sum(b ** 2) * (1 - 1e-12)
    assert seen > 500
    b = [sp.Rational(k, 7) for k in range(1, 8)]
    assert sum(x ** 2 for x in b) == sum((0 - x) ** 2 for x in b)  # a = 0: equality with factor 1


def test_003_lemma1_conditioning_fails_with_varying_eta():
    """003 Lemma 1 as written conditions on Ȳ_k only. n_k = 3, |η(X_i)| = (1, 1, 0), ε = ln 2, t = 1/3
    (l = 1, lε = ln 2: the lemma's condition holds). With V uniform, labels 1, 2 equal V and label 3 is a fair
    coin: given Ȳ_k = −1/3 the labelling is (−,−,+), given Ȳ_k = 1/3 it is (+,+,−), three labels apart. The
    test accepting V̂ = 1 with probability (1/6, 1/3, 2/3, 5/6) at Hamming distance 0..3 from (−,−,+) is
    ln 2-label DP (ratios <= 2 between neighbours, checked on all 8 labellings in exact fractions) and its two
    errors sum to 1/6 + 1/6 = 1/3 < 2/3; the exact LP agrees."""
    import itertools
    from fractions import Fraction as F

    from proofs_checks.experiments.lemma_tests_lp import _binary_probs, lemma_point

    D = (-1, -1, 1)
    q = [F(1, 6), F(1, 3), F(2, 3), F(5, 6)]
    accept = {y: q[sum(a != b for a, b in zip(y, D))] for y in itertools.product((-1, 1), repeat=3)}
    for y in accept:
        for i in range(3):
            z = y[:i] + (-y[i],) + y[i + 1:]
            assert accept[y] <= 2 * accept[z] and 1 - accept[y] <= 2 * (1 - accept[z])
    # the conditional laws, exactly: P(y | V) = Π_i P(y_i | V) with P(y_i = V) = 1 for i < 2, 1/2 for i = 2
    def lik(y, v):
        return (F(1) if y[0] == v and y[1] == v else F(0)) * F(1, 2)
    post = {s: {y: sum(lik(y, v) for v in (-1, 1)) for y in accept if sum(y) == s} for s in (-1, 1)}
    null = {y: w / sum(post[-1].values()) for y, w in post[-1].items() if w}
    alt = {y: w / sum(post[1].values()) for y, w in post[1].items() if w}
    assert null == {(-1, -1, 1): 1} and alt == {(1, 1, -1): 1}
    total = sum(w * accept[y] for y, w in null.items()) + sum(w * (1 - accept[y]) for y, w in alt.items())
    assert total == F(1, 3) < F(2, 3)
    assert abs(lemma_point(1, 3, 1, math.log(2), _binary_probs((1.0, 1.0, 0.0))) - 1 / 3) < 1e-9
    # with a constant |η| (exchangeable labels given Ȳ_k) the same cube attains exactly the lemma's 2/3
    assert abs(lemma_point(1, 3, 1, math.log(2), _binary_probs((0.5, 0.5, 0.5))) - 2 / 3) < 1e-9


def test_003_eq184_mean_shift_is_2lT_over_n():
    """Labels (−T, −T, 0, 0) with T = 3: Ȳ = −3/2 = −t; l = n t/T = 2 changes −T -> T give (T, T, 0, 0), mean
    3/2 = t = −t + 2lT/n; the printed −t + 2l/n = −1/2 is not t."""
    from fractions import Fraction as F

    T, n = 3, 4
    D = [-T, -T, 0, 0]
    t = -F(sum(D), n)
    l = int(n * t / T)
    D2 = [T, T, 0, 0]
    assert (t, l, F(sum(D2), n)) == (F(3, 2), 2, t)
    assert -t + F(2 * l * T, n) == t and -t + F(2 * l, n) == F(-1, 2) != t


def test_every_text_finding_has_a_substance_test():
    """Each TEXT_FINDINGS record names a test of this file, and that test exists."""
    from proofs_checks.findings import TEXT_FINDINGS
    here = globals()
    for rec in TEXT_FINDINGS:
        name = rec["evidence"].split("test_findings.py::")[1].split()[0]
        assert name in here and callable(here[name]), rec["topic"]


# ---- 004 Theorem 17 (issue 38) -----------------------------------------------------------------------------

def test_004_thm17_debiased_loss_range():
    """004 eq. (18) as printed fails with F = {f ≡ 0}: R_n(F) = 0, K = k = 2, y uniform, ℓ(t, y) = (t − y)²
    (so ℓ(f, y) = y), no miss. The released labels are i.i.d. uniform, Z = Σ ỹ_i ~ Bin(n, 1/2) and
    L̃ = (Z/n − p)/(1 − 2p) against L = 1/2; (18) claims |Z/n − 1/2| <= (1 − 2p)√(log(2/β)/(2n)) w.p. >= 1 − β.
    The exact probability of the complement (integer binomial sums) is 0.2174 at ε = 1, n = 1000, β = 0.05;
    with the range width 1/(1 − 2p) of ℓ̃ on the confidence term it is 0.0072 <= β."""
    from fractions import Fraction

    from limits.generalization import debiased_loss_constants

    n, beta = 1000, 0.05
    for eps, printed_prob in ((1.0, 0.2174), (0.5, 0.5067)):
        p = 1 / (math.exp(eps) + 1)
        rhs = math.sqrt(math.log(2 / beta) / (2 * n))
        for scale, expect_fail in ((1 - 2 * p, True), (1.0, False)):  # printed, then corrected (width × (1 − 2p) = 1)
            bad = sum(math.comb(n, z) for z in range(n + 1) if abs(z / n - 0.5) > scale * rhs)
            prob = float(Fraction(bad, 2 ** n))
            if expect_fail:
                assert prob > beta and round(prob, 4) == printed_prob
            else:
                assert prob <= beta and round(prob, 4) == 0.0072
    # the range of ℓ̃ (eq. (17)) over ℓ ∈ {0, 1}², ỹ ∈ Y_2 = {0, 1} is [−p/(1−2p), (1−p)/(1−2p)]: width 1/(1 − 2p) > 1
    p = Fraction(1, 4)  # e^ε = 3
    vals = [(l[z] - p * (l[0] + l[1])) / (1 - 2 * p) for l in ((0, 0), (0, 1), (1, 0), (1, 1)) for z in (0, 1)]
    assert max(vals) - min(vals) == 2 and min(vals) < 0 < 1 < max(vals)
    assert debiased_loss_constants(2, math.log(3))[2] == pytest.approx(2.0, rel=1e-13)
    topics = {f["topic"] for f in findings()}
    assert "004 thm17 debiased loss range" in topics
