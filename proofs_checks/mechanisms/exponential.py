"""Verifier of the exponential mechanism per bin (003 eq. (17)), registered with ``check_label_dp``.

Every count vector of a bin of n labels over K classes and every move of one label (a -> b) is
enumerated with exact output distributions (log-sum-exp); the maximum certifies the closed form
:func:`simulations.mechanisms.exponential.exponential_worst_loss`.
"""

from __future__ import annotations

import numpy as np

from limits.validation import check_int
from proofs_checks.dp import register_checker, within
from simulations.mechanisms import ExponentialMechanism

from ._common import certify, compositions, neighbour_moves, result

__all__ = ["exponential_pairs"]


def exponential_pairs(mech: ExponentialMechanism, bin_size: int):
    d, d2 = neighbour_moves(compositions(bin_size, mech.num_classes))
    return d, d2, mech.log_probabilities(d), mech.log_probabilities(d2)


@register_checker(ExponentialMechanism)
def _check_exponential(mech: ExponentialMechanism, epsilon, delta, bin_size: int = 6):
    check_int("bin_size", bin_size, low=1)
    d, d2, lp, lq = exponential_pairs(mech, bin_size)
    gap = np.abs(lp - lq)
    r, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    closed = mech.privacy_loss(bin_size)
    loss, agree, tol = certify(float(gap[r, j]), closed, np.r_[lp.ravel(), lq.ravel()])
    expl = (f"all {len(d)} neighbouring count vectors of a bin of n = {bin_size} labels, K = {mech.num_classes}: "
            f"max |ln P(j|D)/P(j|D')| = {float(gap[r, j]):.12g} ("
            f"{'= the closed form within rounding ' + format(tol, '.2g') if agree else 'DIFFERS from the closed form'}); "
            f"loss {loss:.12g} ({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); "
            f"closed form s + ln((K-1+e^(sn))/(K-2+e^s+e^(s(n-1)))) = {closed:.12g} with s = {mech.utility_scale:g}; "
            f"tends to 2s = {2 * mech.utility_scale:g} as n grows")
    return result(loss, epsilon, "exact enumeration of neighbouring count vectors",
                   {"counts": d[r].tolist(), "counts_prime": d2[r].tolist(), "output": int(j),
                    "closed_form": closed, "limit": 2 * mech.utility_scale}, expl)
