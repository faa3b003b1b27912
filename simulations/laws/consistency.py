"""Laws for universal consistency (001): exact η, exact Bayes risk, exact excess risk of cube rules.

A classifier that is constant on the cubes ``C_j`` of side ``r`` (PCL, the histogram rule) has excess
risk ``Σ_j ∫_{C_j} |2η − 1| 1[h_j ≠ h*] dP_X = Σ_j (h_j M_j + (1 − h_j) P_j)`` with
``P_j = ∫_{C_j} (2η − 1)_+ dP_X`` and ``M_j = ∫_{C_j} (1 − 2η)_+ dP_X`` (001 Section 2.2; Devroye et
al. Theorem 2.2). Every law below computes ``(P_j, M_j)`` over the cube grid in closed form, so the
excess risk has no test-sample error (no cancellation either: it is a sum of non-negative terms).

Cube grid (the convention of :mod:`simulations.kernels_cells`): side ``r``, ``m = #{k >= 0: k r < 1}``
cubes per axis, cube ``k`` of axis ``a`` is ``[k r, min((k + 1) r, 1))``, flat index in C order.

* :class:`SmoothEta` -- ``η(x) = 1/2 + (a/2) Π_k cos(2π (x_k − φ_k))``, uniform features: C^∞, its
  Bayes boundary (the zeros of the cosines) not on any cube grid (irrational phases ``φ``).
* :class:`StepEta` -- ``η = η_hi`` on the half-space ``w·x > t``, ``η_lo`` elsewhere (tilted normal
  with irrational entries: no grid is aligned with it); uniform features.
* :class:`RoughEta` -- ``η = 1/2 + (a/2) σ(x)``, ``σ = ±1`` i.i.d. fair signs on a fine grid of ``M``
  cells per axis (a fixed pattern, drawn once from ``pattern_seed``): discontinuous across every
  fine-cell face, no Hölder smoothness at scales above ``1/M``; uniform features.
* :class:`ConcentratedThreshold` -- 1-D, ``x ~ U[t − w, t + w]`` and ``y = 1[x > t]`` (noiseless
  threshold, Bayes risk 0): the family behind the impossibility of private PAC learning of
  thresholds, indexed by the location ``t`` and the spread ``w``.

References: 001 Section 2.2 (err, h*, L*), Theorem 3.2; Devroye, Györfi, Lugosi (1996) Theorem 2.2.
"""

from __future__ import annotations

import abc
import itertools
import math

import numba
import numpy as np

from limits.validation import check_int, check_positive, check_real
from simulations.seeding import check_generator

__all__ = ["CubeLaw", "ConcentratedThreshold", "RoughEta", "SmoothEta", "StepEta", "check_side",
           "cube_edges", "cubes_per_axis"]


def check_side(side) -> float:
    """Check a cube side r in (0, 1] and return it as a float.

    Parameters
    ----------
    side : float
        The cube side r.

    Returns
    -------
    float
        ``side``.

    Raises
    ------
    ValueError
        If ``side`` is not a real number in (0, 1].

    References
    ----------
    001 Algorithm 2 (PCL partitions :math:`[0, 1]^d` into cubes of side r).

    Examples
    --------
    >>> check_side(0.25)
    0.25
    >>> check_side(0.0)
    Traceback (most recent call last):
    ...
    ValueError: side must be ...
    """
    return check_real("side", side, low=0.0, high=1.0, low_open=True)


def cubes_per_axis(side: float) -> int:
    r""":math:`m = \#\{k \ge 0 : k \cdot \text{side} < 1\}`, consistent with ``floor(x / side)`` in floating point.

    Parameters
    ----------
    side : float
        The cube side r in (0, 1].

    Returns
    -------
    int
        m, the number of cubes per axis (the last one may be cut by the unit cube).

    Raises
    ------
    ValueError
        If ``side`` is not in (0, 1].

    References
    ----------
    001 Algorithm 2 (cubes of side r).

    Examples
    --------
    Cubes start at 0, 0.3, 0.6 and 0.9:

    >>> cubes_per_axis(0.3), cubes_per_axis(0.25), cubes_per_axis(1.0)
    (4, 4, 1)
    """
    side = check_side(side)
    m = max(1, int(math.ceil(1.0 / side)))
    while m > 1 and (m - 1) * side >= 1.0:
        m -= 1
    while m * side < 1.0:
        m += 1
    return m


