"""Sample complexity, the price of privacy and the crossover of the two terms of a Table 1 cell.

Every term of 003 Table 1 is ``(c N)^(-a)`` (see :mod:`limits.rates`), so a one-term cell reaches a
target risk at ``N = target^(-1/a) / c`` exactly; a maximum ``A ∨ B`` reaches it when both terms do
(the larger of the two one-term solutions); a sum ``A + B`` is decreasing in N and is solved in log N
with a bracketing root finder between those two bounds. Constants are 1 throughout, so the N returned
is "up to constants" like the rates themselves, and may be below 1 for a loose target.

Everything is computed on ln N and exponentiated once at the end (``limits._logspace``): ``ε = 1e-100``
no longer overflows an intermediate ``ε^(-b/(b-a))``, and :func:`privacy_cost` is a difference of
logs, finite even when both sample sizes are beyond the float range. A result that is itself outside
the floating-point range (above ~1.8e308, or below ~4.9e-324) raises ``ValueError`` naming the
arguments, as :func:`limits.minimax_rate` does: never a silent ``inf`` or ``0.0``.

References: 003 Table 1; Remark 1 (local label DP costs a factor 1/(ε² ∧ 1) in sample size); the
discussion after Theorems 4 and 8 (the central privacy term becomes negligible as N grows).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from ._args import check_epsilon, check_params, check_privacy, check_task, log_K
from ._logspace import exp_checked
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


def _log_solve(c, coefs, target) -> float:
    """ln N at which the cell with terms ``coefs`` equals ``target`` (may be ±inf or beyond the float
    range of N itself; :func:`exp_checked` decides)."""
    # Each term alone equals the target at log N_i = -log(target)/a_i - log c_i.
    def log_n(lt):
        return [-lt / a - lc for lc, a in coefs]

    lt = math.log(target)
    if c.combine in ("single", "max"):
        return max(log_n(lt))

    def excess(x):  # log(sum of terms) - log(target), decreasing in x = log N
        return np.logaddexp.reduce([-a * (lc + x) for lc, a in coefs]) - lt

    lo = max(log_n(lt))                          # the largest term alone reaches the target: sum >= target
    hi = max(log_n(lt - math.log(len(coefs))))   # every term <= target / n_terms: sum <= target
    if not (math.isfinite(lo) and math.isfinite(hi)) or excess(hi) >= 0:  # inf: out of range anyway;
        return hi                                                         # else equality at the bracket's end
    return brentq(excess, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=200)


def _scalar_or_vectorized(fn, target, eps):
    if np.ndim(target) == 0 and np.ndim(eps) == 0:
        return fn(target, eps)
    t_b, e_b = np.broadcast_arrays(np.asarray(target, dtype=object), np.asarray(eps, dtype=object))
    return np.array([fn(t, e) for t, e in zip(t_b.ravel(), e_b.ravel())], dtype=float).reshape(t_b.shape)


def _checked_cell(task, privacy, epsilon, target, beta, d, gamma, p, num_classes, variant):
    """Validate the arguments shared by :func:`sample_complexity` and :func:`privacy_cost`."""
    task = check_task(task)
    privacy = check_privacy(privacy)
    c = cell(task, privacy, variant=variant)
    prm = check_params(task, beta=beta, d=d, gamma=gamma, p=p, num_classes=num_classes)
    check_epsilon(epsilon, privacy)
    flat = np.ravel(np.asarray(target, dtype=object))
    if flat.size == 0:
        raise ValueError(f"target must not be empty, got target={target!r}")
    for t in flat:
        check_positive("target", t)
    return task, privacy, c, prm


def _log_n(c, prm, privacy, t, e, log_factors) -> float:
    e = None if (privacy == "none" or e is None) else float(e)
    return _log_solve(c, _term_coefficients(c, prm, e, log_factors), float(t))


def sample_complexity(task, privacy, *, target, epsilon=None, beta, d, gamma=None, p=None, num_classes=2,
                      log_factors=False, variant="derived"):
    """Sample size N at which the rate of a Table 1 cell equals ``target`` (constants = 1).

    Exact for one-term and maximum cells; for sum cells (central label DP) the root of the decreasing
    function ``log(A + B) - log(target)`` in log N, bracketed by the one-term solutions. Computed as
    ln N and exponentiated once.

    Parameters
    ----------
    task, privacy, epsilon, beta, d, gamma, p, num_classes, log_factors, variant :
        As in :func:`limits.minimax_rate`.
    target : float or array_like, > 0
        The risk to reach; broadcast with ``epsilon``.

    Returns
    -------
    float, or ndarray of shape ``np.broadcast(target, epsilon).shape``
        The real N (a sample size "up to constants": the smallest integer sample size is its ceiling;
        below 1 for a target the rate meets at every N >= 1).

    Raises
    ------
    ValueError
        Invalid arguments (naming the argument and its value), or an N outside the floating-point
        range (e.g. ``target=1e-300``: N = exp(1727)).

    References
    ----------
    003 Table 1; Remark 1.

    Examples
    --------
    >>> round(sample_complexity("regression", "none", target=0.01, beta=1, d=2))  # 0.01^(-(2β+d)/(2β))
    10000
    """
    task, privacy, c, prm = _checked_cell(task, privacy, epsilon, target, beta, d, gamma, p, num_classes, variant)

    def one(t, e):
        return exp_checked(_log_n(c, prm, privacy, t, e, log_factors),
                           f"sample complexity N of {task}/{privacy} at target={t!r}, epsilon={e!r}")

    return _scalar_or_vectorized(one, target, epsilon)


def privacy_cost(task, privacy, *, target, epsilon=None, beta, d, gamma=None, p=None, num_classes=2,
                 log_factors=False, variant="derived"):
    """``N_private / N_nonprivate``: how many more samples ``privacy`` needs to reach the same ``target``.

    For local label DP in classification and bounded regression this is exactly ``1 / (ε² ∧ 1)``
    (003 Remark 1: N privatized labels are worth about Nε² clean ones); for central label DP it tends to
    1 as the target shrinks (003, after Theorems 4 and 8). The ratio is ``exp(ln N_private -
    ln N_nonprivate)``, so it is returned even where both sample sizes are beyond the float range
    (``target=1e-300``).

    Parameters
    ----------
    task, privacy, target, epsilon, beta, d, gamma, p, num_classes, log_factors, variant :
        As in :func:`sample_complexity`.

    Returns
    -------
    float, or ndarray of shape ``np.broadcast(target, epsilon).shape``

    Raises
    ------
    ValueError
        Invalid arguments, or a ratio outside the floating-point range (``epsilon=1e-300`` in local
        label DP: 1/ε² = 1e600).

    References
    ----------
    003 Remark 1; the discussion after Theorems 4 and 8.

    Examples
    --------
    >>> round(privacy_cost("regression", "local", target=1e-300, epsilon=0.5, beta=1, d=2), 9)  # 1/ε²
    4.0
    """
    task, privacy, c, prm = _checked_cell(task, privacy, epsilon, target, beta, d, gamma, p, num_classes, variant)
    c_np = cell(task, "none", variant=variant)

    def one(t, e):
        log_ratio = _log_n(c, prm, privacy, t, e, log_factors) - _log_n(c_np, prm, "none", t, None, log_factors)
        return exp_checked(log_ratio, f"privacy cost of {task}/{privacy} at target={t!r}, epsilon={e!r}")

    return _scalar_or_vectorized(one, target, epsilon)


def crossover(task, privacy="central", *, epsilon, beta, d, gamma=None, p=None, num_classes=2, log_factors=False,
              variant="derived"):
    """N at which the two terms of a two-term Table 1 cell are equal.

    For central label DP the privacy term ``(εN)^(-b)`` decays faster than the non-private ``N^(-a)``
    (b > a), so this is the N beyond which the privacy term stops dominating:
    ``N = ε^(-b/(b-a))`` (constants 1, no log factors). The same definition serves the other two-term
    cells (local heavy-tailed regression and local-full classification), where the privacy term
    decays slower and *starts* dominating beyond the returned N. A value below 1 means the order of the
    terms is the same at every N >= 1. Computed as ``ln N = (a ln c_1 - b ln c_2) / (b - a)`` and
    exponentiated once (``epsilon=1e-100`` raised ``OverflowError`` before).

    Parameters
    ----------
    task, privacy, beta, d, gamma, p, num_classes, log_factors, variant :
        As in :func:`limits.minimax_rate`; the cell must have two terms.
    epsilon : float > 0
        A scalar.

    Returns
    -------
    float
        The crossover N (real, constants 1).

    Raises
    ------
    ValueError
        For one-term cells; when both terms have the same N-exponent (e.g. central heavy-tailed
        regression at p = 2), where one term dominates at every N; and when the crossover is outside the
        floating-point range (central regression, β = 1, d = 2, ε = 1e-100: N = ε^(-4) = 1e400).

    References
    ----------
    003 Table 1; Theorems 3-4 and 7-8 and the discussion after them.

    Examples
    --------
    >>> round(crossover("regression", "central", epsilon=0.01, beta=1, d=2))  # ε^(-b/(b-a)), b = 2/3, a = 1/2
    100000000
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
    return exp_checked((a1 * lc1 - a2 * lc2) / (a2 - a1),
                       f"crossover N of {task}/{privacy} at epsilon={epsilon!r}, beta={beta!r}, d={d!r}, "
                       f"gamma={gamma!r}, p={p!r}")
