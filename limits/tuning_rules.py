"""Tuning rules of the upper-bound algorithms of 003 (bin width h, neighbour count k, clipping level T).

Each rule is stored symbolically (:func:`symbolic_tuning`, a :class:`TuningRule` per parameter, with its
branches by name: the "nonprivate" and "privacy" parts of a rule ``h ~ A + B`` or ``k ~ A ∨ B``) and
evaluated by :func:`tuning` with constants 1.

Default ``variant="derived"``: the value that balances the bias and variance terms of the theorem's own
proof. ``variant="printed"`` gives the theorem statement as printed. They differ for

* Theorem 10 (local, heavy-tailed regression): printed ``k ~ (Nε²)^(2pβ/(2pβ+d(p-1))) ∨ N^(2β/(2β+d))``;
  balancing eq. (180) gives ``k ~ N^(2pβ/(2pβ+d(p-1))) ε^(-2d(p-1)/(2pβ+d(p-1))) ∨ N^(2β/(2β+d))``;
* Theorem 12 (central, heavy-tailed regression): the statement prints
  ``h ~ N^(-1/(2β+d)) + (εN)^(-1/(pβ+d(p-1)))``; its proof, eq. (195), and the balance of eq. (194)
  give ``(εN)^(-(p-1)/(pβ+d(p-1)))``.

Rounding, so that the estimators can use the result directly: h is capped at 1 (one bin per axis
of the unit cube); k is rounded to the nearest integer and clipped to [1, floor(N)]; a T that depends
on k or h (Theorems 10 and 12) is computed from the rounded k / capped h. ``log_factors`` keeps the
``ln K`` of Theorems 2 and 4 (default True: the rules as the theorems state them).

References: 003 Theorems 2, 4, 6, 8, 10, 12; eq. (84), (119), (141), (154), (181), (195).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from . import symbols as S
from ._args import check_variant
from .validation import check_choice, check_int, check_positive, check_real

__all__ = ["ALGORITHMS", "TuningRule", "symbolic_tuning", "tuning"]

_N, _e, _b, _d, _p, _K = S.N, S.epsilon, S.beta, S.d, S.p, S.K
_D_heavy = 2 * _p * _b + _d * (_p - 1)


@dataclass(frozen=True, slots=True)
class TuningRule:
    """A tuning rule ``param ~ combine(branches)`` (constants 1).

    param : "h", "k" or "T".
    branches : name -> sympy expression ("nonprivate" / "privacy", or "rule" for a single branch).
        Expressions are in N, epsilon, beta, d, p, K and may use an earlier parameter (T uses k or h).
    combine : "single", "sum" or "max".
    source : equation in 003.
    """

    param: str
    branches: dict
    combine: str
    source: str

    @property
    def expr(self) -> sp.Expr:
        parts = list(self.branches.values())
        if self.combine == "single":
            return parts[0]
        return sp.Add(*parts) if self.combine == "sum" else sp.Max(*parts)

    def drop_log_factors(self) -> "TuningRule":
        """The same rule with every ``ln K`` replaced by 1 (constants-only form of the theorem)."""
        return TuningRule(self.param, {n: e.subs(sp.log(_K), 1) for n, e in self.branches.items()},
                          self.combine, self.source)


def _rule(param, combine, source, **branches):
    return TuningRule(param, dict(branches), combine, source)


_k_np = _N ** (2 * _b / (2 * _b + _d))
_h_np_reg = _N ** (-1 / (2 * _b + _d))

_RULES = {
    # algorithm: (task, {variant: (rules...)})
    "local_classification": ("classification", {"derived": (
        _rule("h", "single", "003 Theorem 2, eq. (84)",
              rule=(_N * sp.Min(_e**2, 1) / sp.log(_K)) ** (-1 / (2 * _b + _d))),)}),
    "central_classification": ("classification", {"derived": (
        _rule("h", "sum", "003 Theorem 4, eq. (119)",
              nonprivate=(sp.log(_K) / _N) ** (1 / (2 * _b + _d)),
              privacy=(sp.log(_K) / (_e * _N)) ** (1 / (_b + _d))),)}),
    "local_regression": ("regression", {"derived": (
        _rule("k", "single", "003 Theorem 6, eq. (141)",
              rule=_N ** (2 * _b / (_d + 2 * _b)) * sp.Min(_e, 1) ** (-2 * _d / (_d + 2 * _b))),)}),
    "central_regression": ("regression", {"derived": (
        _rule("h", "sum", "003 Theorem 8, eq. (154)",
              nonprivate=_h_np_reg, privacy=(_e * _N) ** (-1 / (_d + _b))),)}),
    "local_regression_heavy_tailed": ("regression_heavy_tailed", {
        "derived": (
            _rule("k", "max", "003 Theorem 10: balance of eq. (180)",
                  nonprivate=_k_np,
                  privacy=_N ** (2 * _p * _b / _D_heavy) * _e ** (-2 * _d * (_p - 1) / _D_heavy)),
            _rule("T", "single", "003 Theorem 10, eq. (181)", rule=(S.k * _e**2) ** (1 / (2 * _p)))),
        "printed": (
            _rule("k", "max", "003 Theorem 10 statement and eq. (181) as printed",
                  nonprivate=_k_np, privacy=(_N * _e**2) ** (2 * _p * _b / _D_heavy)),
            _rule("T", "single", "003 Theorem 10, eq. (181)", rule=(S.k * _e**2) ** (1 / (2 * _p))))}),
    "central_regression_heavy_tailed": ("regression_heavy_tailed", {
        "derived": (
            _rule("h", "sum", "003 Theorem 12 proof, eq. (195)",
                  nonprivate=_h_np_reg, privacy=(_e * _N) ** (-(_p - 1) / (_p * _b + _d * (_p - 1)))),
            _rule("T", "single", "003 Theorem 12, eq. (194)", rule=(_e * _N * S.h**_d) ** (1 / _p))),
        "printed": (
            _rule("h", "sum", "003 Theorem 12 statement as printed",
                  nonprivate=_h_np_reg, privacy=(_e * _N) ** (-1 / (_p * _b + _d * (_p - 1)))),
            _rule("T", "single", "003 Theorem 12, eq. (194)", rule=(_e * _N * S.h**_d) ** (1 / _p)))}),
}

#: algorithm name -> task it solves.
ALGORITHMS = {name: task for name, (task, _) in _RULES.items()}


def symbolic_tuning(algorithm: str, *, variant: str = "derived", log_factors: bool = True) -> dict:
    """The tuning rules of ``algorithm`` as ``{param: TuningRule}`` (sympy, constants 1).

    ``variant="printed"`` gives the theorem statement where it differs from the derived rule (Theorems
    10 and 12); for the other algorithms both variants are the same rule.
    """
    check_choice("algorithm", algorithm, tuple(_RULES))
    check_variant(variant)
    rules = _RULES[algorithm][1]
    chosen = rules.get(variant, rules["derived"])
    if not log_factors:
        chosen = tuple(r.drop_log_factors() for r in chosen)
    return {r.param: r for r in chosen}


@lru_cache(maxsize=None)
def _numeric(expr: sp.Expr):
    args = (S.N, S.epsilon, S.beta, S.d, S.p, S.K, S.h, S.k)
    return sp.lambdify(args, expr, modules=[{"Min": min, "Max": max}, "math"])


def tuning(algorithm, *, N, eps, beta, d, gamma=None, p=None, K=2, variant="derived", log_factors=True,
           h=None, k=None) -> dict:
    """Tuning of an upper-bound algorithm of 003, constants 1, ready for an estimator.

    Parameters
    ----------
    algorithm : {"local_classification", "central_classification", "local_regression",
        "central_regression", "local_regression_heavy_tailed", "central_regression_heavy_tailed"}
        The algorithms of 003 Theorems 2, 4, 6, 8, 10 and 12.
    N : float >= 1
        Sample size.
    eps : float > 0
        Privacy parameter.
    beta, d, gamma, p, K :
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
    >>> tuning("local_regression", N=1e4, eps=1.0, beta=1, d=2)  # k ~ N^(2β/(d+2β)) = 100, eq. (141)
    {'k': 100}
    """
    check_choice("algorithm", algorithm, tuple(_RULES))
    task = ALGORITHMS[algorithm]
    N = check_real("N", N, low=1.0)
    eps = check_positive("eps", eps)
    beta = check_positive("beta", beta)
    d = check_int("d", d, low=1)
    K = check_int("K", K, low=2)
    if gamma is not None:
        check_real("gamma", gamma, low=0.0)
    if task == "regression_heavy_tailed":
        if p is None:
            raise ValueError(f"p (moment order, 003 Assumption 3) is required for algorithm={algorithm!r}, "
                             "got p=None")
        p = check_real("p", p, low=2.0)
    elif p is not None:
        check_real("p", p, low=2.0)
    p_val = 2.0 if p is None else p
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
        value = float(_numeric(rule.expr)(N, eps, beta, d, p_val, K, h_val, k_val))
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"tuning {param} is not a finite positive number ({value}) for N={N}, eps={eps}; "
                             "the arguments are outside floating-point range")
        if param == "h":
            value = min(value, 1.0)
        elif param == "k":
            value = int(min(max(round(value), 1), math.floor(N)))
        out[param] = value
    return out