def cube_edges(side: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Lower and upper edges of the m cubes of one axis (the last cut at 1).

    Parameters
    ----------
    side : float
        The cube side r in (0, 1].

    Returns
    -------
    lo : ndarray of float64, shape (m,)
        :math:`k r`.
    hi : ndarray of float64, shape (m,)
        :math:`\min((k + 1) r, 1)`.

    Raises
    ------
    ValueError
        If ``side`` is not in (0, 1].

    References
    ----------
    001 Algorithm 2.

    Examples
    --------
    >>> lo, hi = cube_edges(0.4)
    >>> lo.tolist(), hi.tolist()
    ([0.0, 0.4, 0.8], [0.4, 0.8, 1.0])
    """
    m = cubes_per_axis(side)
    lo = np.arange(m) * side
    return lo, np.minimum(lo + side, 1.0)


def _overlap(lo, hi, a, b) -> np.ndarray:
    """Lengths of [lo_k, hi_k] ∩ [a_i, b_i], shape (len(lo), len(a))."""
    return np.maximum(0.0, np.minimum(hi[:, None], b[None, :]) - np.maximum(lo[:, None], a[None, :]))


class CubeLaw(abc.ABC):
    r"""A law of (X, Y) on :math:`[0, 1]^d \times \{0, 1\}` with exact cube integrals of :math:`(2\eta - 1)_\pm`.

    A classifier constant on the cubes :math:`C_j` has excess risk
    :math:`\sum_j (h_j M_j + (1 - h_j) P_j)` with :math:`P_j = \int_{C_j} (2\eta - 1)_+ dP_X` and
    :math:`M_j = \int_{C_j} (1 - 2\eta)_+ dP_X`. Subclasses define ``d``, :meth:`eta`, :meth:`bayes_risk`,
    :meth:`sample_features` and :meth:`cube_parts`.

    References
    ----------
    001 Section 2.2 (err, h*, L*); Devroye, Györfi, Lugosi (1996) Theorem 2.2.

    Examples
    --------
    A noiseless threshold at 1/2 with features uniform on [1/4, 3/4]:

    >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
    >>> law.bayes_risk(), law.excess_risk_cubes([1, 1], 0.5)
    (0.0, 0.5)
    """

    d: int

    @abc.abstractmethod
    def eta(self, X) -> np.ndarray:
        r""":math:`\eta(x) = P(Y = 1 \mid X = x)`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float64, shape (n,)
            η at each point.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> law.eta([[0.4], [0.6]]).tolist()
        [0.0, 1.0]
        """

    @abc.abstractmethod
    def bayes_risk(self) -> float:
        r""":math:`L^* = E\min(\eta, 1 - \eta)`.

        Returns
        -------
        float
            The Bayes risk.

        References
        ----------
        001 Section 2.2 (L*).

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> law.bayes_risk()
        0.0
        """

    @abc.abstractmethod
    def sample_features(self, n: int, rng) -> np.ndarray:
        """Draw ``n`` feature vectors from the law's feature distribution.

        Parameters
        ----------
        n : int
            Number of points, >= 0.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n, d)
            Features.

        References
        ----------
        001 Section 2.2 (the marginal :math:`P_X`).

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> X = law.sample_features(20, np.random.default_rng(0))
        >>> X.shape, bool(np.all((0.25 <= X) & (X <= 0.75)))
        ((20, 1), True)
        """

    @abc.abstractmethod
    def cube_parts(self, side: float) -> tuple[np.ndarray, np.ndarray]:
        r"""The positive and negative parts of 2η - 1 integrated over each cube of side r.

        :math:`P_j = \int_{C_j} (2\eta - 1)_+ dP_X` and :math:`M_j = \int_{C_j} (1 - 2\eta)_+ dP_X` over the
        :math:`m^d` cubes.

        Parameters
        ----------
        side : float
            The cube side r in (0, 1].

        Returns
        -------
        P : ndarray of float64, shape (m^d,)
            Non-negative, cubes in C order.
        M : ndarray of float64, shape (m^d,)
            Non-negative, cubes in C order.

        References
        ----------
        001 Section 2.2; Devroye, Györfi, Lugosi (1996) Theorem 2.2.

        Examples
        --------
        Half of the features fall on each side of the threshold:

        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> P, M = law.cube_parts(0.5)
        >>> P.tolist(), M.tolist()
        ([0.0, 0.5], [0.5, 0.0])
        """

    def sample(self, n: int, rng) -> tuple[np.ndarray, np.ndarray]:
        r"""Draw ``n`` pairs (X, Y) with :math:`Y \sim \mathrm{Bernoulli}(\eta(X))`.

        Parameters
        ----------
        n : int
            Number of pairs, >= 0.
        rng : numpy.random.Generator or int
            Source of randomness (features first, then labels).

        Returns
        -------
        X : ndarray of float64, shape (n, d)
            Features.
        Y : ndarray of int64, shape (n,)
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is neither a Generator nor a seed.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        The threshold law is noiseless:

        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> X, Y = law.sample(50, np.random.default_rng(0))
        >>> Y.dtype, bool(np.all(Y == (X[:, 0] > 0.5)))
        (dtype('int64'), True)
        """
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        X = self.sample_features(n, rng)
        Y = (rng.random(n) < self.eta(X)).astype(np.int64)
        return X, Y

    def excess_risk_cubes(self, bits, side: float) -> float:
        r"""Exact excess risk :math:`\sum_j (b_j M_j + (1 - b_j) P_j)` of the classifier equal to ``bits[j]`` on cube j.

        Parameters
        ----------
        bits : array_like of {0, 1}, shape (m^d,)
            One prediction per cube, C order.
        side : float
            The cube side r in (0, 1].

        Returns
        -------
        float
            :math:`\mathrm{err}(h) - L^*`.

        Raises
        ------
        ValueError
            If ``bits`` does not have one entry per cube.

        References
        ----------
        001 Section 2.2, Theorem 3.2 (PCL is consistent: this goes to 0).

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> law.excess_risk_cubes([0, 1], 0.5), law.excess_risk_cubes([1, 0], 0.5)
        (0.0, 1.0)
        """
        P, M = self.cube_parts(side)
        b = np.asarray(bits)
        if b.shape != P.shape:
            raise ValueError(f"bits must have shape {P.shape} (one per cube), got shape {b.shape}")
        return float(np.where(b.astype(bool), M, P).sum())

    def _check_X(self, X) -> np.ndarray:
        arr = np.asarray(X, dtype=float)
        if arr.ndim != 2 or arr.shape[1] != self.d:
            raise ValueError(f"X must have shape (n, {self.d}), got shape {arr.shape}")
        return arr


# cos on [-π/4, π/4] after a Cody-Waite reduction by π/2 (the split of π/2 of fdlibm's __ieee754_rem_pio2:
# 33 + 33 + 33 bits + a tail, so k·_PIO2_1 and k·_PIO2_2 are exact for |k| < 2^20) and Taylor polynomials
# (the next terms, z^19/19! and z^20/20! at z = π/4, are below 1e-19)
_PIO2 = (1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21,
         8.47842766036889956997e-32)
_SIN = tuple((-1.0) ** (j + 1) / math.factorial(2 * j + 3) for j in range(8))  # sin r = r + r z Σ _SIN[j] z^j
_COS = tuple((-1.0) ** j / math.factorial(2 * j + 4) for j in range(8))  # cos r = 1 - z/2 + z² Σ _COS[j] z^j
_REDUCE_MAX = 2.0 ** 18  # |2π t| below this: k < 2^18 (the reduction above is exact); above: the C library's cos


@numba.njit(cache=True, inline="always")
def _cos_reduced(b):
    """``cos(b)`` for ``|b| <= _REDUCE_MAX``, within 1 ulp of the C library's (measured; test_pcl_cubes)."""
    k = np.floor(b * (2 / np.pi) + 0.5)
    r = (((b - k * _PIO2[0]) - k * _PIO2[1]) - k * _PIO2[2]) - k * _PIO2[3]  # b - kπ/2, |r| <= π/4 (+ulps)
    z = r * r
    s = r + r * z * (_SIN[0] + z * (_SIN[1] + z * (_SIN[2] + z * (_SIN[3] + z * (_SIN[4] + z * (
        _SIN[5] + z * (_SIN[6] + z * _SIN[7])))))))
    c = 1.0 - 0.5 * z + z * z * (_COS[0] + z * (_COS[1] + z * (_COS[2] + z * (_COS[3] + z * (_COS[4] + z * (
        _COS[5] + z * (_COS[6] + z * _COS[7])))))))
    q = np.int64(k) & 3  # cos(kπ/2 + r) = cos r, -sin r, -cos r, sin r
    v = c if (q & 1) == 0 else s
    return -v if (q == 1 or q == 2) else v


