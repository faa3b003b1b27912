"""Places where 003's Table 1, theorem statements, proofs and text disagree, as data.

Each :class:`Discrepancy` records what is printed and what the paper's own argument gives, both as
sympy-parsable strings in the symbols of :mod:`limits.symbols` (plus ``n_l``, a bin count, where a
mechanism is concerned) and in readable form, with the evidence. ``limits`` uses the derived form by
default and exposes the printed one through ``variant="printed"``; ``proofs_checks`` re-derives each
record independently.

References: 003 Table 1; Theorems 7, 8, 10, 12; Remark 1; eq. (23), (150), (153), (180)–(182),
(186)–(188), (193)–(196); Section 6.2 text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import sympy as sp

from .symbols import RATE_SYMBOLS

__all__ = ["DISCREPANCIES", "Discrepancy", "discrepancies", "parse"]


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One disagreement inside 003: what is printed, what the paper's own argument gives, and why.

    Parameters
    ----------
    key : str
        Stable identifier (a key of ``{d.key: d for d in DISCREPANCIES}``).
    source : str
        Where the printed form is (e.g. "003 Table 1").
    affects : tuple
        What in ``limits`` it changes: ``("rate", task, privacy)``, ``("tuning", algorithm, param)``,
        ``("mechanism", ...)`` or ``("proof", equation)`` for a proof step whose conclusion is right.
    printed : str
        The printed form, sympy-parsable with :func:`parse`.
    derived : str
        The derived form, sympy-parsable with :func:`parse`.
    printed_text : str
        Readable printed form.
    derived_text : str
        Readable derived form.
    evidence : str
        How the derived form is established (equations of 003).
    consequence : str
        What using the printed form would imply.

    References
    ----------
    003 Table 1; Theorems 7, 8, 10, 12; Remark 1; eq. (23), (180)-(182), (186)-(188), (193)-(196).

    Examples
    --------
    >>> d = DISCREPANCIES[0]
    >>> d.key, d.affects
    ('table1_central_regression_privacy_term', ('rate', 'regression', 'central'))
    >>> d.printed_text, d.derived_text
    ('N^(-2β/(2β+d)) + (εN)^(-2β/(d+2β))', 'N^(-2β/(2β+d)) + (εN)^(-2β/(d+β))')
    """

    key: str
    source: str
    affects: tuple
    printed: str
    derived: str
    printed_text: str
    derived_text: str
    evidence: str
    consequence: str


