"""004 Appendix F-G: the lower bounds for label-DP convex ERM / SCO, group privacy, Proposition 11's privacy, Lemma 20.

Exact checks (sympy, ``fractions.Fraction`` or mpmath at 40 digits), on the papers' own constructions:

- ``004-prop13-chain`` — Proposition 13: eq. (13) from the (ε, δ) inequalities, and every step of the chain
  (15) → Cauchy-Schwarz → (14) for binary (ε, δ)-randomized response + noisy ERM, which attains (13);
- ``004-lemma15-replication`` — Lemma 15: replication keeps the empirical risk, Fact 14's δ factor is
  O(1/ε') when kε' <= 1; the proof's "δ' = C/ε'" (and "k = ⌊1/ε⌋") read as printed make the bound vacuous;
- ``004-prop12-assembly`` — Proposition 12 = Lemma 16 plugged into Lemma 15: the bound equals
  c DL/(4 √(ε n ln(2/δ_E))) with c bounded away from 0 (Ω̃(DL/√(εn)));
- ``004-fact14-group-privacy`` — Fact 14 on the exact k-fold product of RR, RRTop-k, RRWithPrior and
  binary (ε, δ)-RR;
- ``004-prop11-gaussian-privacy`` — Proposition 11's σ = C L √(log 1/δ)/ε against the exact Gaussian profile
  with the proof's sensitivity 2L: a constant works for δ <= 1/2, none for every δ ∈ (0, 1);
- ``004-lemma20-population-gap`` — Lemma 20 on random exact instances, with its equality case; ``004-lemma20-proof-line``
  — the proof's first line has ℓ where L̃(f; P̃) needs ℓ̃ (a typo; the conclusion stands).

References: 004 Propositions 11-13, eq. (11)-(16), Fact 14, Lemmas 15-16, 18, 20, eq. (17), (19).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from simulations.seeding import as_generator

from ..exact import rr_top_k_channel_exact, top_k_exact
from ..gaussian_mechanism import gaussian_delta, paper_constant, smallest_sigma
from ..group_privacy import binary_approximate_rr_exact, exact_channels, fact14_factor, group_delta, group_ratio
from ..sco_lower_bounds import fact14_delta, lemma15_bound, lp_rr_sgd_excess, prop12_bound, prop13_bound
from .base import Finding, ProofCheck, grid_size, proof_check

__all__ = ["exact_prop13_chain"]

#: e^ε values (rational, so the (ε, δ)-RR channels are exact) and δ values of the Proposition 13 grid
E_GRID = (Fraction(11, 10), Fraction(3, 2), Fraction(3), Fraction(10))
DELTA_GRID = (Fraction(0), Fraction(1, 100), Fraction(1, 5))


def exact_prop13_chain(E, delta, m: int, dps: int = 40) -> dict:
    r"""Proposition 13's chain in mpmath (``dps`` digits) for binary (ε, δ)-RR + noisy ERM, D = L = 1.

    Parameters
    ----------
    E : int or Fraction > 1
        :math:`e^\varepsilon`, exact.
    delta : int or Fraction in [0, 1)
        δ, exact.
    m : int >= 1
        Data set size.
    dps : int, default 40
        mpmath digits.

    Returns
    -------
    dict of mpmath.mpf
        ``excess`` (1 − p)/√m, ``step15`` 1/(2√m) − E√#I/(2m), ``jensen`` 1/(2√m) − √(mp)/(2m) and ``bound``
        (1/(2√m))(1 − √((E + δ)/(E + 1))), with p = (E + δ)/(E + 1) and #I ~ Bin(m, p) summed exactly.

    References
    ----------
    004 Proposition 13, eq. (13)-(15).

    Examples
    --------
    >>> c = exact_prop13_chain(3, 0, 1)
    >>> [float(c[k]) for k in ("excess", "step15")]
    [0.25, 0.125]
    """
    with mpmath.workdps(dps):
        p = mpmath.mpf((Fraction(E) + Fraction(delta)).numerator) / (Fraction(E) + Fraction(delta)).denominator
        p = p / (mpmath.mpf(Fraction(E).numerator) / Fraction(E).denominator + 1)
        e_sqrt = mpmath.fsum(mpmath.binomial(m, j) * p**j * (1 - p) ** (m - j) * mpmath.sqrt(j) for j in range(m + 1))
        half = 1 / (2 * mpmath.sqrt(m))
        return {"excess": (1 - p) / mpmath.sqrt(m), "step15": half - e_sqrt / (2 * m),
                "jensen": half - mpmath.sqrt(m * p) / (2 * m), "bound": half * (1 - mpmath.sqrt(p))}


@proof_check("004-prop13-chain")
def prop13_chain_check(profile="smoke") -> ProofCheck:
    """Proposition 13: (13) from its two inequalities; the chain (15) >= CS >= (14) on (ε, δ)-RR, which attains (13)."""
    p, q, Es, d = sp.symbols("p q E delta", positive=True)
    eq13 = sp.solve(sp.Eq(p, Es * (1 - p) + d), p)[0]  # p <= E q + δ with q = 1 − p, the extreme case
    eq13_ok = sp.simplify(eq13 - (Es + d) / (Es + 1)) == 0
    t = sp.sqrt(Es / (Es + 1))
    ratio_ok = sp.simplify((2 / (Es + 1)) / (1 - t) - 2 * (1 + t)) == 0  # RR-ERM / bound at δ = 0
    attains = all(group_delta(binary_approximate_rr_exact(E, dl), 1, E) == dl for E in E_GRID for dl in DELTA_GRID)
    ms = range(1, grid_size(profile, 12, 60, 200) + 1)
    bad, worst_sgd = [], math.inf
    for E in E_GRID:
        for dl in DELTA_GRID:
            for m in ms:
                c = exact_prop13_chain(E, dl, m)
                ok = c["excess"] >= c["step15"] >= c["jensen"] - mpmath.mpf(10) ** -35 and \
                    abs(c["jensen"] - c["bound"]) < mpmath.mpf(10) ** -35 and c["bound"] > 0
                if not ok:
                    bad.append((str(E), str(dl), m))
        for m in ms:  # LP-RR-SGD (ε-DP, so the δ = 0 bound applies)
            worst_sgd = min(worst_sgd, lp_rr_sgd_excess(math.log(E), m) / prop13_bound(math.log(E), 0.0, m))
    ok = eq13_ok and ratio_ok and attains and not bad and worst_sgd >= 1
    return ProofCheck(
        "004-prop13-chain", "004 Proposition 13, eq. (12)-(15)",
        "Pr[y~_i <w^, e_i> > 0] <= (e^eps + delta)/(e^eps + 1) (13) and E[excess] >= (DL/2 sqrt n)(1 - sqrt((e^eps + "
        "delta)/(e^eps + 1))) step by step", ok,
        derived=f"(13) solved by sympy: {eq13}; binary (eps, delta)-RR has exact delta(eps) = delta and attains (13); "
                f"excess >= after-(15) >= after-Cauchy-Schwarz = bound (40 digits) for e^eps in "
                f"{[str(e) for e in E_GRID]}, delta in {[str(x) for x in DELTA_GRID]}, n = 1..{len(ms)}; RR-ERM / "
                "bound = 2(1 + sqrt(e^eps/(e^eps+1))) in (2 + sqrt 2, 4); LP-RR-SGD (Theorem 9 steps) / bound >= "
                f"{worst_sgd:.3f}",
        detail=f"failures: {bad[:5]}; sympy (13): {eq13_ok}, ratio identity: {ratio_ok}, attains: {attains}")


@proof_check("004-lemma15-replication")
def lemma15_replication(profile="smoke") -> ProofCheck:
    """Lemma 15: replication keeps the risk; Fact 14's factor is O(1/ε'); the printed δ' = C/ε' is vacuous."""
    k_, m_ = sp.symbols("k m", positive=True, integer=True)
    ell = sp.IndexedBase("l")
    i = sp.Symbol("i", integer=True)
    same = sp.simplify(sp.Sum(k_ * ell[i], (i, 1, m_)) / (k_ * m_) - sp.Sum(ell[i], (i, 1, m_)) / m_) == 0
    n_eps = grid_size(profile, 50, 400, 2000)
    worst = 0.0
    with mpmath.workdps(30):
        for eps in np.geomspace(1e-4, 1.0, n_eps):
            k = math.floor(1 / eps + 1e-12)
            e = mpmath.mpf(float(eps))
            worst = max(worst, float(mpmath.expm1(k * e) / mpmath.expm1(e) * e / (mpmath.e - 1)))
    C = 0.01
    printed = [(k, fact14_delta(1 / k, k, C * k), lemma15_bound(1 / k, C * k, 100, k)) for k in (10, 100, 1000)]
    derived = [(k, fact14_delta(1 / k, k, C / k), lemma15_bound(1 / k, C / k, 100, k)) for k in (10, 100, 1000)]
    typo = all(d >= 1 or b <= 0 for k, d, b in printed[1:]) and all(d < 1 and b > 0 for k, d, b in derived)
    text = (f"with C = {C}: delta' = C/eps' gives group delta {[round(d, 3) for _, d, _ in printed]} at eps' = 1/k, "
            f"k = 10, 100, 1000 (>= 1 from k = 100: Proposition 13's bound {[round(b, 5) for *_, b in printed]} is "
            f"vacuous); delta' = C eps' gives {[round(d, 5) for _, d, _ in derived]} and bounds "
            f"{[round(b, 5) for *_, b in derived]} > 0")
    findings = (Finding("004 Lemma 15 (statement 'delta' <= Omega(eps')', 'n >= 1/gamma'; proof 'k = floor(1/eps)', "
                        "'delta' = C/eps'')", "delta' = C/eps' for any sufficiently small C > 0; k = floor(1/eps)",
                        "delta' = C eps' (the statement's delta' <= O(eps'), i.e. at most a small constant times eps'); "
                        "k = floor(1/eps'); gamma is undefined in Lemma 15. " + text,
                        "check 004-lemma15-replication: Fact 14's delta (e^{k eps'} - 1)/(e^{eps'} - 1) delta' and "
                        "Proposition 13's bound evaluated", severity="typo", topic="004 lemma15 delta scaling"),) \
        if typo else ()
    ok = same and worst <= 1.0 and not typo
    return ProofCheck(
        "004-lemma15-replication", "004 Lemma 15 and its proof, Fact 14",
        "the proof as printed: with k = floor(1/eps) copies and delta' = C/eps', the composed (k eps', (e^{k eps'} - 1)/"
        "(e^{eps'} - 1) delta')-DP algorithm is one Proposition 13 applies to (delta = O(delta'/eps') small)", ok,
        derived=f"replicated empirical risk = original (sympy: {same}); max over {n_eps} eps' in [1e-4, 1] of the "
                f"factor / ((e - 1)/eps') = {worst:.6f} <= 1; " + text,
        printed="delta' = C/eps'", findings=findings)


@proof_check("004-prop12-assembly")
def prop12_assembly(profile="smoke") -> ProofCheck:
    """Proposition 12 = Lemma 16 into Lemma 15: LB = c DL/(4 sqrt(eps n ln(2/delta_E))), c bounded below."""
    kmax = grid_size(profile, 8, 12, 16)
    n = 2**kmax
    rows, bad = [], []
    for delta in (1e-6, 1e-9):
        for j in range(kmax + 1):
            r = prop12_bound(2**j, delta, n)
            ell = math.log(2 / r["delta_erm"])
            c = r["bound"] * 4 * math.sqrt(r["epsilon"] * ell * n)
            group = fact14_delta(2.0**-j, 2**j, r["delta_erm"])
            c_formula = 1 - math.sqrt((math.e + min(group, 1.0)) / (math.e + 1))
            rows.append((delta, 2**j, r["epsilon"], c, group))
            if not (abs(c - c_formula) < 1e-9 and (c > 0 or group >= 1)):
                bad.append((delta, 2**j, c, c_formula))
    cs = [c for *_, c, g in rows if g < 1]
    vacuous = [(d, k) for d, k, *_, g in rows if g >= 1]
    ok = not bad
    return ProofCheck(
        "004-prop12-assembly", "004 Proposition 12, eq. (11); Lemmas 15-16",
        "an (eps, delta)-label-DP SCO algorithm has excess >= Omega~(DL/sqrt(eps n)) on P = uniform over the "
        "replicated construction", ok,
        derived=f"eps_E = 4 eps ln(2/delta_E) = 1/k, m = n/k: bound = c DL/(4 sqrt(eps n ln(2/delta_E))) with "
                f"c = 1 - sqrt((e + delta_k)/(e + 1)) in [{min(cs):.4f}, {max(cs):.4f}] over k = 1..2^{kmax}, "
                f"delta_SCO in (1e-6, 1e-9), n = 2^{kmax}; eps_SCO from {rows[0][2]:.3g} down to {rows[kmax][2]:.3g}; "
                "c falls as the group delta_k ~ k delta_E grows: delta must be small depending on eps, as Proposition 12 "
                f"says (vacuous, group delta >= 1, at (delta_SCO, k) = {vacuous})",
        detail=f"covers eps <= 1/(4 ln(2/delta_E)) (Lemma 15 needs eps_E <= 1); above it the non-private Omega(DL/sqrt n) "
               f"bound of the remark after Proposition 12 is within sqrt(4 ln(2/delta_E)) of DL/sqrt(eps n); "
               f"failures: {bad[:3]}")


@proof_check("004-fact14-group-privacy")
def fact14_group_privacy(profile="smoke") -> ProofCheck:
    """Fact 14 on exact product channels: loss <= k eps (tight), delta_k <= (E^k - 1)/(E - 1) delta <= k E^{k-1} delta."""
    E, E0 = Fraction(3), Fraction(2)  # the channels at e^eps = 3, read as (ln 2, delta(ln 2)) guarantees
    kmax = grid_size(profile, 2, 3, 3)
    pure_bad, approx_bad, tight = [], [], []
    for name, P in exact_channels(E).items():
        single = group_ratio(P, 1)
        d1 = group_delta(P, 1, E0)
        for k in range(1, kmax + 1):
            rk = group_ratio(P, k)
            if rk != single**k:
                pure_bad.append((name, k, rk))
            dk, (f14, crude) = group_delta(P, k, E0), fact14_factor(E0, k)
            if not dk <= f14 * d1 <= crude * d1:
                approx_bad.append((name, k, dk, f14 * d1))
            tight.append(f"{name} k={k}: delta_k/Fact14 = {float(dk / (f14 * d1)) if d1 else 0:.3f}")
    ok = not pure_bad and not approx_bad
    return ProofCheck(
        "004-fact14-group-privacy", "004 Fact 14 (Steinke and Ullman Fact 2.3)",
        "k changed labels: loss <= k eps, and (k eps, (e^{k eps} - 1)/(e^eps - 1) delta) for an (eps, delta) guarantee",
        ok, derived=f"exact Fraction enumeration of P^(x)k, k = 1..{kmax}: max ratio = (single max ratio)^k for every "
                    f"channel (pure group privacy tight); delta_k at E0^k = 2^k vs Fact 14: " + "; ".join(tight),
        detail=f"pure failures {pure_bad}; approximate failures {approx_bad}")


@proof_check("004-prop11-gaussian-privacy")
def prop11_gaussian_privacy(profile="smoke") -> ProofCheck:
    """Proposition 11: one C makes sigma = C L sqrt(log 1/delta)/eps (eps, delta)-DP at sensitivity 2L, every eps, delta."""
    n = grid_size(profile, 8, 20, 40)
    eps_grid, small = np.linspace(0.02, 0.999, n), np.geomspace(1e-12, 0.5, n)
    c_small = max(paper_constant(e, d) for e in eps_grid for d in small)
    near_one = [(j, paper_constant(0.5, 1 - 10.0**-j)) for j in (2, 4, 6, 8)]
    C = 2 * math.sqrt(2)  # the classical constant's limit, and above every C_min at delta <= 1/2
    with mpmath.workdps(50):  # exact profile at delta = 1 - 1e-6 with sigma = C L sqrt(ln 1/delta)/eps, L = 1
        e, dl = mpmath.mpf("0.5"), 1 - mpmath.mpf(10) ** -6
        mu = 2 * e / (C * mpmath.sqrt(mpmath.log(1 / dl)))
        gap = mpmath.ncdf(-mu / 2 + e / mu) + mpmath.e**e * mpmath.ncdf(-mu / 2 - e / mu)  # 1 − δ(ε), no cancellation
        fails = gap < 1 - dl
    grows = all(b[1] > a[1] for a, b in zip(near_one, near_one[1:]))
    suite_sigma = math.sqrt(2) * math.sqrt(2 * math.log(1.25 / 1e-5)) / 0.5  # lp_rr_sgd: L = sqrt 2, eps 0.5, delta 1e-5
    suite_delta = gaussian_delta(0.5, math.sqrt(2), suite_sigma)
    derived = (f"C_min(eps, delta) = sigma_min eps/(L sqrt ln(1/delta)) at sensitivity 2L: max {c_small:.4f} <= 2 sqrt 2 "
               f"over eps in (0, 1), delta in [1e-12, 1/2] ({n}x{n} grid); at eps = 1/2 and delta = 1 - 10^-j, j = 2, 4, "
               f"6, 8: {[round(c, 2) for _, c in near_one]} (unbounded); with C = 2 sqrt 2, eps = 1/2, delta = 1 - 1e-6 the "
               f"exact delta(eps) = 1 - {mpmath.nstr(gap, 3)} > delta: not (eps, delta)-DP")
    findings = (Finding("004 Proposition 11 ('for any eps, delta in (0, 1)', sigma = C L sqrt(log 1/delta)/eps)",
                        "one constant C for every eps, delta in (0, 1)",
                        derived + "; a constant exists for delta bounded away from 1 (e.g. C = 2 sqrt 2 for delta <= 1/2 "
                                  "on the grid), not on all of (0, 1)",
                        "check 004-prop11-gaussian-privacy: exact Gaussian profile (Balle and Wang 2018, Theorem 8) at "
                        "the proof's sensitivity 2L", severity="domain", topic="004 prop11 delta near one"),) \
        if fails and grows else ()
    return ProofCheck(
        "004-prop11-gaussian-privacy", "004 Proposition 11 and its proof (Algorithm 6)",
        "sigma = C L sqrt(log 1/delta)/eps makes LP-Normal-SGD (eps, delta)-label DP for one C and every eps, delta in (0, 1)",
        not findings, derived=derived, printed="for any eps, delta in (0, 1)",
        detail=f"the suite's sigma = L sqrt(2 ln(1.25/delta))/eps = {suite_sigma:.4f} at sensitivity sqrt 2 |x| <= L = sqrt 2 "
               f"(eps = 0.5, delta = 1e-5): exact delta(eps) = {suite_delta:.3e}; smallest sigma "
               f"{smallest_sigma(0.5, 1e-5, math.sqrt(2)):.4f}", findings=findings)


def _debiased(losses, top, E) -> list:
    k = len(top)
    pk = 1 / (E + k - 1)
    s = sum(losses[y] for y in top)
    return [(losses[z] - pk * s) / (1 - k * pk) for z in range(len(losses))]  # 004 eq. (17)


def _lemma20_gap(P, priors, losses, k, E):
    """|L(f; P) − L~(f; P~)| and Pr[y not in Y_k] for an exact finite instance (rows x, columns y)."""
    L_true, L_deb, outside = Fraction(0), Fraction(0), Fraction(0)
    for x, row in enumerate(P):
        top = top_k_exact(priors[x], k)
        C = rr_top_k_channel_exact(priors[x], k, E)
        deb = _debiased(losses[x], top, E)
        for y, pxy in enumerate(row):
            L_true += pxy * losses[x][y]
            L_deb += pxy * sum(C[y][z] * deb[z] for z in top)
            outside += pxy * (y not in top)
    return abs(L_true - L_deb), outside


def _random_lemma20_instance(rng):
    K, X = int(rng.integers(2, 5)), int(rng.integers(1, 4))
    k = int(rng.integers(1, K + 1))
    P = [[Fraction(int(v)) for v in rng.integers(1, 20, size=K)] for _ in range(X)]
    tot = sum(sum(r) for r in P)
    P = [[v / tot for v in r] for r in P]
    priors = [[Fraction(int(v)) for v in rng.integers(1, 50, size=K)] for _ in range(X)]
    losses = [[Fraction(int(v), 100) for v in rng.integers(0, 101, size=K)] for _ in range(X)]
    return K, X, k, P, priors, losses


@proof_check("004-lemma20-population-gap")
def lemma20_population_gap(profile="smoke") -> ProofCheck:
    """Lemma 20: |L(f; P) − L~(f; P~)| <= Pr[y not in Y_k^x] for losses in [0, 1]; equality for 1[y not in Y_k]."""
    rng = as_generator(20040020)
    E = Fraction(3)
    n, bad, tight_ok = grid_size(profile, 20, 200, 1000), [], True
    for _ in range(n):
        K, X, k, P, priors, losses = _random_lemma20_instance(rng)
        gap, outside = _lemma20_gap(P, priors, losses, k, E)
        if gap > outside:
            bad.append((K, k, gap, outside))
        indicator = [[Fraction(int(y not in top_k_exact(priors[x], k))) for y in range(K)] for x in range(X)]
        g1, o1 = _lemma20_gap(P, priors, indicator, k, E)
        tight_ok &= g1 == o1
    ok = not bad and tight_ok
    return ProofCheck(
        "004-lemma20-population-gap", "004 Lemma 20, eq. (19); eq. (17), Lemma 18",
        "|L(f; P) - L~(f; P~)| <= Pr_(x,y)~P[y not in Y_k^x] for a loss with values in [0, 1]", ok,
        derived=f"exact Fractions (e^eps = 3) on {n} random instances (K = 2..4, |X| = 1..3, every k): never above; "
                f"equality for l = 1[y not in Y_k] (tight): {tight_ok}",
        detail=f"violations {bad[:3]}")


@proof_check("004-lemma20-proof-line")
def lemma20_proof_line(profile="smoke") -> ProofCheck:
    """Lemma 20's proof, first line: L~(f; P~) written with l (not l~) inside the expectation over y~."""
    rng = as_generator(20040021)
    E = Fraction(3)
    worst, example = Fraction(0), None
    for _ in range(grid_size(profile, 20, 200, 1000)):
        K, X, k, P, priors, losses = _random_lemma20_instance(rng)
        _, outside = _lemma20_gap(P, priors, losses, k, E)
        if outside or k < 2:
            continue
        true = sum(P[x][y] * losses[x][y] for x in range(X) for y in range(K))
        printed = sum(P[x][y] * sum(rr_top_k_channel_exact(priors[x], k, E)[y][z] * losses[x][z] for z in range(K))
                      for x in range(X) for y in range(K))
        if abs(true - printed) > worst:
            worst, example = abs(true - printed), (K, X, k)
    typo = worst > 0
    derived = (f"with l inside, |E l(f, (x, y)) - E l(f, (x, y~))| is randomized response's bias, not bounded by "
               f"Pr[y not in Y_k]: up to {float(worst):.4f} (instance K, |X|, k = {example}) where Pr[y not in Y_k] = 0 "
               "and Lemma 20's left side is 0; with l~ (the definition of L~(f; P~)) the line is right and the proof "
               "goes through (its next step uses Lemma 18, i.e. l~)")
    findings = (Finding("004 proof of Lemma 20, first line", "|L(f;P) - L~(f;P~)| = |E_P[l(f,(x,y))] - "
                        "E_{P, y~ ~ RRTop-k(y)}[l(f,(x,y~))]|", "E_{P, y~}[l~(f, (x, y~))] (the debiased loss of eq. "
                        "(17)); " + derived, "check 004-lemma20-proof-line: exact Fractions on random instances with "
                        "every label in Y_k", severity="typo", topic="004 lemma20 proof loss"),) if typo else ()
    return ProofCheck("004-lemma20-proof-line", "004 proof of Lemma 20",
                      "|L(f; P) - L~(f; P~)| = |E[l(f, (x, y))] - E[l(f, (x, y~))]| (l, not l~, inside)", not typo,
                      derived=derived, printed="l(f, (x, y~))", findings=findings)
