"""The upper-bound algorithms of 003 and their non-private baselines: one frozen record each.

An :class:`Algorithm` says which theorem it is, the task and privacy model it solves (the cell of
003 Table 1 it attains), whether it partitions the cube into bins or averages k nearest neighbours,
and its tuning rules (a :class:`TuningRule` per parameter h / k / T, by variant). Everything that
needs to know about an algorithm — :func:`limits.tuning`, ``simulations.estimators.make_estimator``,
the rate experiments — reads this table; nothing parses algorithm names.

Tuning rules have constants 1. A rule ``h ~ A + B`` or ``k ~ A ∨ B`` names its branches
"nonprivate" and "privacy"; a rule with one branch calls it "rule". Variant ``"derived"`` (the
default) balances the bias and variance terms of the theorem's own proof; ``"printed"`` is the
theorem statement where it differs:

* Theorem 10 (local, heavy-tailed regression): printed ``k ~ (Nε²)^(2pβ/(2pβ+d(p-1))) ∨ N^(2β/(2β+d))``;
  balancing eq. (180) gives ``k ~ N^(2pβ/(2pβ+d(p-1))) ε^(-2d(p-1)/(2pβ+d(p-1))) ∨ N^(2β/(2β+d))``;
* Theorem 12 (central, heavy-tailed regression): the statement prints
  ``h ~ N^(-1/(2β+d)) + (εN)^(-1/(pβ+d(p-1)))``; its proof, eq. (195), and the balance of eq. (194)
  give ``(εN)^(-(p-1)/(pβ+d(p-1)))``.

The non-private baselines use the ε-free branch of the matching private rule: Theorem 2's bin width at
ε ≥ 1, Theorem 6's k at ε ≥ 1, Theorem 8's ``h ~ N^(-1/(2β+d))``.

References: 003 Theorems 2, 4, 6, 8, 10, 12; eq. (84), (119), (141), (154), (181), (194), (195).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

import sympy as sp

from . import symbols as S
from ._args import PRIVACY, TASKS, VARIANTS

__all__ = ["ALGORITHMS", "NEIGHBOURHOODS", "Algorithm", "TuningRule"]

#: how an algorithm localizes: a partition into cubes of side h, or the k nearest neighbours
NEIGHBOURHOODS = ("bins", "knn")

_N, _e, _b, _d, _p, _K = S.N, S.epsilon, S.beta, S.d, S.p, S.K
_D_heavy = 2 * _p * _b + _d * (_p - 1)


@dataclass(frozen=True, slots=True)
class TuningRule:
    """A tuning rule ``param ~ combine(branches)`` of an algorithm of 003 (constants 1).

    Parameters
    ----------
    param : {"h", "k", "T"}
        Bin width, neighbour count or clipping level.
    branches : dict
        Branch name -> sympy expression ("nonprivate" / "privacy", or "rule" for a single branch).
        Expressions are in N, epsilon, beta, d, p, K and may use an earlier parameter (T uses k or h).
    combine : {"single", "sum", "max"}
        The one branch, the sum of the two, or the larger.
    source : str
        The equation of 003 it comes from.

    References
    ----------
    003 eq. (84), (119), (141), (154), (181), (194), (195).

    Examples
    --------
    >>> rule = ALGORITHMS["central_regression"].tuning_rules()["h"]
    >>> rule.combine, sorted(rule.branches), rule.source
    ('sum', ['nonprivate', 'privacy'], '003 Theorem 8, eq. (154)')
    """

    param: str
    branches: dict
    combine: str
    source: str

    @property
    def expr(self) -> sp.Expr:
        """The rule as one sympy expression (``Add`` for "sum", ``Max`` for "max").

        Examples
        --------
        >>> ALGORITHMS["local_regression"].tuning_rules()["k"].expr  # 003 eq. (141)
        N**(2*beta/(2*beta + d))/Min(1, epsilon)**(2*d/(2*beta + d))
        """
        parts = list(self.branches.values())
        if self.combine == "single":
            return parts[0]
        return sp.Add(*parts) if self.combine == "sum" else sp.Max(*parts)

    def drop_log_factors(self) -> "TuningRule":
        """The same rule with every ``ln K`` replaced by 1 (constants-only form of the theorem).

        Returns
        -------
        TuningRule
            A new rule; this one is unchanged.

        Examples
        --------
        >>> rule = ALGORITHMS["central_classification"].tuning_rules()["h"]  # 003 eq. (119)
        >>> rule.drop_log_factors().branches["nonprivate"]
        N**(-1/(2*beta + d))
        """
        return TuningRule(self.param, {n: e.subs(sp.log(_K), 1) for n, e in self.branches.items()},
                          self.combine, self.source)


@dataclass(frozen=True, slots=True)
class Algorithm:
    """An upper-bound algorithm of 003 (or a non-private baseline) with its tuning rules.

    Parameters
    ----------
    name : str
        Key in :data:`ALGORITHMS` (e.g. ``"central_regression"``).
    theorem : str
        Where it is stated (``"003 Theorem 8"``), or what a baseline is taken from.
    task : {"classification", "regression", "regression_heavy_tailed"}
        The Table 1 row it attains (:data:`limits.TASKS`).
    privacy : {"local", "central", "none"}
        Its privacy model (:data:`limits.PRIVACY`; ``"none"`` for the baselines).
    neighbourhood : {"bins", "knn"}
        A partition of the cube into bins of side h, or the k nearest neighbours.
    rules : mapping
        Variant ("derived", optionally "printed") -> the tuning rules, in evaluation order (T may use h
        or k).

    Raises
    ------
    ValueError
        If ``task``, ``privacy`` or ``neighbourhood`` is not a known name, or ``rules`` lacks "derived".

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12.

    Examples
    --------
    >>> a = ALGORITHMS["local_regression_heavy_tailed"]
    >>> a.theorem, a.neighbourhood, a.params, a.private
    ('003 Theorem 10', 'knn', ('k', 'T'), True)
    """

    name: str
    theorem: str
    task: str
    privacy: str
    neighbourhood: str
    rules: MappingProxyType = field(compare=False)  # a mapping is unhashable; the name identifies

    def __post_init__(self):
        if self.task not in TASKS or self.privacy not in PRIVACY or self.neighbourhood not in NEIGHBOURHOODS:
            raise ValueError(f"inconsistent algorithm record {self.name!r}: task={self.task!r}, "
                             f"privacy={self.privacy!r}, neighbourhood={self.neighbourhood!r}")
        if "derived" not in self.rules or set(self.rules) - set(VARIANTS):
            raise ValueError(f"rules of {self.name!r} must be keyed by {VARIANTS} with 'derived' present, "
                             f"got {tuple(self.rules)}")

    @property
    def private(self) -> bool:
        """True unless the algorithm is a non-private baseline (``privacy == "none"``).

        Examples
        --------
        >>> ALGORITHMS["nonprivate_regression"].private
        False
        """
        return self.privacy != "none"

    @property
    def needs_label_bound(self) -> bool:
        """Private bounded regression (003 Theorems 6 and 8): the mechanism's noise scale uses the label
        bound T of Assumption 2, an input of the algorithm rather than a tuning parameter.

        Examples
        --------
        >>> ALGORITHMS["central_regression"].needs_label_bound
        True
        """
        return self.private and self.task == "regression"

    @property
    def params(self) -> tuple[str, ...]:
        """The tuned parameters, in evaluation order.

        Examples
        --------
        >>> ALGORITHMS["central_regression_heavy_tailed"].params  # 003 Theorem 12: h, then T from h
        ('h', 'T')
        """
        return tuple(r.param for r in self.rules["derived"])

    def tuning_rules(self, variant: str = "derived", *, log_factors: bool = True) -> dict:
        """The tuning rules of one variant, by parameter.

        Parameters
        ----------
        variant : {"derived", "printed"}, default "derived"
            The printed rules where the theorem statement differs (003 Theorems 10, 12); the derived
            rules otherwise.
        log_factors : bool, default True
            Keep the :math:`\\ln K` of 003 Theorems 2 and 4 (False replaces it by 1).

        Returns
        -------
        dict
            ``{param: TuningRule}`` in evaluation order.

        Examples
        --------
        >>> ALGORITHMS["central_regression_heavy_tailed"].tuning_rules("printed")["h"].source
        '003 Theorem 12 statement as printed'
        """
        chosen = self.rules.get(variant, self.rules["derived"])
        if not log_factors:
            chosen = tuple(r.drop_log_factors() for r in chosen)
        return {r.param: r for r in chosen}


def _rule(param, combine, source, **branches):
    return TuningRule(param, dict(branches), combine, source)


def _algorithm(name, theorem, task, privacy, neighbourhood, **rules):
    return Algorithm(name, theorem, task, privacy, neighbourhood, MappingProxyType(rules))


_h_np_cls = (_N * sp.Min(_e**2, 1) / sp.log(_K)) ** (-1 / (2 * _b + _d))  # eq. (84); ε-free at ε >= 1
_k_np_loc = _N ** (2 * _b / (_d + 2 * _b)) * sp.Min(_e, 1) ** (-2 * _d / (_d + 2 * _b))  # eq. (141)
_k_np = _N ** (2 * _b / (2 * _b + _d))
_h_np_reg = _N ** (-1 / (2 * _b + _d))
_T_heavy_local = _rule("T", "single", "003 Theorem 10, eq. (181)", rule=(S.k * _e**2) ** (1 / (2 * _p)))
_T_heavy_central = _rule("T", "single", "003 Theorem 12, eq. (194)", rule=(_e * _N * S.h**_d) ** (1 / _p))

_TABLE = (
    _algorithm("local_classification", "003 Theorem 2", "classification", "local", "bins", derived=(
        _rule("h", "single", "003 Theorem 2, eq. (84)", rule=_h_np_cls),)),
    _algorithm("central_classification", "003 Theorem 4", "classification", "central", "bins", derived=(
        _rule("h", "sum", "003 Theorem 4, eq. (119)",
              nonprivate=(sp.log(_K) / _N) ** (1 / (2 * _b + _d)),
              privacy=(sp.log(_K) / (_e * _N)) ** (1 / (_b + _d))),)),
    _algorithm("local_regression", "003 Theorem 6", "regression", "local", "knn", derived=(
        _rule("k", "single", "003 Theorem 6, eq. (141)", rule=_k_np_loc),)),
    _algorithm("central_regression", "003 Theorem 8", "regression", "central", "bins", derived=(
        _rule("h", "sum", "003 Theorem 8, eq. (154)", nonprivate=_h_np_reg, privacy=(_e * _N) ** (-1 / (_d + _b))),)),
    _algorithm("local_regression_heavy_tailed", "003 Theorem 10", "regression_heavy_tailed", "local", "knn",
               derived=(_rule("k", "max", "003 Theorem 10: balance of eq. (180)", nonprivate=_k_np,
                              privacy=_N ** (2 * _p * _b / _D_heavy) * _e ** (-2 * _d * (_p - 1) / _D_heavy)),
                        _T_heavy_local),
               printed=(_rule("k", "max", "003 Theorem 10 statement and eq. (181) as printed",
                              nonprivate=_k_np, privacy=(_N * _e**2) ** (2 * _p * _b / _D_heavy)),
                        _T_heavy_local)),
    _algorithm("central_regression_heavy_tailed", "003 Theorem 12", "regression_heavy_tailed", "central", "bins",
               derived=(_rule("h", "sum", "003 Theorem 12 proof, eq. (195)", nonprivate=_h_np_reg,
                              privacy=(_e * _N) ** (-(_p - 1) / (_p * _b + _d * (_p - 1)))),
                        _T_heavy_central),
               printed=(_rule("h", "sum", "003 Theorem 12 statement as printed", nonprivate=_h_np_reg,
                              privacy=(_e * _N) ** (-1 / (_p * _b + _d * (_p - 1)))),
                        _T_heavy_central)),
    # non-private baselines: the ε-free branch of the matching private rule
    _algorithm("nonprivate_classification", "baseline: 003 Theorem 2's rule at ε >= 1", "classification", "none",
               "bins", derived=(_rule("h", "single", "003 eq. (84) at ε = 1", rule=_h_np_cls.subs(_e, 1)),)),
    _algorithm("nonprivate_regression", "baseline: 003 Theorem 8's non-private branch", "regression", "none",
               "bins", derived=(_rule("h", "single", "003 eq. (154), first term", rule=_h_np_reg),)),
    _algorithm("nonprivate_regression_knn", "baseline: 003 Theorem 6's rule at ε >= 1", "regression", "none",
               "knn", derived=(_rule("k", "single", "003 eq. (141) at ε = 1", rule=_k_np_loc.subs(_e, 1)),)),
)

#: algorithm name -> :class:`Algorithm` (003 Theorems 2, 4, 6, 8, 10, 12 and three non-private baselines)
ALGORITHMS = MappingProxyType({a.name: a for a in _TABLE})
