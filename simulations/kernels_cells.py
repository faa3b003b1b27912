"""numba kernels of the cube learners of 001 (PCL, PCDE), each with a plain numpy reference (the oracle).

* :func:`cube_votes` -- fused cube index + per-cube counts ``N_j`` and doubled votes
  ``V_j = Σ_{x_i∈C_j} (2 y_i − 1)`` (so the paper's vote ``Σ (y_i − 1/2)`` is ``V_j / 2``, kept in
  integers), over the cubes of side ``r`` anchored at the origin: cube ``(k_0, ..., k_{d-1})`` with
  ``k_a = min(floor(x_a / r), m − 1)``, flat index in C order (axis 0 slowest), ``m = ceil(1/r)``
  cubes per axis (the last one truncated by the boundary of ``[0, 1]^d``).
* :func:`keyed_uniform`, :func:`keyed_laplace` -- a counter-based noise stream: the noise of cube ``j``
  is a function of ``(key, j)`` alone (SplitMix64 of ``key + (j + 1) · γ``, 53 bits, inverse-CDF
  Laplace). This is what lets PCL draw an empty cube's noise lazily, at its first query, and still
  return *the same* classifier as the eager learner that draws every cube's noise at fit time: both
  read the same ``w_j``. Treating the SplitMix64 outputs of distinct counters as independent uniforms
  is the usual assumption on a pseudo-random generator (the same one every numpy stream relies on);
  the tests check the law of the released bits against the exact Laplace tails.

The cube counts and the keyed uniforms use integer arithmetic and correctly rounded operations only,
so they equal their numpy references bit for bit on every CPU (the tests assert it). The Laplace noise
adds one transcendental function, log1p: numba calls the C library's, numpy its own vectorized one on
CPUs with AVX-512, and the two may differ in the last bits (2 ulp observed). The numba kernel is the one
implementation the learners use (so lazy and eager PCL are equal exactly); the numpy reference agrees
within a stated number of ulp (tests/simulations/test_pcl_cubes.py). ``@njit(cache=True)`` so fresh
workers do not recompile.

References: 001 Algorithm 2 (PCL, line 5), Algorithm 3 (PCDE, line 4).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["GOLDEN", "cube_votes", "cube_votes_numpy", "first_outside_unit_cube", "keyed_laplace", "keyed_laplace_numpy", "keyed_uniform",
           "keyed_uniform_numpy"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_TWO53 = 9007199254740992.0


# ------------------------------------------------------------------------------ keyed noise stream
@numba.njit(cache=True, inline="always")
def _splitmix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def _keyed_uniform(key, idx, out):
    for i in range(idx.shape[0]):
        z = _splitmix(key + np.uint64(idx[i] + 1) * GOLDEN)
        out[i] = (np.float64(z >> np.uint64(11)) + 0.5) / _TWO53
    return out


def keyed_uniform(key: int, idx) -> np.ndarray:
    """Uniforms in (0, 1) (53-bit grid, midpoints) of counters ``idx`` under ``key``, one per counter.

    :math:`u_j = (\\lfloor z_j / 2^{11} \\rfloor + 1/2) / 2^{53}` with
    :math:`z_j = \\mathrm{SplitMix64}(key + (j + 1)\\gamma \\bmod 2^{64})`, γ = :data:`GOLDEN`: the
    noise of cube ``j`` depends on ``(key, j)`` alone, so it can be drawn lazily, in any order.

    Parameters
    ----------
    key : int in [0, 2**64)
        The stream's key (PCL draws it once per fit from its privacy Generator).
    idx : array_like of int
        Counters (cube indices), any shape; flattened.

    Returns
    -------
    ndarray of float64, shape (idx.size,)
        Values in (0, 1]: the midpoint :math:`(k + 1/2)/2^{53}` is exact for :math:`k < 2^{52}`;
        above, ``k + 0.5`` rounds half to even, and the top value :math:`k = 2^{53} - 1` rounds to
        exactly 1.0 (probability :math:`2^{-53}` per counter; :func:`keyed_laplace` then returns
        +inf).

    Raises
    ------
    OverflowError
        If ``key`` is negative or >= 2**64 (it must fit a uint64).

    References
    ----------
    001 Algorithm 2 (PCL) line 5: the noise :math:`w_j` of cube :math:`C_j` (proof of Theorem 3.1).

    Examples
    --------
    Counter ``j`` under key 0 is the (j+1)-th output of the SplitMix64 generator seeded with 0,
    whose published first two outputs are ``0xe220a8397b1dcdaf`` and ``0x6e789e6aa1b965f4``:

    >>> u = keyed_uniform(0, [0, 1])
    >>> bool(u[0] == ((0xe220a8397b1dcdaf >> 11) + 0.5) / 2**53), bool(u[1] == ((0x6e789e6aa1b965f4 >> 11) + 0.5) / 2**53)
    (True, True)
    >>> keyed_uniform(7, [[0, 1], [2, 3]]).shape
    (4,)
    """
    idx = np.ascontiguousarray(idx, dtype=np.int64).ravel()
    return _keyed_uniform(np.uint64(key), idx, np.empty(idx.shape[0]))


def keyed_uniform_numpy(key: int, idx) -> np.ndarray:
    """numpy reference of :func:`keyed_uniform` (uint64 arithmetic wraps modulo 2^64 as in C).

    Parameters
    ----------
    key : int in [0, 2**64)
        The stream's key.
    idx : array_like of int
        Counters, any shape; flattened.

    Returns
    -------
    ndarray of float64, shape (idx.size,)
        Bit-for-bit equal to :func:`keyed_uniform` (integer arithmetic and one correctly rounded
        division).

    References
    ----------
    001 Algorithm 2 (PCL) line 5.

    Examples
    --------
    >>> bool(keyed_uniform_numpy(0, [0])[0] == ((0xe220a8397b1dcdaf >> 11) + 0.5) / 2**53)
    True
    """
    idx = np.asarray(idx, dtype=np.int64).ravel()
    with np.errstate(over="ignore"):
        z = np.uint64(key) + (idx + 1).astype(np.uint64) * GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        z = z ^ (z >> np.uint64(31))
    return ((z >> np.uint64(11)).astype(np.float64) + 0.5) / _TWO53


@numba.njit(cache=True)
def _keyed_laplace(key, idx, scale, out):
    _keyed_uniform(key, idx, out)
    for i in range(out.shape[0]):
        u = out[i] - 0.5
        if u < 0.0:
            out[i] = scale * np.log1p(2.0 * u)  # = scale * log(2 u_original): left tail
        else:
            out[i] = -scale * np.log1p(-2.0 * u)
    return out


def keyed_laplace(key: int, idx, scale: float) -> np.ndarray:
    """``Lap(scale)`` noise of counters ``idx`` under ``key`` (inverse CDF of :func:`keyed_uniform`).

    With ``u`` from :func:`keyed_uniform`: :math:`w = b \\ln(2u)` for :math:`u < 1/2` and
    :math:`w = -b \\ln(2(1-u))` otherwise (computed with ``log1p``), the inverse of the Laplace CDF
    with scale :math:`b`. Verified in idealized real arithmetic (docs/design.md): a floating-point
    sampler is not a hardened release mechanism.

    Parameters
    ----------
    key : int in [0, 2**64)
        The stream's key.
    idx : array_like of int
        Counters (cube indices), any shape; flattened.
    scale : float > 0
        The Laplace scale b (PCL: :math:`1/\\varepsilon`); its sign is not checked.

    Returns
    -------
    ndarray of float64, shape (idx.size,)
        The noise; +inf in the event, of probability :math:`2^{-53}` per counter, that
        :func:`keyed_uniform` returns exactly 1.0 (u is never 0).

    Raises
    ------
    OverflowError
        If ``key`` does not fit a uint64.

    References
    ----------
    001 Algorithm 2 (PCL) line 5 and Theorem 3.1 (Laplace noise of scale :math:`1/\\varepsilon` on
    each cube's vote); Algorithm 4 (PCL2) line 6 (the same noise per Voronoi cell).

    Examples
    --------
    Counter 0 under key 0 has ``u = 0.883311 >= 1/2`` (see :func:`keyed_uniform`), so its noise is
    ``−ln(2(1 − u)) = 1.455094`` at scale 1:

    >>> print(f"{keyed_laplace(0, [0], 1.0)[0]:.6f}")
    1.455094
    """
    idx = np.ascontiguousarray(idx, dtype=np.int64).ravel()
    return _keyed_laplace(np.uint64(key), idx, float(scale), np.empty(idx.shape[0]))


def keyed_laplace_numpy(key: int, idx, scale: float) -> np.ndarray:
    """numpy reference of :func:`keyed_laplace`.

    Parameters
    ----------
    key : int in [0, 2**64)
        The stream's key.
    idx : array_like of int
        Counters, any shape; flattened.
    scale : float > 0
        The Laplace scale.

    Returns
    -------
    ndarray of float64, shape (idx.size,)
        Equal to :func:`keyed_laplace` within a few ulp (numpy's vectorized ``log1p`` and the C
        library's differ in the last bits on some CPUs).

    References
    ----------
    001 Algorithm 2 (PCL) line 5.

    Examples
    --------
    >>> print(f"{keyed_laplace_numpy(0, [0], 2.0)[0]:.6f}")    # 2 · 1.455094
    2.910188
    """
    u = keyed_uniform_numpy(key, idx) - 0.5
    with np.errstate(divide="ignore"):
        return np.where(u < 0.0, scale * np.log1p(2.0 * u), -scale * np.log1p(-2.0 * u))


# ---------------------------------------------------------------------------------- cube binning
@numba.njit(cache=True)
def _first_outside_unit(flat):
    for i in range(flat.size):
        x = flat[i]
        if not (0.0 <= x <= 1.0):  # NaN fails both comparisons
            return i
    return -1


def first_outside_unit_cube(X) -> int:
    """Flat (C-order) index of the first entry of ``X`` that is NaN or outside ``[0, 1]``, or -1.

    One pass without temporaries (the domain check of every fit on 10^7 points was a third of
    ``bayes_consistency``'s time with ``np.isnan`` and two comparisons).

    Parameters
    ----------
    X : ndarray of float64, any shape (C-contiguous).

    Returns
    -------
    int
        ``-1`` when every entry lies in ``[0, 1]``.

    References
    ----------
    001 Algorithm 2 (PCL) and Algorithm 3 (PCDE): the learners' domain is :math:`[0, 1]^d`.

    Examples
    --------
    >>> first_outside_unit_cube(np.array([[0.0, 1.0], [0.5, 1.5]]))
    3
    >>> first_outside_unit_cube(np.zeros((2, 2)))
    -1
    """
    return int(_first_outside_unit(np.ascontiguousarray(X, dtype=np.float64).ravel()))


@numba.njit(cache=True)
def _cube_votes(X, y, side, m, counts, votes):
    n, d = X.shape
    for i in range(n):
        b = 0
        for a in range(d):
            x = X[i, a]
            if not (x >= 0.0):  # NaN or negative: numba does not bounds-check, refuse
                raise ValueError("X must lie in the domain (got a negative or NaN coordinate)")
            k = np.int64(x / side)
            if k > m - 1:
                k = m - 1
            b = b * m + k
        counts[b] += 1
        votes[b] += 2 * y[i] - 1
    return counts, votes


def cube_votes(X, y, side: float, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-cube counts and doubled votes over the ``m^d`` cubes of side ``side`` (dense, C order).

    The paper's vote of cube :math:`C_j` is :math:`\\sum_{x_i \\in C_j} (y_i - 1/2) = V_j/2`
    (001, proof of Theorem 3.1), kept in integers as :math:`V_j = \\sum (2y_i - 1)`.

    Parameters
    ----------
    X : ndarray of float64, shape (n, d)
        Coordinates >= 0 (the callers check the domain ``[0, 1]^d``).
    y : ndarray of int, shape (n,)
        Labels in {0, 1} (not checked: other values enter the vote as ``2 y - 1``).
    side : float > 0
        The cube side r (001 Algorithm 2 line 2: :math:`r = n^{-1/(2d)}`).
    m : int >= 1
        Cubes per axis, ``ceil(1 / side)``; coordinates beyond ``(m - 1) r`` go to the last cube.

    Returns
    -------
    counts : ndarray of int64, shape (m**d,)
        :math:`N_j = |C_j \\cap S_n|`.
    votes : ndarray of int64, shape (m**d,)
        :math:`V_j = \\sum_{x_i \\in C_j} (2 y_i - 1)`.

    Raises
    ------
    ValueError
        If a coordinate is negative or NaN.

    References
    ----------
    001 Algorithm 2 (PCL) lines 3-5, Theorem 3.1.

    Examples
    --------
    Two points in cube (0, 0) with labels 1 and 0 (vote 0), one in cube (1, 1) with label 1:

    >>> X = np.array([[0.1, 0.1], [0.15, 0.2], [0.9, 1.0]])
    >>> counts, votes = cube_votes(X, np.array([1, 0, 1]), side=0.5, m=2)
    >>> counts.tolist(), votes.tolist()
    ([2, 0, 0, 1], [0, 0, 0, 1])
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.int64)
    size = int(m) ** X.shape[1]
    return _cube_votes(X, y, float(side), np.int64(m), np.zeros(size, np.int64), np.zeros(size, np.int64))


def cube_index_numpy(X, side: float, m: int) -> np.ndarray:
    """Flat cube index of each point (numpy), shape (n,)."""
    X = np.asarray(X, dtype=np.float64)
    k = np.minimum((X / side).astype(np.int64), m - 1)
    b = np.zeros(X.shape[0], np.int64)
    for a in range(X.shape[1]):
        b = b * m + k[:, a]
    return b


def cube_votes_numpy(X, y, side: float, m: int) -> tuple[np.ndarray, np.ndarray]:
    """numpy reference of :func:`cube_votes` (``np.bincount``).

    Parameters
    ----------
    X : array_like of float, shape (n, d)
        Coordinates >= 0.
    y : array_like of int, shape (n,)
        Labels in {0, 1}.
    side : float > 0
        The cube side r.
    m : int >= 1
        Cubes per axis.

    Returns
    -------
    counts, votes : ndarray of int64, shape (m**d,)
        Equal to :func:`cube_votes` bit for bit.

    References
    ----------
    001 Algorithm 2 (PCL) lines 3-5.

    Examples
    --------
    >>> counts, votes = cube_votes_numpy([[0.1, 0.1], [0.15, 0.2], [0.9, 1.0]], [1, 0, 1], 0.5, 2)
    >>> counts.tolist(), votes.tolist()
    ([2, 0, 0, 1], [0, 0, 0, 1])
    """
    X = np.asarray(X, dtype=np.float64)
    size = int(m) ** X.shape[1]
    b = cube_index_numpy(X, side, m)
    counts = np.bincount(b, minlength=size).astype(np.int64)
    votes = np.bincount(b, weights=2 * np.asarray(y, dtype=np.int64) - 1, minlength=size)
    return counts, np.rint(votes).astype(np.int64)
