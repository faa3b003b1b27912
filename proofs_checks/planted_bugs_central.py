"""Planted bugs of the central / continuous mechanisms: they now live beside their verifiers (and
their catalogue records) in :mod:`proofs_checks.mechanisms.exponential`, ``.laplace`` and
``.histograms``. This module re-exports them under their former import path.

* :class:`ExponentialNoHalf` -- ``exp(ε n_j)`` instead of ``exp(ε n_j / 2)`` (003 eq. (17)).
* :class:`LaplaceHalfScale` -- ``Lap(T/ε)`` instead of ``Lap(2T/ε)`` (003 Theorem 6): loss 2ε.
* :class:`StabilityNoPlusOne` -- threshold without the "+1" (001 Algorithm 1 line 7): δ(ε) = (δ/4) e^{ε/2}.
* :class:`GeometricFullBudget` -- ``dlaplace(ε_p)`` instead of ``dlaplace(ε_p/2)`` (004 Algorithm 4): 2ε_p.
* :class:`NoisyBinMeanEq23AsPrinted` -- 003 eq. (23)'s printed ``Lap(2/(n_l ε))``: loss Tε.

``PLANTED_BUGS_CENTRAL`` maps a description to (factory(ε), the exact loss in words), as before.
"""

from proofs_checks.mechanisms.exponential import ExponentialNoHalf
from proofs_checks.mechanisms.histograms import GeometricFullBudget, StabilityNoPlusOne
from proofs_checks.mechanisms.laplace import LaplaceHalfScale, NoisyBinMeanEq23AsPrinted

__all__ = ["GeometricFullBudget", "ExponentialNoHalf", "LaplaceHalfScale", "NoisyBinMeanEq23AsPrinted",
           "StabilityNoPlusOne", "PLANTED_BUGS_CENTRAL"]

# name -> (factory(epsilon), what the exact loss should be, in words)
PLANTED_BUGS_CENTRAL = {
    "exponential: exp(eps n) not exp(eps n/2)": (lambda eps: ExponentialNoHalf(3, eps), "-> 2 eps (n -> inf)"),
    "Laplace labels: Lap(T/eps) not Lap(2T/eps)": (lambda eps: LaplaceHalfScale(1.0, eps), "2 eps"),
    "geometric histogram: dlaplace(eps) not dlaplace(eps/2)": (lambda eps: GeometricFullBudget(eps), "2 eps"),
    "stability histogram: threshold without +1": (lambda eps: StabilityNoPlusOne(eps, 1e-5),
                                                   "delta(eps) = (delta/4) e^(eps/2)"),
}
