"""003: every tuning rule and rate, re-derived from the proofs' own error terms (item 3).

For each upper bound (Theorems 2, 4, 6, 8, 10, 12) the error terms are transcribed from the proof
(eqs. (83), (118), (140), (153), (180), (193)); the tuning variables (h, k, T) are chosen by
balancing the terms with ``sympy.solve`` (see :mod:`.monomials`), and the resulting tuning and
rate are compared with the theorem statement and the proof's final lines. Each lower bound
(Theorems 1, 3, 5, 7, 9, 11) is re-derived from the proof's defining equation for h ((48)-(49),
(100)-(101), (128), (101)+(143), (161)-(162), (186)-(188)); the twelve cells of Table 1 are
compared with the derived upper and lower rates (log factors dropped, since the table writes
Õ). Symbols: ``eps`` is eps ∧ 1 in the local model (where the proofs use 1 + 8/eps^2,
(e^eps - 1)^2 ∧ 3 or (e^eps/2 + 1)/(e^eps/2 - 1), all ≍ (eps ∧ 1)^-2 or (eps ∧ 1)^-1), L = ln K.

References: 003 Theorems 1-12, Table 1, Appendices B-M.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import sympy as sp

from .base import Finding, ProofCheck, proof_check
from .monomials import SYM, canonical_form, exponents, fmt, monomial, minimize_terms, same_monomial, same_terms, show, solve_equal

__all__ = ["LOWER", "TABLE1", "UPPER", "derive_lower", "derive_upper", "rate_exponents"]

N, eps, h, k, T, beta, d, gamma, p, L = (SYM[s] for s in "N eps h k T beta d gamma p L".split())
_g1 = gamma + 1


@dataclass(frozen=True)
class Printed:
    """A printed expression: the paper's text, where it is printed, and its terms (a sum / ∨)."""

    text: str
    where: str
    terms: tuple


@dataclass(frozen=True)
class UpperBound:
    theorem: str
    proof_terms_eq: str
    terms: tuple  # error terms of the proof, up to constants
    variables: tuple  # tuning variables, innermost first
    tuning: dict  # variable -> list[Printed] (statement and proof)
    rate: list  # list[Printed]
    setting: str  # Table 1 key
    notes: str = ""


@dataclass(frozen=True)
class LowerBound:
    theorem: str
    setting: str
    h_equation: tuple  # (lhs, rhs) in h whose solution is the proof's h
    h_equation_eq: str
    h_printed: Printed
    rate_of_h: object  # the proof's risk as a function of h
    rate_eq: str
    standard_terms: tuple  # non-private terms quoted from the literature ((103), (145), ...)
    rate: Printed
    substitutions: dict = field(default_factory=dict)  # e.g. T -> h^(-beta/(p-1))


