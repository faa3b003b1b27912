"""Closed-form theory of label DP learning: minimax rates (003 Table 1), exponents, sample
complexity and tuning rules, symbolic (sympy) and numeric. Draws no random numbers.

The public names, by topic:

* :func:`minimax_rate`, :func:`rate_terms`, :func:`symbolic_rate`, :func:`printed_rate`,
  :func:`rate_exponent`, :func:`cell`: the cells of 003 Table 1;
* :func:`sample_complexity`, :func:`privacy_cost`, :func:`crossover`: N for a target risk, the price
  of privacy, the crossover of a cell's two terms;
* :data:`ALGORITHMS`, :class:`Algorithm`, :class:`TuningRule`: the upper-bound algorithms of 003
  Theorems 2, 4, 6, 8, 10, 12 and their non-private baselines (theorem, task, privacy model, bins or
  kNN, tuning rules); :func:`tuning`, :func:`symbolic_tuning`: their h / k / T;
* :data:`DISCREPANCIES`, :func:`discrepancies`: where 003's table, statements and proofs disagree
  (the derived forms are the default);
* :mod:`limits.symbols`: the sympy symbols N, epsilon, beta, gamma, d, p, K (and h, k, T);
* :func:`lower_bound`, :class:`LowerBound`, :mod:`limits.lower_bounds`: the explicit lower bounds of
  003 Theorems 1, 3, 5, 7, 9, 11 as numbers;
* :mod:`limits.generalization`: 004 Theorem 17's bound (18) (with the exact Rademacher complexity of all
  [0, 1]-valued functions on a finite domain) and Corollary 10's bound (8);
* :func:`advise`, :class:`Advice`, :mod:`limits.advisor`: closed-form utility proxies of RR, RRWithPrior
  and the two vector mechanisms (keep probability, debiased noise-to-signal, 000 Theorem 2's factor) and
  a recommended mechanism per use case.

Examples
--------
>>> import limits
>>> round(limits.minimax_rate("classification", "local", N=1e6, epsilon=1.0, beta=1, gamma=1, d=2), 12)
0.001
"""

from pathlib import Path as _Path

from ._clash import check_installation as _check_installation

__distribution__ = "labeldp-suite"  # limits._clash.MARKER: this file is the suite's, not PyPI's `limits`
_check_installation(_Path(__file__).parent)

from . import symbols  # noqa: E402
from ._args import PRIVACY, TASKS, VARIANTS  # noqa: E402
from .complexity import crossover, privacy_cost, sample_complexity
from .discrepancies import DISCREPANCIES, Discrepancy, discrepancies
from .rates import Cell, RateTerms, Term, cell, minimax_rate, printed_rate, rate_exponent, rate_terms, symbolic_rate
from .algorithms import ALGORITHMS, Algorithm, TuningRule
from .tuning_rules import symbolic_tuning, tuning
from . import lower_bounds
from .lower_bounds import LowerBound, lower_bound
from . import advisor
from .advisor import Advice, advise

__all__ = [
    "ALGORITHMS", "DISCREPANCIES", "PRIVACY", "TASKS", "VARIANTS",
    "Algorithm", "Cell", "Discrepancy", "RateTerms", "Term", "TuningRule",
    "cell", "crossover", "discrepancies", "minimax_rate", "printed_rate", "privacy_cost", "rate_exponent",
    "rate_terms", "sample_complexity", "symbolic_rate", "symbolic_tuning", "symbols", "tuning",
    "LowerBound", "lower_bound", "lower_bounds", "Advice", "advise", "advisor",
]
