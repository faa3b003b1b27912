"""Group privacy of the suite's finite channels in exact arithmetic (004 Fact 14).

004 Fact 14 (group privacy, Steinke and Ullman, Fact 2.3): an (ε, δ)-label-DP algorithm satisfies, for
data sets that differ in k labels, ``Pr[A(S) ∈ T] ≤ e^{kε} Pr[A(S') ∈ T] + (e^{kε} − 1)/(e^ε − 1) · δ``.
For a local randomizer applied to each label (randomized response, RRTop-k, RRWithPrior) the k changed
labels go through k independent copies of the channel, so the exact group profile is that of the
product channel ``P^{⊗k}`` between two label tuples: this module enumerates it with ``fractions.Fraction``
at a rational ``E = e^ε`` (every channel entry is then rational, so nothing is rounded):

* :func:`group_ratio` — the largest likelihood ratio of ``P^{⊗k}`` (pure group privacy: at most ``E^k``);
* :func:`group_delta` — the exact δ of ``P^{⊗k}`` at ``e^{kε₀} = E₀^k``, the hockey-stick divergence
  maximized over all pairs of label tuples;
* :func:`fact14_factor` — Fact 14's ``(E₀^k − 1)/(E₀ − 1)`` and the cruder ``k E₀^{k−1}`` it implies.

References: 004 Appendix F.4, Fact 14 and Lemma 15; Steinke and Ullman (2015), Fact 2.3.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from limits.validation import check_int

from .exact import _positive_rational, k_star_exact, rr_channel_exact, rr_top_k_channel_exact

__all__ = ["binary_approximate_rr_exact", "exact_channels", "fact14_factor", "group_delta", "group_ratio", "product_channel"]


def _exact_channel(channel) -> list[list[Fraction]]:
    rows = [[Fraction(v) if not isinstance(v, float) else None for v in row] for row in channel]
    if not rows or any(None in row for row in rows) or len({len(r) for r in rows}) != 1:
        raise ValueError("channel must be a non-empty rectangular table of exact numbers (int or Fraction), "
                         f"got channel={channel!r}")
    if any(v < 0 for row in rows for v in row) or any(sum(row) != 1 for row in rows):
        raise ValueError(f"channel rows must be probability vectors, got channel={channel!r}")
    return rows


def product_channel(channel, k: int) -> list[list[Fraction]]:
    r"""The k-fold product channel :math:`P^{\otimes k}`: rows = label tuples, columns = output tuples.

    Parameters
    ----------
    channel : sequence of sequence of int or Fraction, shape (K, O)
        An exact channel, rows = labels (probability vectors).
    k : int >= 1
        Number of labels.

    Returns
    -------
    list of list of Fraction, shape (K^k, O^k)
        Entry (a, z) is :math:`\prod_j P[a_j][z_j]`, tuples in ``itertools.product`` order.

    Raises
    ------
    ValueError
        A channel that is not exact or not row-stochastic, or k < 1.

    References
    ----------
    004 Fact 14 (k labels of a data set changed, each privatized independently).

    Examples
    --------
    >>> rr = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    >>> [str(v) for v in product_channel(rr, 2)[0]]
    ['9/16', '3/16', '3/16', '1/16']
    """
    rows = _exact_channel(channel)
    k = check_int("k", k, low=1)
    out = []
    for labels in itertools.product(range(len(rows)), repeat=k):
        out.append([_prod(rows[a][z] for a, z in zip(labels, zs))
                    for zs in itertools.product(range(len(rows[0])), repeat=k)])
    return out


def _prod(values) -> Fraction:
    r = Fraction(1)
    for v in values:
        r *= v
    return r


def group_ratio(channel, k: int) -> Fraction | float:
    """The largest likelihood ratio P^{⊗k}(z | a) / P^{⊗k}(z | b) over label tuples a, b and outputs z.

    Parameters
    ----------
    channel : sequence of sequence of int or Fraction
        An exact channel (rows = labels).
    k : int >= 1
        Number of changed labels.

    Returns
    -------
    Fraction or float
        ``e^{loss}`` of k changed labels; ``float("inf")`` when some output has zero probability under b
        but not under a.

    Raises
    ------
    ValueError
        As :func:`product_channel`.

    References
    ----------
    004 Fact 14 with δ = 0: loss at most kε.

    Examples
    --------
    Randomized response at E = 3, K = 2: two changed labels give exactly 3² (Fact 14 is tight here):

    >>> group_ratio([[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]], 2)
    Fraction(9, 1)
    """
    P = product_channel(channel, k)
    best = Fraction(1)
    for z in range(len(P[0])):
        col = [row[z] for row in P]
        hi, lo = max(col), min(col)
        if hi > 0 and lo == 0:
            return float("inf")
        if hi > 0:
            best = max(best, hi / lo)
    return best


def group_delta(channel, k: int, E0) -> Fraction:
    r"""Exact δ of :math:`P^{\otimes k}` at :math:`e^{k\varepsilon_0} = E_0^k`: :math:`\max_{a,b} \sum_z (P(z|a) - E_0^k P(z|b))_+`.

    Parameters
    ----------
    channel : sequence of sequence of int or Fraction
        An exact channel (rows = labels).
    k : int >= 1
        Number of changed labels (all pairs of k-tuples are enumerated, so pairs that differ in fewer
        labels are included).
    E0 : int or Fraction > 0
        :math:`e^{\varepsilon_0}`, exact.

    Returns
    -------
    Fraction
        The smallest δ_k with which k changed labels are :math:`(k\varepsilon_0, \delta_k)`-indistinguishable.

    Raises
    ------
    ValueError
        As :func:`product_channel`, or ``E0`` not an exact positive number.

    References
    ----------
    004 Fact 14.

    Examples
    --------
    Randomized response at E = 3 read at E₀ = 2: δ₁ = 3/4 − 2/4 = 1/4; two labels at E₀² = 4:
    9/16 − 4/16 = 5/16, below Fact 14's (4 − 1)/(2 − 1) · 1/4 = 3/4:

    >>> rr = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    >>> group_delta(rr, 1, 2), group_delta(rr, 2, 2)
    (Fraction(1, 4), Fraction(5, 16))
    """
    E0 = _positive_rational("E0", E0)
    P = product_channel(channel, k)
    scale = E0 ** check_int("k", k, low=1)
    return max(sum((p - scale * q for p, q in zip(a, b) if p > scale * q), Fraction(0)) for a in P for b in P)


def fact14_factor(E0, k: int) -> tuple[Fraction, Fraction]:
    """Fact 14's δ multiplier ``(E₀^k − 1)/(E₀ − 1) = Σ_{j<k} E₀^j`` and the cruder ``k E₀^{k−1}``.

    Parameters
    ----------
    E0 : int or Fraction > 0
        ``e^ε`` of the (ε, δ) guarantee being grouped, exact.
    k : int >= 1
        Group size.

    Returns
    -------
    (Fraction, Fraction)
        ``(Σ_{j<k} E₀^j, k E₀^{k−1})``; the first is at most the second.

    Raises
    ------
    ValueError
        If ``E0`` is not an exact positive number or k < 1.

    References
    ----------
    004 Fact 14 (printed as (e^{kε} − 1)/(e^ε − 1), which is Σ_{j<k} e^{jε} and also the value at ε = 0 by
    continuity, k).

    Examples
    --------
    >>> fact14_factor(2, 3)
    (Fraction(7, 1), Fraction(12, 1))
    """
    E0 = _positive_rational("E0", E0)
    k = check_int("k", k, low=1)
    return sum((E0 ** j for j in range(k)), Fraction(0)), k * E0 ** (k - 1)


def binary_approximate_rr_exact(E, delta) -> list[list[Fraction]]:
    r"""The (ε, δ) binary randomized response: keep the label with :math:`(E + \delta)/(E + 1)`.

    It is (ε, δ)-DP with exactly that δ (:math:`p - E(1 - p) = \delta`), and it attains 004 eq. (13):
    :math:`\Pr[\text{correct sign}] = (e^\varepsilon + \delta)/(e^\varepsilon + 1)`.

    Parameters
    ----------
    E : int or Fraction > 0
        :math:`e^\varepsilon`, exact.
    delta : int or Fraction in [0, 1]
        δ, exact.

    Returns
    -------
    list of list of Fraction, shape (2, 2)

    Raises
    ------
    ValueError
        A float or out-of-range argument.

    References
    ----------
    004 eq. (13) (proof of Proposition 13).

    Examples
    --------
    >>> [[str(v) for v in row] for row in binary_approximate_rr_exact(3, Fraction(1, 10))]
    [['31/40', '9/40'], ['9/40', '31/40']]
    """
    E = _positive_rational("E", E)
    if isinstance(delta, float) or not 0 <= Fraction(delta) <= 1:
        raise ValueError(f"delta must be an exact number in [0, 1], got delta={delta!r}")
    keep = (E + Fraction(delta)) / (E + 1)
    return [[keep, 1 - keep], [1 - keep, keep]]


def exact_channels(E) -> dict:
    r"""The suite's finite label channels at :math:`e^\varepsilon = E`, exact: the cases of the Fact 14 checks.

    Randomized response (K = 2, 3), RRTop-2 and RRWithPrior for K = 3 with prior (1/2, 3/10, 1/5), and binary
    (ln 3, 1/10)-randomized response (:func:`binary_approximate_rr_exact`, the (ε, δ) channel of 004 eq. (13)).

    Parameters
    ----------
    E : int or Fraction > 0
        :math:`e^\varepsilon`, exact.

    Returns
    -------
    dict of str to list of list of Fraction
        Name -> channel (rows = labels), built by :mod:`proofs_checks.exact` from the papers' formulas.

    Raises
    ------
    ValueError
        A float or non-positive ``E``.

    References
    ----------
    004 eq. (1), Algorithms 1-2, eq. (13), Fact 14.

    Examples
    --------
    >>> list(exact_channels(3))
    ['RR K=2', 'RR K=3', 'RRTop-2 K=3', 'RRWithPrior K=3 (k*=2)', 'binary (ln 3, 1/10)-RR']
    """
    prior = [Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)]
    k_star = k_star_exact(prior, E)
    return {"RR K=2": rr_channel_exact(2, E), "RR K=3": rr_channel_exact(3, E),
            "RRTop-2 K=3": rr_top_k_channel_exact(prior, 2, E),
            f"RRWithPrior K=3 (k*={k_star})": rr_top_k_channel_exact(prior, k_star, E),
            "binary (ln 3, 1/10)-RR": binary_approximate_rr_exact(3, Fraction(1, 10))}