UPPER = {
    "thm2": UpperBound(
        "Theorem 2", "(83)",
        ((L / (eps**2 * N * h**d)) ** (_g1 / 2), h ** (beta * _g1)), (h,),
        {h: [Printed("h ~ (N(eps^2∧1)/ln K)^(-1/(2beta+d))", "Theorem 2 and eq. (84)",
                     ((N * eps**2 / L) ** (-1 / (2 * beta + d)),))]},
        [Printed("(N(eps^2∧1)/ln K)^(-beta(gamma+1)/(2beta+d))", "eq. (14) and (85)",
                 ((N * eps**2 / L) ** (-beta * _g1 / (2 * beta + d)),))],
        "local classification"),
    "thm4": UpperBound(
        "Theorem 4", "(118)",
        ((L / (eps * N * h**d)) ** _g1, (L / (N * h**d)) ** (_g1 / 2), h ** (beta * _g1)), (h,),
        {h: [Printed("h ~ (ln K/(eps N))^(1/(beta+d)) + (ln K/N)^(1/(2beta+d))", "Theorem 4 and eq. (119)",
                     ((L / (eps * N)) ** (1 / (beta + d)), (L / N) ** (1 / (2 * beta + d))))]},
        [Printed("(N/ln K)^(-beta(gamma+1)/(2beta+d)) + (eps N/ln K)^(-beta(gamma+1)/(beta+d))", "eq. (18) and (120)",
                 ((N / L) ** (-beta * _g1 / (2 * beta + d)), (eps * N / L) ** (-beta * _g1 / (beta + d))))],
        "central classification",
        "(118) is (A + B + C)^(gamma+1), split as A^(gamma+1) + B^(gamma+1) + C^(gamma+1) (equivalent up to constants)."),
    "thm6": UpperBound(
        "Theorem 6", "(140)",
        (1 / (k * eps**2), (k / N) ** (2 * beta / d)), (k,),
        {k: [Printed("k ~ N^(2beta/(d+2beta)) (eps∧1)^(-2d/(d+2beta))", "Theorem 6 and eq. (141)",
                     (N ** (2 * beta / (d + 2 * beta)) * eps ** (-2 * d / (d + 2 * beta)),))]},
        [Printed("(N(eps^2∧1))^(-2beta/(d+2beta))", "eq. (21) and (142)",
                 ((N * eps**2) ** (-2 * beta / (d + 2 * beta)),))],
        "local regression bounded",
        "T^2 (1 + 8/eps^2)/k ≍ 1/(k (eps∧1)^2) with T fixed (Assumption 2)."),
    "thm8": UpperBound(
        "Theorem 8", "(153)",
        (h ** (2 * beta), 1 / (N * h**d), 1 / (N**2 * h ** (2 * d) * eps**2)), (h,),
        {h: [Printed("h ~ N^(-1/(2beta+d)) + (eps N)^(-1/(d+beta))", "Theorem 8 and eq. (154)",
                     (N ** (-1 / (2 * beta + d)), (eps * N) ** (-1 / (d + beta))))]},
        [Printed("N^(-2beta/(2beta+d)) + (eps N)^(-2beta/(d+beta))", "eq. (24) and (155)",
                 (N ** (-2 * beta / (2 * beta + d)), (eps * N) ** (-2 * beta / (d + beta))))],
        "central regression bounded"),
    "thm10": UpperBound(
        "Theorem 10", "(180)",
        (T ** (2 * (1 - p)), 1 / k, T**2 / (k * eps**2), (k / N) ** (2 * beta / d)), (T, k),
        {T: [Printed("T ~ (k eps^2)^(1/(2p))", "Theorem 10 and eq. (181)", ((k * eps**2) ** (1 / (2 * p)),))],
         k: [Printed("k ~ (N eps^2)^(2p beta/(2p beta+d(p-1))) ∨ N^(2beta/(2beta+d))", "Theorem 10 and eq. (181)",
                     ((N * eps**2) ** (2 * p * beta / (2 * p * beta + d * (p - 1))), N ** (2 * beta / (2 * beta + d))))]},
        [Printed("(N eps^2)^(-2beta(p-1)/(2p beta+d(p-1))) ∨ N^(-2beta/(2beta+d))", "eq. (26) and (182)",
                 ((N * eps**2) ** (-2 * beta * (p - 1) / (2 * p * beta + d * (p - 1))), N ** (-2 * beta / (2 * beta + d))))],
        "local regression heavy"),
    "thm12": UpperBound(
        "Theorem 12", "(193)",
        (h ** (2 * beta), T ** (2 * (1 - p)), T**2 / (N**2 * h ** (2 * d) * eps**2), 1 / (N * h**d)), (T, h),
        {T: [Printed("T ~ (eps N h^d)^(1/p)", "Theorem 12 and eq. (194)", ((eps * N * h**d) ** (1 / p),))],
         h: [Printed("h ~ N^(-1/(2beta+d)) + (eps N)^(-1/(p beta+d(p-1)))", "Theorem 12 statement",
                     (N ** (-1 / (2 * beta + d)), (eps * N) ** (-1 / (p * beta + d * (p - 1))))),
             Printed("h ~ N^(-1/(2beta+d)) + (eps N)^(-(p-1)/(p beta+d(p-1)))", "eq. (195)",
                     (N ** (-1 / (2 * beta + d)), (eps * N) ** (-(p - 1) / (p * beta + d * (p - 1)))))]},
        [Printed("N^(-2beta/(2beta+d)) + (eps N)^(-2beta(p-1)/(p beta+d(p-1)))", "eq. (29) and (196)",
                 (N ** (-2 * beta / (2 * beta + d)), (eps * N) ** (-2 * beta * (p - 1) / (p * beta + d * (p - 1)))))],
        "central regression heavy"),
}

_nonpriv_cls = N ** (-beta * _g1 / (2 * beta + d))
_nonpriv_reg = N ** (-2 * beta / (2 * beta + d))
_T11 = h ** (-beta / (p - 1))  # (156)/(159): T ~ h^(-beta/(p-1)), used in (161) and (187)

