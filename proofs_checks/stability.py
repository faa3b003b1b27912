"""Exact privacy profile δ(ε') of 001 Algorithm 1's stability-based histogram (label DP, replace one).

Only the two cells whose counts change matter (the other cells are identical independent factors,
which cancel from the hockey-stick integral). Each released cell is a mixture of an atom at 0 and
a Laplace density on ``[threshold, ∞)``; its log-likelihood ratio is constant except on the unit
interval between the two counts, so every cell reduces to at most three merged outcomes (masses
from Laplace CDFs in closed form) plus a "middle" piece with linear log-ratio whose 1-D hockey-stick
integral is again closed form (:func:`_cell_hockey_stick`). The 2-D integral is the sum over the
first cell's outcomes of (its mass) × (the second cell's closed form at a shifted ε'); only when
both cells have a middle piece (both counts above the threshold) is one 1-D integral left, done by
adaptive quadrature (``scipy.integrate.quad``, absolute error below 1e-13).
Over *all* datasets: if every affected count is >= 1 on both sides, the two released cells are a
post-processing of the plain 2-D Laplace outputs, so their δ is at most the plain Laplace profile
(and tends to it as the counts grow); the remaining pairs are the families where a count is 0 on
one side ((1, b) <-> (0, b+1) and (a, 0) <-> (a-1, 1)), computed exactly for counts up to
``max_count`` (beyond which the cell is a plain Laplace cell up to mass ``e^{-(count-threshold)/b}``).

Idealized real arithmetic (the Laplace sampler's floating-point artefacts are out of scope, see
``simulations.mechanisms.laplace``). The dispatcher over every mechanism is
:func:`proofs_checks.privacy_profile.privacy_profile`.

References: 001 Algorithm 1 and Theorem 2.4.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate

from limits.validation import check_finite_array, check_int, check_positive
from simulations.mechanisms.histograms import StabilityHistogram
from simulations.mechanisms.laplace import laplace_logcdf, laplace_logsf

__all__ = ["MAX_STABILITY_COUNT", "plain_laplace_pair_delta", "stability_pair_delta", "stability_profile"]

# Largest count the stability profile enumerates over all datasets (memory: a few arrays of this length).
MAX_STABILITY_COUNT = 10**7


def _cdf(x, b):
    return np.exp(laplace_logcdf(x, b))


def _sf(x, b):
    return np.exp(laplace_logsf(x, b))


def _cell_parts(c, c2, b: float, tau: float):
    """Merged outcomes of released cells with count ``c`` under P and ``c2`` under Q (|c - c2| <= 1).

    Returns ``(P, Q, m0, m1)``: P, Q of shape (..., 3) are the masses of the outcomes on which the
    log-ratio is constant -- the atom at 0 (empty cell or below the threshold); the released region
    below both counts, [tau, min) (or, when one count is 0, the one-sided released region: infinite
    or zero loss); and [max(tau, max), ∞). (m0, m1) is the "middle" interval between the counts above
    the threshold, where both densities are Laplace and the log-ratio is linear (empty if m0 >= m1).
    """
    c, c2 = np.asarray(c, dtype=float), np.asarray(c2, dtype=float)
    pos, pos2 = c > 0, c2 > 0
    both = pos & pos2
    lo, hi = np.minimum(c, c2), np.maximum(c, c2)
    below = both & (tau < lo)
    top = np.maximum(tau, hi)
    P = np.stack([np.where(pos, _cdf(tau - c, b), 1.0),
                  np.where(both, np.where(below, _cdf(lo - c, b) - _cdf(tau - c, b), 0.0),
                           np.where(pos, _sf(tau - c, b), 0.0)),
                  np.where(both, _sf(top - c, b), 0.0)], axis=-1)
    Q = np.stack([np.where(pos2, _cdf(tau - c2, b), 1.0),
                  np.where(both, np.where(below, _cdf(lo - c2, b) - _cdf(tau - c2, b), 0.0),
                           np.where(pos2, _sf(tau - c2, b), 0.0)),
                  np.where(both, _sf(top - c2, b), 0.0)], axis=-1)
    return P, Q, np.where(both, np.maximum(tau, lo), 0.0), np.where(both, hi, 0.0)


def _cell_hockey_stick(c, c2, b: float, tau: float, t) -> np.ndarray:
    """1-D hockey stick Σ/∫ max(0, p - e^t q) of cells (c -> c2), closed form.

    ``c``, ``c2``: shape (M,); ``t``: shape (M, E) (or broadcastable); returns (M, E).
    """
    c, c2 = np.atleast_1d(np.asarray(c, dtype=float)), np.atleast_1d(np.asarray(c2, dtype=float))
    P, Q, m0, m1 = _cell_parts(c, c2, b, tau)
    t = np.asarray(t, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        et = np.exp(t)
        total = sum(np.where(Q[:, k, None] > 0, np.maximum(0.0, P[:, k, None] - et * Q[:, k, None]), P[:, k, None])
                    for k in range(3))
        c, c2, m0, m1 = c[:, None], c2[:, None], m0[:, None], m1[:, None]
        inc = c > c2  # log-ratio (|z-c2| - |z-c|)/b increasing in z: p > e^t q above z*, else below z*
        lo_z = np.where(inc, np.minimum(np.maximum((t * b + c + c2) / 2.0, m0), m1), m0)
        hi_z = np.where(inc, m1, np.minimum(np.maximum((c + c2 - t * b) / 2.0, m0), m1))
        part = (_cdf(hi_z - c, b) - _cdf(lo_z - c, b)) - et * (_cdf(hi_z - c2, b) - _cdf(lo_z - c2, b))
        part = np.where((m1 > m0) & (hi_z > lo_z) & ~np.isnan(part), np.maximum(part, 0.0), 0.0)
    return total + part


def _pair_delta(cell1, cells2, b: float, tau: float, epsilon_prime: np.ndarray) -> np.ndarray:
    """Exact 2-D hockey stick of two independent cells at each ε' in ``epsilon_prime`` (shape (E,)).

    ``cell1 = (c, c')`` scalars; ``cells2 = (c, c')`` scalars or arrays of shape (M,) -> (M, E).
    Sums over cell 1's merged outcomes (mass × cell 2's closed form at ε' minus the outcome's
    log-ratio); a middle piece of cell 1 (count above the threshold) is integrated by quadrature.
    """
    c2a, c2b = np.atleast_1d(cells2[0]), np.atleast_1d(cells2[1])
    P1, Q1, m0, m1 = (np.asarray(x) for x in _cell_parts(cell1[0], cell1[1], b, tau))
    has_mid1 = float(m1) > float(m0)
    if has_mid1 and c2a.size == 1:
        _, _, n0, n1 = _cell_parts(c2a[0], c2b[0], b, tau)
        if not float(n1) > float(n0):  # integrate over the cell without a middle piece instead
            return _pair_delta((c2a[0], c2b[0]), cell1, b, tau, epsilon_prime)
    out = np.zeros((c2a.size, epsilon_prime.size))
    for p, q in zip(P1, Q1):
        if p > 0:
            out += p * (_cell_hockey_stick(c2a, c2b, b, tau, epsilon_prime[None, :] - math.log(p / q)) if q > 0 else 1.0)
    if has_mid1:
        if c2a.size != 1:
            raise ValueError("a middle piece in the first cell needs a single second cell")
        c, cp = float(cell1[0]), float(cell1[1])
        for i, e in enumerate(epsilon_prime):
            def integrand(z):
                l1 = (abs(z - cp) - abs(z - c)) / b
                return math.exp(-abs(z - c) / b) / (2 * b) * float(
                    _cell_hockey_stick(c2a, c2b, b, tau, np.array([[e - l1]]))[0, 0])
            val, _ = integrate.quad(integrand, float(m0), float(m1), epsabs=1e-14, epsrel=1e-12, limit=200)
            out[0, i] += val
    return out


def plain_laplace_pair_delta(u: float, epsilon_prime) -> np.ndarray:
    r"""Closed-form δ(ε'), ε' >= 0, of two independent Laplace cells each shifted by one scale-u unit.

    Each cell's privacy-loss variable under P is +u w.p. ½, -u w.p. :math:`\tfrac12 e^{-u}`, and has
    density :math:`\tfrac14 e^{(l-u)/2}` on (-u, u); the 1-D profile is
    :math:`H(t) = 1 - e^{(t-u)/2}` on [-u, u] (0 above). Integrating :math:`H(\varepsilon' - L_1)`
    against the law of :math:`L_1` gives
    :math:`\tfrac12(1 - e^{\varepsilon'/2-u})_+`
    :math:`+ [\varepsilon' \le 2u](\tfrac12(1 - e^{(l_0-u)/2}) - \tfrac14 e^{\varepsilon'/2-u}(u - l_0))`,
    :math:`l_0 = \max(-u, \varepsilon' - u)`. This is the stability histogram's profile for counts far
    above the threshold (the sup over all pairs with non-zero counts).

    Parameters
    ----------
    u : float > 0
        Loss of one cell: sensitivity / Laplace scale (ε/2 for 001 Algorithm 1).
    epsilon_prime : float or array_like of float, shape (m,)
        The ε' values (finite, >= 0).

    Returns
    -------
    ndarray, shape of ``epsilon_prime``
        δ(ε').

    Raises
    ------
    ValueError
        If u <= 0 or ``epsilon_prime`` holds a non-finite value.

    References
    ----------
    001 Algorithm 1 (two counts move under a label change), Theorem 2.4.

    Examples
    --------
    The pure loss of the pair is 2u, so δ(2u) = 0; at ε' = u the closed form reduces to
    :math:`1 - e^{-u/2}(1 + u/4)`, 0.448181 at u = 2.

    >>> import math
    >>> d = plain_laplace_pair_delta(2.0, [2.0, 4.0])
    >>> abs(float(d[0]) - (1 - 1.5 / math.e)) < 1e-12, abs(float(d[1]))
    (True, 0.0)
    """
    u = check_positive("u", u)
    epsilon_prime = check_finite_array("epsilon_prime", epsilon_prime)
    first = 0.5 * np.maximum(0.0, -np.expm1(epsilon_prime / 2.0 - u))
    l0 = np.maximum(-u, epsilon_prime - u)
    second = np.where(epsilon_prime <= 2 * u, 0.5 * -np.expm1((l0 - u) / 2.0) - 0.25 * np.exp(epsilon_prime / 2.0 - u) * (u - l0), 0.0)
    return first + second


def stability_pair_delta(mechanism: StabilityHistogram, counts, counts_prime, epsilon_prime) -> np.ndarray:
    r"""δ(ε') of the stability histogram between two count vectors differing by one moved unit.

    Only the two cells whose counts change matter (the module docstring gives the exact reduction).

    Parameters
    ----------
    mechanism : StabilityHistogram
        Gives the Laplace scale and the threshold.
    counts : tuple of int (a, b)
        Counts of the two changing cells under the first dataset, e.g. ``(1, 0)``.
    counts_prime : tuple of int (a', b')
        The same under the neighbour, e.g. ``(0, 1)`` (one unit moved).
    epsilon_prime : float or array_like of float, shape (m,)
        The ε' values.

    Returns
    -------
    ndarray, shape (m,)
        The hockey stick of P(· | counts) against P(· | counts_prime).

    References
    ----------
    001 Algorithm 1, Theorem 2.4.

    Examples
    --------
    Moving a lone record (1, 0) -> (0, 1): the first cell is released with probability
    :math:`\tfrac12 e^{-(\tau-1)/b} = \delta/4` under the first dataset only, so δ(ε') = δ/4 for
    every ε'.

    >>> from simulations.mechanisms import StabilityHistogram
    >>> d = stability_pair_delta(StabilityHistogram(1.0, 1e-3), (1, 0), (0, 1), [0.5, 1.0])
    >>> [round(float(v) / 1e-3, 9) for v in d]
    [0.25, 0.25]
    """
    epsilon_prime = np.atleast_1d(np.asarray(epsilon_prime, dtype=float))
    b, tau = mechanism.scale, mechanism.threshold
    (a, bb), (a2, bb2) = counts, counts_prime
    return _pair_delta((int(a), int(a2)), (int(bb), int(bb2)), b, tau, epsilon_prime)[0]


def stability_profile(mechanism: StabilityHistogram, epsilon_prime, *, dataset_size: int | None = None,
                      max_count: int | None = None, return_witness: bool = False):
    """Exact δ(ε') of the stability histogram, maximized over neighbouring datasets.

    Parameters
    ----------
    mechanism : StabilityHistogram
        001 Algorithm 1 (or a subclass with another scale or threshold).
    epsilon_prime : float or array_like of float, shape (m,)
        The ε' values.
    dataset_size : int >= 1, optional
        Maximize over *all* datasets of this many records (every (a, b) with a >= 1, a + b <= n, both
        directions). When omitted, maximize over all datasets of any size: the families with a zero
        count, for counts up to ``max_count``, and the plain 2-D Laplace profile
        (:func:`plain_laplace_pair_delta`) that bounds (and is the limit of) every pair with all
        counts >= 1.
    max_count : int, optional
        Largest count enumerated without ``dataset_size`` (default: threshold + 40 noise scales).
    return_witness : bool, default False
        Also return, per ε', the worst pair ``((a, b), (a', b'))`` (``None`` for the Laplace limit).

    Returns
    -------
    delta : ndarray, shape (m,)
        δ(ε').
    witness : list of m pairs or None
        Only with ``return_witness=True``.

    Raises
    ------
    ValueError
        If ``dataset_size`` < 1, or the default enumeration exceeds :data:`MAX_STABILITY_COUNT`
        (ε too small).

    References
    ----------
    001 Algorithm 1, Theorem 2.4.

    Examples
    --------
    At ε' = ε the worst pair moves a lone record (δ/4, :func:`stability_pair_delta`); at ε' = 0 the
    TV of two far-away Laplace cells wins, :math:`1 - e^{-u}(1 + u/2)` with u = ε/2.

    >>> import math
    >>> from simulations.mechanisms import StabilityHistogram
    >>> d, w = stability_profile(StabilityHistogram(1.0, 1e-3), [0.0, 1.0], return_witness=True)
    >>> abs(float(d[0]) - (1 - math.exp(-0.5) * 1.25)) < 1e-12, round(float(d[1]) / 1e-3, 9), w
    (True, 0.25, [None, ((1, 0), (0, 1))])
    """
    epsilon_prime = np.atleast_1d(np.asarray(epsilon_prime, dtype=float))
    b, tau = mechanism.scale, mechanism.threshold
    if dataset_size is not None:
        check_int("dataset_size", dataset_size, low=1)  # a label change needs at least one record  # every ordered pair (a, b) -> (a-1, b+1) and back, a + b <= n
        rows, labels = [], []
        for a in range(1, dataset_size + 1):
            for bb in range(0, dataset_size - a + 1):
                x, y = (a, bb), (a - 1, bb + 1)
                rows += [stability_pair_delta(mechanism, x, y, epsilon_prime), stability_pair_delta(mechanism, y, x, epsilon_prime)]
                labels += [(x, y), (y, x)]
        table = np.array(rows)
    else:
        # a zero count on one side: cells (1 -> 0) or (0 -> 1) against (m -> m+1) or (m+1 -> m); by the
        # symmetry of the two cells these two families cover (1, m) <-> (0, m+1) and (m+1, 0) <-> (m, 1)
        top = max_count if max_count is not None else math.ceil(tau + 40 * b)
        if top > MAX_STABILITY_COUNT:
            raise ValueError(f"the exact stability profile enumerates counts up to threshold + 40 scales = {top:.4g} "
                             f"> {MAX_STABILITY_COUNT:g} (epsilon={mechanism.epsilon!r} is too small to certify this way); "
                             f"pass dataset_size= or a smaller max_count=")
        m = np.arange(0, int(top) + 1)
        table = np.concatenate([_pair_delta((1, 0), (m, m + 1), b, tau, epsilon_prime),
                                _pair_delta((0, 1), (m + 1, m), b, tau, epsilon_prime)])
        labels = [((1, int(k)), (0, int(k) + 1)) for k in m] + [((0, int(k) + 1), (1, int(k))) for k in m]
    arg = np.argmax(table, axis=0)
    best = table[arg, np.arange(epsilon_prime.size)]
    witness = [labels[i] for i in arg]
    if dataset_size is None:  # pairs with all counts >= 1: bounded by, and tending to, plain Laplace
        limit = plain_laplace_pair_delta(1.0 / mechanism.scale, epsilon_prime)
        better = limit > best
        best = np.where(better, limit, best)
        for i in np.flatnonzero(better):
            witness[i] = None
    best = np.maximum(best, 0.0)
    return (best, witness) if return_witness else best
