"""Verifier of the K-bit vector mechanism (000 eq. (12)-(14)), registered with ``check_label_dp``.

The mechanism's own closed form (:meth:`simulations.mechanisms.VectorMechanism.privacy_loss`, O(1))
is cross-checked, for K <= ``factorized_max``, by the generic factorization over all (y, y') from
its log bit probabilities (:func:`factorized_log_loss`), and for K <= ``brute_force_max`` by brute
force over all 2^K outputs in log space; all are reported and must agree.

References: 000 Theorem 1 (eq. (14)); 003 eq. (15).
"""

from __future__ import annotations

import numpy as np

from proofs_checks.dp import DPCheckResult, is_tight, log_privacy_loss_witness, register_checker, within
from simulations.mechanisms import VectorMechanism

__all__ = ["BRUTE_FORCE_MAX", "FACTORIZED_MAX", "factorized_log_loss", "factorized_vector_loss"]

# Largest K for which the vector checker also enumerates all 2^K outputs by default.
BRUTE_FORCE_MAX = 12
# Largest K for which it also runs the generic O(K^3) factorization over every (y, y') pair.
FACTORIZED_MAX = 64


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

    Returns the loss and the maximizing (y, y').
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
    """:func:`factorized_log_loss` from the bit probabilities Q (shape (K, n_bits), entries in [0, 1])."""
    Q = np.asarray(bit_probabilities, dtype=float)
    if Q.ndim != 2 or Q.size == 0 or not np.all((Q >= 0) & (Q <= 1)):
        raise ValueError(f"bit_probabilities must be a non-empty (K, n_bits) array in [0, 1], got {bit_probabilities!r}")
    with np.errstate(divide="ignore"):
        return factorized_log_loss(np.log(Q), np.log1p(-Q))


def _vector_log_bits(mech: VectorMechanism) -> tuple[np.ndarray, np.ndarray]:
    la, lb = mech.log_flip_probabilities()  # ln(1 - a) = ln b, ln(1 - b) = ln a
    K = mech.num_classes
    L1, L0 = np.full((K, K), lb), np.full((K, K), la)
    np.fill_diagonal(L1, la)
    np.fill_diagonal(L0, lb)
    return L1, L0


@register_checker(VectorMechanism)
def _check_vector(mech, epsilon, delta, brute_force_max=BRUTE_FORCE_MAX, factorized_max=FACTORIZED_MAX):
    s = mech.bit_epsilon()
    loss = mech.privacy_loss()  # per-bit log-ratios ±ε/2 of 000 eq. (12), exact at any ε
    y, y2 = 0, 1
    lines = [f"factorized closed form (only bits y, y' differ; each contributes |ln a/b| = {s:.12g}): loss {loss:.12g}"]
    witness = {"y": y, "y_prime": y2, "factorized": loss}
    agree = True
    if mech.num_classes <= factorized_max:
        gen, _ = factorized_log_loss(*_vector_log_bits(mech))
        witness["factorized_generic"] = gen
        ok = is_tight(gen, loss)
        agree &= ok
        lines.append(f"generic factorization over all (y, y') from ln a, ln b: {gen:.12g} "
                     f"({'agrees' if ok else 'DISAGREES'})")
    if mech.num_classes <= brute_force_max:
        brute, _ = log_privacy_loss_witness(mech.log_channel_matrix())
        witness["brute_force"] = brute
        ok = is_tight(brute, loss)
        agree &= ok
        lines.append(f"brute force over all 2^{mech.num_classes} outputs (log space): loss {brute:.12g} "
                     f"({'agrees' if ok else 'DISAGREES'})")
    else:
        lines.append(f"brute force skipped (K={mech.num_classes} > {brute_force_max})")
    holds = agree and within(loss, epsilon)
    expl = f"{'; '.join(lines)}; {'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}"
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=loss, delta_actual=0.0,
                         method=f"per-bit factorization in closed form + generic (K <= {factorized_max}) "
                                f"+ brute force (K <= {brute_force_max})",
                         witness=witness, explanation=expl)
