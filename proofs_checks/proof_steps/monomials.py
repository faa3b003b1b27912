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
    """Cheap exact canonical form of a rational function of the exponent parameters."""
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
    """Exponent of each base symbol in a monomial (constants dropped): ``{N: a, eps: b, ...}``."""
    return dict(_exponents(sp.sympify(expr)))


def monomial(exps: dict):
    return sp.Mul(*[b ** e for b, e in exps.items()])


def same_monomial(a, b) -> bool:
    """Equal up to a constant factor: every base exponent agrees exactly."""
    ea, eb = exponents(a), exponents(b)
    keys = set(ea) | set(eb)
    return all(canonical_form(ea.get(s, 0) - eb.get(s, 0)) == 0 for s in keys)


def same_terms(a, b) -> bool:
    """Two sums of monomials agree term by term (up to constants); order does not matter."""
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
    """The x (a monomial in the other symbols) with lhs(x) = rhs(x), by sympy.solve on logs."""
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
    """(x*, value) with lhs(x*) = rhs(x*); value is the common value at the crossing."""
    xs = solve_equal(lhs, rhs, x)
    val = sp.powsimp(sp.sympify(rhs).subs(x, xs), force=True)
    return xs, monomial(exponents(val))


def minimize_terms(terms, x):
    """Minimize a sum of monomials over x > 0, up to constants.

    Returns (x_opt, value_terms, kind): ``value_terms`` is the list of crossing values whose sum
    is equivalent to the minimum; ``x_opt`` is the list of crossing points whose max
    (``kind="max"``, one increasing term) or min (``kind="min"``, one decreasing term) is the
    minimizer; terms free of x are carried into the value unchanged.
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
    """A monomial as readable text, grouping bases with proportional exponents: (N eps^2/ln K)^(-a)."""
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
    """Readable text of a sum (or ∨) of monomials."""
    return join.join(fmt(t) for t in terms)
