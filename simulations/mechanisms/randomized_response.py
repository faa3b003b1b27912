"""K-ary randomized response, RRTop-k and RRWithPrior (004 eq. (1), Algorithms 1-2).

All three are randomized response restricted to a candidate set: RR uses all K labels, RRTop-k the
k labels of largest prior, RRWithPrior the top-k* set with k* chosen from the prior alone. They
share one exact channel builder and one vectorized sampler.

Labels are 0-based (``0 .. K-1``; the papers write ``[K] = {1, ..., K}``).

Ties (004 Algorithms 1-2 say "ties broken arbitrarily"): the candidate set Y_k is the first k labels
of a *stable* sort of the prior in decreasing order, so among equal priors the smaller label index
wins; k* is the smallest k whose objective w_k is within a relative :data:`K_STAR_RTOL` of the
maximum. Both depend on the prior only, never on the true label, which is what makes RRWithPrior
ε-DP (004 Corollary 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import MAX_ENTRIES, check_int, check_positive, check_size
from simulations.mechanisms.labels import check_labels, check_num_classes_epsilon, check_priors
from simulations.mechanisms._rare import refine_rare_event
from simulations.seeding import check_generator

__all__ = ["K_STAR_RTOL", "RRTopK", "RRWithPrior", "RandomizedResponse", "rr_log_flip_probability",
           "rr_log_probabilities", "rr_probabilities", "top_k_order"]

# Relative tolerance under which two values of the RRWithPrior objective w_k count as tied (then
# the smaller k wins). Exact ties are common at "nice" epsilons (e.g. ε = ln 3, p = (3/4, 1/4):
# w_1 = w_2 = 3/4) and float rounding would otherwise break them by a few ulps; choosing a k
# whose w_k is 1e-12 below the optimum costs nothing measurable.
K_STAR_RTOL = 1e-12


def rr_probabilities(epsilon: float, k):
    r"""Keep and per-other-label probabilities of randomized response on k candidates.

    :math:`q_k = e^\varepsilon / (e^\varepsilon + k - 1)` for the true label and
    :math:`1 / (e^\varepsilon + k - 1)` for each of the other k - 1 candidates, written as
    :math:`1 / (1 + (k-1) e^{-\varepsilon})` and :math:`e^{-\varepsilon} / (1 + (k-1) e^{-\varepsilon})`
    so that a large ε does not overflow.

    Parameters
    ----------
    epsilon : float
        Privacy parameter ε > 0, finite.
    k : int or array_like of int
        Number of candidates, each >= 1 (an array gives one pair per entry).

    Returns
    -------
    keep : float or ndarray
        :math:`e^\varepsilon/(e^\varepsilon+k-1)`, the shape of ``k``.
    other : float or ndarray
        :math:`1/(e^\varepsilon+k-1)`, the shape of ``k``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not finite and > 0, or ``k`` is not an integer (array) >= 1.

    References
    ----------
    004 eq. (1) (k = K) and Algorithm 1 step 2 (:math:`k = |Y_k|`).

    Examples
    --------
    At ε = ln 3 and k = 3: keep = 3/(3+2) = 0.6 and other = 1/5 = 0.2.

    >>> keep, other = rr_probabilities(math.log(3), 3)
    >>> round(float(keep), 12), round(float(other), 12)
    (0.6, 0.2)
    """
    t = np.exp(-check_positive("epsilon", epsilon))
    k = _check_k(k)
    keep = 1.0 / (1.0 + (k - 1.0) * t)
    return keep, t * keep


def _check_k(k) -> np.ndarray:
    k = np.asarray(k, dtype=float)
    if not np.all(np.isfinite(k)) or np.any(k < 1) or np.any(k != np.round(k)):
        raise ValueError(f"k must be an integer (or integer array) >= 1, got k={k!r}")
    return k


def rr_log_probabilities(epsilon: float, k):
    r"""Natural logs of :func:`rr_probabilities`, exact at every ε (keep is never rounded to 1).

    :math:`\ln q_k = -\log(1 + (k-1) e^{-\varepsilon})` and
    :math:`\ln(\text{other}) = -\varepsilon - \log(1 + (k-1) e^{-\varepsilon})`.

    Parameters
    ----------
    epsilon : float
        Privacy parameter ε > 0, finite.
    k : int or array_like of int
        Number of candidates, each >= 1.

    Returns
    -------
    log_keep : float or ndarray
        ln of the keep probability, the shape of ``k``.
    log_other : float or ndarray
        ln of the probability of each other candidate, the shape of ``k``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not finite and > 0, or ``k`` is not an integer (array) >= 1.

    References
    ----------
    004 eq. (1), Algorithm 1 step 2.

    Examples
    --------
    At ε = ln 3, k = 3 the probabilities are 3/5 and 1/5:

    >>> log_keep, log_other = rr_log_probabilities(math.log(3), 3)
    >>> round(float(np.exp(log_keep)), 12), round(float(np.exp(log_other)), 12)
    (0.6, 0.2)
    """
    epsilon = check_positive("epsilon", epsilon)
    k = _check_k(k)
    lse = np.log1p((k - 1.0) * np.exp(-epsilon))
    return -lse, -epsilon - lse


def rr_log_flip_probability(epsilon: float, k):
    r"""Log-probability that randomized response on k candidates changes a label in the candidate set.

    :math:`\ln P(\tilde y \ne y) = \ln\big((k-1) e^{-\varepsilon} / (1 + (k-1) e^{-\varepsilon})\big)`,
    ``-inf`` for k = 1. The samplers use it to draw a flip that is rarer than :math:`2^{-20}` exactly
    (at ε = 40 and k = 10 it is ln(3.8e-17), while 1 - keep rounds to 0).

    Parameters
    ----------
    epsilon : float
        Privacy parameter ε > 0, finite.
    k : int or array_like of int
        Number of candidates, each >= 1.

    Returns
    -------
    float or ndarray
        The log flip probability, the shape of ``k``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not finite and > 0, or ``k`` is not an integer (array) >= 1.

    References
    ----------
    004 eq. (1), Algorithm 1 step 2.

    Examples
    --------
    At ε = ln 3, k = 3 the flip probability is 2 · 1/5 = 0.4; for k = 1 there is nothing to flip to.

    >>> round(float(np.exp(rr_log_flip_probability(math.log(3), 3))), 12)
    0.4
    >>> float(rr_log_flip_probability(1.0, 1))
    -inf
    """
    _, log_other = rr_log_probabilities(epsilon, k)
    k = _check_k(k)
    with np.errstate(divide="ignore"):
        return np.log(k - 1.0) + log_other


def top_k_order(prior) -> np.ndarray:
    """Labels sorted by decreasing prior, ties by increasing label index (stable sort).

    Parameters
    ----------
    prior : array_like, shape (K,) or (N, K)
        Finite prior weights, K >= 1 (not checked to sum to 1).

    Returns
    -------
    order : ndarray of int64, same shape as ``prior``
        ``order[..., :k]`` is the candidate set :math:`Y_k` of 004 Algorithm 1.

    Raises
    ------
    ValueError
        If ``prior`` is not 1-D or 2-D, has no column, or holds a non-finite entry.

    References
    ----------
    004 Algorithm 1 step 1 ("ties broken arbitrarily": here the smaller label wins).

    Examples
    --------
    >>> top_k_order([0.2, 0.5, 0.2, 0.1]).tolist()
    [1, 0, 2, 3]
    """
    p = np.asarray(prior, dtype=float)
    if p.ndim not in (1, 2) or p.shape[-1] == 0 or not np.all(np.isfinite(p)):
        raise ValueError(f"prior must be a finite array of shape (K,) or (N, K) with K >= 1, got shape {p.shape}")
    return np.argsort(-p, axis=-1, kind="stable")


def _one_prior(prior, num_classes: int) -> np.ndarray:
    p = check_priors(prior, num_classes)
    if p.ndim != 1:
        raise ValueError(f"prior must be one distribution of shape ({num_classes},), got shape {p.shape}")
    return p


def _check_channel_size(num_classes: int) -> None:
    """Refuse up front a K x K channel beyond :data:`~limits.validation.MAX_ENTRIES` entries (800 MB)."""
    check_size("num_classes", num_classes, MAX_ENTRIES, size=num_classes * num_classes,
               what="channel entries (K x K float64; use the closed forms, e.g. privacy_loss(), instead)")


def _top_k_channel(order: np.ndarray, k: int, keep: float, other: float) -> np.ndarray:
    """P[y, z] of RRTop-k with candidate set ``order[:k]`` (004 Algorithm 1)."""
    K = order.size
    top = order[:k]
    P = np.zeros((K, K))
    P[:, top] = 1.0 / k  # y outside Y_k: uniform on Y_k (step 3)
    P[np.ix_(top, top)] = other  # y inside Y_k: RR on Y_k (step 2)
    P[top, top] = keep
    return P


def _sample_top_k(labels: np.ndarray, order: np.ndarray, k, keep, rng: np.random.Generator,
                  log_flip=None) -> np.ndarray:
    """Vectorized RRTop-k with per-example candidate order (K,) or (N, K), k and keep probability.

    ``log_flip`` (scalar or (N,)): ln(1 - keep) computed without rounding; where it is below
    ln 2^-20 the flip is drawn from it exactly (``_rare``) instead of from ``u >= keep``.
    """
    n = labels.size
    K = order.shape[-1]
    rows = np.arange(n)
    if order.ndim == 1:
        rank = np.empty(K, dtype=np.int64)
        rank[order] = np.arange(K)
        r = rank[labels]
    else:
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(K)[None, :], axis=1)
        r = rank[rows, labels]
    k = np.broadcast_to(np.asarray(k, dtype=np.int64), (n,))
    inside = r < k
    u = rng.random(n)
    stay = u < keep
    if log_flip is not None:
        stay = ~refine_rare_event(~stay, u, log_flip, rng)
    kept = inside & stay
    # Inside Y_k and not kept: uniform over the k - 1 other slots (skip the label's own slot);
    # outside Y_k: uniform over all k slots.
    j = rng.integers(0, np.where(inside, np.maximum(k - 1, 1), k))
    j = np.where(inside & (j >= r), j + 1, j)
    slot = np.where(kept, r, j)
    return order[slot] if order.ndim == 1 else order[rows, slot]


# ---------------------------------------------------------------- exact privacy analysis

def rr_outside_log_ratio(epsilon: float, k: int) -> float:
    """ln((1/k) / other_k) = ln((e^ε + k - 1) / k), other_k = 1/(e^ε + k - 1): a label outside Y_k
    against a non-kept label inside (004 Algorithm 1 steps 2-3). log1p(expm1(ε)/k) for ε <= 1 (no
    cancellation at ε = 1e-8), ε - ln k + log1p((k-1) e^{-ε}) above (no overflow at ε = 700 and beyond)."""
    if epsilon <= 1.0:
        return math.log1p(math.expm1(epsilon) / k)
    return epsilon - math.log(k) + math.log1p((k - 1) * math.exp(-epsilon))


def rr_top_k_log_channel(order, k: int, epsilon: float) -> np.ndarray:
    """The RRTop-k channel as log-ratios L[y, z] = ln(P[y, z] / other_k), shape (K, K), in closed form.

    Columns z in Y_k = ``order[:k]``: ε on the kept label (keep/other = e^ε), 0 for the other labels of
    Y_k, :func:`rr_outside_log_ratio` for labels outside Y_k; -inf (probability 0) elsewhere. For
    k = 1 every label outputs the top one: column 0 throughout. The per-column constant ln(other_k)
    cancels in the loss, so the largest column gap of this matrix is the exact loss (checked against the
    channel by the tests).

    References: 004 eq. (1), Algorithm 1, Lemma 1.
    """
    order = np.asarray(order)
    K = order.size
    top = order[:k]
    L = np.full((K, K), -np.inf)
    if k == 1:
        L[:, top] = 0.0
        return L
    L[:, top] = rr_outside_log_ratio(epsilon, k)
    L[np.ix_(top, top)] = 0.0
    L[top, top] = epsilon
    return L


def rr_top_k_loss(order, k: int, epsilon: float) -> tuple[float, tuple[int, int, int]]:
    """Exact loss and witness (y, y', z) of RRTop-k in O(K): the same answer as
    the largest column gap of ``rr_top_k_log_channel(order, k, epsilon)`` without the K x K matrix.

    Every column of Y_k holds the same three row classes (kept label, other labels of Y_k, labels
    outside), so the first column of Y_k in label order carries the worst gap; only that column is built.
    """
    order = np.asarray(order)
    K = order.size
    top = order[:k]
    z = int(top.min())
    col = np.full(K, 0.0 if k == 1 else rr_outside_log_ratio(epsilon, k))
    if k > 1:
        col[top] = 0.0
        col[z] = epsilon
    y, y2 = int(np.argmax(col)), int(np.argmin(col))
    return float(col[y] - col[y2]), (y, y2, z)


@dataclass(frozen=True, slots=True)
class RandomizedResponse:
    r"""K-ary randomized response :math:`RR_\varepsilon` (004 eq. (1)).

    Keep the label w.p. :math:`e^\varepsilon/(e^\varepsilon+K-1)`, else output any other label uniformly.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        Privacy parameter ε > 0, finite; the mechanism is exactly ε-label DP (the ratio
        :math:`e^\varepsilon` is attained).

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0.

    References
    ----------
    004 eq. (1).

    Examples
    --------
    With K = 10 at ε = 1 the channel's largest log-ratio is exactly ε = 1:

    >>> rr = RandomizedResponse(num_classes=10, epsilon=1.0)
    >>> rr.privacy_loss()
    1.0
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def channel_matrix(self) -> np.ndarray:
        r"""The exact channel :math:`P[y, z] = P(\tilde y = z \mid y)` of 004 eq. (1).

        Returns
        -------
        ndarray of float64, shape (K, K)
            :math:`e^\varepsilon/(e^\varepsilon+K-1)` on the diagonal, :math:`1/(e^\varepsilon+K-1)` elsewhere;
            rows sum to 1.

        Raises
        ------
        ValueError
            If K x K exceeds :data:`~limits.validation.MAX_ENTRIES` entries (refused before any is built).

        References
        ----------
        004 eq. (1).

        Examples
        --------
        At K = 3, ε = ln 3: 3/5 on the diagonal and 1/5 off it.

        >>> P = RandomizedResponse(3, math.log(3)).channel_matrix()
        >>> np.round(P, 12).tolist()
        [[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]]
        """
        _check_channel_size(self.num_classes)
        keep, other = rr_probabilities(self.epsilon, self.num_classes)
        return _top_k_channel(np.arange(self.num_classes), self.num_classes, float(keep), float(other))

    def privacy_loss(self) -> float:
        r"""Exact label-DP loss :math:`\max_{y, y', z} \ln P(z|y)/P(z|y') = \varepsilon`.

        It is :math:`\ln(\text{keep}/\text{other})`.

        Each column z has keep on its own row and other elsewhere, so every column's gap is
        :math:`\ln e^\varepsilon = \varepsilon`: the mechanism is exactly ε-label DP, with equality (computed in
        closed form, exact from ε = 1e-8 to beyond 700).

        Returns
        -------
        float
            The loss, equal to ``epsilon``.

        References
        ----------
        004 eq. (1).

        Examples
        --------
        >>> RandomizedResponse(10, 1.0).privacy_loss()
        1.0
        """
        return rr_top_k_loss(np.arange(self.num_classes), self.num_classes, self.epsilon)[0]

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Privatize N labels at once.

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            True labels in ``0 .. K-1``.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of int64, shape (N,)
            Labels drawn from the rows of :meth:`channel_matrix`.

        Raises
        ------
        ValueError
            If ``labels`` is not a 1-D integer array in ``[0, K)`` or ``rng`` is not a Generator, SeedSequence or
            int seed.

        References
        ----------
        004 eq. (1).

        Examples
        --------
        >>> z = RandomizedResponse(3, 1.0).sample([0, 1, 2, 2], np.random.default_rng(0))
        >>> z.shape, z.dtype, bool(np.all((0 <= z) & (z < 3)))
        ((4,), dtype('int64'), True)
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        keep, _ = rr_probabilities(self.epsilon, self.num_classes)
        return _sample_top_k(labels, np.arange(self.num_classes), self.num_classes, keep, rng,
                             rr_log_flip_probability(self.epsilon, self.num_classes))


@dataclass(frozen=True, slots=True)
class RRTopK:
    """RRTop-k: randomized response on the k labels of largest prior; labels outside go uniform on them.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        Privacy parameter ε > 0, finite.
    k : int
        Size of the candidate set :math:`Y_k`, 1 <= k <= K (ties in the prior: smaller label index first).

    Raises
    ------
    ValueError
        If ``num_classes`` < 2, ``epsilon`` is not finite and > 0, or ``k`` is not an integer in [1, K].

    References
    ----------
    004 Algorithm 1, Lemma 1 (ε-DP; tight for k >= 2).

    Examples
    --------
    K = 4, k = 2, ε = ln 3: the candidates are the two labels of largest prior and the loss is ε.

    >>> mech = RRTopK(num_classes=4, epsilon=math.log(3), k=2)
    >>> prior = [0.1, 0.4, 0.3, 0.2]
    >>> mech.top_k(prior).tolist(), round(mech.privacy_loss(prior), 12) == round(math.log(3), 12)
    ([1, 2], True)
    """

    num_classes: int
    epsilon: float
    k: int

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)
        check_int("k", self.k, low=1)
        if self.k > self.num_classes:
            raise ValueError(f"k must be <= num_classes={self.num_classes}, got k={self.k}")

    def top_k(self, prior) -> np.ndarray:
        """The candidate set :math:`Y_k` of one prior, as label indices in decreasing prior.

        Parameters
        ----------
        prior : array_like, shape (K,)
            One probability vector (see :func:`~simulations.mechanisms.labels.check_priors`).

        Returns
        -------
        ndarray of int64, shape (k,)
            The k labels of largest prior (ties: smaller label first).

        Raises
        ------
        ValueError
            If ``prior`` is not one probability vector of length K.

        References
        ----------
        004 Algorithm 1 step 1.

        Examples
        --------
        >>> RRTopK(4, 1.0, 2).top_k([0.1, 0.4, 0.3, 0.2]).tolist()
        [1, 2]
        """
        return top_k_order(_one_prior(prior, self.num_classes))[: self.k]

    def channel_matrix(self, prior) -> np.ndarray:
        r"""The exact channel :math:`P[y, z]` of RRTop-k for one prior.

        Labels in :math:`Y_k` keep w.p. :math:`e^\varepsilon/(e^\varepsilon+k-1)` and move to each other
        candidate w.p. :math:`1/(e^\varepsilon+k-1)`; labels outside :math:`Y_k` go uniformly (1/k) to a candidate.

        Parameters
        ----------
        prior : array_like, shape (K,)
            One probability vector.

        Returns
        -------
        ndarray of float64, shape (K, K)
            Rows sum to 1; columns outside :math:`Y_k` are 0.

        Raises
        ------
        ValueError
            If ``prior`` is not one probability vector of length K, or K x K exceeds
            :data:`~limits.validation.MAX_ENTRIES` entries (refused before any is built).

        References
        ----------
        004 Algorithm 1 steps 2-3.

        Examples
        --------
        K = 3, k = 2, ε = ln 3, :math:`Y_2 = \{0, 1\}`: keep 3/4, other 1/4, label 2 goes to 0 or 1 w.p. 1/2.

        >>> P = RRTopK(3, math.log(3), 2).channel_matrix([0.5, 0.3, 0.2])
        >>> np.round(P, 12).tolist()
        [[0.75, 0.25, 0.0], [0.25, 0.75, 0.0], [0.5, 0.5, 0.0]]
        """
        _check_channel_size(self.num_classes)
        keep, other = rr_probabilities(self.epsilon, self.k)
        return _top_k_channel(top_k_order(_one_prior(prior, self.num_classes)), self.k, float(keep), float(other))

    def privacy_loss(self, prior) -> float:
        r"""Exact label-DP loss for one prior: ε for k >= 2, 0 for k = 1.

        Columns of :math:`Y_k` hold three row classes: the kept label (:math:`e^\varepsilon/(e^\varepsilon+k-1)`),
        the other labels of :math:`Y_k` (:math:`1/(e^\varepsilon+k-1)`) and the labels outside (1/k); the gaps are
        ε, :math:`\ln((e^\varepsilon+k-1)/k) \le \varepsilon` and :math:`\ln(k e^\varepsilon/(e^\varepsilon+k-1))
        \le \varepsilon`,
        so the worst is ε.

        Parameters
        ----------
        prior : array_like, shape (K,)
            One probability vector.

        Returns
        -------
        float
            The loss in nats.

        Raises
        ------
        ValueError
            If ``prior`` is not one probability vector of length K.

        References
        ----------
        004 Lemma 1 and its proof (Appendix A.1).

        Examples
        --------
        >>> RRTopK(3, 2.0, 2).privacy_loss([0.5, 0.3, 0.2])
        2.0
        >>> RRTopK(3, 2.0, 1).privacy_loss([0.5, 0.3, 0.2])
        0.0
        """
        return rr_top_k_loss(top_k_order(_one_prior(prior, self.num_classes)), self.k, self.epsilon)[0]

    def sample(self, labels, rng: np.random.Generator, prior) -> np.ndarray:
        """Privatize N labels given one prior or one prior per example.

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            True labels in ``0 .. K-1``.
        rng : numpy.random.Generator
            Source of randomness.
        prior : array_like, shape (K,) or (N, K)
            Probability vector(s); each row sums to 1.

        Returns
        -------
        ndarray of int64, shape (N,)
            Labels drawn from the rows of :meth:`channel_matrix` of each example's prior.

        Raises
        ------
        ValueError
            If ``labels``, ``prior`` or ``rng`` is malformed (see :func:`~simulations.mechanisms.labels.check_priors`).

        References
        ----------
        004 Algorithm 1.

        Examples
        --------
        With k = 1 every label becomes the top label of its prior:

        >>> mech = RRTopK(3, 1.0, 1)
        >>> priors = [[0.2, 0.7, 0.1], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]]
        >>> mech.sample([0, 1, 2], np.random.default_rng(0), priors).tolist()
        [1, 0, 2]
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        p = check_priors(prior, self.num_classes, n=labels.size)
        keep, _ = rr_probabilities(self.epsilon, self.k)
        return _sample_top_k(labels, top_k_order(p), self.k, float(keep), rng,
                             float(rr_log_flip_probability(self.epsilon, self.k)))


@dataclass(frozen=True, slots=True)
class RRWithPrior:
    r"""RRWithPrior: RRTop-k with the k that maximizes the expected accuracy under the prior.

    :math:`k^* = \arg\max_k w_k`, :math:`w_k = \frac{e^\varepsilon}{e^\varepsilon+k-1} \sum_{j \in Y_k} p_j`.

    :math:`k^*` depends on the prior only (smallest maximizer up to :data:`K_STAR_RTOL`), so the mechanism
    is ε-label DP for every prior; it is tight (loss = ε) whenever :math:`k^* \ge 2`, and outputs the top
    label deterministically (loss 0) when :math:`k^* = 1`.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        Privacy parameter ε > 0, finite.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0.

    References
    ----------
    004 Algorithm 2, Corollary 2, Theorem 3 (optimal Pr[output = label] for y ~ p).

    Examples
    --------
    At ε = ln 3 and p = (0.5, 0.3, 0.2): :math:`w = (0.5, 0.8 \cdot 3/4, 1 \cdot 3/5) = (0.5, 0.6, 0.6)`;
    the tie goes to the smaller k, so k* = 2 and the loss is ln 3.

    >>> mech = RRWithPrior(num_classes=3, epsilon=math.log(3))
    >>> mech.k_star([0.5, 0.3, 0.2]), round(mech.privacy_loss([0.5, 0.3, 0.2]), 12) == round(math.log(3), 12)
    (2, True)
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def objective(self, prior) -> np.ndarray:
        r"""The objective :math:`w_k = \frac{e^\varepsilon}{e^\varepsilon+k-1} \sum_{j \in Y_k} p_j` for k = 1..K.

        Parameters
        ----------
        prior : array_like, shape (K,) or (N, K)
            Probability vector(s).

        Returns
        -------
        ndarray of float64, shape (K,) or (N, K)
            :math:`w_1, \dots, w_K` per prior.

        Raises
        ------
        ValueError
            If ``prior`` is not a probability vector (or rows of them) of length K.

        References
        ----------
        004 Algorithm 2 step 1.

        Examples
        --------
        >>> w = RRWithPrior(3, math.log(3)).objective([0.5, 0.3, 0.2])
        >>> np.round(w, 12).tolist()
        [0.5, 0.6, 0.6]
        """
        p = check_priors(prior, self.num_classes)
        return self._objective_sorted(-np.sort(-p, axis=-1))

    def k_star(self, prior):
        """The size :math:`k^*` of the candidate set RRWithPrior uses for a prior.

        The smallest k whose :math:`w_k` is within a relative :data:`K_STAR_RTOL` of the maximum.

        Parameters
        ----------
        prior : array_like, shape (K,) or (N, K)
            Probability vector(s).

        Returns
        -------
        int or ndarray of int64, shape (N,)
            An int for one prior, an array for N priors.

        Raises
        ------
        ValueError
            If ``prior`` is not a probability vector (or rows of them) of length K.

        References
        ----------
        004 Algorithm 2 step 1.

        Examples
        --------
        At ε = ln 3: w = (0.9, 0.7125, 0.6) for p = (0.9, 0.05, 0.05) and (0.5, 0.6, 0.6) for (0.5, 0.3, 0.2).

        >>> RRWithPrior(3, math.log(3)).k_star([[0.9, 0.05, 0.05], [0.5, 0.3, 0.2]]).tolist()
        [1, 2]
        """
        return self._k_star_from(self.objective(prior))

    def _objective_sorted(self, sorted_desc: np.ndarray) -> np.ndarray:
        keep, _ = rr_probabilities(self.epsilon, np.arange(1, self.num_classes + 1))
        return np.cumsum(sorted_desc, axis=-1) * keep  # (sum of the k largest priors) * keep_k

    @staticmethod
    def _k_star_from(w: np.ndarray):
        best = w.max(axis=-1, keepdims=True)
        ks = np.argmax(w >= best * (1.0 - K_STAR_RTOL), axis=-1) + 1
        return int(ks) if np.ndim(ks) == 0 else ks.astype(np.int64)

    def channel_matrix(self, prior) -> np.ndarray:
        """The exact channel of RRWithPrior for one prior: RRTop-k's with :math:`k = k^*(p)`.

        Parameters
        ----------
        prior : array_like, shape (K,)
            One probability vector.

        Returns
        -------
        ndarray of float64, shape (K, K)
            Equals ``RRTopK(K, ε, k_star(prior)).channel_matrix(prior)``.

        Raises
        ------
        ValueError
            If ``prior`` is not one probability vector of length K.

        References
        ----------
        004 Algorithm 2 step 2 (RRTop-k of Algorithm 1 with k = k*).

        Examples
        --------
        k* = 1 for p = (0.9, 0.05, 0.05) at ε = ln 3: every label outputs label 0.

        >>> RRWithPrior(3, math.log(3)).channel_matrix([0.9, 0.05, 0.05]).tolist()
        [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
        """
        p = _one_prior(prior, self.num_classes)
        return RRTopK(self.num_classes, self.epsilon, self.k_star(p)).channel_matrix(p)

    def privacy_loss(self, prior) -> float:
        r"""Exact label-DP loss for one prior: RRTop-k's with :math:`k = k^*(p)`, ε if :math:`k^* \ge 2` else 0.

        :math:`k^*` is a function of the prior alone, which is public (or computed from other labels), so the
        mechanism is ε-label DP for every prior.

        Parameters
        ----------
        prior : array_like, shape (K,)
            One probability vector.

        Returns
        -------
        float
            The loss in nats.

        Raises
        ------
        ValueError
            If ``prior`` is not one probability vector of length K.

        References
        ----------
        004 Corollary 2.

        Examples
        --------
        >>> mech = RRWithPrior(3, math.log(3))
        >>> mech.privacy_loss([0.9, 0.05, 0.05])
        0.0
        >>> round(mech.privacy_loss([0.5, 0.3, 0.2]), 12) == round(math.log(3), 12)
        True
        """
        p = _one_prior(prior, self.num_classes)
        return RRTopK(self.num_classes, self.epsilon, self.k_star(p)).privacy_loss(p)

    def sample(self, labels, rng: np.random.Generator, prior) -> np.ndarray:
        """Privatize N labels given one prior or one prior per example.

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            True labels in ``0 .. K-1``.
        rng : numpy.random.Generator
            Source of randomness.
        prior : array_like, shape (K,) or (N, K)
            Probability vector(s); each row sums to 1.

        Returns
        -------
        ndarray of int64, shape (N,)
            Labels drawn from RRTop-k with each example's :math:`k^*`.

        Raises
        ------
        ValueError
            If ``labels``, ``prior`` or ``rng`` is malformed.

        References
        ----------
        004 Algorithm 2.

        Examples
        --------
        A confident prior (k* = 1) makes the output its top label whatever the input:

        >>> RRWithPrior(3, math.log(3)).sample([0, 1, 2], np.random.default_rng(0), [0.05, 0.9, 0.05]).tolist()
        [1, 1, 1]
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        p = check_priors(prior, self.num_classes, n=labels.size)
        order = top_k_order(p)  # one sort serves both k* and the candidate sets
        k = self._k_star_from(self._objective_sorted(np.take_along_axis(p, order, axis=-1)))
        keep, _ = rr_probabilities(self.epsilon, k)
        return _sample_top_k(labels, order, k, keep, rng, rr_log_flip_probability(self.epsilon, k))
