"""Exact algebra of rate terms: monomials, balancing, and min-max of sums of monomials.

Rates and error bounds in 003 are sums of monomials c * N^a * eps^b * h^e * ... with symbolic
exponents. Up to constants, a sum of positive terms is its largest term, so minimizing an error
bound over a tuning variable x is minimizing a maximum of log-linear functions of log x. In one
variable the minimum of max(decreasing terms, increasing terms) equals the largest value among
the pairwise crossings (decreasing term i = increasing term j); with a single increasing term the
minimizer is the largest crossing point (with a single decreasing term, the smallest). All
equations are solved with ``sympy.solve`` on the exact logarithms, so no exponent is guessed.

Symbols are positive; ``eps`` stands for ``eps ∧ 1`` where a statement uses it (local model),
``L`` for ``ln K``, and ``p`` for the moment order (p >= 2; signs are decided with p = 1 + q).
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

__all__ = ["SYM", "balance", "canonical_form", "exponents", "fmt", "minimize_terms", "monomial", "same_monomial", "same_terms", "show",
           "solve_equal"]

N, eps, h, k, T, beta, d, gamma, p, L = sp.symbols("N epsilon h k T beta d gamma p L", positive=True)
_q = sp.Symbol("q", positive=True)  # p = 1 + q, so p - 1 > 0 is known to sympy
SYM = {"N": N, "eps": eps, "h": h, "k": k, "T": T, "beta": beta, "d": d, "gamma": gamma, "p": p, "L": L}
BASES = (N, eps, L, h, k, T)  # variables that carry exponents (the rest are exponent parameters)


def canonical_form(expr):
    r"""Cheap exact canonical form of a rational function of the exponent parameters.

    Parameters
    ----------
    expr : sympy expression
        A rational function (e.g. an exponent in β, d, γ, p).

    Returns
    -------
    sympy expression
        ``cancel(together(expr))``: equal expressions give equal forms.

    References
    ----------
    Exponents of 003 Table 1 (e.g. :math:`-2\beta/(d+2\beta)`).

    Examples
    --------
    >>> canonical_form((beta + beta*d) / (1 + d))
    beta
    """
    return sp.cancel(sp.together(expr))


@lru_cache(maxsize=4096)
def _exponents(expr):
    lg = sp.expand(sp.expand_log(sp.log(sp.powsimp(expr, force=True)), force=True))
    out = []
    for b in BASES:
        c = canonical_form(lg.coeff(sp.log(b)))
        if c != 0:
            out.append((b, c))
    rest = lg.subs({sp.log(b): 0 for b in BASES})
    if rest.free_symbols & set(BASES):
        raise ValueError(f"not a monomial in {BASES}: {expr}")
    return tuple(out)


def exponents(expr) -> dict:
    r"""Exponent of each base symbol in a monomial (constants dropped).

    Parameters
    ----------
    expr : sympy expression
        A monomial :math:`c N^a \varepsilon^b (\ln K)^l h^e k^f T^g` with symbolic exponents.

    Returns
    -------
    dict
        ``{base: exponent}`` for the bases with a non-zero exponent, in the order N, eps, L, h, k, T.

    Raises
    ------
    ValueError
        If ``expr`` is not a monomial in the bases.

    References
    ----------
    003 Table 1 rates are monomials in N and ε.

    Examples
    --------
    >>> exponents(3 * N**2 / eps)
    {N: 2, epsilon: -1}
    """
    return dict(_exponents(sp.sympify(expr)))


def monomial(exps: dict):
    r"""The monomial :math:`\prod_b b^{e_b}` with the given exponents (inverse of :func:`exponents`).

    Parameters
    ----------
    exps : dict
        ``{base symbol: exponent}``.

    Returns
    -------
    sympy expression
        The product.

    References
    ----------
    003 Table 1 rates are monomials in N and ε.

    Examples
    --------
    >>> monomial({N: 2, eps: -1})
    N**2/epsilon
    """
    return sp.Mul(*[b ** e for b, e in exps.items()])


def same_monomial(a, b) -> bool:
    """Whether two monomials are equal up to a constant factor: every base exponent agrees exactly.

    Parameters
    ----------
    a, b : sympy expression
        Monomials in the bases.

    Returns
    -------
    bool
        True when all exponents agree (after :func:`canonical_form`).

    References
    ----------
    003 Table 1 states rates up to constants (and log factors).

    Examples
    --------
    >>> same_monomial(3 * N**2, N**2), same_monomial(N, N**2)
    (True, False)
    """
    ea, eb = exponents(a), exponents(b)
    keys = set(ea) | set(eb)
    return all(canonical_form(ea.get(s, 0) - eb.get(s, 0)) == 0 for s in keys)


def same_terms(a, b) -> bool:
    """Whether two sums of monomials agree term by term (up to constants); order does not matter.

    Parameters
    ----------
    a, b : iterable of sympy expression
        The terms of the two sums.

    Returns
    -------
    bool
        True when the terms match one to one under :func:`same_monomial`.

    References
    ----------
    003 Table 1 rates are sums (or maxima) of monomials, compared with the theorems' statements.

    Examples
    --------
    >>> same_terms([N, eps], [2 * eps, N]), same_terms([N], [N, eps])
    (True, False)
    """
    a, b = list(a), list(b)
    if len(a) != len(b):
        return False
    left = list(b)
    for t in a:
        hit = next((i for i, u in enumerate(left) if same_monomial(t, u)), None)
        if hit is None:
            return False
        left.pop(hit)
    return True


def _sign(expr) -> int:
    e = sp.factor(canonical_form(sp.sympify(expr).subs(p, 1 + _q)))
    if e.is_positive:
        return 1
    if e.is_negative:
        return -1
    if e == 0:
        return 0
    raise ValueError(f"cannot decide the sign of exponent {expr}")


def solve_equal(lhs, rhs, x):
    r"""The x (a monomial in the other symbols) with lhs(x) = rhs(x), by ``sympy.solve`` on the logarithms.

    Parameters
    ----------
    lhs, rhs : sympy expression
        Monomials.
    x : sympy.Symbol
        The variable to solve for (one of the bases, e.g. ``h`` or ``k``).

    Returns
    -------
    sympy expression
        The crossing point :math:`x^*`, a monomial.

    Raises
    ------
    ValueError
        If there is no unique crossing (both sides have the same exponent of x).

    References
    ----------
    003 Theorem 6, eq. (140)-(141): balancing :math:`1/(k\varepsilon^2)` against
    :math:`(k/N)^{2\beta/d}` gives :math:`k \asymp N^{2\beta/(d+2\beta)}\varepsilon^{-2d/(d+2\beta)}`.

    Examples
    --------
    >>> ks = solve_equal(1 / (k * eps**2), (k / N)**(2*beta/d), k)
    >>> same_monomial(ks, N**(2*beta/(d + 2*beta)) * eps**(-2*d/(d + 2*beta)))
    True
    """
    lx = sp.Symbol("log_x", real=True)
    el, er = exponents(lhs), exponents(rhs)
    keys = (set(el) | set(er)) - {x}
    eq = (el.get(x, 0) - er.get(x, 0)) * lx + sum((el.get(s, 0) - er.get(s, 0)) * sp.log(s) for s in keys)
    sol = sp.solve(sp.Eq(eq, 0), lx)
    if len(sol) != 1:
        raise ValueError(f"no unique balance of {lhs} and {rhs} in {x}")
    val = sp.expand(sol[0])
    coeffs = {s: canonical_form(val.coeff(sp.log(s))) for s in keys}
    return monomial({s: c for s, c in coeffs.items() if c != 0})


def balance(lhs, rhs, x):
    r"""The crossing of two monomials in x and their common value there.

    Parameters
    ----------
    lhs, rhs : sympy expression
        Monomials.
    x : sympy.Symbol
        The variable.

    Returns
    -------
    x_star : sympy expression
        The crossing point (:func:`solve_equal`).
    value : sympy expression
        The common value at the crossing, as a monomial.

    Raises
    ------
    ValueError
        If there is no unique crossing.

    References
    ----------
    003 Theorem 6, eq. (140)-(142): the balanced value is the rate
    :math:`(N\varepsilon^2)^{-2\beta/(d+2\beta)}`.

    Examples
    --------
    >>> xs, v = balance(1 / (k * eps**2), (k / N)**(2*beta/d), k)
    >>> same_monomial(v, (N * eps**2)**(-2*beta/(d + 2*beta)))
    True
    """
    xs = solve_equal(lhs, rhs, x)
    val = sp.powsimp(sp.sympify(rhs).subs(x, xs), force=True)
    return xs, monomial(exponents(val))


def minimize_terms(terms, x):
    """Minimize a sum of monomials over x > 0, up to constants.

    Parameters
    ----------
    terms : iterable of sympy expression
        The monomials; at least one must decrease and one increase in x.
    x : sympy.Symbol
        The tuning variable.

    Returns
    -------
    x_opt : list of sympy expression
        The distinct crossing points; their max (``kind="max"``, one increasing term) or min
        (``kind="min"``, one decreasing term) is the minimizer.
    value_terms : list of sympy expression
        The crossing values (whose sum is equivalent to the minimum), plus the terms free of x.
    kind : {"max", "min", "pairwise"}
        How the crossing points combine.

    Raises
    ------
    ValueError
        If there is no trade-off in x, or an exponent's sign cannot be decided.

    References
    ----------
    003 Theorem 6, eq. (140)-(142).

    Examples
    --------
    >>> pts, vals, kind = minimize_terms([1 / (k * eps**2), (k / N)**(2*beta/d)], k)
    >>> kind, same_monomial(vals[0], (N * eps**2)**(-2*beta/(d + 2*beta)))
    ('max', True)
    """
    dec, inc, free = [], [], []
    for t in terms:
        s = _sign(exponents(t).get(x, 0))
        (dec if s < 0 else inc if s > 0 else free).append(t)
    if not dec or not inc:
        raise ValueError(f"no trade-off in {x}: decreasing={dec}, increasing={inc}")
    points, values = [], []
    for a in dec:
        for b in inc:
            xs, v = balance(a, b, x)
            points.append(xs)
            if not any(same_monomial(v, u) for u in values):
                values.append(v)
    if len(inc) == 1:
        kind = "max"
    elif len(dec) == 1:
        kind = "min"
    else:
        kind = "pairwise"
    uniq = []
    for xs in points:
        if not any(same_monomial(xs, u) for u in uniq):
            uniq.append(xs)
    return uniq, values + [monomial(exponents(f)) for f in free], kind


_NAMES = {N: "N", eps: "eps", L: "ln K", h: "h", k: "k", T: "T"}


def _fmt_power(base: str, e) -> str:
    e = sp.factor(e)
    return base if e == 1 else f"{base}^({sp.sstr(e)})"


def fmt(term) -> str:
    """A monomial as readable text, grouping bases with proportional exponents, e.g. ``(N eps^2)^(-a)``.

    Parameters
    ----------
    term : sympy expression
        A monomial.

    Returns
    -------
    str
        The text (``"1"`` for a constant).

    References
    ----------
    The notation of 003 Table 1.

    Examples
    --------
    >>> fmt((N * eps**2)**(-2*beta/(d + 2*beta)))
    '(N eps^2)^(-2*beta/(2*beta + d))'
    """
    ex = exponents(term)
    if not ex:
        return "1"
    lead = N if N in ex else next(iter(ex))
    c = ex.pop(lead)
    inside, outside = [_NAMES[lead]], []
    for s, e in ex.items():
        r = canonical_form(e / c)
        if r.is_Rational:
            txt = _NAMES[s] if abs(r) == 1 else f"{_NAMES[s]}^{abs(r)}"
            inside.append(txt if r > 0 else f"/{txt}")
        else:
            outside.append(_fmt_power(_NAMES[s], e))
    base = " ".join(x for x in inside if not x.startswith("/")) + "".join(x for x in inside if x.startswith("/"))
    if len(inside) > 1:
        base = f"({base})"
    return " ".join([_fmt_power(base, c)] + outside)


def show(terms, join=" + ") -> str:
    """Readable text of a sum (or maximum, with ``join=" ∨ "``) of monomials.

    Parameters
    ----------
    terms : iterable of sympy expression
        The monomials.
    join : str, default " + "
        The separator.

    Returns
    -------
    str
        The terms formatted by :func:`fmt`.

    References
    ----------
    The notation of 003 Table 1.

    Examples
    --------
    >>> show([1 / N, (N * eps)**-2])
    'N^(-1) + (N eps)^(-2)'
    """
    return join.join(fmt(t) for t in terms)
