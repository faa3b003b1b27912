"""Exact privacy checks under FULL DP, the neighbouring relation of 001 (replace one whole record (x, y)).

001 Definition 1.1 (with ``d_H(S, S') = 1`` of Definition 2.1): neighbouring datasets differ in one record, features
included. A replaced point can leave one cell and enter another, so two cells' counts (and votes)
move, where the label-DP checks of :mod:`proofs_checks.mechanisms` move one label inside a
public cell. Every check here enumerates *all* datasets of ``dataset_size`` records over a small
finite domain and *every* replacement of one record by any other domain element (datasets are
multisets: the learners are symmetric, which the PCL check also confirms by fitting the real
learner on the points in the order given).

* Pure DP of cell-bit learners (:func:`full_dp_noisy_majority`, :func:`full_dp_pcl`; PCL2 in
  :func:`full_dp_cell_learner`): the released classifier is a vector of independent bits, one per
  cell, so ``max_z |ln P(z|S)/P(z|S')| = max(Σ_j max_b Δ_j(b), Σ_j max_b (−Δ_j(b)))`` with
  ``Δ_j(b) = ln P(h_j = b|S) − ln P(h_j = b|S')`` exactly (for each sign, the maximizing z picks each bit
  separately); with few cells the tests also enumerate all ``2^cells``
  outputs. Bits' probabilities are Laplace tails in closed form (idealized real arithmetic).
* (ε, δ) of the stability histogram (:func:`full_dp_stability_histogram`): cells other than the two
  whose counts change are identical independent factors and cancel from the hockey-stick integral,
  so δ(ε) is the exact two-cell value of :func:`proofs_checks.privacy_profile.stability_pair_delta`,
  maximized over the enumerated pairs.

Expected outcomes (derivations in the tests): the noisy majority / PCL have exact loss ε under full
DP for datasets of >= 2 records (e.g. a label flip in a cube of two equal labels, vote −1 -> 0,
or a point moving between two cubes whose votes sit in the Laplace tails, ε/2 each), and
``ε/2 + ln(2 − e^{−ε/2}) < ε`` for a single record; the label-only check gives ε for cubes of >= 2
points and ``ln(2e^{ε/2} − 1)`` for one-point cubes. So 001 Theorem 3.1's ε holds and is attained. The
stability
histogram's δ(ε) under full DP equals the label-only value (a replacement is the same "move one
unit between two counts").

References: 001 Definition 2.1 (global sensitivity, d_H), Theorem 2.3, Theorem 2.4, Theorem 3.1,
Theorem 4.2, Theorem A.14.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Callable, Iterator

import numpy as np

from limits.validation import check_int, check_positive, check_probability
from simulations.mechanisms import NoisyMajority, StabilityHistogram
from simulations.mechanisms.laplace import laplace_logcdf, laplace_logsf

from .channels import DPCheckResult, within
from .stability import stability_pair_delta

__all__ = ["bits_loss", "full_dp_cell_learner", "full_dp_noisy_majority", "full_dp_pcde", "full_dp_pcl", "full_dp_pcl2",
           "full_dp_pcl2b", "pcl2b_probability_one",
           "full_dp_stability_histogram", "neighbouring_multisets"]


def neighbouring_multisets(domain_size: int, dataset_size: int) -> Iterator[tuple[tuple, tuple]]:
    """Every ordered pair (S, S') of neighbouring multisets under full DP (one element replaced).

    S ranges over the multisets of ``dataset_size`` elements of ``range(domain_size)``, and S' is S
    with one element replaced by a different one (001's :math:`d_H(S, S') = 1`), both as sorted
    tuples.

    Parameters
    ----------
    domain_size : int >= 1
        Number of domain elements (e.g. (cell, label) records).
    dataset_size : int >= 1
        Records per dataset.

    Yields
    ------
    tuple of (tuple of int, tuple of int)
        The pair (S, S').

    Raises
    ------
    ValueError
        If either size is < 1 or not an integer (raised on the first ``next``).

    References
    ----------
    001 Definition 1.1 (neighbouring datasets differ on one point) and Definition 2.1 (:math:`d_H`).

    Examples
    --------
    >>> list(neighbouring_multisets(2, 1))
    [((0,), (1,)), ((1,), (0,))]
    >>> sum(1 for _ in neighbouring_multisets(3, 2))   # {e, e}: 3 x 2 pairs; {e, f}: 3 x 4 pairs
    18
    """
    k = check_int("domain_size", domain_size, low=1)
    n = check_int("dataset_size", dataset_size, low=1)
    for S in itertools.combinations_with_replacement(range(k), n):
        for e in sorted(set(S)):
            rest = list(S)
            rest.remove(e)
            for e2 in range(k):
                if e2 != e:
                    yield S, tuple(sorted(rest + [e2]))


def bits_loss(l1, l0, m1, m0) -> float:
    r"""Exact :math:`\max_z |\ln P(z) - \ln Q(z)|` of two products of independent bits.

    With :math:`\Delta_j(b) = \ln P(h_j = b) - \ln Q(h_j = b)`, the loss is
    :math:`\max(\sum_j \max_b \Delta_j(b), \sum_j \max_b (-\Delta_j(b)))`: the sign of the log-ratio is
    chosen once, then each bit maximizes its own term.

    Parameters
    ----------
    l1, l0 : array_like, shape (cells,)
        :math:`\ln P(h_j = 1)` and :math:`\ln P(h_j = 0)` under the first dataset.
    m1, m0 : array_like, shape (cells,)
        The same under the second dataset.

    Returns
    -------
    float
        The exact privacy loss between the two released bit vectors.

    References
    ----------
    001 Theorem 3.1 (the released classifier is one independent noisy bit per cell).

    Examples
    --------
    Two bits, each 1 with probability 3/4 under P and 1/4 under Q: the loss is 2 ln 3.

    >>> import math
    >>> l1, l0 = np.log([0.75, 0.75]), np.log([0.25, 0.25])
    >>> round(bits_loss(l1, l0, l0, l1) / math.log(3), 12)
    2.0
    """
    d1, d0 = np.asarray(l1) - np.asarray(m1), np.asarray(l0) - np.asarray(m0)
    # the sign of ln P(z)/Q(z) is chosen once; then each bit independently maximizes its own term
    return float(max(np.maximum(d1, d0).sum(), np.maximum(-d1, -d0).sum()))


def _pure_result(best, wit, epsilon, count, what) -> DPCheckResult:
    holds = within(best, epsilon)
    expl = (f"full DP (replace one record): all {count} ordered neighbouring pairs of {what}: "
            f"max_z |ln P(z|S)/P(z|S')| = {best:.12g} ({'<=' if holds else '>'} epsilon = {epsilon:g})")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=best, delta_actual=0.0,
                         method="exact enumeration of neighbouring datasets (full DP), Laplace tails",
                         witness={"S": list(wit[0]), "S_prime": list(wit[1])} if wit else {}, explanation=expl)


def full_dp_cell_learner(log_bits: Callable[[tuple], tuple[np.ndarray, np.ndarray]], epsilon: float, *,
                         domain_size: int, dataset_size: int, what: str = "datasets") -> DPCheckResult:
    """Pure ε-DP check, under full DP, of a learner releasing one independent bit per cell.

    Every ordered pair of neighbouring datasets (:func:`neighbouring_multisets`) is enumerated and
    the loss of each pair is :func:`bits_loss` of the two bit laws.

    Parameters
    ----------
    log_bits : callable
        ``log_bits(S) -> (log P(h_j = 1), log P(h_j = 0))`` for a dataset S (sorted tuple of
        domain-element indices), arrays over the same finite list of cells for every S.
    epsilon : float > 0
        The claimed ε.
    domain_size : int >= 1
        Number of domain elements.
    dataset_size : int >= 1
        Records per dataset.
    what : str, default "datasets"
        Description used in the explanation.

    Returns
    -------
    DPCheckResult
        ``epsilon_actual`` the exact max loss; the witness holds the datasets S and S'.

    Raises
    ------
    ValueError
        If ε <= 0 or a size is invalid.

    References
    ----------
    001 Definition 1.1 (full DP), Theorem 3.1.

    Examples
    --------
    One cell whose bit is 1 with probability 3/4 when the single record is element 1, else 1/4: the
    exact loss is ln 3.

    >>> import math
    >>> def log_bits(S):
    ...     p = 0.75 if S == (1,) else 0.25
    ...     return np.log([p]), np.log([1 - p])
    >>> res = full_dp_cell_learner(log_bits, math.log(3), domain_size=2, dataset_size=1)
    >>> res.holds, round(res.epsilon_actual / math.log(3), 12), res.witness
    (True, 1.0, {'S': [0], 'S_prime': [1]})
    """
    epsilon = check_positive("epsilon", epsilon)
    cache: dict[tuple, tuple] = {}

    def get(S):
        if S not in cache:
            cache[S] = log_bits(S)
        return cache[S]

    best, wit, count = -1.0, None, 0
    for S, S2 in neighbouring_multisets(domain_size, dataset_size):
        count += 1
        loss = bits_loss(*get(S), *get(S2))
        if loss > best:
            best, wit = loss, (S, S2)
    return _pure_result(best, wit, epsilon, count, what)


def _records(num_cells: int) -> list[tuple[int, int]]:
    """Domain elements (cell, label), element index = 2 cell + label."""
    return [(c, y) for c in range(num_cells) for y in (0, 1)]


def full_dp_noisy_majority(mech: NoisyMajority, epsilon: float, *, num_cells: int = 3,
                           dataset_size: int = 3) -> DPCheckResult:
    r""":class:`~simulations.mechanisms.NoisyMajority` (001 Algorithm 2's vote) under full DP.

    Records are (cell, label); cell sizes and label sums are both data-dependent (a replaced record can
    leave one cell and enter another). Exact loss: ε for datasets of >= 2 records, and
    :math:`\ln(2e^{\varepsilon/2} - 1) = \varepsilon/2 + \ln(2 - e^{-\varepsilon/2}) < \varepsilon`
    for a single record.

    Parameters
    ----------
    mech : NoisyMajority
        The mechanism (its Laplace scale gives the bit probabilities).
    epsilon : float > 0
        The claimed ε.
    num_cells : int >= 1, default 3
        Number of cells.
    dataset_size : int >= 1, default 3
        Records per dataset.

    Returns
    -------
    DPCheckResult
        The exact loss over every neighbouring pair and its witness.

    Raises
    ------
    ValueError
        If ε <= 0 or a size is invalid.

    References
    ----------
    001 Algorithm 2, Theorem 3.1, Definition 1.1.

    Examples
    --------
    >>> import math
    >>> from simulations.mechanisms import NoisyMajority
    >>> round(full_dp_noisy_majority(NoisyMajority(1.0), 1.0).epsilon_actual, 12)
    1.0
    >>> one = full_dp_noisy_majority(NoisyMajority(1.0), 1.0, num_cells=2, dataset_size=1)
    >>> abs(one.epsilon_actual - math.log(2 * math.exp(0.5) - 1)) < 1e-12
    True
    """
    num_cells = check_int("num_cells", num_cells, low=1)
    rec = _records(num_cells)

    def log_bits(S):
        cells = np.array([rec[e][0] for e in S])
        labels = np.array([rec[e][1] for e in S])
        sizes = np.bincount(cells, minlength=num_cells).astype(np.int64)
        sums = np.bincount(cells, weights=labels, minlength=num_cells).astype(np.int64)
        return mech.log_probability_one(sums, sizes), mech.log_probability_zero(sums, sizes)

    return full_dp_cell_learner(log_bits, epsilon, domain_size=len(rec), dataset_size=dataset_size,
                                what=f"datasets of {dataset_size} records (cell, label) over {num_cells} cells")


def full_dp_pcl(epsilon: float, *, cubes_per_axis: int = 3, d: int = 1, dataset_size: int = 3,
                shuffle_seed: int = 0) -> DPCheckResult:
    """The fitted :class:`~simulations.estimators.pcl.PCL` learner (001 Algorithm 2) under full DP.

    The domain is the ``cubes_per_axis^d`` cube centres x {0, 1}; each dataset is fitted by the real
    learner (points given in a shuffled order), and the exact law of its classifier over *all* cubes
    (empty ones included) is read from the fitted state; pairs are scored by :func:`bits_loss`.

    Parameters
    ----------
    epsilon : float > 0
        The learner's ε (also the claimed loss).
    cubes_per_axis : int >= 1, default 3
        Cubes per axis of the unit cube.
    d : int >= 1, default 1
        Dimension.
    dataset_size : int >= 1, default 3
        Points per dataset.
    shuffle_seed : int, default 0
        Seed of the order the points are given in (the learner must not depend on it).

    Returns
    -------
    DPCheckResult
        The exact loss; 001 Theorem 3.1 claims ε, attained for datasets of >= 2 points.

    Raises
    ------
    ValueError
        If ε <= 0 or a size is invalid.

    References
    ----------
    001 Algorithm 2, Theorem 3.1, Definition 1.1.

    Examples
    --------
    >>> res = full_dp_pcl(1.0)
    >>> res.holds, round(res.epsilon_actual, 12)
    (True, 1.0)
    """
    from simulations.estimators.pcl import PCL  # proofs_checks may import simulations

    m = check_int("cubes_per_axis", cubes_per_axis, low=1)
    d = check_int("d", d, low=1)
    side = 1.0 / m
    centres = (np.stack([a.ravel() for a in np.meshgrid(*([np.arange(m)] * d), indexing="ij")], axis=1) + 0.5) * side
    rec = [(c, y) for c in range(m ** d) for y in (0, 1)]
    shuf = np.random.default_rng(shuffle_seed)

    def log_bits(S):
        order = shuf.permutation(len(S))
        X = centres[[rec[S[i]][0] for i in order]]
        y = np.array([rec[S[i]][1] for i in order])
        est = PCL(epsilon=epsilon, side=side, random_state=0).fit(X, y)
        v = est.votes_of(np.arange(est.n_cubes_)).astype(float)
        return laplace_logsf(-0.5 * v, 1 / epsilon), laplace_logcdf(-0.5 * v, 1 / epsilon)

    return full_dp_cell_learner(log_bits, epsilon, domain_size=len(rec), dataset_size=dataset_size,
                                what=f"datasets of {dataset_size} points over {m ** d} cubes (d = {d}) with labels")


def full_dp_stability_histogram(mech: StabilityHistogram, epsilon: float, delta: float, *,
                                domain_size: int = 3, dataset_size: int = 3) -> DPCheckResult:
    r""":class:`~simulations.mechanisms.StabilityHistogram` (001 Algorithm 1) under full DP.

    Exact δ(ε) over every neighbouring pair of datasets of ``dataset_size`` records over
    ``domain_size`` domain points: a replacement moves one unit between two counts, and the other
    cells cancel from the hockey-stick integral
    (:func:`proofs_checks.stability.stability_pair_delta`).

    Parameters
    ----------
    mech : StabilityHistogram
        The mechanism.
    epsilon : float > 0
        The ε at which δ(ε) is computed.
    delta : float in [0, 1]
        The claimed δ.
    domain_size : int >= 1, default 3
        Domain points.
    dataset_size : int >= 1, default 3
        Records per dataset.

    Returns
    -------
    DPCheckResult
        ``delta_actual`` = the exact max δ(ε), ``holds = δ(ε) <= delta``.

    Raises
    ------
    ValueError
        If ε <= 0, δ is not in [0, 1], or a size is invalid.

    References
    ----------
    001 Algorithm 1, Theorem 2.4, Definition 1.1.

    Examples
    --------
    While every count stays below the threshold :math:`\tau = (2/\varepsilon)\ln(2/\delta) + 1`, the
    worst pair moves a lone record, released with probability :math:`\tfrac12 e^{-(\tau-1)/b} = \delta/4`
    (b = 2/ε): Theorem 2.4's δ holds, 4x conservatively.

    >>> from simulations.mechanisms import StabilityHistogram
    >>> res = full_dp_stability_histogram(StabilityHistogram(1.0, 1e-3), 1.0, 1e-3)
    >>> res.holds, round(res.delta_actual / 1e-3, 9)
    (True, 0.25)
    """
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    seen: dict[tuple, float] = {}
    best, wit, count = -1.0, None, 0
    for S, S2 in neighbouring_multisets(domain_size, dataset_size):
        count += 1
        c, c2 = Counter(S), Counter(S2)
        changed = sorted(k for k in set(c) | set(c2) if c[k] != c2[k])
        if len(changed) != 2 or sorted(c2[k] - c[k] for k in changed) != [-1, 1]:
            raise AssertionError(f"a replacement must move one unit between two counts, got {S} -> {S2}")
        key = tuple((c[k], c2[k]) for k in changed)
        if key not in seen:
            (a, a2), (b, b2) = key
            seen[key] = float(stability_pair_delta(mech, (a, b), (a2, b2), [epsilon])[0])
        if seen[key] > best:
            best, wit = seen[key], (S, S2)
    holds = best <= delta * (1 + 1e-9)
    expl = (f"full DP: all {count} ordered neighbouring pairs of datasets of {dataset_size} records over "
            f"{domain_size} points; exact delta(epsilon={epsilon:g}) = {best:.6g} "
            f"({'<=' if holds else '>'} delta = {delta:g}, ratio {best / delta if delta else math.inf:.6g})")
    return DPCheckResult(holds=bool(holds), epsilon=epsilon, delta=delta, epsilon_actual=epsilon, delta_actual=best,
                         method="exact hockey-stick divergence over neighbouring datasets (full DP)",
                         witness={"S": list(wit[0]), "S_prime": list(wit[1])}, explanation=expl)


def full_dp_pcde(epsilon: float, delta: float, *, points=(-1.3, 0.2, 0.9), dataset_size: int = 3,
                 side: float = 0.5) -> DPCheckResult:
    """The fitted :class:`~simulations.estimators.pcde.PCDE` (001 Algorithm 3) under full DP.

    Domain: the given 1-D points (in distinct cubes of side ``side``); every dataset is binned by the
    learner's own code (:meth:`PCDE.cube_counts`), and each neighbouring pair's δ(ε) is the exact
    two-cell stability-histogram value for the counts the learner produced (the released density is a
    post-processing of those counts, so this is the δ of the cube counts it releases).

    Parameters
    ----------
    epsilon : float > 0
        The learner's ε.
    delta : float in [0, 1]
        The learner's and the claimed δ.
    points : sequence of float, default (-1.3, 0.2, 0.9)
        The 1-D domain.
    dataset_size : int >= 1, default 3
        Points per dataset.
    side : float > 0, default 0.5
        Cube side of the learner.

    Returns
    -------
    DPCheckResult
        ``delta_actual`` the exact max δ(ε) of the released counts.

    Raises
    ------
    ValueError
        If ε <= 0 or δ is not in [0, 1].

    References
    ----------
    001 Algorithm 3, Theorem 4.2, Algorithm 1, Theorem 2.4.

    Examples
    --------
    Counts below the threshold: δ(ε) = δ/4 exactly (see :func:`full_dp_stability_histogram`).

    >>> res = full_dp_pcde(1.0, 1e-3, dataset_size=2)
    >>> res.holds, round(res.delta_actual / 1e-3, 9)
    (True, 0.25)
    """
    from simulations.estimators.pcde import PCDE

    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    est = PCDE(epsilon=epsilon, delta=delta, side=side)
    mech = StabilityHistogram(epsilon, delta)
    pts = np.asarray(points, dtype=float)

    def counts(S):
        _, cells, c = est.cube_counts(pts[list(S)][:, None])
        return {int(k): int(v) for k, v in zip(cells[:, 0], c)}

    best, wit, count = -1.0, None, 0
    for S, S2 in neighbouring_multisets(len(pts), dataset_size):
        count += 1
        c, c2 = counts(S), counts(S2)
        changed = sorted(k for k in set(c) | set(c2) if c.get(k, 0) != c2.get(k, 0))
        if len(changed) == 0:
            continue
        (a, a2), (b, b2) = ((c.get(k, 0), c2.get(k, 0)) for k in changed)
        val = float(stability_pair_delta(mech, (a, b), (a2, b2), [epsilon])[0])
        if val > best:
            best, wit = val, (S, S2)
    holds = best <= delta * (1 + 1e-9)
    expl = (f"full DP, fitted PCDE: all {count} ordered neighbouring pairs of {dataset_size} points over "
            f"{len(pts)} domain points; exact delta(epsilon={epsilon:g}) of the released cube counts = {best:.6g} "
            f"({'<=' if holds else '>'} delta = {delta:g})")
    return DPCheckResult(holds=bool(holds), epsilon=epsilon, delta=delta, epsilon_actual=epsilon, delta_actual=best,
                         method="exact hockey-stick divergence over neighbouring datasets (full DP)",
                         witness={"S": list(wit[0]), "S_prime": list(wit[1])}, explanation=expl)


def full_dp_pcl2(epsilon: float, *, r: float = 1.3, domain_cells: int = 3, dataset_size: int = 3) -> DPCheckResult:
    """The fitted :class:`~simulations.estimators.pcl2.PCL2` (001 Algorithm 4) on :math:`S^2` under full DP.

    Domain: the centres of ``domain_cells`` Voronoi cells of the maximal r-packing x {0, 1}; the exact
    law of the classifier over *all* cells of the packing is read from each fitted learner and pairs
    are scored by :func:`bits_loss`.

    Parameters
    ----------
    epsilon : float > 0
        The learner's ε (also the claimed loss).
    r : float > 0, default 1.3
        Packing radius on the sphere.
    domain_cells : int >= 1, default 3
        Cells whose centres form the domain (at most the packing's cells).
    dataset_size : int >= 1, default 3
        Points per dataset.

    Returns
    -------
    DPCheckResult
        The exact loss over every neighbouring pair.

    Raises
    ------
    ValueError
        If ε <= 0, or ``domain_cells`` exceeds the packing's cells.

    References
    ----------
    001 Algorithm 4 (its noisy vote is Algorithm 2's, private by the argument of Theorem 3.1),
    Definition 1.1.

    Examples
    --------
    >>> res = full_dp_pcl2(1.0, dataset_size=2)
    >>> res.holds, round(res.epsilon_actual, 12)
    (True, 1.0)
    """
    from simulations.estimators.pcl2 import PCL2
    from simulations.metric_spaces import SpherePacking

    epsilon = check_positive("epsilon", epsilon)
    space = SpherePacking(r)
    k = check_int("domain_cells", domain_cells, low=1)
    if k > space.n_cells:
        raise ValueError(f"domain_cells must be <= {space.n_cells} (cells of the packing), got domain_cells={k}")
    rec = [(c, y) for c in range(k) for y in (0, 1)]
    allc = np.arange(space.n_cells)

    def log_bits(S):
        X = space.centres[[rec[e][0] for e in S]]
        y = np.array([rec[e][1] for e in S])
        p1 = PCL2(space=space, epsilon=epsilon, random_state=0).fit(X, y)
        v = p1.votes_of(allc).astype(float)
        return laplace_logsf(-0.5 * v, 1 / epsilon), laplace_logcdf(-0.5 * v, 1 / epsilon)

    return full_dp_cell_learner(log_bits, epsilon, domain_size=len(rec), dataset_size=dataset_size,
                                what=f"datasets of {dataset_size} points of S² over {k} of the {space.n_cells} "
                                     f"Voronoi cells (r = {r:g}) with labels")


def pcl2b_probability_one(mech: StabilityHistogram, count: int, ones: int) -> float:
    r"""Exact :math:`P(h_j = 1)` of 001 Algorithm 5 on a cell with ``count`` points, ``ones`` labelled 1.

    :math:`\hat c = 0` gives 0; otherwise :math:`h = 1[\hat y > \hat c/2]` and :math:`\hat c` is
    released only above the threshold τ, so
    :math:`P = \int_\tau^\infty \mathrm{lap}(u - c)\, P(k + W > \max(\tau, u/2))\, du` (adaptive
    quadrature, absolute error < 1e-13).

    Parameters
    ----------
    mech : StabilityHistogram
        Gives the Laplace scale b and the threshold τ.
    count : int >= 0
        Points in the cell.
    ones : int, 0 <= ones <= count
        Points labelled 1.

    Returns
    -------
    float
        The probability, in [0, 1].

    References
    ----------
    001 Algorithm 5, Theorem A.14; Algorithm 1 for the released counts.

    Examples
    --------
    For c = k below τ the integral is closed form:
    :math:`\tfrac14 e^{(c+k-2\tau)/b} - \tfrac1{12} e^{(c+k-3\tau)/b}`. At ε = 2 (b = 1) and
    δ = 2/e (τ = 2), c = k = 1 this is :math:`e^{-2}/4 - e^{-4}/12`.

    >>> import math
    >>> from simulations.mechanisms import StabilityHistogram
    >>> p = pcl2b_probability_one(StabilityHistogram(2.0, 2 * math.exp(-1)), 1, 1)
    >>> abs(p - (math.exp(-2) / 4 - math.exp(-4) / 12)) < 1e-12, pcl2b_probability_one(None, 0, 0)
    (True, 0.0)
    """
    from scipy import integrate

    if count == 0 or ones == 0:
        return 0.0
    b, tau = mech.scale, mech.threshold

    def integrand(u):
        dens = math.exp(-abs(u - count) / b) / (2 * b)
        return dens * float(np.exp(laplace_logsf(max(tau, u / 2) - ones, b)))

    pts = sorted({max(tau, float(count)), max(tau, 2 * tau), max(tau, 2.0 * ones)})
    val, last = 0.0, tau
    for p in pts + [math.inf]:
        if p > last:
            val += integrate.quad(integrand, last, p, epsabs=1e-14, epsrel=1e-12, limit=200)[0]
            last = p
    return val


def full_dp_pcl2b(epsilon: float, delta: float, *, num_cells: int = 2, dataset_size: int = 6,
                  claimed_epsilon: float | None = None, claimed_delta: float | None = None) -> DPCheckResult:
    """001 Algorithm 5's released classifier under full DP: exact δ(ε') over all neighbouring datasets.

    Records are (cell, label); each cell's bit is independent of the others, with the probability of
    :func:`pcl2b_probability_one`; cells whose (count, ones) do not change are identical factors and
    cancel from the hockey-stick sum, so δ(ε') is a finite sum over the (at most two) changed cells'
    bits. The claim checked is Theorem A.14's (2ε, 2δ) unless other values are given.

    Parameters
    ----------
    epsilon : float > 0
        ε of the two stability histograms.
    delta : float in [0, 1]
        δ of the histograms.
    num_cells : int >= 1, default 2
        Number of cells.
    dataset_size : int >= 1, default 6
        Records per dataset.
    claimed_epsilon : float > 0, optional
        The ε' checked (default 2ε).
    claimed_delta : float in [0, 1], optional
        The claimed δ (default 2δ).

    Returns
    -------
    DPCheckResult
        ``epsilon = epsilon_actual`` = the ε' checked, ``delta_actual`` the exact δ(ε').

    Raises
    ------
    ValueError
        If ε or the claimed ε <= 0, or a δ is not in [0, 1].

    References
    ----------
    001 Algorithm 5, Theorem A.14, Definition 1.1.

    Examples
    --------
    >>> res = full_dp_pcl2b(1.0, 1e-3, dataset_size=2)
    >>> res.holds, res.epsilon, res.delta
    (True, 2.0, 0.002)
    """
    mech = StabilityHistogram(check_positive("epsilon", epsilon), delta)
    ce = 2 * epsilon if claimed_epsilon is None else check_positive("claimed_epsilon", claimed_epsilon)
    cd = 2 * delta if claimed_delta is None else check_probability("claimed_delta", claimed_delta)
    rec = _records(check_int("num_cells", num_cells, low=1))
    cache: dict[tuple, float] = {}

    def p1(c, k):
        if (c, k) not in cache:
            cache[(c, k)] = pcl2b_probability_one(mech, c, k)
        return cache[(c, k)]

    def stats(S):
        c, k = Counter(), Counter()
        for e in S:
            c[rec[e][0]] += 1
            k[rec[e][0]] += rec[e][1]
        return c, k

    best, wit, count = -1.0, None, 0
    for S, S2 in neighbouring_multisets(len(rec), dataset_size):
        count += 1
        (c, k), (c2, k2) = stats(S), stats(S2)
        changed = [j for j in range(num_cells) if (c[j], k[j]) != (c2[j], k2[j])]
        P, Q = np.ones(1), np.ones(1)
        for j in changed:
            a, b = p1(c[j], k[j]), p1(c2[j], k2[j])
            P = np.concatenate([P * (1 - a), P * a])
            Q = np.concatenate([Q * (1 - b), Q * b])
        val = float(np.maximum(0.0, P - math.exp(ce) * Q).sum())
        if val > best:
            best, wit = val, (S, S2)
    holds = best <= cd * (1 + 1e-9)
    expl = (f"full DP, PCL2b classifier: all {count} ordered neighbouring pairs of {dataset_size} records over "
            f"{num_cells} cells; exact delta(epsilon'={ce:g}) = {best:.6g} ({'<=' if holds else '>'} {cd:g}); "
            f"histograms at (epsilon, delta) = ({epsilon:g}, {delta:g})")
    return DPCheckResult(holds=bool(holds), epsilon=ce, delta=cd, epsilon_actual=ce, delta_actual=best,
                         method="exact hockey-stick over the released bits (Laplace tails + adaptive quadrature)",
                         witness={"S": list(wit[0]), "S_prime": list(wit[1])}, explanation=expl)
