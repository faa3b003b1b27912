"""Record and independent verifier of the asymmetric K-bit vector mechanism, with its planted bugs.

Source: 002's Limitations paragraph suggests "asymmetric flipping probabilities, instead of (14) and
(17)"; the construction checked here (true class's bit 1 w.p. p = 1/2, every other bit w.p.
q = 1/(e^ε + 1), bits independent: the optimized-unary-encoding choice) is the suite's own, not the
paper's (:mod:`simulations.mechanisms.asymmetric_vector`).

The verifier never calls the mechanism's ``privacy_loss``. Its headline number is its own closed
form, written here: changing y -> y' changes the law of bits y and y' only; bit y moves by at most
``r1 = ln(p/q)`` or ``r0 = ln((1-p)/(1-q))``, bit y' by ``-r1`` or ``-r0``, both maxima attained by one
output, so the loss is ``max(r1, r0) + max(-r1, -r0)``, evaluated on the mechanism's four per-bit
log-probabilities (``log_bit_probabilities``: its channel, factorized). With p = 1/2,
q = 1/(e^ε + 1): ``r1 = ln((e^ε + 1)/2)``, ``r0 = ln((e^ε + 1)/(2e^ε))``, loss ``r1 - r0 = ε``: tight.
Cross-checked, and replaced by the enumeration when they disagree, by:

* the generic factorization over all (y, y') of the per-bit table
  (:func:`proofs_checks.mechanisms.vector.factorized_log_loss`) for K <= 64;
* brute force over all 2^K outputs of the mechanism's ``log_channel_matrix`` for K <= 12.

Planted bugs (exact wrong losses derived by hand from the closed form above, p(1-q)/(q(1-p))):

* :class:`AsymmetricVectorDoubleExponent`: q = 1/(e^{2ε} + 1): (1-q)/q = e^{2ε}, p/(1-p) = 1: loss **2ε**;
* :class:`AsymmetricVectorKeepThreeQuarters`: p = 3/4, q = 1/(e^ε + 1): p/(1-p) = 3: loss **ε + ln 3**;
* :class:`AsymmetricVectorHalfExponent` (over-private, so not a record's planted bug, which must
  violate ε): q = 1/(e^{ε/2} + 1): loss **ε/2**, the tightness check's catch.

References: 002 Limitations paragraph; 000 eq. (12)-(14) (the symmetric mechanism and its two-bit
argument, Theorem 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_positive
from proofs_checks.catalogue import Example, MechanismRecord, PlantedBug
from proofs_checks.channels import DPCheckResult
from proofs_checks.mechanisms.vector import _PAIR_ATOL, BRUTE_FORCE_MAX, FACTORIZED_MAX, _audit_bits, _cross_checked
from simulations.mechanisms import AsymmetricVectorMechanism

__all__ = ["AsymmetricVectorDoubleExponent", "AsymmetricVectorHalfExponent", "AsymmetricVectorKeepThreeQuarters",
           "RECORDS", "asymmetric_double_exponent_loss", "asymmetric_half_exponent_loss",
           "asymmetric_keep_three_quarters_loss", "verify_asymmetric_vector"]

K = 5  # classes of the headline example (the dp_checks row)


def _log_bit_tables(lp, l1p, lq, l1q, K):
    """ln Q and ln(1 - Q) with Q[y, j] = p if j = y else q."""
    L1, L0 = np.full((K, K), lq), np.full((K, K), l1q)
    np.fill_diagonal(L1, lp)
    np.fill_diagonal(L0, l1p)
    return L1, L0


def verify_asymmetric_vector(mech: AsymmetricVectorMechanism, epsilon, delta, brute_force_max=BRUTE_FORCE_MAX,
                             factorized_max=FACTORIZED_MAX) -> DPCheckResult:
    """Exact loss of the asymmetric vector mechanism: own two-bit closed form, cross-checked (module docstring).

    Parameters
    ----------
    mech : AsymmetricVectorMechanism (or a subclass, such as a planted bug)
    epsilon : float >= 0
        The claimed ε.
    delta : float
        Carried into the result (pure ε-DP).
    brute_force_max, factorized_max : int
        Largest K for the brute force over 2^K outputs and for the generic factorization.

    Returns
    -------
    DPCheckResult
        The loss; the witness holds every route's number.

    References
    ----------
    002 Limitations paragraph; 000 eq. (12)-(14) (the two-bit argument).

    Examples
    --------
    >>> res = verify_asymmetric_vector(AsymmetricVectorMechanism(3, 1.0), 1.0, 0.0)
    >>> res.holds, round(res.epsilon_actual, 12)
    (True, 1.0)
    >>> round(verify_asymmetric_vector(AsymmetricVectorKeepThreeQuarters(3, 1.0), 1.0, 0.0).epsilon_actual, 9)
    2.098612289
    """
    lp, l1p, lq, l1q = (float(v) for v in mech.log_bit_probabilities())
    pairs = max(abs(float(np.logaddexp(lp, l1p))), abs(float(np.logaddexp(lq, l1q))))
    r1, r0 = lp - lq, l1p - l1q
    closed = max(r1, r0) + max(-r1, -r0)  # bit y moves by r1 or r0, bit y' by -r1 or -r0
    lines = [f"two-bit closed form (bit y: ln(p/q) = {r1:.12g} or ln((1-p)/(1-q)) = {r0:.12g}; bit y' the "
             f"negatives): loss {closed:.12g}"]
    agree = pairs <= _PAIR_ATOL
    if not agree:
        lines.append(f"the log-probabilities are NOT the two outcomes of a bit: |ln(sum)| = {pairs:.3g}")
    witness = {"y": 0, "y_prime": 1, "closed_form": closed}
    return _cross_checked(mech, epsilon, delta, closed=closed, tables=lambda K: _log_bit_tables(lp, l1p, lq, l1q, K),
                          agree=agree, lines=lines, witness=witness, closed_name="two-bit closed form",
                          factorized_max=factorized_max, brute_force_max=brute_force_max)


# ---------------------------------------------------------------- planted bugs


def _log_bit(log_odds: float) -> tuple[float, float]:
    """(ln P(1), ln P(0)) of a bit with log-odds ``log_odds``, exact at large |log_odds|."""
    return -float(np.logaddexp(0.0, -log_odds)), -float(np.logaddexp(0.0, log_odds))


@dataclass(frozen=True, slots=True)
class AsymmetricVectorDoubleExponent(AsymmetricVectorMechanism):
    r"""PLANTED BUG: q = 1/(e^{2ε} + 1) (e^{2ε} for e^ε), p = 1/2: loss 2ε.

    The loss is :math:`\ln[p(1-q)/(q(1-p))] = \ln e^{2\varepsilon} = 2\varepsilon`
    (:func:`asymmetric_double_exponent_loss`). Overrides the public ``log_bit_probabilities``, from
    which the probabilities, channel and sampler all derive.

    Parameters
    ----------
    num_classes : int >= 2
    epsilon : float > 0
        The claimed ε.

    References
    ----------
    002 Limitations paragraph (the mechanism it corrupts).

    Examples
    --------
    >>> round(AsymmetricVectorDoubleExponent(3, 1.0).flip_probabilities()[1], 9)  # 1/(e^2 + 1)
    0.119202922
    """

    def log_bit_probabilities(self) -> tuple[float, float, float, float]:
        """(ln 1/2, ln 1/2, ln q, ln(1 - q)) with the wrong q = 1/(e^{2ε} + 1).

        Returns
        -------
        tuple of four floats

        Examples
        --------
        >>> [round(float(np.exp(v)), 9) for v in AsymmetricVectorDoubleExponent(3, 1.0).log_bit_probabilities()]
        [0.5, 0.5, 0.119202922, 0.880797078]
        """
        lq, l1q = _log_bit(-2.0 * self.epsilon)
        return math.log(0.5), math.log(0.5), lq, l1q


@dataclass(frozen=True, slots=True)
class AsymmetricVectorKeepThreeQuarters(AsymmetricVectorMechanism):
    r"""PLANTED BUG: p = 3/4 (not 1/2) with the right q = 1/(e^ε + 1): loss ε + ln 3.

    :math:`p/(1-p) = 3` and :math:`(1-q)/q = e^\varepsilon`, so the loss is
    :math:`\ln(3e^\varepsilon) = \varepsilon + \ln 3` (:func:`asymmetric_keep_three_quarters_loss`).

    Parameters
    ----------
    num_classes : int >= 2
    epsilon : float > 0
        The claimed ε.

    References
    ----------
    002 Limitations paragraph (the mechanism it corrupts).

    Examples
    --------
    >>> AsymmetricVectorKeepThreeQuarters(3, 1.0).flip_probabilities()[0]
    0.75
    """

    def log_bit_probabilities(self) -> tuple[float, float, float, float]:
        """(ln 3/4, ln 1/4, ln q, ln(1 - q)) with the right q = 1/(e^ε + 1).

        Returns
        -------
        tuple of four floats

        Examples
        --------
        >>> [round(float(np.exp(v)), 9) for v in AsymmetricVectorKeepThreeQuarters(3, 1.0).log_bit_probabilities()]
        [0.75, 0.25, 0.268941421, 0.731058579]
        """
        lq, l1q = _log_bit(-self.epsilon)
        return math.log(0.75), math.log(0.25), lq, l1q


@dataclass(frozen=True, slots=True)
class AsymmetricVectorHalfExponent(AsymmetricVectorMechanism):
    r"""Over-private variant (a utility bug, not a privacy one): q = 1/(e^{ε/2} + 1), p = 1/2: loss ε/2.

    :math:`(1-q)/q = e^{\varepsilon/2}`: the loss is ε/2 < ε (:func:`asymmetric_half_exponent_loss`), so it
    is no planted privacy bug of the record (those must exceed ε); the verifier's exact number shows that
    the claimed ε is not attained.

    Parameters
    ----------
    num_classes : int >= 2
    epsilon : float > 0
        The claimed ε.

    References
    ----------
    002 Limitations paragraph (the mechanism it alters).

    Examples
    --------
    >>> round(verify_asymmetric_vector(AsymmetricVectorHalfExponent(3, 1.0), 1.0, 0.0).epsilon_actual, 12)
    0.5
    """

    def log_bit_probabilities(self) -> tuple[float, float, float, float]:
        """(ln 1/2, ln 1/2, ln q, ln(1 - q)) with q = 1/(e^{ε/2} + 1).

        Returns
        -------
        tuple of four floats

        Examples
        --------
        >>> round(float(np.exp(AsymmetricVectorHalfExponent(3, 2.0).log_bit_probabilities()[2])), 9)  # 1/(e + 1)
        0.268941421
        """
        lq, l1q = _log_bit(-0.5 * self.epsilon)
        return math.log(0.5), math.log(0.5), lq, l1q


def asymmetric_double_exponent_loss(epsilon: float) -> float:
    """Exact loss of :class:`AsymmetricVectorDoubleExponent`: 2ε (derived in its docstring).

    Parameters
    ----------
    epsilon : float > 0

    Returns
    -------
    float
        2ε.

    Raises
    ------
    ValueError
        If ε <= 0.

    References
    ----------
    002 Limitations paragraph; 000 Theorem 1 (the two-bit argument).

    Examples
    --------
    >>> asymmetric_double_exponent_loss(0.5)
    1.0
    """
    return 2.0 * check_positive("epsilon", epsilon)


def asymmetric_keep_three_quarters_loss(epsilon: float) -> float:
    """Exact loss of :class:`AsymmetricVectorKeepThreeQuarters`: ε + ln 3 (derived in its docstring).

    Parameters
    ----------
    epsilon : float > 0

    Returns
    -------
    float
        ε + ln 3.

    Raises
    ------
    ValueError
        If ε <= 0.

    References
    ----------
    002 Limitations paragraph; 000 Theorem 1 (the two-bit argument).

    Examples
    --------
    >>> round(asymmetric_keep_three_quarters_loss(1.0), 9)
    2.098612289
    """
    return check_positive("epsilon", epsilon) + math.log(3.0)


def asymmetric_half_exponent_loss(epsilon: float) -> float:
    """Exact loss of :class:`AsymmetricVectorHalfExponent`: ε/2 (derived in its docstring).

    Parameters
    ----------
    epsilon : float > 0

    Returns
    -------
    float
        ε/2.

    Raises
    ------
    ValueError
        If ε <= 0.

    References
    ----------
    002 Limitations paragraph.

    Examples
    --------
    >>> asymmetric_half_exponent_loss(1.0)
    0.5
    """
    return 0.5 * check_positive("epsilon", epsilon)


RECORDS = (
    MechanismRecord(
        AsymmetricVectorMechanism, "asymmetric vector mechanism (suite's construction)",
        "002 Limitations (asymmetric flipping suggested; p = 1/2, q = 1/(e^eps + 1) is the suite's own)",
        verify_asymmetric_vector,
        examples=(Example(f"K={K}", lambda e: AsymmetricVectorMechanism(K, e), loss=lambda e: e),
                  Example("K=2", lambda e: AsymmetricVectorMechanism(2, e), loss=lambda e: e),
                  Example("K=100 (closed form + factorization skipped)", lambda e: AsymmetricVectorMechanism(100, e),
                          loss=lambda e: e)),
        paper_claim="tight", audit_sampler=_audit_bits, order=41, suite_construction=True,
        planted_bugs=(PlantedBug("asymmetric vector: q with e^(2 eps)", lambda e: AsymmetricVectorDoubleExponent(K, e),
                                 loss=asymmetric_double_exponent_loss, order=11,
                                 derivation="(1-q)/q = e^(2 eps), p/(1-p) = 1: loss 2 eps"),
                      PlantedBug("asymmetric vector: keep 3/4", lambda e: AsymmetricVectorKeepThreeQuarters(K, e),
                                 loss=asymmetric_keep_three_quarters_loss, order=12,
                                 derivation="p/(1-p) = 3, (1-q)/q = e^eps: loss eps + ln 3"))),
)
