"""Exact label-DP checks of the continuous and central mechanisms (registered with ``check_label_dp``).

What each checker computes (neighbours always differ in one label, replace-one):

* :class:`LaplaceLabels`, :class:`ClippedLaplaceLabels` (003 Theorems 6, 10) -- continuous output,
  verified in idealized real arithmetic: ``ln f(z-y)/f(z-y') = (|z-y'| - |z-y|)/b <= |y-y'|/b`` with
  equality for z beyond both labels, so the exact supremum is ``(diameter of the (clipped) label
  range)/b = 2T/b``. A brute-force grid over (y, y', z), using the mechanism's own ``log_density``
  (for the clipped mechanism the grid of labels extends beyond ±T), confirms it.
* :class:`NoisyBinMean` (003 eqs. (23), (28)) -- one label in bin l moves its (clipped) mean by at
  most 2T/n_l and leaves the other bins alone, so the exact supremum of the density ratio is
  ``max_l (2T/n_l)/b_l`` over the public bin sizes given.
* :class:`ExponentialMechanism` (003 eq. (17)) -- every count vector of a bin of n labels over K
  classes and every move of one label (a -> b) is enumerated; the output distributions are exact
  (log-sum-exp). The exact worst case has the closed form :func:`exponential_worst_loss`.
* :class:`NoisyMajority` (001 Algorithm 2) -- every binary labelling of a small dataset over public
  cubes and every label flip; the released bits' probabilities are Laplace tails in closed form, and
  all 2^cubes outputs are enumerated.
* :class:`GeometricHistogram` (004 Algorithm 4) -- every label histogram of n labels over K classes
  and every move; outputs enumerated exactly, with the tails z <= -1 and z >= n+1 of each count
  merged (the log-ratio ``a(|z-c'| - |z-c|)`` is constant there, so merging changes no loss or δ).
* :class:`StabilityHistogram` (001 Algorithm 1) -- (ε, δ): δ(ε) computed exactly by
  :func:`proofs_checks.privacy_profile.stability_profile`; ``epsilon_actual`` is the smallest ε' with
  δ(ε') <= δ (bisection on the exact profile).

References: 003 eqs. (17), (23), (28), Theorems 4, 6, 8, 10, 12; 001 Algorithms 1-2; 004 Algorithm 4.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from limits._validation import check_int, check_positive
from simulations.mechanisms import (ClippedLaplaceLabels, ExponentialMechanism, GeometricHistogram, LaplaceLabels,
                                    NoisyBinMean, NoisyMajority, StabilityHistogram)

from .dp import DPCheckResult, register_checker, within
from .stability import stability_profile

__all__ = ["compositions", "exponential_worst_loss", "laplace_pure_loss", "noisy_majority_loss",
           "output_distribution_pairs"]


def compositions(n: int, k: int) -> np.ndarray:
    """All vectors of k non-negative integers summing to n, shape (C(n+k-1, k-1), k)."""
    n, k = check_int("n", n, low=0), check_int("k", k, low=1)
    rows = [np.diff((-1,) + bars + (n + k - 1,)) - 1 for bars in itertools.combinations(range(n + k - 1), k - 1)]
    return np.array(rows, dtype=np.int64).reshape(-1, k)


def _neighbour_moves(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(D, D') pairs: every row of ``counts`` and every move of one unit from class a to class b != a."""
    src, dst = [], []
    k = counts.shape[1]
    for a, b in itertools.permutations(range(k), 2):
        rows = counts[counts[:, a] >= 1]
        moved = rows.copy()
        moved[:, a] -= 1
        moved[:, b] += 1
        src.append(rows)
        dst.append(moved)
    return np.concatenate(src), np.concatenate(dst)


def _certify(enumerated: float, closed: float, log_probs) -> tuple[float, bool, float]:
    """Report the closed form when the float enumeration agrees with it within the enumeration's own
    rounding (1e-12 of the largest |log-probability| involved, at least 1e-12), else the enumeration.

    The enumeration subtracts log-probabilities of size up to M, so its absolute error is ~M * 1e-16:
    at ε = 1e-8 that is a relative error ~1e-7 on the loss, while the closed forms (log1p/expm1) are
    exact to rounding at every ε; the enumeration then certifies that the closed form is the maximum.
    Returns (loss, agree, tolerance).
    """
    lp = np.asarray(log_probs, dtype=float)
    finite = lp[np.isfinite(lp)]
    tol = 1e-12 * max(1.0, float(np.max(np.abs(finite))) if finite.size else 1.0)
    agree = abs(enumerated - closed) <= tol
    return (float(closed) if agree else float(enumerated)), bool(agree), tol


