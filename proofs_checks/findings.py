"""Every discrepancy found in the papers, machine-readable: ``findings()``.

The union of two independent derivations: the findings of the proof-step checks
(:mod:`proofs_checks.proof_steps`, derived here with sympy from the proofs' own terms) and the
records of ``limits.DISCREPANCIES`` (derived inside ``limits``). A record found by both is listed
once, with both sources of evidence. Each finding is a dict with at least ``"source"``,
``"printed"``, ``"derived"`` and ``"evidence"``, plus ``"severity"`` (see
:data:`proofs_checks.proof_steps.base.SEVERITIES`), ``"topic"``, ``"check_id"``, ``"origin"``
(``"proof_steps"``, ``"limits"``, ``"both"``, or ``"text"`` for :data:`TEXT_FINDINGS`) and ``"kind"``:
``"error"`` (the printed statement or step is false) or ``"loose"`` (it holds but is conservative,
:data:`LOOSE_TOPICS`: not a place where the paper is wrong).

:data:`TEXT_FINDINGS` are read off 001's text (quote, place, correction); no proof-step check derives
them, and ``tests/proofs_checks/test_findings.py`` checks the substance of each one (exact enumeration,
sympy, closed forms); the experiments ``pcl2_partition_conditions`` and ``stability_histogram_accuracy``
measure two of them.

References: 003 Table 1, Theorems 7-12 and their proofs; 000 eq. (33); 004 eq. (7), (17), (18); 001 Algorithm 2,
Theorem 2.4, proof of Theorem 3.2 and eq. (1), Lemma A.8, Theorem 1.7; 004 Algorithm 3.
"""

from __future__ import annotations

from .proof_steps import all_checks

__all__ = ["LIMITS_KEY_TO_CHECK", "LOOSE_TOPICS", "TEXT_FINDINGS", "findings"]

#: limits.DISCREPANCIES key -> the proof-step check that re-derives the same discrepancy
LIMITS_KEY_TO_CHECK = {
    "table1_central_regression_privacy_term": "003-table1-central-regressionbounded",
    "table1_local_full_classification": "003-table1-localfull-classification",
    "theorem10_k": "003-thm10-tuning-k",
    "theorem12_h": "003-thm12-tuning-h",
    "eq187_sign": "003-thm11-eq187",
    "section6_p2_remark": "003-p2-remark",
    "eq23_laplace_scale": "003-laplace-privacy",
}

_SEVERITY_OF_AFFECTS = {"rate": "rate", "tuning": "tuning", "mechanism": "privacy", "proof": "typo"}

#: topics whose printed claim holds but is conservative (kind "loose"); every other finding is an error.
#: 001 Algorithm 1's δ: the exact δ(ε) is δ/4, so Theorem 2.4's (ε, δ) is valid, 4x conservative;
#: 003 eq. (126): the factor ½ could be 1 (conservative by 2).
#: 001 Theorem A.13: its δ(n) = ω(2^(−n^(1/4))) is stricter than its proof needs (footnote 3: ω(2^(−√n))).
LOOSE_TOPICS = frozenset({"stability histogram delta", "003 eq126 factor half", "001 thmA13 delta range"})

