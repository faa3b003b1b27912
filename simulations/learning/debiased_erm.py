"""Debiased-loss ERM on RRTop-k labels over a finite domain, scored exactly (004 Theorem 17, eq. (17)-(18)).

Setting of 004 Appendix G with a class whose uniform deviation and ERM are exact: the domain is the m
cells of a :class:`~simulations.laws.top_k_miss.MissRateLaw`, F is *every* function from the cells to
[0, 1], and the loss is the squared loss ``ℓ(t, (x, y)) = (t - c_y)²`` with label values
``c_y = y/(K - 1)`` (range [0, 1], L = 2 on t ∈ [0, 1]).

Per cell x, with N_x examples of which C[x, y] carry the released label y, the debiased empirical risk
(eq. (17), p = 1/(e^ε + k - 1)) is the quadratic

    n L̃_x(t) = N_x t² - 2 t M_x + Q_x,   M_x = (Σ_y C[x,y] c_y - p N_x Σ_{y'∈Y_k^x} c_{y'}) / (1 - kp)

(Q_x likewise with c²), and the population risk is ``P(x)(t² - 2 t μ_x + s_x)`` with μ_x, s_x the
first two moments of c_y under η(x). Their difference D_x(t) is a quadratic in t, so

* the uniform deviation of Theorem 17, ``sup_{f∈F} |L̃(f; S̃) - L(f; P)| = max(Σ_x max_t D_x, -Σ_x min_t D_x)``
  (f chosen cell by cell), is exact: the extremes of a quadratic on [0, 1] lie at 0, 1 or its vertex;
* the ERM is ``f̂(x) = clip(M_x / N_x, 0, 1)`` (1/2 on a cell without data) and its excess population
  risk ``Σ_x P(x)(f̂(x) - μ_x)²`` is exact (the minimizer over F is μ_x ∈ [0, 1]).

``deviation_at_zero`` is ``|L̃ - L|`` for the one function f ≡ 0 (the class {f ≡ 0}, whose Rademacher
complexity is 0: the case where 004 eq. (18)'s confidence term alone must hold).

References: 004 eq. (17), (18), Theorem 17, Lemmas 18-20.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from limits.generalization import theorem17_bound
from simulations.laws.top_k_miss import MissRateLaw

__all__ = ["debiased_erm_scores", "label_values", "one_function_violation_probability", "population_gaps"]


def label_values(num_classes: int) -> np.ndarray:
    """c_y = y / (K - 1), y = 0..K-1: the targets of the squared loss, shape (K,).

    Parameters
    ----------
    num_classes : int >= 2

    Returns
    -------
    ndarray of float64, shape (K,)

    References
    ----------
    004 Appendix G (a loss with values in [0, 1]).

    Examples
    --------
    >>> label_values(4).round(4).tolist()
    [0.0, 0.3333, 0.6667, 1.0]
    """
    return np.arange(num_classes) / (num_classes - 1.0)


def _quad_extremes(a, b, g):
    """Per row, max and min over t in [0, 1] of a t² + b t + g (endpoints and the clipped vertex)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(a != 0, np.clip(-b / (2 * a), 0.0, 1.0), 0.0)
    vals = np.stack([g, a + b + g, a * v * v + b * v + g])
    return vals.max(axis=0), vals.min(axis=0)


def debiased_erm_scores(cells, noisy, law: MissRateLaw, epsilon: float) -> dict:
    """Exact uniform deviation, ERM excess risk and one-function deviation from one RRTop-k sample.

    Parameters
    ----------
    cells : array_like of int, shape (n,)
        The cells x_i, in [0, m).
    noisy : array_like of int, shape (n,)
        ỹ_i = RRTop-k(y_i) with the prior of cell x_i (so ỹ_i ∈ Y_k^{x_i}).
    law : MissRateLaw
        The law the pairs were drawn from (η, Y_k^x, m, K, k).
    epsilon : float > 0
        ε of RRTop-k.

    Returns
    -------
    dict
        ``uniform_deviation`` (``sup_f |L̃(f; S̃) - L(f; P)|`` over all f: cells -> [0, 1]),
        ``erm_excess`` (L(f̂; P) - min_f L(f; P)), ``deviation_at_zero`` (``|L̃(0; S̃) - L(0; P)|``), floats.

    Raises
    ------
    ValueError
        If a noisy label lies outside its cell's Y_k^x, the arrays differ in length or are empty.

    References
    ----------
    004 eq. (17)-(18), Theorem 17.

    Examples
    --------
    K = k = 2, one cell, y uniform, ε = ln 3 (p = 1/4): two examples released as 1 and 0 give
    M = (1 - 2/4)/(1/2) = 1, so f̂ = 1/2 = μ (no excess); L̃(0) = (1 - 2/4)/(1/2)/2 = 1/2 = L(0):

    >>> law = MissRateLaw(num_classes=2, tops=((0, 1),), inside=(0.5, 0.5))
    >>> r = debiased_erm_scores([0, 0], [1, 0], law, math.log(3))
    >>> round(r["erm_excess"], 12), round(r["deviation_at_zero"], 12)
    (0.0, 0.0)
    """
    x, z = np.asarray(cells, dtype=np.int64), np.asarray(noisy, dtype=np.int64)
    if x.shape != z.shape or x.ndim != 1 or x.size == 0:
        raise ValueError(f"cells and noisy must be 1-D of the same length >= 1, got shapes {x.shape}, {z.shape}")
    m, K, k = len(law.tops), law.num_classes, law.k
    top = law.top_mask()
    if not top[x, z].all():
        raise ValueError("noisy labels must lie in their cell's Y_k^x (RRTop-k output)")
    n = x.size
    em1 = math.expm1(epsilon)
    p, one_minus = 1.0 / (em1 + k), em1 / (em1 + k)
    c = label_values(K)
    C = np.zeros((m, K))
    np.add.at(C, (x, z), 1.0)
    N = C.sum(axis=1)
    M = (C @ c - p * N * (top @ c)) / one_minus
    Q = (C @ (c * c) - p * N * (top @ (c * c))) / one_minus
    eta = law.eta()
    mu, s = eta @ c, eta @ (c * c)
    a, b, g = N / n - 1.0 / m, -2.0 * (M / n - mu / m), Q / n - s / m
    hi, lo = _quad_extremes(a, b, g)
    with np.errstate(divide="ignore", invalid="ignore"):
        f_hat = np.where(N > 0, np.clip(M / N, 0.0, 1.0), 0.5)
    return {"uniform_deviation": float(max(hi.sum(), -lo.sum())),
            "erm_excess": float(np.mean((f_hat - mu) ** 2)),
            "deviation_at_zero": float(abs(g.sum()))}


