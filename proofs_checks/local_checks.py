"""Exact label-DP checkers of the local label randomizers, registered with ``check_label_dp``.

* RandomizedResponse, RRTopK, RRWithPrior: exact enumeration of (y, y', z) over the channel written
  as log-ratios in closed form (:func:`rr_top_k_log_channel`: ln(keep/other) = ε,
  ln((1/k)/other) = log1p(expm1(ε)/k), zeros as -inf), so the loss is exact to float rounding for
  every ε from 1e-8 to 700 and beyond; O(K) per prior (:func:`rr_top_k_loss` compresses each column
  to its three row classes). The prior-dependent ones are checked over every prior given
  (``prior=`` one, ``priors=`` several), or over :func:`default_priors` when none is given (uniform,
  decreasing, increasing, ties at every top-k boundary, zeros, a point mass: every k* from 1 to K
  appears for some ε). The planted-bug subclasses (own keep/other floats) enumerate their float channel.
* VectorMechanism: the per-bit factorization in closed form, O(1) (:func:`factorized_diagonal_loss`),
  cross-checked for K <= ``factorized_max`` by the generic factorization over all (y, y') from
  log bit probabilities, and for K <= ``brute_force_max`` by brute force over all 2^K outputs in
  log space; all are reported and must agree.
* ALIBI: the exact supremum of the Laplace density ratio in closed form, O(1): every pair y != y' has
  ||e_y - e_y'||_1 = 2, so the loss is 2 / scale (:func:`alibi_loss_brute_force`, the former loop
  over all K(K-1) pairs, is kept as the test oracle); soft labels are post-processing of the noisy vector.

References: 004 eq. (1), Lemma 1, Corollary 2; 000 Theorem 1 (eq. (14)); 003 eq. (15).
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from proofs_checks.dp import (DPCheckResult, check_channel, is_tight, log_privacy_loss_witness, register_checker,
                              within)
from simulations.mechanisms import ALIBI, RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism
from simulations.mechanisms._labels import check_priors
from simulations.mechanisms.randomized_response import top_k_order

__all__ = ["BRUTE_FORCE_MAX", "FACTORIZED_MAX", "alibi_loss", "alibi_loss_brute_force", "default_priors",
           "factorized_diagonal_loss", "factorized_log_loss", "factorized_vector_loss", "rr_outside_log_ratio",
           "rr_top_k_log_channel", "rr_top_k_loss"]

# Largest K for which the vector checker also enumerates all 2^K outputs by default.
BRUTE_FORCE_MAX = 12
# Largest K for which it also runs the generic O(K^3) factorization over every (y, y') pair.
FACTORIZED_MAX = 64


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
    out.append(np.eye(1, K, K - 1).ravel())  # a point mass on the last label (no K x K identity)
    return out


def _with_delta(result: DPCheckResult, delta: float) -> DPCheckResult:
    # A pure ε-DP verdict also answers the (ε, δ) question for every δ >= 0.
    return dataclasses.replace(result, delta=delta)


# ---------------------------------------------------------------- RR, RRTop-k, RRWithPrior

def rr_outside_log_ratio(epsilon: float, k: int) -> float:
    """ln((1/k) / other_k) = ln((e^ε + k - 1) / k), other_k = 1/(e^ε + k - 1): a label outside Y_k
    against a non-kept label inside (004 Algorithm 1 steps 2-3). log1p(expm1(ε)/k) for ε <= 1 (no
    cancellation at ε = 1e-8), ε - ln k + log1p((k-1) e^{-ε}) above (no overflow at ε = 700 and beyond)."""
    if epsilon <= 1.0:
        return math.log1p(math.expm1(epsilon) / k)
    return epsilon - math.log(k) + math.log1p((k - 1) * math.exp(-epsilon))


def rr_top_k_log_channel(order, k: int, epsilon: float) -> np.ndarray:
    """The RRTop-k channel as log-ratios L[y, z] = ln(P[y, z] / other_k), shape (K, K), in closed form.

    Columns z in Y_k = ``order[:k]``: ε on the kept label (keep/other = e^ε), 0 for the other labels of
    Y_k, :func:`rr_outside_log_ratio` for labels outside Y_k; -inf (probability 0) elsewhere. For
    k = 1 every label outputs the top one: column 0 throughout. The per-column constant ln(other_k)
    cancels in the loss, so :func:`proofs_checks.dp.log_privacy_loss_witness` of this is the exact loss.

    References: 004 eq. (1), Algorithm 1, Lemma 1.
    """
    order = np.asarray(order)
    K = order.size
    top = order[:k]
    L = np.full((K, K), -np.inf)
    if k == 1:
        L[:, top] = 0.0
        return L
    L[:, top] = rr_outside_log_ratio(epsilon, k)
    L[np.ix_(top, top)] = 0.0
    L[top, top] = epsilon
    return L


def rr_top_k_loss(order, k: int, epsilon: float) -> tuple[float, tuple[int, int, int]]:
    """Exact loss and witness (y, y', z) of RRTop-k in O(K): the same answer as
    ``log_privacy_loss_witness(rr_top_k_log_channel(order, k, epsilon))`` without the K x K matrix.

    Every column of Y_k holds the same three row classes (kept label, other labels of Y_k, labels
    outside), so the first column of Y_k in label order carries the worst gap; only that column is built.
    """
    order = np.asarray(order)
    K = order.size
    top = order[:k]
    z = int(top.min())
    col = np.full(K, 0.0 if k == 1 else rr_outside_log_ratio(epsilon, k))
    if k > 1:
        col[top] = 0.0
        col[z] = epsilon
    y, y2 = int(np.argmax(col)), int(np.argmin(col))
    return float(col[y] - col[y2]), (y, y2, z)


def _rr_family_result(mech, order, k: int, epsilon: float, method: str) -> DPCheckResult:
    """Closed-form log-ratio enumeration (:func:`rr_top_k_loss`) for the suite's own RR family."""
    loss, (y, y2, z) = rr_top_k_loss(order, k, mech.epsilon)
    holds = within(loss, epsilon)
    expl = (f"max ln P(z|y)/P(z|y') = {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g} "
            f"at y={y}, y'={y2}, output={z}")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=loss, delta_actual=0.0,
                         method=method, witness={"y": y, "y_prime": y2, "output": z}, explanation=expl)


