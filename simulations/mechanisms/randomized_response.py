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

from limits.validation import check_int, check_positive
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
    """Keep and per-other-label probabilities of randomized response on k candidates.

    Returns ``(e^ε / (e^ε + k - 1), 1 / (e^ε + k - 1))``, written as ``1 / (1 + (k-1) e^{-ε})``
    and ``e^{-ε} / (1 + (k-1) e^{-ε})`` so that large ε does not overflow. ``k`` may be an array.

    References: 004 eq. (1) (k = K) and Algorithm 1 step 2.
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
    """Natural logs of :func:`rr_probabilities`, exact at every ε (no rounding of keep to 1).

    ``ln keep = -log1p((k-1) e^{-ε})`` and ``ln other = -ε - log1p((k-1) e^{-ε})``.

    References: 004 eq. (1), Algorithm 1 step 2.
    """
    epsilon = check_positive("epsilon", epsilon)
    k = _check_k(k)
    lse = np.log1p((k - 1.0) * np.exp(-epsilon))
    return -lse, -epsilon - lse


def rr_log_flip_probability(epsilon: float, k):
    """ln P(output != label | label in the candidate set) = ln((k-1) e^{-ε} / (1 + (k-1) e^{-ε})); -inf for k = 1.

    What the samplers use to decide a flip when it is rarer than 2^-20 (see ``_rare``): at ε = 40 and
    k = 10 it is ln(3.8e-17), while 1 - keep rounds to 0.
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

    Returns
    -------
    order : ndarray of int64, same shape; ``order[..., :k]`` is the candidate set Y_k.
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
    """K-ary randomized response RR_ε: keep the label w.p. e^ε/(e^ε+K-1), else any other uniformly.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        Privacy parameter; the mechanism is exactly ε-label DP (the loss e^ε is attained).

    References: 004 eq. (1).
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def channel_matrix(self) -> np.ndarray:
        """P[y, z] = P(output z | label y), shape (K, K)."""
        keep, other = rr_probabilities(self.epsilon, self.num_classes)
        return _top_k_channel(np.arange(self.num_classes), self.num_classes, float(keep), float(other))

    def privacy_loss(self) -> float:
        """Exact label-DP loss max_{y, y', z} ln P(z|y)/P(z|y') = ln(keep/other) = ε (004 eq. (1)).

        Each column z has keep on its own row and other elsewhere, so every column's gap is
        ln(e^ε) = ε: the mechanism is exactly ε-label DP, with equality (:func:`rr_top_k_loss` with
        k = K, exact from ε = 1e-8 to beyond 700).
        """
        return rr_top_k_loss(np.arange(self.num_classes), self.num_classes, self.epsilon)[0]

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Privatize labels, shape (N,) -> (N,) int64."""
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
    num_classes : int >= 2
    epsilon : float > 0
    k : int, 1 <= k <= K
        Size of the candidate set Y_k (ties in the prior: smaller label index first).

    References: 004 Algorithm 1, Lemma 1 (ε-DP; tight for k >= 2).
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
        """The candidate set Y_k for ``prior`` (shape (K,)), as label indices in decreasing prior."""
        return top_k_order(_one_prior(prior, self.num_classes))[: self.k]

    def channel_matrix(self, prior) -> np.ndarray:
        """P[y, z] for one prior of shape (K,); returns shape (K, K)."""
        keep, other = rr_probabilities(self.epsilon, self.k)
        return _top_k_channel(top_k_order(_one_prior(prior, self.num_classes)), self.k, float(keep), float(other))

    def privacy_loss(self, prior) -> float:
        """Exact label-DP loss for one prior (K,): ε for k >= 2, 0 for k = 1 (004 Lemma 1).

        Columns of Y_k hold three row classes: the kept label (e^ε/(e^ε+k-1)), the other labels of Y_k
        (1/(e^ε+k-1)) and the labels outside Y_k (1/k); the gaps are ε, ln((e^ε+k-1)/k) <= ε and
        ln(k e^ε/(e^ε+k-1)) <= ε, so the worst is ε (:func:`rr_top_k_loss`).
        """
        return rr_top_k_loss(top_k_order(_one_prior(prior, self.num_classes)), self.k, self.epsilon)[0]

    def sample(self, labels, rng: np.random.Generator, prior) -> np.ndarray:
        """Privatize labels (N,) given one prior (K,) or one prior per example (N, K); returns (N,) int64."""
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        p = check_priors(prior, self.num_classes, n=labels.size)
        keep, _ = rr_probabilities(self.epsilon, self.k)
        return _sample_top_k(labels, top_k_order(p), self.k, float(keep), rng,
                             float(rr_log_flip_probability(self.epsilon, self.k)))


@dataclass(frozen=True, slots=True)
class RRWithPrior:
    """RRWithPrior: RRTop-k with k* = argmax_k w_k, w_k = e^ε/(e^ε+k-1) * sum_{j in Y_k} p_j.

    k* depends on the prior only (smallest maximizer up to :data:`K_STAR_RTOL`), so the mechanism is
    ε-label DP for every prior; it is tight (loss = ε) whenever k* >= 2, and outputs the top label
    deterministically (loss 0) when k* = 1.

    References: 004 Algorithm 2, Corollary 2, Theorem 3 (optimal Pr[output = label] for y ~ p).
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def objective(self, prior) -> np.ndarray:
        """w_k for k = 1..K, shape (..., K) for priors of shape (..., K) (004 Algorithm 2 step 1a)."""
        p = check_priors(prior, self.num_classes)
        return self._objective_sorted(-np.sort(-p, axis=-1))

    def k_star(self, prior):
        """The k used for ``prior``: an int for shape (K,), an int64 array of shape (N,) for (N, K)."""
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
        """P[y, z] for one prior of shape (K,); equals ``RRTopK(K, ε, k_star(prior)).channel_matrix(prior)``."""
        p = _one_prior(prior, self.num_classes)
        return RRTopK(self.num_classes, self.epsilon, self.k_star(p)).channel_matrix(p)

    def privacy_loss(self, prior) -> float:
        """Exact label-DP loss for one prior (K,): RRTop-k's with k = k*(prior), ε if k* >= 2 else 0.

        k* is a function of the prior alone, which is public (or computed from other labels), so the
        mechanism is ε-label DP for every prior (004 Corollary 2).
        """
        p = _one_prior(prior, self.num_classes)
        return RRTopK(self.num_classes, self.epsilon, self.k_star(p)).privacy_loss(p)

    def sample(self, labels, rng: np.random.Generator, prior) -> np.ndarray:
        """Privatize labels (N,) given one prior (K,) or one prior per example (N, K); returns (N,) int64."""
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        p = check_priors(prior, self.num_classes, n=labels.size)
        order = top_k_order(p)  # one sort serves both k* and the candidate sets
        k = self._k_star_from(self._objective_sorted(np.take_along_axis(p, order, axis=-1)))
        keep, _ = rr_probabilities(self.epsilon, k)
        return _sample_top_k(labels, order, k, keep, rng, rr_log_flip_probability(self.epsilon, k))
