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

Laplace noise is analysed in idealized real arithmetic (see :mod:`.laplace`).

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
    """Noisy majority vote per cube, ``h(x) = 1[Σ_{x_i∈C(x)} y_i + Lap(1/ε) > |C(x)|/2]`` (001 Algorithm 2).

    One label flip changes one cube's label sum by 1 (sensitivity 1), so each cube's noisy sum is
    ε-label DP and the bits are post-processing. The bit itself has loss exactly ε as soon as the cube
    holds at least two points; a cube of one point has ``ln(2e^{ε/2} - 1) < ε``.

    References
    ----------
    001 Algorithm 2, Theorem 3.1.
    """

    epsilon: float

    def __post_init__(self):
        check_positive("epsilon", self.epsilon)

    @property
    def scale(self) -> float:
        """Laplace scale 1/ε (label-sum sensitivity 1)."""
        return 1.0 / self.epsilon

    def privacy_loss(self, sizes) -> float:
        """Exact label-DP loss of the released bits over cubes of the given public sizes.

        One flip moves one cube's label sum by 1. A cube of n >= 2 points has a threshold t = n/2 - s >= 0
        on the Laplace upper tail, where P(W > t) = ½ e^{-t/b}: ratio e^{1/b} exactly. A cube of one point
        moves t between ½ and -½: ln((1 - ½e^{-1/(2b)}) / (½e^{-1/(2b)})) = ln(2e^{1/(2b)} - 1), below 1/b.
        So the loss is 1/b = ε as soon as some cube has >= 2 points (001 Algorithm 2, Theorem 3.1).
        """
        u = 1.0 / self.scale
        sizes = [int(n) for n in np.atleast_1d(sizes) if int(n) >= 1]
        if not sizes:
            return 0.0
        return u if max(sizes) >= 2 else math.log1p(2.0 * math.expm1(u / 2.0))

    def log_probability_one(self, label_sums, sizes) -> np.ndarray:
        """Exact log P(bit = 1) = log P(W > |C|/2 - Σ y) per cube."""
        s, n = _check_sums_sizes(label_sums, sizes)
        return laplace_logsf(n / 2.0 - s, self.scale)

    def log_probability_zero(self, label_sums, sizes) -> np.ndarray:
        """Exact log P(bit = 0) = log P(W <= |C|/2 - Σ y), computed directly (no 1 - p cancellation)."""
        s, n = _check_sums_sizes(label_sums, sizes)
        return laplace_logcdf(n / 2.0 - s, self.scale)

    def probability_one(self, label_sums, sizes) -> np.ndarray:
        """Exact P(bit = 1) per cube, shape (L,) (001 Algorithm 2)."""
        return np.exp(self.log_probability_one(label_sums, sizes))

    def release(self, label_sums, sizes, rng: np.random.Generator) -> np.ndarray:
        """The bits of the released hypothesis per cube, (L,) -> (L,) int64 (empty cubes: noise vs 0)."""
        rng = check_generator(rng)
        s, n = _check_sums_sizes(label_sums, sizes)
        return (s + rng.laplace(0.0, self.scale, size=s.shape) > n / 2.0).astype(np.int64)