LOWER = {
    "thm1": LowerBound("Theorem 1", "local classification", (N * eps**2 * h ** (2 * beta + d), sp.Integer(1)),
                       "(48): delta ≲ N (eps^2∧1) h^(2beta+d), set delta ≍ 1",
                       Printed("h ~ (N(eps^2∧1))^(-1/(2beta+d))", "eq. (49)", ((N * eps**2) ** (-1 / (2 * beta + d)),)),
                       h ** (beta + d) * h ** (gamma * beta - d), "(42)+(50)-(51): h^(beta+d) m with m ~ h^(gamma beta-d)", (),
                       Printed("[N(eps^2∧1)]^(-beta(gamma+1)/(2beta+d))", "eq. (10) and (51)",
                               ((N * eps**2) ** (-beta * _g1 / (2 * beta + d)),))),
    "thm3": LowerBound("Theorem 3", "central classification", (N * h**d, 1 / (eps * h**beta)),
                       "(100): 2Nc h^d = ln 2/(eps h^beta)",
                       Printed("h ~ (eps N)^(-1/(d+beta))", "eq. (101)", ((eps * N) ** (-1 / (d + beta)),)),
                       h ** (beta * _g1), "(102): h^(beta(gamma+1))", (_nonpriv_cls,),
                       Printed("N^(-beta(gamma+1)/(2beta+d)) + (eps N)^(-beta(gamma+1)/(beta+d))", "eq. (16) and (104)",
                               (_nonpriv_cls, (eps * N) ** (-beta * _g1 / (beta + d))))),
    "thm5": LowerBound("Theorem 5", "local regression bounded", (N * eps**2 * h ** (2 * beta + d), sp.Integer(1)),
                       "(48) reused in Appendix F: delta ≲ N (eps∧1)^2 h^(2beta+d), set delta ≍ 1",
                       Printed("h ~ (N(eps∧1)^2)^(-1/(2beta+d))", "eq. (128)", ((N * eps**2) ** (-1 / (2 * beta + d)),)),
                       h ** (2 * beta + d) * h ** (-d), "(127)+(129): h^(2beta+d) G with G ~ h^(-d)", (),
                       Printed("(N(eps^2∧1))^(-2beta/(d+2beta))", "eq. (19) and (130)",
                               ((N * eps**2) ** (-2 * beta / (d + 2 * beta)),))),
    "thm7": LowerBound("Theorem 7", "central regression bounded", (N * h**d, 1 / (eps * h**beta)),
                       "(101) reused in Appendix H (from (100))",
                       Printed("h ~ (eps N)^(-1/(d+beta))", "eq. (101), Appendix H", ((eps * N) ** (-1 / (d + beta)),)),
                       h ** (2 * beta + d) * h ** (-d), "(143)-(144): h^(2beta+d) G with G ~ h^(-d)", (_nonpriv_reg,),
                       Printed("N^(-2beta/(2beta+d)) + (eps N)^(-2beta/(d+beta))", "eq. (22) and (146)",
                               (_nonpriv_reg, (eps * N) ** (-2 * beta / (d + beta))))),
    "thm9": LowerBound("Theorem 9", "local regression heavy",
                       (N * eps**2 * h ** (2 * beta + d) * _T11 ** (-2), sp.Integer(1)),
                       "(161): delta ≲ N (e^eps-1)^2 h^(2beta+d) T^-2 with T ~ h^(-beta/(p-1)) (159)",
                       Printed("h ~ (N(e^eps-1)^2)^(-(p-1)/(2p beta+d(p-1)))", "eq. (162)",
                               ((N * eps**2) ** (-(p - 1) / (2 * p * beta + d * (p - 1))),)),
                       h ** (2 * beta), "(163): h^(2beta)", (_nonpriv_reg,),
                       Printed("(N(e^eps-1)^2)^(-2beta(p-1)/(2p beta+d(p-1))) + N^(-2beta/(2beta+d))", "eq. (25)",
                               ((N * eps**2) ** (-2 * beta * (p - 1) / (2 * p * beta + d * (p - 1))), _nonpriv_reg))),
    "thm11": LowerBound("Theorem 11", "central regression heavy", (h ** (beta + d), _T11 / (eps * N)),
                        "(186): h ~ (eps N/T)^(-1/(d+beta)) with T ~ h^(-beta/(p-1)) (line 712)",
                        Printed("h ~ (eps N)^(-(p-1)/(p beta+d(p-1)))", "eq. (188)",
                                ((eps * N) ** (-(p - 1) / (p * beta + d * (p - 1))),)),
                        h ** (2 * beta), "(189): h^(2beta) (as in (144))", (_nonpriv_reg,),
                        Printed("N^(-2beta/(2beta+d)) + (eps N)^(-2beta(p-1)/(p beta+d(p-1)))", "eq. (27) and (189)",
                                (_nonpriv_reg, (eps * N) ** (-2 * beta * (p - 1) / (p * beta + d * (p - 1)))))),
}

