"""Exact-arithmetic channels (``fractions.Fraction``) for cross-checking the float ones.

At ε with a rational e^ε (ε = ln 3: e^ε = 3) randomized response, RRTop-k and RRWithPrior have
rational channels; at ε = 2 ln 3 the vector mechanism's per-bit ratio e^{ε/2} = 3 is rational. The
builders here are written independently of :mod:`simulations.mechanisms` (plain loops over the
papers' formulas, exact ties in k*), so agreement with the float channels is a real cross-check.

Every function takes ``E = e^ε`` (or ``R = e^{ε/2}``) as an exact rational (int or Fraction).
"""

from __future__ import annotations

import math
from fractions import Fraction

from limits.validation import check_int

__all__ = ["k_star_exact", "max_ratio_exact", "rr_channel_exact", "rr_top_k_channel_exact",
           "rr_top_k_short_keep_channel_exact", "top_k_exact", "vector_channel_exact"]


def _rational(name, x) -> Fraction:
    if isinstance(x, float):
        raise ValueError(f"{name} must be exact (int or Fraction), got float {name}={x!r}")
    return Fraction(x)


def _positive_rational(name, x) -> Fraction:
    v = _rational(name, x)
    if v <= 0:
        raise ValueError(f"{name} must be > 0 (it is e^epsilon or e^(epsilon/2)), got {name}={x!r}")
    return v


def max_ratio_exact(channel) -> Fraction | float:
    r"""Exact :math:`\max_{y, y', z} P[y][z] / P[y'][z]` of a channel of exact numbers.

    Parameters
    ----------
    channel : sequence of sequence of int or Fraction
        Rows are inputs, columns outputs (rows of equal length).

    Returns
    -------
    Fraction or float
        The largest ratio (``Fraction(1)`` for a non-empty channel with no separating column); 0/0 is
        ignored and p/0 with p > 0 gives ``math.inf``.

    References
    ----------
    003 Definition 3: ε-local label DP is :math:`\max \le e^\varepsilon`.

    Examples
    --------
    Randomized response with K = 3 at :math:`e^\varepsilon = 2` (004 eq. (1)):

    >>> max_ratio_exact(rr_channel_exact(3, 2))
    Fraction(2, 1)
    >>> max_ratio_exact([[1, 0], [Fraction(1, 2), Fraction(1, 2)]])
    inf
    """
    best = Fraction(1) if channel else Fraction(0)
    for z in range(len(channel[0])):
        col = [row[z] for row in channel]
        hi, lo = max(col), min(col)
        if hi == 0:
            continue
        if lo == 0:
            return math.inf
        best = max(best, Fraction(hi) / Fraction(lo))
    return best


def rr_channel_exact(num_classes: int, E) -> list[list[Fraction]]:
    r"""Randomized response's channel in exact arithmetic (004 eq. (1)).

    :math:`E/(E+K-1)` on the diagonal, :math:`1/(E+K-1)` elsewhere, with :math:`E = e^\varepsilon`.

    Parameters
    ----------
    num_classes : int >= 1
        K.
    E : int or Fraction > 0
        :math:`e^\varepsilon`, exact (a float is refused).

    Returns
    -------
    list of list of Fraction
        The K x K channel, rows = labels.

    Raises
    ------
    ValueError
        If ``num_classes`` < 1, or ``E`` is a float or not > 0.

    References
    ----------
    004 eq. (1).

    Examples
    --------
    >>> rr_channel_exact(2, 3)
    [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    """
    num_classes = check_int("num_classes", num_classes, low=1)
    E = _positive_rational("E", E)
    norm = E + num_classes - 1
    return [[E / norm if z == y else 1 / norm for z in range(num_classes)] for y in range(num_classes)]


