"""Records and independent verifiers of the histogram mechanisms, with their planted bugs.

None of them calls the mechanism's ``privacy_loss``; each closed form is written here:

* :class:`NoisyMajority` (001 Algorithm 2) -- every binary labelling of a small dataset over public
  cubes and every label flip; the released bits' probabilities are Laplace tails in closed form, and
  all 2^cubes outputs are enumerated; certifies :func:`noisy_majority_loss` (1/b as soon as a cube has
  two points, ln(2e^{1/(2b)} - 1) for cubes of one point).
* :class:`GeometricHistogram` (004 Algorithm 4) -- every label histogram of n labels over K classes
  and every move; outputs enumerated exactly, with the tails z <= -1 and z >= n+1 of each count
  merged (the log-ratio ``a(|z-c'| - |z-c|)`` is constant there, so merging changes no loss or δ);
  certifies 2a (two counts move by one).
* :class:`StabilityHistogram` (001 Algorithm 1) -- (ε, δ): δ(ε) computed exactly by
  :func:`proofs_checks.stability.stability_profile`; ``epsilon_actual`` is the smallest ε' with
  δ(ε') <= δ (bisection on the exact profile).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int
from proofs_checks.catalogue import Example, MechanismRecord, PlantedBug
from proofs_checks.channels import DPCheckResult, within
from proofs_checks.stability import stability_profile
from simulations.mechanisms import GeometricHistogram, NoisyMajority, StabilityHistogram

from ._common import certify, compositions, neighbour_moves, result

__all__ = ["DELTA", "GeometricFullBudget", "RECORDS", "StabilityNoPlusOne", "geometric_pairs", "majority_distributions",
           "noisy_majority_loss", "verify_geometric", "verify_noisy_majority", "verify_stability"]

DELTA = 1e-5  # the delta the stability histogram examples claim


def majority_distributions(mech: NoisyMajority, sizes):
    r"""Every labelling of public cubes and label flip, with the exact laws of the released bits.

    Parameters
    ----------
    mech : NoisyMajority
        Gives the bit probabilities (``log_probability_one`` / ``log_probability_zero``).
    sizes : sequence of int
        Public cube sizes (points per cube); :math:`2^{\sum \text{sizes}}` labellings are enumerated.

    Yields
    ------
    labels : ndarray of int, shape (sum(sizes),)
        A labelling in {0, 1}.
    flipped : ndarray of int, shape (sum(sizes),)
        The labelling with one label flipped (its label-DP neighbour).
    log_p, log_q : ndarray, shape (2 ** len(sizes),)
        Log-probabilities of every bit vector under ``labels`` and ``flipped``.

    References
    ----------
    001 Algorithm 2 (the noisy majority vote per cube), Theorem 3.1.

    Examples
    --------
    One cube of one point: the loss is :math:`\ln(2e^{\varepsilon/2} - 1)` (:func:`noisy_majority_loss`).

    >>> import math
    >>> from simulations.mechanisms import NoisyMajority
    >>> pairs = list(majority_distributions(NoisyMajority(1.0), (1,)))
    >>> [(l.tolist(), f.tolist()) for l, f, _, _ in pairs]
    [([0], [1]), ([1], [0])]
    >>> loss = max(float(np.max(np.abs(lp - lq))) for _, _, lp, lq in pairs)
    >>> abs(loss - math.log(2 * math.exp(0.5) - 1)) < 1e-12
    True
    """
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


def noisy_majority_loss(scale: float, sizes) -> float:
    """Exact loss of the released bits of :class:`NoisyMajority` with Laplace scale b over cubes of ``sizes``.

    One flip moves one cube's label sum by 1. A cube of n >= 2 points has its threshold t = n/2 - s >= 0
    on the Laplace upper tail, P(W > t) = (1/2) e^{-t/b}: ratio e^{1/b} exactly. A cube of one point moves
    t between 1/2 and -1/2: ln((1 - (1/2)e^{-1/(2b)}) / ((1/2)e^{-1/(2b)})) = ln(2e^{1/(2b)} - 1) < 1/b.

    Parameters
    ----------
    scale : float > 0
    sizes : sequence of int

    Returns
    -------
    float (0.0 when no cube is non-empty)

    References
    ----------
    001 Algorithm 2, Theorem 3.1.

    Examples
    --------
    >>> noisy_majority_loss(1.0, (1, 2)), round(noisy_majority_loss(1.0, (1,)), 12) == round(math.log(2 * math.exp(0.5) - 1), 12)
    (1.0, True)
    """
    u = 1.0 / scale
    sizes = [int(n) for n in np.atleast_1d(sizes) if int(n) >= 1]
    if not sizes:
        return 0.0
    return u if max(sizes) >= 2 else math.log1p(2.0 * math.expm1(u / 2.0))


def verify_noisy_majority(mech: NoisyMajority, epsilon, delta, sizes=(1, 2, 3)):
    """Enumeration of datasets, flips and released bits, certifying :func:`noisy_majority_loss`.

    Parameters
    ----------
    mech : NoisyMajority
    epsilon : float >= 0
    delta : float
    sizes : sequence of int, the public cube sizes

    Returns
    -------
    DPCheckResult.

    References
    ----------
    001 Algorithm 2, Theorem 3.1.

    Examples
    --------
    >>> verify_noisy_majority(NoisyMajority(1.0), 1.0, 0.0, sizes=(2,)).epsilon_actual
    1.0
    """
    best, wit, count, mag = -1.0, None, 0, 0.0
    for labels, flipped, lp, lq in majority_distributions(mech, sizes):
        count += 1
        g = np.abs(lp - lq)
        mag = max(mag, float(np.max(np.abs(lp))), float(np.max(np.abs(lq))))
        if g.max() > best:
            best, wit = float(g.max()), (labels.tolist(), flipped.tolist(), int(np.argmax(g)))
    closed = noisy_majority_loss(mech.scale, sizes)
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
    r"""Every neighbouring pair of label histograms and the exact log-laws of their noisy releases.

    Neighbours move one label between two classes (two counts change by one); the outputs are the
    noisy counts of 004 Algorithm 4, each merged into n + 3 outcomes: :math:`\{z \le -1\}`,
    0, ..., n, :math:`\{z \ge n+1\}` (on the merged tails the log-ratio of two counts in [0, n]
    is constant), so the law is exact and finite.

    Parameters
    ----------
    mech : GeometricHistogram
        The mechanism (or a subclass such as :class:`GeometricFullBudget`).
    dataset_size : int >= 0
        n, labels per histogram.
    num_classes : int >= 1
        K.

    Returns
    -------
    counts, counts_prime : ndarray of int, shape (P, K)
        The P neighbouring pairs of histograms.
    log_p, log_q : ndarray, shape (P, (n + 3) ** K)
        Log-probabilities of the merged output vectors under each side.

    References
    ----------
    004 Algorithm 4 (discrete Laplace on the label histogram).

    Examples
    --------
    n = 2 labels, K = 2: 4 ordered pairs; the loss is 2a = ε (a = ε/2 per count).

    >>> from simulations.mechanisms import GeometricHistogram
    >>> d, d2, lp, lq = geometric_pairs(GeometricHistogram(1.0), 2, 2)
    >>> d.tolist(), d2.tolist(), lp.shape, round(float(np.max(np.abs(lp - lq))), 12)
    ([[1, 1], [2, 0], [0, 2], [1, 1]], [[0, 2], [1, 1], [1, 1], [2, 0]], (4, 25), 1.0)
    """
    d, d2 = neighbour_moves(compositions(dataset_size, num_classes))

    def joint(h):  # log P over the (n+3)^K merged output vectors
        cells = _geometric_cell(mech, h, dataset_size)  # (M, K, n+3)
        out = cells[:, 0, :]
        for k in range(1, num_classes):
            out = (out[:, :, None] + cells[:, k, None, :]).reshape(len(h), -1)
        return out

    return d, d2, joint(d), joint(d2)


def verify_geometric(mech: GeometricHistogram, epsilon, delta, dataset_size: int = 4, num_classes: int = 3):
    """Enumeration of neighbouring label histograms and their noisy outputs, certifying 2a.

    Parameters
    ----------
    mech : GeometricHistogram (or a subclass)
    epsilon : float >= 0
    delta : float
    dataset_size, num_classes : int, the histograms enumerated (n labels over K classes)

    Returns
    -------
    DPCheckResult.

    References
    ----------
    004 Algorithm 4 (b).

    Examples
    --------
    >>> verify_geometric(GeometricHistogram(1.0), 1.0, 0.0, dataset_size=2, num_classes=2).epsilon_actual
    1.0
    """
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


def verify_stability(mech: StabilityHistogram, epsilon, delta, dataset_size=None, max_count=None):
    """Exact δ(ε) of the stability histogram (:func:`proofs_checks.stability.stability_profile`) against δ.

    Parameters
    ----------
    mech : StabilityHistogram (or a subclass)
    epsilon : float > 0
    delta : float, the claimed δ
    dataset_size, max_count : int, optional (see ``stability_profile``)

    Returns
    -------
    DPCheckResult; ``delta_actual`` = δ(ε), ``epsilon_actual`` = the smallest ε' with δ(ε') <= δ.

    References
    ----------
    001 Algorithm 1, Theorem 2.4.

    Examples
    --------
    >>> r = verify_stability(StabilityHistogram(1.0, 1e-5), 1.0, 1e-5)
    >>> r.holds, round(r.delta_actual / 1e-5, 9)
    (True, 0.25)
    """
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


# ---------------------------------------------------------------- planted bugs


@dataclass(frozen=True, slots=True)
class GeometricFullBudget(GeometricHistogram):
    r"""PLANTED BUG: ``dlaplace(ε_p)`` noise (the whole budget per count, ignoring that two counts move).

    Two counts move by one, each contributing a = :math:`\varepsilon_p`: exact loss
    :math:`2\varepsilon_p` (004 Algorithm 4). Overrides the public ``a``.

    Parameters
    ----------
    epsilon : float > 0
        The claimed :math:`\varepsilon_p`.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.GeometricHistogram`.

    References
    ----------
    004 Algorithm 4.

    Examples
    --------
    >>> from proofs_checks.dp import check_label_dp
    >>> GeometricFullBudget(0.5).a, round(check_label_dp(GeometricFullBudget(0.5), 0.5).epsilon_actual, 12)
    (0.5, 1.0)
    """

    @property
    def a(self) -> float:
        """Discrete Laplace parameter ε (the bug; the correct one is ε/2).

        Returns
        -------
        float
            ε.

        References
        ----------
        004 Algorithm 4.

        Examples
        --------
        >>> GeometricFullBudget(0.5).a
        0.5
        """
        return self.epsilon


@dataclass(frozen=True, slots=True)
class StabilityNoPlusOne(StabilityHistogram):
    r"""PLANTED BUG: threshold :math:`(2/\varepsilon)\log(2/\delta)` (the "+1" of 001 Algorithm 1 line 7 dropped).

    A count of 1 is released with probability
    :math:`\tfrac12 e^{-(\varepsilon/2)((2/\varepsilon)\log(2/\delta) - 1)} = (\delta/4) e^{\varepsilon/2}`
    (when :math:`(2/\varepsilon)\log(2/\delta) \ge 1`), and that is δ(ε) exactly: above the claimed δ
    iff ε > 2 ln 4. Overrides the public ``threshold``.

    Parameters
    ----------
    epsilon : float > 0
        The claimed ε.
    delta : float in (0, 1)
        The claimed δ.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.StabilityHistogram`.

    References
    ----------
    001 Algorithm 1, Theorem 2.4.

    Examples
    --------
    At ε = 4 > 2 ln 4, δ = 1e-3: δ(ε) = :math:`(\delta/4)e^2 \approx 1.847\delta`.

    >>> import math
    >>> from proofs_checks.dp import check_label_dp
    >>> res = check_label_dp(StabilityNoPlusOne(4.0, 1e-3), 4.0, 1e-3)
    >>> res.holds, abs(res.delta_actual / 1e-3 - math.exp(2) / 4) < 1e-9
    (False, True)
    >>> round(StabilityNoPlusOne(2.0, 2 * math.exp(-1)).threshold, 12)
    1.0
    """

    @property
    def threshold(self) -> float:
        r"""Release threshold :math:`(2/\varepsilon)\log(2/\delta)` (the bug: no "+1").

        Returns
        -------
        float
            The threshold.

        References
        ----------
        001 Algorithm 1, line 7.

        Examples
        --------
        >>> import math
        >>> round(StabilityNoPlusOne(2.0, 2 * math.exp(-1)).threshold, 12)
        1.0
        """
        return 2.0 / self.epsilon * math.log(2.0 / self.delta)


RECORDS = (
    MechanismRecord(
        NoisyMajority, "noisy majority", "001 Alg. 2", verify_noisy_majority,
        examples=(Example("cubes of 1, 2, 3 points", lambda e: NoisyMajority(e), loss=lambda e: e,
                          checker_kwargs={"sizes": (1, 2, 3)}),
                  Example("one cube of 1 point", lambda e: NoisyMajority(e),
                          loss=lambda e: math.log1p(2.0 * math.expm1(e / 2.0)), checker_kwargs={"sizes": (1,)})),
        paper_claim="tight", order=100),
    MechanismRecord(
        GeometricHistogram, "geometric histogram", "004 Alg. 4", verify_geometric,
        examples=(Example("n=4, K=3", lambda e: GeometricHistogram(e), loss=lambda e: e),
                  Example("n=2, K=2", lambda e: GeometricHistogram(e), loss=lambda e: e,
                          checker_kwargs={"dataset_size": 2, "num_classes": 2})),
        paper_claim="tight", order=110,
        planted_bugs=(PlantedBug("geometric: dlaplace(eps)", lambda e: GeometricFullBudget(e), loss=lambda e: 2 * e,
                                 order=60, derivation="two counts move, each by a = eps: 2 eps"),)),
    MechanismRecord(
        StabilityHistogram, "stability histogram", "001 Alg. 1 (Thm 2.4)", verify_stability,
        # exact delta(eps) = P(a count of 1 released) = (1/2) e^{-(eps/2)(threshold - 1)} = delta/4
        examples=(Example(f"delta={DELTA:g}", lambda e: StabilityHistogram(e, DELTA), delta=lambda e: DELTA / 4),),
        paper_claim="delta", order=120,
        planted_bugs=(PlantedBug("stability threshold without +1", lambda e: StabilityNoPlusOne(e, DELTA),
                                 delta=lambda e: DELTA / 4 * math.exp(e / 2), order=80,
                                 derivation="(delta/4) e^(eps/2): StabilityNoPlusOne's docstring"),)),
)
