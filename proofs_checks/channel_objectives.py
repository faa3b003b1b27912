r"""What a label channel preserves besides P(ỹ = y): the arg-max and the debiased variance.

004 Theorem 3 ranks label randomizers by P(ỹ = y). 000 argues for a different yardstick: the
learner predicts arg max_j of the (estimated) noisy label law, so what matters is that the channel
keeps the arg-max of the true law η(x) (000 eqs. (16), (22)–(26): a wrong prediction needs the
noisy margin to close, and the vector mechanism's η̃ is an increasing affine map of η, eq. (24)),
and that the noise can be undone (the debiased estimates of 000 eq. (24) / 004 eq. (17)). For a
channel M (rows P(ỹ | y)) and a label law p (the prior, or η(x)) with noisy law p̃ = p M:

* :func:`argmax_margin`: p̃_{y*} − max_{z≠y*} p̃_z, y* = arg max p: the channel preserves the
  arg-max at the population level iff it is > 0 (000 eq. (26) with Δ = 0);
* :func:`argmax_probability`: P(the noisy label histogram of n i.i.d. labels has its strict
  maximum at y*), exactly (a kNN vote over n neighbours, 000 Section 5.1 / Appendix B);
* :func:`debiased_variance`: tr Cov(π̂) per sample of the unbiased estimator π̂ = ĥ M^{-1} of p from
  the noisy frequencies ĥ (infinite when M is singular: p is then not identifiable);
  :func:`vector_debiased_variance` is the same trace for 000's vector mechanism (eq. (24) inverted).

References
----------
000 eqs. (16), (22)–(26) (arg-max, margin), eq. (24) (the debiasing map); 004 eq. (17) (debiased
loss), Theorem 3.
"""

from __future__ import annotations

import math

import numpy as np

from limits.validation import check_int, check_positive

from .dp import as_channel
from .rrwithprior_lp import _check_prior

__all__ = ["MAX_LABELS", "argmax_margin", "argmax_probability", "debiased_variance", "noisy_law", "vector_debiased_variance"]


#: Largest n of :func:`argmax_probability`: its coefficients (m r)^j / j! multiply up to ~e^m, finite in
#: double precision for m <= 700; the work is ~K n³ (0.1 s at K = 100, n = 100).
MAX_LABELS = 700


def noisy_law(channel, prior) -> np.ndarray:
    """p̃ = p M, the law of the privatized label (000 eq. (24)'s η̃ for a label channel).

    Parameters
    ----------
    channel : array_like, shape (K, K')
        Rows P(ỹ | y) (:func:`proofs_checks.dp.as_channel`).
    prior : array_like, shape (K,)
        The label law p.

    Returns
    -------
    ndarray, shape (K',)

    Raises
    ------
    ValueError
        An invalid channel or prior, or shapes that do not match.

    References
    ----------
    000 eq. (24) (first line).

    Examples
    --------
    >>> noisy_law([[0.75, 0.25], [0.25, 0.75]], [0.6, 0.4]).round(12).tolist()
    [0.55, 0.45]
    """
    p = _check_prior(prior)
    M = as_channel(channel, num_rows=p.size)
    return p @ M


def _top(p: np.ndarray) -> int | None:
    """arg max p, or None when the two largest masses tie (no true arg-max)."""
    if p.size == 1:
        return 0
    two = np.sort(p)[-2:]
    return None if two[0] == two[1] else int(np.argmax(p))


def argmax_margin(channel, prior) -> float:
    """Noisy margin p̃_{y*} − max_{z≠y*} p̃_z at the prior's arg-max y* (> 0: the arg-max is kept).

    Parameters
    ----------
    channel : array_like, shape (K, K)
        Outputs are labels.
    prior : array_like, shape (K,)
        The label law p.

    Returns
    -------
    float
        The margin; NaN when the prior's two largest masses tie (no arg-max to keep).

    Raises
    ------
    ValueError
        As :func:`noisy_law`.

    References
    ----------
    000 eqs. (19), (26) (the gap η* − η_s and its noisy counterpart), eq. (24).

    Examples
    --------
    Randomized response scales the margin 0.6 − 0.4 by 0.75 − 0.25 (000 eq. (24)'s slope):

    >>> round(argmax_margin([[0.75, 0.25], [0.25, 0.75]], [0.6, 0.4]), 12)
    0.1
    """
    q = noisy_law(channel, prior)
    ys = _top(_check_prior(prior))
    if ys is None:
        return math.nan
    return float(q[ys] - np.max(np.delete(q, ys))) if q.size > 1 else 1.0