DISCREPANCIES = (
    Discrepancy(
        key="table1_central_regression_privacy_term",
        source="003 Table 1 (central label DP, regression with bounded label noise)",
        affects=("rate", "regression", "central"),
        printed="N**(-2*beta/(2*beta + d)) + (epsilon*N)**(-2*beta/(d + 2*beta))",
        derived="N**(-2*beta/(2*beta + d)) + (epsilon*N)**(-2*beta/(d + beta))",
        printed_text="N^(-2β/(2β+d)) + (εN)^(-2β/(d+2β))",
        derived_text="N^(-2β/(2β+d)) + (εN)^(-2β/(d+β))",
        evidence="Theorem 7 eq. (22) (lower bound: h ~ (εN)^(-1/(d+β)) from eq. (101), giving h^(2β) in "
                 "eq. (144)) and Theorem 8 eq. (24) (upper bound: balancing h^(2β) against "
                 "1/(N² h^(2d) ε²) in eq. (153) gives h ~ (εN)^(-1/(d+β)), eq. (154)-(155)) agree on "
                 "2β/(d+β); so does the p -> ∞ limit of Table 1's own central heavy-tailed cell, "
                 "2β(p-1)/(pβ+d(p-1)) -> 2β/(β+d).",
        consequence="with the printed exponent the privacy term would decay exactly as fast as the "
                    "non-private term, contradicting the text after Theorem 8 (lines 273-275) that it "
                    "converges faster.",
    ),
    Discrepancy(
        key="table1_local_full_classification",
        source="003 Table 1 (local full DP, classification)",
        affects=("rate", "classification", "local_full"),
        printed="(N*Min(epsilon**2, 1))**(-beta*(gamma + 1)/(2*beta + d))",
        derived="Max((N*epsilon**2)**(-beta*(gamma + 1)/(2*beta + 2*d)), N**(-beta*(gamma + 1)/(2*beta + d)))",
        printed_text="(N(ε²∧1))^(-β(γ+1)/(2β+d))",
        derived_text="(Nε²)^(-β(γ+1)/(2β+2d)) ∨ N^(-β(γ+1)/(2β+d))",
        evidence="003 Remark 1(2) (lines 202-205) states this rate for local DP of features and labels "
                 "and says it is worse than the label-DP bound (10); the printed cell is identical to "
                 "the local label-DP cell (10), which contradicts Remark 1 and the claim of lines 53-55 "
                 "that the rate is slower under the original DP. The derived form also follows the "
                 "d -> 2d pattern of the printed local-full regression cells (β/(β+d) = 2β/(2β+2d)). "
                 "003 cites, and does not prove, the local-full rates.",
        consequence="the printed cell would say that privatizing features costs nothing beyond "
                    "privatizing labels.",
    ),
    Discrepancy(
        key="theorem10_k",
        source="003 Theorem 10 statement and eq. (181)",
        affects=("tuning", "local_regression_heavy_tailed", "k"),
        printed="Max((N*epsilon**2)**(2*p*beta/(2*p*beta + d*(p - 1))), N**(2*beta/(2*beta + d)))",
        derived="Max(N**(2*p*beta/(2*p*beta + d*(p - 1)))*epsilon**(-2*d*(p - 1)/(2*p*beta + d*(p - 1))), "
                "N**(2*beta/(2*beta + d)))",
        printed_text="k ~ (Nε²)^(2pβ/(2pβ+d(p-1))) ∨ N^(2β/(2β+d))",
        derived_text="k ~ N^(2pβ/(2pβ+d(p-1))) ε^(-2d(p-1)/(2pβ+d(p-1))) ∨ N^(2β/(2β+d))",
        evidence="eq. (180): R ≲ T^(2(1-p)) + 1/k + T²/(kε²) + (k/N)^(2β/d); with T ~ (kε²)^(1/(2p)) "
                 "(eq. 181) the clipping and noise terms are both (kε²)^(-(p-1)/p); equating that with "
                 "(k/N)^(2β/d) gives the derived k, and only it attains the stated rate "
                 "(Nε²)^(-2β(p-1)/(2pβ+d(p-1))) of eq. (182). Its p -> ∞ limit is Theorem 6's "
                 "k ~ N^(2β/(2β+d)) ε^(-2d/(2β+d)) (eq. 141), as the text after Theorem 10 (lines "
                 "306-307) asserts; the printed k tends to (Nε²)^(2β/(2β+d)) instead.",
        consequence="with the printed k the N-exponent of the risk is right but its ε-dependence is "
                    "not: the clipping/noise term becomes N^(-2β(p-1)/(2pβ+d(p-1))) times "
                    "ε^(-2(p-1)(2pβ+D)/(pD)) with D = 2pβ+d(p-1), worse than (Nε²)^(-2β(p-1)/D) for ε < 1 "
                    "(k shrinks as ε shrinks, the wrong direction).",
    ),
    Discrepancy(
        key="theorem12_h",
        source="003 Theorem 12 statement",
        affects=("tuning", "central_regression_heavy_tailed", "h"),
        printed="N**(-1/(2*beta + d)) + (epsilon*N)**(-1/(p*beta + d*(p - 1)))",
        derived="N**(-1/(2*beta + d)) + (epsilon*N)**(-(p - 1)/(p*beta + d*(p - 1)))",
        printed_text="h ~ N^(-1/(2β+d)) + (εN)^(-1/(pβ+d(p-1)))",
        derived_text="h ~ N^(-1/(2β+d)) + (εN)^(-(p-1)/(pβ+d(p-1)))",
        evidence="the proof prints the derived form in eq. (195); with T ~ (εNh^d)^(1/p) eq. (194) reads "
                 "h^(2β) + 1/(Nh^d) + (εNh^d)^(-2(1-1/p)), and equating h^(2β) with the last term gives "
                 "h ~ (εN)^(-(p-1)/(pβ+d(p-1))), which yields the rate (196) = (29). It also matches the "
                 "lower-bound bin width (188).",
        consequence="for p > 2 and εN > 1 the printed h is larger than the derived one, so the bias "
                    "h^(2β) >= (εN)^(-2β/(pβ+d(p-1))) decays more slowly than the stated privacy term "
                    "(εN)^(-2β(p-1)/(pβ+d(p-1))); the two coincide at p = 2.",
    ),
    Discrepancy(
        key="eq187_sign",
        source="003 Appendix L, eq. (187)",
        affects=("proof", "003 eq. (187)"),
        printed="(epsilon*N)**(-1/(d + beta))*h**(beta/((d + beta)*(p - 1)))",
        derived="(epsilon*N)**(-1/(d + beta))*h**(-beta/((d + beta)*(p - 1)))",
        printed_text="h ~ (εN)^(-1/(d+β)) h^(β/((d+β)(p-1)))",
        derived_text="h ~ (εN)^(-1/(d+β)) h^(-β/((d+β)(p-1)))",
        evidence="substituting T ~ h^(-β/(p-1)) into eq. (186), h ~ (εN/T)^(-1/(d+β)), gives the "
                 "derived sign; solving it gives eq. (188), h ~ (εN)^(-(p-1)/(pβ+d(p-1))), whereas the "
                 "printed sign would give (εN)^(-(p-1)/(pβ+d(p-1)-2β)).",
        consequence="none for Theorem 11, whose conclusion (188)-(189) follows the derived sign.",
    ),
    Discrepancy(
        key="section6_p2_remark",
        source="003 Section 6.2, text after Theorem 12 (line 319)",
        affects=("proof", "003 line 319"),
        printed="Min(epsilon, 1)**(-2*beta/(2*beta + d))",
        derived="(N*Min(epsilon, 1))**(-2*beta/(2*beta + d))",
        printed_text="with p = 2 the right-hand side of (29) becomes (ε∧1)^(-2β/(2β+d))",
        derived_text="with p = 2 the right-hand side of (29) becomes ≍ (N(ε∧1))^(-2β/(2β+d))",
        evidence="at p = 2, 2β(p-1)/(pβ+d(p-1)) = 2β/(2β+d), so (29) is N^(-2β/(2β+d)) + "
                 "(εN)^(-2β/(2β+d)), within a factor 2 of (N(ε∧1))^(-2β/(2β+d)); the printed text drops N.",
        consequence="the printed expression does not decay with N; the sentence's conclusion (the sample "
                    "complexity grows by a factor 1/(ε∧1), constant in N) is right.",
    ),
    Discrepancy(
        key="eq23_laplace_scale",
        source="003 eq. (23) (mechanism of Theorem 8)",
        affects=("mechanism", "central_regression", "W_l"),
        printed="2/(n_l*epsilon)",
        derived="2*T/(n_l*epsilon)",
        printed_text="W_l ~ Lap(2/(n_l ε))",
        derived_text="W_l ~ Lap(2T/(n_l ε))",
        evidence="under Assumption 2 (|Y| < T) replacing one label moves the bin mean by up to 2T/n_l, "
                 "so the Laplace scale must be 2T/(n_l ε) for ε-label DP (as in eq. (28), scale "
                 "2T/(n_l ε), and in Theorem 6, Lap(2T/ε)); the printed scale is private only for T <= 1, "
                 "the normalization the proof also uses in eq. (150) (Var[Y | X in B_l] <= 1).",
        consequence="rates unchanged (T is a constant); a simulation with |Y| up to T > 1 using the "
                    "printed scale would not be ε-label DP.",
    ),
)