def _result(loss, epsilon, method, witness, explanation) -> DPCheckResult:
    return DPCheckResult(holds=within(loss, epsilon), epsilon=epsilon, delta=0.0, epsilon_actual=float(loss),
                         delta_actual=0.0, method=method, witness=witness, explanation=explanation)


# ---------------------------------------------------------------- Laplace label noise (local)

def _bin_mean_losses(mech: NoisyBinMean, counts=None) -> tuple[np.ndarray, np.ndarray]:
    """Bin sizes n_l (default 1..6) and the exact loss (2T/n_l)/b_l of each: one label in [-T, T]
    moves a bin mean by at most 2T/n_l, and Lap(b_l)'s log density ratio is at most shift/b_l."""
    n = np.arange(1, 7) if counts is None else np.asarray(counts)
    n = n[n > 0]
    return n, 2.0 * mech.T / n / mech.scale(n)


def laplace_pure_loss(mechanism, counts=None, **_):
    """Exact sup of the log density ratio for the Laplace mechanisms, or None for other mechanisms."""
    if isinstance(mechanism, LaplaceLabels):
        lo, hi = mechanism.label_range
        return (hi - lo) / mechanism.scale
    if isinstance(mechanism, NoisyBinMean):
        return float(np.max(_bin_mean_losses(mechanism, counts)[1]))
    return None


@register_checker(LaplaceLabels)
def _check_laplace_labels(mech: LaplaceLabels, epsilon, delta, grid: int = 41):
    lo, hi = mech.label_range
    sup = laplace_pure_loss(mech)
    span = 3 * mech.T if isinstance(mech, ClippedLaplaceLabels) else mech.T  # clipped: labels beyond ±T too
    ys = np.linspace(-span, span, grid)
    zs = np.linspace(-span - 5 * mech.scale, span + 5 * mech.scale, 4 * grid + 1)
    ld = mech.log_density(zs[None, :], ys[:, None])  # (labels, outputs), the mechanism's own density
    gaps = ld[:, None, :] - ld[None, :, :]
    grid_max = float(gaps.max())
    tol = 1e-12 * max(1.0, float(np.max(np.abs(ld))))  # the grid's own float rounding
    loss = sup if grid_max <= sup + tol else grid_max
    expl = (f"sup_z ln f(z-y)/f(z-y') = (max y - min y)/b = {hi - lo:g}/{mech.scale:g} = {sup:.12g} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); brute-force grid max {grid_max:.12g} "
            f"({'<= the supremum up to its rounding ' + format(tol, '.2g') if loss == sup else 'EXCEEDS the supremum'})")
    return _result(loss, epsilon,
                   "exact supremum of the Laplace density ratio (idealized reals) + grid",
                   {"y": hi, "y_prime": lo, "output": f"z >= {hi:g}", "grid_max": grid_max}, expl)


# ---------------------------------------------------------------- noisy bin means (central)

@register_checker(NoisyBinMean)
def _check_noisy_bin_mean(mech: NoisyBinMean, epsilon, delta, counts=None):
    n, per_bin = _bin_mean_losses(mech, counts)
    i = int(np.argmax(per_bin))
    loss = float(per_bin[i])
    expl = (f"one label in [-T, T] moves a bin mean by at most 2T/n_l; sup ln density ratio = (2T/n_l)/b_l, "
            f"max over n_l in {list(map(int, n))} = {loss:.12g} at n_l = {int(n[i])} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g})")
    return _result(loss, epsilon, "exact supremum of the Laplace density ratio per bin (idealized reals)",
                   {"bin_size": int(n[i]), "y": mech.T, "y_prime": -mech.T}, expl)


# ---------------------------------------------------------------- exponential mechanism (central)

