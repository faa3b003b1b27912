"""004's lower bounds for label-DP convex ERM / SCO on their own construction, and exact excess losses there.

The construction of 004 Proposition 13 (Appendix F.4): ``W = {w ∈ R^m : ‖w‖ ≤ D/2}``, features
``x_i = e_i``, labels in {1, 2} written as signs ``ỹ_i ∈ {±1}`` (uniform), loss ``ℓ(w, (x, y)) = −L ỹ ⟨w, x⟩``
(labels 3..K have loss 0). Then ``L(w, S) = −(L/m) ⟨w, ỹ⟩``, ``w* = (D/2) ỹ/√m`` and ``L(w*, S) = −DL/(2√m)``.
Everything below is in closed form or an exact finite sum (no sampling):

* :func:`prop13_bound` — the proof's explicit bound ``(DL/(2√m)) (1 − √((e^ε + δ)/(e^ε + 1)))`` (end of
  the proof of Proposition 13), and :func:`prop13_chain` — each step of its chain for the algorithm that
  attains (13), binary (ε, δ)-randomized response followed by the noisy ERM ``ŵ = (D/2) z/√m``;
* :func:`lp_rr_sgd_excess` — LP-RR-SGD (004 Algorithm 5, Theorem 9's steps) run once over the data set:
  the features are orthogonal and every debiased gradient has the same length, so ``ŵ = Σ_t β_t z_t e_t``
  with deterministic ``β_t`` and the expected excess is exact;
* :func:`lemma15_bound` — Lemma 15's replication: each point copied ``k = ⌊1/ε'⌋`` times (``n = k m``), an
  (ε', δ')-algorithm is (kε', Fact 14's δ)-DP on the original points, and Proposition 13's bound applies;
  :func:`majority_excess` — randomized response on the ``n`` labels and the per-point majority vote;
* :func:`lemma16_erm_privacy`, :func:`prop12_bound` — Lemma 16's reduction from SCO to ERM plugged into
  Lemma 15 (Proposition 12) on ``P`` = uniform over the ``m`` points; :func:`sco_majority_excess` — the
  same randomized-response majority vote from ``n`` i.i.d. samples of ``P``.

References: 004 Appendix F.3-F.5: Propositions 12-13, eq. (13)-(16), Fact 14, Lemmas 15-16; Algorithm 5,
Theorem 9.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats

from limits.validation import check_int, check_positive, check_real
from simulations.learning.private_sgd import step_sizes

__all__ = ["fact14_delta", "lemma15_bound", "lemma16_erm_privacy", "lemma16_sco_privacy", "lp_rr_sgd_excess",
           "majority_excess", "prop12_bound", "prop13_bound", "prop13_chain", "rr_keep", "sco_majority_excess"]


def _eps_delta(epsilon, delta):
    return check_positive("epsilon", epsilon), check_real("delta", delta, low=0.0, high=1.0)


def rr_keep(epsilon: float, delta: float = 0.0) -> float:
    """Probability that binary (ε, δ)-randomized response keeps the sign: (e^ε + δ)/(e^ε + 1).

    Parameters
    ----------
    epsilon : float > 0
        ε.
    delta : float in [0, 1], default 0
        δ (0: plain randomized response, 004 eq. (1) with K = 2).

    Returns
    -------
    float
        The keep probability; it equals the bound (13) on Pr[ỹ_i ⟨ŵ, e_i⟩ > 0].

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 eq. (1), eq. (13).

    Examples
    --------
    >>> round(rr_keep(math.log(3)), 12), round(rr_keep(math.log(3), 0.2), 12)
    (0.75, 0.8)
    """
    eps, delta = _eps_delta(epsilon, delta)
    return (math.exp(eps) + delta) / (math.exp(eps) + 1.0) if eps < 700 else 1.0


def prop13_bound(epsilon: float, delta: float, m: int, *, D: float = 1.0, L: float = 1.0) -> float:
    """Proposition 13's explicit bound: (DL/(2√m)) (1 − √((e^ε + δ)/(e^ε + 1))).

    Parameters
    ----------
    epsilon : float > 0
        ε of the (ε, δ)-label-DP algorithm.
    delta : float in [0, 1]
        δ (the bound is 0 at δ = 1: vacuous).
    m : int >= 1
        Size of the data set (its dimension).
    D, L : float > 0, default 1
        Diameter of W and Lipschitz constant.

    Returns
    -------
    float
        The lower bound on the expected excess empirical risk of any such algorithm on the construction.

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Proposition 13, eq. (12)-(15) and the last display of its proof.

    Examples
    --------
    >>> round(prop13_bound(math.log(3), 0.0, 4), 6)  # (1/4)(1 − √(3/4))
    0.033494
    """
    m = check_int("m", m, low=1)
    D, L = check_positive("D", D), check_positive("L", L)
    return D * L / (2 * math.sqrt(m)) * (1.0 - math.sqrt(rr_keep(epsilon, delta)))


def prop13_chain(epsilon: float, delta: float, m: int, *, D: float = 1.0, L: float = 1.0) -> dict:
    """Each quantity of Proposition 13's chain for binary (ε, δ)-RR followed by the noisy ERM ``ŵ = (D/2) z/√m``.

    With p = (e^ε + δ)/(e^ε + 1) the sign of each coordinate is right with probability p, so the number #I of
    right signs is Bin(m, p).

    Parameters
    ----------
    epsilon : float > 0
        ε.
    delta : float in [0, 1]
        δ.
    m : int >= 1
        Data set size.
    D, L : float > 0, default 1
        Diameter and Lipschitz constant.

    Returns
    -------
    dict
        ``excess`` = DL(1 − p)/√m (the algorithm's expected excess), ``step15`` = DL/(2√m) − (DL/(2m)) E√#I
        (after (15)), ``jensen`` = DL/(2√m) − (DL/(2m)) √(E#I) (after Cauchy-Schwarz on E√#I), ``bound`` =
        :func:`prop13_bound` (after (14)); the proof says excess >= step15 >= jensen >= bound, and here
        jensen = bound (this algorithm attains (13)).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Proposition 13, eq. (13)-(15).

    Examples
    --------
    One point: #I is 0 or 1, so E√#I = E#I = p and the Jensen step is loose:

    >>> c = prop13_chain(math.log(3), 0.0, 1)
    >>> [round(c[k], 6) for k in ("excess", "step15", "jensen", "bound")]
    [0.25, 0.125, 0.066987, 0.066987]
    """
    p = rr_keep(epsilon, delta)
    base = prop13_bound(epsilon, delta, m, D=D, L=L) / (1.0 - math.sqrt(p)) if p < 1 else D * L / (2 * math.sqrt(m))
    j = np.arange(m + 1)
    e_sqrt = float(np.sum(stats.binom.pmf(j, m, p) * np.sqrt(j)))
    return {"excess": D * L * (1.0 - p) / math.sqrt(m), "step15": base * (1.0 - e_sqrt / math.sqrt(m)),
            "jensen": base * (1.0 - math.sqrt(p)), "bound": prop13_bound(epsilon, delta, m, D=D, L=L)}


def lp_rr_sgd_excess(epsilon: float | None, m: int, *, D: float = 1.0, L: float = 1.0, method: str = "rr") -> float:
    """Exact expected excess empirical risk of one pass of LP-RR-SGD over Proposition 13's data set (K = 2).

    With K = 2 the two gradients are ±L e_t, so eq. (7) gives ĝ_t = −((e^ε + 1)/(e^ε − 1)) L z_t e_t: every
    step has the deterministic length a_t = η_t L (e^ε + 1)/(e^ε − 1) along a new axis, the norm recursion
    is deterministic, and ŵ = Σ_t β_t z_t e_t with β_t = a_t Π_{s >= t} (projection factor at step s).
    Hence E[L(ŵ, S)] = −(L/m) tanh(ε/2) Σ_t β_t.

    Parameters
    ----------
    epsilon : float > 0 or None
        ε ("rr"); ignored by "nonprivate".
    m : int >= 1
        Data set size (one pass, t = 1..m, x_t = e_t).
    D, L : float > 0, default 1
        Diameter (w_1 = 0, radius D/2) and Lipschitz constant.
    method : {"rr", "nonprivate"}, default "rr"
        LP-RR-SGD with Theorem 9's η_t = Dε/(6KL√t), or SGD with η_t = D/(L√t)
        (:func:`simulations.learning.private_sgd.step_sizes`).

    Returns
    -------
    float
        E[L(ŵ, S)] − L(w*, S).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Algorithm 5, eq. (7), Theorem 9; the construction of Proposition 13.

    Examples
    --------
    Without projection (small m) the excess is DL/(2√m) − (DLε/(6·2m)) Σ_t 1/√t:

    >>> e = lp_rr_sgd_excess(0.5, 4)
    >>> round(e, 12) == round(1 / 4 - 0.5 / 12 / 4 * sum(1 / math.sqrt(t) for t in range(1, 5)), 12)
    True
    """
    m = check_int("m", m, low=1)
    D, L = check_positive("D", D), check_positive("L", L)
    if method == "rr":
        E = math.exp(check_positive("epsilon", epsilon))
        gain, corr = (E + 1) / (E - 1), (E - 1) / (E + 1)
    elif method == "nonprivate":
        gain, corr = 1.0, 1.0
    else:
        raise ValueError(f"method must be one of ['rr', 'nonprivate'], got method={method!r}")
    a = step_sizes(method, m, D=D, L=L, num_classes=2, epsilon=epsilon) * L * gain
    R2 = (D / 2) ** 2
    before = np.minimum(np.concatenate(([0.0], np.cumsum(a * a)[:-1])), R2)  # ‖w_t‖² (it stays at R² once reached)
    cand = before + a * a
    scale = np.where(cand > R2, np.sqrt(R2 / cand), 1.0)
    beta = a * np.cumprod(scale[::-1])[::-1]
    return D * L / (2 * math.sqrt(m)) - L / m * corr * float(beta.sum())


def fact14_delta(epsilon: float, k: int, delta: float) -> float:
    """Fact 14's δ for k changed labels: (e^{kε} − 1)/(e^ε − 1) · δ.

    Parameters
    ----------
    epsilon : float > 0
        ε of the single-label guarantee.
    k : int >= 1
        Number of labels changed.
    delta : float >= 0
        δ of the single-label guarantee.

    Returns
    -------
    float
        The group δ (it may exceed 1: then the guarantee is vacuous).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Fact 14, proof of Lemma 15.

    Examples
    --------
    >>> round(fact14_delta(math.log(2), 3, 0.01), 12)  # (8 − 1)/(2 − 1) · 0.01
    0.07
    """
    eps, k = check_positive("epsilon", epsilon), check_int("k", k, low=1)
    return math.expm1(k * eps) / math.expm1(eps) * check_real("delta", delta, low=0.0)


def lemma15_bound(epsilon_prime: float, delta_prime: float, m: int, k: int | None = None, *,
                  D: float = 1.0, L: float = 1.0) -> float:
    """Lemma 15's bound on the replicated data set: Proposition 13's bound at (kε', Fact 14's δ) on m points.

    The data set S̃' copies each of m points k times (n = k m); its empirical risk equals that of the m
    points, so the excess of an (ε', δ')-algorithm on S̃' is at least :func:`prop13_bound` at
    ε = kε', δ = :func:`fact14_delta` (ε', k, δ'), m. With k = ⌊1/ε'⌋ this is ≈ DL/(2√(ε' n)) · c.

    Parameters
    ----------
    epsilon_prime : float in (0, 1]
        ε'.
    delta_prime : float >= 0
        δ'.
    m : int >= 1
        Number of distinct points.
    k : int >= 1 or None, default None
        Copies per point (default ⌊1/ε'⌋, the proof's choice).
    D, L : float > 0, default 1
        Diameter and Lipschitz constant.

    Returns
    -------
    float
        The lower bound (<= 0, i.e. vacuous, when the group δ reaches 1).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Lemma 15, eq. (16), Fact 14, Proposition 13.

    Examples
    --------
    With δ' = 0 and ε' = 1/k it is √k times Proposition 13's bound at ε = 1 on n = k m points:

    >>> round(lemma15_bound(0.25, 0.0, 8) / prop13_bound(1.0, 0.0, 32), 12)
    2.0
    """
    eps = check_real("epsilon_prime", epsilon_prime, low=0.0, high=1.0, low_open=True)
    k = math.floor(1.0 / eps + 1e-12) if k is None else check_int("k", k, low=1)
    group = min(fact14_delta(eps, k, delta_prime), 1.0)
    return prop13_bound(k * eps, group, m, D=D, L=L)


def majority_excess(epsilon: float, m: int, k: int, *, D: float = 1.0, L: float = 1.0) -> float:
    """Exact expected excess of RR on each of the k m labels + per-point majority vote, on the replicated set.

    ŵ = (D/2) sign(Σ_j z_ij)/√m (sign 0 on a tie); Σ_j z_ij ỹ_i has the law of 2B − k, B ~ Bin(k, p), so
    E[excess] = (DL/(2√m)) (1 − P(B > k/2) + P(B < k/2)).

    Parameters
    ----------
    epsilon : float > 0
        ε of the randomized response (ε-label DP on the n = k m labels).
    m : int >= 1
        Distinct points.
    k : int >= 1
        Copies per point.
    D, L : float > 0, default 1
        Diameter and Lipschitz constant.

    Returns
    -------
    float
        The expected excess empirical risk.

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Lemma 15 (its data set); eq. (1) (randomized response).

    Examples
    --------
    k = 1 is the noisy ERM of Proposition 13: DL(1 − p)/√m:

    >>> round(majority_excess(math.log(3), 4, 1), 12)
    0.125
    """
    k = check_int("k", k, low=1)
    p = rr_keep(epsilon)
    win, lose = stats.binom.sf(k // 2, k, p), stats.binom.cdf((k - 1) // 2, k, p)
    return D * L / (2 * math.sqrt(check_int("m", m, low=1))) * (1.0 - float(win - lose))


def lemma16_sco_privacy(epsilon_erm: float, delta_erm: float) -> tuple[float, float]:
    """Lemma 16: the SCO privacy (ε/(4 log(2/δ)), e^{−ε} δ/(8 log(2/δ))) that yields an (ε, δ) ERM algorithm.

    Parameters
    ----------
    epsilon_erm : float > 0
        ε of the ERM algorithm.
    delta_erm : float in (0, 1/2)
        δ of the ERM algorithm.

    Returns
    -------
    (float, float)
        (ε_SCO, δ_SCO), natural logarithms.

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Lemma 16 (Bassily et al. 2019, Appendix D).

    Examples
    --------
    >>> [round(v, 6) for v in lemma16_sco_privacy(1.0, 2 * math.exp(-5))]
    [0.05, 0.000124]
    """
    eps = check_positive("epsilon_erm", epsilon_erm)
    delta = check_real("delta_erm", delta_erm, low=0.0, high=0.5, low_open=True, high_open=True)
    ell = math.log(2.0 / delta)
    return eps / (4 * ell), math.exp(-eps) * delta / (8 * ell)


def lemma16_erm_privacy(epsilon_erm: float, delta_sco: float) -> tuple[float, float]:
    """Invert Lemma 16's δ: the δ_ERM with e^{−ε_E} δ_E/(8 ln(2/δ_E)) = δ_SCO, and the matching ε_SCO.

    With ℓ = ln(2/δ_E) the equation is ℓ + ln(4ℓ) = ln(1/δ_SCO) − ε_E, increasing in ℓ.

    Parameters
    ----------
    epsilon_erm : float > 0
        ε_E of the ERM algorithm (Lemma 15 needs ε_E <= 1).
    delta_sco : float in (0, 1)
        δ of the SCO algorithm.

    Returns
    -------
    (float, float)
        (ε_SCO, δ_E) with :func:`lemma16_sco_privacy` (ε_E, δ_E) = (ε_SCO, δ_SCO).

    Raises
    ------
    ValueError
        If an argument is out of range, or δ_SCO is too large for a δ_E < 1/2.

    References
    ----------
    004 Lemma 16.

    Examples
    --------
    >>> eps_sco, d_erm = lemma16_erm_privacy(1.0, 1e-6)
    >>> [round(v, 10) for v in lemma16_sco_privacy(1.0, d_erm)] == [round(eps_sco, 10), 1e-06]
    True
    """
    eps = check_positive("epsilon_erm", epsilon_erm)
    target = math.log(1.0 / check_real("delta_sco", delta_sco, low=0.0, high=1.0, low_open=True, high_open=True)) - eps
    g = lambda ell: ell + math.log(4 * ell) - target  # noqa: E731
    if g(math.log(4.0)) >= 0:
        raise ValueError(f"delta_sco must leave a delta_erm < 1/2 (ln(1/δ) − ε > ln 4 + ln(4 ln 4)), got "
                         f"delta_sco={delta_sco}")
    ell = optimize.brentq(g, math.log(4.0), target + 1.0, xtol=1e-14)
    return eps / (4 * ell), 2 * math.exp(-ell)


def prop12_bound(k: int, delta_sco: float, n: int, *, D: float = 1.0, L: float = 1.0) -> dict:
    """Proposition 12 assembled (Lemma 16 into Lemma 15) on P = uniform over m = n/k points, ε_E = 1/k.

    An (ε_SCO, δ_SCO)-label-DP SCO algorithm with ε_SCO = :func:`lemma16_erm_privacy` (1/k, δ_SCO)[0] yields a
    (1/k, δ_E)-label-DP ERM algorithm with the same excess; Lemma 15 at ε' = 1/k on the replicated data set of
    size n (m = n/k points, k copies, the support of P) bounds it.

    Parameters
    ----------
    k : int >= 1
        Replication count (ε_E = 1/k).
    delta_sco : float in (0, 1)
        δ of the SCO algorithm.
    n : int
        Sample size, a multiple of k.
    D, L : float > 0, default 1
        Diameter and Lipschitz constant.

    Returns
    -------
    dict
        ``epsilon`` (ε_SCO), ``delta_erm``, ``m`` and ``bound`` (on E_ỹ[L(ŵ, P)] − L(w*, P)).

    Raises
    ------
    ValueError
        If an argument is out of range or k does not divide n.

    References
    ----------
    004 Proposition 12, eq. (11); Lemmas 15-16.

    Examples
    --------
    >>> r = prop12_bound(4, 1e-6, 64)
    >>> r["m"], round(r["bound"] / lemma15_bound(0.25, r["delta_erm"], 16), 12)
    (16, 1.0)
    """
    k, n = check_int("k", k, low=1), check_int("n", n, low=1)
    if n % k:
        raise ValueError(f"n must be a multiple of k={k}, got n={n}")
    eps_sco, delta_erm = lemma16_erm_privacy(1.0 / k, delta_sco)
    return {"epsilon": eps_sco, "delta_erm": delta_erm, "m": n // k,
            "bound": lemma15_bound(1.0 / k, delta_erm, n // k, k, D=D, L=L)}


def sco_majority_excess(epsilon: float, m: int, n: int, *, D: float = 1.0, L: float = 1.0) -> float:
    """Exact expected excess population risk of RR + majority vote from n i.i.d. samples of P = uniform on m points.

    Point i is seen N_i ~ Bin(n, 1/m) times; given N_i = N the vote is right minus wrong with probability
    P(B > N/2) − P(B < N/2), B ~ Bin(N, p) (0 when N = 0), so by linearity
    E[excess] = (DL/(2√m)) (1 − E_N[P(B > N/2) − P(B < N/2)]), the N-sum truncated where its mass is < 1e-16.

    Parameters
    ----------
    epsilon : float > 0
        ε of the randomized response (ε-label DP: each sample is used once).
    m : int >= 1
        Support size of P.
    n : int >= 1
        Samples.
    D, L : float > 0, default 1
        Diameter and Lipschitz constant.

    Returns
    -------
    float
        E_ỹ[L(ŵ, P)] − L(w*, P).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Proposition 12 (the SCO version of the construction, via Lemma 16's P = uniform over the data set).

    Examples
    --------
    One point seen n = 1 time is Proposition 13's noisy ERM with m = 1:

    >>> round(sco_majority_excess(math.log(3), 1, 1), 12)
    0.25
    """
    m, n = check_int("m", m, low=1), check_int("n", n, low=1)
    p = rr_keep(epsilon)
    lo, hi = stats.binom.ppf([1e-17, 1 - 1e-17], n, 1.0 / m) if m > 1 else (n, n)
    N = np.arange(int(lo), int(hi) + 1)
    gain = stats.binom.sf(N // 2, N, p) - stats.binom.cdf((N - 1) // 2, N, p)
    return D * L / (2 * math.sqrt(m)) * (1.0 - float(np.sum(stats.binom.pmf(N, n, 1.0 / m) * gain)))
