"""A K-class lower-bound construction with margin exponent γ: one class raised by a bump on each active cube.

003 proves its classification lower bounds with ``K = 2`` only (Appendix B, eqs. (33)-(37): ``η_2 =
(1 + η_v)/2`` with bumps ``η_v = Σ_k v_k φ((x − c_k)/h) h^β``). To vary K and γ (issue 23) this module
builds the K-class analogue and makes the margin exponent an input:

* features uniform on ``[0, 1]^d`` (``f = c = 1``: Assumption 1(c); 1(d) holds with ``θ = 2^{-d}``);
* ``g^d`` cubes of side ``h = 1/g``; ``m`` of them are *active*, each with a class ``c_k ∈ {0..K−1}``
  drawn uniformly (for K = 2 this is 003's Rademacher sign ``v_k``);
* on an active cube ``b(x) = A h^β φ((x − c_k)/h)`` and

  ``η_{c_k}(x) = 1/K + (K − 1) b(x)/K``,  ``η_j(x) = 1/K − b(x)/K`` for ``j ≠ c_k``;

  elsewhere every class has ``η_j = 1/K``. So ``Σ_j η_j = 1``, ``0 <= η_j <= 1`` (``A h^β <= 1``), the Bayes
  class on an active cube is ``c_k``, *all* K − 1 other classes tie as runner-up, and the margin of
  Assumption 1(b) is ``η* − η_s = b(x)`` (0 off the bumps, which the "0 <" of 1(b) excludes). With K = 2
  and ``A = 1`` this is exactly 003 eq. (34)/(36).

The bump has a plateau and an edge of exponent ``α = 1/γ``:
``φ(u) = ψ(‖u‖_∞)``, ``ψ(r) = min(1, 4(1/2 − r))_+^α`` (support ``[−1/2, 1/2]^d``, ``0 <= φ <= 1``: 003 eq. (35)).

**Margin (Assumption 1(b)).** ``P(0 < ψ(‖U‖_∞) < s) = 1 − (1 − s^{1/α}/2)^d`` for ``s <= 1`` (U uniform on
the cube), so with ``s = t/(A h^β)``

``P(0 < η* − η_s < t) = (m/g^d) [1 − (1 − (t/(A h^β))^γ / 2)^d]`` for ``t <= A h^β``, and ``m/g^d`` above.

Since ``1 − (1 − w/2)^d <= d w/2``, choosing ``m = C_M (A h^β)^γ h^{−d}`` bumps (003 eq. (37) is the case
``A = 1``: ``m = C_M h^{γβ−d}``) gives ``P(0 < η* − η_s < t) <= C_M max(1, d/2) t^γ`` for every t: below
``A h^β`` from the bound, above it because the probability is then ``m h^d = C_M (A h^β)^γ <= C_M t^γ``.
The exponent is sharp: for ``t << A h^β`` the probability is ``∝ t^γ`` (exactly so for d = 1). A linear
edge (α = 1, the edge of :mod:`simulations.laws.holder_tsybakov`) gives 1(b) only for γ <= 1; γ > 1
needs ``α <= 1/γ``, an edge that rises faster than linearly.

**Smoothness (Assumption 1(a)).** ψ is α-Hölder with constant ``4^α`` for α <= 1 and Lipschitz with
constant ``4α`` for α >= 1; every ``η_j`` moves by at most ``|b(x) − b(x')|``, and (for ``α >= β``)
``|b(x) − b(x')| <= 2 A C_ψ ‖x − x'‖^β`` (a segment leaving a cube crosses ``b = 0``). So each ``η_j`` is
β-Hölder with ``L = 2 A C_ψ`` whatever K, provided ``α = 1/γ >= β``, i.e. **γβ <= 1** — required here.
(With uniform features on the whole cube any Hölder η whose margin rises from 0 has
``P(0 < η* − η_s < t) >= c t^{1/β}``, so γβ <= 1 is also necessary for this kind of construction;
003's eq. (37) is silent on it.)

Exact cell integrals on the cube grid (``bins = g``): ``∫_{cube} φ((x − c)/h) dx = h^d ‖φ‖_1`` with
``‖φ‖_1 = 2^{-d} + d 2^{-d} Σ_{i<d} C(d−1, i) 2^{d−1−i} (−1)^i / (α + i + 1)`` (:func:`edge_bump_l1`).

References: 003 eqs. (33)-(37), Assumption 1, Theorems 1–4; Appendix B.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.laws.base import ClassificationLaw, cell_volume, check_points
from simulations.laws.holder_tsybakov import random_round
from simulations.seeding import check_generator

__all__ = ["MulticlassBumps", "bump_count", "edge_bump", "edge_bump_l1", "edge_holder_constant", "margin_by_bisection"]


def edge_bump(u, alpha: float) -> np.ndarray:
    """``φ(u) = min(1, 4(1/2 − ‖u‖_∞))_+^α`` for ``u`` of shape ``(..., d)``; returns shape ``(...)``.

    Parameters
    ----------
    u : array_like, shape (..., d)
        Points relative to a cube's centre, in units of its side.
    alpha : float > 0
        Edge exponent: ``P(0 < φ(U) < s) ≈ (d/2) s^{1/α}`` for small s.

    Returns
    -------
    ndarray of shape ``u.shape[:-1]`` with values in [0, 1].

    References
    ----------
    003 eq. (35) (support ``[−1/2, 1/2]^d``, ``0 <= φ <= 1``).

    Examples
    --------
    >>> edge_bump([[0.0], [0.375], [0.5]], alpha=0.5).round(6).tolist()  # plateau, edge sqrt(0.5), support end
    [1.0, 0.707107, 0.0]
    """
    alpha = check_positive("alpha", alpha)
    r = np.max(np.abs(np.asarray(u, dtype=float)), axis=-1)
    return np.clip(4.0 * (0.5 - r), 0.0, 1.0) ** alpha


def edge_bump_l1(d: int, alpha: float) -> float:
    """``‖φ‖_1 = ∫ φ(u) du`` of :func:`edge_bump` over ``[−1/2, 1/2]^d``, in closed form.

    ``∫ ψ(r) d(2r)^d``: the plateau gives ``2^{-d}``; on the edge substitute ``s = 4(1/2 − r)`` and expand
    ``(2 − s)^{d−1}`` binomially.

    Parameters
    ----------
    d : int >= 1
    alpha : float > 0

    Returns
    -------
    float in (2^{-d}, 1).

    References
    ----------
    003 eq. (41) (``‖φ‖_1`` enters the excess risk of the construction).

    Examples
    --------
    >>> edge_bump_l1(1, 1.0), edge_bump_l1(1, 2.0), round(edge_bump_l1(2, 1.0), 12)  # 3/4, 2/3, 7/12
    (0.75, 0.6666666666666666, 0.583333333333)
    """
    d = check_int("d", d, low=1)
    alpha = check_positive("alpha", alpha)
    edge = sum(math.comb(d - 1, i) * 2.0 ** (d - 1 - i) * (-1.0) ** i / (alpha + i + 1.0) for i in range(d))
    return 2.0 ** (-d) * (1.0 + d * edge)


def edge_holder_constant(alpha: float) -> float:
    """Hölder constant ``C_ψ`` of ``ψ(r) = min(1, 4(1/2 − r))_+^α`` in r: ``4^α`` (α <= 1, exponent α) or
    ``4α`` (α >= 1, Lipschitz).

    Parameters
    ----------
    alpha : float > 0

    Returns
    -------
    float

    Examples
    --------
    >>> edge_holder_constant(0.5), edge_holder_constant(1.0), edge_holder_constant(2.0)
    (2.0, 4.0, 8.0)
    """
    alpha = check_positive("alpha", alpha)
    return 4.0 ** alpha if alpha <= 1.0 else 4.0 * alpha


def bump_count(*, d: int, g: int, beta: float, gamma: float, C_M: float, amplitude: float = 1.0) -> float:
    """The (real) number of bumps ``C_M (A h^β)^γ h^{−d}`` with ``h = 1/g``; 003 eq. (37) for ``A = 1``.

    Parameters
    ----------
    d, g : int >= 1
    beta, gamma, C_M, amplitude : float > 0

    Returns
    -------
    float

    Examples
    --------
    >>> bump_count(d=1, g=100, beta=0.5, gamma=1.0, C_M=2.0)  # 2 h^{γβ−d} = 2 * 100^0.5
    20.0
    """
    d = check_int("d", d, low=1)
    g = check_int("g", g, low=1)
    for name, v in (("beta", beta), ("gamma", gamma), ("C_M", C_M), ("amplitude", amplitude)):
        check_positive(name, v)
    h = 1.0 / g
    return float(C_M * (amplitude * h ** beta) ** gamma * h ** (-d))


@dataclass(frozen=True, eq=False)
class MulticlassBumps(ClassificationLaw):
    """The K-class construction of the module docstring on the grid of ``g^d`` cubes.

    Parameters
    ----------
    d : int >= 1
        Dimension.
    g : int >= 1
        Cubes per axis (``h = 1/g``).
    beta : float in (0, 1]
        Hölder exponent of Assumption 1(a).
    gamma : float > 0 with ``gamma * beta <= 1``
        Margin exponent of Assumption 1(b); the bump edge has exponent ``α = 1/γ``.
    num_classes : int >= 2
        K.
    classes : int array of shape (g^d,)
        ``c_k`` on active cubes (in ``0..K−1``), ``−1`` on inactive ones (C order, as
        :mod:`simulations.laws.base`).
    amplitude : float > 0
        ``A`` (003 uses 1); ``A h^β <= 1`` is required.

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it), ``gamma * beta > 1`` or ``A h^β > 1``.

    References
    ----------
    003 eqs. (33)-(37), Assumption 1.

    Examples
    --------
    >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
    >>> law.eta(np.array([[0.375], [0.1]])).round(4).tolist()  # centre of cube 1 (class 2), an inactive cube
    [[0.1667, 0.1667, 0.6667], [0.3333, 0.3333, 0.3333]]
    >>> float(law.margin_probability(0.5))  # t = A h^β: both bumps, minus their plateaus (where the margin = t)
    0.25
    """

    d: int
    g: int
    beta: float
    gamma: float
    num_classes: int
    classes: np.ndarray
    amplitude: float = 1.0
    scale: float = field(init=False)

    def __post_init__(self):
        check_int("d", self.d, low=1)
        check_int("g", self.g, low=1)
        check_real("beta", self.beta, low=0.0, high=1.0, low_open=True)
        check_positive("gamma", self.gamma)
        if self.gamma * self.beta > 1.0 + 1e-12:
            raise ValueError(f"gamma * beta must be <= 1 (the bump edge 1/gamma must be >= beta for Hölder "
                             f"continuity), got gamma={self.gamma}, beta={self.beta}")
        K = check_int("num_classes", self.num_classes, low=2)
        check_positive("amplitude", self.amplitude)
        c = np.asarray(self.classes)
        if (c.shape != (self.g ** self.d,) or not np.issubdtype(c.dtype, np.integer) or c.size == 0
                or c.min() < -1 or c.max() >= K):
            raise ValueError(f"classes must be an integer array of shape ({self.g ** self.d},) with entries in "
                             f"[-1, {K - 1}], got dtype {c.dtype}, shape {c.shape}")
        scale = self.amplitude * self.h ** self.beta
        if scale > 1.0:
            raise ValueError(f"amplitude * h**beta must be <= 1, got amplitude={self.amplitude}, h={self.h}, "
                             f"beta={self.beta} (A h^β = {scale})")
        c = c.astype(np.int64)
        c.setflags(write=False)
        object.__setattr__(self, "classes", c)
        object.__setattr__(self, "scale", float(scale))

    # ------------------------------------------------------------------------------ construction
    @classmethod
    def construction(cls, *, d, g, beta, gamma, num_classes, rng, C_M=1.0, amplitude=1.0, rounding="random"):
        """``m`` random cubes, each with a uniform class: the law at ``h = 1/g``.

        ``m = min(g^d, max(1, round(C_M (A h^β)^γ h^{−d})))`` (:func:`bump_count`); ``rounding="random"``
        rounds up with probability the fractional part (mean exactly the formula), ``"floor"`` takes the
        integer part.

        Parameters
        ----------
        d, g, beta, gamma, num_classes, amplitude : as the class.
        rng : numpy Generator (the DATA stream): cubes, classes and the rounding.
        C_M : float > 0
            Bump-count constant (003 eq. (37)); Assumption 1(b) then holds with ``C_T = C_M max(1, d/2)``
            (times ``m / bump_count`` for the rounding).
        rounding : {"random", "floor"}

        Returns
        -------
        MulticlassBumps

        Examples
        --------
        >>> law = MulticlassBumps.construction(d=1, g=100, beta=0.5, gamma=1.0, num_classes=4, C_M=2.0,
        ...                                    rng=np.random.default_rng(0))
        >>> law.num_bumps, law.num_classes
        (20, 4)
        """
        check_choice("rounding", rounding, ("random", "floor"))
        rng = check_generator(rng)
        G = check_int("g", g, low=1) ** check_int("d", d, low=1)
        x = bump_count(d=d, g=g, beta=beta, gamma=gamma, C_M=C_M, amplitude=amplitude)
        K = check_int("num_classes", num_classes, low=2)
        m = min(G, max(1, math.floor(x) if rounding == "floor" else random_round(x, rng)))
        classes = np.full(G, -1, dtype=np.int64)
        cubes = rng.choice(G, size=m, replace=False)
        classes[cubes] = rng.integers(0, K, size=m)
        return cls(d=d, g=g, beta=beta, gamma=gamma, num_classes=K, classes=classes, amplitude=amplitude)

    # ------------------------------------------------------------------------------ properties
    @property
    def h(self) -> float:
        """Cube side h = 1/g.

        References
        ----------
        003 eq. (36).

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> law.h
        0.25
        """
        return 1.0 / self.g

    @property
    def alpha(self) -> float:
        """Edge exponent of the bump, α = 1/γ.

        References
        ----------
        003 Assumption 1(b) (the edge exponent sets the margin exponent).

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> law.alpha
        0.5
        """
        return 1.0 / self.gamma

    @property
    def num_bumps(self) -> int:
        """Number m of active cubes.

        References
        ----------
        003 eq. (37).

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> law.num_bumps
        2
        """
        return int(np.count_nonzero(self.classes >= 0))

    @property
    def holder_constant(self) -> float:
        r"""L of 003 Assumption 1(a) for every :math:`\eta_j`: :math:`2 A C_\psi (K - 1)/K`.

        References
        ----------
        003 Assumption 1(a).

        Examples
        --------
        α = 1/2: :math:`C_\psi = 4^{1/2} = 2`, so :math:`L = 2 \cdot 2 \cdot 2/3 = 8/3`.

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> round(law.holder_constant * 3, 12)
        8.0
        """
        return 2.0 * self.amplitude * edge_holder_constant(self.alpha) * (self.num_classes - 1) / self.num_classes

    @property
    def margin_constant(self) -> float:
        r""":math:`C_T` of 003 Assumption 1(b) for this law: :math:`(m h^d)(A h^\beta)^{-\gamma} \max(1, d/2)`.

        References
        ----------
        003 Assumption 1(b), eq. (37).

        Examples
        --------
        :math:`2 \cdot \tfrac14 \cdot (1/2)^{-2} = 2`:

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> law.margin_constant
        2.0
        """
        return self.num_bumps * self.h ** self.d * self.scale ** (-self.gamma) * max(1.0, self.d / 2.0)

    def active_cells(self) -> tuple[np.ndarray, np.ndarray]:
        """The active cubes (flat C-order indices) and their raised class.

        Returns
        -------
        cells : ndarray of int64, shape (m,)
            Active cube indices.
        classes : ndarray of int64, shape (m,)
            :math:`c_k` of each.

        References
        ----------
        003 eq. (36) (the active cubes carry the bumps).

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> [a.tolist() for a in law.active_cells()]
        [[1, 3], [2, 0]]
        """
        cells = np.flatnonzero(self.classes >= 0)
        return cells, self.classes[cells]

    def bump_mass(self) -> float:
        r""":math:`\int_{\text{cube}} b = A h^{\beta+d} \|\varphi\|_1` over one active cube.

        Returns
        -------
        float
            The integral.

        References
        ----------
        003 eq. (41).

        Examples
        --------
        :math:`\|\varphi\|_1 = \tfrac12(1 + 1/(\alpha + 1)) = 5/6` for d = 1, α = 1/2, so
        :math:`\tfrac12 \cdot \tfrac14 \cdot \tfrac56 = 5/48`:

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> round(law.bump_mass() * 48, 12)
        5.0
        """
        return self.scale * self.h ** self.d * edge_bump_l1(self.d, self.alpha)

    # ------------------------------------------------------------------------------ the law
    def bump_value(self, X) -> tuple[np.ndarray, np.ndarray]:
        r"""The bump b(X) and the class of the cube of X (-1 on inactive cubes).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        b : ndarray of float64, shape (n,)
            Values in :math:`[0, A h^\beta]`.
        classes : ndarray of int64, shape (n,)
            :math:`c_k` of the cube of each point, or -1.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 eq. (36).

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> [a.tolist() for a in law.bump_value([[0.375], [0.1]])]
        [[0.5, 0.0], [2, -1]]
        """
        X = check_points(X, self.d)
        t = X * self.g
        j = np.minimum(t.astype(np.int64), self.g - 1)
        flat = np.ravel_multi_index(tuple(j.T), (self.g,) * self.d) if self.d > 1 else j[:, 0]
        cls_ = self.classes[flat]
        b = np.where(cls_ >= 0, self.scale * edge_bump(t - j - 0.5, self.alpha), 0.0)
        return b, cls_

    def eta(self, X) -> np.ndarray:
        r"""Class probabilities :math:`\eta_j(X)`.

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
        003 eq. (34) (K = 2, A = 1).

        Examples
        --------
        At a plateau of class 2 (b = 1/2): :math:`1/3 + (2/3)(1/2) = 2/3` and :math:`1/3 - 1/6 = 1/6`.

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> np.round(law.eta([[0.375]]) * 6, 12).tolist()
        [[1.0, 1.0, 4.0]]
        """
        b, cls_ = self.bump_value(X)
        K = self.num_classes
        out = np.repeat((1.0 / K - b / K)[:, None], K, axis=1)
        rows = np.flatnonzero(cls_ >= 0)
        out[rows, cls_[rows]] = 1.0 / K + (K - 1) * b[rows] / K
        return out

    def _check_aligned(self, bins) -> int:
        bins = check_int("bins", bins, low=1)
        if bins != self.g:
            raise ValueError(f"bins must equal g={self.g} (cells = cubes) for the exact cell integrals, got bins={bins}")
        return bins

    def cell_class_mass(self, bins: int) -> np.ndarray:
        r""":math:`\int_{\text{cell}} \eta_j` on the cube grid (``bins`` must equal g).

        Parameters
        ----------
        bins : int
            Cells per axis; must equal g.

        Returns
        -------
        ndarray of float64, shape (g^d, K)
            Cells in C order.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer equal to g.

        References
        ----------
        003 eq. (8) with f = 1.

        Examples
        --------
        In units of 1/144: 12 per class off the bumps; on a bump 12 - 5 for the others and
        12 - 5 + 15 for the raised class.

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> np.round(law.cell_class_mass(4) * 144, 9).tolist()
        [[12.0, 12.0, 12.0], [7.0, 7.0, 22.0], [12.0, 12.0, 12.0], [22.0, 7.0, 7.0]]
        """
        bins = self._check_aligned(bins)
        K = self.num_classes
        vol = cell_volume(bins, self.d)
        out = np.full((bins ** self.d, K), vol / K)
        cells, cls_ = self.active_cells()
        out[cells] -= self.bump_mass() / K
        out[cells, cls_] += self.bump_mass()
        return out

    def cell_bayes_mass(self, bins: int) -> np.ndarray:
        r""":math:`\int_{\text{cell}} \eta^*` on the cube grid (``bins`` must equal g).

        Parameters
        ----------
        bins : int
            Cells per axis; must equal g.

        Returns
        -------
        ndarray of float64, shape (g^d,)
            Cells in C order.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer equal to g.

        References
        ----------
        003 eq. (8) with f = 1.

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> np.round(law.cell_bayes_mass(4) * 144, 9).tolist()
        [12.0, 22.0, 12.0, 22.0]
        """
        bins = self._check_aligned(bins)
        out = np.full(bins ** self.d, cell_volume(bins, self.d) / self.num_classes)
        out[self.classes >= 0] += self.bump_mass() * (self.num_classes - 1) / self.num_classes
        return out

    def bump_cell_masses(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""The (cell, label) masses of the active cubes and of the rest, for a count-level draw.

        Returns
        -------
        cells : ndarray of int64, shape (m,)
            The active cubes.
        masses : ndarray of float64, shape (m + 1, K)
            Rows 0..m-1 are :math:`\int_{\text{cube}} \eta_j`; the last row is the mass of every inactive cube
            together, :math:`(1 - m h^d)/K` per class; the table sums to 1.
        gaps : ndarray of float64, shape (m, K)
            :math:`\int_{\text{cube}} (\eta^* - \eta_j)`: 0 for the raised class, :math:`A h^{\beta+d}\|\varphi\|_1`
            otherwise.

        References
        ----------
        003 eq. (8) (the gaps are the excess risk of predicting j on the cube).

        Examples
        --------
        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> cells, masses, gaps = law.bump_cell_masses()
        >>> np.round(masses * 144, 9).tolist(), np.round(gaps * 48, 9).tolist()
        ([[7.0, 7.0, 22.0], [22.0, 7.0, 7.0], [24.0, 24.0, 24.0]], [[5.0, 5.0, 0.0], [0.0, 5.0, 5.0]])
        """
        cells, cls_ = self.active_cells()
        K, m = self.num_classes, cells.size
        vol = self.h ** self.d
        masses = np.empty((m + 1, K))
        masses[:m] = vol / K - self.bump_mass() / K
        masses[np.arange(m), cls_] = vol / K + self.bump_mass() * (K - 1) / K
        masses[m] = (1.0 - m * vol) / K
        gaps = np.full((m, K), self.bump_mass())
        gaps[np.arange(m), cls_] = 0.0
        return cells, masses, gaps

    def bayes_risk(self) -> float:
        r""":math:`R^* = 1 - \int \eta^* = \frac{K-1}{K}(1 - m \int b)` (003 eq. (6)).

        Returns
        -------
        float
            The Bayes risk.

        References
        ----------
        003 eq. (6).

        Examples
        --------
        :math:`\tfrac23(1 - 2 \cdot 5/48) = 76/144`:

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> round(law.bayes_risk() * 144, 9)
        76.0
        """
        K = self.num_classes
        return (K - 1) / K * (1.0 - self.num_bumps * self.bump_mass())

    def margin_probability(self, t) -> np.ndarray:
        r"""Exact :math:`P(0 < \eta^*(X) - \eta_s(X) < t)` (003 Assumption 1(b)).

        :math:`(m/g^d)[1 - (1 - s^\gamma/2)^d]` with :math:`s = t/(A h^\beta)` for s < 1;
        :math:`(m/g^d)(1 - 2^{-d})` at s = 1 (the plateau has margin exactly :math:`A h^\beta`); m/g^d for s > 1.

        Parameters
        ----------
        t : array_like of float
            Margins, finite and > 0.

        Returns
        -------
        ndarray of float64, shape of ``t``
            Probabilities.

        Raises
        ------
        ValueError
            If a margin is not finite or not > 0.

        References
        ----------
        003 Assumption 1(b), eq. (37).

        Examples
        --------
        t = 1/4: s = 1/2, :math:`s^\gamma = 1/4`, so :math:`\tfrac12 \cdot (1 - 7/8) = 1/16`.

        >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
        >>> law.margin_probability([0.25, 1.0]).tolist()
        [0.0625, 0.5]
        """
        t = np.asarray(t, dtype=float)
        if t.size and (not np.all(np.isfinite(t)) or t.min() <= 0):
            raise ValueError(f"t must be finite and > 0, got t={t!r}")
        s = t / self.scale
        w = np.minimum(s, 1.0) ** self.gamma
        inner = np.where(s > 1.0, 1.0, 1.0 - (1.0 - w / 2.0) ** self.d)
        return self.num_bumps / self.g ** self.d * inner


