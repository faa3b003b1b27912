"""Local full DP: a record's feature cell and its label privatized together (003 Remark 1(2)).

Under local DP of features and labels, each record ``(x, y)`` is replaced before collection by a random
output whose law changes by at most ``e^ε`` when the *whole record* changes. A histogram learner only needs
the record's grid cell ``l`` and its label ``y``, so the natural mechanisms act on the joint alphabet of
``M = G·K`` outcomes ``j = l·K + y`` (:func:`joint_index`):

* k-ary randomized response on the M outcomes (004 eq. (1) with K -> M; :func:`joint_rr_counts`);
* the vector (unary) mechanism of 003 eq. (11)-(12) on M bits, each kept with probability
  ``e^{ε/2}/(1 + e^{ε/2})`` (:func:`joint_vector_sums`).

Both are simulated exactly at count level, from the table of (cell, label) counts. Randomized response:
with probability ``λ = M/(e^ε + M − 1)`` a record's output is drawn uniformly from all M outcomes, otherwise
it is kept (``P(keep) = 1 − λ + λ/M = e^ε/(e^ε + M − 1)``, the RR channel), so the output counts are
``n − r + Multinomial(Σ r, 1/M)`` with ``r_j ~ Bin(n_j, λ)``. Vector mechanism: bit ``j`` sums to
``Bin(n_j, a) + Bin(N − n_j, b)``, independent over j (:func:`simulations.estimators.count_level.vector_mechanism_sums`
with one "cell", the whole data set).

References: 003 Remark 1(2) (local DP of features and labels), eq. (11)-(12) (the vector mechanism);
004 eq. (1) (randomized response).
"""

from __future__ import annotations

import math

import numpy as np

from limits.validation import check_int, check_real
from simulations.estimators.count_level import check_counts, vector_mechanism_sums
from simulations.mechanisms.randomized_response import RandomizedResponse
from simulations.mechanisms.vector import VectorMechanism
from simulations.seeding import check_generator

__all__ = ["joint_index", "joint_rr_channel", "joint_rr_counts", "joint_vector_channel", "joint_vector_sums"]


def joint_index(cells, labels, num_classes: int) -> np.ndarray:
    """The joint outcome ``j = cell·K + label`` of each record.

    Parameters
    ----------
    cells : array_like of int
        Grid cells, >= 0.
    labels : array_like of int
        Labels in ``0..K−1``.
    num_classes : int >= 2
        K.

    Returns
    -------
    ndarray of int64

    Raises
    ------
    ValueError
        A label outside ``0..K−1`` or a negative cell.

    References
    ----------
    003 Remark 1(2).

    Examples
    --------
    >>> joint_index([0, 2], [1, 0], 2).tolist()
    [1, 4]
    """
    K = check_int("num_classes", num_classes, low=2)
    c, y = np.asarray(cells, dtype=np.int64), np.asarray(labels, dtype=np.int64)
    if c.size and c.min() < 0:
        raise ValueError(f"cells must be >= 0, got min={int(c.min())}")
    if y.size and (y.min() < 0 or y.max() >= K):
        raise ValueError(f"labels must lie in 0..{K - 1}, got range [{int(y.min())}, {int(y.max())}]")
    return c * K + y


def joint_rr_channel(num_cells: int, num_classes: int, epsilon: float) -> np.ndarray:
    """The channel of randomized response on the joint alphabet: rows and columns indexed by :func:`joint_index`.

    Parameters
    ----------
    num_cells : int >= 1
        G.
    num_classes : int >= 2
        K.
    epsilon : float >= 0

    Returns
    -------
    ndarray of float, shape (G·K, G·K)
        ``e^ε/(e^ε + M − 1)`` on the diagonal, ``1/(e^ε + M − 1)`` elsewhere. Every pair of rows is a pair of
        neighbouring records under local full DP.

    References
    ----------
    004 eq. (1) with K -> G·K; 003 Remark 1(2).

    Examples
    --------
    >>> P = joint_rr_channel(2, 2, math.log(3))
    >>> P[0].tolist()
    [0.5, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666]
    """
    M = check_int("num_cells", num_cells, low=1) * check_int("num_classes", num_classes, low=2)
    return RandomizedResponse(num_classes=M, epsilon=check_real("epsilon", epsilon, low=0.0)).channel_matrix()