def exponential_worst_loss(utility_scale: float, n: int, num_classes: int) -> float:
    """Closed-form worst loss of ``P(j) ∝ exp(s n_j)`` over bins of n labels, K classes.

    Worst neighbours: one label of class a, the other n-1 of class b, the a-label moves to b; the
    output a has ``ln P(a|D)/P(a|D') = s + ln((K-1+e^{sn}) / (K-2+e^{s}+e^{s(n-1)}))`` (the ratio of
    normalizers is a weighted mean of e^{-s}, 1, e^{s}, largest when the e^{s} weight dominates).
    With s = ε/2 (003 eq. (17)) this tends to ε as n grows and equals ε/2 for n = 1.
    """
    s = check_positive("utility_scale", utility_scale)
    n, k = check_int("n", n, low=1), check_int("num_classes", num_classes, low=2)
    if s * n < 600:  # numerator - denominator = (e^s - 1)(e^{s(n-1)} - 1): log1p keeps tiny s exact
        den = k - 2 + math.exp(s) + math.exp(s * (n - 1))
        return s + math.log1p(math.expm1(s) * math.expm1(s * (n - 1)) / den)
    num = np.logaddexp(math.log(k - 1), s * n)
    den = np.logaddexp(np.logaddexp(math.log(k - 2) if k > 2 else -np.inf, s), s * (n - 1))
    return float(s + num - den)


def _exponential_pairs(mech: ExponentialMechanism, bin_size: int):
    d, d2 = _neighbour_moves(compositions(bin_size, mech.num_classes))
    return d, d2, mech.log_probabilities(d), mech.log_probabilities(d2)


@register_checker(ExponentialMechanism)
def _check_exponential(mech: ExponentialMechanism, epsilon, delta, bin_size: int = 6):
    check_int("bin_size", bin_size, low=1)
    d, d2, lp, lq = _exponential_pairs(mech, bin_size)
    gap = np.abs(lp - lq)
    r, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    closed = exponential_worst_loss(mech.utility_scale, bin_size, mech.num_classes)
    loss, agree, tol = _certify(float(gap[r, j]), closed, np.r_[lp.ravel(), lq.ravel()])
    expl = (f"all {len(d)} neighbouring count vectors of a bin of n = {bin_size} labels, K = {mech.num_classes}: "
            f"max |ln P(j|D)/P(j|D')| = {float(gap[r, j]):.12g} ("
            f"{'= the closed form within rounding ' + format(tol, '.2g') if agree else 'DIFFERS from the closed form'}); "
            f"loss {loss:.12g} ({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); "
            f"closed form s + ln((K-1+e^(sn))/(K-2+e^s+e^(s(n-1)))) = {closed:.12g} with s = {mech.utility_scale:g}; "
            f"tends to 2s = {2 * mech.utility_scale:g} as n grows")
    return _result(loss, epsilon, "exact enumeration of neighbouring count vectors",
                   {"counts": d[r].tolist(), "counts_prime": d2[r].tolist(), "output": int(j),
                    "closed_form": closed, "limit": 2 * mech.utility_scale}, expl)


# ---------------------------------------------------------------- noisy majority (central)

def _majority_distributions(mech: NoisyMajority, sizes):
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
    for labels, flipped, lp, lq in _majority_distributions(mech, sizes):
        count += 1
        g = np.abs(lp - lq)
        mag = max(mag, float(np.max(np.abs(lp))), float(np.max(np.abs(lq))))
        if g.max() > best:
            best, wit = float(g.max()), (labels.tolist(), flipped.tolist(), int(np.argmax(g)))
    closed = noisy_majority_loss(mech, sizes)
    loss, agree, tol = _certify(best, closed, [mag])
    expl = (f"all {count} (dataset, label flip) pairs over cubes of sizes {tuple(sizes)}, all "
            f"{2 ** len(sizes)} outputs: max |ln P/P'| = {best:.12g} "
            f"({'= the closed form within rounding ' + format(tol, '.2g') if agree else 'DIFFERS from the closed form'} "
            f"{closed:.12g}: 1/b for a cube of >= 2 points, ln(2e^(1/(2b)) - 1) for one point); loss {loss:.12g} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g})")
    return _result(loss, epsilon, "exact enumeration of datasets, label flips and released bits (Laplace tails)",
                   {"labels": wit[0], "labels_prime": wit[1], "output": wit[2]}, expl)