@register_checker(RandomizedResponse)
def _check_randomized_response(mech, epsilon, delta):
    res = _rr_family_result(mech, np.arange(mech.num_classes), mech.num_classes, epsilon,
                            "exact enumeration of the K x K channel as closed-form log-ratios (004 eq. (1))")
    return _with_delta(res, delta)


def _check_over_priors(mech, epsilon, delta, prior, priors, loss_of, describe):
    if prior is not None and priors is not None:
        raise ValueError("give prior= or priors=, not both")
    given = [prior] if prior is not None else (list(priors) if priors is not None else None)
    plist = given if given is not None else default_priors(mech.num_classes)
    if not plist:
        raise ValueError("priors must not be empty")
    plist = [check_priors(p, mech.num_classes) for p in plist]
    if any(p.ndim != 1 for p in plist):
        raise ValueError(f"each prior must have shape ({mech.num_classes},)")
    results = [loss_of(p) for p in plist]
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
def _check_rr_top_k(mech, epsilon, delta, prior=None, priors=None):
    """RRTop-k (004 Lemma 1); the planted-bug subclasses are checked on their own float channel."""
    def loss_of(p):
        if type(mech)._probabilities is not RRTopK._probabilities:
            return check_channel(mech.channel_matrix(p), epsilon)
        return _rr_family_result(mech, top_k_order(p), mech.k, epsilon, "closed-form log-ratio channel")

    return _check_over_priors(mech, epsilon, delta, prior, priors, loss_of,
                              lambda p: f"k={mech.k}, Y_k={mech.top_k(p).tolist()}")