def joint_vector_channel(num_cells: int, num_classes: int, epsilon: float) -> np.ndarray:
    """The channel of the vector mechanism (003 eq. (11)-(12)) on the joint alphabet, for small ``G·K``.

    Parameters
    ----------
    num_cells : int >= 1
    num_classes : int >= 2
    epsilon : float >= 0

    Returns
    -------
    ndarray of float, shape (G·K, 2^(G·K))
        Output ``c`` encodes bit ``j`` as ``(c >> j) & 1``.

    Raises
    ------
    ValueError
        ``G·K`` > 16 (the channel has ``2^(G·K)`` columns).

    References
    ----------
    003 eq. (11)-(12); 003 Remark 1(2).

    Examples
    --------
    >>> joint_vector_channel(1, 2, 1.0).shape
    (2, 4)
    """
    M = check_int("num_cells", num_cells, low=1) * check_int("num_classes", num_classes, low=2)
    if M > 16:
        raise ValueError(f"num_cells * num_classes must be <= 16 for the explicit channel, got {M}")
    return VectorMechanism(num_classes=M, epsilon=check_real("epsilon", epsilon, low=0.0)).channel_matrix()


def joint_rr_counts(counts, epsilon: float, rng) -> np.ndarray:
    """Output counts of randomized response on the joint (cell, label) alphabet, drawn from the input counts.

    Parameters
    ----------
    counts : array_like of int, shape (G, K)
        ``n_{ly}``: records per (cell, label).
    epsilon : float >= 0
    rng : numpy.random.Generator or int seed
        The PRIVACY stream.

    Returns
    -------
    ndarray of int64, shape (G, K)
        Records whose privatized output is (cell l, label y); same total.

    Raises
    ------
    ValueError
        Invalid counts, ε or rng.

    References
    ----------
    004 eq. (1) with K -> G·K (exact count-level law, see the module docstring).

    Examples
    --------
    At ε = ∞-like budgets nothing moves; the total is always kept:

    >>> joint_rr_counts([[3, 0], [1, 2]], 50.0, 0).tolist()
    [[3, 0], [1, 2]]
    >>> int(joint_rr_counts([[3, 0], [1, 2]], 0.1, 1).sum())
    6
    """
    n = check_counts(counts)
    if n.ndim != 2:
        raise ValueError(f"counts must have shape (cells, classes), got shape {n.shape}")
    epsilon = check_real("epsilon", epsilon, low=0.0)
    rng = check_generator(rng)
    M = n.size
    lam = M / (math.exp(epsilon) + M - 1) if epsilon < 700 else 0.0
    moved = rng.binomial(n.ravel(), lam)
    out = n.ravel() - moved + rng.multinomial(int(moved.sum()), np.full(M, 1.0 / M))
    return out.reshape(n.shape)


def joint_vector_sums(counts, epsilon: float, rng) -> np.ndarray:
    """Bit sums of the vector mechanism (003 eq. (11)-(12)) on the joint (cell, label) alphabet.

    Parameters
    ----------
    counts : array_like of int, shape (G, K)
        ``n_{ly}``.
    epsilon : float >= 0
        The record-level budget (ε/2 per bit).
    rng : numpy.random.Generator or int seed
        The PRIVACY stream.

    Returns
    -------
    ndarray of int64, shape (G, K)
        ``S_{ly} = Bin(n_{ly}, a) + Bin(N − n_{ly}, b)``: the number of records whose bit (l, y) is 1.

    Raises
    ------
    ValueError
        Invalid counts, ε or rng.

    References
    ----------
    003 eq. (11)-(12) with K -> G·K; 003 Remark 1(2).

    Examples
    --------
    >>> S = joint_vector_sums([[3, 0], [1, 2]], 1.0, 0)
    >>> S.shape, bool(S.max() <= 6)
    ((2, 2), True)
    """
    n = check_counts(counts)
    if n.ndim != 2:
        raise ValueError(f"counts must have shape (cells, classes), got shape {n.shape}")
    mech = VectorMechanism(num_classes=n.size, epsilon=check_real("epsilon", epsilon, low=0.0))
    return vector_mechanism_sums(n.reshape(1, -1), mech, rng).reshape(n.shape)