#: Table 1 of 003 as printed (log factors of Õ dropped): (row, column) -> Printed
TABLE1 = {
    ("local", "classification"): Printed("Õ((N(eps^2∧1))^(-beta(gamma+1)/(2beta+d)))", "003 Table 1",
                                         ((N * eps**2) ** (-beta * _g1 / (2 * beta + d)),)),
    ("local", "regression bounded"): Printed("Õ((N(eps^2∧1))^(-2beta/(d+2beta)))", "003 Table 1",
                                             ((N * eps**2) ** (-2 * beta / (d + 2 * beta)),)),
    ("local", "regression heavy"): Printed("O((N eps^2)^(-2beta(p-1)/(2p beta+d(p-1))) ∨ N^(-2beta/(2beta+d)))",
                                           "003 Table 1",
                                           ((N * eps**2) ** (-2 * beta * (p - 1) / (2 * p * beta + d * (p - 1))), _nonpriv_reg)),
    ("central", "classification"): Printed("Õ(N^(-beta(gamma+1)/(2beta+d)) + (eps N)^(-beta(gamma+1)/(beta+d)))",
                                           "003 Table 1", (_nonpriv_cls, (eps * N) ** (-beta * _g1 / (beta + d)))),
    ("central", "regression bounded"): Printed("O(N^(-2beta/(2beta+d)) + (eps N)^(-2beta/(d+2beta)))", "003 Table 1",
                                               (_nonpriv_reg, (eps * N) ** (-2 * beta / (d + 2 * beta)))),
    ("central", "regression heavy"): Printed("O(N^(-2beta/(2beta+d)) + (eps N)^(-2beta(p-1)/(p beta+d(p-1))))",
                                             "003 Table 1",
                                             (_nonpriv_reg, (eps * N) ** (-2 * beta * (p - 1) / (p * beta + d * (p - 1))))),
    ("local full", "classification"): Printed("O((N(eps^2∧1))^(-beta(gamma+1)/(2beta+d)))", "003 Table 1",
                                              ((N * eps**2) ** (-beta * _g1 / (2 * beta + d)),)),
    ("local full", "regression bounded"): Printed("O((N(eps^2∧1))^(-beta/(beta+d)))", "003 Table 1",
                                                  ((N * eps**2) ** (-beta / (beta + d)),)),
    ("local full", "regression heavy"): Printed("O((N(eps^2∧1))^(-beta(p-1)/(p beta+d(p-1))))", "003 Table 1",
                                                ((N * eps**2) ** (-beta * (p - 1) / (p * beta + d * (p - 1))),)),
    ("non-private", "classification"): Printed("O(N^(-beta(gamma+1)/(2beta+d)))", "003 Table 1", (_nonpriv_cls,)),
    ("non-private", "regression bounded"): Printed("O(N^(-2beta/(2beta+d)))", "003 Table 1", (_nonpriv_reg,)),
    ("non-private", "regression heavy"): Printed("O(N^(-2beta/(2beta+d)))", "003 Table 1", (_nonpriv_reg,)),
}

TABLE1 = {key: Printed(pr.text, f"003 Table 1 ({key[0]}, {key[1]})", pr.terms) for key, pr in TABLE1.items()}

#: 003 Remark 1(2): full local DP classification (features and labels private)
REMARK1_FULL_LOCAL_CLS = Printed("(N eps^2)^(-beta(gamma+1)/(2beta+2d)) ∨ N^(-beta(gamma+1)/(2beta+d))",
                                 "003 Remark 1(2), lines 202-203",
                                 ((N * eps**2) ** (-beta * _g1 / (2 * beta + 2 * d)), _nonpriv_cls))


