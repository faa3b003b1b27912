"""Deliberately wrong mechanisms, with their exact (wrong) privacy loss derived by hand.

Each variant subclasses the correct mechanism and overrides only the one probability a careless
implementation could get wrong, so its channel *and* its sampler carry the bug and
``check_label_dp`` dispatches to the correct mechanism's exact checker. The tests assert that the
checker finds exactly the loss derived here, not merely that it "fails".

``VectorMechanismFullBitEpsilon`` — ε instead of ε/2 per bit (000 eq. (12)-(13)).
    a = e^ε/(1+e^ε), b = 1/(1+e^ε); changing y -> y' moves bits y and y', each by at most a/b = e^ε
    (z(y)=1, z(y')=0), and the factorized maximum is attained: loss = 2ε.

``RRTopKShortKeep`` — e^ε/(e^ε+k) instead of e^ε/(e^ε+k-1) as the keep probability (004 Algorithm 1).
    The denominator then no longer normalizes the row, so one has to say where the missing mass goes.
    The natural sampler ("keep y if u < keep, else a uniform other label of Y_k") sends all of it to
    Y_k \\ {y}. With E = e^ε, a column z in Y_k holds q = E/(E+k) (row z), r = k/((k-1)(E+k)) (rows
    y in Y_k, y != z) and s = 1/k (rows outside Y_k, if k < K). All three comparisons q vs r,
    q vs s, s vs r flip at the same point E = k/(k-1): for E > k/(k-1), q > s > r; below, q < s < r.
    So loss = |ln(q/r)| = |ε - ln(k/(k-1))| (k >= 2; it does not depend on K or on whether k < K).
    Hence the bug *violates* ε-DP exactly when ε < ln(k/(k-1))/2 (e.g. k = 2, ε = 0.1: loss
    ln 2 - 0.1 ≈ 0.593) and otherwise leaves an untight loss ε - ln(k/(k-1)) < ε.

``RRTopKUniformFallback`` — the same wrong denominator with the other natural sampler: "keep y if
    u < e^ε/(e^ε+k), else a uniform label of Y_k" (y itself included). Then, with E = e^ε,
    P(y | y) = E/(E+k) + (k/(E+k))(1/k) = (E+1)/(E+k) and P(z | y) = 1/(E+k) for z in Y_k \\ {y}; rows
    outside Y_k put 1/k > 1/(E+k) on each z. The worst column ratio is ((E+1)/(E+k)) / (1/(E+k)):
    loss = ln(1 + e^ε) > ε for every ε (k >= 2), so this variant is always flagged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from limits.validation import check_int, check_positive
from simulations.mechanisms import RRTopK, VectorMechanism

__all__ = ["RRTopKShortKeep", "RRTopKUniformFallback", "VectorMechanismFullBitEpsilon", "rr_top_k_short_keep_loss",
           "rr_top_k_uniform_fallback_loss",
           "vector_full_bit_epsilon_loss"]


@dataclass(frozen=True, slots=True)
class VectorMechanismFullBitEpsilon(VectorMechanism):
    """PLANTED BUG: the K-bit vector mechanism with ε (not ε/2) per bit; its exact loss is 2ε."""

    def bit_epsilon(self) -> float:
        return self.epsilon


def vector_full_bit_epsilon_loss(epsilon: float) -> float:
    """Exact privacy loss of :class:`VectorMechanismFullBitEpsilon`: 2ε."""
    return 2.0 * check_positive("epsilon", epsilon)


@dataclass(frozen=True, slots=True)
class RRTopKShortKeep(RRTopK):
    """PLANTED BUG: RRTop-k keeping y w.p. e^ε/(e^ε+k); the rest spread over Y_k minus y. Needs k >= 2."""

    def __post_init__(self):
        RRTopK.__post_init__(self)
        if self.k < 2:
            raise ValueError(f"the short-keep bug needs k >= 2 (no other label to receive the mass), got k={self.k}")

    def _probabilities(self) -> tuple[float, float]:
        t = math.exp(-self.epsilon)
        keep = 1.0 / (1.0 + self.k * t)  # e^ε / (e^ε + k)
        return keep, self.k * t / ((self.k - 1) * (1.0 + self.k * t))  # (1 - keep) / (k - 1)


def rr_top_k_short_keep_loss(epsilon: float, k: int) -> float:
    """Exact privacy loss of :class:`RRTopKShortKeep`: |ε - ln(k/(k-1))|."""
    epsilon, k = check_positive("epsilon", epsilon), check_int("k", k, low=2)
    return abs(epsilon - math.log(k / (k - 1)))


@dataclass(frozen=True, slots=True)
class RRTopKUniformFallback(RRTopKShortKeep):
    """PLANTED BUG: keep y w.p. e^ε/(e^ε+k), else a uniform label of Y_k (y included). Needs k >= 2."""

    def _probabilities(self) -> tuple[float, float]:
        t = math.exp(-self.epsilon)
        other = t / (1.0 + self.k * t)  # 1 / (e^ε + k)
        return (1.0 + t) / (1.0 + self.k * t), other  # (e^ε + 1) / (e^ε + k)


def rr_top_k_uniform_fallback_loss(epsilon: float) -> float:
    """Exact privacy loss of :class:`RRTopKUniformFallback`: ln(1 + e^ε)."""
    return math.log1p(math.exp(check_positive("epsilon", epsilon)))
