"""Record and independent verifier of the exponential mechanism per bin (003 eq. (17)), with its planted bug.

Every count vector of a bin of n labels over K classes and every move of one label (a -> b) is
enumerated with the mechanism's exact output distributions (``log_probabilities``, log-sum-exp); the
maximum certifies this module's own closed form :func:`exponential_bin_loss` (never the mechanism's
``privacy_loss``): worst neighbours have one label of class a and n-1 of class b, the a-label moves
to b, and the output a has ln P(a|D)/P(a|D') = s + ln((K-1+e^{sn})/(K-2+e^s+e^{s(n-1)})) with s the
utility scale (ε/2 in 003 eq. (17)). The closed form is reported when the enumeration agrees with
it within the enumeration's rounding, else the enumeration.

References: 003 eq. (17), Theorem 4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive
from proofs_checks.catalogue import Example, MechanismRecord, PlantedBug
from proofs_checks.channels import within
from simulations.mechanisms import ExponentialMechanism

from ._common import certify, compositions, neighbour_moves, result

__all__ = ["BIN", "ExponentialNoHalf", "RECORDS", "exponential_bin_loss", "exponential_pairs", "verify_exponential"]

BIN = 6  # labels per bin of the headline example (the exact loss is below ε at finite n)
K = 3  # classes of the headline example


def exponential_bin_loss(utility_scale: float, n: int, num_classes: int) -> float:
    """Exact worst loss of ``P(j) ∝ exp(s n_j)`` over bins of n labels and K classes (derived above).

    Parameters
    ----------
    utility_scale : float > 0
        s (ε/2 in 003 eq. (17)).
    n : int >= 1
    num_classes : int >= 2

    Returns
    -------
    float
        s + ln((K-1+e^{sn})/(K-2+e^s+e^{s(n-1)})): s at n = 1, increasing to 2s as n grows.

    References
    ----------
    003 eq. (17), Theorem 4.

    Examples
    --------
    >>> exponential_bin_loss(0.5, 1, 3)
    0.5
    """
    s = check_positive("utility_scale", utility_scale)
    n, k = check_int("n", n, low=1), check_int("num_classes", num_classes, low=2)
    if s * n < 600:  # numerator - denominator = (e^s - 1)(e^{s(n-1)} - 1): log1p keeps tiny s exact
        den = k - 2 + math.exp(s) + math.exp(s * (n - 1))
        return s + math.log1p(math.expm1(s) * math.expm1(s * (n - 1)) / den)
    num = np.logaddexp(math.log(k - 1), s * n)
    den = np.logaddexp(np.logaddexp(math.log(k - 2) if k > 2 else -np.inf, s), s * (n - 1))
    return float(s + num - den)


def exponential_pairs(mech: ExponentialMechanism, bin_size: int):
    """Every neighbouring pair of count vectors of a bin and their exact log output distributions.

    Parameters
    ----------
    mech : ExponentialMechanism
    bin_size : int >= 1

    Returns
    -------
    d, d2 : ndarray (M, K) of counts; lp, lq : ndarray (M, K) of log-probabilities

    References
    ----------
    003 eq. (17).

    Examples
    --------
    >>> exponential_pairs(ExponentialMechanism(2, 1.0), 1)[0].tolist()
    [[1, 0], [0, 1]]
    """
    d, d2 = neighbour_moves(compositions(bin_size, mech.num_classes))
    return d, d2, mech.log_probabilities(d), mech.log_probabilities(d2)


def verify_exponential(mech: ExponentialMechanism, epsilon, delta, bin_size: int = 6):
    """Enumeration of all neighbouring count vectors of a bin, certifying :func:`exponential_bin_loss`.

    Parameters
    ----------
    mech : ExponentialMechanism (or a subclass)
    epsilon : float >= 0
    delta : float
    bin_size : int >= 1, labels per bin

    Returns
    -------
    DPCheckResult; the witness holds the worst neighbours and the closed form.

    References
    ----------
    003 eq. (17), Theorem 4.

    Examples
    --------
    >>> verify_exponential(ExponentialMechanism(2, 1.0), 1.0, 0.0, bin_size=1).epsilon_actual
    0.5
    """
    check_int("bin_size", bin_size, low=1)
    d, d2, lp, lq = exponential_pairs(mech, bin_size)
    gap = np.abs(lp - lq)
    r, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    closed = exponential_bin_loss(mech.utility_scale, bin_size, mech.num_classes)
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


@dataclass(frozen=True, slots=True)
class ExponentialNoHalf(ExponentialMechanism):
    r"""PLANTED BUG: weights :math:`\exp(\varepsilon n_j)` (utility scale ε instead of ε/2, 003 eq. (17)).

    Its exact loss on a bin of n labels is :func:`exponential_bin_loss` (ε, n, K) =
    :math:`\varepsilon + \ln((K-1+e^{\varepsilon n})/(K-2+e^{\varepsilon}+e^{\varepsilon(n-1)}))`,
    above ε for every n >= 2 and tending to 2ε (n = 1 gives exactly ε: not detectable there).
    Overrides the public ``utility_scale``.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        The claimed ε.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.ExponentialMechanism`.

    References
    ----------
    003 eq. (17), Theorem 4.

    Examples
    --------
    On bins of 2 labels, K = 3, ε = 1 the verifier reports :math:`1 + \ln((2+e^2)/(1+2e))`:

    >>> import math
    >>> from proofs_checks.dp import check_label_dp
    >>> res = check_label_dp(ExponentialNoHalf(3, 1.0), 1.0, bin_size=2)
    >>> res.holds, abs(res.epsilon_actual - (1 + math.log((2 + math.e**2) / (1 + 2 * math.e)))) < 1e-12
    (False, True)
    >>> ExponentialNoHalf(3, 0.4).utility_scale
    0.4
    """

    @property
    def utility_scale(self) -> float:
        """Multiplier of the counts in the exponent: ε (the bug; 003 eq. (17) has ε/2).

        Returns
        -------
        float
            ε.

        References
        ----------
        003 eq. (17).

        Examples
        --------
        >>> ExponentialNoHalf(3, 0.4).utility_scale
        0.4
        """
        return self.epsilon


RECORDS = (
    MechanismRecord(
        ExponentialMechanism, f"exponential mechanism (n={BIN}, K={K})", "003 eq. (17)", verify_exponential,
        examples=(Example(f"K={K}, bins of {BIN}", lambda e: ExponentialMechanism(K, e),
                          loss=lambda e: exponential_bin_loss(e / 2, BIN, K), checker_kwargs={"bin_size": BIN}),
                  Example("K=2, bins of 1", lambda e: ExponentialMechanism(2, e), loss=lambda e: e / 2,
                          checker_kwargs={"bin_size": 1})),
        paper_claim="below", order=90,
        planted_bugs=(PlantedBug("exponential: exp(eps n)", lambda e: ExponentialNoHalf(K, e),
                                 loss=lambda e: exponential_bin_loss(e, BIN, K), checker_kwargs={"bin_size": BIN},
                                 order=40, derivation="exponential_bin_loss(eps, n, K): ExponentialNoHalf's docstring"),)),
)