def noisy_majority_loss(mech: NoisyMajority, sizes) -> float:
    """Closed-form worst loss of the released bits over cubes of the given sizes.

    One flip moves one cube's label sum by 1. A cube of n >= 2 points has a threshold t = n/2 - s >= 0
    on the Laplace upper tail, where P(W > t) = ½ e^{-t/b}: ratio e^{1/b} exactly. A cube of one point
    moves t between ½ and -½: ln((1 - ½e^{-1/(2b)}) / (½e^{-1/(2b)})) = ln(2e^{1/(2b)} - 1) = log1p(2 expm1(1/(2b))).
    """
    u = 1.0 / mech.scale
    sizes = [int(n) for n in sizes if int(n) >= 1]
    if not sizes:
        return 0.0
    return u if max(sizes) >= 2 else math.log1p(2.0 * math.expm1(u / 2.0))


# ---------------------------------------------------------------- geometric histogram (central)

def _geometric_cell(mech: GeometricHistogram, c: np.ndarray, n: int) -> np.ndarray:
    """log P of the merged outputs {z <= -1}, 0..n, {z >= n+1} of one noisy count c (any shape + (n+3,))."""
    c = np.asarray(c, dtype=float)[..., None]
    z = np.arange(0, n + 1, dtype=float)
    inner = mech.log_pmf(z[..., None] + 0 * c[..., None], c[..., None] + 0 * z[..., None])  # per-count pmf
    log_r, log1p_r = -mech.a, math.log1p(math.exp(-mech.a))
    low = (1 + c) * log_r - log1p_r  # P(Z <= -1-c) = r^{1+c}/(1+r)
    high = (n + 1 - c) * log_r - log1p_r  # P(Z >= n+1-c) = r^{n+1-c}/(1+r)
    return np.concatenate([low, inner, high], axis=-1)


def _geometric_pairs(mech: GeometricHistogram, dataset_size: int, num_classes: int):
    d, d2 = _neighbour_moves(compositions(dataset_size, num_classes))

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
    d, d2, lp, lq = _geometric_pairs(mech, dataset_size, num_classes)
    gap = np.abs(lp - lq)
    r, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    # closed form: two counts move by one, each contributes at most a (attained in the tails)
    loss, agree, tol = _certify(float(gap[r, j]), 2.0 * mech.a, np.r_[lp.ravel(), lq.ravel()])
    expl = (f"all {len(d)} neighbouring label histograms (n = {dataset_size}, K = {num_classes}), all outputs "
            f"(tails merged): max |ln P/P'| = {float(gap[r, j]):.12g} "
            f"({'= 2a within rounding ' + format(tol, '.2g') if agree else 'DIFFERS from 2a'}); loss {loss:.12g} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); two counts move by one, each "
            f"contributing a = {mech.a:g}")
    return _result(loss, epsilon, "exact enumeration of neighbouring histograms and noisy outputs",
                   {"counts": d[r].tolist(), "counts_prime": d2[r].tolist()}, expl)


# ---------------------------------------------------------------- stability histogram ((ε, δ), central)

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


# ---------------------------------------------------------------- output distributions for profiles

def output_distribution_pairs(mechanism, bin_size: int = 6, sizes=(1, 2, 3), dataset_size: int = 4,
                              num_classes: int = 3, prior=None, **_):
    """Yield (p, q): exact output distributions of every ordered pair of neighbouring inputs.

    Used by :func:`proofs_checks.privacy_profile.privacy_profile` for the finite-output mechanisms;
    local randomizers with a ``channel_matrix`` yield every ordered pair of its rows.
    """
    if isinstance(mechanism, ExponentialMechanism):
        _, _, lp, lq = _exponential_pairs(mechanism, bin_size)
        pairs = [(np.exp(lp), np.exp(lq))]
    elif isinstance(mechanism, GeometricHistogram):
        _, _, lp, lq = _geometric_pairs(mechanism, dataset_size, num_classes)
        pairs = [(np.exp(lp), np.exp(lq))]
    elif isinstance(mechanism, NoisyMajority):
        pairs = ((np.exp(lp), np.exp(lq)) for _, _, lp, lq in _majority_distributions(mechanism, sizes))
    elif hasattr(mechanism, "channel_matrix"):
        P = np.asarray(mechanism.channel_matrix() if prior is None else mechanism.channel_matrix(prior))
        idx = np.array([(i, j) for i in range(len(P)) for j in range(len(P)) if i != j])
        pairs = [(P[idx[:, 0]], P[idx[:, 1]])]
    else:
        raise ValueError(f"no exact privacy profile for mechanism {type(mechanism).__name__}")
    for p, q in pairs:
        p, q = np.atleast_2d(p), np.atleast_2d(q)
        for i in range(len(p)):
            yield p[i], q[i]
