"""Private histograms and votes over public cells (central label DP).

Under label DP the features, hence the cells (cubes, clusters) and their sizes, are public; a
dataset enters only through label counts per cell. Replacing one label moves one unit between two
counts of the same cell (K-class histograms) or changes one cell's label sum by one (binary votes).

* :class:`NoisyMajority` -- 001 Algorithm 2 (PCL): per cube, output
  ``1[Σ y_i + Lap(1/ε) > |C|/2]`` (binary labels).
* :class:`StabilityHistogram` -- 001 Algorithm 1: non-zero counts get ``Lap(2/ε)`` noise and are
  released only if the noisy count reaches ``(2/ε) log(2/δ) + 1``; (ε, δ)-DP.
* :class:`GeometricHistogram` -- 004 Algorithm 4 step (b): ``H̃ = H + dlaplace(ε_p/2)`` per class
  count (discrete Laplace / geometric mechanism), and step (c), the normalized prior.

API (vectorized over cells, first axis = cells)::

    NoisyMajority(epsilon).release(label_sums, sizes, rng)       # (L,), (L,) -> (L,) bits
    NoisyMajority(epsilon).probability_one(label_sums, sizes)    # exact P(bit = 1)
    StabilityHistogram(epsilon, delta).release(counts, rng)      # (..., M) -> (..., M) floats
    StabilityHistogram(epsilon, delta).release_probability(counts)
    GeometricHistogram(epsilon).sample(histograms, rng)          # (L, K) -> (L, K) ints
    GeometricHistogram(epsilon).log_pmf(noisy, histograms)       # exact, summed over the K counts
    GeometricHistogram.priors(noisy)                             # 004 Algorithm 4 step (c)

Laplace noise is analysed in idealized real arithmetic (see :mod:`simulations.mechanisms.laplace`).

References: 001 Algorithm 1 and Theorem 2.4, Algorithm 2 and Theorem 3.1; 004 Algorithm 4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_positive, check_probability
from simulations.seeding import check_generator

from ._rare import refine_rare_event, tiny
from .exponential import check_counts
from .laplace import laplace_logcdf, laplace_logsf

__all__ = ["GeometricHistogram", "NoisyMajority", "StabilityHistogram"]


def _check_sums_sizes(label_sums, sizes) -> tuple[np.ndarray, np.ndarray]:
    s, n = np.asarray(label_sums), np.asarray(sizes)
    if s.shape != n.shape:
        raise ValueError(f"label_sums and sizes must have equal shapes, got {s.shape} and {n.shape}")
    for name, a in (("label_sums", s), ("sizes", n)):
        if a.size and (not np.issubdtype(a.dtype, np.integer) or a.min() < 0):
            raise ValueError(f"{name} must be non-negative integers, got {name}={a!r}")
    if np.any(s > n):
        raise ValueError("label_sums must not exceed sizes (binary labels in {0, 1})")
    return s.astype(np.int64), n.astype(np.int64)


def _integer_valued(name, values) -> np.ndarray:
    """``values`` as floats after checking they are finite integers (a pmf on Z is 0 elsewhere)."""
    arr = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
        raise ValueError(f"{name} must hold integers, got {name}={values!r}")
    return arr


@dataclass(frozen=True, slots=True)
class NoisyMajority:
    r"""Noisy majority vote per cube (001 Algorithm 2, PCL).

    :math:`h(x) = 1[\sum_{x_i \in C(x)} y_i + \mathrm{Lap}(1/\varepsilon) > |C(x)|/2]`.

    One label flip changes one cube's label sum by 1 (sensitivity 1), so each cube's noisy sum is
    ε-label DP and the bits are post-processing. The bit itself has loss exactly ε as soon as the cube
    holds at least two points; a cube of one point has :math:`\ln(2e^{\varepsilon/2} - 1) < \varepsilon`.

    Parameters
    ----------
    epsilon : float
        Privacy parameter ε > 0, finite.

    Raises
    ------
    ValueError
        If ``epsilon`` is not finite and > 0.

    References
    ----------
    001 Algorithm 2 (PCL), Theorem 3.1.

    Examples
    --------
    At ε = ln 2, a cube of 4 points with label sum 3 votes 1 w.p. :math:`1 - \tfrac12 e^{-1 \cdot \ln 2} = 3/4`:

    >>> vote = NoisyMajority(epsilon=math.log(2))
    >>> np.round(vote.probability_one([3], [4]), 12).tolist()
    [0.75]
    """

    epsilon: float

    def __post_init__(self):
        check_positive("epsilon", self.epsilon)

    @property
    def scale(self) -> float:
        """Laplace scale 1/ε (label-sum sensitivity 1).

        References
        ----------
        001 Algorithm 2, Theorem 3.1.

        Examples
        --------
        >>> NoisyMajority(0.5).scale
        2.0
        """
        return 1.0 / self.epsilon

    def privacy_loss(self, sizes) -> float:
        r"""Exact label-DP loss of the released bits over cubes of the given public sizes.

        One flip moves one cube's label sum by 1. A cube of n >= 2 points has a threshold
        t = n/2 - s >= 0 on the Laplace upper tail, where :math:`P(W > t) = \tfrac12 e^{-t/b}`: ratio
        :math:`e^{1/b}` exactly. A cube of one point moves t between ½ and -½:
        :math:`\ln(2e^{1/(2b)} - 1) < 1/b`. So the loss is 1/b = ε as soon as some cube has >= 2 points.

        Parameters
        ----------
        sizes : int or array_like of int
            Public cube sizes :math:`|C|`; empty cubes are ignored.

        Returns
        -------
        float
            The loss in nats (0 when every cube is empty).

        References
        ----------
        001 Algorithm 2, Theorem 3.1 (which states the bound ε).

        Examples
        --------
        At ε = 2 ln 2 a single-point cube has loss :math:`\ln(2 \cdot 2 - 1) = \ln 3`:

        >>> vote = NoisyMajority(2 * math.log(2))
        >>> round(vote.privacy_loss([1, 1]), 12) == round(math.log(3), 12)
        True
        >>> vote.privacy_loss([3, 1]) == vote.epsilon
        True
        """
        u = 1.0 / self.scale
        sizes = [int(n) for n in np.atleast_1d(sizes) if int(n) >= 1]
        if not sizes:
            return 0.0
        return u if max(sizes) >= 2 else math.log1p(2.0 * math.expm1(u / 2.0))

    def log_probability_one(self, label_sums, sizes) -> np.ndarray:
        r"""Exact :math:`\ln P(\text{bit} = 1) = \ln P(W > |C|/2 - \sum y)` per cube.

        Parameters
        ----------
        label_sums : array_like of int, shape (L,)
            :math:`\sum_{x_i \in C} y_i` per cube, binary labels, 0 <= sum <= size.
        sizes : array_like of int, shape (L,)
            :math:`|C|` per cube.

        Returns
        -------
        ndarray of float64, shape (L,)
            Log-probabilities.

        Raises
        ------
        ValueError
            If the shapes differ, an entry is negative or not an integer, or a sum exceeds its size.

        References
        ----------
        001 Algorithm 2.

        Examples
        --------
        >>> lp = NoisyMajority(math.log(2)).log_probability_one([1, 2, 3], [4, 4, 4])
        >>> np.round(np.exp(lp), 12).tolist()
        [0.25, 0.5, 0.75]
        """
        s, n = _check_sums_sizes(label_sums, sizes)
        return laplace_logsf(n / 2.0 - s, self.scale)

    def log_probability_zero(self, label_sums, sizes) -> np.ndarray:
        r"""Exact :math:`\ln P(\text{bit} = 0) = \ln P(W \le |C|/2 - \sum y)` per cube.

        Computed directly (no 1 - p cancellation).

        Parameters
        ----------
        label_sums : array_like of int, shape (L,)
            :math:`\sum_{x_i \in C} y_i` per cube, 0 <= sum <= size.
        sizes : array_like of int, shape (L,)
            :math:`|C|` per cube.

        Returns
        -------
        ndarray of float64, shape (L,)
            Log-probabilities.

        Raises
        ------
        ValueError
            If the shapes differ, an entry is negative or not an integer, or a sum exceeds its size.

        References
        ----------
        001 Algorithm 2.

        Examples
        --------
        >>> lp = NoisyMajority(math.log(2)).log_probability_zero([1, 2, 3], [4, 4, 4])
        >>> np.round(np.exp(lp), 12).tolist()
        [0.75, 0.5, 0.25]
        """
        s, n = _check_sums_sizes(label_sums, sizes)
        return laplace_logcdf(n / 2.0 - s, self.scale)

    def probability_one(self, label_sums, sizes) -> np.ndarray:
        r"""Exact :math:`P(\text{bit} = 1)` per cube.

        Parameters
        ----------
        label_sums : array_like of int, shape (L,)
            :math:`\sum_{x_i \in C} y_i` per cube, 0 <= sum <= size.
        sizes : array_like of int, shape (L,)
            :math:`|C|` per cube.

        Returns
        -------
        ndarray of float64, shape (L,)
            Probabilities.

        Raises
        ------
        ValueError
            If the shapes differ, an entry is negative or not an integer, or a sum exceeds its size.

        References
        ----------
        001 Algorithm 2.

        Examples
        --------
        At ε = ln 2 (b = 1/ln 2): :math:`\tfrac12 e^{-\ln 2} = 1/4` for sum 1 of 4, ½ for a tie.

        >>> np.round(NoisyMajority(math.log(2)).probability_one([1, 2], [4, 4]), 12).tolist()
        [0.25, 0.5]
        """
        return np.exp(self.log_probability_one(label_sums, sizes))

    def release(self, label_sums, sizes, rng: np.random.Generator) -> np.ndarray:
        r"""The bits of the released hypothesis per cube (empty cubes: noise against 0).

        Parameters
        ----------
        label_sums : array_like of int, shape (L,)
            :math:`\sum_{x_i \in C} y_i` per cube, 0 <= sum <= size.
        sizes : array_like of int, shape (L,)
            :math:`|C|` per cube.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of int64, shape (L,)
            0/1 per cube.

        Raises
        ------
        ValueError
            If the shapes differ, an entry is negative or not an integer, a sum exceeds its size, or ``rng``
            is not a Generator, SeedSequence or int seed.

        References
        ----------
        001 Algorithm 2 step 5.

        Examples
        --------
        >>> bits = NoisyMajority(1.0).release([0, 3, 5], [4, 4, 5], np.random.default_rng(0))
        >>> bits.shape, bits.dtype, bool(np.isin(bits, [0, 1]).all())
        ((3,), dtype('int64'), True)
        """
        rng = check_generator(rng)
        s, n = _check_sums_sizes(label_sums, sizes)
        return (s + rng.laplace(0.0, self.scale, size=s.shape) > n / 2.0).astype(np.int64)


@dataclass(frozen=True, slots=True)
class StabilityHistogram:
    r"""Stability-based histogram (001 Algorithm 1, as printed): (ε, δ)-DP.

    For every cell x: :math:`\hat c(x) = 0` if count(x) = 0; otherwise
    :math:`\hat c(x) = \text{count}(x) + \mathrm{Lap}(2/\varepsilon)`, reset to 0 when
    :math:`\hat c(x) < (2/\varepsilon)\log(2/\delta) + 1`. Replacing one record moves one unit between two
    counts (L1 sensitivity 2, hence Lap(2/ε)); a count moving from 1 to 0 makes a release possible on one
    side only, with probability :math:`\tfrac12 e^{-(\varepsilon/2)(\text{threshold} - 1)} = \delta/4`.

    Parameters
    ----------
    epsilon : float
        ε > 0, finite.
    delta : float
        δ in (0, 1].

    Raises
    ------
    ValueError
        If ``epsilon`` is not finite and > 0 or ``delta`` is not in (0, 1].

    References
    ----------
    001 Algorithm 1, Theorem 2.4 (Bun et al. 2019).

    Examples
    --------
    ε = 2, δ = 2e^{-3}: scale 1, threshold 3 + 1 = 4; a count of 1 is released w.p. δ/4 = e^{-3}/2.

    >>> hist = StabilityHistogram(epsilon=2.0, delta=2 * math.exp(-3))
    >>> round(hist.threshold, 12), np.round(hist.release_probability([0, 1, 4]), 6).tolist()
    (4.0, [0.0, 0.024894, 0.5])
    """

    epsilon: float
    delta: float

    def __post_init__(self):
        check_positive("epsilon", self.epsilon)
        check_probability("delta", self.delta)
        if self.delta == 0:
            raise ValueError(f"delta must be > 0, got delta={self.delta}")

    @property
    def scale(self) -> float:
        """Laplace scale 2/ε (001 Algorithm 1 line 6).

        References
        ----------
        001 Algorithm 1.

        Examples
        --------
        >>> StabilityHistogram(0.5, 1e-6).scale
        4.0
        """
        return 2.0 / self.epsilon

    @property
    def threshold(self) -> float:
        r"""Release threshold :math:`(2/\varepsilon)\log(2/\delta) + 1` (001 Algorithm 1 line 7; natural log).

        References
        ----------
        001 Algorithm 1.

        Examples
        --------
        >>> round(StabilityHistogram(2.0, 2 * math.exp(-3)).threshold, 12)
        4.0
        """
        return 2.0 / self.epsilon * math.log(2.0 / self.delta) + 1.0

    def release_probability(self, counts) -> np.ndarray:
        r"""Exact :math:`P(\hat c(x) \ne 0) = P(\text{count} + W \ge \text{threshold})` per cell (0 for empty cells).

        Parameters
        ----------
        counts : array_like of int, any shape
            Non-negative cell counts.

        Returns
        -------
        ndarray of float64, shape of ``counts``
            Release probabilities.

        Raises
        ------
        ValueError
            If ``counts`` is not of an integer dtype or has a negative entry.

        References
        ----------
        001 Algorithm 1 lines 6-7.

        Examples
        --------
        Threshold 4, scale 1: a count of 5 is released w.p. :math:`1 - \tfrac12 e^{-1} = 0.816060`.

        >>> np.round(StabilityHistogram(2.0, 2 * math.exp(-3)).release_probability([4, 5]), 6).tolist()
        [0.5, 0.81606]
        """
        c = np.asarray(counts)
        if c.size and (not np.issubdtype(c.dtype, np.integer) or c.min() < 0):
            raise ValueError(f"counts must be non-negative integers, got counts={counts!r}")
        p = np.exp(laplace_logsf(self.threshold - c, self.scale))  # continuous W: >= and > agree
        return np.where(c > 0, p, 0.0)

    def release(self, counts, rng: np.random.Generator) -> np.ndarray:
        r"""Noisy thresholded counts (001 Algorithm 1).

        Parameters
        ----------
        counts : array_like of int, shape (..., M)
            Non-negative cell counts.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape of ``counts``
            :math:`\hat c`; 0 for empty cells and for noisy counts below the threshold.

        Raises
        ------
        ValueError
            If ``counts`` is not of an integer dtype or has a negative entry, or ``rng`` is not a Generator,
            SeedSequence or int seed.

        References
        ----------
        001 Algorithm 1.

        Examples
        --------
        Empty cells are never released:

        >>> out = StabilityHistogram(1.0, 1e-3).release(np.array([0, 50, 0]), np.random.default_rng(0))
        >>> out.shape, out[[0, 2]].tolist()
        ((3,), [0.0, 0.0])
        """
        rng = check_generator(rng)
        c = np.asarray(counts)
        if c.size and (not np.issubdtype(c.dtype, np.integer) or c.min() < 0):
            raise ValueError(f"counts must be non-negative integers, got dtype {c.dtype}")
        noisy = c + rng.laplace(0.0, self.scale, size=c.shape)
        return np.where((c > 0) & (noisy >= self.threshold), noisy, 0.0)


@dataclass(frozen=True, slots=True)
class GeometricHistogram:
    r"""Discrete Laplace (geometric) histogram of labels per cluster (004 Algorithm 4 (b)-(c)).

    :math:`\tilde H_c = H_c + Z` with :math:`Z_k` i.i.d. dlaplace(a),
    :math:`P(Z = k) = \tanh(a/2) e^{-a|k|}`, and :math:`a = \varepsilon_p / 2` (scipy's ``dlaplace``
    parameter, as 004 prints ``dlaplace.rvs(ε_p/2, K)``). Moving one label changes two counts of the
    cluster by one each (L1 sensitivity 2), so the loss is :math:`2a = \varepsilon_p`: tight.

    Parameters
    ----------
    epsilon : float
        :math:`\varepsilon_p` > 0, finite, the privacy budget spent on the priors.

    Raises
    ------
    ValueError
        If ``epsilon`` is not finite and > 0.

    References
    ----------
    004 Algorithm 4 and Section 5.2 (geometric mechanism).

    Examples
    --------
    At :math:`\varepsilon_p = 4 \ln 3`, a = 2 ln 3: :math:`P(Z = 0) = \tanh(\ln 3) = 8/10`.

    >>> g = GeometricHistogram(epsilon=4 * math.log(3))
    >>> round(float(np.exp(g.log_pmf([[5]], [[5]])[0])), 12)
    0.8
    """

    epsilon: float

    def __post_init__(self):
        check_positive("epsilon", self.epsilon)

    @property
    def a(self) -> float:
        r"""Discrete Laplace parameter :math:`\varepsilon_p/2` (scipy ``dlaplace`` shape).

        References
        ----------
        004 Algorithm 4 step (b).

        Examples
        --------
        >>> GeometricHistogram(1.0).a
        0.5
        """
        return self.epsilon / 2.0

    def privacy_loss(self) -> float:
        r"""Exact label-DP loss: :math:`2a = \varepsilon_p`.

        Moving one label changes two counts by one; each noisy count's log pmf ratio
        :math:`a(|z-c'| - |z-c|)` is at most a, attained in the tails.

        Returns
        -------
        float
            The loss, equal to ``epsilon``.

        References
        ----------
        004 Algorithm 4.

        Examples
        --------
        >>> GeometricHistogram(1.0).privacy_loss()
        1.0
        """
        return 2.0 * self.a

    def sample(self, histograms, rng: np.random.Generator) -> np.ndarray:
        r"""Noisy histograms: each count plus the difference of two geometric variables.

        Parameters
        ----------
        histograms : array_like of int, shape (L, K) or (K,)
            Non-negative label counts per cluster.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of int64, shape (L, K)
            :math:`\tilde H`.

        Raises
        ------
        ValueError
            If ``histograms`` is malformed (see :func:`~simulations.mechanisms.exponential.check_counts`) or
            ``rng`` is not a Generator, SeedSequence or int seed.

        References
        ----------
        004 Algorithm 4 step (b).

        Examples
        --------
        >>> noisy = GeometricHistogram(1.0).sample([[3, 0, 1]], np.random.default_rng(0))
        >>> noisy.shape, noisy.dtype
        ((1, 3), dtype('int64'))
        """
        rng = check_generator(rng)
        h = check_counts(histograms)
        if not tiny(-self.a):
            p = -math.expm1(-self.a)  # success probability 1 - e^{-a}; G1 - G2 ~ dlaplace(a)
            return h + rng.geometric(p, size=h.shape) - rng.geometric(p, size=h.shape)
        # e^{-a} < 2^-20: numpy's geometric resolves 1 - p only to 2^-53 (no noise at all past a ~ 37).
        # P(Z != 0) = 2r/(1+r), r = e^{-a}; given Z != 0 a fair sign and P(|Z| > m | |Z| >= m) = r:
        # each step is a rare event drawn from its log-probability.
        log_nonzero = math.log(2.0) - self.a - math.log1p(math.exp(-self.a))
        flat = np.zeros(h.size, dtype=np.int64)
        live = np.flatnonzero(refine_rare_event(np.zeros(h.size, bool), rng.random(h.size), log_nonzero, rng))
        sign = np.where(rng.random(live.size) < 0.5, -1, 1)
        mag = np.ones(live.size, dtype=np.int64)
        go = np.arange(live.size)
        while go.size:
            more = refine_rare_event(np.zeros(go.size, bool), rng.random(go.size), -self.a, rng)
            go = go[more]
            mag[go] += 1
        flat[live] = sign * mag
        return h + flat.reshape(h.shape)

    def log_pmf(self, noisy, histograms) -> np.ndarray:
        r"""Exact :math:`\ln P(\tilde H = \text{noisy} \mid H = \text{histograms})`, summed over the last axis.

        Parameters
        ----------
        noisy : array_like of int, shape (..., K)
            Noisy counts (integers; a pmf on Z is 0 elsewhere, so non-integers are refused).
        histograms : array_like of int, shape (..., K)
            True counts, broadcast against ``noisy``.

        Returns
        -------
        ndarray of float64, shape (...)
            Log-probabilities (the K counts are independent).

        Raises
        ------
        ValueError
            If ``noisy`` or ``histograms`` holds a non-finite or non-integer entry.

        References
        ----------
        004 Algorithm 4 step (b).

        Examples
        --------
        At a = 2 ln 3: :math:`P(Z = \pm 1) = 0.8 / 9`, so two counts off by one have
        :math:`(0.8/9)^2 = 0.0079012...`.

        >>> g = GeometricHistogram(4 * math.log(3))
        >>> round(float(np.exp(g.log_pmf([[4, 1]], [[5, 0]])[0])), 9)
        0.007901235
        """
        z = _integer_valued("noisy", noisy)
        h = _integer_valued("histograms", histograms)
        return (math.log(math.tanh(self.a / 2.0)) - self.a * np.abs(z - h)).sum(axis=-1)

    @staticmethod
    def priors(noisy) -> np.ndarray:
        r"""The normalized prior of 004 Algorithm 4 step (c).

        :math:`\max(\tilde H, 0) / \sum_k \max(\tilde H_k, 0)` per row.

        A row with no positive count is undefined in 004 (0/0); it gets the uniform prior, the
        initialization of step 1 (post-processing, no privacy cost).

        Parameters
        ----------
        noisy : array_like, shape (L, K) or (K,)
            Noisy histograms.

        Returns
        -------
        ndarray of float64, shape (L, K)
            Rows sum to 1.

        References
        ----------
        004 Algorithm 4 step (c).

        Examples
        --------
        >>> GeometricHistogram.priors([[2, -1, 6], [-1, 0, -3]]).tolist()
        [[0.25, 0.0, 0.75], [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]
        """
        pos = np.maximum(np.asarray(noisy, dtype=float), 0.0)
        if pos.ndim == 1:
            pos = pos[None, :]
        tot = pos.sum(axis=1, keepdims=True)
        uniform = np.full_like(pos, 1.0 / pos.shape[1])
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(tot > 0, pos / tot, uniform)