def population_gaps(law: MissRateLaw) -> tuple[float, float]:
    """The limits n → ∞ of the two scores: ``sup_f |L(f; P) - L(f; P')|`` and ``L(f*_{P'}; P) - L(f*_P; P)``.

    P' = ξ(P) is what the debiased risk estimates (004 Lemma 20 and the proof of Corollary 10: a label
    outside Y_k^x becomes uniform on Y_k^x), so the uniform deviation of :func:`debiased_erm_scores`
    tends to the first number and the ERM's excess risk to the second (the squared bias of the
    cell means, ``Σ_x P(x)(μ'_x - μ_x)²``).

    Parameters
    ----------
    law : MissRateLaw

    Returns
    -------
    deviation_limit, excess_limit : float
        Exact up to rounding (the risk difference is linear in t, so its extremes lie at t = 0 or 1).

    References
    ----------
    004 Lemma 20 (eq. (19)), eq. (9)-(10).

    Examples
    --------
    Labels 0, 1 on Y_2 with weights 3/4, 1/4, labels 2, 3 outside, q = 0.3: μ' - μ = q(1/6 - 5/6) = -0.2, so
    the excess limit is 0.04:

    >>> law = MissRateLaw(num_classes=4, tops=((0, 1),), inside=(0.75, 0.25), miss_rate=0.3)
    >>> [round(v, 12) for v in population_gaps(law)]
    [0.2, 0.04]
    """
    c = label_values(law.num_classes)
    e, e2 = law.eta(), law.xi_eta()
    mu, mu2 = e @ c, e2 @ c
    diff = np.stack([e @ (c * c) - e2 @ (c * c), (e - e2) @ ((1.0 - c) ** 2)])  # L_P - L_P' at t = 0 and t = 1
    per = diff / len(law.tops)  # P(x) = 1/m
    sup = max(per.max(axis=0).sum(), -per.min(axis=0).sum())
    return float(sup), float(np.mean((mu2 - mu) ** 2))


def one_function_violation_probability(n: int, epsilon: float, beta: float, *, corrected: bool = False) -> float:
    """Exact ``Pr[|L̃(f₀; S̃) - L(f₀; P)| > RHS]`` (004 eq. (18)) for the class F = {f₀ ≡ 0} (R_n = 0).

    Law: K = k = 2 (RRTop-2 on two labels is randomized response), y uniform, ℓ(t, y) = (t - y)², so
    ℓ(f₀, y) = y and no label is missed; the released labels are i.i.d. uniform, Z = Σ ỹ_i ~ Bin(n, 1/2),
    and L̃(f₀; S̃) = (Z/n - p)/(1 - 2p) against L(f₀; P) = 1/2. (18) with R_n = 0 and miss rate 0 claims
    ``|Z/n - 1/2| ≤ (1 - 2p) √(log(2/β)/(2n))`` with probability >= 1 - β.

    Parameters
    ----------
    n : int >= 1
    epsilon : float > 0
    beta : float in (0, 1)
    corrected : bool, default False
        Use the confidence term scaled by the range width of ℓ̃ (:func:`limits.generalization.theorem17_bound`).

    Returns
    -------
    float
        The exact probability (binomial tails), compared with β.

    References
    ----------
    004 Theorem 17, eq. (18), Lemma 21; ``proofs_checks.findings`` topic "004 thm17 debiased loss range".

    Examples
    --------
    >>> round(one_function_violation_probability(1000, 1.0, 0.05), 4) > 0.05
    True
    >>> one_function_violation_probability(1000, 1.0, 0.05, corrected=True) <= 0.05
    True
    """
    rhs = theorem17_bound(n, k=2, epsilon=epsilon, lipschitz=1.0, rademacher=0.0, miss_rate=0.0, beta=beta,
                          corrected=corrected)
    em1 = math.expm1(epsilon)
    half_width = n * rhs * em1 / (em1 + 2)  # |Z - n/2| > n (1 - 2p) rhs
    lo = math.ceil(n / 2 - half_width) - 1  # Z <= lo violates
    hi = math.floor(n / 2 + half_width) + 1  # Z >= hi violates
    return float(sps.binom.cdf(lo, n, 0.5) + sps.binom.sf(hi - 1, n, 0.5))
