"""Exact privacy profiles of multi-release pipelines, by enumeration, to check :mod:`simulations.accounting`.

Each function computes δ(ε') = max over neighbouring label vectors (one label replaced) of
Σ_o max(0, P(o | y) - e^{ε'} P(o | y')) for a whole pipeline on a tiny instance, without the ledger's
code: it enumerates every labelling and every output of the pipeline.

* :func:`product_profile`: k releases of one label through a fixed channel (the k-fold product
  channel, m^k outputs), max over ordered label pairs;
* :func:`lp_mst_profile`: LP-MST's privatized labels (004 Algorithm 3), from
  :func:`proofs_checks.lp_mst_check.lp_mst_log_probabilities` (every labelling, every output);
* :func:`cluster_prior_profile`: 004 Algorithm 4 on one cluster: the dlaplace(ε_p/2) histogram of the
  cluster's labels, then RRWithPrior at ε under the prior of that noisy histogram, on every label;
  outputs (noisy histogram, privatized labels), the histogram over a window whose outside mass is below
  :data:`TAIL` (reported; the truncated sum is a lower bound within it);
* :func:`pcl2b_label_profile`: 001 Algorithm 5 under label DP (a label change moves one unit of one
  cell's label-1 count, the point counts stay): the largest hockey stick of the changed cell's bit.

:func:`epsilon_for_delta` inverts a profile by bisection.

References: 001 Definition 1.1; 004 Algorithms 2-4, Observation 4; 001 Algorithm 5, Theorem A.14.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from limits.validation import check_int, check_positive, check_probability
from proofs_checks.full_dp import pcl2b_probability_one
from proofs_checks.privacy_profile import hockey_stick

__all__ = ["TAIL", "cluster_prior_log_probabilities", "cluster_prior_profile", "epsilon_for_delta", "lp_mst_profile",
           "pcl2b_label_profile", "max_loss_from_log", "product_profile", "profile_from_log"]

#: the largest mass of the noisy histogram left outside :func:`cluster_prior_profile`'s window
TAIL = 1e-15


def product_profile(channel, k: int, epsilon_prime) -> np.ndarray:
    r"""δ(ε') of k releases of one label through ``channel``, by enumerating the k-fold product channel.

    Parameters
    ----------
    channel : array_like, shape (K, m)
        Rows P(z | y).
    k : int >= 1
        Releases; the product channel has :math:`m^k` outputs (at most 10^6).
    epsilon_prime : array_like of float, shape (n,)
        The ε'.

    Returns
    -------
    ndarray, shape (n,)
        :math:`\max_{y \ne y'} \sum_{z \in [m]^k} (\prod_j M[y, z_j] - e^{\varepsilon'} \prod_j M[y', z_j])_+`.

    Raises
    ------
    ValueError
        If ``k`` < 1 or :math:`m^k` > 10^6.

    References
    ----------
    004 eq. (1); 001 Definition 1.1.

    Examples
    --------
    Two binary RR releases at ε = ln 3: the products are (9, 3, 3, 1)/16 against (1, 3, 3, 9)/16;
    at ε' = ln 3, δ = (9 - 3)/16 = 3/8:

    >>> M = [[0.75, 0.25], [0.25, 0.75]]
    >>> product_profile(M, 2, [math.log(3)]).round(12).tolist()
    [0.375]
    """
    M = np.asarray(channel, dtype=float)
    k = check_int("k", k, low=1)
    if M.shape[1] ** k > 10**6:
        raise ValueError(f"m^k = {M.shape[1] ** k} outputs is too many to enumerate (max 10^6)")
    rows = []
    for y in range(M.shape[0]):
        p = np.ones(1)
        for _ in range(k):
            p = np.outer(p, M[y]).ravel()
        rows.append(p)
    eps = np.atleast_1d(np.asarray(epsilon_prime, dtype=float))
    return np.max([hockey_stick(rows[a], rows[b], eps) for a, b in itertools.permutations(range(len(rows)), 2)],
                  axis=0)


def profile_from_log(logp: np.ndarray, epsilon_prime) -> np.ndarray:
    r"""δ(ε') of a pipeline given :math:`\log P(o \mid y)` for every labelling y and output o.

    The largest :math:`\sum_o (P(o|y) - e^{\varepsilon'} P(o|y'))_+` over labellings y, y' that differ
    in exactly one coordinate (label-DP neighbours).

    Parameters
    ----------
    logp : ndarray, shape (K,)*n + (n_outputs,)
        ``logp[y_1, ..., y_n, o]`` (``-inf`` for probability 0).
    epsilon_prime : array_like of float, shape (m,)
        The ε'.

    Returns
    -------
    ndarray, shape (m,)
        The profile.

    References
    ----------
    001 Definition 1.1 (label neighbours: one label replaced).

    Examples
    --------
    One binary RR label at ε = ln 3 (rows (3/4, 1/4), (1/4, 3/4)): δ(0) = 1/2.

    >>> profile_from_log(np.log([[0.75, 0.25], [0.25, 0.75]]), [0.0]).round(12).tolist()
    [0.5]
    """
    n, K = logp.ndim - 1, logp.shape[0]
    P = np.exp(logp)
    eps = np.atleast_1d(np.asarray(epsilon_prime, dtype=float))
    best = np.zeros(eps.size)
    for i in range(n):
        for a, b in itertools.permutations(range(K), 2):
            pa, pb = np.take(P, a, axis=i), np.take(P, b, axis=i)
            for j, e in enumerate(eps):
                best[j] = max(best[j], float(np.maximum(0.0, pa - math.exp(e) * pb).sum(axis=-1).max()))
    return best


def lp_mst_profile(est, X, stages, epsilon_prime) -> np.ndarray:
    """δ(ε') of LP-MST's privatized labels over every labelling of a tiny data set (004 Algorithm 3).

    Parameters
    ----------
    est : simulations.learning.LPMST
        The estimator (its stage methods are called, as in :mod:`proofs_checks.lp_mst_check`).
    X : array_like, shape (n, ...)
        Features.
    stages : array_like of int, shape (n,)
        A fixed partition using every stage.
    epsilon_prime : array_like of float, shape (m,)
        The ε'.

    Returns
    -------
    ndarray, shape (m,)
        The exact profile.

    References
    ----------
    004 Algorithm 3, Observation 4.

    Examples
    --------
    Two examples, 1-NN, K = 3: stage 2 copies z_0 (see :func:`proofs_checks.lp_mst_check.lp_mst_log_probabilities`),
    so the profile is stage 1's ternary RR at ε: :math:`(e^ε - e^{ε'})/(e^ε + 2)`:

    >>> from simulations.learning import LPMST, SoftKNNClassifier
    >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=1.0, num_stages=2)
    >>> d = lp_mst_profile(est, np.array([[0.0], [1.0]]), np.array([0, 1]), [0.5])
    >>> bool(abs(d[0] - (math.e - math.exp(0.5)) / (math.e + 2)) < 1e-12)
    True
    """
    from proofs_checks.lp_mst_check import lp_mst_log_probabilities

    return profile_from_log(lp_mst_log_probabilities(est, X, stages), epsilon_prime)


def _dlaplace_window(a: float) -> int:
    """Half-width w with P(|Z| > w) = 2 r^{w+1}/(1+r) below TAIL / 10 (r = e^{-a})."""
    return int(math.ceil((math.log(10 / TAIL) + math.log(2)) / a))


def cluster_prior_log_probabilities(num_classes: int, n: int, epsilon_prior: float, epsilon: float) -> np.ndarray:
    r""":math:`\log P(\tilde H, z \mid y)` of 004 Algorithm 4 on one cluster of ``n`` labels, every y, every output.

    Output: the noisy histogram :math:`\tilde H = H(y) + Z`, Z i.i.d. dlaplace(ε_p/2), and every label
    privatized by RRWithPrior at ε under the prior :math:`\max(\tilde H, 0)/\sum` (uniform if no count is
    positive):
    :math:`P(\tilde H, z \mid y) = \prod_k \mathrm{dlap}(\tilde H_k - H_k(y)) \prod_i C_{\tilde H}[y_i, z_i]`,
    over :math:`\tilde H` in a window around [0, n] per count (outside mass < :data:`TAIL`) and z in
    :math:`[K]^n`.

    Parameters
    ----------
    num_classes : int >= 2
        K (the window has about (n + 2w)^K histograms: K = 2 here).
    n : int >= 1
        Labels in the cluster.
    epsilon_prior : float > 0
        ε_p of the histogram.
    epsilon : float > 0
        ε of RRWithPrior (004's ε - ε_p).

    Returns
    -------
    ndarray, shape (K,)*n + (n_histograms * K**n,)
        For :func:`profile_from_log`.

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Algorithm 4 (steps (a)-(d)), Algorithm 2.

    Examples
    --------
    The probabilities of one labelling sum to 1 up to the window's outside mass:

    >>> lp = cluster_prior_log_probabilities(2, 1, 1.0, 0.5)
    >>> bool(abs(np.exp(lp[0]).sum() - 1) < 1e-14)
    True
    """
    from simulations.mechanisms import GeometricHistogram, RRWithPrior

    K, n = check_int("num_classes", num_classes, low=2), check_int("n", n, low=1)
    a = check_positive("epsilon_prior", epsilon_prior) / 2
    rr = RRWithPrior(K, check_positive("epsilon", epsilon))
    w = _dlaplace_window(a)
    grid = np.arange(-w, n + w + 1)
    H = np.stack(np.meshgrid(*([grid] * K), indexing="ij"), axis=-1).reshape(-1, K)  # noisy histograms
    priors, inverse = np.unique(GeometricHistogram.priors(H), axis=0, return_inverse=True)
    C = np.stack([rr.channel_matrix(p) for p in priors])[inverse.ravel()]  # (h, K, K), one call per prior
    labellings = list(itertools.product(range(K), repeat=n))
    outputs = list(itertools.product(range(K), repeat=n))
    log_dl = math.log(math.tanh(a / 2))
    logp = np.empty((len(labellings), H.shape[0], len(outputs)))
    with np.errstate(divide="ignore"):
        logC = np.log(C)
    for u, y in enumerate(labellings):
        counts = np.bincount(np.asarray(y), minlength=K)
        lh = (log_dl - a * np.abs(H - counts)).sum(axis=1)
        for v, z in enumerate(outputs):
            logp[u, :, v] = lh + sum(logC[:, y[i], z[i]] for i in range(n))
    return logp.reshape((K,) * n + (-1,))


def max_loss_from_log(logp: np.ndarray) -> float:
    r"""The largest :math:`|\log P(o|y) - \log P(o|y')|` over label-DP neighbours and outputs (0/0 ignored).

    Parameters
    ----------
    logp : ndarray, shape (K,)*n + (n_outputs,)
        As for :func:`profile_from_log`.

    Returns
    -------
    float
        The pure loss (``inf`` where one neighbour has probability 0 and the other not).

    References
    ----------
    docs/design.md, *Exactness and the privacy checks* (0/0 ignored, p/0 infinite).

    Examples
    --------
    >>> round(max_loss_from_log(np.log([[0.75, 0.25], [0.25, 0.75]])), 12) == round(math.log(3), 12)
    True
    """
    n, K = logp.ndim - 1, logp.shape[0]
    loss = 0.0
    for i in range(n):
        for b, c in itertools.permutations(range(K), 2):
            la, lb = np.take(logp, b, axis=i), np.take(logp, c, axis=i)
            live = np.isfinite(la)
            with np.errstate(invalid="ignore"):
                gap = np.where(live & np.isfinite(lb), la - lb, np.where(live, np.inf, -np.inf))
            loss = max(loss, float(gap.max()))
    return loss


def cluster_prior_profile(num_classes: int, n: int, epsilon_prior: float, epsilon: float, epsilon_prime):
    r"""Exact δ(ε') and pure loss of 004 Algorithm 4 on one cluster of ``n`` labels.

    From :func:`cluster_prior_log_probabilities` (every labelling and its neighbours, every output in the
    window) by :func:`profile_from_log` and :func:`max_loss_from_log`.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    n : int >= 1
        Labels in the cluster.
    epsilon_prior : float > 0
        ε_p of the histogram.
    epsilon : float > 0
        ε of RRWithPrior (004's ε - ε_p).
    epsilon_prime : array_like of float, shape (m,)
        The ε'.

    Returns
    -------
    delta : ndarray, shape (m,)
        The profile (a lower bound within :data:`TAIL`).
    loss : float
        The pure loss over the window's outputs.

    References
    ----------
    004 Algorithm 4 (steps (a)-(d)), Algorithm 2.

    Examples
    --------
    One label alone (y = 0 against 1, histograms (1, 0) against (0, 1)): the histogram's ratio is
    :math:`e^{ε_p}` only where :math:`\tilde H_1 \le 0`, where the prior is one-hot and RRWithPrior
    outputs the top class whatever the label; where both counts are positive the two counts' ratios
    cancel. So the loss is max(ε_p, ε) = 1, not ε_p + ε. With a second label of class 1 in the cluster,
    :math:`\tilde H = (1, 1)` has the histogram's full ratio and a two-class prior: ε_p + ε = 1.5.

    >>> [round(cluster_prior_profile(2, n, 1.0, 0.5, [0.0])[1], 9) for n in (1, 2)]
    [1.0, 1.5]
    """
    logp = cluster_prior_log_probabilities(num_classes, n, epsilon_prior, epsilon)
    return profile_from_log(logp, epsilon_prime), max_loss_from_log(logp)


def pcl2b_label_profile(epsilon: float, delta: float, max_count: int, epsilon_prime) -> np.ndarray:
    r"""δ(ε') of 001 Algorithm 5 under label DP, over cells of up to ``max_count`` points.

    A label change moves the changed cell's label-1 count k to k ± 1 with its point count c fixed;
    the other cells' bits do not move and cancel, so δ(ε') is the largest hockey stick of the cell's
    bit, Bernoulli(:func:`~proofs_checks.full_dp.pcl2b_probability_one` (c, k + 1)) against (c, k),
    both ways, over 1 <= c <= ``max_count``, 0 <= k < c.

    Parameters
    ----------
    epsilon : float > 0
        ε of each stability histogram.
    delta : float in (0, 1)
        δ of each.
    max_count : int >= 1
        Largest cell count enumerated.
    epsilon_prime : array_like of float, shape (m,)
        The ε'.

    Returns
    -------
    ndarray, shape (m,)
        The profile.

    References
    ----------
    001 Algorithm 5, Theorem A.14, Algorithm 1.

    Examples
    --------
    >>> d = pcl2b_label_profile(1.0, 1e-3, 4, [1.0])
    >>> bool(0 <= d[0] <= 1e-3)
    True
    """
    from simulations.mechanisms import StabilityHistogram

    mech = StabilityHistogram(check_positive("epsilon", epsilon), check_probability("delta", delta))
    eps = np.atleast_1d(np.asarray(epsilon_prime, dtype=float))
    best = np.zeros(eps.size)
    for c in range(1, check_int("max_count", max_count, low=1) + 1):
        p = [pcl2b_probability_one(mech, c, k) for k in range(c + 1)]
        for k in range(c):
            P, Q = np.array([1 - p[k + 1], p[k + 1]]), np.array([1 - p[k], p[k]])
            best = np.maximum(best, np.maximum(hockey_stick(P, Q, eps), hockey_stick(Q, P, eps)))
    return best


def epsilon_for_delta(profile, delta: float, *, high: float, tol: float = 1e-9) -> float:
    """The smallest ε' in [0, high] with ``profile(ε') <= delta``, by bisection (a profile is non-increasing).

    Parameters
    ----------
    profile : callable
        ε' (float) -> δ(ε') (float).
    delta : float in [0, 1)
        The target.
    high : float > 0
        An ε' where the profile is at most ``delta`` (e.g. the pure loss).
    tol : float, default 1e-9
        Width of the final bracket.

    Returns
    -------
    float
        ε(δ) within ``tol`` (from above).

    References
    ----------
    001 Definition 1.1.

    Examples
    --------
    Binary RR at ε = ln 3: δ(ε') = (3 - e^{ε'})/4, so δ = 1/4 at ε' = ln 2:

    >>> round(epsilon_for_delta(lambda e: max(0.0, (3 - math.exp(e)) / 4), 0.25, high=math.log(3)), 8)
    0.69314718
    """
    d = check_probability("delta", delta)
    lo, hi = 0.0, check_positive("high", high)
    if profile(lo) <= d:
        return 0.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if profile(mid) <= d else (mid, hi)
    return hi