def margin_by_bisection(law: MulticlassBumps, t, *, iterations: int = 54) -> np.ndarray:
    """``P(0 < η*(X) − η_s(X) < t)`` for a d = 1 law, computed from :meth:`MulticlassBumps.eta` alone.

    An independent route to :meth:`MulticlassBumps.margin_probability`: on each active cube the margin
    (top minus second of the sorted ``η(x)``) rises on the left edge ``[c − h/2, c − h/4]`` and falls on the
    right edge; the point where it crosses ``t`` is found by bisection on ``η`` and the measure of
    ``{0 < margin < t}`` is the length of the two edge pieces (the whole cube when ``t`` exceeds the margin at
    the cube's centre, its plateau value). Nothing of the closed form is used.

    Parameters
    ----------
    law : MulticlassBumps with ``d = 1``.
    t : array_like of floats > 0, none equal to the plateau value ``A h^β``.
    iterations : int >= 1
        Bisection steps (54 halve the edge width ``h/4`` below the floating-point resolution of x).

    Returns
    -------
    ndarray of the shape of ``t``.

    Raises
    ------
    ValueError
        ``law.d != 1``, or a ``t`` that is not > 0 or equals the plateau value.

    References
    ----------
    003 Assumption 1(b).

    Examples
    --------
    >>> law = MulticlassBumps(d=1, g=4, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([-1, 2, -1, 0]))
    >>> t = np.array([0.05, 0.2, 0.6])
    >>> np.allclose(margin_by_bisection(law, t), law.margin_probability(t), rtol=1e-12, atol=0)
    True
    """
    if not isinstance(law, MulticlassBumps) or law.d != 1:
        raise ValueError(f"law must be a MulticlassBumps with d = 1, got law={law!r}")
    iterations = check_int("iterations", iterations, low=1)
    t = np.asarray(t, dtype=float)
    if t.size and (not np.all(np.isfinite(t)) or t.min() <= 0 or np.any(t == law.scale)):
        raise ValueError(f"t must be finite, > 0 and differ from the plateau value {law.scale}, got t={t!r}")
    cells, _ = law.active_cells()
    h = law.h
    peak = _margin(law, (cells + 0.5) * h)  # the margin at each bump's centre (its plateau value), from η
    flat = t.ravel()
    low = flat < peak.max()
    out = np.zeros((flat.size, cells.size))
    if np.any(low):
        out[low] = _edge_measure(law, flat[low], iterations)
    out = np.where(flat[:, None] > peak[None, :], h, out)  # above a bump's plateau value: its whole cube
    return out.sum(axis=1).reshape(t.shape)