def top_k_exact(prior, k: int) -> list[int]:
    """:math:`Y_k`: the k labels of largest prior, ties by smaller label index (004 Algorithm 1, step 1).

    Parameters
    ----------
    prior : sequence of int or Fraction
        K exact prior masses (need not be normalized; floats are refused).
    k : int, 1 <= k <= K
        How many labels to keep.

    Returns
    -------
    list of int
        The k labels, largest prior first.

    Raises
    ------
    ValueError
        A float prior entry, k < 1 or k > K.

    References
    ----------
    004 Algorithm 1 (RRTop-k), step 1.

    Examples
    --------
    >>> top_k_exact([2, 1, 2], 2), top_k_exact([Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)], 1)
    ([0, 2], [0])
    """
    p = [_rational("prior", x) for x in prior]
    k = check_int("k", k, low=1)
    if k > len(p):
        raise ValueError(f"k must be <= the number of classes {len(p)}, got k={k}")
    return sorted(range(len(p)), key=lambda i: (-p[i], i))[:k]


def _top_k_channel(prior, k: int, keep: Fraction, other: Fraction) -> list[list[Fraction]]:
    K = len(prior)
    top = top_k_exact(prior, k)
    P = [[Fraction(0)] * K for _ in range(K)]
    for y in range(K):
        for z in top:
            P[y][z] = (keep if z == y else other) if y in top else Fraction(1, k)
    return P


def rr_top_k_channel_exact(prior, k: int, E) -> list[list[Fraction]]:
    r"""RRTop-k's channel in exact arithmetic (004 Algorithm 1).

    For y in :math:`Y_k`: keep y with :math:`E/(E+k-1)`, each other label of :math:`Y_k` with
    :math:`1/(E+k-1)`; for y outside :math:`Y_k`: uniform on :math:`Y_k`; labels outside
    :math:`Y_k` are never output.

    Parameters
    ----------
    prior : sequence of int or Fraction
        K exact prior masses (they choose :math:`Y_k`, :func:`top_k_exact`).
    k : int, 1 <= k <= K
        Size of :math:`Y_k`.
    E : int or Fraction
        :math:`e^\varepsilon`, exact.

    Returns
    -------
    list of list of Fraction
        The K x K channel, rows = labels.

    Raises
    ------
    ValueError
        A float ``E`` or prior entry, or k out of range.

    References
    ----------
    004 Algorithm 1, Lemma 1.

    Examples
    --------
    K = 3, prior (3, 2, 1), k = 2, :math:`e^\varepsilon = 3`: rows of :math:`Y_2 = \{0, 1\}` keep
    with 3/4; label 2 goes to 0 or 1 with 1/2 each; the loss is ln 3 exactly (Lemma 1, tight).

    >>> P = rr_top_k_channel_exact([3, 2, 1], 2, 3)
    >>> [[str(v) for v in row] for row in P], max_ratio_exact(P)
    ([['3/4', '1/4', '0'], ['1/4', '3/4', '0'], ['1/2', '1/2', '0']], Fraction(3, 1))
    """
    E = _rational("E", E)
    return _top_k_channel(prior, k, E / (E + k - 1), 1 / (E + k - 1))


def rr_top_k_short_keep_channel_exact(prior, k: int, E) -> list[list[Fraction]]:
    r"""The planted bug :class:`~proofs_checks.mechanisms.randomized_response.RRTopKShortKeep` in exact arithmetic.

    A wrong 004 Algorithm 1: keep y with :math:`E/(E+k)`, the rest uniform over :math:`Y_k`
    minus y; labels outside :math:`Y_k` uniform on :math:`Y_k`. Needs k >= 2.

    Parameters
    ----------
    prior : sequence of int or Fraction
        K exact prior masses.
    k : int, 2 <= k <= K
        Size of :math:`Y_k`.
    E : int or Fraction
        :math:`e^\varepsilon`, exact.

    Returns
    -------
    list of list of Fraction
        The K x K channel.

    Raises
    ------
    ValueError
        A float ``E`` or prior entry, or k out of range.
    ZeroDivisionError
        If k = 1 (no other label receives the mass).

    References
    ----------
    004 Algorithm 1 (the correct keep probability is :math:`E/(E+k-1)`).

    Examples
    --------
    K = 3, k = 2, E = 3: keep 3/5, other 2/5, outside 1/2; the loss is
    :math:`|\varepsilon - \ln(k/(k-1))| = \ln 3 - \ln 2`, i.e. a ratio of 3/2 (not 3).

    >>> max_ratio_exact(rr_top_k_short_keep_channel_exact([3, 2, 1], 2, 3))
    Fraction(3, 2)
    """
    E = _rational("E", E)
    keep = E / (E + k)
    return _top_k_channel(prior, k, keep, (1 - keep) / (k - 1))


