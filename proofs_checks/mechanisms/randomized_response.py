"""Verifiers of the randomized-response family (004 eq. (1), Algorithms 1-2), registered with
``check_label_dp``; the closed forms live beside the mechanisms in
:mod:`simulations.mechanisms.randomized_response`.

The exact loss is the enumeration of (y, y', z) over the channel written as closed-form log-ratios
(``rr_top_k_log_channel``: ln(keep/other) = ε, ln((1/k)/other) = log1p(expm1(ε)/k), zeros as -inf),
exact to float rounding from ε = 1e-8 to 700 and beyond, O(K) per prior (``rr_top_k_loss``
compresses each column to its three row classes). The prior-dependent mechanisms are checked over
every prior given (``prior=`` one, ``priors=`` several) or over :func:`default_priors`. The
planted-bug subclasses (own keep/other floats) enumerate their float channel.

References: 004 eq. (1), Lemma 1, Corollary 2.
"""

from __future__ import annotations

import numpy as np

from proofs_checks.dp import DPCheckResult, check_channel, register_checker, within
from simulations.mechanisms import RandomizedResponse, RRTopK, RRWithPrior
from simulations.mechanisms.labels import check_priors
from simulations.mechanisms.randomized_response import rr_top_k_loss, top_k_order

from ._common import with_delta

__all__ = ["default_priors"]


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
    return with_delta(res, delta)


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
