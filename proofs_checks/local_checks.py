"""Exact label-DP checkers of the local label randomizers, registered with ``check_label_dp``.

* RandomizedResponse, RRTopK, RRWithPrior: exact enumeration of (y, y', z) over the channel; the
  prior-dependent ones over every prior given (``prior=`` one, ``priors=`` several), or over
  :func:`default_priors` when none is given (uniform, decreasing, increasing, ties at every top-k
  boundary, zeros, a point mass: every k* from 1 to K appears for some ε).
* VectorMechanism: the per-bit factorization (exact for all K) and, for K <= ``brute_force_max``,
  brute force over all 2^K outputs; both are reported and must agree.
* ALIBI: the exact supremum of the Laplace density ratio (L1 sensitivity of the one-hot label over
  the noise scale); soft labels are post-processing of the noisy vector.

References: 004 eq. (1), Lemma 1, Corollary 2; 000 Theorem 1 (eq. (14)); 003 eq. (15).
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from proofs_checks.dp import DPCheckResult, check_channel, is_tight, register_checker, within
from simulations.mechanisms import ALIBI, RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism

__all__ = ["BRUTE_FORCE_MAX", "default_priors", "factorized_vector_loss"]

# Largest K for which the vector checker also enumerates all 2^K outputs by default.
BRUTE_FORCE_MAX = 12


def default_priors(num_classes: int) -> list[np.ndarray]:
    """Deterministic priors used when none is given to the RRTopK / RRWithPrior checkers.

    Uniform; linearly decreasing and increasing; a prior with ties at the k = 2 boundary
    (3, 2, 2, 1, ...) / sum; two tied labels carrying all the mass; geometric (ratio 1/2); a
    point mass on the last label. Shapes (K,).
    """
    K = num_classes
    ramp = np.arange(K, 0, -1, dtype=float)
    out = [np.full(K, 1.0 / K), ramp / ramp.sum(), ramp[::-1] / ramp.sum()]
    tie = np.r_[3.0, 2.0, 2.0, np.ones(K - 3)] if K >= 3 else np.array([1.0, 1.0])
    out.append(tie / tie.sum())
    out.append(np.r_[0.5, 0.5, np.zeros(K - 2)])
    geo = 0.5 ** np.arange(K)
    out.append(geo / geo.sum())
    out.append(np.eye(K)[K - 1])
    return out


def _with_delta(result: DPCheckResult, delta: float) -> DPCheckResult:
    # A pure ε-DP verdict also answers the (ε, δ) question for every δ >= 0.
    return dataclasses.replace(result, delta=delta)


@register_checker(RandomizedResponse)
def _check_randomized_response(mech, epsilon, delta, **_):
    res = check_channel(mech.channel_matrix(), epsilon, method="exact enumeration of the K x K channel (004 eq. (1))")
    return _with_delta(res, delta)


def _check_over_priors(mech, epsilon, delta, prior, priors, channel_of, describe):
    if prior is not None and priors is not None:
        raise ValueError("give prior= or priors=, not both")
    given = [prior] if prior is not None else (list(priors) if priors is not None else None)
    plist = given if given is not None else default_priors(mech.num_classes)
    if not plist:
        raise ValueError("priors must not be empty")
    results = [check_channel(channel_of(p), epsilon) for p in plist]
    i = int(np.argmax([r.epsilon_actual for r in results]))
    worst = results[i]
    source = "the given prior" if prior is not None else (
        f"{len(plist)} given priors" if priors is not None else f"{len(plist)} default priors")
    holds = all(r.holds for r in results)
    expl = (f"exact enumeration over {source}: worst loss {worst.epsilon_actual:.12g} "
            f"{'<=' if holds else '>'} epsilon = {epsilon:g} at prior #{i} ({describe(plist[i])}); "
            + worst.explanation)
    witness = dict(worst.witness, prior_index=i, prior=np.asarray(plist[i], dtype=float).tolist(),
                   losses=[r.epsilon_actual for r in results])
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=worst.epsilon_actual,
                         delta_actual=0.0, method="exact enumeration of the channel for every prior",
                         witness=witness, explanation=expl)


@register_checker(RRTopK)
def _check_rr_top_k(mech, epsilon, delta, prior=None, priors=None, **_):
    """RRTop-k (004 Lemma 1); the planted-bug subclasses are checked the same way."""
    return _check_over_priors(mech, epsilon, delta, prior, priors, mech.channel_matrix,
                              lambda p: f"k={mech.k}, Y_k={mech.top_k(p).tolist()}")


@register_checker(RRWithPrior)
def _check_rr_with_prior(mech, epsilon, delta, prior=None, priors=None, **_):
    """RRWithPrior is ε-DP for every prior (004 Corollary 2): each prior's channel is enumerated."""
    return _check_over_priors(mech, epsilon, delta, prior, priors, mech.channel_matrix,
                              lambda p: f"k*={mech.k_star(p)}")