@dataclass(frozen=True, slots=True)
class StabilityHistogram:
    """Stability-based histogram (001 Algorithm 1, as printed): (ε, δ)-DP.

    For every cell x: ``ĉ(x) = 0`` if ``count(x) = 0``; otherwise ``ĉ(x) = count(x) + Lap(2/ε)``,
    reset to 0 when ``ĉ(x) < (2/ε) log(2/δ) + 1``. Replacing one record moves one unit between two
    counts (L1 sensitivity 2, hence ``Lap(2/ε)``); a count moving from 1 to 0 makes a release possible
    on one side only, with probability ``P(1 + W >= threshold) = ½ e^{-(ε/2)(threshold - 1)} = δ/4``.
    The exact δ(ε') is in ``proofs_checks.privacy_profile``.

    References
    ----------
    001 Algorithm 1, Theorem 2.4 (Bun et al. 2019).
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
        """Laplace scale 2/ε (line 6)."""
        return 2.0 / self.epsilon

    @property
    def threshold(self) -> float:
        """Release threshold ``(2/ε) log(2/δ) + 1`` (line 7; natural log)."""
        return 2.0 / self.epsilon * math.log(2.0 / self.delta) + 1.0

    def release_probability(self, counts) -> np.ndarray:
        """Exact P(ĉ(x) != 0) = P(count + W >= threshold) per cell (0 for empty cells)."""
        c = np.asarray(counts)
        if c.size and (not np.issubdtype(c.dtype, np.integer) or c.min() < 0):
            raise ValueError(f"counts must be non-negative integers, got counts={counts!r}")
        p = np.exp(laplace_logsf(self.threshold - c, self.scale))  # continuous W: >= and > agree
        return np.where(c > 0, p, 0.0)

    def release(self, counts, rng: np.random.Generator) -> np.ndarray:
        """Noisy thresholded counts, any shape (..., M) of non-negative integers -> floats."""
        rng = check_generator(rng)
        c = np.asarray(counts)
        if c.size and (not np.issubdtype(c.dtype, np.integer) or c.min() < 0):
            raise ValueError(f"counts must be non-negative integers, got dtype {c.dtype}")
        noisy = c + rng.laplace(0.0, self.scale, size=c.shape)
        return np.where((c > 0) & (noisy >= self.threshold), noisy, 0.0)


@dataclass(frozen=True, slots=True)
class GeometricHistogram:
    """Discrete Laplace (geometric) histogram of labels per cluster (004 Algorithm 4 (b)-(c)).

    ``H̃_c = H_c + Z`` with ``Z_k`` i.i.d. ``dlaplace(a)``, ``P(Z = k) = tanh(a/2) e^{-a|k|}``, and
    ``a = ε_p / 2`` (scipy's ``dlaplace`` parameter, as 004 prints ``dlaplace.rvs(ε_p/2, K)``). Moving
    one label changes two counts of the cluster by one each (L1 sensitivity 2), so the loss is
    ``2a = ε_p``: ε_p-label DP, tight.

    Parameters
    ----------
    epsilon : float > 0
        ε_p, the privacy budget spent on the priors.

    References
    ----------
    004 Algorithm 4 and §5.2 (geometric mechanism).
    """

    epsilon: float

    def __post_init__(self):
        check_positive("epsilon", self.epsilon)

    @property
    def a(self) -> float:
        """Discrete Laplace parameter ε_p/2 (scipy ``dlaplace`` shape)."""
        return self.epsilon / 2.0

    def privacy_loss(self) -> float:
        """Exact label-DP loss: 2a = ε. Moving one label changes two counts by one; each noisy count's
        log pmf ratio ``a(|z-c'| - |z-c|)`` is at most a, attained in the tails (004 Algorithm 4)."""
        return 2.0 * self.a

    def sample(self, histograms, rng: np.random.Generator) -> np.ndarray:
        """Noisy histograms, (L, K) -> (L, K) int64: difference of two geometric variables."""
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
        """Exact log P(H̃ = noisy | H = histograms), summed over the last axis (independent counts)."""
        z = _integer_valued("noisy", noisy)
        h = _integer_valued("histograms", histograms)
        return (math.log(math.tanh(self.a / 2.0)) - self.a * np.abs(z - h)).sum(axis=-1)

    @staticmethod
    def priors(noisy) -> np.ndarray:
        """004 Algorithm 4 step (c): ``max(H̃, 0) / Σ_k max(H̃_k, 0)`` per row, (L, K) -> (L, K).

        A row with no positive count is undefined in 004 (0/0); it gets the uniform prior, the
        initialization of step 1 (post-processing, no privacy cost).
        """
        pos = np.maximum(np.asarray(noisy, dtype=float), 0.0)
        if pos.ndim == 1:
            pos = pos[None, :]
        tot = pos.sum(axis=1, keepdims=True)
        uniform = np.full_like(pos, 1.0 / pos.shape[1])
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(tot > 0, pos / tot, uniform)
