"""Record and independent verifier of the K-bit vector mechanism (000 eq. (12)-(14)), with its planted bug.

The verifier never calls the mechanism's ``privacy_loss``. Its headline number is its own closed
form, written here (000 eq. (14)): changing y -> y' moves only bits y and y', each by at most
``ln(a/b)`` (with a = P(Z(y)=1 | y), b = P(Z(j)=1 | y), j != y), so the loss is ``2 ln(a/b)``,
evaluated as ``2 (ln a - ln b)`` from the mechanism's per-bit log-probabilities
(``log_flip_probabilities``: its channel, factorized). It is cross-checked, and replaced by the
enumeration when they disagree, by:

* the generic factorization over all (y, y') from the per-bit table of the channel
  (:func:`factorized_log_loss`, exact, O(K^3)) for K <= :data:`FACTORIZED_MAX`;
* brute force over all 2^K outputs of ``log_channel_matrix`` for K <= :data:`BRUTE_FORCE_MAX`.

Above K = 64 (up to any K) the independent route is the closed form on (ln a, ln b), whose premise
(bit probabilities a on the label's bit, b elsewhere, a + b = 1 so ln(1 - a) = ln b) is checked on
the (ln a, ln b) pair itself; the per-bit table is not built (K^2 entries).

References: 000 eq. (12)-(13), Theorem 1 (eq. (14)); 003 eq. (11), (15).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_positive
from proofs_checks.catalogue import Example, MechanismRecord, PlantedBug
from proofs_checks.channels import DPCheckResult, is_tight, log_privacy_loss_witness, within
from simulations.mechanisms import VectorMechanism

__all__ = ["BRUTE_FORCE_MAX", "FACTORIZED_MAX", "RECORDS", "VectorMechanismFullBitEpsilon", "factorized_log_loss",
           "factorized_vector_loss", "verify_vector", "vector_full_bit_epsilon_loss"]

# Largest K for which the vector checker also enumerates all 2^K outputs by default.
BRUTE_FORCE_MAX = 12
# Largest K for which it also runs the generic O(K^3) factorization over every (y, y') pair.
FACTORIZED_MAX = 64
# |ln a + ln(1 + e^{ln b - ln a})|, i.e. |ln(a + b)|, above which (a, b) is not a bit's two outcomes.
_PAIR_ATOL = 1e-12

K = 5  # classes of the headline example (the dp_checks row)


def factorized_log_loss(log_one, log_zero) -> tuple[float, tuple[int, int]]:
    """Exact privacy loss of a mechanism with independent bits, from its per-bit log-probabilities.

    For Q[y, j] = P(Z(j) = 1 | y) and independent bits, ln P(z|y)/P(z|y') is a sum over j of
    per-bit terms that each depend on z(j) only, and z ranges over all of {0, 1}^K, so the maximum
    over z is the sum over j of the per-bit maxima:
    loss = max_{y, y'} sum_j max_{b in {0, 1}} ln P(Z(j)=b | y) / P(Z(j)=b | y'). Exact, not a bound.
    O(K^2 n_bits) time, O(K n_bits) memory.

    Parameters
    ----------
    log_one, log_zero : array_like, shape (K, n_bits)
        ln Q and ln(1 - Q) (``-inf`` for probability 0), given separately so that neither rounds.

    Returns
    -------
    loss : float
    pair : (y, y') maximizing it

    Raises
    ------
    ValueError
        Shapes differ, are not 2-D, or entries are positive or NaN.

    References
    ----------
    000 eq. (12)-(14).

    Examples
    --------
    >>> a, b = math.log(0.75), math.log(0.25)  # e^{eps/2} = 3
    >>> round(factorized_log_loss([[a, b], [b, a]], [[b, a], [a, b]])[0], 12) == round(2 * math.log(3), 12)
    True
    """
    L1, L0 = np.asarray(log_one, dtype=float), np.asarray(log_zero, dtype=float)
    if L1.ndim != 2 or L1.size == 0 or L1.shape != L0.shape or np.any(L1 > 0) or np.any(L0 > 0) \
            or np.any(np.isnan(L1)) or np.any(np.isnan(L0)):
        raise ValueError(f"log_one and log_zero must be non-empty (K, n_bits) arrays of log-probabilities <= 0, "
                         f"got shapes {L1.shape} and {L0.shape}")
    best, arg = -np.inf, (0, 0)
    for y in range(L1.shape[0]):
        with np.errstate(invalid="ignore"):  # inf - inf only for bits that are 0 (or 1) under both
            d1, d0 = L1[y] - L1, L0[y] - L0
        per_bit = np.fmax(np.where(np.isnan(d1), -np.inf, d1), np.where(np.isnan(d0), -np.inf, d0))
        total = per_bit.sum(axis=1)
        j = int(np.argmax(total))
        if total[j] > best:
            best, arg = float(total[j]), (y, j)
    return best, arg


def factorized_vector_loss(bit_probabilities) -> tuple[float, tuple[int, int]]:
    """:func:`factorized_log_loss` from the bit probabilities Q (shape (K, n_bits), entries in [0, 1]).

    Parameters
    ----------
    bit_probabilities : array_like, shape (K, n_bits)

    Returns
    -------
    (loss, (y, y'))

    Raises
    ------
    ValueError
        Not a non-empty 2-D array of probabilities.

    References
    ----------
    000 eq. (12)-(14).

    Examples
    --------
    >>> round(factorized_vector_loss([[0.75, 0.25], [0.25, 0.75]])[0], 12) == round(2 * math.log(3), 12)
    True
    """
    Q = np.asarray(bit_probabilities, dtype=float)
    if Q.ndim != 2 or Q.size == 0 or not np.all((Q >= 0) & (Q <= 1)):
        raise ValueError(f"bit_probabilities must be a non-empty (K, n_bits) array in [0, 1], got {bit_probabilities!r}")
    with np.errstate(divide="ignore"):
        return factorized_log_loss(np.log(Q), np.log1p(-Q))


def _log_bit_tables(la: float, lb: float, K: int) -> tuple[np.ndarray, np.ndarray]:
    """ln Q and ln(1 - Q) of 000 eq. (12): Q[y, j] = a if j = y else b, with 1 - a = b."""
    L1, L0 = np.full((K, K), lb), np.full((K, K), la)
    np.fill_diagonal(L1, la)
    np.fill_diagonal(L0, lb)
    return L1, L0


def verify_vector(mech: VectorMechanism, epsilon, delta, brute_force_max=BRUTE_FORCE_MAX,
                  factorized_max=FACTORIZED_MAX) -> DPCheckResult:
    """Exact loss of the K-bit vector mechanism: own closed form 2 ln(a/b), cross-checked (module docstring).

    Parameters
    ----------
    mech : VectorMechanism (or a subclass)
    epsilon : float >= 0
    delta : float
    brute_force_max, factorized_max : int
        Largest K for the brute force over 2^K outputs and for the generic factorization.

    Returns
    -------
    DPCheckResult; the witness holds every route's number.

    References
    ----------
    000 eq. (12)-(14).

    Examples
    --------
    >>> verify_vector(VectorMechanism(3, 1.0), 1.0, 0.0).epsilon_actual
    1.0
    """
    la, lb = mech.log_flip_probabilities()
    pair = abs(float(np.logaddexp(la, lb)))  # ln(a + b): 0 for the two outcomes of one bit
    closed = 2.0 * abs(la - lb)  # bits y and y' each move by ln(a/b) (000 eq. (14))
    s = mech.bit_epsilon()
    # 2 * (stated per-bit parameter) when the log-probabilities agree with it (they are its exact
    # function); the headline is then the exactly-rounded 2 s (2 * (eps/2) = eps).
    if abs(closed - 2.0 * s) <= 1e-12 * max(1.0, abs(la), abs(lb)):
        closed = 2.0 * s
    y, y2 = 0, 1
    witness = {"y": y, "y_prime": y2, "factorized": closed}
    lines = [f"factorized closed form (only bits y, y' move, each by ln(a/b) = {abs(la - lb):.12g}): loss {closed:.12g}"]
    agree = pair <= _PAIR_ATOL
    if not agree:
        lines.append(f"(ln a, ln b) are NOT the two outcomes of a bit: |ln(a + b)| = {pair:.3g}")
    return _cross_checked(mech, epsilon, delta, closed=closed, tables=lambda K: _log_bit_tables(la, lb, K),
                          agree=agree, lines=lines, witness=witness, closed_name="closed form 2 ln(a/b)",
                          factorized_max=factorized_max, brute_force_max=brute_force_max)


def _cross_checked(mech, epsilon, delta, *, closed, tables, agree, lines, witness, closed_name, factorized_max,
                   brute_force_max) -> DPCheckResult:
    """A bit-vector verifier's closed-form loss ``closed``, cross-checked by the generic factorization of the
    per-bit table ``tables(K)`` (K <= ``factorized_max``) and by brute force over the 2^K outputs of
    ``mech.log_channel_matrix()`` (K <= ``brute_force_max``); a route that disagrees supplies the loss and
    clears ``holds``. ``lines`` and ``witness`` carry what the caller found so far (shared by
    :func:`verify_vector` and the asymmetric mechanism's verifier)."""
    loss, K = closed, mech.num_classes
    if K <= factorized_max:
        gen, _ = factorized_log_loss(*tables(K))
        witness["factorized_generic"] = gen
        ok = is_tight(gen, closed)
        agree &= ok
        loss = closed if ok else gen
        lines.append(f"generic factorization over all (y, y') of the per-bit table: {gen:.12g} "
                     f"({'agrees' if ok else 'DISAGREES'})")
    if K <= brute_force_max:
        brute, _ = log_privacy_loss_witness(mech.log_channel_matrix())
        witness["brute_force"] = brute
        ok = is_tight(brute, closed)
        agree &= ok
        if not ok:
            loss = brute
        lines.append(f"brute force over all 2^{K} outputs of the channel (log space): loss {brute:.12g} "
                     f"({'agrees' if ok else 'DISAGREES'})")
    else:
        lines.append(f"brute force skipped (K={K} > {brute_force_max})")
    holds = agree and within(loss, epsilon)
    expl = f"{'; '.join(lines)}; {'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}"
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=float(loss), delta_actual=0.0,
                         method=f"{closed_name} on the per-bit log-probabilities + generic factorization "
                                f"(K <= {factorized_max}) + brute force (K <= {brute_force_max})",
                         witness=witness, explanation=expl)


# ---------------------------------------------------------------- planted bug


@dataclass(frozen=True, slots=True)
class VectorMechanismFullBitEpsilon(VectorMechanism):
    r"""PLANTED BUG: the K-bit vector mechanism with ε (not ε/2) per bit (000 eq. (12)-(13)).

    :math:`a = e^\varepsilon/(1+e^\varepsilon)`, :math:`b = 1/(1+e^\varepsilon)`; changing
    y -> y' moves bits y and y', each by at most :math:`a/b = e^\varepsilon` (z(y) = 1, z(y') = 0),
    and the factorized maximum is attained: loss = 2ε (:func:`vector_full_bit_epsilon_loss`).
    Overrides the public ``bit_epsilon``, from which the mechanism's probabilities, channel and
    sampler all derive.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        The claimed ε.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.VectorMechanism`.

    References
    ----------
    000 eq. (12)-(13), Theorem 1.

    Examples
    --------
    >>> from proofs_checks.dp import check_label_dp
    >>> VectorMechanismFullBitEpsilon(3, 1.0).bit_epsilon()
    1.0
    >>> round(check_label_dp(VectorMechanismFullBitEpsilon(3, 0.5), 0.5).epsilon_actual, 12)
    1.0
    """

    def bit_epsilon(self) -> float:
        """The per-bit parameter ε (the bug; 000 eq. (12) has ε/2).

        Returns
        -------
        float
            ε.

        References
        ----------
        000 eq. (12)-(13).

        Examples
        --------
        >>> VectorMechanismFullBitEpsilon(3, 1.0).bit_epsilon()
        1.0
        """
        return self.epsilon


def vector_full_bit_epsilon_loss(epsilon: float) -> float:
    """Exact privacy loss of :class:`VectorMechanismFullBitEpsilon`: 2ε.

    Parameters
    ----------
    epsilon : float > 0
        The mechanism's ε.

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
    000 eq. (12)-(13), proof of Theorem 1 (two bits change, each by the per-bit ratio).

    Examples
    --------
    >>> vector_full_bit_epsilon_loss(0.5)
    1.0
    """
    return 2.0 * check_positive("epsilon", epsilon)


def _audit_bits(mech: VectorMechanism):
    """Bit vectors encoded as integers c = sum_j z(j) 2^j (the channel's column order), 2^K outputs."""
    weights = 1 << np.arange(mech.num_classes, dtype=np.int64)
    return (lambda labels, rng: mech.sample(labels, rng).astype(np.int64) @ weights), 1 << mech.num_classes


RECORDS = (
    MechanismRecord(
        VectorMechanism, "vector mechanism", "000 eq. (12)-(13)", verify_vector,
        examples=(Example(f"K={K}", lambda e: VectorMechanism(K, e), loss=lambda e: e),
                  Example("K=2", lambda e: VectorMechanism(2, e), loss=lambda e: e),
                  Example("K=100 (closed form + factorization skipped)", lambda e: VectorMechanism(100, e),
                          loss=lambda e: e)),
        paper_claim="tight", audit_sampler=_audit_bits, order=40,
        planted_bugs=(PlantedBug("vector: eps per bit", lambda e: VectorMechanismFullBitEpsilon(K, e),
                                 loss=vector_full_bit_epsilon_loss, order=10,
                                 derivation="2 eps: VectorMechanismFullBitEpsilon's docstring"),)),
)
