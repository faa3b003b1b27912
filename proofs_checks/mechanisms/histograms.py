"""Verifiers of the histogram mechanisms, registered with ``check_label_dp``.

* :class:`NoisyMajority` (001 Algorithm 2) -- every binary labelling of a small dataset over public
  cubes and every label flip; the released bits' probabilities are Laplace tails in closed form, and
  all 2^cubes outputs are enumerated; certifies :meth:`~simulations.mechanisms.NoisyMajority.privacy_loss`.
* :class:`GeometricHistogram` (004 Algorithm 4) -- every label histogram of n labels over K classes
  and every move; outputs enumerated exactly, with the tails z <= -1 and z >= n+1 of each count
  merged (the log-ratio ``a(|z-c'| - |z-c|)`` is constant there, so merging changes no loss or δ).
* :class:`StabilityHistogram` (001 Algorithm 1) -- (ε, δ): δ(ε) computed exactly by
  :func:`proofs_checks.stability.stability_profile`; ``epsilon_actual`` is the smallest ε' with
  δ(ε') <= δ (bisection on the exact profile).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from limits.validation import check_int
from proofs_checks.dp import DPCheckResult, register_checker, within
from proofs_checks.stability import stability_profile
from simulations.mechanisms import GeometricHistogram, NoisyMajority, StabilityHistogram

from ._common import certify, compositions, neighbour_moves, result

__all__ = ["geometric_pairs", "majority_distributions"]


def majority_distributions(mech: NoisyMajority, sizes):
    """Yield (labels, flipped, log p over 2^C bit vectors, log q) for every dataset and label flip."""
    sizes = np.asarray(sizes, dtype=np.int64)
    cube = np.repeat(np.arange(sizes.size), sizes)
    bits = np.array(list(itertools.product((0, 1), repeat=sizes.size)), dtype=bool)  # (2^C, C)

    def log_out(labels):
        s = np.bincount(cube, weights=labels, minlength=sizes.size).astype(np.int64)
        l1, l0 = mech.log_probability_one(s, sizes), mech.log_probability_zero(s, sizes)
        return np.where(bits, l1[None, :], l0[None, :]).sum(axis=1)

    for labels in itertools.product((0, 1), repeat=int(sizes.sum())):
        labels = np.array(labels)
        lp = log_out(labels)
        for i in range(labels.size):
            flipped = labels.copy()
            flipped[i] = 1 - flipped[i]
            yield labels, flipped, lp, log_out(flipped)


@register_checker(NoisyMajority)
def _check_noisy_majority(mech: NoisyMajority, epsilon, delta, sizes=(1, 2, 3)):
    best, wit, count, mag = -1.0, None, 0, 0.0
    for labels, flipped, lp, lq in majority_distributions(mech, sizes):
        count += 1
        g = np.abs(lp - lq)
        mag = max(mag, float(np.max(np.abs(lp))), float(np.max(np.abs(lq))))
        if g.max() > best:
            best, wit = float(g.max()), (labels.tolist(), flipped.tolist(), int(np.argmax(g)))
    closed = mech.privacy_loss(sizes)
    loss, agree, tol = certify(best, closed, [mag])
    expl = (f"all {count} (dataset, label flip) pairs over cubes of sizes {tuple(sizes)}, all "
            f"{2 ** len(sizes)} outputs: max |ln P/P'| = {best:.12g} "
            f"({'= the closed form within rounding ' + format(tol, '.2g') if agree else 'DIFFERS from the closed form'} "
            f"{closed:.12g}: 1/b for a cube of >= 2 points, ln(2e^(1/(2b)) - 1) for one point); loss {loss:.12g} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g})")
    return result(loss, epsilon, "exact enumeration of datasets, label flips and released bits (Laplace tails)",
                   {"labels": wit[0], "labels_prime": wit[1], "output": wit[2]}, expl)


def _geometric_cell(mech: GeometricHistogram, c: np.ndarray, n: int) -> np.ndarray:
    """log P of the merged outputs {z <= -1}, 0..n, {z >= n+1} of one noisy count c (any shape + (n+3,))."""
    c = np.asarray(c, dtype=float)[..., None]
    z = np.arange(0, n + 1, dtype=float)
    inner = mech.log_pmf(z[..., None] + 0 * c[..., None], c[..., None] + 0 * z[..., None])  # per-count pmf
    log_r, log1p_r = -mech.a, math.log1p(math.exp(-mech.a))
    low = (1 + c) * log_r - log1p_r  # P(Z <= -1-c) = r^{1+c}/(1+r)
    high = (n + 1 - c) * log_r - log1p_r  # P(Z >= n+1-c) = r^{n+1-c}/(1+r)
    return np.concatenate([low, inner, high], axis=-1)


def geometric_pairs(mech: GeometricHistogram, dataset_size: int, num_classes: int):
    d, d2 = neighbour_moves(compositions(dataset_size, num_classes))

    def joint(h):  # log P over the (n+3)^K merged output vectors
        cells = _geometric_cell(mech, h, dataset_size)  # (M, K, n+3)
        out = cells[:, 0, :]
        for k in range(1, num_classes):
            out = (out[:, :, None] + cells[:, k, None, :]).reshape(len(h), -1)
        return out

    return d, d2, joint(d), joint(d2)


@register_checker(GeometricHistogram)
def _check_geometric(mech: GeometricHistogram, epsilon, delta, dataset_size: int = 4, num_classes: int = 3):
    check_int("dataset_size", dataset_size, low=1)
    check_int("num_classes", num_classes, low=2)
    d, d2, lp, lq = geometric_pairs(mech, dataset_size, num_classes)
    gap = np.abs(lp - lq)
    r, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    # closed form: two counts move by one, each contributes at most a (attained in the tails)
    loss, agree, tol = certify(float(gap[r, j]), 2.0 * mech.a, np.r_[lp.ravel(), lq.ravel()])
    expl = (f"all {len(d)} neighbouring label histograms (n = {dataset_size}, K = {num_classes}), all outputs "
            f"(tails merged): max |ln P/P'| = {float(gap[r, j]):.12g} "
            f"({'= 2a within rounding ' + format(tol, '.2g') if agree else 'DIFFERS from 2a'}); loss {loss:.12g} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); two counts move by one, each "
            f"contributing a = {mech.a:g}")
    return result(loss, epsilon, "exact enumeration of neighbouring histograms and noisy outputs",
                   {"counts": d[r].tolist(), "counts_prime": d2[r].tolist()}, expl)


def _smallest_epsilon(profile, delta: float, epsilon: float, points: int = 65, rounds: int = 8,
                      rtol: float = 1e-10) -> float:
    """Smallest ε' with profile(ε') <= δ for a non-increasing profile: grid refinement until the bracket
    is below ``rtol`` relative (at most ``rounds`` rounds of ``points``), returned as the upper end (a
    valid ε'); inf if none below 64·max(ε, 1)."""
    hi = max(epsilon, 1e-9)
    while profile(np.array([hi]))[0] > delta:
        if hi > 64 * max(epsilon, 1.0):
            return math.inf
        hi *= 2
    lo = 0.0
    if profile(np.array([lo]))[0] <= delta:
        return 0.0
    for _ in range(rounds):
        if hi - lo <= rtol * hi:
            break
        grid = np.linspace(lo, hi, points)
        ok = profile(grid) <= delta
        first = int(np.argmax(ok))  # ok[-1] is True by construction
        lo, hi = grid[first - 1], grid[first]
    return float(hi)


@register_checker(StabilityHistogram)
def _check_stability(mech: StabilityHistogram, epsilon, delta, dataset_size=None, max_count=None):
    kw = {"dataset_size": dataset_size, "max_count": max_count}
    d_eps, wit = stability_profile(mech, [epsilon], return_witness=True, **kw)
    d_eps = float(d_eps[0])
    holds = d_eps <= delta * (1 + 1e-9)
    eps_needed = _smallest_epsilon(lambda e: stability_profile(mech, e, **kw), delta, epsilon)
    scope = f"datasets of {dataset_size} records" if dataset_size else "all datasets"
    expl = (f"exact delta(epsilon={epsilon:g}) over {scope} = {d_eps:.6g} "
            f"({'<=' if holds else '>'} delta = {delta:g}, ratio {d_eps / delta if delta else math.inf:.6g}); "
            f"worst pair {wit[0]}; smallest epsilon' with delta(epsilon') <= delta: {eps_needed:.6g}")
    return DPCheckResult(holds=bool(holds), epsilon=epsilon, delta=delta, epsilon_actual=eps_needed,
                         delta_actual=d_eps, method="exact hockey-stick divergence (closed-form Laplace tails)",
                         witness={"pair": wit[0]}, explanation=expl)
