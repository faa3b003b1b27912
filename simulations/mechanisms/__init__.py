"""Label-DP privacy mechanisms: a frozen description, a vectorized sampler, and the exact channel.

Local label randomizers (input one label): :class:`RandomizedResponse` (004 eq. (1)),
:class:`RRTopK` and :class:`RRWithPrior` (004 Algorithms 1-2), :class:`VectorMechanism`
(000 eq. (12)-(13), 003 eq. (11)), :class:`AsymmetricVectorMechanism` (the asymmetric flipping that 002's
Limitations paragraph suggests; the suite's construction), :class:`ALIBI` (Laplace on the one-hot label + Bayesian soft
labels). Labels are 0-based class indices.
"""

from .alibi import ALIBI
from .randomized_response import RandomizedResponse, RRTopK, RRWithPrior, rr_probabilities, top_k_order
from .vector import VectorMechanism, output_bits
from .asymmetric_vector import AsymmetricVectorMechanism

__all__ = ["ALIBI", "AsymmetricVectorMechanism", "RRTopK", "RRWithPrior", "RandomizedResponse", "VectorMechanism", "output_bits",
           "rr_probabilities", "top_k_order"]

# Continuous and central mechanisms (each module extends __all__ below).
from .exponential import ExponentialMechanism  # noqa: E402
from .histograms import GeometricHistogram, NoisyMajority, StabilityHistogram  # noqa: E402
from .laplace import ClippedLaplaceLabels, LaplaceLabels, NoisyBinMean  # noqa: E402

__all__ += ["ClippedLaplaceLabels", "ExponentialMechanism", "GeometricHistogram", "LaplaceLabels", "NoisyBinMean",
            "NoisyMajority", "StabilityHistogram"]