@lru_cache(maxsize=None)
def derive_upper(key: str):
    r"""Balance an upper-bound proof's error terms: the tunings and the rate they give.

    Inner variables are optimized first with the outer ones held fixed; the tuning of an inner
    variable is reported as a function of the outer ones (as the theorems state T).

    Parameters
    ----------
    key : str
        A key of :data:`UPPER`: ``"thm2"``, ``"thm4"``, ``"thm6"``, ``"thm8"``, ``"thm10"``, ``"thm12"``.

    Returns
    -------
    tunings : dict
        ``{variable: (crossing points, kind)}`` as :func:`.monomials.minimize_terms`.
    rate_terms : tuple of sympy expression
        The balanced error terms (the rate, up to constants).

    Raises
    ------
    KeyError
        An unknown ``key``.

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12 and their proofs' error terms, eqs. (83), (118), (140), (153),
    (180), (193).

    Examples
    --------
    003 Theorem 6 (local label DP, bounded-noise regression): rate
    :math:`(N\varepsilon^2)^{-2\beta/(d+2\beta)}` (eq. (21), (142)).

    >>> tunings, rate = derive_upper("thm6")
    >>> same_terms(rate, [(N * eps**2)**(-2*beta/(d + 2*beta))])
    True
    """
    spec = UPPER[key]
    terms = list(spec.terms)
    tunings = {}
    for var in spec.variables:
        with_var = [t for t in terms if var in exponents(t)]
        rest = [t for t in terms if var not in exponents(t)]
        points, values, kind = minimize_terms(with_var, var)
        tunings[var] = (points, kind)
        terms = values + rest
    # remove duplicates (equal monomials) that different pairs may produce
    out = []
    for t in terms:
        if not any(same_monomial(t, u) for u in out):
            out.append(t)
    return tunings, tuple(out)


@lru_cache(maxsize=None)
def derive_lower(key: str):
    r"""Solve a lower-bound proof's equation for h and plug it into the proof's risk.

    Parameters
    ----------
    key : str
        A key of :data:`LOWER`: ``"thm1"``, ``"thm3"``, ``"thm5"``, ``"thm7"``, ``"thm9"``, ``"thm11"``.

    Returns
    -------
    h : sympy expression
        The proof's h, a monomial in N and ε.
    rate_terms : tuple of sympy expression
        The private term at that h, followed by the non-private terms the proof quotes.

    Raises
    ------
    KeyError
        An unknown ``key``.
    ValueError
        If the proof's equation has no unique solution in h.

    References
    ----------
    003 Theorems 1, 3, 5, 7, 9, 11 (Appendices B-L); eq. (101), (143) for Theorem 7.

    Examples
    --------
    003 Theorem 7 (central label DP, bounded noise): :math:`(\varepsilon N)^{-2\beta/(d+\beta)}`
    plus the non-private :math:`N^{-2\beta/(2\beta+d)}`, which Table 1 misprints as
    :math:`-2\beta/(d+2\beta)` in the privacy term.

    >>> h_star, rate = derive_lower("thm7")
    >>> same_terms(rate, [(eps * N)**(-2*beta/(d + beta)), N**(-2*beta/(2*beta + d))])
    True
    """
    spec = LOWER[key]
    hh = solve_equal(spec.h_equation[0], spec.h_equation[1], h)
    private = sp.powsimp(spec.rate_of_h.subs(h, hh), force=True)
    return hh, (private,) + tuple(spec.standard_terms)


def _drop_logs(terms):
    return tuple(sp.powsimp(t.subs(L, 1), force=True) for t in terms)


def rate_exponents(terms) -> list[dict]:
    """Exponents of N and ε (and the other bases) of each rate term, for cross-checks against ``limits``.

    Parameters
    ----------
    terms : iterable of sympy expression
        Monomials.

    Returns
    -------
    list of dict
        :func:`.monomials.exponents` of each term.

    References
    ----------
    003 Table 1.

    Examples
    --------
    >>> rate_exponents([1 / (N * eps**2)])
    [{N: -1, epsilon: -2}]
    """
    return [exponents(t) for t in terms]


def _compare(check_id, source, statement, derived_terms, printed_list, *, severity, topic, join=" + ", extra=""):
    """One check: the derived terms against each printed version; a finding per disagreement."""
    findings, ok_where, bad = [], [], []
    for pr in printed_list:
        if same_terms(derived_terms, pr.terms):
            ok_where.append(pr.where)
        else:
            bad.append(pr)
            findings.append(Finding(source=f"003 {pr.where}" if not pr.where.startswith("003") else pr.where,
                                    printed=pr.text, derived=show(derived_terms, join),
                                    evidence=f"proofs_checks.proof_steps check {check_id}: {statement}",
                                    severity=severity, topic=topic))
    detail = (f"agrees with {', '.join(ok_where)}. " if ok_where else "") + \
             (f"disagrees with {', '.join(b.where for b in bad)}. " if bad else "") + extra
    return ProofCheck(check_id, source, statement, not bad, derived=show(derived_terms, join),
                      printed=" | ".join(f"{b.where}: {b.text}" for b in (bad or printed_list)),
                      detail=detail.strip(), findings=tuple(findings))