#: Discrepancies read off the text (001, 003, 004): exact quote, place, correction (substance tested in
#: tests/proofs_checks/test_findings.py).
TEXT_FINDINGS = (
    {"source": "001 proof of Theorem 3.2 (definition of the private estimate)",
     "printed": "η̂_n^ε(x) := η̂_n(x) + w_j, where w_j is the noise added to C(x)",
     "derived": "η̂_n^ε(x) := η̂_n(x) + w_j/N(x) = (Σ_{x_i ∈ C(x)} y_i + w_j)/N(x): Algorithm 2 outputs "
                "1[Σ y_i + w_j > N(x)/2], the plug-in rule of this estimate (not of η̂_n + w_j), and the next "
                "line of the proof (eq. (1)) uses |η̂_n^ε − η̂_n| = |w_j|/N(x)",
     "evidence": "tests/proofs_checks/test_findings.py::test_001_thm32_estimator_is_scaled_by_N (exact rational "
                 "enumeration: the bit equals 1[η̂ + w/N > 1/2] everywhere, 1[η̂ + w > 1/2] differs)",
     "severity": "typo", "topic": "001 thm3.2 estimator scale"},
    {"source": "001 eq. (1) (proof of Theorem 3.2), fourth line",
     "printed": "(1/ε)(E[1/(εN(x)) | 0 < N(x) < M]·Pr(0 < N(x) < M) + E[1/N(x) | N(x) ≥ M]·Pr(N(x) ≥ M))",
     "derived": "(1/ε)(E[1/N(x) | 0 < N(x) < M]·Pr(0 < N(x) < M) + E[1/N(x) | N(x) ≥ M]·Pr(N(x) ≥ M)): the "
                "1/ε is already factored out, so the printed line repeats it (1/ε² on the first term, unequal "
                "to the line before for ε ≠ 1); the final (1/ε)(Pr(N(x) < M) + 1/M) follows from the corrected "
                "line (absorbing + Pr[N(x) = 0] into it needs ε ≤ 1)",
     "evidence": "tests/proofs_checks/test_findings.py::test_001_eq1_repeats_one_over_epsilon (sympy on an exact "
                 "law of N(x): printed − previous line = (1/ε)(1/ε − 1) E[1/N; 0 < N < M])",
     "severity": "typo", "topic": "001 eq1 repeated epsilon"},
    {"source": "001 proof of Lemma A.8 (last line)",
     "printed": "ρ(a, p_i) ≤ r and ρ(b, p_i) ≤ r which, by the triangle inequality, result in ρ(a, b) ≤ r",
     "derived": "ρ(a, b) ≤ 2r, as Lemma A.8 states; ≤ r is false: the 12 icosahedron vertices are a maximal "
                "r-packing of S² for r = arccos(1/√5) and their Voronoi cells have diameter arccos(1/3) > r; "
                "on the suite's packings cells reach ≈ 1.97 r (S²) and √2 r (r Z²)",
     "evidence": "tests/proofs_checks/test_findings.py::test_001_lemma_a8_proof_bound_is_2r (sympy, icosahedron); "
                 "experiment pcl2_partition_conditions (exact spherical Voronoi diameters)",
     "severity": "typo", "topic": "001 lemma A.8 proof"},
    {"source": "001 Theorem 2.4 (accuracy of Algorithm 1)",
     "printed": "E|ĉ(x) − count_S(x)| ≤ O((1/ε)·min{log(1/δ), count_S(x)}), with no range for ε",
     "derived": "for ε ≤ 2 the constant is sup_c ε E|ĉ − c| / min{ln(1/δ), c} ≤ 2 + (2 ln 2 + ε)/ln(1/δ) (→ 2 "
                "as δ → 0); for ε > 1 none works: T = (2/ε) ln(2/δ) + 1 > 1 zeroes a count of 1 with probability "
                "1 − δ/4, so the ratio at c = 1 is ≥ ε(1 − δ/4), unbounded in ε; the statement needs ε bounded "
                "(e.g. ε ≤ 1, as 001 Theorems A.6 and A.13 assume)",
     "evidence": "tests/proofs_checks/test_findings.py::test_001_thm24_constant_grows_with_epsilon (mpmath "
                 "quadrature of E|ĉ − 1|); experiment stability_histogram_accuracy (exact constant over ε, δ)",
     "severity": "domain", "topic": "001 thm2.4 epsilon range"},
    {"source": "001 Theorem 1.7 (hypothesis on δ), its proof via Algorithm 3, and eq. (5)",
     "printed": "Theorem 1.7: for δ(n) = ω(2^−√n) there is an (ε, δ(n))-DP universally consistent density "
                "estimator over R^d; the proof offers Algorithm 3 (PCDE, cube side n^(−1/2)) as that estimator",
     "derived": "Theorem 1.7 is existential and is not refuted here. What is shown is that its proof does not "
                "cover the stated range: the privacy term T^d ln(1/δ)/(ε√n) in eq. (5) vanishes only if "
                "ln(1/δ) = o(√n). At δ = 2^(−√n/2), which is ω(2^−√n), Algorithm 3 with its stated cube side "
                "has threshold (2/ε) ln(2/δ) + 1 > (ln 2/ε)√n, more than the expected count √n f(x) of every "
                "cube wherever f < ln 2/ε: it releases nothing and its TV stays ½ (standard normal, ε = 1: at "
                "every n). The proof's hypothesis should read δ(n) = 2^(−o(√n))",
     "evidence": "tests/proofs_checks/test_findings.py::test_001_thm17_delta_condition_too_weak (exact threshold "
                 "vs the largest expected cube count); experiment delta_decaying (measured TV ½ up to n = 3.2e6)",
     "severity": "domain", "topic": "001 thm1.7 delta condition"},
    {"source": "001 Theorem A.13 (hypothesis on δ) and footnote 3 (in the proof of Theorem A.15)",
     "printed": "Theorem A.13: δ(n) = ω(2^(−n^(1/4))); footnote 3, on the same proof: 'δ can decay exponentially "
                "fast as a function of M and hence also as a function of n, allowing the same δ(n) = ω(2^(−√n)) "
                "dependency as in Theorem 1.7'",
     "derived": "the two ranges differ: δ = 2^(−√n/2) is ω(2^(−√n)) but not ω(2^(−n^(1/4))). The footnote's is the "
                "one the proof supports: (12) needs Pr[N(x) <= k(n)] -> 0 with k(n) ∝ ln(1/δ), and Lemma A.9's "
                "bound (2k+4)(4θ)^d/n^(3/4) + Pr(T̄) with θ = n^(1/(2d)) gives k = o(n^(1/4)) (the theorem's range), "
                "but any θ -> ∞ works, and θ = n^(1/(8d)) gives k = o(n^(5/8)), covering ln(1/δ) ∝ √n. Theorem "
                "A.13 holds as printed with a stricter hypothesis than needed; PCL2b is measured consistent at "
                "δ = 2^(−√n/2) and at δ = 2^(−n^(1/4)/2)",
     "evidence": "tests/proofs_checks/test_findings.py::test_001_thmA13_delta_range_is_footnote3s (sympy limits "
                 "of the δ ratios and of Lemma A.9's bound at k ∝ √n for both θ); experiment delta_decaying "
                 "(PCL2b at both δ)",
     "severity": "domain", "topic": "001 thmA13 delta range"},
    {"source": "004 Algorithm 3 (LP-MST), step 3(b)i",
     "printed": "Let p = (p1, ..., pK) be the probabilities predicted by M(t) on x_i",
     "derived": "M(t−1): M(t) is trained in step 3(c), after the labels of stage t are randomized (and stage 1 "
                "must use the trivial M(0) of step 2); the text above the algorithm says 'we use the most "
                "recent model M(t−1) to assign the probabilities'",
     "evidence": "tests/proofs_checks/test_findings.py::test_004_alg3_stage1_prior_is_m0 (with M(0)'s uniform "
                 "prior RRWithPrior is exactly randomized response, so LP-1ST = RR as 004 states)",
     "severity": "typo", "topic": "004 alg3 model index"},
    {"source": "004 Theorem 17, eq. (18), and its proof (eq. (24): Lemma 21 applied to ℓ̃ ∘ F)",
     "printed": "|L̃(f; S̃) − L(f; P)| ≤ 2L·(1 + k·p_{k,ε})/(1 − k·p_{k,ε})·R_{n,P_X}(F) + √(log(2/β)/(2n)) + "
                "Pr[y ∉ Y_k^x]; the proof applies Lemma 21 (stated for F ⊆ {f : V → [0, 1]}) to "
                "'ℓ̃ ∘ F := {g : X × Y → [0, 1], ...}'",
     "derived": "ℓ̃ of eq. (17) does not map into [0, 1]: with ℓ ∈ [0, 1] and ỹ ∈ Y_k it ranges over "
                "[−(k−1)p/(1−kp), (1−p)/(1−kp)], of width W = (1 + (k−2)p)/(1 − kp) > 1 (k ≥ 2), so the "
                "confidence term must be W·√(log(2/β)/(2n)) (bounded differences W/n). As printed, (18) fails: for "
                "F = {f ≡ 0} (R_n = 0), K = k = 2, y uniform, ℓ(t, y) = (t − y)², ε = 1, n = 1000, β = 0.05 it is "
                "violated with probability 0.2174 (0.5067 at ε = 0.5), exactly; with W it holds (0.0072). (Lemma 21 as "
                "printed gives √(ln(2/β)/n), not (18)'s √(log(2/β)/(2n)); the latter is the standard term for "
                "[0, 1]-valued classes.)",
     "evidence": "tests/proofs_checks/test_findings.py::test_004_thm17_debiased_loss_range (exact binomial tails in "
                 "fractions; the range of ℓ̃ by enumeration); experiment debiased_erm_topk (measured violation "
                 "frequencies)",
     "severity": "constant", "topic": "004 thm17 debiased loss range"},
    {"source": "003 proof of Theorem 2, line 543 (before eq. (74))",
     "printed": "From Assumption 1(c), p(B_l) ≥ cNh^d",
     "derived": "p(B_l) ≥ c·h^d: a cube of side h holds mass at least c·h^d where f ≥ c; cNh^d is the expected "
                "count N·c·h^d, and a probability cannot exceed 1 while cNh^d → ∞ at the theorem's h; (72)-(74) then "
                "use cNh^d in place of N·p(B_l) ≥ cNh^d, which is what the step needs",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_thm2_cube_mass_is_c_h_d (exact: uniform f on "
                 "[0, 1]^d, p(B_l) = h^d < cNh^d once N > 1)",
     "severity": "typo", "topic": "003 thm2 cube mass"},
    {"source": "003 proof of Theorem 2, line 530 (before eq. (63))",
     "printed": "for any x, x' ∈ B_l, the distance is bounded by ‖x − x'‖ ≤ √d L",
     "derived": "‖x − x'‖ ≤ √d h, the diameter of a cube of side h; L is Assumption 1(a)'s Hölder constant, not a "
                "length; (63)'s L_d h^β = L√d h^β follows from √d h (|η(x) − η(x')| ≤ L(√d h)^β ≤ L√d h^β for β ≤ 1)",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_thm2_cube_diameter_is_sqrt_d_h (exact diameter of "
                 "[0, h]^d; the printed bound fails whenever L < h)",
     "severity": "typo", "topic": "003 thm2 cube diameter"},
    {"source": "003 eq. (13) (the vector-mechanism bin classifier of Theorem 2)",
     "printed": "c_l = arg max_j S_lj, with no rule for ties",
     "derived": "S_lj are integer sums of privatized bits, so ties have positive probability at every finite N "
                "(two labels, one sample: P(S_l1 = S_l2) = 2q(1 − q) > 0 with q = 1/(1 + e^(ε/2)), → ½ as ε → 0) and arg max is then a set; a rule is needed "
                "(any fixed one keeps the proof's bound, whose step 'v* − v_c = 0 or ≥ Δ_l' holds for every choice); "
                "the suite takes the smallest index (numpy's argmax)",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_eq13_ties_have_positive_probability (exact "
                 "enumeration of the K-bit vector mechanism's outputs)",
     "severity": "typo", "topic": "003 eq13 tie rule"},
    {"source": "003 proof of Theorem 1 (eqs. (35)-(37)) and of Theorem 3 (Appendix D), Assumption 1(a)-(b)",
     "printed": "a bump φ supported on [−1/2, 1/2]^d with 0 ≤ φ ≤ 1 and m ≤ C_M h^(γβ−d) bumps make η_v satisfy "
                "Assumption 1(b) (for every β and γ the theorems allow)",
     "derived": "η_v must be β-Hölder (Assumption 1(a)), so φ vanishes at most like dist(u, ∂)^β at the edge of its "
                "support and P(0 < φ(U) < s) ≥ c s^(1/β); then P(0 < |η_v| < t) ≥ C h^(γβ−1) t^(1/β), which exceeds "
                "M t^γ as t → 0 unless γβ ≤ 1: the construction needs γβ ≤ 1, a restriction Theorems 1 and 3 do "
                "not state (for the bumps (1 − |2u|)^b, b ≥ β: P(0 < φ(U) < s) = s^(1/b) exactly)",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_lower_bound_construction_needs_gamma_beta_le_1 "
                 "(sympy: the exact margin ratio of the bump family is bounded iff γb ≤ 1)",
     "severity": "domain", "topic": "003 lower bound gamma beta"},
    {"source": "003 Appendix L (proof of Theorem 11), 'we then follow the proof of Theorem 3 in Appendix D' "
               "(eqs. (94)-(99) with the law (156))",
     "printed": "by Berry-Esseen theorem, for some absolute constant C_E (eq. (94)), reused for the three-point "
                "law (156)",
     "derived": "for (156) the Berry-Esseen constant is C_0·E|Y − EY|³/σ³, which at η_v = 0 equals "
                "C_0 (T^p/M_p)^(1/2): not absolute, it grows with T ~ h^(−β/(p−1)), so the window "
                "16C_E² < n_k < ln 2/(ε a_k) of (96)-(99) can be empty (for M_p = 4, p = 2 the window needs "
                "ε ≲ 0.28); the printed proof does not check it",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_appendix_l_berry_esseen_ratio_grows (sympy: the "
                 "exact standardized third moment of (156)); limits.lower_bounds and rates_lower_bounds' notes",
     "severity": "domain", "topic": "003 appendix L Berry-Esseen"},
    {"source": "003 Lemma 1 (eq. (91), Appendix D) and Lemma 3 (eq. (183), Appendix L)",
     "printed": "If 0 <= t <= ln 2/(ε n_k) and n_k t is an integer, then P(V̂_k = 1 | X_{1:N}, Ȳ_k = −t) + "
                "P(V̂_k = −1 | X_{1:N}, Ȳ_k = t) >= 2/3 (Lemma 3: t <= T ln 2/(ε n_k), labels in {−T, 0, T})",
     "derived": "the proof (eqs. (92)-(93), step (b) 'the algorithm does not change') bounds P(V̂(D) = 1) + "
                "P(V̂(D') = −1) for a data set D and the D' obtained by flipping l = n_k t of its labels: that "
                "per-dataset form holds. Conditioned on Ȳ_k alone it needs the labels given Ȳ_k to be coupled "
                "by l flips (e.g. exchangeable: constant |η| on the cube's samples); with |η| varying over the "
                "samples it fails: n_k = 3, |η(X_i)| = (1, 1, 0), ε = ln 2, t = 1/3 gives the labellings "
                "(−,−,+) and (+,+,−) given Ȳ_k = ∓1/3, three labels apart, and an ε-DP test with total error "
                "1/3 < 2/3 (|η| = (0.9, 0.9, 0.9, 0, 0): 0.444). In Theorems 3 and 11, |η| <= h^β is small, where "
                "the exact LP found no failure (|η_i| <= 0.7 at n_k <= 5)",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_lemma1_conditioning_fails_with_varying_eta (the "
                 "hand test achieving 1/3, checked ε-DP by enumeration); experiment lemma_tests_lp (exact LP)",
     "severity": "domain", "topic": "003 lemma1 conditioning"},
    {"source": "003 proof of Lemma 3, eq. (184)",
     "printed": "Ȳ'_k = −t + 2l/n_k after changing l = n_k t/T labels from −T to T",
     "derived": "Ȳ'_k = −t + 2lT/n_k = t: each change moves the mean by 2T/n_k; −t + 2l/n_k = −t + 2t/T "
                "equals t only for T = 1 (eq. (92)'s ±1 labels, copied)",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_eq184_mean_shift_is_2lT_over_n (exact "
                 "fractions on a labelling with T = 3)",
     "severity": "typo", "topic": "003 eq184 mean shift"},
    {"source": "003 eq. (126) (proof of Theorem 5, Appendix F)",
     "printed": "∫_{B_k} (η̂ − η_v)² ≥ ½ ∫ φ² h^(2β) f = ½ c h^(2β+d) ‖φ‖₂², from (125)",
     "derived": "(125) and the triangle inequality give ‖η̂ − η_v‖ ≥ ‖φ h^β‖, so the factor is 1, not ½ (attained "
                "by η̂ = 0): the bound holds and is conservative by 2",
     "evidence": "tests/proofs_checks/test_findings.py::test_003_eq126_factor_is_one (exact: every η̂ with (125) "
                 "satisfies the bound with factor 1, and η̂ = 0 attains it)",
     "severity": "constant", "topic": "003 eq126 factor half"},
)


def _limits_records() -> list[dict]:
    import limits

    return list(limits.discrepancies())


def findings(profile: str = "smoke") -> list[dict]:
    """Every discrepancy found in the papers, most severe first, as dicts (see the module docstring).

    Parameters
    ----------
    profile : {"smoke", "quick", "paper"}, default "smoke"
        Size of the numeric grids of the proof-step checks (``"smoke"`` suffices to establish every
        finding; larger profiles only search more instances).

    Returns
    -------
    list of dict
        Keys ``source, printed, derived, evidence, severity, topic, check_id, origin, kind``; sorted
        by :data:`proofs_checks.proof_steps.base.SEVERITIES` (records found both by a proof-step
        check and by ``limits`` appear once, with ``origin="both"``).

    Raises
    ------
    ValueError
        An unknown ``profile``.

    References
    ----------
    003 Table 1, Theorems 7-12 and their proofs; 000 eq. (33); 004 eq. (7), (17), Algorithm 3;
    001 Algorithm 1-2, Theorems 1.7, 2.4, 3.2, A.13, Lemma A.8, footnote 3.

    Examples
    --------
    Running every check takes a few CPU seconds (sympy); the records read off the text are constant:

    >>> [f["topic"] for f in TEXT_FINDINGS][-1], sorted({f["severity"] for f in TEXT_FINDINGS})
    ('003 eq126 factor half', ['constant', 'domain', 'typo'])
    >>> findings("huge")
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['smoke', 'quick', 'paper'], got profile='huge'
    """
    from .proof_steps.base import SEVERITIES

    out, by_check = [], {}
    for check in all_checks(profile):
        for f in check.findings:
            rec = f.to_dict() | {"check_id": check.check_id, "origin": "proof_steps"}
            out.append(rec)
            by_check.setdefault(check.check_id, []).append(rec)
    for rec in _limits_records():
        twin = LIMITS_KEY_TO_CHECK.get(rec.get("key"))
        if twin in by_check:  # the same discrepancy, derived twice: keep one record, both evidences
            for mine in by_check[twin]:
                mine["origin"] = "both"
                mine["evidence"] += f"; independently recorded as limits.DISCREPANCIES[{rec['key']!r}]: {rec['evidence']}"
            continue
        affects = rec.get("affects") or ("proof",)
        out.append({"source": rec["source"], "printed": rec.get("printed_text", rec.get("printed", "")),
                    "derived": rec.get("derived_text", rec.get("derived", "")),
                    "evidence": f"limits.DISCREPANCIES[{rec.get('key')!r}]: {rec.get('evidence', '')}",
                    "severity": _SEVERITY_OF_AFFECTS.get(affects[0], "typo"), "topic": rec.get("key", ""),
                    "check_id": "", "origin": "limits"})
    out.extend(dict(rec, check_id="", origin="text") for rec in TEXT_FINDINGS)
    for rec in out:
        rec["kind"] = "loose" if rec["topic"] in LOOSE_TOPICS else "error"
    out.sort(key=lambda r: SEVERITIES.index(r["severity"]) if r["severity"] in SEVERITIES else len(SEVERITIES))
    return out
