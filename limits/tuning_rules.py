"""Evaluate the tuning rules of :data:`limits.ALGORITHMS` (bin width h, neighbour count k, clipping level T).

:func:`symbolic_tuning` returns an algorithm's rules as sympy (:class:`~limits.algorithms.TuningRule`,
constants 1); :func:`tuning` evaluates them. Default ``variant="derived"`` balances the bias and
variance terms of the theorem's own proof, ``"printed"`` is the statement as printed (they differ for
003 Theorems 10 and 12; see :mod:`limits.algorithms`).

Rounding, so that the estimators can use the result directly: h is capped at 1 (one bin per axis
of the unit cube); k is rounded to the nearest integer and clipped to [1, floor(N)]; a T that depends
on k or h (Theorems 10 and 12) is computed from the rounded k / capped h. ``log_factors`` keeps the
``ln K`` of Theorems 2 and 4 (default True: the rules as the theorems state them).

References: 003 Theorems 2, 4, 6, 8, 10, 12; eq. (84), (119), (141), (154), (181), (195).
"""

from __future__ import annotations

import math
from functools import lru_cache

import sympy as sp

from . import symbols as S
from ._args import check_variant
from ._logspace import compile_log, exp_checked
from .algorithms import ALGORITHMS
from .validation import check_choice, check_int, check_positive, check_real

__all__ = ["symbolic_tuning", "tuning"]


def symbolic_tuning(algorithm: str, *, variant: str = "derived", log_factors: bool = True) -> dict:
    """The tuning rules of ``algorithm`` as ``{param: TuningRule}`` (sympy, constants 1).

    Parameters
    ----------
    algorithm : str
        A key of :data:`limits.ALGORITHMS` (e.g. ``"central_regression"``).
    variant : {"derived", "printed"}, default "derived"
        ``"printed"`` gives the theorem statement where it differs from the derived rule (003 Theorems
        10 and 12); for the other algorithms both variants are the same rule.
    log_factors : bool, default True
        Keep the :math:`\\ln K` of 003 Theorems 2 and 4 (False replaces it by 1).

    Returns
    -------
    dict
        Parameter name ("h", "k" or "T") -> :class:`~limits.algorithms.TuningRule`, in evaluation order.

    Raises
    ------
    ValueError
        If ``algorithm`` or ``variant`` is not one of the names above.

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12; here Theorem 8, eq. (154).

    Examples
    --------
    >>> symbolic_tuning("central_regression")["h"].expr
    (N*epsilon)**(-1/(beta + d)) + N**(-1/(2*beta + d))
    """
    check_choice("algorithm", algorithm, tuple(ALGORITHMS))
    check_variant(variant)
    return ALGORITHMS[algorithm].tuning_rules(variant, log_factors=log_factors)


@lru_cache(maxsize=None)
def _rules(algorithm: str, variant: str, log_factors: bool) -> tuple:
    """((param, direct rule, ln-rule), ...) in evaluation order; built once (a sympy Max of two
    branches takes ~10 ms)."""
    args = (S.N, S.epsilon, S.beta, S.d, S.p, S.K, S.h, S.k)
    return tuple((param, sp.lambdify(args, rule.expr, modules=[{"Min": min, "Max": max}, "math"]),
                  compile_log(rule.expr))
                 for param, rule in symbolic_tuning(algorithm, variant=variant, log_factors=log_factors).items())


def _direct(rule, *args) -> float | None:
    """The rule evaluated as written, or None where an intermediate leaves the float range."""
    try:
        value = float(rule(*args))
    except (ZeroDivisionError, OverflowError, ValueError):
        return None
    return value if math.isfinite(value) and value > 0 else None


