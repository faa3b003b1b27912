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
    """max over (y, y', z) of P[y][z] / P[y'][z]; 0/0 ignored, p/0 gives ``math.inf``."""
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
    """004 eq. (1): E/(E+K-1) on the diagonal, 1/(E+K-1) elsewhere."""
    num_classes = check_int("num_classes", num_classes, low=1)
    E = _positive_rational("E", E)
    norm = E + num_classes - 1
    return [[E / norm if z == y else 1 / norm for z in range(num_classes)] for y in range(num_classes)]


def top_k_exact(prior, k: int) -> list[int]:
    """Y_k: the k labels of largest prior, ties by smaller label index (004 Algorithm 1, step 1).

    ``prior`` is a sequence of K exact numbers (ints / Fractions); 1 <= k <= K.
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
    """004 Algorithm 1 with exact probabilities."""
    E = _rational("E", E)
    return _top_k_channel(prior, k, E / (E + k - 1), 1 / (E + k - 1))


def rr_top_k_short_keep_channel_exact(prior, k: int, E) -> list[list[Fraction]]:
    """The planted bug of :class:`proofs_checks.mechanisms.randomized_response.RRTopKShortKeep` (a wrong 004 Algorithm 1):
    keep E/(E+k), the rest uniform over Y_k minus y."""
    E = _rational("E", E)
    keep = E / (E + k)
    return _top_k_channel(prior, k, keep, (1 - keep) / (k - 1))


def k_star_exact(prior, E) -> int:
    """004 Algorithm 2: the smallest maximizer of w_k = E/(E+k-1) * (sum of the k largest priors)."""
    E = _rational("E", E)
    srt = sorted((_rational("prior", x) for x in prior), reverse=True)
    w = [E / (E + k - 1) * sum(srt[:k]) for k in range(1, len(srt) + 1)]
    return 1 + w.index(max(w))


def vector_channel_exact(num_classes: int, R) -> list[list[Fraction]]:
    """000 eq. (12)-(13) with R = e^{ε/2}: P(z | y) = prod_j P(Z(j) = z(j) | y), column c has z(j) = (c >> j) & 1."""
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