def _margin(law: MulticlassBumps, x: np.ndarray) -> np.ndarray:
    """``η*(x) − η_s(x)`` (largest minus second largest class probability) at the 1-D points ``x``, any shape."""
    top2 = np.partition(law.eta(np.clip(x.reshape(-1, 1), 0.0, 1.0)), law.num_classes - 2, axis=1)[:, -2:]
    return (top2.max(axis=1) - top2.min(axis=1)).reshape(x.shape)


def _edge_measure(law: MulticlassBumps, t: np.ndarray, iterations: int) -> np.ndarray:
    """Measure of ``{0 < margin < t}`` on each bump's two edges (shape (t.size, bumps)), by bisection."""
    cells, _ = law.active_cells()
    h = law.h
    # the two edges of every active cube, [left, left + h/4] (margin rising) and [left + 3h/4, left + h] (falling)
    left = np.concatenate([cells * h, cells * h + 0.75 * h])
    rising = np.concatenate([np.ones(cells.size, bool), np.zeros(cells.size, bool)])
    tt, a, rise = np.broadcast_arrays(t[:, None], left[None, :], rising[None, :])
    a = a.copy()
    b = a + 0.25 * h
    for _ in range(iterations):
        mid = 0.5 * (a + b)
        below = _margin(law, mid) < tt
        move_a = below == rise  # rising edge: margin(mid) < t moves the left end up; falling edge: the opposite
        a, b = np.where(move_a, mid, a), np.where(move_a, b, mid)
    x = 0.5 * (a + b)
    start = np.broadcast_to(left, x.shape)
    lengths = np.where(rise, x - start, start + 0.25 * h - x)  # {margin < t}: [start, x) rising, (x, end] falling
    return lengths[:, :cells.size] + lengths[:, cells.size:]
