"""Exact privacy checks of the semi-supervised learners of 001 Section 4.1 (Theorems 4.10-4.11).

**The semi-private learner** (:class:`~simulations.estimators.cssl.SemiPrivateLearner`): for a fixed
public sample U of k distinct points the output is one of the dichotomies of U. A labeled point enters
only through the gap of the sorted public points it falls in (k + 1 gaps), so the domain
{one point per gap} x {0, 1} represents *every* labeled record: enumerating all multisets of m of its
elements and every replacement of one record (001 Definition 1.1, d_H = 1) covers every pair of
neighbouring labeled samples of size m, and the maximum found is the exact sup over all of them. The
check fits the real learner on each sample and reads its channel (``log_probabilities_``, the exact law
of the choice); the loss of a pair is ``max_h |ln P(h|S) − ln P(h|S')|``.

**Closed form** (:func:`semi_private_worst_loss`, derived here, independent of the code). Write
``a = e^{ε/2}``, ``w_j = a^{-q_j}``, ``δ_j = q_j(S') − q_j(S) ∈ {−1, 0, 1}``. Then
``P(h|S)/P(h|S') = a^{δ_h} Σ_j w_j a^{−δ_j} / Σ_j w_j``, a weighted mean of ``a^{δ_h − δ_j}`` with
largest term ``a^2`` (``δ_h = 1``, ``δ_j = −1``). With ``δ_h = 1`` the replaced record r is right
for h and wrong for every j with ``δ_j = −1`` (r' the reverse), so ``q_h − q_j <= (m − 1) − 1``: each such
``w_j <= a^{m−2} w_h``, and there are at most ``N = |H| − 1`` of them. The mean is at most
``(1 + a^2 N a^{m−2}) / (1 + N a^{m−2})`` (terms with ratio ``a`` or 1 only pull it down, as this value
is >= a). For thresholds this is attained: h = the all-ones labelling (``t = −inf``), r = (x <= u_(1), 1),
r' = (x' <= u_(1), 0), the other m − 1 records (x <= u_(1), 0). Hence, for thresholds,

    sup loss = ln((1 + N e^{εm/2}) / (1 + N e^{ε(m−2)/2})) < ε,   N = k (the number of public points),

increasing to ε as m or k grows: ε-DP holds (McSherry-Talwar), with the loss approaching but never
reaching ε. Under the label-only relation (r = (x, 1) -> (x, 0)) the same witness applies: same value.
For intervals the bound with ``N = |H| − 1`` still holds but is not attained (no labelling is wrong on a
record that every other interval gets right); the check reports the exact value.

**Planted bug** (:class:`SemiPrivateLearnerDoubledScore`): utility "right − wrong" = m − 2q, whose
sensitivity is 2, fed to the mechanism as if it were 1: weights ``e^{−ε q}``, i.e. the correct learner at
2ε. Its exact loss is :func:`semi_private_worst_loss` at 2ε, which exceeds ε exactly when
``N e^{ε(m−1)} > 1`` (expand ``(1 + N e^{εm}) > e^ε (1 + N e^{ε(m−2)})``): for every m >= 2, and for m = 1 when
N >= 2. The tests assert the exact wrong value.

**The Theorem 4.11 learner** (:func:`check_private_cssl`): neighbours differ in one labeled record or
one unlabeled record. A labeled change: ``(f̂, Û)`` does not depend on S, and given Û the output is the
semi-private learner's, so the exact ε of the release is the maximum over Û of the check above; it
depends on Û only through its number of distinct points, so it equals the closed form at
N = n_synthetic (checked by enumeration on a Û drawn by the fitted learner). An unlabeled change: f̂
is PCDE's release, and Û, h are post-processing with fresh randomness, so δ(ε') of the release is
PCDE's, computed exactly by :func:`proofs_checks.full_dp.full_dp_pcde`. The pair is therefore
``(max(ε_L^exact, ε_U), δ_PCDE(ε_U))``-DP under the "disjoint" relation; the "shared" relation (one
person in both samples, ``ε_L + ε_U``) is basic composition and not enumerated here.

References: 001 Definition 1.1, Theorems 4.2, 4.10, 4.11 (proof: "by composition and post-processing");
McSherry and Talwar (2007) for the exponential mechanism.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from limits.validation import check_choice, check_int, check_positive, check_probability
from simulations.estimators.cssl import PrivateCSSL, SemiPrivateLearner, threshold_dichotomies

from .channels import DPCheckResult, within
from .full_dp import full_dp_pcde, neighbouring_multisets

__all__ = ["CSSLPrivacy", "SemiPrivateLearnerDoubledScore", "check_private_cssl", "check_semi_private",
           "gap_points", "semi_private_worst_loss"]


def semi_private_worst_loss(epsilon: float, n_alternatives: int, m: int) -> float:
    """Exact sup of the semi-private learner's privacy loss for thresholds (closed form, see the module).

    Parameters
    ----------
    epsilon : float > 0
    n_alternatives : int >= 1
        ``N = |H| − 1``, the number of hypotheses other than the output (k public points for thresholds).
    m : int >= 1
        Labeled sample size.

    Returns
    -------
    float
        ``ln((1 + N e^{εm/2}) / (1 + N e^{ε(m−2)/2}))``, computed in log space; < ε.

    References
    ----------
    001 Theorem 4.10 (exponential mechanism over the dichotomies of the public points).

    Examples
    --------
    >>> round(semi_private_worst_loss(1.0, 3, 1), 6)  # m = 1: ln((1 + 3 e^{1/2}) / (1 + 3 e^{-1/2}))
    0.746154
    >>> 0.99 < semi_private_worst_loss(1.0, 100, 10) < 1.0  # tends to ε as N or m grows
    True
    """
    eps = check_positive("epsilon", epsilon)
    N = check_int("n_alternatives", n_alternatives, low=1)
    m = check_int("m", m, low=1)
    half = eps / 2.0
    return float(np.logaddexp(0.0, math.log(N) + half * m) - np.logaddexp(0.0, math.log(N) + half * (m - 2)))


class SemiPrivateLearnerDoubledScore(SemiPrivateLearner):
    r"""PLANTED BUG: utility "right − wrong" (sensitivity 2) given to the mechanism as sensitivity 1.

    Weights :math:`\exp(\varepsilon (m - 2q)/2) \propto e^{-\varepsilon q}`: the correct learner at
    2ε; exact loss :func:`semi_private_worst_loss` at 2ε, above ε whenever
    :math:`N e^{\varepsilon(m-1)} > 1`.

    Parameters
    ----------
    epsilon : float > 0 or None, default 1.0
        The claimed ε (None: the non-private learner).
    hypothesis_class : {"thresholds", "intervals"}, default "thresholds"
        The hypotheses whose dichotomies of the public points are chosen from.
    random_state : None, int or numpy.random.Generator, default None
        Draws the choice at ``fit``, as in :class:`~simulations.estimators.cssl.SemiPrivateLearner`.

    Raises
    ------
    ValueError
        As :class:`~simulations.estimators.cssl.SemiPrivateLearner`.

    References
    ----------
    001 Theorem 4.10 (the exponential mechanism over the dichotomies); McSherry and Talwar (2007).

    Examples
    --------
    k = 3 public points, m = 2 labeled records: the exact loss is
    :math:`\ln((1 + 3e^{2})/(1 + 3))` = 1.756 > 1.

    >>> r = check_semi_private(1.0, public=[0.2, 0.5, 0.8], dataset_size=2,
    ...                        learner=SemiPrivateLearnerDoubledScore)
    >>> r.holds, abs(r.epsilon_actual - semi_private_worst_loss(2.0, 3, 2)) < 1e-12
    (False, True)
    """

    def _utility(self, errors: np.ndarray) -> np.ndarray:
        return 2 * (errors.max() - errors)  # = (m − 2q) − min(m − 2q): "right minus wrong", shifted


def gap_points(public) -> np.ndarray:
    """One labeled position per gap of the sorted distinct public points (k + 1 of them).

    Below the smallest, between consecutive ones, above the largest: every x behaves like one of
    these for the semi-private learner (it sees a labeled point only through its gap).

    Parameters
    ----------
    public : array_like, shape (k,)
        The public (or synthetic) unlabeled points on the line.

    Returns
    -------
    ndarray, shape (k' + 1,)
        k' = the number of distinct public points (``[0.0]`` when there are none).

    References
    ----------
    001 Theorem 4.10 (thresholds on the line: the dichotomies of the public points).

    Examples
    --------
    >>> gap_points([0.2, 0.5, 0.8]).round(12).tolist(), gap_points([0.5, 0.2, 0.5]).round(12).tolist()
    ([-0.8, 0.35, 0.65, 1.8], [-0.8, 0.35, 1.5])
    """
    t = threshold_dichotomies(public)[1:]
    if t.size == 0:
        return np.array([0.0])
    mids = (t[:-1] + t[1:]) / 2.0
    return np.concatenate([[t[0] - 1.0], mids, [t[-1] + 1.0]])


def _label_neighbours(domain_size: int, dataset_size: int):
    """Ordered pairs of multisets of records (index 2 g + y) differing in one record's label."""
    for S in itertools.combinations_with_replacement(range(domain_size), dataset_size):
        for e in sorted(set(S)):
            rest = list(S)
            rest.remove(e)
            yield S, tuple(sorted(rest + [e ^ 1]))


def check_semi_private(epsilon: float, *, public, dataset_size: int, hypothesis_class: str = "thresholds",
                       relation: str = "full", learner=SemiPrivateLearner) -> DPCheckResult:
    """Exact ε-DP check of the semi-private learner w.r.t. its labeled sample, for fixed public points.

    Parameters
    ----------
    epsilon : float > 0
        The learner's ε (also the claimed loss).
    public : array_like, shape (k,)
        The public (or synthetic) unlabeled points.
    dataset_size : int >= 1
        Labeled sample size m; every multiset of m records over the gap points x {0, 1} is enumerated.
    hypothesis_class : {"thresholds", "intervals"}
    relation : {"full", "label"}
        Replace one whole record (001 Definition 1.1) or flip one label.
    learner : class
        :class:`SemiPrivateLearner` or a planted-bug subclass.

    Returns
    -------
    DPCheckResult
        ``epsilon_actual`` = exact max loss, witness = the datasets (as (x, y) lists) and the hypothesis index.

    Raises
    ------
    ValueError
        On a bad argument (before any work).

    References
    ----------
    001 Definition 1.1, Theorem 4.10.

    Examples
    --------
    >>> r = check_semi_private(1.0, public=[0.2, 0.5, 0.8], dataset_size=2)
    >>> r.holds, round(r.epsilon_actual, 12) == round(semi_private_worst_loss(1.0, 3, 2), 12)
    (True, True)
    """
    eps = check_positive("epsilon", epsilon)
    m = check_int("dataset_size", dataset_size, low=1)
    check_choice("relation", relation, ("full", "label"))
    check_choice("hypothesis_class", hypothesis_class, ("thresholds", "intervals"))
    xs = gap_points(public)
    records = [(float(x), y) for x in xs for y in (0, 1)]  # index 2 g + y
    cache: dict[tuple, np.ndarray] = {}

    def channel(S):
        if S not in cache:
            X = np.array([records[e][0] for e in S])
            y = np.array([records[e][1] for e in S])
            est = learner(epsilon=eps, hypothesis_class=hypothesis_class, random_state=0).fit(X, y, X_public=public)
            cache[S] = est.log_probabilities_
        return cache[S]

    pairs = (neighbouring_multisets(len(records), m) if relation == "full"
             else _label_neighbours(len(records), m))
    best, wit, count = -1.0, None, 0
    for S, S2 in pairs:
        count += 1
        d = channel(S) - channel(S2)
        j = int(np.argmax(np.abs(d)))
        if abs(d[j]) > best:
            best, wit = float(abs(d[j])), (S, S2, j)
    holds = within(best, eps)
    witness: dict[str, Any] = {"S": [records[e] for e in wit[0]], "S_prime": [records[e] for e in wit[1]],
                               "hypothesis": wit[2]}
    expl = (f"{'full DP (replace one record)' if relation == 'full' else 'label only'}: all {count} ordered pairs of "
            f"labeled samples of {m} records over {len(xs)} gaps x {{0, 1}} (public k = {len(xs) - 1}, "
            f"{hypothesis_class}); max_h |ln P(h|S)/P(h|S')| = {best:.12g} ({'<=' if holds else '>'} epsilon = {eps:g})")
    return DPCheckResult(holds=holds, epsilon=eps, delta=0.0, epsilon_actual=best, delta_actual=0.0,
                         method="exact enumeration of neighbouring labeled samples (exponential mechanism's closed-form law)",
                         witness=witness, explanation=expl)


@dataclass(frozen=True, slots=True)
class CSSLPrivacy:
    r"""Exact privacy of the 001 Theorem 4.11 learner on tiny data (see :func:`check_private_cssl`).

    Parameters
    ----------
    labeled : DPCheckResult
        Enumeration over neighbouring labeled samples with the synthetic sample the learner drew.
    labeled_closed_form : float
        Sup over every synthetic sample of that size: :func:`semi_private_worst_loss` at
        N = n_synthetic.
    unlabeled : DPCheckResult
        :func:`proofs_checks.full_dp.full_dp_pcde`: exact δ(ε_U) over neighbouring unlabeled samples.
    epsilon : float
        The ε of the guarantee checked, :math:`\max(\varepsilon_L, \varepsilon_U)` (disjoint relation).
    delta : float
        The δ of the guarantee checked (PCDE's).
    holds : bool
        Both parts within (ε, δ).

    References
    ----------
    001 Theorems 4.2, 4.10, 4.11.

    Examples
    --------
    >>> res = check_private_cssl(1.0, 1e-3, n_synthetic=2, dataset_size=2, unlabeled_size=2)
    >>> res.holds, abs(res.labeled.epsilon_actual - res.labeled_closed_form) < 1e-12
    (True, True)
    """

    labeled: DPCheckResult
    labeled_closed_form: float
    unlabeled: DPCheckResult
    epsilon: float
    delta: float
    holds: bool


def check_private_cssl(epsilon: float, delta: float, *, epsilon_unlabeled: float | None = None,
                       unlabeled_points=(-1.3, 0.2, 0.9), unlabeled_size: int = 3, side: float = 0.5,
                       n_synthetic: int = 3, dataset_size: int = 3, seed: int = 0) -> CSSLPrivacy:
    r"""Exact (ε, δ) of the 001 Theorem 4.11 learner (:class:`~simulations.estimators.cssl.PrivateCSSL`) on tiny data.

    A labeled change is checked by :func:`check_semi_private` on the synthetic sample the fitted
    learner drew (and compared with the closed form at N = n_synthetic); an unlabeled change by
    :func:`proofs_checks.full_dp.full_dp_pcde` (the release is a post-processing of PCDE's).

    Parameters
    ----------
    epsilon : float > 0
        :math:`\varepsilon_L` of the labeled part.
    delta : float in [0, 1]
        PCDE's δ.
    epsilon_unlabeled : float > 0, optional
        :math:`\varepsilon_U` (default ``epsilon``).
    unlabeled_points : sequence of float, default (-1.3, 0.2, 0.9)
        The 1-D domain of the unlabeled records (each in its own cube of side ``side``).
    unlabeled_size : int >= 1, default 3
        Unlabeled sample size for the PCDE enumeration.
    side : float > 0, default 0.5
        Cube side of PCDE.
    n_synthetic : int >= 1, default 3
        Synthetic sample size of the learner.
    dataset_size : int >= 1, default 3
        Labeled sample size of the labeled-part enumeration.
    seed : int, default 0
        Seed of the fit that draws the synthetic sample.

    Returns
    -------
    CSSLPrivacy
        Both parts and the combined verdict.

    Raises
    ------
    ValueError
        Invalid arguments, or the fitted learner drew fewer than ``n_synthetic`` distinct synthetic
        points (choose another seed).

    References
    ----------
    001 Theorems 4.2, 4.10, 4.11 and its proof.

    Examples
    --------
    Labeled part: :math:`\ln((1 + 2e^{1})/(1 + 2))` at N = 2, m = 2; unlabeled part: PCDE's
    δ(ε) = δ/4 (counts below the threshold).

    >>> import math
    >>> res = check_private_cssl(1.0, 1e-3, n_synthetic=2, dataset_size=2, unlabeled_size=2)
    >>> closed = math.log((1 + 2 * math.e) / 3)
    >>> abs(res.labeled_closed_form - closed) < 1e-12, round(res.unlabeled.delta_actual / 1e-3, 9)
    (True, 0.25)
    """
    eps_l = check_positive("epsilon", epsilon)
    eps_u = eps_l if epsilon_unlabeled is None else check_positive("epsilon_unlabeled", epsilon_unlabeled)
    delta = check_probability("delta", delta)
    n_syn = check_int("n_synthetic", n_synthetic, low=1)
    m = check_int("dataset_size", dataset_size, low=1)
    pts = np.asarray(unlabeled_points, dtype=float)
    rng = np.random.default_rng(seed)
    # a fit of the real learner on a large unlabeled sample over the same points: its synthetic sample
    U = np.repeat(pts, 40)
    X = np.array([pts.min(), pts.max()])
    est = PrivateCSSL(epsilon=eps_l, epsilon_unlabeled=eps_u, delta=delta, n_synthetic=n_syn, side=side,
                      random_state=rng).fit(X, np.array([0, 1]), X_unlabeled=U)
    syn = est.synthetic_
    if np.unique(syn).size < n_syn:
        raise ValueError(f"the fitted learner drew {np.unique(syn).size} distinct synthetic points, fewer than "
                         f"n_synthetic={n_syn}; choose another seed")
    labeled = check_semi_private(eps_l, public=syn, dataset_size=m)
    closed = semi_private_worst_loss(eps_l, n_syn, m)
    unlabeled = full_dp_pcde(eps_u, delta, points=tuple(pts), dataset_size=check_int("unlabeled_size", unlabeled_size,
                                                                                      low=1), side=side)
    eps_total = max(eps_l, eps_u)
    holds = bool(labeled.holds and within(labeled.epsilon_actual, eps_total) and unlabeled.holds)
    return CSSLPrivacy(labeled=labeled, labeled_closed_form=closed, unlabeled=unlabeled, epsilon=eps_total,
                       delta=delta, holds=holds)