def factorized_vector_loss(bit_probabilities) -> tuple[float, tuple[int, int]]:
    """Exact privacy loss of a mechanism with independent bits, from its per-bit probabilities.

    For Q[y, j] = P(Z(j) = 1 | y) and independent bits, ln P(z|y)/P(z|y') is a sum over j of
    per-bit terms that each depend on z(j) only, and z ranges over all of {0, 1}^K, so the maximum
    over z is the sum over j of the per-bit maxima:
    loss = max_{y, y'} sum_j max_{b in {0, 1}} ln P(Z(j)=b | y) / P(Z(j)=b | y'). Exact, not a bound.

    Returns the loss and the maximizing (y, y').
    """
    Q = np.asarray(bit_probabilities, dtype=float)
    if Q.ndim != 2 or Q.size == 0 or not np.all((Q >= 0) & (Q <= 1)):
        raise ValueError(f"bit_probabilities must be a non-empty (K, n_bits) array in [0, 1], got {bit_probabilities!r}")
    with np.errstate(divide="ignore"):
        log1, log0 = np.log(Q), np.log1p(-Q)
    best, arg = -np.inf, (0, 0)
    for y in range(Q.shape[0]):
        with np.errstate(invalid="ignore"):  # inf - inf only for bits that are 0 (or 1) under both
            d1, d0 = log1[y] - log1, log0[y] - log0
        per_bit = np.fmax(np.where(np.isnan(d1), -np.inf, d1), np.where(np.isnan(d0), -np.inf, d0))
        total = per_bit.sum(axis=1)
        j = int(np.argmax(total))
        if total[j] > best:
            best, arg = float(total[j]), (y, j)
    return best, arg


@register_checker(VectorMechanism)
def _check_vector(mech, epsilon, delta, brute_force_max=BRUTE_FORCE_MAX, **_):
    fact, (y, y2) = factorized_vector_loss(mech.bit_probabilities())
    lines = [f"factorized (sum over bits of the per-bit worst log-ratio; only bits y={y}, y'={y2} differ): "
             f"loss {fact:.12g}"]
    witness = {"y": y, "y_prime": y2, "factorized": fact}
    agree = True
    if mech.num_classes <= brute_force_max:
        brute = check_channel(mech.channel_matrix(), epsilon)
        witness["brute_force"] = brute.epsilon_actual
        agree = is_tight(brute.epsilon_actual, fact) or brute.epsilon_actual == fact
        lines.append(f"brute force over all 2^{mech.num_classes} outputs: loss {brute.epsilon_actual:.12g} "
                     f"({'agrees' if agree else 'DISAGREES'})")
    else:
        lines.append(f"brute force skipped (K={mech.num_classes} > {brute_force_max})")
    loss = max(fact, witness.get("brute_force", fact))
    holds = agree and within(loss, epsilon)
    expl = f"{'; '.join(lines)}; {'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}"
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=loss, delta_actual=0.0,
                         method="per-bit factorization + brute force (K <= %d)" % brute_force_max,
                         witness=witness, explanation=expl)


@register_checker(ALIBI)
def _check_alibi(mech, epsilon, delta, **_):
    """sup_o ln f(o|y)/f(o|y') = ||e_y - e_y'||_1 / scale (triangle inequality per coordinate, attained
    for o(y) >= 1, o(y') <= 0); the soft labels are post-processing of o."""
    K = mech.num_classes
    onehot = np.eye(K)
    sens, (y, y2) = max((float(np.abs(onehot[i] - onehot[j]).sum()), (i, j))
                        for i, j in itertools.permutations(range(K), 2))
    loss = sens / mech.scale
    # The supremum is attained: evaluate the exact density ratio at a witness point.
    o = np.zeros((1, K))
    o[0, y], o[0, y2] = 1.5, -0.5
    attained = float(mech.log_density(o, [y])[0] - mech.log_density(o, [y2])[0])
    holds = within(loss, epsilon)
    expl = (f"Laplace vector: L1 sensitivity of the one-hot label {sens:g} / scale {mech.scale:.12g} = "
            f"loss {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g} (attained: ln f(o|{y})/f(o|{y2}) = "
            f"{attained:.12g} at o = 1.5 e_{y} - 0.5 e_{y2}); soft labels are post-processing")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=loss, delta_actual=0.0,
                         method="exact supremum of the Laplace density ratio (idealized real arithmetic)",
                         witness={"y": y, "y_prime": y2, "output": o[0].tolist(), "attained": attained},
                         explanation=expl)