def _register_upper(key):
    spec = UPPER[key]
    num = spec.theorem.split()[-1]
    src = f"003 {spec.theorem}, eq. {spec.proof_terms_eq}"

    for var in spec.variables:
        def tuning_check(profile="smoke", _var=var):
            tunings, _ = derive_upper(key)
            points, kind = tunings[_var]
            join = " ∨ " if kind == "max" and _var == k else " + " if kind == "max" else " ∧ "
            return _compare(f"003-thm{num}-tuning-{_var}", src,
                            f"balancing the error terms of {spec.proof_terms_eq} in {_var} gives the tuning of {spec.theorem}",
                            points, spec.tuning[_var], severity="tuning", topic=f"{spec.setting} tuning {_var}", join=join,
                            extra=f"error terms: {show(spec.terms)}. {spec.notes}")
        proof_check(f"003-thm{num}-tuning-{var}")(tuning_check)

    def rate_check(profile="smoke"):
        _, rate = derive_upper(key)
        return _compare(f"003-thm{num}-rate", src,
                        f"the balanced error terms of {spec.proof_terms_eq} give the rate of {spec.theorem}",
                        rate, spec.rate, severity="rate", topic=f"{spec.setting} upper rate",
                        extra=f"error terms: {show(spec.terms)}. {spec.notes}")

    proof_check(f"003-thm{num}-rate")(rate_check)


def _register_lower(key):
    spec = LOWER[key]
    num = spec.theorem.split()[-1]
    src = f"003 {spec.theorem}, {spec.h_equation_eq.split(':')[0]}"

    def h_check(profile="smoke"):
        hh, _ = derive_lower(key)
        return _compare(f"003-thm{num}-lower-h", src, f"solving {spec.h_equation_eq} for h",
                        (hh,), [spec.h_printed], severity="tuning", topic=f"{spec.setting} lower h")

    def rate_check(profile="smoke"):
        _, rate = derive_lower(key)
        return _compare(f"003-thm{num}-lower-rate", src,
                        f"{spec.rate_eq} at the derived h (plus the quoted non-private term) gives {spec.theorem}",
                        rate, [spec.rate], severity="rate", topic=f"{spec.setting} lower rate")

    proof_check(f"003-thm{num}-lower-h")(h_check)
    proof_check(f"003-thm{num}-lower-rate")(rate_check)


for _key in UPPER:
    _register_upper(_key)
for _key in LOWER:
    _register_lower(_key)

_UPPER_OF = {spec.setting: key for key, spec in UPPER.items()}
_LOWER_OF = {spec.setting: key for key, spec in LOWER.items()}


def derived_table_cell(row: str, column: str):
    """The derived rate for a Table 1 cell (log factors dropped), with how it was derived."""
    if row in ("local", "central"):
        setting = f"{row} {column}"
        return _drop_logs(derive_upper(_UPPER_OF[setting])[1]), f"upper bound {UPPER[_UPPER_OF[setting]].theorem}"
    if row == "non-private":  # eps -> infinity in the central upper bound: the eps-free terms remain
        up = _drop_logs(derive_upper(_UPPER_OF[f"central {column}"])[1])
        return tuple(t for t in up if eps not in exponents(t)), \
            f"eps -> oo limit of the derived {UPPER[_UPPER_OF[f'central {column}']].theorem} rate"
    # local full: not derived in 003; the pattern of the table (local label DP with d -> 2d,
    # features privatized too), which for classification is 003 Remark 1(2)
    up = _drop_logs(derive_upper(_UPPER_OF[f"local {column}"])[1])
    private = [t for t in up if eps in exponents(t)]
    return tuple(sp.powsimp(t.subs(d, 2 * d), force=True) for t in private), \
        "local label-DP rate with d -> 2d (003 Remark 1(2) for classification)"


