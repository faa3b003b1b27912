"""The twelve cells of 003 Table 1: minimax rates of label-DP learning, symbolic and numeric.

Every cell is stored once, as data (:class:`Cell`: named :class:`Term` s and how they combine), and both
the sympy expression (:func:`symbolic_rate`) and the vectorized numpy value (:func:`minimax_rate`) are
read from that one description, so the two cannot drift apart.

Each term is ``(c * N) ** (-a)`` with ``c`` one of ``1``, ``eps``, ``eps**2`` or ``min(eps**2, 1)`` (and,
with ``log_factors=True``, divided by ``ln K`` where a theorem states that factor) and ``a`` a rational
function of (beta, gamma, d, p). Constants are 1. Sums ``A + B`` and maxima ``A ∨ B`` are kept exactly
as the cell states them.

Two variants:

* ``"derived"`` (default): the rates of the theorems whose proofs we re-derived (see
  :mod:`limits.discrepancies`);
* ``"printed"``: 003 Table 1 exactly as printed. It differs in two cells: central / regression
  (bounded noise), whose privacy term is printed ``(εN)^(-2β/(d+2β))`` while Theorems 7–8 give
  ``(εN)^(-2β/(d+β))``; and local-full / classification, printed equal to the local label-DP cell while
  003 Remark 1(2) gives ``(Nε²)^(-β(γ+1)/(2β+2d)) ∨ N^(-β(γ+1)/(2β+d))``.

How K enters: only through the ``ln K`` of 003 Theorem 2 (local) and Theorem 4 (central) for
classification, hidden by the ``Õ`` of Table 1; it is applied only with ``log_factors=True`` (as printed in
the theorem statements: ``N/ln K``; the proofs carry ``ln(2K)``, equivalent up to constants). No other
cell states a K- or log-dependence (Table 1 writes ``Õ`` for local bounded regression, but Theorem 6,
eq. (21), has no logarithm), so ``log_factors`` changes nothing there.

Equivalent notations kept as the table states them: Theorem 10's eq. (26) writes the local heavy-tailed
rate as a sum where eq. (182) and Table 1 write ``∨`` (the same up to a factor 2; the cell uses ``∨``);
Theorem 9's lower bound has ``(e^ε - 1)²`` "for small ε", where the table writes ``ε²``.

The local-full (features and labels private) cells are cited, not proved, in 003: regression and
heavy-tailed regression are kept as printed; their ``ε² ∧ 1`` means they do not approach the
non-private rate as ε grows.

References: 003 Table 1; Theorems 1–12; Remark 1; Appendices B–M.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from . import symbols as S
from ._args import check_epsilon, check_N, check_params, check_privacy, check_task, check_variant, log_K
from ._logspace import exponent_value

__all__ = ["Cell", "RateTerms", "Term", "cell", "minimax_rate", "rate_exponent", "rate_terms", "symbolic_rate",
           "printed_rate", "EXPONENTS"]

_b, _g, _d, _p = S.beta, S.gamma, S.d, S.p

#: Exponents of N in the terms of Table 1 (each term is (c N)^(-exponent)).
EXPONENTS = {
    "classification": _b * (_g + 1) / (2 * _b + _d),            # 003 eq. (10), (14), (103)
    "classification_central": _b * (_g + 1) / (_b + _d),        # 003 eq. (16), (18), (102)
    "classification_local_full": _b * (_g + 1) / (2 * _b + 2 * _d),  # 003 Remark 1(2)
    "regression": 2 * _b / (2 * _b + _d),                        # 003 eq. (19), (21), (145)
    "regression_central": 2 * _b / (_b + _d),                    # 003 eq. (22), (24), (144), (155)
    "regression_central_printed": 2 * _b / (_d + 2 * _b),        # 003 Table 1 as printed
    "regression_local_full": _b / (_b + _d),                     # 003 Table 1 (cited)
    "heavy_local": 2 * _b * (_p - 1) / (2 * _p * _b + _d * (_p - 1)),  # 003 eq. (25), (26), (163), (182)
    "heavy_central": 2 * _b * (_p - 1) / (_p * _b + _d * (_p - 1)),    # 003 eq. (27), (29), (189), (196)
    "heavy_local_full": _b * (_p - 1) / (_p * _b + _d * (_p - 1)),     # 003 Table 1 (cited)
}

# Base of a term: the multiplier c of N, symbolically and as log c (numerics work in log space, so
# that e.g. N ε² cannot overflow or underflow before the power is taken).
_BASES = {
    "N": (lambda e: sp.Integer(1), lambda e: np.zeros_like(e)),
    "eps N": (lambda e: e, lambda e: np.log(e)),
    "N eps^2": (lambda e: e**2, lambda e: 2 * np.log(e)),
    "N (eps^2 ∧ 1)": (lambda e: sp.Min(e**2, 1), lambda e: np.minimum(2 * np.log(e), 0.0)),
}


@dataclass(frozen=True, slots=True)
class Term:
    r"""One term :math:`(c N / [\ln K])^{-a}` of a Table 1 cell (003 Table 1).

    Parameters
    ----------
    name : {"nonprivate", "privacy", "rate"}
        "nonprivate" and "privacy" are the terms of a two-term cell; "rate" is the only term of a private
        one-term cell (the one term of a non-private cell is "nonprivate").
    base : {"N", "eps N", "N eps^2", "N (eps^2 ∧ 1)"}
        The multiplier :math:`c N` of the term: :math:`N`, :math:`\varepsilon N`, :math:`N\varepsilon^2` or
        :math:`N(\varepsilon^2 \wedge 1)`.
    exponent : sympy.Expr
        The exponent :math:`a > 0`, a rational function of beta, gamma, d, p (:data:`EXPONENTS`).
    log_K : bool, default False
        The theorem divides the base by :math:`\ln K` (the :math:`\tilde O` of Table 1; 003 Theorems 2, 4).

    References
    ----------
    003 Table 1; the exponents cite eq. (10), (14), (16), (18), (19), (21), (22), (24)-(27), (29).

    Examples
    --------
    >>> t = cell("regression", "central").term("privacy")
    >>> t.base, t.exponent
    ('eps N', 2*beta/(beta + d))
    """

    name: str
    base: str
    exponent: sp.Expr
    log_K: bool = False

    def symbolic(self, log_factors: bool = False) -> sp.Expr:
        r"""The term :math:`(c N / [\ln K])^{-a}` as a sympy expression (003 Table 1).

        Parameters
        ----------
        log_factors : bool, default False
            Divide the base by :math:`\ln K` where the theorem states that factor (``log_K``).

        Returns
        -------
        sympy.Expr
            An expression in the symbols of :mod:`limits.symbols`.

        References
        ----------
        003 Table 1; Theorems 2 and 4 for the :math:`\ln K`.

        Examples
        --------
        >>> cell("classification", "central").term("privacy").symbolic(log_factors=True)
        (N*epsilon/log(K))**(-beta*(gamma + 1)/(beta + d))
        """
        base = _BASES[self.base][0](S.epsilon) * S.N
        if log_factors and self.log_K:
            base = base / sp.log(S.K)
        return base ** (-self.exponent)


@dataclass(frozen=True, slots=True)
class Cell:
    r"""A cell of 003 Table 1: its terms, how they combine and where the paper states it.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        The row of Table 1.
    privacy : {"local", "central", "local_full", "none"}
        The column of Table 1.
    terms : tuple of Term
        One or two :class:`Term` s.
    combine : {"single", "sum", "max"}
        One term, :math:`A + B`, or :math:`A \vee B` (the larger of the two).
    source : str
        Where 003 states the rate (theorems and equations).

    References
    ----------
    003 Table 1; Theorems 1-12; Remark 1.

    Examples
    --------
    >>> c = cell("regression_heavy_tailed", "local")
    >>> c.combine, [t.name for t in c.terms], c.source
    ('max', ['nonprivate', 'privacy'], '003 Theorems 9-10, eq. (25), (26), (182)')
    """

    task: str
    privacy: str
    terms: tuple
    combine: str
    source: str

    def term(self, name: str) -> Term:
        """The term called ``name``.

        Parameters
        ----------
        name : {"nonprivate", "privacy", "rate"}
            A term of this cell.

        Returns
        -------
        Term
            The term of that name.

        Raises
        ------
        ValueError
            If the cell has no term called ``name``.

        Examples
        --------
        >>> cell("regression", "central").term("nonprivate").exponent
        2*beta/(2*beta + d)
        """
        for t in self.terms:
            if t.name == name:
                return t
        raise ValueError(f"term must be one of {[t.name for t in self.terms]} for the {self.task}/"
                         f"{self.privacy} cell, got term={name!r}")


def _single(task, privacy, name, base, exp_key, source, log=False):
    return Cell(task, privacy, (Term(name, base, EXPONENTS[exp_key], log),), "single", source)


def _pair(task, privacy, combine, np_term, priv_term, source):
    return Cell(task, privacy, (np_term, priv_term), combine, source)


def _np(exp_key, log=False):
    return Term("nonprivate", "N", EXPONENTS[exp_key], log)


_DERIVED = {
    ("classification", "local"): _single("classification", "local", "rate", "N (eps^2 ∧ 1)", "classification",
                                         "003 Theorems 1-2, eq. (10), (14)", log=True),
    ("classification", "central"): _pair("classification", "central", "sum", _np("classification", True),
                                         Term("privacy", "eps N", EXPONENTS["classification_central"], True),
                                         "003 Theorems 3-4, eq. (16), (18)"),
    ("classification", "local_full"): _pair("classification", "local_full", "max", _np("classification"),
                                            Term("privacy", "N eps^2", EXPONENTS["classification_local_full"]),
                                            "003 Remark 1(2) (cited, not proved in 003)"),
    ("classification", "none"): Cell("classification", "none", (_np("classification"),), "single",
                                     "003 Table 1 / Remark 1(1), eq. (103)"),
    ("regression", "local"): _single("regression", "local", "rate", "N (eps^2 ∧ 1)", "regression",
                                     "003 Theorems 5-6, eq. (19), (21)"),
    ("regression", "central"): _pair("regression", "central", "sum", _np("regression"),
                                     Term("privacy", "eps N", EXPONENTS["regression_central"]),
                                     "003 Theorems 7-8, eq. (22), (24)"),
    ("regression", "local_full"): _single("regression", "local_full", "rate", "N (eps^2 ∧ 1)",
                                          "regression_local_full", "003 Table 1 (cited, not proved in 003)"),
    ("regression", "none"): Cell("regression", "none", (_np("regression"),), "single", "003 Table 1, eq. (145)"),
    ("regression_heavy_tailed", "local"): _pair("regression_heavy_tailed", "local", "max", _np("regression"),
                                                Term("privacy", "N eps^2", EXPONENTS["heavy_local"]),
                                                "003 Theorems 9-10, eq. (25), (26), (182)"),
    ("regression_heavy_tailed", "central"): _pair("regression_heavy_tailed", "central", "sum", _np("regression"),
                                                  Term("privacy", "eps N", EXPONENTS["heavy_central"]),
                                                  "003 Theorems 11-12, eq. (27), (29)"),
    ("regression_heavy_tailed", "local_full"): _single("regression_heavy_tailed", "local_full", "rate",
                                                       "N (eps^2 ∧ 1)", "heavy_local_full",
                                                       "003 Table 1 (cited, not proved in 003)"),
    ("regression_heavy_tailed", "none"): Cell("regression_heavy_tailed", "none", (_np("regression"),), "single",
                                              "003 Table 1 / Section 6 text"),
}

# 003 Table 1 as printed, where it differs from the theorems (see limits.discrepancies).
_PRINTED = dict(_DERIVED)
_PRINTED[("regression", "central")] = _pair("regression", "central", "sum", _np("regression"),
                                            Term("privacy", "eps N", EXPONENTS["regression_central_printed"]),
                                            "003 Table 1 as printed")
_PRINTED[("classification", "local_full")] = _single("classification", "local_full", "rate", "N (eps^2 ∧ 1)",
                                                     "classification", "003 Table 1 as printed")


def cell(task: str, privacy: str, *, variant: str = "derived") -> Cell:
    """The :class:`Cell` of 003 Table 1 for ``(task, privacy)``.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        The row of Table 1.
    privacy : {"local", "central", "local_full", "none"}
        The column of Table 1.
    variant : {"derived", "printed"}, default "derived"
        The re-derived rates, or 003 Table 1 exactly as printed (they differ in two cells, see
        :mod:`limits.discrepancies`).

    Returns
    -------
    Cell
        The cell's terms, how they combine and its source in 003.

    Raises
    ------
    ValueError
        If ``task``, ``privacy`` or ``variant`` is not one of the names above (naming the argument).

    References
    ----------
    003 Table 1; Theorems 1-12; Remark 1.

    Examples
    --------
    >>> cell("regression", "central").source
    '003 Theorems 7-8, eq. (22), (24)'
    >>> cell("regression", "central", variant="printed").term("privacy").exponent
    2*beta/(2*beta + d)
    """
    check_task(task)
    check_privacy(privacy)
    check_variant(variant)
    return (_DERIVED if variant == "derived" else _PRINTED)[(task, privacy)]


def _combine(c: Cell, parts):
    if c.combine == "single":
        return parts[0]
    if c.combine == "sum":
        return sp.Add(*parts) if isinstance(parts[0], sp.Basic) else parts[0] + parts[1]
    return sp.Max(*parts) if isinstance(parts[0], sp.Basic) else np.maximum(parts[0], parts[1])


def symbolic_rate(task: str, privacy: str, *, variant: str = "derived", log_factors: bool = False) -> sp.Expr:
    r"""The rate of a Table 1 cell as a sympy expression in the symbols of :mod:`limits.symbols`.

    :math:`\varepsilon^2 \wedge 1` is ``Min(epsilon**2, 1)``, :math:`A \vee B` is ``Max(A, B)``; constants
    are 1.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        The row of Table 1.
    privacy : {"local", "central", "local_full", "none"}
        The column of Table 1.
    variant : {"derived", "printed"}, default "derived"
        The re-derived rates or 003 Table 1 as printed.
    log_factors : bool, default False
        Divide N by :math:`\ln K` in the terms where 003 Theorems 2 and 4 state that factor.

    Returns
    -------
    sympy.Expr
        An expression in N, epsilon, beta, gamma, d, p (and K with ``log_factors=True``).

    Raises
    ------
    ValueError
        If ``task``, ``privacy`` or ``variant`` is not one of the names above.

    Examples
    --------
    >>> symbolic_rate("regression", "central")
    (N*epsilon)**(-2*beta/(beta + d)) + N**(-2*beta/(2*beta + d))
    >>> symbolic_rate("classification", "local")
    (N*Min(1, epsilon**2))**(-beta*(gamma + 1)/(2*beta + d))

    References
    ----------
    003 Table 1 and the theorems cited in :func:`cell` (here 003 Theorems 7-8, eq. (22), (24)).
    """
    c = cell(task, privacy, variant=variant)
    return _combine(c, [t.symbolic(log_factors) for t in c.terms])


def printed_rate(task: str, privacy: str, *, log_factors: bool = False) -> sp.Expr:
    """003 Table 1 exactly as printed: ``symbolic_rate(task, privacy, variant="printed")``.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        The row of Table 1.
    privacy : {"local", "central", "local_full", "none"}
        The column of Table 1.
    log_factors : bool, default False
        Divide N by :math:`\\ln K` where 003 Theorems 2 and 4 state that factor.

    Returns
    -------
    sympy.Expr
        The printed rate; compare :func:`symbolic_rate` for the re-derived one.

    Raises
    ------
    ValueError
        If ``task`` or ``privacy`` is not one of the names above.

    References
    ----------
    003 Table 1 (central / regression prints :math:`(\\varepsilon N)^{-2\\beta/(d+2\\beta)}`, Theorems 7-8 give
    :math:`(\\varepsilon N)^{-2\\beta/(d+\\beta)}`).

    Examples
    --------
    >>> printed_rate("regression", "central")
    (N*epsilon)**(-2*beta/(2*beta + d)) + N**(-2*beta/(2*beta + d))
    """
    return symbolic_rate(task, privacy, variant="printed", log_factors=log_factors)


def _exponent_value(t: Term, prm) -> float:
    g = 0.0 if prm.gamma is None else prm.gamma
    p = 2.0 if prm.p is None else prm.p  # unused by terms without p
    a = exponent_value(t.exponent, prm.beta, g, prm.d, p)
    # every exponent of Table 1 is positive for valid parameters; it can leave the float range only
    # when beta, gamma or p are themselves near it (e.g. beta * (gamma + 1) > 1.8e308)
    if not (a > 0 and math.isfinite(a)):
        raise ValueError(f"exponent of term {t.name!r} is not a finite positive number ({a}) for beta={prm.beta!r}, "
                         f"gamma={prm.gamma!r}, d={prm.d!r}, p={prm.p!r} (outside floating-point range)")
    return a


@dataclass(frozen=True, slots=True)
class RateTerms:
    """The separate terms of a Table 1 cell at given arguments (returned by :func:`rate_terms`).

    Parameters
    ----------
    terms : dict
        Term name -> value (float, or ndarray broadcast over N and epsilon).
    combine : {"single", "sum", "max"}
        How the terms give the total: the one term, their sum, or the largest.
    total : float or ndarray
        The rate (what :func:`minimax_rate` returns).
    dominant : str or ndarray of str
        Name of the largest term (an array of names for array input; ties go to the first term,
        "nonprivate").
    exponents : dict
        Term name -> exponent :math:`a > 0` of N in that term's :math:`N^{-a}`.

    References
    ----------
    003 Table 1.

    Examples
    --------
    >>> r = rate_terms("regression", "central", N=1e4, epsilon=1.0, beta=1, d=2)
    >>> r.dominant, round(r.total, 6)
    ('nonprivate', 0.012154)
    """

    terms: dict
    combine: str
    total: object
    dominant: object
    exponents: dict


def _evaluate(task, privacy, N, eps, beta, d, gamma, p, K, log_factors, variant):
    task = check_task(task)
    privacy = check_privacy(privacy)
    c = cell(task, privacy, variant=variant)
    prm = check_params(task, beta=beta, d=d, gamma=gamma, p=p, num_classes=K)
    n_arr, n_scalar = check_N(N)
    e_arr, e_scalar = check_epsilon(eps, privacy)
    if e_arr is None:
        e_arr = np.asarray(1.0)  # unused: the non-private cell has no eps
    n_b, e_b = np.broadcast_arrays(n_arr, e_arr)
    scalar = n_scalar and e_scalar
    values, exps = {}, {}
    for t in c.terms:
        a = _exponent_value(t, prm)
        log_base = _BASES[t.base][1](e_b) + np.log(n_b)
        if log_factors and t.log_K:
            log_base = log_base - np.log(log_K(prm.K))
        with np.errstate(over="ignore", under="ignore"):  # out-of-range totals are refused just below
            values[t.name] = np.exp(-a * log_base)
        exps[t.name] = a
    total = _combine(c, list(values.values()))
    # A single term may underflow to 0 next to a larger one (the total is then exact to rounding); a
    # total outside the floating-point range is an error, never a silent 0 or inf.
    if not np.all(np.isfinite(total)) or np.any(total <= 0):
        raise ValueError(f"rate is not a finite positive number for N={N!r}, epsilon={eps!r}, beta={beta!r}, "
                         f"d={d!r}, gamma={gamma!r}, p={p!r} (outside floating-point range)")
    names = list(values)
    stacked = np.stack([np.asarray(v) for v in values.values()])
    dom = np.asarray(names, dtype=object)[np.argmax(stacked, axis=0)]
    if scalar:
        values = {k: float(v) for k, v in values.items()}
        return c, values, float(total), str(dom), exps
    return c, values, np.asarray(total, dtype=float), dom, exps


def minimax_rate(task, privacy, *, N, epsilon=None, beta, d, gamma=None, p=None, num_classes=2, log_factors=False,
                 variant="derived"):
    """Minimax excess-risk rate of 003 Table 1 (constants = 1).

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        Classification (0-1 loss), regression with bounded noise (003 Assumption 2) or with p-th moment
        bounded labels (Assumption 3).
    privacy : {"local", "central", "local_full", "none"}
        ε-local label DP, ε-central label DP, local DP of features and labels, or non-private.
    N : float or array_like, >= 1
        Sample size(s). A real number: the rates are order expressions in N, evaluated as such (the
        experiments draw them on ``np.logspace`` grids, and :func:`limits.sample_complexity` /
        :func:`limits.crossover` return real N that round-trip here), so an integral value is not
        required. With constants 1 a rate can exceed 1 where N ε² < 1: it is an order, not a risk.
    epsilon : float or array_like, > 0
        Privacy parameter; required unless ``privacy="none"``. Broadcast with ``N``.
    beta : float > 0
        Hölder exponent (Assumption 1(a)).
    d : int >= 1
        Feature dimension.
    gamma : float >= 0
        Tsybakov margin exponent (Assumption 1(b)); required for classification.
    p : float >= 2
        Moment order (Assumption 3); required for ``"regression_heavy_tailed"``.
    num_classes : int >= 2
        Number of classes K; enters only through ln K with ``log_factors=True`` (Theorems 2 and 4).
    log_factors : bool
        Multiply in the logarithmic factors hidden by Õ where a theorem states them (ln K in 003
        Theorems 2 and 4, applied as N -> N / ln K in each classification term with a log).
    variant : {"derived", "printed"}
        The re-derived rates (default) or 003 Table 1 as printed.

    Returns
    -------
    float, or ndarray of shape ``np.broadcast(N, epsilon).shape`` when N or epsilon is an array.

    Raises
    ------
    ValueError
        An invalid argument (naming it and repeating its value), or a rate outside the floating-point
        range (computed in log space, so only a rate that is itself below ~4.9e-324 or above ~1.8e308,
        e.g. ``N=1e300`` with an exponent above 1.08; a single term may underflow next to a larger one).

    References
    ----------
    003 Table 1; Theorems 1–12; Remark 1.

    Examples
    --------
    >>> round(minimax_rate("regression", "central", N=1e4, epsilon=1.0, beta=1, d=2), 12)  # 0.01 + 1e4^(-2/3)
    0.01215443469

    One cell of 003 Table 1 at :math:`N = 10^6` (classification, local label DP, Theorems 1-2):
    :math:`(N(\\varepsilon^2 \\wedge 1))^{-\\beta(\\gamma+1)/(2\\beta+d)} = (10^6)^{-1/2}` at
    :math:`\\beta = \\gamma = 1`, :math:`d = 2`, :math:`\\varepsilon = 1`; at :math:`\\varepsilon = 0.1` the
    same N buys the risk of :math:`N\\varepsilon^2 = 10^4` samples.

    >>> round(minimax_rate("classification", "local", N=1e6, epsilon=1.0, beta=1, gamma=1, d=2), 12)
    0.001
    >>> round(minimax_rate("classification", "local", N=1e6, epsilon=0.1, beta=1, gamma=1, d=2), 12)
    0.01
    """
    return _evaluate(task, privacy, N, epsilon, beta, d, gamma, p, num_classes, log_factors, variant)[2]


def rate_terms(task, privacy, *, N, epsilon=None, beta, d, gamma=None, p=None, num_classes=2, log_factors=False,
               variant="derived") -> RateTerms:
    r"""The separate terms of a Table 1 cell, with their sum or maximum and which one dominates.

    Two-term cells have the terms "nonprivate" (the rate without privacy) and "privacy"; one-term private
    cells have the single term "rate"; non-private cells have "nonprivate".

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        The row of Table 1.
    privacy : {"local", "central", "local_full", "none"}
        The column of Table 1.
    N : float or array_like, >= 1
        Sample size(s), real (see :func:`minimax_rate`).
    epsilon : float or array_like, > 0, optional
        Privacy parameter; required unless ``privacy="none"``. Broadcast with ``N``.
    beta : float > 0
        Hölder exponent (003 Assumption 1(a)).
    d : int >= 1
        Feature dimension.
    gamma : float >= 0, optional
        Tsybakov margin exponent (Assumption 1(b)); required for classification.
    p : float >= 2, optional
        Moment order (Assumption 3); required for ``"regression_heavy_tailed"``.
    num_classes : int >= 2, default 2
        Number of classes K; enters only through :math:`\ln K` with ``log_factors=True``.
    log_factors : bool, default False
        Divide N by :math:`\ln K` where 003 Theorems 2 and 4 state that factor.
    variant : {"derived", "printed"}, default "derived"
        The re-derived rates or 003 Table 1 as printed.

    Returns
    -------
    RateTerms
        Term values, how they combine, the total (= :func:`minimax_rate`), the dominant term and the
        exponents.

    Raises
    ------
    ValueError
        An invalid argument (naming it and its value), or a total outside the floating-point range.

    References
    ----------
    003 Table 1; Theorems 1-12; Remark 1.

    Examples
    --------
    At :math:`N = 10^4`, :math:`\varepsilon = 1`, :math:`\beta = 1`, :math:`d = 2` (003 Theorems 7-8):
    :math:`N^{-1/2} = 0.01` and :math:`(\varepsilon N)^{-2/3} = 10^{-8/3} \approx 0.0021544`.

    >>> r = rate_terms("regression", "central", N=1e4, epsilon=1.0, beta=1, d=2)
    >>> {k: round(v, 7) for k, v in r.terms.items()}
    {'nonprivate': 0.01, 'privacy': 0.0021544}
    >>> r.combine, r.dominant
    ('sum', 'nonprivate')
    """
    c, values, total, dom, exps = _evaluate(task, privacy, N, epsilon, beta, d, gamma, p, num_classes, log_factors,
                                            variant)
    return RateTerms(terms=values, combine=c.combine, total=total, dominant=dom, exponents=exps)


def rate_exponent(task, privacy, *, beta, d, gamma=None, p=None, term=None, variant="derived") -> float:
    r"""Exponent :math:`a > 0` of N in a term :math:`N^{-a}` of a Table 1 cell, ε held fixed.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        The row of Table 1.
    privacy : {"local", "central", "local_full", "none"}
        The column of Table 1.
    beta : float > 0
        Hölder exponent (003 Assumption 1(a)).
    d : int >= 1
        Feature dimension.
    gamma : float >= 0, optional
        Tsybakov margin exponent; required for classification.
    p : float >= 2, optional
        Moment order; required for ``"regression_heavy_tailed"``.
    term : {None, "nonprivate", "privacy", "rate"}, default None
        A term of the cell; ``None`` gives the term that dominates as :math:`N \to \infty`, i.e. the
        smallest exponent (the only one for one-term cells).
    variant : {"derived", "printed"}, default "derived"
        The re-derived rates or 003 Table 1 as printed.

    Returns
    -------
    float
        The exponent :math:`a`.

    Raises
    ------
    ValueError
        An invalid argument, or a ``term`` the cell does not have.

    References
    ----------
    003 Table 1; here Theorem 7, eq. (22): :math:`2\beta/(d+\beta) = 1` at :math:`\beta = d = 1`.

    Examples
    --------
    >>> rate_exponent("regression", "central", beta=1, d=1, term="privacy")  # 2β/(d+β), 003 Theorem 7
    1.0
    >>> rate_exponent("classification", "local", beta=1, d=2, gamma=1)  # β(γ+1)/(2β+d) = 2/4, eq. (14)
    0.5
    """
    task = check_task(task)
    c = cell(task, privacy, variant=variant)
    prm = check_params(task, beta=beta, d=d, gamma=gamma, p=p)
    if term is None:
        return min(_exponent_value(t, prm) for t in c.terms)
    return _exponent_value(c.term(term), prm)
