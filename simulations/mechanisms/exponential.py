"""The exponential mechanism per bin (central label DP classification).

Within bin ``B_l`` with label counts ``n_{l1}, ..., n_{lK}`` the released class is

    P(c_l = j | X, Y) = exp(ε n_{lj} / 2) / Σ_k exp(ε n_{lk} / 2)            (003 eq. (17))

API (vectorized over bins)::

    em = ExponentialMechanism(num_classes=K, epsilon=ε)
    em.probabilities(counts)        # (L, K) int counts -> (L, K) exact probabilities (log-sum-exp)
    em.log_probabilities(counts)    # (L, K)
    em.sample(counts, rng)          # (L, K) -> (L,) chosen classes, one uniform per bin

Privacy (:func:`exponential_worst_loss`, verified by enumeration in ``proofs_checks.mechanisms.exponential``): moving one label from class a to class b
changes ``n_a -> n_a - 1`` and ``n_b -> n_b + 1``; every term of the normalizer changes by a factor in
``[e^{-ε/2}, e^{ε/2}]`` and the numerator by at most ``e^{ε/2}``, so the loss is at most ε. For a bin of
``n`` points the exact worst case is ``ε/2 + ln((K-1+e^{εn/2}) / (K-2+e^{ε/2}+e^{ε(n-1)/2}))`` (one label
of class a, the other ``n-1`` of class b), which increases to ε as ``n -> ∞`` but is never attained.

References: 003 eq. (17) and Theorem 4 (privacy), eqs. (107)-(109) (utility).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive
from simulations.mechanisms._rare import categorical_from_log, refine_rare_event, tiny
from simulations.seeding import check_generator

__all__ = ["ExponentialMechanism", "check_counts"]


def check_counts(counts, num_classes: int | None = None) -> np.ndarray:
    """Return ``counts`` as an int64 array of shape (L, K) after checking non-negative integers.

    Parameters
    ----------
    counts : array_like of int, shape (L, K) or (K,)
        Label counts per bin (a single bin may be given as shape (K,)).
    num_classes : int, optional
        K; when given, the number of columns ``counts`` must have.

    Returns
    -------
    ndarray of int64, shape (L, K)
        The counts, one row per bin.

    Raises
    ------
    ValueError
        If ``counts`` is not 1-D or 2-D, has the wrong number of columns, is not of an integer dtype or
        has a negative entry.

    References
    ----------
    003 eq. (17) (the counts :math:`n_{lj}` of bin l).

    Examples
    --------
    >>> check_counts([3, 0, 1]).shape
    (1, 3)
    >>> check_counts([[1, -1]])
    Traceback (most recent call last):
    ...
    ValueError: counts must be non-negative integers, got dtype int64 and min -1
    """
    arr = np.asarray(counts)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"counts must have shape (n_bins, K), got shape {arr.shape}")
    if num_classes is not None and arr.shape[1] != num_classes:
        raise ValueError(f"counts must have {num_classes} columns (one per class), got shape {arr.shape}")
    if arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0):
        raise ValueError(f"counts must be non-negative integers, got dtype {arr.dtype} and min {arr.min()}")
    return arr.astype(np.int64, copy=False)


def exponential_worst_loss(utility_scale: float, n: int, num_classes: int) -> float:
    """Closed-form worst loss of ``P(j) ∝ exp(s n_j)`` over bins of n labels, K classes.

    Worst neighbours: one label of class a, the other n-1 of class b, the a-label moves to b; the
    output a has ``ln P(a|D)/P(a|D') = s + ln((K-1+e^{sn}) / (K-2+e^{s}+e^{s(n-1)}))`` (the ratio of
    normalizers is a weighted mean of e^{-s}, 1, e^{s}, largest when the e^{s} weight dominates).
    With s = ε/2 (003 eq. (17)) this tends to ε as n grows and equals ε/2 for n = 1.
    """
    s = check_positive("utility_scale", utility_scale)
    n, k = check_int("n", n, low=1), check_int("num_classes", num_classes, low=2)
    if s * n < 600:  # numerator - denominator = (e^s - 1)(e^{s(n-1)} - 1): log1p keeps tiny s exact
        den = k - 2 + math.exp(s) + math.exp(s * (n - 1))
        return s + math.log1p(math.expm1(s) * math.expm1(s * (n - 1)) / den)
    num = np.logaddexp(math.log(k - 1), s * n)
    den = np.logaddexp(np.logaddexp(math.log(k - 2) if k > 2 else -np.inf, s), s * (n - 1))
    return float(s + num - den)


@dataclass(frozen=True, slots=True)
class ExponentialMechanism:
    r"""Per-bin exponential mechanism with utility :math:`n_{lj}` (003 eq. (17)).

    :math:`P(c_l = j) = e^{\varepsilon n_{lj}/2} / \sum_k e^{\varepsilon n_{lk}/2}`.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        Privacy parameter ε > 0, finite; utility sensitivity 1, so the release is ε-label DP
        (003 Theorem 4), below ε for every finite bin size.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0.

    References
    ----------
    003 eq. (17), Theorem 4.

    Examples
    --------
    At ε = 2 ln 3 the weights of counts (2, 0) are :math:`3^2 = 9` and 1: probabilities 0.9 and 0.1.

    >>> em = ExponentialMechanism(num_classes=2, epsilon=2 * math.log(3))
    >>> np.round(em.probabilities([[2, 0]]), 12).tolist()
    [[0.9, 0.1]]
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_int("num_classes", self.num_classes, low=2)
        check_positive("epsilon", self.epsilon)

    @property
    def utility_scale(self) -> float:
        """Multiplier of the counts in the exponent: ε/2.

        References
        ----------
        003 eq. (17).

        Examples
        --------
        >>> ExponentialMechanism(3, 2.0).utility_scale
        1.0
        """
        return self.epsilon / 2.0

    def privacy_loss(self, bin_size: int) -> float:
        r"""Exact label-DP loss on a bin of ``bin_size`` labels.

        Worst neighbours: one label of class a, the other n - 1 of class b, the a-label moves to b; with
        :math:`s = \varepsilon/2` the loss is :math:`s + \ln\frac{K-1+e^{sn}}{K-2+e^{s}+e^{s(n-1)}}`: ε/2 at n = 1,
        below ε for every finite n, tending to ε as n grows.

        Parameters
        ----------
        bin_size : int
            n >= 1, the public number of labels in the bin.

        Returns
        -------
        float
            The loss in nats.

        Raises
        ------
        ValueError
            If ``bin_size`` is not an integer >= 1.

        References
        ----------
        003 eq. (17), Theorem 4 (which states the upper bound ε).

        Examples
        --------
        n = 1 gives ε/2; K = 2, n = 2, ε = 2 ln 3 gives :math:`\ln((1+9)/2) = \ln 5`.

        >>> ExponentialMechanism(3, 2.0).privacy_loss(1)
        1.0
        >>> round(ExponentialMechanism(2, 2 * math.log(3)).privacy_loss(2), 12) == round(math.log(5), 12)
        True
        """
        return exponential_worst_loss(self.utility_scale, bin_size, self.num_classes)

    def log_probabilities(self, counts) -> np.ndarray:
        r"""Exact :math:`\ln P(c_l = j)` of 003 eq. (17), by a stable log-sum-exp.

        Parameters
        ----------
        counts : array_like of int, shape (L, K) or (K,)
            Non-negative label counts per bin.

        Returns
        -------
        ndarray of float64, shape (L, K)
            Log-probabilities; each row's exponentials sum to 1.

        Raises
        ------
        ValueError
            If ``counts`` is malformed (see :func:`check_counts`).

        References
        ----------
        003 eq. (17).

        Examples
        --------
        >>> lp = ExponentialMechanism(2, 2 * math.log(3)).log_probabilities([2, 0])
        >>> np.round(np.exp(lp), 12).tolist()
        [[0.9, 0.1]]
        """
        s = self.utility_scale * check_counts(counts, self.num_classes)
        s = s - s.max(axis=1, keepdims=True)
        return s - np.log(np.exp(s).sum(axis=1, keepdims=True))

    def probabilities(self, counts) -> np.ndarray:
        """Exact :math:`P(c_l = j)` of 003 eq. (17); rows sum to one.

        Parameters
        ----------
        counts : array_like of int, shape (L, K) or (K,)
            Non-negative label counts per bin.

        Returns
        -------
        ndarray of float64, shape (L, K)
            Probabilities.

        Raises
        ------
        ValueError
            If ``counts`` is malformed (see :func:`check_counts`).

        References
        ----------
        003 eq. (17).

        Examples
        --------
        Equal counts give the uniform law; at ε = 2 ln 3, counts (1, 0, 0) give weights (3, 1, 1).

        >>> np.round(ExponentialMechanism(3, 2 * math.log(3)).probabilities([[4, 4, 4], [1, 0, 0]]), 12).tolist()
        [[0.333333333333, 0.333333333333, 0.333333333333], [0.6, 0.2, 0.2]]
        """
        return np.exp(self.log_probabilities(counts))

    def sample(self, counts, rng: np.random.Generator) -> np.ndarray:
        """Release one class per bin, by inversion of the exact probabilities.

        Where all classes but the most likely one have probability below :math:`2^{-20}` together (large ε
        or counts), "another class" is drawn from its log-probability in stages, then the class among them.

        Parameters
        ----------
        counts : array_like of int, shape (L, K) or (K,)
            Non-negative label counts per bin.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of int64, shape (L,)
            The released class of each bin.

        Raises
        ------
        ValueError
            If ``counts`` is malformed or ``rng`` is not a Generator, SeedSequence or int seed.

        References
        ----------
        003 eq. (17).

        Examples
        --------
        >>> c = ExponentialMechanism(3, 1.0).sample([[5, 0, 1], [0, 2, 2]], np.random.default_rng(0))
        >>> c.shape, c.dtype, bool(np.all((0 <= c) & (c < 3)))
        ((2,), dtype('int64'), True)
        """
        rng = check_generator(rng)
        lp = self.log_probabilities(counts)
        cum = np.cumsum(np.exp(lp), axis=1)
        raw = rng.random(cum.shape[0])
        u = raw[:, None] * cum[:, -1:]  # scale by the row total: rounding-safe
        out = np.minimum((cum <= u).sum(axis=1), self.num_classes - 1).astype(np.int64)
        # Rows whose non-top classes together have probability below 2^-20: one uniform cannot resolve
        # them (below 2^-53 they were never drawn); draw "not the top class" from its log-probability.
        top = np.argmax(lp, axis=1)
        rows = np.arange(lp.shape[0])
        masked = lp.copy()
        masked[rows, top] = -np.inf
        log_rest = np.logaddexp.reduce(masked, axis=1)
        small = np.flatnonzero(tiny(log_rest))
        if small.size:
            other = refine_rare_event(np.zeros(small.size, bool), raw[small], log_rest[small], rng)
            out[small] = top[small]
            for i in small[other]:
                out[i] = categorical_from_log(masked[i], rng)
        return out
