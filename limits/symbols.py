"""The sympy symbols of the rate formulas of 003 Table 1 and of the tuning rules.

``N`` sample size, ``epsilon`` privacy parameter, ``beta`` Hölder exponent (003 Assumption 1(a)),
``gamma`` Tsybakov margin exponent (Assumption 1(b)), ``d`` feature dimension, ``p`` moment order of
heavy-tailed labels (Assumption 3), ``K`` number of classes; ``h`` bin width, ``k`` neighbour count and
``T`` clipping level appear in the tuning rules. All are positive (``gamma`` non-negative), which lets
sympy simplify powers and limits.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["N", "epsilon", "beta", "gamma", "d", "p", "K", "h", "k", "T", "RATE_SYMBOLS"]

N = sp.Symbol("N", positive=True)
epsilon = sp.Symbol("epsilon", positive=True)
beta = sp.Symbol("beta", positive=True)
gamma = sp.Symbol("gamma", nonnegative=True)
d = sp.Symbol("d", positive=True)
p = sp.Symbol("p", positive=True)
K = sp.Symbol("K", positive=True)
h = sp.Symbol("h", positive=True)
k = sp.Symbol("k", positive=True)
T = sp.Symbol("T", positive=True)

#: The symbols a rate expression may contain, by name (for ``sympy.sympify(..., locals=...)``).
RATE_SYMBOLS = {s.name: s for s in (N, epsilon, beta, gamma, d, p, K, h, k, T)}