@numba.njit(cache=True)
def _cos_product(X, phases):
    """``Π_k cos(2π (X[i, k] − φ_k))`` per row (the reference is :meth:`SmoothEta._g_numpy`).

    Same operations in the same order as the reference, except ``cos``: :func:`_cos_reduced` (branch-free,
    so the loops vectorize: ~4x less CPU than the C library's cos at n = 10^7, d = 3; this was a quarter
    of ``bayes_consistency``'s CPU, issue 20), within 1 ulp of the C library's cos, so the product is
    within a few ulp of the reference. Column by column: a contiguous copy of each column keeps the
    loops vectorizable; a column with some ``|2π (x − φ)| > _REDUCE_MAX`` uses the C library's cos.
    """
    n, d = X.shape
    out = np.empty(n)
    t = np.empty(n)
    for k in range(d):
        big = False
        for i in range(n):
            t[i] = 2 * np.pi * (X[i, k] - phases[k])
            big |= abs(t[i]) > _REDUCE_MAX
        if big:
            for i in range(n):
                t[i] = np.cos(t[i])
        else:
            for i in range(n):
                t[i] = _cos_reduced(t[i])
        if k == 0:
            for i in range(n):  # a loop, not out[:] = t: the slice assignment's shape check added ~1.4 s to the compile
                out[i] = t[i]
        else:
            for i in range(n):
                out[i] *= t[i]
    return out


