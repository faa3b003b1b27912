"""The lower-bound constructions of 003: bump functions on a grid of cubes of side ``h``.

``η_v(x) = L ∑_k v_k φ((x − c_k)/h) h^β`` (003 eq. (36) for classification, eq. (121) for
regression) with uniform features on ``[0, 1]^d`` (``f = c = 1``), cubes of side ``h = 1/g`` tiling
the unit cube, signs ``v_k ∈ {−1, +1}`` on the active cubes and ``0`` elsewhere. The paper takes
``L = 1``; ``amplitude = L`` is kept as a parameter only so the constants can be varied.

The bump: ``φ(u) = ψ(‖u‖_∞)`` with ``ψ(r) = min(1, 4(1/2 − r))_+`` — a plateau of height 1 on
``‖u‖_∞ <= 1/4`` falling linearly to 0 on the boundary of ``[−1/2, 1/2]^d``. It satisfies 003 eq. (35)
(support ``[−1/2, 1/2]^d``, ``0 <= φ <= 1``) and, because it is Lipschitz with a linear edge,

* ``η_v`` is β-Hölder (Assumption 1(a)) for every β <= 1 with constant ``2·4^β·L``;
* ``P(0 < φ(U) < s) = 1 − (1 − s/2)^d <= d s / 2`` for ``s <= 1`` (``U`` uniform on the cube), so
  with ``m <= C_M h^{γβ−d}`` bumps the margin condition 1(b) holds for every ``γ <= 1``
  (``C_T = C_M max(1, d/2) / L^γ``), which is what 003 eq. (37) asserts.

Note (a finding, not in the paper): 003 only asks φ to be supported on the cube with
``0 <= φ <= 1``. A C^∞ bump such as ``exp(−1/(1 − 4|u|²))`` is flat at the edge of its support,
so ``P(0 < φ(U) < s) ~ 1/ln(1/s)`` and the construction then violates 1(b) for every ``γ > 0`` at
margins ``t << h^β``; eq. (37) needs a φ whose small values occupy a set of measure ``O(s^γ)``,
like the linear edge used here.

Exact cell integrals: for a box inside one cube, ``∫_box φ = 4 ∫_{1/4}^{1/2} F(r) dr`` and
``∫_box φ² = 32 ∫_{1/4}^{1/2} (1/2 − r) F(r) dr`` (integration by parts of ``∫ψ dF``), where
``F(r) = vol(box ∩ [−r, r]^d)`` is a product of ``d`` piecewise-linear factors. Between its
breakpoints the integrand is a polynomial of degree <= d + 1, integrated exactly by Gauss–Legendre.

References: 003 eqs. (33)-(37) (classification), (121)-(122) (regression), (156)-(159) (three-point
heavy-tailed labels), Assumptions 1-3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.laws.base import ClassificationLaw, RegressionLaw, cell_volume, check_points
from simulations.seeding import check_generator

__all__ = [
    "BumpClassification",
    "BumpField",
    "BumpRegression",
    "ThreePointRegression",
    "bump",
    "bump_box_integrals",
    "bump_l1",
    "bump_l2sq",
    "random_round",
    "three_point_T",
]


def bump(u) -> np.ndarray:
    r"""The bump :math:`\varphi(u) = \min(1, 4(1/2 - \|u\|_\infty))_+` of the lower-bound constructions.

    Plateau 1 on :math:`\|u\|_\infty \le 1/4`, a linear edge down to 0 on the boundary of :math:`[-1/2, 1/2]^d`.

    Parameters
    ----------
    u : array_like, shape (..., d)
        Points relative to a cube's centre, in units of its side.

    Returns
    -------
    ndarray of float64, shape ``u.shape[:-1]``
        Values in [0, 1].

    References
    ----------
    003 eq. (35) (support :math:`[-1/2, 1/2]^d`, :math:`0 \le \varphi \le 1`).

    Examples
    --------
    >>> bump([[0.0, 0.0], [0.375, 0.1], [0.5, 0.0]]).tolist()
    [1.0, 0.5, 0.0]
    """
    r = np.max(np.abs(np.asarray(u, dtype=float)), axis=-1)
    return np.clip(4.0 * (0.5 - r), 0.0, 1.0)


def bump_box_integrals(lo, hi) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact :math:`\int \varphi` and :math:`\int \varphi^2` over boxes inside the bump's support.

    Boxes :math:`\prod_i [lo_i, hi_i] \subset [-1/2, 1/2]^d`.

    :math:`\int \varphi = 4 \int_{1/4}^{1/2} F(r)\,dr` and :math:`\int \varphi^2 = 32 \int_{1/4}^{1/2} (1/2 - r)
    F(r)\,dr`
    with :math:`F(r) = \mathrm{vol}(\text{box} \cap [-r, r]^d)`, integrated exactly by Gauss-Legendre between
    the breakpoints of F.

    Parameters
    ----------
    lo : array_like, shape (n, d)
        Lower corners, >= -1/2.
    hi : array_like, shape (n, d)
        Upper corners, ``lo <= hi <= 1/2``.

    Returns
    -------
    int_phi : ndarray of float64, shape (n,)
        :math:`\int_{\text{box}} \varphi`.
    int_phi_sq : ndarray of float64, shape (n,)
        :math:`\int_{\text{box}} \varphi^2`.

    References
    ----------
    003 eqs. (35)-(36) (the integrals enter the excess risk of the construction).

    Examples
    --------
    d = 1, the whole support and its right half: :math:`\|\varphi\|_1 = 1/2 + 2 \cdot 1/8 = 3/4`,
    :math:`\|\varphi\|_2^2 = 1/2 + 2 \cdot 1/12 = 2/3`.

    >>> I1, I2 = bump_box_integrals([[-0.5], [0.0]], [[0.5], [0.5]])
    >>> np.round(I1, 12).tolist(), np.round(I2 * 3, 12).tolist()
    ([0.75, 0.375], [2.0, 1.0])
    """
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    n, d = lo.shape
    # breakpoints of F on [1/4, 1/2]: each factor min(hi, r) − max(lo, −r), clipped at 0, kinks at ±lo, ±hi
    bp = np.concatenate([np.full((n, 1), 0.25), np.full((n, 1), 0.5), lo, -lo, hi, -hi], axis=1)
    bp = np.sort(np.clip(bp, 0.25, 0.5), axis=1)
    a, b = bp[:, :-1], bp[:, 1:]
    nodes, weights = np.polynomial.legendre.leggauss(d // 2 + 2)  # exact up to degree d + 3
    half = 0.5 * (b - a)
    r = (0.5 * (a + b))[..., None] + half[..., None] * nodes  # (n, S, q)
    F = np.ones_like(r)
    for i in range(d):
        F *= np.maximum(np.minimum(hi[:, i, None, None], r) - np.maximum(lo[:, i, None, None], -r), 0.0)
    wF = weights * F * half[..., None]
    return 4.0 * wF.sum(axis=(1, 2)), 32.0 * (wF * (0.5 - r)).sum(axis=(1, 2))


def _axis_pieces(bins: int, g: int):
    """Split [0, 1] by the edges of both grids: per piece, (grid bin, cube, u_lo, u_hi).

    Edges are integers over ``lcm(bins, g)`` so coinciding edges merge exactly.
    """
    L = math.lcm(bins, g)
    pts = np.union1d(np.arange(bins + 1) * (L // bins), np.arange(g + 1) * (L // g))
    lo, hi = pts[:-1], pts[1:]
    mid2 = lo + hi  # twice the midpoint, to stay in integers
    b = (mid2 * bins) // (2 * L)
    j = (mid2 * g) // (2 * L)
    u_lo = (lo * g - j * L) / L - 0.5
    u_hi = (hi * g - j * L) / L - 0.5
    return b, j, u_lo, u_hi


@lru_cache(maxsize=8)
def _piece_geometry(d: int, g: int, bins: int, chunk: int = 1 << 15):
    """All intersections of grid cells with cubes: (cell, cube, ∫φ, ∫φ²) per piece, read-only.

    When the grid is the cube grid (``bins == g``, the rate experiments' aligned case) every piece is
    a whole cube, with ``∫φ = ‖φ‖_1`` and ``∫φ² = ‖φ‖_2²`` in closed form: O(g^d) instead of the
    quadrature over every piece.
    """
    if bins == g:
        cell = np.arange(g ** d)
        out = (cell, cell.copy(), np.full(cell.size, bump_l1(d)), np.full(cell.size, bump_l2sq(d)))
        for a in out:
            a.setflags(write=False)
        return out
    b, j, u_lo, u_hi = _axis_pieces(bins, g)
    idx = np.indices((b.size,) * d).reshape(d, -1)  # all d-dim pieces: products of axis pieces
    cube = np.ravel_multi_index(tuple(j[idx]), (g,) * d)
    cell = np.ravel_multi_index(tuple(b[idx]), (bins,) * d)
    I1 = np.empty(cube.size)
    I2 = np.empty(cube.size)
    for s in range(0, cube.size, chunk):
        sl = idx[:, s:s + chunk]
        I1[s:s + chunk], I2[s:s + chunk] = bump_box_integrals(u_lo[sl].T, u_hi[sl].T)
    out = (cell, cube, I1, I2)
    for a in out:
        a.setflags(write=False)
    return out



def random_round(x: float, rng: np.random.Generator) -> int:
    r"""Round x to a neighbouring integer at random, with mean x.

    :math:`\lfloor x \rfloor + 1` with probability :math:`x - \lfloor x \rfloor`, else :math:`\lfloor x \rfloor`.

    Parameters
    ----------
    x : float
        The real number to round.
    rng : numpy.random.Generator
        Source of the one uniform draw.

    Returns
    -------
    int
        The rounded value.

    References
    ----------
    003 eq. (37) (the bump count :math:`C_M h^{\gamma\beta - d}` is real; this rounds it without bias).

    Examples
    --------
    >>> random_round(3.0, np.random.default_rng(0)), random_round(2.5, np.random.default_rng(0)) in (2, 3)
    (3, True)
    """
    lo = math.floor(x)
    return int(lo + (rng.random() < x - lo))

@dataclass(frozen=True, eq=False)
class BumpField:
    r""":math:`\eta_v(x) = L h^\beta \sum_k v_k \varphi((x - c_k)/h)` on the grid of :math:`g^d` cubes of side h = 1/g.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    g : int
        Cubes per axis (h = 1/g), >= 1.
    beta : float
        Hölder exponent in (0, 1].
    signs : array_like of int, shape (g^d,)
        :math:`v_k \in \{-1, +1\}` on active cubes, 0 on the others (C-order cube index).
    amplitude : float, default 1.0
        L > 0 (003 uses 1); :math:`L h^\beta \le 1` is required.

    Raises
    ------
    ValueError
        If a parameter is outside its range, ``signs`` has the wrong shape or entries, or
        :math:`L h^\beta > 1`.

    References
    ----------
    003 eqs. (36), (121).

    Examples
    --------
    Two cubes of side 1/2 with signs +1, -1: :math:`L h^\beta = 1/2`.

    >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
    >>> field.scale, field.value([[0.125], [0.75]]).tolist()
    (0.5, [0.5, -0.5])
    """

    d: int
    g: int
    beta: float
    signs: np.ndarray
    amplitude: float = 1.0
    scale: float = field(init=False)

    def __post_init__(self):
        check_int("d", self.d, low=1)
        check_int("g", self.g, low=1)
        check_real("beta", self.beta, low=0.0, high=1.0, low_open=True)
        check_positive("amplitude", self.amplitude)
        s = np.asarray(self.signs)
        if s.shape != (self.g ** self.d,) or not np.all(np.isin(s, (-1, 0, 1))):
            raise ValueError(f"signs must have shape ({self.g ** self.d},) with entries in {{-1, 0, 1}}, got shape {s.shape}")
        scale = self.amplitude * self.h ** self.beta
        if scale > 1.0:
            raise ValueError(f"amplitude * h**beta must be <= 1, got {scale}")
        object.__setattr__(self, "signs", s.astype(np.int8))
        object.__setattr__(self, "scale", float(scale))

    @property
    def h(self) -> float:
        """Cube side h = 1/g.

        References
        ----------
        003 eq. (36).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> field.h
        0.5
        """
        return 1.0 / self.g

    @property
    def num_bumps(self) -> int:
        """Number m of active cubes (non-zero signs).

        References
        ----------
        003 eq. (37).

        Examples
        --------
        >>> BumpField(d=1, g=4, beta=1.0, signs=np.array([1, 0, 0, -1])).num_bumps
        2
        """
        return int(np.count_nonzero(self.signs))

    @classmethod
    def random(cls, *, d, g, beta, num_bumps, rng, amplitude=1.0):
        """A field with ``num_bumps`` distinct cubes chosen uniformly, each with a Rademacher sign :math:`v_k`.

        Parameters
        ----------
        d : int
            Dimension, >= 1.
        g : int
            Cubes per axis, >= 1.
        beta : float
            Hölder exponent in (0, 1].
        num_bumps : int
            m, 0 <= m <= g^d.
        rng : numpy.random.Generator
            Source of randomness (cubes, then signs).
        amplitude : float, default 1.0
            L > 0.

        Returns
        -------
        BumpField
            The random field.

        Raises
        ------
        ValueError
            If a parameter is outside its range or ``num_bumps`` > g^d.

        References
        ----------
        003 eqs. (36)-(37) (v drawn uniformly in the lower-bound argument).

        Examples
        --------
        >>> f = BumpField.random(d=2, g=4, beta=0.5, num_bumps=3, rng=np.random.default_rng(0))
        >>> f.num_bumps, sorted(set(f.signs.tolist()) - {0}) in ([-1], [1], [-1, 1])
        (3, True)
        """
        G = check_int("g", g, low=1) ** check_int("d", d, low=1)
        check_int("num_bumps", num_bumps, low=0)
        if num_bumps > G:
            raise ValueError(f"num_bumps must be <= g**d = {G}, got num_bumps={num_bumps}")
        rng = check_generator(rng)
        signs = np.zeros(G, dtype=np.int8)
        cubes = rng.choice(G, size=num_bumps, replace=False)
        signs[cubes] = rng.choice(np.array([-1, 1], dtype=np.int8), size=num_bumps)
        return cls(d=d, g=g, beta=beta, signs=signs, amplitude=amplitude)

    def value(self, X) -> np.ndarray:
        r""":math:`\eta_v(X)`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            Values in :math:`[-L h^\beta, L h^\beta]`.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 eq. (36).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> field.value([[0.125], [0.75]]).tolist()
        [0.5, -0.5]
        """
        X = check_points(X, self.d)
        t = X * self.g
        j = np.minimum(t.astype(np.int64), self.g - 1)
        flat = np.ravel_multi_index(tuple(j.T), (self.g,) * self.d) if self.d > 1 else j[:, 0]
        return self.scale * self.signs[flat] * bump(t - j - 0.5)

    def cell_integrals(self, bins: int):
        r"""Per grid cell: :math:`\int\eta_v`, :math:`\int\eta_v^2` and :math:`\int|\eta_v|`.

        On the regular grid with ``bins`` cells per axis.

        Exact up to rounding. The geometry depends on (d, g, bins) only and is cached, so re-drawing the
        signs costs a bincount.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        int_eta : ndarray of float64, shape (bins^d,)
            :math:`\int_{\text{cell}} \eta_v`.
        int_sq : ndarray of float64, shape (bins^d,)
            :math:`\int_{\text{cell}} \eta_v^2`.
        int_abs : ndarray of float64, shape (bins^d,)
            :math:`\int_{\text{cell}} |\eta_v|`.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eqs. (36), (121) (the integrals of the excess-risk formulas).

        Examples
        --------
        Aligned grid: :math:`\int = \pm \tfrac12 \cdot \tfrac12 \cdot \tfrac34 = \pm 3/16` and
        :math:`\int\eta^2 = \tfrac14 \cdot \tfrac12 \cdot \tfrac23 = 1/12`.

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> I, Isq, Iabs = field.cell_integrals(2)
        >>> I.tolist(), np.round(Isq * 12, 12).tolist(), Iabs.tolist()
        ([0.1875, -0.1875], [1.0, 1.0], [0.1875, 0.1875])
        """
        bins = check_int("bins", bins, low=1)
        cache = self.__dict__.setdefault("_cell_integrals", {})  # per field: the risk terms ask several times
        if bins in cache:
            return cache[bins]
        cell, cube, I1, I2 = _piece_geometry(self.d, self.g, bins)
        sign = self.signs[cube].astype(float)
        vol = self.h ** self.d  # dx = h^d du
        G = bins ** self.d
        active = np.abs(sign)
        int_abs = np.bincount(cell, weights=active * (self.scale * vol) * I1, minlength=G)
        int_eta = np.bincount(cell, weights=sign * (self.scale * vol) * I1, minlength=G)
        int_sq = np.bincount(cell, weights=active * (self.scale ** 2 * vol) * I2, minlength=G)
        for a in (int_eta, int_sq, int_abs):
            a.setflags(write=False)
        cache[bins] = (int_eta, int_sq, int_abs)
        return cache[bins]

    def integral_abs(self) -> float:
        r""":math:`\int |\eta_v| = m L h^{\beta+d} \|\varphi\|_1`.

        Returns
        -------
        float
            The integral over the unit cube.

        References
        ----------
        003 eq. (41).

        Examples
        --------
        :math:`2 \cdot 1 \cdot (1/2)^2 \cdot 3/4 = 3/8`:

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> field.integral_abs()
        0.375
        """
        return self.num_bumps * self.scale * self.h ** self.d * bump_l1(self.d)

    def integral_sq(self) -> float:
        r""":math:`\int \eta_v^2 = m L^2 h^{2\beta+d} \|\varphi\|_2^2`.

        Returns
        -------
        float
            The integral over the unit cube.

        References
        ----------
        003 Appendix F, eq. (121).

        Examples
        --------
        :math:`2 \cdot (1/2)^3 \cdot 2/3 = 1/6`:

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> round(field.integral_sq() * 6, 12)
        1.0
        """
        return self.num_bumps * self.scale ** 2 * self.h ** self.d * bump_l2sq(self.d)


def bump_l1(d: int) -> float:
    r""":math:`\|\varphi\|_1 = 4 \int_{1/4}^{1/2} (2r)^d\,dr = 4 \cdot 2^d (2^{-d-1} - 4^{-d-1})/(d+1)`.

    Parameters
    ----------
    d : int
        Dimension, >= 1.

    Returns
    -------
    float
        The L1 norm of :func:`bump`.

    References
    ----------
    003 eq. (41) (:math:`\|\varphi\|_1` in the excess risk of the lower-bound construction).

    Examples
    --------
    d = 1: plateau 1/2 plus two triangles of area 1/8.

    >>> bump_l1(1)
    0.75
    """
    return 4.0 * 2.0 ** d * (0.5 ** (d + 1) - 0.25 ** (d + 1)) / (d + 1)


def bump_l2sq(d: int) -> float:
    r""":math:`\|\varphi\|_2^2 = 32 \int_{1/4}^{1/2} (1/2 - r)(2r)^d\,dr`.

    Parameters
    ----------
    d : int
        Dimension, >= 1.

    Returns
    -------
    float
        The squared L2 norm of :func:`bump`.

    References
    ----------
    003 Appendix F, eq. (121) (the regression construction's risk involves :math:`\int \eta_v^2`).

    Examples
    --------
    d = 1: plateau 1/2 plus two edges :math:`\int_0^{1/4} (4s)^2 ds = 1/12` each, total 2/3.

    >>> round(bump_l2sq(1), 12)
    0.666666666667
    """
    c = 32.0 * 2.0 ** d
    return c * (0.5 * (0.5 ** (d + 1) - 0.25 ** (d + 1)) / (d + 1) - (0.5 ** (d + 2) - 0.25 ** (d + 2)) / (d + 2))


def _ratio_masses(field_: BumpField, bins: int):
    int_eta, int_sq, int_abs = field_.cell_integrals(bins)
    return int_eta, int_sq, int_abs, cell_volume(bins, field_.d)


@dataclass(frozen=True, eq=False)
class BumpClassification(ClassificationLaw):
    r"""003 eq. (34)/(36): :math:`\eta_1 = (1 + \eta_v)/2`, :math:`\eta_0 = (1 - \eta_v)/2`.

    (The paper's classes 2 and 1.)

    For K > 2 (003 proves the lower bound with K = 2 only, Appendix B) a floor ρ/K is added to every
    class: :math:`\eta_j = \rho/K + (1 - \rho)(1 \pm \eta_v)/2` for j ∈ {0, 1} and ρ/K otherwise, so the
    Bayes class is still 0 or 1 and the margin is :math:`(1 - \rho)|\eta_v|` everywhere.

    Parameters
    ----------
    field : BumpField
        The bump function :math:`\eta_v`.
    num_classes : int, default 2
        K >= 2.
    rho : float, default 0.0
        ρ in [0, 1), mass spread over all classes.

    Raises
    ------
    ValueError
        If ``field`` is not a BumpField or a parameter is outside its range.

    References
    ----------
    003 eqs. (33)-(37), Appendix B.

    Examples
    --------
    >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
    >>> law = BumpClassification(field)
    >>> law.eta([[0.125]]).tolist(), law.bayes_risk()
    ([[0.25, 0.75]], 0.3125)
    """

    field: BumpField
    num_classes: int = 2
    rho: float = 0.0

    def __post_init__(self):
        if not isinstance(self.field, BumpField):
            raise ValueError(f"field must be a BumpField, got field={self.field!r}")
        check_int("num_classes", self.num_classes, low=2)
        check_real("rho", self.rho, low=0.0, high=1.0, high_open=True)

    @classmethod
    def lower_bound(cls, *, d, h, beta, gamma, rng, C_M=1.0, num_classes=2, rho=0.0, amplitude=1.0,
                    rounding="floor"):
        r"""The construction at bandwidth h: g = ceil(1/h) cubes per axis and m random bumps with random signs.

        :math:`m = \min(g^d, \max(1, \lfloor C_M h^{\gamma\beta - d} \rfloor))` (003 eq. (37)) with
        ``rounding="floor"``; ``"random"`` rounds up with probability the fractional part
        (:func:`random_round`), so the mean bump count is exactly :math:`C_M h^{\gamma\beta - d}`.

        Parameters
        ----------
        d : int
            Dimension, >= 1.
        h : float
            Bandwidth, > 0 (rounded to 1/ceil(1/h)).
        beta : float
            Hölder exponent in (0, 1].
        gamma : float
            Margin exponent in (0, 1] (the linear bump edge allows no more).
        rng : numpy.random.Generator
            Source of randomness.
        C_M : float, default 1.0
            Bump-count constant, > 0.
        num_classes : int, default 2
            K >= 2.
        rho : float, default 0.0
            ρ in [0, 1).
        amplitude : float, default 1.0
            L > 0.
        rounding : {"floor", "random"}, default "floor"
            How the real bump count is rounded.

        Returns
        -------
        BumpClassification
            The random law.

        Raises
        ------
        ValueError
            If a parameter is outside its range.

        References
        ----------
        003 eq. (37).

        Examples
        --------
        h = 1/4, γβ = 1, d = 1: :math:`C_M h^0 = 1` bump among 4 cubes.

        >>> law = BumpClassification.lower_bound(d=1, h=0.25, beta=1.0, gamma=1.0, rng=np.random.default_rng(0))
        >>> law.field.g, law.field.num_bumps
        (4, 1)
        """
        check_positive("h", h)
        check_real("gamma", gamma, low=0.0, high=1.0, low_open=True)
        check_positive("C_M", C_M)
        check_choice("rounding", rounding, ("floor", "random"))
        g = max(1, math.ceil(1.0 / h - 1e-9))
        hh = 1.0 / g
        x = C_M * hh ** (gamma * beta - d)
        m = min(g ** d, max(1, math.floor(x) if rounding == "floor" else random_round(x, rng)))
        f = BumpField.random(d=d, g=g, beta=beta, num_bumps=m, rng=rng, amplitude=amplitude)
        return cls(field=f, num_classes=num_classes, rho=rho)

    @property
    def d(self) -> int:
        """Dimension d of the features (the field's).

        References
        ----------
        003 Section 3.2 (features in :math:`[0, 1]^d`).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).d
        1
        """
        return self.field.d

    def eta(self, X) -> np.ndarray:
        r"""Class probabilities :math:`\eta_j(x)` of 003 eq. (34).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n, K)
            Rows sum to 1.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 eq. (34).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).eta([[0.125], [0.75]]).tolist()
        [[0.25, 0.75], [0.75, 0.25]]
        """
        v = self.field.value(X)
        K, rho = self.num_classes, self.rho
        out = np.full((v.size, K), rho / K)
        out[:, 0] += (1.0 - rho) * (1.0 - v) / 2.0
        out[:, 1] += (1.0 - rho) * (1.0 + v) / 2.0
        return out

    def cell_class_mass(self, bins: int) -> np.ndarray:
        r"""Exact :math:`\int_{\text{cell}} \eta_j` for every grid cell and class.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        ndarray of float64, shape (bins^d, K)
            Cells in C order.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (8) with f = 1.

        Examples
        --------
        :math:`(1/2 \mp 3/16)/2` on the first cell:

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).cell_class_mass(2).tolist()
        [[0.15625, 0.34375], [0.34375, 0.15625]]
        """
        int_eta, _, _, vol = _ratio_masses(self.field, bins)
        K, rho = self.num_classes, self.rho
        out = np.full((int_eta.size, K), vol * rho / K)
        out[:, 0] += (1.0 - rho) * (vol - int_eta) / 2.0
        out[:, 1] += (1.0 - rho) * (vol + int_eta) / 2.0
        return out

    def cell_bayes_mass(self, bins: int) -> np.ndarray:
        r"""Exact :math:`\int_{\text{cell}} \eta^*` for every grid cell.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        ndarray of float64, shape (bins^d,)
            Cells in C order.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (8) with f = 1.

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).cell_bayes_mass(2).tolist()
        [0.34375, 0.34375]
        """
        _, _, int_abs, vol = _ratio_masses(self.field, bins)
        return vol * self.rho / self.num_classes + (1.0 - self.rho) * (vol + int_abs) / 2.0

    def bayes_risk(self) -> float:
        r"""Exact Bayes risk :math:`1 - \rho/K - (1 - \rho)(1 + \int|\eta_v|)/2`.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (6)).

        References
        ----------
        003 eq. (6).

        Examples
        --------
        :math:`\int|\eta_v| = 3/8`: :math:`R^* = 1 - 11/16 = 5/16`.

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).bayes_risk()
        0.3125
        """
        return 1.0 - self.rho / self.num_classes - (1.0 - self.rho) * (1.0 + self.field.integral_abs()) / 2.0

    def margin_probability(self, t) -> np.ndarray:
        r"""Exact :math:`P(0 < \eta^*(X) - \eta_s(X) < t)` (003 Assumption 1(b)).

        :math:`(m/g^d)[1 - (1 - s/2)^d]` with :math:`s = t/((1-\rho) L h^\beta)` for s <= 1, and m/g^d above.

        Parameters
        ----------
        t : array_like of float
            Margins, > 0.

        Returns
        -------
        ndarray of float64, shape of ``t``
            Probabilities.

        References
        ----------
        003 Assumption 1(b), eq. (37).

        Examples
        --------
        s = 1/2 on both cubes (d = 1): :math:`1 - 3/4 = 1/4`.

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).margin_probability([0.25, 1.0]).tolist()
        [0.25, 1.0]
        """
        t = np.asarray(t, dtype=float)
        s = t / ((1.0 - self.rho) * self.field.scale)
        inner = np.where(s > 1.0, 1.0, 1.0 - (1.0 - np.minimum(s, 1.0) / 2.0) ** self.d)
        return self.field.num_bumps / self.field.g ** self.d * inner

    @property
    def holder_constant(self) -> float:
        r"""L of 003 Assumption 1(a) for every :math:`\eta_j`: :math:`(1 - \rho) 4^\beta L`.

        References
        ----------
        003 Assumption 1(a).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpClassification(field).holder_constant
        4.0
        """
        return (1.0 - self.rho) * 4.0 ** self.field.beta * self.field.amplitude


@dataclass(frozen=True, eq=False)
class BumpRegression(RegressionLaw):
    r"""003 Appendix F, eq. (121): labels :math:`Y \in \{-1, +1\}` with :math:`P(Y = 1 \mid x) = (1 + \eta_v(x))/2`.

    So :math:`E[Y \mid x] = \eta_v(x)` and Assumption 2 holds with any T > 1. The paper takes every cube
    active (:math:`v \in \{-1, 1\}^G`); :meth:`lower_bound` builds that.

    Parameters
    ----------
    field : BumpField
        The regression function :math:`\eta_v`.

    Raises
    ------
    ValueError
        If ``field`` is not a BumpField.

    References
    ----------
    003 Appendix F (eq. (121), the label law after it, and (122): every cube active).

    Examples
    --------
    :math:`R^* = 1 - \int \eta_v^2 = 1 - 1/6`:

    >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
    >>> round(BumpRegression(field).bayes_risk() * 6, 12)
    5.0
    """

    field: BumpField

    def __post_init__(self):
        if not isinstance(self.field, BumpField):
            raise ValueError(f"field must be a BumpField, got field={self.field!r}")

    @classmethod
    def lower_bound(cls, *, d, h, beta, rng, amplitude=1.0):
        """All :math:`g^d` cubes (g = ceil(1/h)) with Rademacher signs (003 Appendix F).

        Parameters
        ----------
        d : int
            Dimension, >= 1.
        h : float
            Bandwidth, > 0.
        beta : float
            Hölder exponent in (0, 1].
        rng : numpy.random.Generator
            Source of the signs.
        amplitude : float, default 1.0
            L > 0.

        Returns
        -------
        BumpRegression
            The random law.

        Raises
        ------
        ValueError
            If a parameter is outside its range.

        References
        ----------
        003 eq. (121), Appendix F.

        Examples
        --------
        >>> law = BumpRegression.lower_bound(d=1, h=0.5, beta=1.0, rng=np.random.default_rng(0))
        >>> law.field.g, law.field.num_bumps
        (2, 2)
        """
        check_positive("h", h)
        g = max(1, math.ceil(1.0 / h - 1e-9))
        return cls(field=BumpField.random(d=d, g=g, beta=beta, num_bumps=g ** d, rng=rng, amplitude=amplitude))

    @property
    def d(self) -> int:
        """Dimension d of the features (the field's).

        References
        ----------
        003 Section 3.2.

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpRegression(field).d
        1
        """
        return self.field.d

    def eta(self, X) -> np.ndarray:
        r"""The regression function :math:`\eta_v(x) = E[Y \mid x]`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            :math:`\eta_v` at each point.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 eq. (121).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpRegression(field).eta([[0.125], [0.75]]).tolist()
        [0.5, -0.5]
        """
        return self.field.value(X)

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        r"""Labels ±1 with :math:`P(Y = 1) = (1 + \eta_v)/2`.

        Parameters
        ----------
        eta_x : ndarray of float64, shape (n,)
            :math:`\eta_v(X_i)`, in [-1, 1].
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n,)
            Labels in {-1, +1}.

        References
        ----------
        003 Appendix F (the label law after eq. (121)).

        Examples
        --------
        :math:`\eta_v = \pm 1` makes the label deterministic:

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> BumpRegression(field).sample_labels(np.array([1.0, -1.0]), np.random.default_rng(0)).tolist()
        [1.0, -1.0]
        """
        u = rng.random(eta_x.size)
        return np.where(u < (1.0 + eta_x) / 2.0, 1.0, -1.0)

    def cell_moments(self, bins: int):
        r"""Per grid cell: mean and within-cell variance of :math:`\eta_v`, from :meth:`BumpField.cell_integrals`.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        mean : ndarray of float64, shape (bins^d,)
            Cell means.
        var : ndarray of float64, shape (bins^d,)
            Within-cell variances.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (9) with f = 1.

        Examples
        --------
        Mean :math:`(3/16)/(1/2) = 3/8`; variance :math:`(1/12)/(1/2) - 9/64 = 5/192`.

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> mean, var = BumpRegression(field).cell_moments(2)
        >>> mean.tolist(), np.round(var * 192, 9).tolist()
        ([0.375, -0.375], [5.0, 5.0])
        """
        int_eta, int_sq, _, vol = _ratio_masses(self.field, bins)
        mean = int_eta / vol
        return mean, int_sq / vol - mean ** 2

    def cell_label_masses(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Exact joint law of (grid cell, label): :math:`P(X \in B_l, Y = y)` for y ∈ (-1, +1).

        :math:`P(X \in B_l, Y = \pm 1) = (|B_l| \pm \int_{B_l} \eta_v)/2`, exact because the label probability
        is linear in η.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        masses : ndarray of float64, shape (bins^d, 2)
            Sums to 1.
        values : ndarray of float64, shape (2,)
            The label values ``[-1., 1.]``.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 Appendix F (the label law after eq. (121)).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> masses, values = BumpRegression(field).cell_label_masses(2)
        >>> masses.tolist(), values.tolist()
        ([[0.15625, 0.34375], [0.34375, 0.15625]], [-1.0, 1.0])
        """
        int_eta, _, _, vol = _ratio_masses(self.field, bins)
        return np.stack([(vol - int_eta) / 2.0, (vol + int_eta) / 2.0], axis=1), np.array([-1.0, 1.0])

    def bayes_risk(self) -> float:
        r"""Exact Bayes risk :math:`E[\mathrm{Var}(Y \mid X)] = 1 - \int \eta_v^2`.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (7)).

        References
        ----------
        003 eq. (7); Appendix F.

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> round(BumpRegression(field).bayes_risk() * 6, 12)
        5.0
        """
        return 1.0 - self.field.integral_sq()


def three_point_T(*, M_p: float, p: float, h: float, beta: float) -> float:
    r"""The outer atom of the three-point law, 003 eq. (159): :math:`T = (M_p h^{-\beta} / 2)^{1/(p-1)}`.

    Parameters
    ----------
    M_p : float
        The p-th moment bound, > 0.
    p : float
        Moment order, > 1.
    h : float
        Bandwidth, > 0.
    beta : float
        Hölder exponent, > 0.

    Returns
    -------
    float
        T.

    Raises
    ------
    ValueError
        If a parameter is outside its range.

    References
    ----------
    003 eq. (159).

    Examples
    --------
    :math:`M_p = 2, p = 2, h = 1/4, \beta = 1`: :math:`T = 2 \cdot 4 / 2 = 4`.

    >>> three_point_T(M_p=2.0, p=2.0, h=0.25, beta=1.0)
    4.0
    """
    check_positive("M_p", M_p)
    check_real("p", p, low=1.0, low_open=True)
    check_positive("h", h)
    check_positive("beta", beta)
    return (0.5 * M_p * h ** (-beta)) ** (1.0 / (p - 1.0))


@dataclass(frozen=True, eq=False)
class ThreePointRegression(RegressionLaw):
    r"""003 eq. (156): Y = T w.p. :math:`(M_p/T^p + \eta_v/T)/2`, -T w.p. :math:`(M_p/T^p - \eta_v/T)/2`, 0 otherwise.

    Then :math:`E[Y \mid x] = \eta_v(x)` (eq. (158)) and :math:`E[|Y|^p \mid x] = M_p` (eq. (157),
    Assumption 3). The probabilities are valid iff :math:`|\eta_v| T^{p-1} \le M_p` and
    :math:`M_p \le T^p`, checked here; with T from eq. (159) (:meth:`lower_bound`) the first holds whenever
    L <= 2.

    Parameters
    ----------
    field : BumpField
        The regression function :math:`\eta_v`.
    p : float
        Moment order, > 1.
    M_p : float
        The p-th moment, > 0.
    T : float
        The outer atoms ±T, > 0.

    Raises
    ------
    ValueError
        If ``field`` is not a BumpField, a parameter is outside its range, or the probabilities of
        eq. (156) would be negative.

    References
    ----------
    003 eqs. (156)-(159) (Appendix J, proof of Theorem 9; reused in Appendix L).

    Examples
    --------
    p = 2, :math:`M_p = 2`, T = 4: :math:`P(Y = \pm T) = (1/8 \pm \eta_v/4)/2`.

    >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
    >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
    >>> [p.tolist() for p in law.probabilities(np.array([0.5, 0.0]))]
    [[0.125, 0.0625], [0.875, 0.875], [0.0, 0.0625]]
    """

    field: BumpField
    p: float
    M_p: float
    T: float

    def __post_init__(self):
        if not isinstance(self.field, BumpField):
            raise ValueError(f"field must be a BumpField, got field={self.field!r}")
        check_real("p", self.p, low=1.0, low_open=True)
        check_positive("M_p", self.M_p)
        check_positive("T", self.T)
        if self.M_p > self.T ** self.p:
            raise ValueError(f"need M_p <= T**p for P(Y = 0) >= 0, got M_p={self.M_p}, T={self.T}, p={self.p}")
        if self.field.scale * self.T ** (self.p - 1.0) > self.M_p * (1 + 1e-12):
            raise ValueError(f"need max|eta_v| * T**(p-1) <= M_p for P(Y = ±T) >= 0, got T={self.T}")

    @classmethod
    def lower_bound(cls, *, d, h, beta, p, M_p, rng, amplitude=1.0):
        r"""All cubes active with Rademacher signs and T from 003 eq. (159) at h = 1/ceil(1/h).

        Parameters
        ----------
        d : int
            Dimension, >= 1.
        h : float
            Bandwidth, > 0.
        beta : float
            Hölder exponent in (0, 1].
        p : float
            Moment order, > 1.
        M_p : float
            The p-th moment, > 0.
        rng : numpy.random.Generator
            Source of the signs.
        amplitude : float, default 1.0
            L > 0.

        Returns
        -------
        ThreePointRegression
            The random law.

        Raises
        ------
        ValueError
            If a parameter is outside its range.

        References
        ----------
        003 eqs. (156), (159).

        Examples
        --------
        h = 1/2, β = 1, p = 2, :math:`M_p = 2`: :math:`T = 2 \cdot 2 / 2 = 2`.

        >>> law = ThreePointRegression.lower_bound(d=1, h=0.5, beta=1.0, p=2.0, M_p=2.0, rng=np.random.default_rng(0))
        >>> law.T, law.field.num_bumps
        (2.0, 2)
        """
        check_positive("h", h)
        g = max(1, math.ceil(1.0 / h - 1e-9))
        f = BumpField.random(d=d, g=g, beta=beta, num_bumps=g ** d, rng=rng, amplitude=amplitude)
        return cls(field=f, p=p, M_p=M_p, T=three_point_T(M_p=M_p, p=p, h=f.h, beta=beta))

    @property
    def d(self) -> int:
        """Dimension d of the features (the field's).

        References
        ----------
        003 Section 3.2.

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> law.d
        1
        """
        return self.field.d

    def eta(self, X) -> np.ndarray:
        r"""The regression function :math:`\eta_v(x) = E[Y \mid x]` (003 eq. (158)).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            :math:`\eta_v` at each point.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 eq. (158).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> law.eta([[0.125]]).tolist()
        [0.5]
        """
        return self.field.value(X)

    def probabilities(self, eta_x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r""":math:`(P(Y = T), P(Y = 0), P(Y = -T))` given :math:`\eta_v(x)` (003 eq. (156)).

        Parameters
        ----------
        eta_x : array_like of float
            :math:`\eta_v(x)`.

        Returns
        -------
        plus : ndarray of float64, shape of ``eta_x``
            P(Y = T).
        zero : ndarray of float64, shape of ``eta_x``
            P(Y = 0).
        minus : ndarray of float64, shape of ``eta_x``
            P(Y = -T).

        References
        ----------
        003 eq. (156).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> [float(p) for p in law.probabilities(0.0)]
        [0.0625, 0.875, 0.0625]
        """
        eta_x = np.asarray(eta_x, dtype=float)
        tail = self.M_p / self.T ** self.p
        plus = 0.5 * (tail + eta_x / self.T)
        minus = 0.5 * (tail - eta_x / self.T)
        return plus, np.full_like(eta_x, 1.0 - tail), minus

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        r"""Labels in {-T, 0, T} from :meth:`probabilities`.

        Parameters
        ----------
        eta_x : ndarray of float64, shape (n,)
            :math:`\eta_v(X_i)`.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n,)
            Labels.

        References
        ----------
        003 eq. (156).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> y = law.sample_labels(np.zeros(20), np.random.default_rng(0))
        >>> bool(np.isin(y, [-4.0, 0.0, 4.0]).all())
        True
        """
        plus, _, minus = self.probabilities(eta_x)
        u = rng.random(eta_x.size)
        return np.where(u < plus, self.T, np.where(u < plus + minus, -self.T, 0.0))

    def cell_moments(self, bins: int):
        r"""Per grid cell: mean and within-cell variance of :math:`\eta_v`.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        mean : ndarray of float64, shape (bins^d,)
            Cell means.
        var : ndarray of float64, shape (bins^d,)
            Within-cell variances.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (9) with f = 1.

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> law.cell_moments(2)[0].tolist()
        [0.375, -0.375]
        """
        int_eta, int_sq, _, vol = _ratio_masses(self.field, bins)
        mean = int_eta / vol
        return mean, int_sq / vol - mean ** 2

    def cell_label_masses(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Exact joint law of (grid cell, label) for the labels (-T, 0, T).

        The three probabilities of eq. (156) are affine in :math:`\eta_v(x)`, so
        :math:`P(X \in B_l, Y = \pm T) = (|B_l| M_p/T^p \pm \int_{B_l} \eta_v / T)/2` and
        :math:`P(X \in B_l, Y = 0) = |B_l| (1 - M_p/T^p)`.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        masses : ndarray of float64, shape (bins^d, 3)
            Columns for -T, 0, T; sums to 1.
        values : ndarray of float64, shape (3,)
            ``[-T, 0, T]``.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (156).

        Examples
        --------
        First cell: :math:`(1/16 \mp 3/64)/2` and 7/16.

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> masses, values = law.cell_label_masses(2)
        >>> masses[0].tolist(), values.tolist()
        ([0.0078125, 0.4375, 0.0546875], [-4.0, 0.0, 4.0])
        """
        int_eta, _, _, vol = _ratio_masses(self.field, bins)
        tail = self.M_p / self.T ** self.p
        minus = 0.5 * (vol * tail - int_eta / self.T)
        plus = 0.5 * (vol * tail + int_eta / self.T)
        zero = np.full_like(int_eta, vol * (1.0 - tail))
        return np.stack([np.maximum(minus, 0.0), zero, np.maximum(plus, 0.0)], axis=1), np.array([-self.T, 0.0, self.T])

    def bayes_risk(self) -> float:
        r""":math:`E[\mathrm{Var}(Y \mid X)] = M_p T^{2-p} - \int \eta_v^2`.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (7)).

        References
        ----------
        003 eqs. (7), (156)-(157).

        Examples
        --------
        :math:`2 \cdot 4^0 - 1/6 = 11/6`:

        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> round(law.bayes_risk() * 6, 12)
        11.0
        """
        return self.M_p * self.T ** (2.0 - self.p) - self.field.integral_sq()

    def clipped_mean(self, eta_x, level: float) -> np.ndarray:
        r"""Exact :math:`E[\mathrm{clip}(Y, -\ell, \ell) \mid x] = \eta_v(x) \min(\ell, T)/T`.

        Parameters
        ----------
        eta_x : array_like of float
            :math:`\eta_v(x)`.
        level : float
            ℓ > 0, the clipping level.

        Returns
        -------
        ndarray of float64, shape of ``eta_x``
            The clipped conditional means.

        Raises
        ------
        ValueError
            If ``level`` is not finite and > 0.

        References
        ----------
        003 Lemma 2 (eq. (167), clipping bias), eq. (156).

        Examples
        --------
        >>> field = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]))
        >>> law = ThreePointRegression(field, p=2.0, M_p=2.0, T=4.0)
        >>> float(law.clipped_mean(0.5, 2.0))
        0.25
        """
        check_positive("level", level)
        return np.asarray(eta_x, dtype=float) * min(level, self.T) / self.T
