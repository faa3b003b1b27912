r"""The exact hockey-stick divergence of a float channel: (ε, δ)-label DP proved in integer arithmetic.

A float channel's entries are exact dyadic rationals. :func:`exact_hockey_stick` makes each row sum to
exactly 1 (the residual of a few ulps goes to the row's largest entry), replaces e^ε by a rational lower
bound from mpmath interval arithmetic (a smaller e^ε can only enlarge every hockey stick), and computes
max_{y≠y'} Σ_z max(0, M[y, z] − e^ε M[y', z]) with Python integers over a common power-of-two
denominator. ``private`` is then a proof that the rationalized channel is (ε, δ)-label DP; it is
independent of the LP that produced the channel (:mod:`proofs_checks.approx_dp_randomizer`) and of
:func:`proofs_checks.privacy_profile.channel_profile` (floats).

References
----------
001 Definition 2.2 ((ε, δ)-DP); 003 Definition 3 (local label DP: neighbours are two labels); 004 eq. (1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from limits.validation import check_probability, check_real

from .dp import as_channel

__all__ = ["ExactHockeyStick", "exact_hockey_stick"]


@dataclass(frozen=True, slots=True)
class ExactHockeyStick:
    """The exact (ε, δ) check of a channel (:func:`exact_hockey_stick`).

    Parameters
    ----------
    max_hockey_stick : fractions.Fraction
        max over ordered pairs y != y' of H(y, y'), exact, with e^ε replaced by a rational lower bound.
    worst_pair : tuple of int
        The pair (y, y') attaining it.
    delta : fractions.Fraction
        δ as an exact rational (the float's value).
    private : bool
        ``max_hockey_stick <= delta``: the rationalized channel is (ε, δ)-label DP, proved.
    row_fix : float
        The largest change the exact row sums made to an entry (a few ulps).

    References
    ----------
    001 Definition 2.2; 003 Definition 3.

    Examples
    --------
    >>> r = exact_hockey_stick([[0.75, 0.25], [0.25, 0.75]], math.log(2), 0.3)
    >>> r.private, r.worst_pair, round(float(r.max_hockey_stick), 12)
    (True, (0, 1), 0.25)
    """

    max_hockey_stick: Fraction
    worst_pair: tuple
    delta: Fraction
    private: bool
    row_fix: float


def _exp_lower(epsilon: float) -> Fraction:
    """A rational e_lo <= e^ε (the float ε exactly), from mpmath interval arithmetic at 100 bits."""
    import mpmath

    ctx = mpmath.iv
    saved, ctx.prec = ctx.prec, 100
    try:
        sign, man, exp, _ = ctx.exp(ctx.mpf(epsilon))._mpi_[0]   # the exact lower endpoint (raw mpf)
    finally:
        ctx.prec = saved
    man = -man if sign else man
    return Fraction(man) * (Fraction(2) ** exp)


def exact_hockey_stick(channel, epsilon, delta) -> ExactHockeyStick:
    """Exact max_{y≠y'} Σ_z max(0, M[y, z] − e^ε M[y', z]) of a float channel made exactly stochastic.

    Every float is a dyadic rational; each row's residual 1 − Σ_z M[y, z] (exact) is added to its
    largest entry, so rows sum to exactly 1; e^ε is replaced by a rational lower bound (mpmath
    intervals), which can only enlarge H, so ``private`` is a proof for the rationalized channel.
    The arithmetic is on Python integers over a common power-of-two denominator.

    Parameters
    ----------
    channel : array_like, shape (K, K')
        Non-negative, rows summing to 1 up to a few ulps (:func:`proofs_checks.dp.as_channel`).
    epsilon : float
        ε >= 0.
    delta : float
        0 <= δ <= 1.

    Returns
    -------
    ExactHockeyStick

    Raises
    ------
    ValueError
        An invalid channel, ε or δ.

    References
    ----------
    001 Definition 2.2 ((ε, δ)-DP); 003 Definition 3 (neighbours = two labels).

    Examples
    --------
    Randomized response at e^ε = 3 (004 eq. (1)): H = 3/4 − 3/4 = 0 at ε = ln 3 (up to the lower
    bound on e^ε), and 1/4 at ε = ln 2:

    >>> float(exact_hockey_stick([[0.75, 0.25], [0.25, 0.75]], math.log(3), 0).max_hockey_stick) < 1e-15
    True
    >>> r = exact_hockey_stick([[0.75, 0.25], [0.25, 0.75]], math.log(2), 0.2)
    >>> r.private, round(float(r.max_hockey_stick), 12)
    (False, 0.25)
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    delta = check_probability("delta", delta, allow_one=True)
    P = as_channel(channel)
    K = P.shape[0]
    ratios = [[float(v).as_integer_ratio() for v in row] for row in P]   # denominators: powers of two
    D = max(den for row in ratios for _, den in row)
    N = np.array([[num * (D // den) for num, den in row] for row in ratios], dtype=object)
    fix = 0
    for row in N:                       # rows sum to exactly D: the residual goes to the largest entry
        res = D - int(row.sum())
        row[int(np.argmax(row))] += res
        fix = max(fix, abs(res))
    fix = float(Fraction(fix, D))
    e = _exp_lower(epsilon)
    a, b = e.numerator, e.denominator
    best, pair = None, (0, 1 if K > 1 else 0)
    for y in range(K):
        h = np.maximum(b * N[y][None, :] - a * N, 0).sum(axis=1)  # H(y, ·) · D · b, integers
        for y2 in range(K):
            if y2 != y and (best is None or h[y2] > best):
                best, pair = h[y2], (y, y2)
    H = Fraction(int(best), D * b) if best is not None else Fraction(0)
    d = Fraction(delta)
    return ExactHockeyStick(max_hockey_stick=H, worst_pair=pair, delta=d, private=H <= d, row_fix=fix)
