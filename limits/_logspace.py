"""Numerics shared by the rate, complexity and tuning functions: exponents and log-space evaluation.

Every quantity of 003 Table 1 and of the tuning rules is a product of powers ``c^a`` of positive
magnitudes (N, ε, ln K, h, k) whose exponents ``a`` are rational functions of (β, γ, d, p), combined
by ``+``, ``∨`` and ``∧``. Evaluated directly, ``N ε²`` or ``ε^(-b/(b-a))`` can overflow or underflow
(``ε = 1e-300``: ``ε² = 0.0`` and ``0.0 ** -x`` raises ``ZeroDivisionError``) although the quantity
itself is an ordinary float. So magnitudes are handled as logarithms (products become sums, powers
become multiplications, ``A + B`` becomes ``logaddexp``, ``∨``/``∧`` become max/min of the logs) and
only the final value is exponentiated, by :func:`exp_checked`, which refuses (``ValueError``) a
value outside the floating-point range instead of returning ``inf`` or ``0.0``.

The exponents themselves are evaluated in floating point (:func:`exponent_value`), falling back to
mpmath (arbitrary exponent range) when an intermediate like ``2 p β`` overflows for huge β and p.
"""

from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp

from . import symbols as S

__all__ = ["LOG_MAX", "LOG_MIN", "compile_log", "exp_checked", "exponent_value"]

#: ln of the largest finite float (about 709.78) and of the smallest positive (subnormal) float (-744.44)
LOG_MAX = math.log(1.7976931348623157e308)
LOG_MIN = math.log(5e-324)

# Magnitudes that enter in log space; the exponent parameters enter as plain values.
_LOG_SYMBOLS = (S.N, S.epsilon, S.K, S.h, S.k)
_EXP_SYMBOLS = (S.beta, S.gamma, S.d, S.p)


@lru_cache(maxsize=None)
def _exponent_fns(expr: sp.Expr):
    return (sp.lambdify(_EXP_SYMBOLS, expr, "math"), sp.lambdify(_EXP_SYMBOLS, expr, "mpmath"))


def exponent_value(expr: sp.Expr, beta: float, gamma: float, d: float, p: float) -> float:
    """``expr`` (a rational function of beta, gamma, d, p) as a float.

    Evaluated in floating point; where that overflows (e.g. ``2 p β`` with β = p = 1e300, giving
    ``inf/inf = nan``) it is re-evaluated in mpmath, whose exponent range is unbounded, so the
    result is the correctly rounded value whenever it is a finite float. May return ``inf``/``nan``
    only when the true value itself is outside the floating-point range (the callers refuse those).
    """
    fast, exact = _exponent_fns(expr)
    try:
        v = float(fast(beta, gamma, d, p))
        if math.isfinite(v):
            return v
    except (OverflowError, ZeroDivisionError, ValueError):
        pass
    import mpmath

    with mpmath.workdps(30):
        return float(exact(mpmath.mpf(beta), mpmath.mpf(gamma), mpmath.mpf(d), mpmath.mpf(p)))


def exp_checked(log_value: float, what: str) -> float:
    """``exp(log_value)`` if it is a positive finite float, else ``ValueError`` naming ``what``.

    ``what`` describes the quantity and the arguments (it is put in the message), e.g.
    ``"crossover N for epsilon=1e-100"``.
    """
    if math.isnan(log_value):
        raise ValueError(f"{what} is undefined (log value NaN); check the arguments")
    if log_value > LOG_MAX:
        raise ValueError(f"{what} is exp({log_value:.6g}), beyond floating-point range (above the largest "
                         "float, ~1.8e308)")
    value = math.exp(log_value)
    if value == 0.0:
        raise ValueError(f"{what} is exp({log_value:.6g}), beyond floating-point range (below the smallest "
                         "positive float, ~4.9e-324)")
    return value


def _logsumexp(values) -> float:
    m = max(values)
    if m == -math.inf:
        return m
    return m + math.log(math.fsum(math.exp(v - m) for v in values))


def _compile(expr: sp.Expr):
    """A closure ``f(logs, params) -> ln(expr)`` for a positive expression (see :func:`compile_log`)."""
    if expr.is_Symbol:
        if expr not in _LOG_SYMBOLS:
            raise NotImplementedError(f"symbol {expr} may appear only in exponents")
        return lambda L, P, s=expr: L[s]
    if expr.is_Number:
        c = float(expr)
        if not c > 0:
            raise NotImplementedError(f"non-positive constant {expr} outside an exponent")
        lc = math.log(c)
        return lambda L, P: lc
    if isinstance(expr, sp.Pow):
        base, expo = expr.args
        if expo.free_symbols - set(_EXP_SYMBOLS):
            raise NotImplementedError(f"exponent {expo} depends on a magnitude")
        fb = _compile(base)
        if expo.is_Number:
            a = float(expo)
            return lambda L, P: a * fb(L, P)
        return lambda L, P: exponent_value(expo, *P) * fb(L, P)
    if isinstance(expr, sp.log):
        fa = _compile(expr.args[0])

        def log_of_log(L, P):
            inner = fa(L, P)  # ln(x); ln(ln x) needs x > 1 (ln K with K >= 2)
            if not inner > 0:
                raise ValueError(f"log({expr.args[0]}) must be positive, got ln = {inner}")
            return math.log(inner)

        return log_of_log
    parts = [_compile(a) for a in expr.args]
    if isinstance(expr, sp.Mul):
        return lambda L, P: math.fsum(f(L, P) for f in parts)
    if isinstance(expr, sp.Add):
        return lambda L, P: _logsumexp([f(L, P) for f in parts])
    if isinstance(expr, sp.Max):
        return lambda L, P: max(f(L, P) for f in parts)
    if isinstance(expr, sp.Min):
        return lambda L, P: min(f(L, P) for f in parts)
    raise NotImplementedError(f"cannot evaluate {type(expr).__name__} in log space: {expr}")


@lru_cache(maxsize=None)
def compile_log(expr: sp.Expr):
    """Compile a positive sympy expression into ``f(logs, params) -> ln(expr)``.

    ``logs`` maps the magnitudes N, epsilon, K, h, k (:mod:`limits.symbols`) to their natural logs;
    ``params`` is the tuple ``(beta, gamma, d, p)`` of plain values used by the exponents. Supported:
    products, powers whose exponent depends on (beta, gamma, d, p) only, sums of positive terms,
    Max, Min, ``log`` of a quantity > 1 and positive constants. ``NotImplementedError`` for anything
    else (a rule outside this grammar is a programming error, found by the tests of every rule).
    """
    return _compile(expr)
