"""Planted bugs of the local randomizers: they now live beside their verifiers (and their catalogue
records) in :mod:`proofs_checks.mechanisms.vector` and :mod:`proofs_checks.mechanisms.randomized_response`.

This module re-exports them under their former import path.

* ``VectorMechanismFullBitEpsilon`` -- ε instead of ε/2 per bit (000 eq. (12)-(13)): exact loss 2ε.
* ``RRTopKShortKeep`` -- keep e^ε/(e^ε+k) (004 Algorithm 1): exact loss ``|ε - ln(k/(k-1))|``.
* ``RRTopKUniformFallback`` -- the same with a uniform fallback over Y_k: exact loss ln(1 + e^ε).
"""

from proofs_checks.mechanisms.randomized_response import (RRTopKShortKeep, RRTopKUniformFallback,
                                                          rr_top_k_short_keep_loss, rr_top_k_uniform_fallback_loss)
from proofs_checks.mechanisms.vector import VectorMechanismFullBitEpsilon, vector_full_bit_epsilon_loss

__all__ = ["RRTopKShortKeep", "RRTopKUniformFallback", "VectorMechanismFullBitEpsilon", "rr_top_k_short_keep_loss",
           "rr_top_k_uniform_fallback_loss", "vector_full_bit_epsilon_loss"]
