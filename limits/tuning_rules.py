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
from .algorithms import ALGORITHMS
from .validation import check_choice, check_int, check_positive, check_real

__all__ = ["symbolic_tuning", "tuning"]


def symbolic_tuning(algorithm: str, *, variant: str = "derived", log_factors: bool = True) -> dict:
    """The tuning rules of ``algorithm`` as ``{param: TuningRule}`` (sympy, constants 1).

    ``variant="printed"`` gives the theorem statement where it differs from the derived rule (Theorems
    10 and 12); for the other algorithms both variants are the same rule.
    """
    check_choice("algorithm", algorithm, tuple(ALGORITHMS))
    check_variant(variant)
    return ALGORITHMS[algorithm].tuning_rules(variant, log_factors=log_factors)


@lru_cache(maxsize=None)
def _numeric(expr: sp.Expr):
    args = (S.N, S.epsilon, S.beta, S.d, S.p, S.K, S.h, S.k)
    return sp.lambdify(args, expr, modules=[{"Min": min, "Max": max}, "math"])


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
        Sample size.
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

    Examples
    --------
    >>> tuning("local_regression", N=1e4, epsilon=1.0, beta=1, d=2)  # k ~ N^(2β/(d+2β)) = 100, eq. (141)
    {'k': 100}
    """
    check_choice("algorithm", algorithm, tuple(ALGORITHMS))
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
    for param, rule in symbolic_tuning(algorithm, variant=variant, log_factors=log_factors).items():
        if param in given:
            out[param] = given[param]
            continue
        h_val = out.get("h", 1.0)
        k_val = out.get("k", 1)
        value = float(_numeric(rule.expr)(N, eps_val, beta, d, p_val, num_classes, h_val, k_val))
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"tuning {param} is not a finite positive number ({value}) for N={N}, "
                             f"epsilon={epsilon}; the arguments are outside floating-point range")
        if param == "h":
            value = min(value, 1.0)
        elif param == "k":
            value = int(min(max(round(value), 1), math.floor(N)))
        out[param] = value
    return out