def argmax_probability(channel, prior, num_labels) -> float:
    """P(the privatized histogram of n labels drawn from p has its strict maximum at y* = arg max p).

    Exact: N_{y*} ~ Binomial(n, p̃_{y*}); given N_{y*} = c the other counts are multinomial on
    n − c trials with probabilities r_z = p̃_z / (1 − p̃_{y*}), and P(all < c) = m! [t^m]
    Π_z Σ_{j<c} (r_z t)^j / j! (m = n − c), computed with t scaled by m (no overflow up to n ~ 700).
    Ties count as failures.

    Parameters
    ----------
    channel : array_like, shape (K, K)
    prior : array_like, shape (K,)
    num_labels : int
        n >= 1.

    Returns
    -------
    float
        The probability; NaN when the prior has no strict arg-max.

    Raises
    ------
    ValueError
        As :func:`noisy_law`, or n not an integer in [1, :data:`MAX_LABELS`].

    References
    ----------
    000 eq. (16) (predict the arg-max) with a kNN vote over n labels (000 Section 5.1, Appendix B).

    Examples
    --------
    No noise, p = (0.6, 0.4), n = 3: N_0 >= 2 with probability 0.6³ + 3 · 0.6² · 0.4 = 0.648.

    >>> round(argmax_probability(np.eye(2), [0.6, 0.4], 3), 12)
    0.648
    """
    n = check_int("num_labels", num_labels, low=1)
    if n > MAX_LABELS:
        raise ValueError(f"num_labels must be <= {MAX_LABELS} (the scaled generating function overflows beyond, "
                         f"and the work grows like K n³), got num_labels={num_labels!r}")
    p = _check_prior(prior)
    q = noisy_law(channel, p)
    ys = _top(p)
    if ys is None:
        return math.nan
    qs = float(q[ys])
    r = np.delete(q, ys)
    if qs >= 1.0 or r.size == 0:
        return 1.0
    if qs <= 0.0:                                       # N_{y*} = 0 is never a strict maximum
        return 0.0
    if r.sum() <= 0.0:                                  # the other labels are never output
        return 1.0
    r = r / r.sum()
    c = np.arange(n + 1)
    log_pmf = (math.lgamma(n + 1) - np.array([math.lgamma(k + 1) + math.lgamma(n - k + 1) for k in c])
               + c * math.log(qs) + (n - c) * math.log1p(-qs))
    total = 0.0
    for cc in range(1, n + 1):
        m = n - cc
        if cc > m:                                      # every other count is <= m < c
            total += math.exp(log_pmf[cc])
            continue
        j = np.arange(cc)                               # Σ_{j<c} (m r t')^j / j!, t = m t'
        logfact = np.array([math.lgamma(v + 1) for v in j])
        poly = np.zeros(m + 1)
        poly[0] = 1.0
        for rz in r:
            if rz == 0.0:
                continue
            g = np.exp(j * math.log(m * rz) - logfact)
            poly = np.convolve(poly, g)[: m + 1]
        if poly[m] > 0.0:
            total += math.exp(log_pmf[cc] + math.log(poly[m]) + math.lgamma(m + 1) - m * math.log(m))
    return float(min(total, 1.0))


def debiased_variance(channel, prior) -> float:
    """tr Cov(π̂) per sample, π̂ = ĥ M^{-1} the unbiased estimator of p from noisy label frequencies ĥ.

    Cov(ĥ) = (diag p̃ − p̃ p̃ᵀ)/n, so n tr Cov(π̂) = tr(M^{-T} (diag p̃ − p̃ p̃ᵀ) M^{-1}). A channel of
    rank < K (RRWithPrior with k* < K: columns of zeros) has no unbiased estimator: ``inf``.

    Parameters
    ----------
    channel : array_like, shape (K, K)
    prior : array_like, shape (K,)

    Returns
    -------
    float
        The trace (``inf`` for a singular channel).

    Raises
    ------
    ValueError
        As :func:`noisy_law`.

    References
    ----------
    000 eq. (24) (the inverse of η ↦ η̃ gives the debiased estimate); 004 eq. (17).

    Examples
    --------
    K = 2 randomized response keeping w.p. 3/4, p = (1/2, 1/2): p̃ = (1/2, 1/2), M^{-1} has entries
    ±3/2, ∓1/2, and the trace is 2 · (1/4)(3/2 + 1/2)² = 2:

    >>> round(debiased_variance([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5]), 12)
    2.0
    """
    p = _check_prior(prior)
    M = as_channel(channel, num_rows=p.size)
    if M.shape[0] != M.shape[1]:
        return math.inf
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):  # a 100 x 100 SVD: threads only contend
        U, sv, Vt = np.linalg.svd(M)
    if sv[-1] <= sv[0] * M.shape[0] * np.finfo(float).eps:  # numpy's matrix_rank rule: rank < K
        return math.inf
    Minv = (Vt.T / sv) @ U.T
    q = p @ M
    cov = np.diag(q) - np.outer(q, q)
    return float(np.trace(Minv.T @ cov @ Minv))


def vector_debiased_variance(prior, epsilon) -> float:
    """The same trace for 000's vector mechanism: Σ_j η̃_j (1 − η̃_j) ((a + 1)/(a − 1))², a = e^{ε/2}.

    Each bit Z(j) is Bernoulli(η̃_j), η̃_j = 1/(1 + a) + (a − 1)/(a + 1) p_j (000 eq. (24)); the
    unbiased estimate of p_j inverts that map, multiplying the bit's variance by ((a + 1)/(a − 1))².

    Parameters
    ----------
    prior : array_like, shape (K,)
    epsilon : float
        ε > 0 (ε/2 per bit, 000 eqs. (12)–(13)).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        An invalid prior or ε.

    References
    ----------
    000 eqs. (12)–(13), (24).

    Examples
    --------
    K = 2, p = (1/2, 1/2), e^{ε/2} = 3: η̃ = (1/2, 1/2), trace 2 · (1/4) · 4 = 2.

    >>> round(vector_debiased_variance([0.5, 0.5], 2 * math.log(3)), 12)
    2.0
    """
    p = _check_prior(prior)
    a = math.exp(check_positive("epsilon", epsilon) / 2)
    tilde = 1 / (1 + a) + (a - 1) / (a + 1) * p
    return float(np.sum(tilde * (1 - tilde)) * ((a + 1) / (a - 1)) ** 2)
