"""Sample complexity, the price of privacy and the crossover of the two terms of a Table 1 cell.

Every term of 003 Table 1 is ``(c N)^(-a)`` (see :mod:`limits.rates`), so a one-term cell reaches a
target risk at ``N = target^(-1/a) / c`` exactly; a maximum ``A ∨ B`` reaches it when both terms do
(the larger of the two one-term solutions); a sum ``A + B`` is decreasing in N and is solved in log N
with a bracketing root finder between those two bounds. Constants are 1 throughout, so the N returned
is "up to constants" like the rates themselves, and may be below 1 for a loose target.

References: 003 Table 1; Remark 1 (local label DP costs a factor 1/(ε² ∧ 1) in sample size); the
discussion after Theorems 4 and 8 (the central privacy term becomes negligible as N grows).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from ._args import check_epsilon, check_params, check_privacy, check_task, log_K
from .validation import check_positive
from .rates import _BASES, _exponent_value, cell

__all__ = ["crossover", "privacy_cost", "sample_complexity"]


def _term_coefficients(c, prm, eps, log_factors):
    """[(log c_i, a_i)] for the terms (c_i N)^(-a_i) of cell ``c``."""
    out = []
    for t in c.terms:
        lc = float(_BASES[t.base][1](np.asarray(eps if eps is not None else 1.0, dtype=float)))
        if log_factors and t.log_K:
            lc -= math.log(log_K(prm.K))
        out.append((lc, _exponent_value(t, prm)))
    return out


def _solve(c, coefs, target):
    # Each term alone equals the target at log N_i = -log(target)/a_i - log c_i.
    def log_n(lt):
        return [-lt / a - lc for lc, a in coefs]

    lt = math.log(target)
    if c.combine in ("single", "max"):
        return _exp_checked(max(log_n(lt)), target)

    def excess(x):  # log(sum of terms) - log(target), decreasing in x = log N
        return np.logaddexp.reduce([-a * (lc + x) for lc, a in coefs]) - lt

    lo = max(log_n(lt))                          # the largest term alone reaches the target: sum >= target
    hi = max(log_n(lt - math.log(len(coefs))))   # every term <= target / n_terms: sum <= target
    if excess(hi) >= 0:  # equality up to rounding at the bracket's end
        return _exp_checked(hi, target)
    return _exp_checked(brentq(excess, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=200), target)


def _exp_checked(log_n: float, target: float) -> float:
    if log_n > math.log(np.finfo(float).max):
        raise ValueError(f"target={target!r} needs N = exp({log_n:.6g}), beyond floating-point range")
    return math.exp(log_n)


def _scalar_or_vectorized(fn, target, eps):
    if np.ndim(target) == 0 and np.ndim(eps) == 0:
        return fn(target, eps)
    t_b, e_b = np.broadcast_arrays(np.asarray(target, dtype=object), np.asarray(eps, dtype=object))
    return np.array([fn(t, e) for t, e in zip(t_b.ravel(), e_b.ravel())], dtype=float).reshape(t_b.shape)


def sample_complexity(task, privacy, *, target, epsilon=None, beta, d, gamma=None, p=None, num_classes=2,
                      log_factors=False, variant="derived"):
    """Sample size N at which the rate of a Table 1 cell equals ``target`` (constants = 1).

    Parameters are those of :func:`limits.minimax_rate`; ``target`` (> 0) replaces N. ``target`` and
    ``epsilon`` may be arrays (broadcast); a float is returned for scalars.

    Exact for one-term and maximum cells; for sum cells (central label DP) the root of the decreasing
    function ``log(A + B) - log(target)`` in log N, bracketed by the one-term solutions.

    Examples
    --------
    >>> round(sample_complexity("regression", "none", target=0.01, beta=1, d=2))  # 0.01^(-(2β+d)/(2β))
    10000
    """
    task = check_task(task)
    privacy = check_privacy(privacy)
    c = cell(task, privacy, variant=variant)
    prm = check_params(task, beta=beta, d=d, gamma=gamma, p=p, num_classes=num_classes)
    check_epsilon(epsilon, privacy)
    if np.ndim(target) == 0:
        check_positive("target", target)
    else:
        for t in np.ravel(target):
            check_positive("target", t)

    def one(t, e):
        e = None if (privacy == "none" or e is None) else float(e)
        return _solve(c, _term_coefficients(c, prm, e, log_factors), float(t))

    return _scalar_or_vectorized(one, target, epsilon)


def privacy_cost(task, privacy, *, target, epsilon=None, beta, d, gamma=None, p=None, num_classes=2,
                 log_factors=False, variant="derived"):
    """``N_private / N_nonprivate``: how many more samples ``privacy`` needs to reach the same ``target``.

    For local label DP in classification and bounded regression this is exactly ``1 / (ε² ∧ 1)``
    (003 Remark 1: N privatized labels are worth about Nε² clean ones); for central label DP it tends to
    1 as the target shrinks (003, after Theorems 4 and 8).
    """
    kw = dict(target=target, beta=beta, d=d, gamma=gamma, p=p, num_classes=num_classes, log_factors=log_factors)
    n_priv = sample_complexity(task, privacy, epsilon=epsilon, variant=variant, **kw)
    n_np = sample_complexity(task, "none", variant=variant, **kw)
    return n_priv / n_np


def crossover(task, privacy="central", *, epsilon, beta, d, gamma=None, p=None, num_classes=2, log_factors=False,
              variant="derived"):
    """N at which the two terms of a two-term Table 1 cell are equal.

    For central label DP the privacy term ``(εN)^(-b)`` decays faster than the non-private ``N^(-a)``
    (b > a), so this is the N beyond which the privacy term stops dominating:
    ``N = ε^(-b/(b-a))`` (constants 1, no log factors). The same definition serves the other two-term
    cells (local heavy-tailed regression and local-full classification), where the privacy term
    decays slower and *starts* dominating beyond the returned N. A value below 1 means the order of the
    terms is the same at every N >= 1.

    Raises
    ------
    ValueError
        For one-term cells, and when both terms have the same N-exponent (e.g. central heavy-tailed
        regression at p = 2), where one term dominates at every N.
    """
    task = check_task(task)
    privacy = check_privacy(privacy)
    c = cell(task, privacy, variant=variant)
    prm = check_params(task, beta=beta, d=d, gamma=gamma, p=p, num_classes=num_classes)
    if len(c.terms) != 2:
        raise ValueError(f"privacy={privacy!r} gives a one-term rate for task={task!r}; crossover needs a "
                         "two-term cell (privacy='central', or the local heavy-tailed / local-full "
                         "classification cells)")
    if np.ndim(epsilon) != 0:
        raise ValueError(f"epsilon must be a scalar for crossover, got epsilon={epsilon!r}")
    e, _ = check_epsilon(epsilon, privacy)
    (lc1, a1), (lc2, a2) = _term_coefficients(c, prm, float(e), log_factors)
    if math.isclose(a1, a2, rel_tol=1e-12, abs_tol=0.0):
        raise ValueError(f"both terms of the {task}/{privacy} cell decay as N^(-{a1:g}) for these parameters "
                         f"(beta={beta}, d={d}, gamma={gamma}, p={p}); their ratio does not depend on N, so "
                         "there is no crossover")
    # (c1 N)^(-a1) = (c2 N)^(-a2)  <=>  log N = (a1 log c1 - a2 log c2) / (a2 - a1)
    return math.exp((a1 * lc1 - a2 * lc2) / (a2 - a1))