def k_star_exact(prior, E) -> int:
    r""":math:`k^*` of RRWithPrior in exact arithmetic: the smallest maximizer of :math:`w_k`.

    :math:`w_k = E/(E+k-1) \cdot \sum_{\text{top } k} p` (004 Algorithm 2, steps 1-2), with
    :math:`E = e^\varepsilon`.

    Parameters
    ----------
    prior : sequence of int or Fraction
        K exact prior masses.
    E : int or Fraction
        :math:`e^\varepsilon`, exact.

    Returns
    -------
    int
        :math:`k^* \in \{1, ..., K\}`.

    Raises
    ------
    ValueError
        A float ``E`` or prior entry.

    References
    ----------
    004 Algorithm 2.

    Examples
    --------
    Prior (1/2, 3/10, 1/5), E = 3: :math:`w = (1/2, 3/5, 3/5)`, a tie resolved to the smaller k.

    >>> k_star_exact([Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)], 3)
    2
    """
    E = _rational("E", E)
    srt = sorted((_rational("prior", x) for x in prior), reverse=True)
    w = [E / (E + k - 1) * sum(srt[:k]) for k in range(1, len(srt) + 1)]
    return 1 + w.index(max(w))


def vector_channel_exact(num_classes: int, R) -> list[list[Fraction]]:
    r"""The K-bit vector mechanism's channel in exact arithmetic (000 eq. (12)-(13)), :math:`R = e^{\varepsilon/2}`.

    :math:`P(z \mid y) = \prod_j P(Z(j) = z(j) \mid y)`, bit j is 1 with probability
    :math:`R/(1+R)` if j = y, else :math:`1/(1+R)`; column c is the bit vector with
    :math:`z(j) = (c \gg j) \,\&\, 1`.

    Parameters
    ----------
    num_classes : int >= 1
        K (the channel has :math:`2^K` columns).
    R : int or Fraction > 0
        :math:`e^{\varepsilon/2}`, exact.

    Returns
    -------
    list of list of Fraction
        The K x :math:`2^K` channel.

    Raises
    ------
    ValueError
        If ``num_classes`` < 1, or ``R`` is a float or not > 0.

    References
    ----------
    000 eq. (12)-(13), Theorem 1 (the loss is :math:`R^2 = e^\varepsilon`, attained).

    Examples
    --------
    K = 2 at R = 3 (ε = 2 ln 3): the worst ratio is :math:`R^2 = 9`.

    >>> P = vector_channel_exact(2, 3)
    >>> [str(v) for v in P[0]], max_ratio_exact(P)
    (['3/16', '9/16', '1/16', '3/16'], Fraction(9, 1))
    """
    num_classes = check_int("num_classes", num_classes, low=1)
    R = _positive_rational("R", R)
    a, b = R / (1 + R), 1 / (1 + R)
    rows = []
    for y in range(num_classes):
        row = []
        for c in range(1 << num_classes):
            p = Fraction(1)
            for j in range(num_classes):
                one = a if j == y else b
                p *= one if (c >> j) & 1 else 1 - one
            row.append(p)
        rows.append(row)
    return rows