def parse(expr: str) -> sp.Expr:
    """Parse a ``printed`` / ``derived`` string with the positive symbols of :mod:`limits.symbols`.

    Parameters
    ----------
    expr : str
        A sympy expression in N, epsilon, beta, gamma, d, p, K, h, k, T and ``n_l`` (a bin count).

    Returns
    -------
    sympy.Expr
        The expression, its symbols those of :mod:`limits.symbols` (so that it compares equal to
        :func:`limits.symbolic_rate` output).

    Raises
    ------
    sympy.SympifyError
        If ``expr`` is not a valid expression.

    References
    ----------
    003 Table 1 (the printed strings of :data:`DISCREPANCIES`).

    Examples
    --------
    >>> from limits import symbolic_rate
    >>> parse(DISCREPANCIES[0].derived) == symbolic_rate("regression", "central")
    True
    """
    return sp.sympify(expr, locals=dict(RATE_SYMBOLS, n_l=sp.Symbol("n_l", positive=True)))


def discrepancies() -> list[dict]:
    """The records of :data:`DISCREPANCIES` as plain dicts.

    Returns
    -------
    list of dict
        One dict per :class:`Discrepancy`, keys ``key``, ``source``, ``affects``, ``printed``,
        ``derived``, ``printed_text``, ``derived_text``, ``evidence``, ``consequence``.

    References
    ----------
    003 Table 1; Theorems 7, 8, 10, 12; Remark 1; eq. (23), (187); Section 6.2.

    Examples
    --------
    >>> [r["key"] for r in discrepancies()][:3]
    ['table1_central_regression_privacy_term', 'table1_local_full_classification', 'theorem10_k']
    """
    return [asdict(x) for x in DISCREPANCIES]
