"""Deliberately wrong central / continuous mechanisms: ``check_label_dp`` must catch each one.

Each bug is a subclass that changes one constant of the paper's mechanism, so the sampler and the
exact checker both see the bug (the checkers read the mechanism's own scale / threshold / weights).
The exact wrong privacy loss of each is derived in its docstring and asserted by the tests:

* :class:`ExponentialNoHalf` -- ``exp(ε n_j)`` instead of ``exp(ε n_j / 2)`` (003 eq. (17)): the loss
  on a bin of n labels is ``exponential_worst_loss(ε, n, K) = ε + ln((K-1+e^{εn})/(K-2+e^{ε}+e^{ε(n-1)}))``,
  which exceeds ε for every n >= 2 and tends to 2ε (n = 1 gives exactly ε: not detectable there).
* :class:`LaplaceHalfScale` -- ``Lap(T/ε)`` instead of ``Lap(2T/ε)`` (003 Theorem 6): loss 2T/(T/ε) = 2ε.
* :class:`StabilityNoPlusOne` -- threshold ``(2/ε) log(2/δ)`` without the "+1" (001 Algorithm 1 line 7):
  a count of 1 is released with probability ``½ e^{-(ε/2)((2/ε)log(2/δ) - 1)} = (δ/4) e^{ε/2}`` (when
  ``(2/ε) log(2/δ) >= 1``), and that is δ(ε) exactly: it exceeds the claimed δ iff ``ε > 2 ln 4``.
* :class:`GeometricFullBudget` -- ``dlaplace(ε_p)`` instead of ``dlaplace(ε_p/2)`` (004 Algorithm 4):
  two counts move, loss 2ε_p.

Not a planted bug but a paper finding checked the same way: :class:`NoisyBinMeanEq23AsPrinted` uses
003 eq. (23)'s printed ``Lap(2/(n_l ε))``; for labels in [-T, T] its exact loss is ``T ε``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations.mechanisms import (ExponentialMechanism, GeometricHistogram, LaplaceLabels, NoisyBinMean,
                                    StabilityHistogram)

__all__ = ["GeometricFullBudget", "ExponentialNoHalf", "LaplaceHalfScale", "NoisyBinMeanEq23AsPrinted",
           "StabilityNoPlusOne", "PLANTED_BUGS_CENTRAL"]


@dataclass(frozen=True, slots=True)
class ExponentialNoHalf(ExponentialMechanism):
    """BUG: weights ``exp(ε n_j)`` (utility scale ε instead of ε/2)."""

    @property
    def utility_scale(self) -> float:
        return self.epsilon


@dataclass(frozen=True, slots=True)
class LaplaceHalfScale(LaplaceLabels):
    """BUG: ``Z = Y + Lap(T/ε)`` (sensitivity taken as T instead of 2T); exact loss 2ε."""

    @property
    def scale(self) -> float:
        return self.T / self.epsilon


@dataclass(frozen=True, slots=True)
class StabilityNoPlusOne(StabilityHistogram):
    """BUG: release threshold ``(2/ε) log(2/δ)`` (the "+1" of 001 Algorithm 1 line 7 dropped)."""

    @property
    def threshold(self) -> float:
        return 2.0 / self.epsilon * math.log(2.0 / self.delta)


@dataclass(frozen=True, slots=True)
class GeometricFullBudget(GeometricHistogram):
    """BUG: ``dlaplace(ε_p)`` noise (the whole budget per count, ignoring that two counts move)."""

    @property
    def a(self) -> float:
        return self.epsilon


@dataclass(frozen=True, slots=True)
class NoisyBinMeanEq23AsPrinted(NoisyBinMean):
    """003 eq. (23) as printed: ``W_l ~ Lap(2/(n_l ε))`` whatever T (correct only for T <= 1)."""

    def scale(self, counts) -> np.ndarray:
        n = np.asarray(counts, dtype=float)
        with np.errstate(divide="ignore"):
            return 2.0 / (n * self.epsilon)


# name -> (factory(epsilon), what the exact loss should be, in words)
PLANTED_BUGS_CENTRAL = {
    "exponential: exp(eps n) not exp(eps n/2)": (lambda eps: ExponentialNoHalf(3, eps), "-> 2 eps (n -> inf)"),
    "Laplace labels: Lap(T/eps) not Lap(2T/eps)": (lambda eps: LaplaceHalfScale(1.0, eps), "2 eps"),
    "geometric histogram: dlaplace(eps) not dlaplace(eps/2)": (lambda eps: GeometricFullBudget(eps), "2 eps"),
    "stability histogram: threshold without +1": (lambda eps: StabilityNoPlusOne(eps, 1e-5),
                                                   "delta(eps) = (delta/4) e^(eps/2)"),
}