def _register_table(row, column):
    cid = f"003-table1-{row.replace(' ', '')}-{column.replace(' ', '')}"

    def table_check(profile="smoke"):
        derived, how = derived_table_cell(row, column)
        printed = [TABLE1[(row, column)]]
        extra = ""
        if row in ("local", "central"):
            low = _drop_logs(derive_lower(_LOWER_OF[f"{row} {column}"])[1])
            match = same_terms(derived, low)
            extra = f"derived lower bound {LOWER[_LOWER_OF[f'{row} {column}']].theorem}: {show(low)} " \
                    f"({'matches' if match else 'DOES NOT match'} the derived upper bound)."
        if (row, column) == ("local full", "classification"):
            extra = f"{REMARK1_FULL_LOCAL_CLS.where} states {REMARK1_FULL_LOCAL_CLS.text}."
        res = _compare(cid, f"003 Table 1 ({row}, {column})", f"Table 1 cell ({row}, {column}) equals the {how}",
                       derived, printed, severity="rate", topic=f"table1 {row} {column}", extra=extra)
        return res

    proof_check(cid)(table_check)


for (_row, _col) in TABLE1:
    _register_table(_row, _col)


@proof_check("003-thm11-eq187")
def thm11_eq187(profile="smoke") -> ProofCheck:
    """003 (187): h ~ (eps N)^(-1/(d+beta)) h^(+beta/((d+beta)(p-1))) as printed; solve both."""
    printed_solution = solve_equal(h, (eps * N) ** (-1 / (d + beta)) * h ** (beta / ((d + beta) * (p - 1))), h)
    derived_rhs = (eps * N) ** (-1 / (d + beta)) * _T11 ** (1 / (d + beta))  # (186) with T ~ h^(-beta/(p-1))
    derived_solution = solve_equal(h, derived_rhs, h)
    ok = same_monomial(printed_solution, derived_solution)
    findings = () if ok else (Finding(
        "003 eq. (187)", "h ~ (eps N)^(-1/(d+beta)) h^(+beta/((d+beta)(p-1)))",
        "h ~ (eps N)^(-1/(d+beta)) h^(-beta/((d+beta)(p-1))) (from (186) with T ~ h^(-beta/(p-1)))",
        f"check 003-thm11-eq187: solving the printed (187) for h gives {show([printed_solution])}, "
        f"not (188); the corrected (187) gives {show([derived_solution])} = (188)", severity="typo",
        topic="central regression heavy eq187"),)
    return ProofCheck("003-thm11-eq187", "003 eq. (186)-(188)", "(187) follows from (186) and implies (188)", ok,
                      derived=show([derived_solution]), printed=show([printed_solution]),
                      detail="solved with sympy on logarithms", findings=findings)


def _p_limit(expr_terms):
    """Exponent vectors of terms in the limit p -> oo."""
    return [{s: sp.limit(e, p, sp.oo) for s, e in exponents(t).items()} for t in expr_terms]


@proof_check("003-thm10-p-limit")
def thm10_p_limit(profile="smoke") -> ProofCheck:
    """003 lines 306-307: as p -> oo, k and the rate of Theorem 10 reduce to those of Theorem 6."""
    tunings, rate = derive_upper("thm10")
    k6 = derive_upper("thm6")[0][k][0][0]
    k10 = tunings[k][0]
    lim_derived = _p_limit(k10)
    lim_printed = _p_limit(UPPER["thm10"].tuning[k][0].terms)
    e6 = exponents(k6)

    def matches(vectors):
        return any(all(canonical_form(v.get(s, 0) - e6.get(s, 0)) == 0 for s in set(v) | set(e6)) for v in vectors)

    rate_ok = any(all(canonical_form(v.get(s, 0) - e.get(s, 0)) == 0 for s in set(v) | set(e))
                  for v in _p_limit(rate) for e in [exponents(derive_upper("thm6")[1][0])])
    ok = matches(lim_printed) and rate_ok
    shown = lambda vs: " ∨ ".join(fmt(monomial(v)) for v in vs)  # noqa: E731
    findings = () if ok else (Finding(
        "003 Theorem 10 / lines 306-307",
        f"as p -> oo 'the growth rate of k [is] the same as in Theorem 6'; the printed k tends to {shown(lim_printed)}",
        f"the derived k tends to {shown(lim_derived)}, which is Theorem 6's k = {fmt(k6)}; the printed k does not",
        "check 003-thm10-p-limit: p -> oo limits of the exponents (sympy)", severity="tuning",
        topic="local regression heavy tuning k p-limit"),)
    return ProofCheck("003-thm10-p-limit", "003 Theorem 10, lines 306-307",
                      "p -> oo: k and the rate of Theorem 10 tend to those of Theorem 6", ok,
                      derived=f"derived k -> {shown(lim_derived)}; Theorem 6: k ~ {fmt(k6)}; rate limit matches: {rate_ok}",
                      printed=f"printed k -> {shown(lim_printed)}", findings=findings)