@numba.njit(cache=True)
def _fine_cell_values(X, fine, values):
    """``values[cell(x_i)]`` for the C-order cell of side ``1/fine`` holding each row (fused: no
    index temporaries; 10x numpy's fancy indexing at n = 10^7, d = 3)."""
    n, d = X.shape
    out = np.empty(n)
    for i in range(n):
        b = 0
        for a in range(d):
            k = np.int64(X[i, a] * fine)
            if k > fine - 1:
                k = fine - 1
            b = b * fine + k
        out[i] = values[b]
    return out


def _product_parts(pos: list[np.ndarray], neg: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Cube integrals of ``(Π_a g_a)_+`` and ``(Π_a g_a)_-`` from each axis's ``∫ (g_a)_±`` (C order)."""
    P, N = pos[0], neg[0]
    for p, q in zip(pos[1:], neg[1:]):
        P, N = (np.multiply.outer(P, p) + np.multiply.outer(N, q), np.multiply.outer(P, q) + np.multiply.outer(N, p))
    return P.ravel(), N.ravel()


class SmoothEta(CubeLaw):
    r"""A smooth (C^∞) η with irrational phases, features uniform on the unit cube.

    :math:`\eta(x) = 1/2 + (a/2) \prod_k \cos(2\pi(x_k - \varphi_k))`.

    The phases :math:`\varphi_k` are irrational, so the Bayes boundary lies on no cube grid.

    Parameters
    ----------
    d : int
        Dimension, 1 <= d <= 5.
    amplitude : float, default 0.8
        a in (0, 1].

    Raises
    ------
    ValueError
        If ``d`` is not in 1..5 or ``amplitude`` is not in (0, 1].

    References
    ----------
    001 Section 2.2, Theorem 3.2.

    Examples
    --------
    :math:`L^* = 1/2 - (a/2)(2/\pi)^d`: 0.245352 for d = 1, a = 0.8.

    >>> law = SmoothEta(d=1, amplitude=0.8)
    >>> round(law.bayes_risk(), 6)
    0.245352
    """

    PHASES = (math.sqrt(2) - 1, math.sqrt(3) - 1, math.pi - 3, math.e - 2, math.sqrt(5) - 2)

    def __init__(self, d: int, amplitude: float = 0.8):
        self.d = check_int("d", d, low=1)
        if self.d > len(self.PHASES):
            raise ValueError(f"d must be <= {len(self.PHASES)}, got d={d}")
        self.amplitude = check_real("amplitude", amplitude, low=0.0, high=1.0, low_open=True)
        self.phases = np.array(self.PHASES[: self.d])

    def _g(self, X):
        return _cos_product(np.ascontiguousarray(X), self.phases)

    def _g_numpy(self, X):
        """numpy reference of :meth:`_g` (the test oracle; equal within a few ulp, see the kernel)."""
        return np.prod(np.cos(2 * np.pi * (X - self.phases)), axis=1)

    def eta(self, X):
        r""":math:`\eta(x) = 1/2 + (a/2) \prod_k \cos(2\pi(x_k - \varphi_k))`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float64, shape (n,)
            η at each point.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d).

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        At :math:`x = \varphi_1 = \sqrt2 - 1` the cosine is 1:

        >>> law = SmoothEta(d=1, amplitude=0.8)
        >>> round(float(law.eta([[np.sqrt(2) - 1]])[0]), 12)
        0.9
        """
        return 0.5 + 0.5 * self.amplitude * self._g(self._check_X(X))

    def bayes_risk(self):
        # min(η, 1-η) = 1/2 - (a/2)|Π cos|, and ∫_0^1 |cos(2π(x-φ))| dx = 2/π on each axis
        r""":math:`L^* = 1/2 - (a/2)(2/\pi)^d` (:math:`\int_0^1 |\cos 2\pi(x - \varphi)|\,dx = 2/\pi` per axis).

        Returns
        -------
        float
            The Bayes risk.

        References
        ----------
        001 Section 2.2 (L*).

        Examples
        --------
        >>> law = SmoothEta(d=1, amplitude=0.8)
        >>> round(law.bayes_risk(), 6)
        0.245352
        """
        return 0.5 - 0.5 * self.amplitude * (2 / math.pi) ** self.d

    def sample_features(self, n, rng):
        """Draw ``n`` points uniform on :math:`[0, 1]^d`.

        Parameters
        ----------
        n : int
            Number of points.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n, d)
            Features.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> SmoothEta(d=2).sample_features(3, np.random.default_rng(0)).shape
        (3, 2)
        """
        return rng.random((n, self.d))

    def cube_parts(self, side):
        r"""Exact :math:`(P_j, M_j)` over the cube grid: products of the one-axis integrals of :math:`\cos_\pm`.

        Parameters
        ----------
        side : float
            The cube side r in (0, 1].

        Returns
        -------
        P : ndarray of float64, shape (m^d,)
            :math:`\int_{C_j} (2\eta - 1)_+`.
        M : ndarray of float64, shape (m^d,)
            :math:`\int_{C_j} (1 - 2\eta)_+`.

        Raises
        ------
        ValueError
            If ``side`` is not in (0, 1].

        References
        ----------
        001 Section 2.2; Devroye, Györfi, Lugosi (1996) Theorem 2.2.

        Examples
        --------
        One cube, a full period: :math:`P = M = a \int_0^1 \cos_+ = 0.8/\pi`.

        >>> law = SmoothEta(d=1, amplitude=0.8)
        >>> P, M = law.cube_parts(1.0)
        >>> round(float(P[0]), 6), round(float(M[0]), 6)
        (0.254648, 0.254648)
        """
        lo, hi = cube_edges(side)
        pos, neg = [], []
        for phi in self.phases:
            # zeros of cos(2π(x-φ)) at φ + 1/4 + j/2: split each cube at them; ∫cos = Δ sin / (2π)
            zeros = phi + 0.25 + 0.5 * np.arange(-2, 4)
            pts = np.sort(np.concatenate([zeros[(zeros > 0) & (zeros < 1)], [0.0, 1.0]]))
            a, b = pts[:-1], pts[1:]
            L = _overlap(lo, hi, a, b)  # (m, pieces)
            s0 = np.clip(np.maximum(lo[:, None], a[None, :]), None, np.minimum(hi[:, None], b[None, :]))
            s1 = np.minimum(hi[:, None], b[None, :])
            integ = np.where(L > 0, (np.sin(2 * np.pi * (s1 - phi)) - np.sin(2 * np.pi * (s0 - phi))) / (2 * np.pi), 0.0)
            sign = np.sign(np.cos(2 * np.pi * ((a + b) / 2 - phi)))
            pos.append(np.where(sign > 0, integ, 0.0).sum(axis=1))
            neg.append(np.where(sign < 0, -integ, 0.0).sum(axis=1))
        P, N = _product_parts(pos, neg)
        return self.amplitude * P, self.amplitude * N


class StepEta(CubeLaw):
    r"""A step η across a tilted hyperplane, features uniform on the unit cube.

    :math:`\eta = \eta_{hi}` on :math:`\{w \cdot x > t\}` and :math:`\eta_{lo}` elsewhere; w has irrational entries.

    Parameters
    ----------
    d : int
        Dimension, 1 <= d <= 5.
    eta_low : float, default 0.15
        :math:`\eta_{lo}` in [0, 1/2].
    eta_high : float, default 0.85
        :math:`\eta_{hi}` in [1/2, 1].

    Raises
    ------
    ValueError
        If ``d`` is not in 1..5 or an η level is outside its range.

    References
    ----------
    001 Section 2.2, Theorem 3.2.

    Examples
    --------
    With :math:`\eta_{lo} = 1 - \eta_{hi} = 0.15` the Bayes risk is 0.15 wherever the boundary lies:

    >>> law = StepEta(d=1)
    >>> round(law.bayes_risk(), 12)
    0.15
    """

    NORMAL = (1.0, 1 / math.sqrt(3), 1 / math.pi, 1 / math.e, 1 / math.sqrt(7))

    def __init__(self, d: int, eta_low: float = 0.15, eta_high: float = 0.85):
        self.d = check_int("d", d, low=1)
        if self.d > len(self.NORMAL):
            raise ValueError(f"d must be <= {len(self.NORMAL)}, got d={d}")
        self.eta_low = check_real("eta_low", eta_low, low=0.0, high=0.5)
        self.eta_high = check_real("eta_high", eta_high, low=0.5, high=1.0)
        self.w = np.array(self.NORMAL[: self.d])
        self.t = 0.5 * self.w.sum() + (math.sqrt(2) - 1.4) * self.w[0]  # boundary through near the centre

    def eta(self, X):
        r""":math:`\eta(x) = \eta_{hi}` if :math:`w \cdot x > t`, else :math:`\eta_{lo}`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float64, shape (n,)
            η at each point.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d).

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        For d = 1 the boundary is :math:`t = \sqrt2 - 0.9 \approx 0.514`:

        >>> law = StepEta(d=1)
        >>> law.eta([[0.25], [0.75]]).tolist()
        [0.15, 0.85]
        """
        return np.where(self._check_X(X) @ self.w > self.t, self.eta_high, self.eta_low)

    def bayes_risk(self):
        r""":math:`L^* = \mathrm{vol}\{w \cdot x \le t\}\,\eta_{lo} + \mathrm{vol}\{w \cdot x > t\}(1 - \eta_{hi})`.

        Returns
        -------
        float
            The Bayes risk.

        References
        ----------
        001 Section 2.2 (L*).

        Examples
        --------
        >>> law = StepEta(d=1, eta_low=0.1, eta_high=0.8)
        >>> bool(np.isclose(law.bayes_risk(), 0.1 * (np.sqrt(2) - 0.9) + 0.2 * (1.9 - np.sqrt(2)), rtol=1e-12))
        True
        """
        return self._below_volume_total() * self.eta_low + (1 - self._below_volume_total()) * (1 - self.eta_high)

    def _below_volume_total(self):
        return float(self._below_volume(np.zeros((1, self.d)), np.ones((1, self.d)))[0])

    def _below_volume(self, lo, hi) -> np.ndarray:
        """Volumes of the boxes [lo, hi] (rows) ∩ {w·x <= t}, inclusion–exclusion over the corners."""
        wlo, whi = lo @ self.w, hi @ self.w
        full = np.prod(hi - lo, axis=1)
        out = np.where(whi <= self.t, full, 0.0)
        cut = (wlo < self.t) & (whi > self.t)
        if np.any(cut):
            l, h = lo[cut], hi[cut]
            acc = np.zeros(l.shape[0])
            for v in itertools.product((0, 1), repeat=self.d):
                v = np.array(v)
                corner = l + v * (h - l)
                acc += (-1) ** v.sum() * np.maximum(0.0, self.t - corner @ self.w) ** self.d
            out[cut] = acc / (math.factorial(self.d) * np.prod(self.w))
        return out

    def sample_features(self, n, rng):
        """Draw ``n`` points uniform on :math:`[0, 1]^d`.

        Parameters
        ----------
        n : int
            Number of points.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n, d)
            Features.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> StepEta(d=3).sample_features(4, np.random.default_rng(0)).shape
        (4, 3)
        """
        return rng.random((n, self.d))

    def cube_parts(self, side):
        r"""Exact :math:`(P_j, M_j)` from the volume of each cube on either side of the hyperplane.

        The volumes come from inclusion-exclusion over the cube's corners.

        Parameters
        ----------
        side : float
            The cube side r in (0, 1].

        Returns
        -------
        P : ndarray of float64, shape (m^d,)
            :math:`(2\eta_{hi} - 1)\,\mathrm{vol}(C_j \cap \{w \cdot x > t\})`.
        M : ndarray of float64, shape (m^d,)
            :math:`(1 - 2\eta_{lo})\,\mathrm{vol}(C_j \cap \{w \cdot x \le t\})`.

        Raises
        ------
        ValueError
            If ``side`` is not in (0, 1].

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        d = 1, t = √2 - 0.9: the right half has :math:`t - 1/2 = \sqrt2 - 1.4` below the boundary.

        >>> law = StepEta(d=1)
        >>> P, M = law.cube_parts(0.5)
        >>> bool(np.allclose(P, [0.0, 0.7 * (1.9 - np.sqrt(2))]))
        True
        >>> bool(np.allclose(M, [0.35, 0.7 * (np.sqrt(2) - 1.4)]))
        True
        """
        lo1, hi1 = cube_edges(side)
        mesh_lo = np.stack([g.ravel() for g in np.meshgrid(*([lo1] * self.d), indexing="ij")], axis=1)
        mesh_hi = np.stack([g.ravel() for g in np.meshgrid(*([hi1] * self.d), indexing="ij")], axis=1)
        below = self._below_volume(mesh_lo, mesh_hi)
        above = np.prod(mesh_hi - mesh_lo, axis=1) - below
        above = np.maximum(above, 0.0)
        return (2 * self.eta_high - 1) * above, (1 - 2 * self.eta_low) * below


class RoughEta(CubeLaw):
    r""":math:`\eta = 1/2 + (a/2)\sigma`, σ = ±1 fair i.i.d. signs on a grid of ``fine`` cells per axis; X uniform.

    The sign pattern is fixed, drawn once from ``pattern_seed``: η is discontinuous across every fine-cell
    face and has no Hölder smoothness at scales above 1/fine.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    fine : int
        Cells per axis of the sign pattern, >= 1.
    amplitude : float, default 0.8
        a in (0, 1].
    pattern_seed : int, default 0
        Seed of the sign pattern, >= 0.

    Raises
    ------
    ValueError
        If a parameter is outside its range.

    References
    ----------
    001 Section 2.2, Theorem 3.2 (consistency needs no smoothness).

    Examples
    --------
    :math:`L^* = (1 - a)/2`:

    >>> law = RoughEta(d=1, fine=4)
    >>> round(law.bayes_risk(), 12)
    0.1
    """

    def __init__(self, d: int, fine: int, amplitude: float = 0.8, pattern_seed: int = 0):
        self.d = check_int("d", d, low=1)
        self.fine = check_int("fine", fine, low=1)
        self.amplitude = check_real("amplitude", amplitude, low=0.0, high=1.0, low_open=True)
        self.pattern_seed = check_int("pattern_seed", pattern_seed, low=0)
        rng = np.random.default_rng(np.random.SeedSequence(self.pattern_seed, spawn_key=(1001, self.d, self.fine)))
        self.signs = np.where(rng.random((self.fine,) * self.d) < 0.5, -1.0, 1.0)

    def eta(self, X):
        r""":math:`\eta(x) = 1/2 + (a/2)\sigma(\text{cell of } x)`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            Values in :math:`\{(1 - a)/2, (1 + a)/2\}`.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d).

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> law = RoughEta(d=1, fine=4)
        >>> sorted(set(np.round(law.eta([[0.1], [0.3], [0.6], [0.9]]), 12).tolist()) | {0.1, 0.9})
        [0.1, 0.9]
        """
        X = np.ascontiguousarray(self._check_X(X))
        return 0.5 + 0.5 * self.amplitude * _fine_cell_values(X, self.fine, self.signs.ravel())

    def _eta_numpy(self, X):
        """numpy reference of :meth:`eta` (the test oracle; integer cell arithmetic: equal bit for bit)."""
        X = self._check_X(X)
        k = np.minimum((X * self.fine).astype(np.int64), self.fine - 1)
        return 0.5 + 0.5 * self.amplitude * self.signs[tuple(k.T)]

    def bayes_risk(self):
        r""":math:`L^* = (1 - a)/2` (every point has :math:`\min(\eta, 1 - \eta) = (1 - a)/2`).

        Returns
        -------
        float
            The Bayes risk.

        References
        ----------
        001 Section 2.2 (L*).

        Examples
        --------
        >>> RoughEta(d=2, fine=8, amplitude=0.5).bayes_risk()
        0.25
        """
        return 0.5 * (1 - self.amplitude)

    def sample_features(self, n, rng):
        """Draw ``n`` points uniform on :math:`[0, 1]^d`.

        Parameters
        ----------
        n : int
            Number of points.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n, d)
            Features.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> RoughEta(d=2, fine=4).sample_features(3, np.random.default_rng(0)).shape
        (3, 2)
        """
        return rng.random((n, self.d))

    def cube_parts(self, side):
        r"""Exact :math:`(P_j, M_j)`: a times the volume of each cube on positive / negative fine cells.

        Parameters
        ----------
        side : float
            The cube side r in (0, 1].

        Returns
        -------
        P : ndarray of float64, shape (m^d,)
            :math:`\int_{C_j} (2\eta - 1)_+`.
        M : ndarray of float64, shape (m^d,)
            :math:`\int_{C_j} (1 - 2\eta)_+`.

        Raises
        ------
        ValueError
            If ``side`` is not in (0, 1].

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        Every point has :math:`|2\eta - 1| = a`, so :math:`\sum_j (P_j + M_j) = a`:

        >>> law = RoughEta(d=1, fine=4)
        >>> P, M = law.cube_parts(0.5)
        >>> round(float(P.sum() + M.sum()), 12)
        0.8
        """
        lo, hi = cube_edges(side)
        a = np.arange(self.fine) / self.fine
        O = _overlap(lo, hi, a, a + 1.0 / self.fine)  # (m, fine)
        parts = []
        for T in ((self.signs > 0).astype(float), (self.signs < 0).astype(float)):
            for _ in range(self.d):  # contract the leading fine axis, append the cube axis at the end
                T = np.tensordot(T, O, axes=([0], [1]))
            parts.append(self.amplitude * T.ravel())
        return parts[0], parts[1]


class ConcentratedThreshold(CubeLaw):
    r"""1-D noiseless threshold :math:`y = 1[x > t]` with :math:`x \sim U[t - w, t + w]` (Bayes risk 0).

    The family behind the impossibility of private PAC learning of thresholds, indexed by the location t
    and the spread w.

    Parameters
    ----------
    threshold : float
        t in [w, 1 - w].
    spread : float
        w > 0.

    Raises
    ------
    ValueError
        If ``spread`` is not > 0 or ``threshold`` is outside [w, 1 - w].

    References
    ----------
    001 Section 1 after Theorem 1.5 (one-dimensional linear classifiers are not privately PAC learnable, but are UC
    learnable), Section 2.2.

    Examples
    --------
    >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
    >>> law.bayes_risk(), law.eta([[0.4], [0.6]]).tolist()
    (0.0, [0.0, 1.0])
    """

    d = 1

    def __init__(self, threshold: float, spread: float):
        self.spread = check_positive("spread", spread)
        self.threshold = check_real("threshold", threshold, low=self.spread, high=1.0 - self.spread)

    def eta(self, X):
        r""":math:`\eta(x) = 1[x > t]`.

        Parameters
        ----------
        X : array_like, shape (n, 1)
            Points.

        Returns
        -------
        ndarray of float64, shape (n,)
            0 or 1.

        Raises
        ------
        ValueError
            If ``X`` is not (n, 1).

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> law.eta([[0.5], [0.51]]).tolist()
        [0.0, 1.0]
        """
        return (self._check_X(X)[:, 0] > self.threshold).astype(float)

    def bayes_risk(self):
        """:math:`L^* = 0` (noiseless labels).

        Returns
        -------
        float
            0.0.

        References
        ----------
        001 Section 2.2 (L*).

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> law.bayes_risk()
        0.0
        """
        return 0.0

    def sample_features(self, n, rng):
        """Draw ``n`` points uniform on [t - w, t + w].

        Parameters
        ----------
        n : int
            Number of points.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n, 1)
            Features.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> X = law.sample_features(5, np.random.default_rng(0))
        >>> X.shape, bool(np.all(np.abs(X - 0.5) <= 0.25))
        ((5, 1), True)
        """
        return (self.threshold - self.spread + 2 * self.spread * rng.random(n))[:, None]

    def cube_parts(self, side):
        r"""Exact :math:`(P_j, M_j)`: the feature mass of each cube right and left of t.

        Parameters
        ----------
        side : float
            The cube side r in (0, 1].

        Returns
        -------
        P : ndarray of float64, shape (m,)
            :math:`P_X(C_j \cap (t, t + w])`.
        M : ndarray of float64, shape (m,)
            :math:`P_X(C_j \cap [t - w, t])`.

        Raises
        ------
        ValueError
            If ``side`` is not in (0, 1].

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        >>> law = ConcentratedThreshold(threshold=0.5, spread=0.25)
        >>> P, M = law.cube_parts(0.5)
        >>> P.tolist(), M.tolist()
        ([0.0, 0.5], [0.5, 0.0])
        """
        lo, hi = cube_edges(side)
        t, w = self.threshold, self.spread
        P = _overlap(lo, hi, np.array([t]), np.array([t + w]))[:, 0] / (2 * w)
        M = _overlap(lo, hi, np.array([t - w]), np.array([t]))[:, 0] / (2 * w)
        return P, M
