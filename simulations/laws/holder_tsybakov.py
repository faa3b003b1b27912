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
    """``φ(u) = min(1, 4(1/2 − ‖u‖_∞))_+`` for ``u`` of shape ``(..., d)``; shape ``(...)``."""
    r = np.max(np.abs(np.asarray(u, dtype=float)), axis=-1)
    return np.clip(4.0 * (0.5 - r), 0.0, 1.0)


def bump_box_integrals(lo, hi) -> tuple[np.ndarray, np.ndarray]:
    """Exact ``(∫_box φ, ∫_box φ²)`` for boxes ``∏_i [lo_i, hi_i] ⊂ [−1/2, 1/2]^d``.

    Parameters
    ----------
    lo, hi : arrays of shape (n, d) with ``−1/2 <= lo <= hi <= 1/2``.

    Returns
    -------
    two arrays of shape (n,).
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
    """``floor(x)`` or ``floor(x) + 1`` with probability ``x − floor(x)``: an integer with mean ``x``."""
    lo = math.floor(x)
    return int(lo + (rng.random() < x - lo))

@dataclass(frozen=True, eq=False)
class BumpField:
    """``η_v(x) = L h^β ∑_k v_k φ((x − c_k)/h)`` on the grid of ``g^d`` cubes of side ``h = 1/g``.

    Parameters
    ----------
    d : int >= 1, dimension.
    g : int >= 1, cubes per axis (``h = 1/g``).
    beta : float in (0, 1], Hölder exponent.
    signs : int array of shape (g^d,) with entries in {−1, 0, +1}: ``v_k`` on active cubes, 0 on the
        others (C-order cube index, as :mod:`simulations.laws.base`).
    amplitude : float > 0, ``L`` (003 uses 1); ``L h^β <= 1`` is required.

    References: 003 eqs. (36), (121).
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
        return 1.0 / self.g

    @property
    def num_bumps(self) -> int:
        return int(np.count_nonzero(self.signs))

    @classmethod
    def random(cls, *, d, g, beta, num_bumps, rng, amplitude=1.0):
        """``num_bumps`` distinct cubes chosen uniformly, each with a Rademacher sign ``v_k``."""
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
        """``η_v(X)``, shape ``(n,)``."""
        X = check_points(X, self.d)
        t = X * self.g
        j = np.minimum(t.astype(np.int64), self.g - 1)
        flat = np.ravel_multi_index(tuple(j.T), (self.g,) * self.d) if self.d > 1 else j[:, 0]
        return self.scale * self.signs[flat] * bump(t - j - 0.5)

    def cell_integrals(self, bins: int):
        """Per cell of the regular grid with ``bins`` cells per axis: ``∫η``, ``∫η²``, ``∫|η|``.

        Each an array of shape ``(bins^d,)``; exact up to rounding (see module docstring). The
        geometry (which grid cell meets which cube, and ``∫φ``, ``∫φ²`` over each intersection)
        depends on ``(d, g, bins)`` only and is cached, so re-drawing the signs costs a bincount.
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
        """``∫ |η_v| = m L h^{β+d} ‖φ‖_1`` with ``‖φ‖_1 = 4·2^d (2^{-d-1} − 4^{-d-1})/(d+1)``."""
        return self.num_bumps * self.scale * self.h ** self.d * bump_l1(self.d)

    def integral_sq(self) -> float:
        """``∫ η_v² = m L² h^{2β+d} ‖φ‖_2²``."""
        return self.num_bumps * self.scale ** 2 * self.h ** self.d * bump_l2sq(self.d)


def bump_l1(d: int) -> float:
    """``‖φ‖_1 = 4 ∫_{1/4}^{1/2} (2r)^d dr``."""
    return 4.0 * 2.0 ** d * (0.5 ** (d + 1) - 0.25 ** (d + 1)) / (d + 1)


def bump_l2sq(d: int) -> float:
    """``‖φ‖_2² = 32 ∫_{1/4}^{1/2} (1/2 − r)(2r)^d dr``."""
    c = 32.0 * 2.0 ** d
    return c * (0.5 * (0.5 ** (d + 1) - 0.25 ** (d + 1)) / (d + 1) - (0.5 ** (d + 2) - 0.25 ** (d + 2)) / (d + 2))


def _ratio_masses(field_: BumpField, bins: int):
    int_eta, int_sq, int_abs = field_.cell_integrals(bins)
    return int_eta, int_sq, int_abs, cell_volume(bins, field_.d)


@dataclass(frozen=True, eq=False)
class BumpClassification(ClassificationLaw):
    """003 eq. (34)/(36): ``η_1 = (1 + η_v)/2``, ``η_0 = (1 − η_v)/2`` (the paper's classes 2 and 1).

    For ``K > 2`` (003 proves the lower bound with ``K = 2`` only, Appendix B) a floor ``ρ/K`` is added to
    every class: ``η_j = ρ/K + (1 − ρ)(1 ± η_v)/2`` for ``j ∈ {0, 1}`` and ``ρ/K`` otherwise, so the
    Bayes class is still 0 or 1 and the margin is ``η* − η_s = (1 − ρ)|η_v|`` everywhere.

    Parameters
    ----------
    field : BumpField.
    num_classes : int >= 2.
    rho : float in [0, 1), mass spread over all classes (must be 0 when K = 2 is meant literally).
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
        """The construction at bandwidth ``h``: ``g = ceil(1/h)`` cubes per axis and
        ``m = min(g^d, max(1, round(C_M h^{γβ−d})))`` random bumps with random signs (003 eq. (37)).

        ``rounding="floor"`` takes the paper's integer part; ``"random"`` rounds up with probability
        the fractional part (:func:`random_round`), so the mean bump count is exactly ``C_M h^{γβ−d}``
        and a sweep over h shows no steps from the integer part.
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
        return self.field.d

    def eta(self, X) -> np.ndarray:
        v = self.field.value(X)
        K, rho = self.num_classes, self.rho
        out = np.full((v.size, K), rho / K)
        out[:, 0] += (1.0 - rho) * (1.0 - v) / 2.0
        out[:, 1] += (1.0 - rho) * (1.0 + v) / 2.0
        return out

    def cell_class_mass(self, bins: int) -> np.ndarray:
        int_eta, _, _, vol = _ratio_masses(self.field, bins)
        K, rho = self.num_classes, self.rho
        out = np.full((int_eta.size, K), vol * rho / K)
        out[:, 0] += (1.0 - rho) * (vol - int_eta) / 2.0
        out[:, 1] += (1.0 - rho) * (vol + int_eta) / 2.0
        return out

    def cell_bayes_mass(self, bins: int) -> np.ndarray:
        _, _, int_abs, vol = _ratio_masses(self.field, bins)
        return vol * self.rho / self.num_classes + (1.0 - self.rho) * (vol + int_abs) / 2.0

    def bayes_risk(self) -> float:
        return 1.0 - self.rho / self.num_classes - (1.0 - self.rho) * (1.0 + self.field.integral_abs()) / 2.0

    def margin_probability(self, t) -> np.ndarray:
        """Exact ``P(0 < η*(X) − η_s(X) < t)`` (Assumption 1(b)); ``t`` array-like > 0."""
        t = np.asarray(t, dtype=float)
        s = t / ((1.0 - self.rho) * self.field.scale)
        inner = np.where(s > 1.0, 1.0, 1.0 - (1.0 - np.minimum(s, 1.0) / 2.0) ** self.d)
        return self.field.num_bumps / self.field.g ** self.d * inner

    @property
    def holder_constant(self) -> float:
        """L in Assumption 1(a) for every η_j: ``(1 − ρ) 4^β L``."""
        return (1.0 - self.rho) * 4.0 ** self.field.beta * self.field.amplitude


@dataclass(frozen=True, eq=False)
class BumpRegression(RegressionLaw):
    """003 eq. (121)-(122): labels ``Y ∈ {−1, +1}`` with ``P(Y = 1 | x) = (1 + η_v(x))/2``.

    So ``E[Y | x] = η_v(x)`` and Assumption 2 holds with any ``T > 1``. The paper takes every cube
    active (``v ∈ {−1, 1}^G``); :meth:`lower_bound` builds that.
    """

    field: BumpField

    def __post_init__(self):
        if not isinstance(self.field, BumpField):
            raise ValueError(f"field must be a BumpField, got field={self.field!r}")

    @classmethod
    def lower_bound(cls, *, d, h, beta, rng, amplitude=1.0):
        """All ``g^d`` cubes (``g = ceil(1/h)``) with Rademacher signs (003 Appendix F)."""
        check_positive("h", h)
        g = max(1, math.ceil(1.0 / h - 1e-9))
        return cls(field=BumpField.random(d=d, g=g, beta=beta, num_bumps=g ** d, rng=rng, amplitude=amplitude))

    @property
    def d(self) -> int:
        return self.field.d

    def eta(self, X) -> np.ndarray:
        return self.field.value(X)

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        u = rng.random(eta_x.size)
        return np.where(u < (1.0 + eta_x) / 2.0, 1.0, -1.0)

    def cell_moments(self, bins: int):
        int_eta, int_sq, _, vol = _ratio_masses(self.field, bins)
        mean = int_eta / vol
        return mean, int_sq / vol - mean ** 2

    def cell_label_masses(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact joint law of (grid cell, label): ``P(X ∈ B_l, Y = y)`` for ``y ∈ (−1, +1)``.

        ``P(X ∈ B_l, Y = ±1) = ∫_{B_l} (1 ± η_v)/2 = (|B_l| ± ∫_{B_l} η_v)/2``, exact because the label
        probability is linear in η. Returns ``(masses, values)``: masses of shape ``(bins^d, 2)``
        (summing to 1), values ``array([−1., 1.])``.
        """
        int_eta, _, _, vol = _ratio_masses(self.field, bins)
        return np.stack([(vol - int_eta) / 2.0, (vol + int_eta) / 2.0], axis=1), np.array([-1.0, 1.0])

    def bayes_risk(self) -> float:
        return 1.0 - self.field.integral_sq()


def three_point_T(*, M_p: float, p: float, h: float, beta: float) -> float:
    """003 eq. (159): ``T = (M_p h^{−β} / 2)^{1/(p−1)}``."""
    check_positive("M_p", M_p)
    check_real("p", p, low=1.0, low_open=True)
    check_positive("h", h)
    check_positive("beta", beta)
    return (0.5 * M_p * h ** (-beta)) ** (1.0 / (p - 1.0))


@dataclass(frozen=True, eq=False)
class ThreePointRegression(RegressionLaw):
    """003 eq. (156): given x, ``Y = T`` w.p. ``(M_p/T^p + η_v/T)/2``, ``−T`` w.p.
    ``(M_p/T^p − η_v/T)/2``, ``0`` otherwise.

    Then ``E[Y | x] = η_v(x)`` (eq. (158)) and ``E[|Y|^p | x] = M_p`` (eq. (157), Assumption 3).
    The probabilities are valid iff ``|η_v| T^{p−1} <= M_p`` and ``M_p <= T^p``, checked here; with
    ``T`` from eq. (159) (:meth:`lower_bound`) the first holds whenever ``L <= 2``.

    Parameters
    ----------
    field : BumpField.
    p : float > 1, moment order.
    M_p : float > 0, the p-th moment.
    T : float > 0, the outer atoms ±T.
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
        """All cubes active with Rademacher signs and ``T`` from 003 eq. (159) at ``h = 1/ceil(1/h)``."""
        check_positive("h", h)
        g = max(1, math.ceil(1.0 / h - 1e-9))
        f = BumpField.random(d=d, g=g, beta=beta, num_bumps=g ** d, rng=rng, amplitude=amplitude)
        return cls(field=f, p=p, M_p=M_p, T=three_point_T(M_p=M_p, p=p, h=f.h, beta=beta))

    @property
    def d(self) -> int:
        return self.field.d

    def eta(self, X) -> np.ndarray:
        return self.field.value(X)

    def probabilities(self, eta_x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(P(Y = T), P(Y = 0), P(Y = −T))`` given ``η_v(x)``, each of the shape of ``eta_x``."""
        eta_x = np.asarray(eta_x, dtype=float)
        tail = self.M_p / self.T ** self.p
        plus = 0.5 * (tail + eta_x / self.T)
        minus = 0.5 * (tail - eta_x / self.T)
        return plus, np.full_like(eta_x, 1.0 - tail), minus

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        plus, _, minus = self.probabilities(eta_x)
        u = rng.random(eta_x.size)
        return np.where(u < plus, self.T, np.where(u < plus + minus, -self.T, 0.0))

    def cell_moments(self, bins: int):
        int_eta, int_sq, _, vol = _ratio_masses(self.field, bins)
        mean = int_eta / vol
        return mean, int_sq / vol - mean ** 2

    def cell_label_masses(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact joint law of (grid cell, label) for the labels ``(−T, 0, T)``.

        The three probabilities of eq. (156) are affine in ``η_v(x)``, so their integrals over a cell
        are those of the cell mean: ``P(X ∈ B_l, Y = ±T) = (|B_l| M_p/T^p ± ∫_{B_l} η_v / T)/2`` and
        ``P(X ∈ B_l, Y = 0) = |B_l| (1 − M_p/T^p)``. Returns ``(masses (bins^d, 3), values)``.
        """
        int_eta, _, _, vol = _ratio_masses(self.field, bins)
        tail = self.M_p / self.T ** self.p
        minus = 0.5 * (vol * tail - int_eta / self.T)
        plus = 0.5 * (vol * tail + int_eta / self.T)
        zero = np.full_like(int_eta, vol * (1.0 - tail))
        return np.stack([np.maximum(minus, 0.0), zero, np.maximum(plus, 0.0)], axis=1), np.array([-self.T, 0.0, self.T])

    def bayes_risk(self) -> float:
        """``E[Var(Y|X)] = M_p T^{2−p} − ∫ η_v²``."""
        return self.M_p * self.T ** (2.0 - self.p) - self.field.integral_sq()

    def clipped_mean(self, eta_x, level: float) -> np.ndarray:
        """Exact ``E[clip(Y, −level, level) | x]``: ``η_v(x) · min(level, T)/T``."""
        check_positive("level", level)
        return np.asarray(eta_x, dtype=float) * min(level, self.T) / self.T