@proof_check("003-thm12-p-limit")
def thm12_p_limit(profile="smoke") -> ProofCheck:
    """As p -> oo (bounded labels) the derived Theorem 12 rate must reduce to the Theorem 8 rate."""
    lim = _p_limit(derive_upper("thm12")[1])
    th8 = [exponents(t) for t in derive_upper("thm8")[1]]
    ok = all(any(all(canonical_form(a.get(s, 0) - b.get(s, 0)) == 0 for s in set(a) | set(b)) for b in th8) for a in lim)
    return ProofCheck("003-thm12-p-limit", "003 Theorems 8 and 12", "p -> oo: the Theorem 12 rate tends to the Theorem 8 rate",
                      ok, derived=" + ".join(fmt(monomial(v)) for v in lim),
                      printed="Theorem 8 (derived): " + " + ".join(fmt(monomial(v)) for v in th8),
                      detail="the heavy-tailed central rate's eps-term exponent -> -2beta/(beta+d), which is Theorems 7-8, "
                             "not the (eps N)^(-2beta/(d+2beta)) of Table 1")


@proof_check("003-p2-remark")
def p2_remark(profile="smoke") -> ProofCheck:
    """003 lines 318-320: with p = 2 the right-hand side of (29) 'becomes (eps∧1)^(-2beta/(2beta+d))'."""
    rate = [sp.powsimp(t.subs(p, 2), force=True) for t in derive_upper("thm12")[1]]
    same_n = canonical_form(exponents(rate[0])[N] - exponents(rate[1])[N]) == 0
    derived = N ** (-2 * beta / (2 * beta + d)) * eps ** (-2 * beta / (2 * beta + d))  # ((eps∧1) N)^(-2beta/(2beta+d))
    printed = eps ** (-2 * beta / (2 * beta + d))
    ok = same_n and same_monomial(derived, printed)
    findings = () if ok else (Finding("003 lines 319-320 (remark after Theorem 12)", "(eps∧1)^(-2beta/(2beta+d))",
                                      "((eps∧1) N)^(-2beta/(2beta+d))",
                                      "check 003-p2-remark: at p = 2 both terms of (29) have N-exponent -2beta/(2beta+d)",
                                      severity="typo", topic="p=2 remark"),)
    return ProofCheck("003-p2-remark", "003 eq. (29), lines 319-320", "the p = 2 form of (29)", ok,
                      derived=show([derived]), printed=show([printed]), findings=findings)


@proof_check("003-exponent-orderings")
def exponent_orderings(profile="smoke") -> ProofCheck:
    """003 lines 235-237, 273-275, 307-308: the privacy terms decay faster (central) / slower (heavy local)."""
    b, dd, g, q = beta, d, gamma, sp.Symbol("q", positive=True)
    facts = {
        "central cls: beta(g+1)/(beta+d) > beta(g+1)/(2beta+d) (line 235)":
            b * (g + 1) / (b + dd) - b * (g + 1) / (2 * b + dd),
        "central bounded: 2beta/(beta+d) > 2beta/(2beta+d) (line 273)": 2 * b / (b + dd) - 2 * b / (2 * b + dd),
        "local heavy: 2beta(p-1)/(2p beta+d(p-1)) < 2beta/(2beta+d) (line 307)":
            (2 * b / (2 * b + dd) - 2 * b * (p - 1) / (2 * p * b + dd * (p - 1))).subs(p, 1 + q),
        "central heavy, p > 2: 2beta(p-1)/(p beta+d(p-1)) > 2beta/(2beta+d) (line 320)":
            (2 * b * (p - 1) / (p * b + dd * (p - 1)) - 2 * b / (2 * b + dd)).subs(p, 2 + q),
    }
    results = {name: bool(canonical_form(sp.factor(expr)).is_positive) for name, expr in facts.items()}
    return ProofCheck("003-exponent-orderings", "003 lines 235-237, 273-275, 307-308, 320-321",
                      "orderings of the rate exponents stated in the text", all(results.values()),
                      derived="; ".join(f"{n}: {v}" for n, v in results.items()), detail="sympy sign of the factored difference")
