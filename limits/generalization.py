"""Closed forms of 004 Appendices F-G: the bounds of Theorem 17 (eq. (18)) and Corollary 10 (eq. (8)).

* :func:`debiased_loss_constants` -- p_{k,ε} = 1/(e^ε + k - 1), the Lipschitz factor (1 + kp)/(1 - kp)
  of Lemma 19 and the width (1 + (k - 2)p)/(1 - kp) of the range of the debiased loss (17) when ℓ
  takes values in [0, 1] (derived: ℓ̃ = ((1 - p) ℓ(ỹ) - p Σ_{y'≠ỹ} ℓ(y')) / (1 - kp) with ỹ ∈ Y_k).
* :func:`rademacher_all_functions` -- the exact Rademacher complexity (004 Definition G.2) of the class
  of *all* functions from a finite domain to [0, 1]: sup_f Σ_i σ_i f(x_i) = Σ_x max(0, S_x), S_x the
  sum of the N_x signs that fall on x, so R_n = (1/(2n)) Σ_x E|S_{N_x}|, N_x ~ Binomial(n, P(x)) and
  E|S_N| = N C(N-1, ⌊(N-1)/2⌋) / 2^(N-1) (the mean distance of a simple random walk).
* :func:`theorem17_bound` -- the right-hand side of 004 eq. (18), as printed, or with the range
  width of ℓ̃ on the confidence term (``corrected=True``, see ``proofs_checks.findings``, topic
  "004 thm17 debiased loss range").
* :func:`corollary10_bound` -- DL (k log n / (ε√n) + Pr[y ∉ Y_k]) with a stated constant (004 eq. (8)
  hides it in O(·)).

References: 004 eq. (8)-(10), (17)-(18), (22), Lemmas 19-21, Definition G.2, Theorem 17, Corollary 10.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

from .validation import check_int, check_positive, check_probability_vector, check_real

__all__ = ["MAX_N", "corollary10_bound", "debiased_loss_constants", "rademacher_all_functions", "theorem17_bound"]

#: largest n :func:`rademacher_all_functions` sums over (n terms per point)
MAX_N = 10**7


def debiased_loss_constants(k: int, epsilon: float) -> tuple[float, float, float]:
    """p_{k,ε}, Lemma 19's Lipschitz factor and the range width of the debiased loss (004 eq. (17)).

    Parameters
    ----------
    k : int >= 1
        Size of the candidate set Y_k.
    epsilon : float > 0
        ε of RRTop-k.

    Returns
    -------
    p, lipschitz_factor, range_width : float
        ``p = 1/(e^ε + k - 1)``, ``(1 + kp)/(1 - kp)`` (004 Lemma 19, eq. (27)) and
        ``(1 + (k - 2)p)/(1 - kp)``: ℓ̃ ranges over an interval of that width when ℓ ranges over [0, 1].

    Raises
    ------
    ValueError
        If ``k`` < 1 or ``epsilon`` <= 0.

    References
    ----------
    004 eq. (17), Lemma 19, eq. (27).

    Examples
    --------
    k = 2, e^ε = 3: p = 1/4, Lipschitz factor (3/2)/(1/2) = 3, range width 1/(1/2) = 2:

    >>> [round(v, 12) for v in debiased_loss_constants(2, math.log(3))]
    [0.25, 3.0, 2.0]
    """
    k = check_int("k", k, low=1)
    epsilon = check_positive("epsilon", epsilon)
    if epsilon <= 700.0:
        p = 1.0 / (math.expm1(epsilon) + k)
        one_minus = math.expm1(epsilon) / (math.expm1(epsilon) + k)  # 1 - kp without cancellation
    else:  # e^ε overflows: p = e^-ε/(1 + (k - 1)e^-ε) underflows to 0 and 1 - kp to 1
        e = math.exp(-epsilon)
        p, one_minus = e / (1.0 + (k - 1) * e), 1.0 / (1.0 + (k - 1) * e)
    return p, (1.0 + k * p) / one_minus, (1.0 + (k - 2) * p) / one_minus


def rademacher_all_functions(n: int, probs) -> float:
    """Exact Rademacher complexity R_n of all functions from a finite domain to [0, 1] (004 Def. G.2).

    Parameters
    ----------
    n : int >= 1
        Sample size.
    probs : array_like of float, shape (m,)
        P_X, the law of x on the m points (sums to 1).

    Returns
    -------
    float
        ``(1/(2n)) Σ_x E|S_{N_x}|`` with ``N_x ~ Binomial(n, P(x))``: float64 sums of log-space terms,
        relative error about 1e-12.

    Raises
    ------
    ValueError
        If ``n`` < 1 or ``probs`` is not a probability vector.

    References
    ----------
    004 Definitions G.1-G.2 (the R_{n,P_X}(F) of eq. (18)).

    Examples
    --------
    One point, n = 3: E|S_3| = 3/2, so R_3 = (3/2)/6 = 1/4:

    >>> round(rademacher_all_functions(3, [1.0]), 12)
    0.25
    """
    n = check_int("n", n, low=1)
    if n > MAX_N:
        raise ValueError(f"n must be <= {MAX_N} (the sum has n terms per point), got n={n}")
    P = check_probability_vector("probs", probs)
    N = np.arange(1, n + 1, dtype=float)
    h = np.floor((N - 1) / 2)
    log_abs = np.log(N) + gammaln(N) - gammaln(h + 1) - gammaln(N - h) - (N - 1) * math.log(2.0)  # E|S_N|
    total = 0.0
    for px in P:
        if px <= 0.0:
            continue
        if px >= 1.0:
            total += math.exp(log_abs[-1])
            continue
        log_pmf = gammaln(n + 1) - gammaln(N + 1) - gammaln(n - N + 1) + N * math.log(px) + (n - N) * math.log1p(-px)
        total += float(np.exp(log_pmf + log_abs).sum())
    return total / (2.0 * n)


def theorem17_bound(n, *, k: int, epsilon: float, lipschitz: float, rademacher, miss_rate, beta: float,
                    corrected: bool = False):
    """The right-hand side of 004 eq. (18).

    ``2 L (1 + kp)/(1 - kp) R_n + c √(log(2/β)/(2n)) + Pr[y ∉ Y_k]`` with c = 1 as printed, or
    c = (1 + (k - 2)p)/(1 - kp), the range width of ℓ̃, when ``corrected`` (004's proof applies
    Lemma 21, stated for [0, 1]-valued classes, to ℓ̃ ∘ F, whose range is that wide).

    Parameters
    ----------
    n : int or array_like of int
        Sample size(s), >= 1.
    k : int >= 1
        The size of Y_k.
    epsilon : float > 0
        ε of RRTop-k.
    lipschitz : float > 0
        L, the Lipschitz constant of ℓ in its first argument.
    rademacher : float or array_like
        R_{n,P_X}(F), >= 0 (same shape as ``n``).
    miss_rate : float or array_like
        Pr[y ∉ Y_k^x], in [0, 1].
    beta : float in (0, 1)
        The bound holds with probability >= 1 - β.
    corrected : bool, default False
        Scale the confidence term by the range width of ℓ̃.

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Theorem 17, eq. (18), Lemmas 19-21.

    Examples
    --------
    k = 2, e^ε = 3 (Lipschitz factor 3, width 2), L = 1, R_n = 0, miss 0, β = 2/e²: log(2/β) = 2, so the
    printed bound is √(1/n) = 0.1 at n = 100 and the corrected one 0.2:

    >>> b = 2 * math.exp(-2)
    >>> round(theorem17_bound(100, k=2, epsilon=math.log(3), lipschitz=1.0, rademacher=0.0, miss_rate=0.0, beta=b), 12)
    0.1
    >>> round(theorem17_bound(100, k=2, epsilon=math.log(3), lipschitz=1.0, rademacher=0.0, miss_rate=0.0, beta=b,
    ...                       corrected=True), 12)
    0.2
    """
    beta = check_real("beta", beta, low=0.0, high=1.0, low_open=True, high_open=True)
    lipschitz = check_positive("lipschitz", lipschitz)
    _, lip, width = debiased_loss_constants(k, epsilon)
    n = np.asarray(n, dtype=float)
    if np.any(n < 1):
        raise ValueError(f"n must be >= 1, got n={n!r}")
    conf = (width if corrected else 1.0) * np.sqrt(math.log(2.0 / beta) / (2.0 * n))
    out = 2.0 * lipschitz * lip * np.asarray(rademacher, dtype=float) + conf + np.asarray(miss_rate, dtype=float)
    return float(out) if out.ndim == 0 else out


def corollary10_bound(n, *, k: int, epsilon: float, diameter: float, lipschitz: float, miss_rate,
                      constant: float = 1.0):
    """``constant · D L (k log n / (ε √n) + Pr[y ∉ Y_k])``: 004 eq. (8) with its O(·) constant made explicit.

    Parameters
    ----------
    n : int or array_like of int
        Sample size(s) (one SGD step each), >= 2.
    k : int >= 1
        The size of Y_k.
    epsilon : float > 0
        ε.
    diameter : float > 0
        D, the diameter of the parameter space.
    lipschitz : float > 0
        L, the Lipschitz constant of the loss.
    miss_rate : float or array_like
        Pr[y ∉ Y_k^x].
    constant : float > 0, default 1
        The constant 004 leaves in O(·).

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Corollary 6, Corollary 10, eq. (8).

    Examples
    --------
    >>> round(corollary10_bound(math.e ** 2, k=1, epsilon=1.0, diameter=1.0, lipschitz=1.0, miss_rate=0.1), 10)
    0.8357588823
    """
    for name, v in (("k", k), ("epsilon", epsilon), ("diameter", diameter), ("lipschitz", lipschitz),
                    ("constant", constant)):
        check_positive(name, v)
    n = np.asarray(n, dtype=float)
    if np.any(n < 2):
        raise ValueError(f"n must be >= 2, got n={n!r}")
    out = constant * diameter * lipschitz * (k * np.log(n) / (epsilon * np.sqrt(n)) + np.asarray(miss_rate, float))
    return float(out) if out.ndim == 0 else out
