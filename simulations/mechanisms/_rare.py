"""Bernoulli events of tiny probability, drawn from their log-probability.

``Generator.random`` returns multiples of 2^-53, so ``u < p`` has probability ``ceil(p 2^53) / 2^53``:
exact to a relative 2^-53 / p, which is useless once p < 2^-53 (e.g. randomized response at ε = 40,
K = 10 changes a label w.p. 3.8e-17; ``u < keep`` with keep rounded to 1.0 never does). Here an
event of probability q = exp(log_q) < 2^-20 is drawn in stages: stage 1 passes w.p. exactly 2^-20
(``u < 2^-20`` is exact on the 2^-53 grid), each further stage with a fresh uniform passes w.p.
exactly 2^-20 while the remaining log-probability is below ln 2^-20, and the last stage compares a
fresh uniform with the remaining probability r >= 2^-20 (relative error <= 2^-53 / r <= 2^-33). So
the event has probability q to a relative 2^-33 ≈ 1.2e-10 for every q down to the smallest positive
double, and extra uniforms are drawn only for the (rare) samples that pass stage 1.

Where log_q >= ln 2^-20 the caller's own decision is kept unchanged, so samplers reproduce their
earlier streams bit for bit at ordinary ε.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["STAGE_LOG2", "categorical_from_log", "refine_rare_event", "tiny"]

# Each stage of a rare event passes with probability 2^-STAGE_LOG2 (exact on the 2^-53 grid).
STAGE_LOG2 = 20


def refine_rare_event(event: np.ndarray, u: np.ndarray, log_q, rng: np.random.Generator) -> np.ndarray:
    """Return ``event`` with its entries of log-probability below ``-STAGE_LOG2 ln 2`` redrawn exactly.

    Parameters
    ----------
    event : bool ndarray, shape S
        The caller's decision from the uniforms ``u`` (e.g. ``u >= keep``); kept where log_q is not tiny.
    u : float ndarray, shape S
        The uniforms behind ``event`` (reused as the first stage of the tiny entries).
    log_q : float or ndarray broadcastable to S
        Natural log of the probability of the event; ``-inf`` means "never".
    rng : numpy Generator, used only when some entry survives the first stage.

    Returns
    -------
    bool ndarray of shape S with P(True) = exp(log_q) (relative error <= 2^-33).
    """
    log_stage = -STAGE_LOG2 * math.log(2.0)
    stage = 2.0 ** -STAGE_LOG2
    lq = np.broadcast_to(np.asarray(log_q, dtype=float), u.shape).ravel()
    tiny = np.flatnonzero(lq < log_stage)
    if tiny.size == 0:
        return event
    out = np.array(event, dtype=bool).ravel()
    out[tiny] = False
    pending = tiny[(u.ravel()[tiny] < stage) & np.isfinite(lq[tiny])]
    rem = lq[pending] - log_stage
    while pending.size:
        v = rng.random(pending.size)
        last = rem >= log_stage
        out[pending[last & (v < np.exp(np.minimum(rem, 0.0)))]] = True
        go_on = ~last & (v < stage)
        pending, rem = pending[go_on], rem[go_on] - log_stage
    return out.reshape(u.shape)


def tiny(log_q) -> np.ndarray:
    """Where an event of log-probability ``log_q`` is too rare for one uniform (below 2^-STAGE_LOG2)."""
    return np.asarray(log_q) < -STAGE_LOG2 * math.log(2.0)


def categorical_from_log(log_p: np.ndarray, rng: np.random.Generator) -> int:
    """One draw from a categorical distribution given by (unnormalized) log-probabilities, shape (K,).

    The most likely class is kept unless an event of log-probability ln(1 - p_top) occurs (drawn with
    :func:`refine_rare_event`, exact for tiny probabilities); the other classes are then drawn from their
    own conditional distribution, recursively. Used where inversion of one uniform cannot resolve the
    small probabilities.
    """
    lp = np.asarray(log_p, dtype=float)
    idx = np.flatnonzero(np.isfinite(lp))
    while idx.size > 1:
        sub = lp[idx] - np.logaddexp.reduce(lp[idx])
        j = int(np.argmax(sub))
        rest = np.delete(idx, j)
        log_rest = float(np.logaddexp.reduce(sub[np.arange(idx.size) != j]))
        u = rng.random(1)
        if tiny(log_rest):
            other = bool(refine_rare_event(np.zeros(1, bool), u, log_rest, rng)[0])
        else:
            other = bool(u[0] < np.exp(log_rest))
        if not other:
            return int(idx[j])
        idx = rest
    return int(idx[0])