def tuning(algorithm, *, N, epsilon=None, beta, d, gamma=None, p=None, num_classes=2, variant="derived",
           log_factors=True, h=None, k=None) -> dict:
    """Tuning of an algorithm of :data:`limits.ALGORITHMS`, constants 1, ready for an estimator.

    Parameters
    ----------
    algorithm : str
        A key of :data:`limits.ALGORITHMS`: the algorithms of 003 Theorems 2, 4, 6, 8, 10 and 12
        (``"local_classification"``, ..., ``"central_regression_heavy_tailed"``) or a non-private
        baseline (``"nonprivate_classification"``, ``"nonprivate_regression"``,
        ``"nonprivate_regression_knn"``).
    N : float >= 1
        Sample size (a real number, as in :func:`limits.minimax_rate`; k is clipped to ``floor(N)``).
    epsilon : float > 0
        Privacy parameter; required for the private algorithms, ignored by the baselines.
    beta, d, gamma, p, num_classes :
        As in :func:`limits.minimax_rate` (gamma is accepted and checked but no rule uses it; p is
        required for the heavy-tailed algorithms).
    variant : {"derived", "printed"}
    log_factors : bool
        Keep the ln K of Theorems 2 and 4.
    h, k : optional
        Use this bin width / neighbour count instead of the rule's; a T that depends on h or k
        (Theorems 10 and 12) is then computed from the value actually used.

    Returns
    -------
    dict
        Keys among "h" (float in (0, 1]), "k" (int in [1, floor(N)]) and "T" (float > 0).

    Raises
    ------
    ValueError
        An invalid argument (the message names it and repeats its value), or a value (h or T) outside
        the floating-point range. Each rule is evaluated on the log scale (``limits._logspace``) and
        capped / rounded there, so extreme but valid arguments (``epsilon=1e-300``, where ``ε²`` alone
        underflows to 0) give the rule's value, e.g. ``h = 1`` (the cap) or ``T = (kε²)^(1/(2p))``.

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12; eq. (84), (119), (141), (154), (181), (194), (195).

    Examples
    --------
    >>> tuning("local_regression", N=1e4, epsilon=1.0, beta=1, d=2)  # k ~ N^(2β/(d+2β)) = 100, eq. (141)
    {'k': 100}
    >>> tuning("local_classification", N=1e4, epsilon=1e-300, beta=1, d=2)  # (N ε² / ln K)^(-1/(2β+d)) > 1
    {'h': 1.0}
    """
    check_choice("algorithm", algorithm, tuple(ALGORITHMS))
    check_variant(variant)
    alg = ALGORITHMS[algorithm]
    N = check_real("N", N, low=1.0)
    if alg.private:
        if epsilon is None:
            raise ValueError(f"epsilon is required for the private algorithm {algorithm!r}, got epsilon=None")
        epsilon = check_positive("epsilon", epsilon)
    elif epsilon is not None:
        check_positive("epsilon", epsilon)
    beta = check_positive("beta", beta)
    d = check_int("d", d, low=1)
    num_classes = check_int("num_classes", num_classes, low=2)
    if gamma is not None:
        check_real("gamma", gamma, low=0.0)
    if alg.task == "regression_heavy_tailed":
        if p is None:
            raise ValueError(f"p (moment order, 003 Assumption 3) is required for algorithm={algorithm!r}, "
                             "got p=None")
        p = check_real("p", p, low=2.0)
    elif p is not None:
        check_real("p", p, low=2.0)
    p_val = 2.0 if p is None else p
    eps_val = epsilon if alg.private else 1.0  # the baselines' rules do not contain epsilon
    out = {}
    given = {}
    if h is not None:
        given["h"] = check_real("h", h, low=0.0, high=1.0, low_open=True)
    if k is not None:
        given["k"] = check_int("k", k, low=1)
        if given["k"] > N:
            raise ValueError(f"k must be <= N={N}, got k={k}")
    params = (beta, 0.0, d, p_val)  # (beta, gamma, d, p): no rule uses gamma
    n_max = math.floor(N)
    for param, direct_rule, log_rule in _rules(algorithm, variant, bool(log_factors)):
        if param in given:
            out[param] = given[param]
            continue
        # The rule as written first: in the float range this is the value every experiment was run
        # with (its configs, hence its random streams, hold h and T bit for bit).
        value = _direct(direct_rule, N, eps_val, beta, d, p_val, num_classes, out.get("h", 1.0), out.get("k", 1))
        if value is not None:
            out[param] = (min(value, 1.0) if param == "h" else
                          int(min(max(round(value), 1), n_max)) if param == "k" else value)
            continue
        # In log space (limits._logspace): N ε² or ε^(-x) may leave the float range where the rule's
        # value does not (ε = 1e-300 gave ZeroDivisionError: Min(ε², 1) = 0.0 raised to a negative power).
        logs = {S.N: math.log(N), S.epsilon: math.log(eps_val), S.K: math.log(num_classes),
                S.h: math.log(out.get("h", 1.0)), S.k: math.log(out.get("k", 1))}
        log_value = log_rule(logs, params)
        what = (f"tuning {param} of {algorithm!r} for N={N!r}, epsilon={epsilon!r}, beta={beta!r}, d={d!r}, "
                f"p={p!r}")
        if math.isnan(log_value):  # an exponent outside the float range (e.g. beta, p near 1e308)
            exp_checked(log_value, what)
        if param == "h":  # capped at 1 (one bin per axis)
            value = exp_checked(min(log_value, 0.0), what)
        elif param == "k":  # the nearest integer in [1, floor(N)], clipped on the log (no overflow)
            if log_value >= math.log(n_max):
                value = n_max
            elif log_value < 0.0:  # below 1 (possibly below the float range): rounded and clipped to 1
                value = 1
            else:
                value = max(int(round(math.exp(log_value))), 1)
        else:
            value = exp_checked(log_value, what)
        out[param] = value
    return out