@register_checker(RRWithPrior)
def _check_rr_with_prior(mech, epsilon, delta, prior=None, priors=None):
    """RRWithPrior is ε-DP for every prior (004 Corollary 2): each prior's channel is enumerated."""
    return _check_over_priors(
        mech, epsilon, delta, prior, priors,
        lambda p: _rr_family_result(mech, top_k_order(p), mech.k_star(p), epsilon, "closed-form log-ratio channel"),
        lambda p: f"k*={mech.k_star(p)}")


# ---------------------------------------------------------------- vector mechanism (independent bits)

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


def factorized_diagonal_loss(log_ratio_one: float, log_ratio_zero: float) -> float:
    """Closed-form loss of independent bits with P(Z(j)=1 | y) = a if j = y else b (K >= 2), O(1).

    Changing y -> y' moves only bits y and y': bit y contributes max(ln a/b, ln (1-a)/(1-b)), bit
    y' the same with a and b swapped, the other bits 0 (:func:`factorized_log_loss`). With
    r1 = ln(a/b), r0 = ln((1-a)/(1-b)): loss = max(r1, r0) + max(-r1, -r0) = |r1 - r0|.

    References: 000 eq. (12)-(14) (r1 = ε/2, r0 = -ε/2: loss ε).
    """
    return abs(float(log_ratio_one) - float(log_ratio_zero))


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
    # Per-bit log-ratios from 000 eq. (12): a/b = e^{ε/2} and (1-a)/(1-b) = b/a; exact at any ε.
    loss = factorized_diagonal_loss(s, -s)
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


# ---------------------------------------------------------------- ALIBI (Laplace on the one-hot label)

def alibi_loss(mech: ALIBI) -> tuple[float, tuple[int, int]]:
    """Exact sup over (y, y', o) of ln f(o|y)/f(o|y') for ALIBI in closed form, O(1).

    ln f(o|y)/f(o|y') = (||o - e_y'||_1 - ||o - e_y||_1) / scale <= ||e_y - e_y'||_1 / scale by the
    triangle inequality per coordinate, with equality for o(y) >= 1, o(y') <= 0. Every pair y != y'
    has ||e_y - e_y'||_1 = 2 (two coordinates differ by 1), so loss = 2 / scale, witness (0, 1).
    """
    return 2.0 / mech.scale, (0, 1)


def alibi_loss_brute_force(mech: ALIBI) -> tuple[float, tuple[int, int]]:
    """Test oracle for :func:`alibi_loss`: max over all K(K-1) ordered pairs of ||e_y - e_y'||_1 / scale
    (O(K^3) time, a K x K identity: small K only)."""
    K = mech.num_classes
    onehot = np.eye(K)
    sens, pair = max((float(np.abs(onehot[i] - onehot[j]).sum()), (i, j))
                     for i, j in itertools.permutations(range(K), 2))
    return sens / mech.scale, pair


@register_checker(ALIBI)
def _check_alibi(mech, epsilon, delta):
    """sup_o ln f(o|y)/f(o|y') = ||e_y - e_y'||_1 / scale = 2/scale (:func:`alibi_loss`); soft labels are
    post-processing of o."""
    K = mech.num_classes
    loss, (y, y2) = alibi_loss(mech)
    # The supremum is attained: evaluate the exact density ratio at a witness point (O(K)).
    o = np.zeros((1, K))
    o[0, y], o[0, y2] = 1.5, -0.5
    attained = float(mech.log_density(o, [y])[0] - mech.log_density(o, [y2])[0])
    holds = within(loss, epsilon)
    expl = (f"Laplace vector: L1 sensitivity of the one-hot label 2 / scale {mech.scale:.12g} = "
            f"loss {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g} (attained: ln f(o|{y})/f(o|{y2}) = "
            f"{attained:.12g} at o = 1.5 e_{y} - 0.5 e_{y2}); soft labels are post-processing")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=loss, delta_actual=0.0,
                         method="exact supremum of the Laplace density ratio in closed form (idealized real arithmetic)",
                         witness={"y": y, "y_prime": y2, "attained": attained, "output_nonzero": {y: 1.5, y2: -0.5}},
                         explanation=expl)
