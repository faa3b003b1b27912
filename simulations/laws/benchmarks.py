"""Fixed benchmark laws with known smoothness β, margin exponent γ and noise moments.

All have uniform features on ``[0, 1]^d``. Exact cell integrals are closed forms.

* :class:`BoundaryClassification` — one class boundary, the hyperplane ``x_1 = θ``, with margin
  ``|η_0 − η_1| = (1 − ρ) min(1, |x_1 − θ|/w)^κ``. For ``κ ∈ (0, 1]``: every η_j is κ-Hölder
  with constant ``(1 − ρ) 2^{−κ} w^{−κ}``, and
  ``P(0 < η* − η_s < t) = min(1, 2w (t/(1−ρ))^{1/κ})`` (clipped to the unit interval around θ), so
  Assumption 1 holds with ``β = κ`` and ``γ = 1/κ``. ``θ`` defaults to ``(√5 − 1)/2`` so that no
  regular grid ever puts a cell edge on the boundary (an aligned boundary makes the histogram rule
  unrealistically exact). For this law the plug-in histogram error is driven by the cells within
  ``h`` of the boundary in the ``x_1`` direction while the cell counts still scale with ``h^d``, so
  its rate is ``N^{−β(1+γ)/(2β+d)} = N^{−(κ+1)/(2κ+d)}``: the β(1+γ) combination of 003 Table 1 is
  exhibited for the pairs ``(β, γ) = (κ, 1/κ)``, e.g. (1, 1) and (0.5, 2). Pairs with γβ < 1
  (e.g. β = 0.5, γ = 1) need boundaries at every scale: use the 003 construction
  (:mod:`simulations.laws.holder_tsybakov`) instead.
* :class:`AdditiveRegression` — ``η(x) = ∑_i g(x_i)`` with a one-dimensional profile ``g``:
  ``"weierstrass"`` ``g(t) = A ∑_{j<J} 2^{−jβ} cos(2^j π t)`` (β-Hölder and, for β < 1, nowhere
  better at scales above ``2^{−J}``: local averages over width ``h`` miss ``≍ h^β`` at every point, so
  both histograms and kNN show the ``N^{−2β/(2β+d)}`` rate; at β = 1 it is only Lipschitz up to a
  factor ``J``) or ``"kink"`` ``g(t) = A|t − θ|^β`` (Hölder β exactly, but only at ``t = θ``: local
  averaging converges faster than the minimax rate away from θ). Noise is additive and independent
  of x: :class:`UniformNoise` (bounded, Assumption 2) or :class:`LomaxNoise` (heavy tailed and
  asymmetric, Assumption 3 for every moment order ``p <`` its tail index).

References: 003 Assumptions 1-3; Table 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.laws.base import ClassificationLaw, RegressionLaw, cell_volume, check_points
from simulations.seeding import check_generator

__all__ = ["AdditiveRegression", "BoundaryClassification", "LomaxNoise", "UniformNoise"]

GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def _repeat_slab(values_axis0: np.ndarray, bins: int, d: int) -> np.ndarray:
    """Broadcast per-x_1-slab values to all cells (C order: axis 0 slowest)."""
    return np.repeat(values_axis0, bins ** (d - 1), axis=0)


@dataclass(frozen=True)
class BoundaryClassification(ClassificationLaw):
    r"""Classes 0 and 1 separated by the hyperplane :math:`x_1 = \theta`; K - 2 further classes at the floor ρ/K.

    :math:`s(x) = \mathrm{sign}(x_1 - \theta) \min(1, |x_1 - \theta|/w)^\kappa`;
    :math:`\eta_0 = \rho/K + (1 - \rho)(1 + s)/2`, :math:`\eta_1 = \rho/K + (1 - \rho)(1 - s)/2`,
    :math:`\eta_j = \rho/K` for j >= 2. Margin :math:`\eta^* - \eta_s = (1 - \rho)|s|`, so 003 Assumption 1
    holds with β = κ and γ = 1/κ.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    kappa : float
        κ in (0, 1]: β = κ, γ = 1/κ.
    num_classes : int, default 2
        K >= 2.
    rho : float, default 0.0
        ρ in [0, 1), mass spread evenly over all classes.
    width : float, default 0.25
        w > 0, the distance from the boundary at which the margin saturates.
    theta : float, default (√5 - 1)/2
        Boundary position in (0, 1) (irrational by default, so no regular grid has an edge on it).

    Raises
    ------
    ValueError
        If a parameter is outside its range (the message names it).

    References
    ----------
    003 Assumption 1 (a)-(b), Table 1 (the β(1 + γ) exponent of classification).

    Examples
    --------
    >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
    >>> law.beta, law.gamma, law.holder_constant, round(law.bayes_risk(), 12)
    (1.0, 1.0, 2.0, 0.125)
    """

    d: int
    kappa: float
    num_classes: int = 2
    rho: float = 0.0
    width: float = 0.25
    theta: float = GOLDEN

    def __post_init__(self):
        check_int("d", self.d, low=1)
        check_real("kappa", self.kappa, low=0.0, high=1.0, low_open=True)
        check_int("num_classes", self.num_classes, low=2)
        check_real("rho", self.rho, low=0.0, high=1.0, high_open=True)
        check_positive("width", self.width)
        check_real("theta", self.theta, low=0.0, high=1.0, low_open=True, high_open=True)

    @property
    def beta(self) -> float:
        """Hölder exponent β = κ of 003 Assumption 1(a).

        References
        ----------
        003 Assumption 1(a).

        Examples
        --------
        >>> BoundaryClassification(d=2, kappa=0.5).beta
        0.5
        """
        return self.kappa

    @property
    def gamma(self) -> float:
        """Margin exponent γ = 1/κ of 003 Assumption 1(b).

        References
        ----------
        003 Assumption 1(b).

        Examples
        --------
        >>> BoundaryClassification(d=2, kappa=0.5).gamma
        2.0
        """
        return 1.0 / self.kappa

    @property
    def holder_constant(self) -> float:
        r"""Hölder constant of 003 Assumption 1(a) for every class probability.

        :math:`|\eta_j(x) - \eta_j(x')| \le (1-\rho) 2^{-\kappa} w^{-\kappa} \|x - x'\|^\kappa`.

        (:math:`t \mapsto \mathrm{sign}(t)|t|^\kappa` is κ-Hölder with constant :math:`2^{1-\kappa}`,
        halved by the /2.)

        References
        ----------
        003 Assumption 1(a).

        Examples
        --------
        κ = 1, w = 1/4, ρ = 0: :math:`2^{-1} \cdot 4 = 2`.

        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.holder_constant
        2.0
        """
        return (1.0 - self.rho) * 2.0 ** (-self.kappa) * self.width ** (-self.kappa)

    def _s(self, t):
        u = (t - self.theta) / self.width
        return np.sign(u) * np.minimum(1.0, np.abs(u)) ** self.kappa

    def _S_even(self, t):
        """Antiderivative of ``s`` in ``t`` (even in ``u``)."""
        u = np.abs((np.asarray(t, dtype=float) - self.theta) / self.width)
        k1 = self.kappa + 1.0
        return self.width * np.where(u <= 1.0, u ** k1 / k1, 1.0 / k1 + u - 1.0)

    def _S_odd(self, t):
        """Antiderivative of ``|s|``."""
        t = np.asarray(t, dtype=float)
        return np.sign(t - self.theta) * self._S_even(t)

    def eta(self, X) -> np.ndarray:
        r"""Class probabilities :math:`\eta_j(x)`, depending on :math:`x_1` only.

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
        003 Section 3.2 (class probabilities), Assumption 1.

        Examples
        --------
        At :math:`x_1 = 5/8`, s = (1/8)/(1/4) = 1/2: :math:`\eta_0 = 3/4`.

        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.eta([[0.625], [0.1]]).tolist()
        [[0.75, 0.25], [0.0, 1.0]]
        """
        X = check_points(X, self.d)
        s = self._s(X[:, 0])
        K, rho = self.num_classes, self.rho
        out = np.full((s.size, K), rho / K)
        out[:, 0] += (1.0 - rho) * (1.0 + s) / 2.0
        out[:, 1] += (1.0 - rho) * (1.0 - s) / 2.0
        return out

    def _slab(self, bins):
        bins = check_int("bins", bins, low=1)
        e = np.arange(bins + 1) / bins
        int_s = np.diff(self._S_even(e))  # ∫ s over each slab's x_1 interval
        int_abs = np.diff(self._S_odd(e))
        other = float(bins) ** (-(self.d - 1))
        return int_s * other, int_abs * other, cell_volume(bins, self.d)

    def cell_class_mass(self, bins: int) -> np.ndarray:
        r"""Exact :math:`\int_{\text{cell}} \eta_j` for every grid cell and class (closed-form antiderivative of s).

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
        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.cell_class_mass(2).tolist()
        [[0.0625, 0.4375], [0.4375, 0.0625]]
        """
        int_s, _, vol = self._slab(bins)
        K, rho = self.num_classes, self.rho
        out = np.full((int_s.size, K), vol * rho / K)
        out[:, 0] += (1.0 - rho) * (vol + int_s) / 2.0
        out[:, 1] += (1.0 - rho) * (vol - int_s) / 2.0
        return _repeat_slab(out, bins, self.d)

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
        Each half has :math:`(1/2 + 3/8)/2 = 7/16`:

        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.cell_bayes_mass(2).tolist()
        [0.4375, 0.4375]
        """
        _, int_abs, vol = self._slab(bins)
        m = vol * self.rho / self.num_classes + (1.0 - self.rho) * (vol + int_abs) / 2.0
        return _repeat_slab(m, bins, self.d)

    def bayes_risk(self) -> float:
        r"""Exact Bayes risk :math:`1 - \rho/K - (1 - \rho)(1 + \int |s|)/2`.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (6)).

        References
        ----------
        003 eq. (6).

        Examples
        --------
        θ = 1/2, w = 1/4, κ = 1: :math:`\int|s| = 2(1/8 + 1/4) = 3/4`, so :math:`R^* = 1 - 7/8 = 1/8`.

        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> round(law.bayes_risk(), 12)
        0.125
        """
        int_abs = float(self._S_odd(1.0) - self._S_odd(0.0))
        return 1.0 - self.rho / self.num_classes - (1.0 - self.rho) * (1.0 + int_abs) / 2.0

    def margin_probability(self, t) -> np.ndarray:
        r"""Exact :math:`P(0 < \eta^*(X) - \eta_s(X) < t)` of 003 Assumption 1(b).

        :math:`\min(1, 2w (t/(1-\rho))^{1/\kappa})`, clipped to the unit interval around θ.

        Parameters
        ----------
        t : array_like of float
            Margins.

        Returns
        -------
        ndarray of float64, shape of ``t``
            Probabilities.

        References
        ----------
        003 Assumption 1(b).

        Examples
        --------
        κ = 1, w = 1/4: :math:`P = 2 \cdot t/4` for t <= 1, and 1 beyond.

        >>> law = BoundaryClassification(d=1, kappa=1.0, width=0.25, theta=0.5)
        >>> law.margin_probability([0.5, 2.0]).tolist()
        [0.25, 1.0]
        """
        t = np.asarray(t, dtype=float)
        r = self.width * np.minimum(1.0, np.maximum(t, 0.0) / (1.0 - self.rho)) ** (1.0 / self.kappa)
        r = np.where(t > 1.0 - self.rho, np.inf, r)  # past saturation every point with s ≠ 0 counts
        return np.minimum(1.0, self.theta + r) - np.maximum(0.0, self.theta - r)


@dataclass(frozen=True)
class UniformNoise:
    r"""Noise uniform on [-σ, σ]: bounded (003 Assumption 2), variance :math:`\sigma^2/3`.

    Parameters
    ----------
    sigma : float
        σ >= 0, finite.

    Raises
    ------
    ValueError
        If ``sigma`` is negative or not finite.

    References
    ----------
    003 Assumption 2 (bounded labels).

    Examples
    --------
    >>> UniformNoise(0.3).bound, round(UniformNoise(0.3).variance, 12)
    (0.3, 0.03)
    """

    sigma: float

    def __post_init__(self):
        check_real("sigma", self.sigma, low=0.0)

    def sample(self, n, rng):
        """Draw ``n`` values of the centred noise.

        Parameters
        ----------
        n : int
            Number of draws, >= 0.
        rng : numpy.random.Generator or int
            Source of randomness (an int is turned into a Generator).

        Returns
        -------
        ndarray of float64, shape (n,)
            Values in [-σ, σ].

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is neither a Generator nor a seed.

        References
        ----------
        003 Assumption 2.

        Examples
        --------
        >>> e = UniformNoise(0.3).sample(50, np.random.default_rng(0))
        >>> e.shape, bool(np.all(np.abs(e) <= 0.3))
        ((50,), True)
        """
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        return self.sigma * (2.0 * rng.random(n) - 1.0)

    @property
    def variance(self) -> float:
        r""":math:`\sigma^2/3`, the Bayes risk of an additive law with this noise (003 eq. (7)).

        References
        ----------
        003 eq. (7).

        Examples
        --------
        >>> UniformNoise(3.0).variance
        3.0
        """
        return self.sigma ** 2 / 3.0

    @property
    def bound(self) -> float:
        r"""The bound σ of :math:`|\xi|` (003 Assumption 2 needs :math:`T > \sup|\eta| + \sigma`).

        References
        ----------
        003 Assumption 2.

        Examples
        --------
        >>> UniformNoise(0.3).bound
        0.3
        """
        return self.sigma

    def clipped_mean(self, center, level):
        r"""Exact :math:`E[\mathrm{clip}(c + \xi, -\ell, \ell)]`, elementwise in c.

        Parameters
        ----------
        center : array_like of float
            c, the regression value.
        level : float
            ℓ > 0, the clipping level.

        Returns
        -------
        ndarray of float64, shape of ``center``
            The clipped means.

        References
        ----------
        003 Section 6.1 (clipping before privatizing), Lemma 2 (eq. (167), the clipping bias).

        Examples
        --------
        c = 1, σ = 1: Y is uniform on [0, 2] and clipping at 1 gives :math:`\tfrac12 \cdot \tfrac12 + \tfrac12
        \cdot 1 = 3/4`.

        >>> float(UniformNoise(1.0).clipped_mean(1.0, 1.0))
        0.75
        """
        c = np.asarray(center, dtype=float)
        if self.sigma == 0.0:
            return np.clip(c, -level, level)
        a, b = c - self.sigma, c + self.sigma  # Y uniform on [a, b]
        # E[clip(Y)] = −level + ∫_{−level}^{level} P(Y > t) dt, P(Y > t) = clip((b − t)/(b − a), 0, 1)
        def G(t):  # antiderivative of P(Y > t)
            t = np.clip(t, a, b)
            return t - (t - a) ** 2 / (2 * (b - a)) - a
        lo, hi = -level, level
        full = np.clip(np.minimum(a, hi) - lo, 0.0, None)  # part of [lo, hi] where P(Y > t) = 1
        return -level + full + G(np.clip(hi, a, None)) - G(np.clip(np.maximum(lo, a), None, b))


@dataclass(frozen=True)
class LomaxNoise:
    r"""Centred Lomax (Pareto II) noise :math:`\xi - E\xi` with :math:`P(\xi > t) = (1 + t/\lambda)^{-a}`.

    Right-skewed, so clipping at ±T biases the mean downwards by :math:`\asymp T^{1-a}` instead of
    cancelling. :math:`E|\xi|^p < \infty` iff p < a: to exercise 003 Assumption 3 with moment order p use
    a slightly above p (:meth:`for_moment`). The clipping bias then decays like :math:`T^{1-a}`, slightly
    faster than the :math:`T^{1-p}` of 003 Lemma 2 (eq. (167)), so a fitted rate can be optimistic by
    that gap.

    Parameters
    ----------
    shape : float
        Tail index a > 2 (finite variance, so the Bayes risk exists).
    scale : float, default 1.0
        λ > 0.

    Raises
    ------
    ValueError
        If ``shape`` <= 2 or ``scale`` is not finite and > 0.

    References
    ----------
    003 Assumption 3, Lemma 2 (eq. (167)).

    Examples
    --------
    a = 3, λ = 1: :math:`E\xi = 1/2`, :math:`\mathrm{Var}\,\xi = 3/(4 \cdot 1) = 3/4`.

    >>> noise = LomaxNoise(shape=3.0)
    >>> noise.mean_raw, noise.variance
    (0.5, 0.75)
    """

    shape: float
    scale: float = 1.0

    def __post_init__(self):
        check_real("shape", self.shape, low=2.0, low_open=True)
        check_positive("scale", self.scale)

    @classmethod
    def for_moment(cls, p: float, *, excess: float = 0.25, scale: float = 1.0):
        """The noise with tail index p + excess: moments of order p finite, of order p + excess infinite.

        Parameters
        ----------
        p : float
            Moment order of 003 Assumption 3, >= 2.
        excess : float, default 0.25
            How far the tail index lies above p, > 0.
        scale : float, default 1.0
            λ > 0.

        Returns
        -------
        LomaxNoise
            ``LomaxNoise(shape=p + excess, scale=scale)``.

        Raises
        ------
        ValueError
            If ``p`` < 2 or ``excess`` is not > 0.

        References
        ----------
        003 Assumption 3.

        Examples
        --------
        >>> LomaxNoise.for_moment(2.0).shape
        2.25
        """
        check_real("p", p, low=2.0)
        check_positive("excess", excess)
        return cls(shape=p + excess, scale=scale)

    @property
    def mean_raw(self) -> float:
        r""":math:`E\xi = \lambda/(a - 1)` of the uncentred Lomax variable (subtracted by :meth:`sample`).

        References
        ----------
        003 Assumption 3 (the noise must have mean 0).

        Examples
        --------
        >>> LomaxNoise(shape=3.0, scale=2.0).mean_raw
        1.0
        """
        return self.scale / (self.shape - 1.0)

    @property
    def variance(self) -> float:
        r"""Variance :math:`\lambda^2 a / ((a-1)^2 (a-2))` of the noise.

        The Bayes risk of an additive law with this noise.

        References
        ----------
        003 eq. (7).

        Examples
        --------
        >>> LomaxNoise(shape=3.0).variance
        0.75
        """
        a = self.shape
        return self.scale ** 2 * a / ((a - 1.0) ** 2 * (a - 2.0))

    def sample(self, n, rng):
        r"""Draw ``n`` values of the centred Lomax noise.

        Parameters
        ----------
        n : int
            Number of draws, >= 0.
        rng : numpy.random.Generator or int
            Source of randomness (an int is turned into a Generator).

        Returns
        -------
        ndarray of float64, shape (n,)
            Values >= :math:`-E\xi`.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is neither a Generator nor a seed.

        References
        ----------
        003 Assumption 3.

        Examples
        --------
        >>> e = LomaxNoise(3.0).sample(50, np.random.default_rng(0))
        >>> e.shape, bool(np.all(e >= -0.5))
        ((50,), True)
        """
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        return self.scale * rng.pareto(self.shape, n) - self.mean_raw

    def abs_moment(self, p: float) -> float:
        r""":math:`E|\xi - E\xi|^p` for p < a by adaptive quadrature (requested accuracy 1e-10).

        With :math:`|Y| \le \sup|\eta| + |\xi - E\xi|`, Minkowski gives
        :math:`M_p \le (\sup|\eta| + \text{abs\_moment}(p)^{1/p})^p` for 003 Assumption 3.

        Parameters
        ----------
        p : float
            Moment order, 0 <= p < ``shape``.

        Returns
        -------
        float
            The absolute central moment.

        Raises
        ------
        ValueError
            If ``p`` is outside [0, shape).

        References
        ----------
        003 Assumption 3 (:math:`E|Y|^p \le M_p`).

        Examples
        --------
        The second absolute central moment is the variance, 3/4 for a = 3:

        >>> round(LomaxNoise(3.0).abs_moment(2.0), 8)
        0.75
        """
        p = check_real("p", p, low=0.0, high=self.shape, high_open=True)
        a, lam, mu = self.shape, self.scale, self.mean_raw
        dens = lambda x: a / lam * (1.0 + x / lam) ** (-a - 1.0)
        f = lambda x: abs(x - mu) ** p * dens(x)
        left = integrate.quad(f, 0.0, mu, epsabs=1e-12, epsrel=1e-10)[0]
        right = integrate.quad(f, mu, np.inf, epsabs=1e-12, epsrel=1e-10, limit=200)[0]
        return left + right

    def clipped_mean(self, center, level):
        r"""Exact :math:`E[\mathrm{clip}(c + \xi - E\xi, -\ell, \ell)]`, elementwise in c.

        With :math:`Y = c + \xi - E\xi`: :math:`E[\mathrm{clip}(Y)] = -\ell + \int_{-\ell}^{\ell} P(Y > t)\,dt`.

        Parameters
        ----------
        center : array_like of float
            c, the regression value.
        level : float
            ℓ > 0, the clipping level.

        Returns
        -------
        ndarray of float64, shape of ``center``
            The clipped means.

        References
        ----------
        003 Section 6.1 (clipping), Lemma 2 (eq. (167)).

        Examples
        --------
        a = 3, λ = 1, c = E ξ = 1/2 (so Y = ξ >= 0), ℓ = 1:
        :math:`\int_0^1 (1+t)^{-3} dt = 1/2 - 1/8 = 3/8`.

        >>> round(float(LomaxNoise(3.0).clipped_mean(0.5, 1.0)), 12)
        0.375
        """
        c = np.asarray(center, dtype=float) - self.mean_raw
        a, lam = self.shape, self.scale
        lo, hi = -level, level

        def G(t):  # ∫_c^t P(ξ > s − c) ds for t >= c
            return lam / (a - 1.0) * (1.0 - (1.0 + (t - c) / lam) ** (1.0 - a))

        below = np.clip(np.minimum(c, hi) - lo, 0.0, None)  # P(Y > t) = 1 for t < c
        start = np.maximum(lo, c)
        tail = np.where(hi > start, G(np.maximum(hi, c)) - G(start), 0.0)
        return -level + below + tail


_PROFILES = ("weierstrass", "kink")


@dataclass(frozen=True)
class AdditiveRegression(RegressionLaw):
    r""":math:`Y = \sum_{i<d} g(X_i) + \text{noise}` with a one-dimensional profile g.

    ``"weierstrass"``: :math:`g(t) = A \sum_{j<J} 2^{-j\beta} \cos(2^j \pi t)` (β-Hölder and, for β < 1,
    nowhere better at scales above :math:`2^{-J}`); ``"kink"``: :math:`g(t) = A|t - \theta|^\beta` (Hölder β
    exactly, but only at t = θ).

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    beta : float
        β in (0, 1].
    noise : UniformNoise or LomaxNoise
        Additive noise, independent of X.
    profile : {"weierstrass", "kink"}, default "weierstrass"
        The profile g.
    amplitude : float, default 0.5
        A > 0.
    terms : int, default 16
        J >= 1, the number of terms of the Weierstrass profile.
    theta : float, default (√5 - 1)/2
        The kink position in [0, 1].

    Raises
    ------
    ValueError
        If a parameter is outside its range or ``noise`` is of another type.

    References
    ----------
    003 Assumptions 1(a), 2 and 3; Table 1 (regression rates).

    Examples
    --------
    >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
    >>> law.eta([[0.0], [0.75]]).tolist(), law.sup_abs_eta(), round(law.bayes_risk(), 12)
    ([0.5, 0.25], 0.5, 0.03)
    """

    d: int
    beta: float
    noise: object
    profile: str = "weierstrass"
    amplitude: float = 0.5
    terms: int = 16
    theta: float = GOLDEN

    def __post_init__(self):
        check_int("d", self.d, low=1)
        check_real("beta", self.beta, low=0.0, high=1.0, low_open=True)
        check_choice("profile", self.profile, _PROFILES)
        check_positive("amplitude", self.amplitude)
        check_int("terms", self.terms, low=1)
        check_real("theta", self.theta, low=0.0, high=1.0)
        if not isinstance(self.noise, (UniformNoise, LomaxNoise)):
            raise ValueError(f"noise must be a UniformNoise or a LomaxNoise, got noise={self.noise!r}")

    # one-dimensional profile ------------------------------------------------------------------
    def _coef(self):
        j = np.arange(self.terms)
        return self.amplitude * 2.0 ** (-j * self.beta), np.pi * 2.0 ** j

    def g(self, t) -> np.ndarray:
        r"""The one-dimensional profile g at t.

        :math:`A|t - \theta|^\beta` ("kink") or :math:`\sum_{j<J} A 2^{-j\beta} \cos(\pi 2^j t)` ("weierstrass").

        Parameters
        ----------
        t : array_like of float
            Coordinates, any shape.

        Returns
        -------
        ndarray of float64, shape of ``t``
            g(t).

        References
        ----------
        003 Assumption 1(a) (β-Hölder regression function).

        Examples
        --------
        Weierstrass with J = 2, β = 1, A = 1/2: :math:`g(0) = \tfrac12(1 + \tfrac12)`,
        :math:`g(1/2) = \tfrac12(\cos\tfrac{\pi}{2} + \tfrac12\cos\pi) = -1/4`.

        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), terms=2)
        >>> np.round(law.g([0.0, 0.5]), 12).tolist()
        [0.75, -0.25]
        """
        t = np.asarray(t, dtype=float)
        if self.profile == "kink":
            return self.amplitude * np.abs(t - self.theta) ** self.beta
        c, w = self._coef()
        return np.cos(t[..., None] * w) @ c

    def _g_moments(self, bins):
        """Per interval ``[k/bins, (k+1)/bins]``: mean of g and within-interval variance of g."""
        e = np.arange(bins + 1) / bins
        ell = 1.0 / bins
        if self.profile == "kink":
            A, b = self.amplitude, self.beta

            def anti(q):  # antiderivative of |t − θ|^q
                return np.sign(e - self.theta) * np.abs(e - self.theta) ** (q + 1) / (q + 1)

            m1 = A * np.diff(anti(b)) / ell
            m2 = A * A * np.diff(anti(2 * b)) / ell
            return m1, m2 - m1 ** 2
        c, w = self._coef()
        a, bb = e[:-1, None], e[1:, None]
        # ∫ cos(w t) over the interval, and the centered version for the variance (no cancellation)
        mid = 0.5 * (a + bb)
        sinc = np.sinc(w * ell / (2 * np.pi))  # sin(w ℓ/2)/(w ℓ/2)
        mean_terms = np.cos(w * mid) * sinc  # mean of cos(w t) over the interval
        m1 = mean_terms @ c
        # variance of ∑ c_j cos(w_j t) over the interval: E[(∑ c_j (cos w_j t − μ_j))²] via
        # ∫ cos(w_j t) cos(w_l t) = ½ [mean cos((w_j − w_l)t) + mean cos((w_j + w_l)t)]
        def mean_cos(om):
            return np.cos(om * mid[..., None]) * np.sinc(om * ell / (2 * np.pi))
        diff = w[:, None] - w[None, :]
        summ = w[:, None] + w[None, :]
        cross = 0.5 * (mean_cos(diff) + mean_cos(summ)) - mean_terms[:, :, None] * mean_terms[:, None, :]
        var = np.einsum("j,kjl,l->k", c, cross, c)
        return m1, var

    # law interface ------------------------------------------------------------------------------
    def eta(self, X) -> np.ndarray:
        r"""The regression function :math:`\eta(x) = \sum_i g(x_i)`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            η at each point.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 Section 3.2 (regression function).

        Examples
        --------
        >>> law = AdditiveRegression(d=2, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law.eta([[0.0, 0.25]]).tolist()
        [0.75]
        """
        X = check_points(X, self.d)
        return self.g(X).sum(axis=1)

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        r"""Labels :math:`\eta(X_i) + \xi_i` with the law's noise.

        Parameters
        ----------
        eta_x : ndarray of float64, shape (n,)
            :math:`\eta(X_i)`.
        rng : numpy.random.Generator or int
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n,)
            Labels.

        References
        ----------
        003 Assumptions 2-3.

        Examples
        --------
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> y = law.sample_labels(np.array([0.25, 0.5]), np.random.default_rng(0))
        >>> bool(np.all(np.abs(y - [0.25, 0.5]) <= 0.3))
        True
        """
        return eta_x + self.noise.sample(eta_x.size, rng)

    def cell_moments(self, bins: int):
        """Per grid cell: mean and within-cell variance of η, in closed form.

        The coordinates are independent under the uniform law, so both are sums of the one-dimensional
        moments of g.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        mean : ndarray of float64, shape (bins^d,)
            Cell means of η.
        var : ndarray of float64, shape (bins^d,)
            Within-cell variances of η.

        Raises
        ------
        ValueError
            If ``bins`` is not an integer >= 1.

        References
        ----------
        003 eq. (9) with f = 1.

        Examples
        --------
        :math:`|x - 1/2|` on each half: mean 1/4, variance 1/48.

        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> mean, var = law.cell_moments(2)
        >>> mean.tolist(), np.round(var * 48, 12).tolist()
        ([0.25, 0.25], [1.0, 1.0])
        """
        bins = check_int("bins", bins, low=1)
        m1, var1 = self._g_moments(bins)
        grids = np.meshgrid(*([np.arange(bins)] * self.d), indexing="ij")
        mean = sum(m1[gi.ravel()] for gi in grids)
        var = sum(var1[gi.ravel()] for gi in grids)  # coordinates independent under the uniform law
        return mean, var

    def bayes_risk(self) -> float:
        r"""The Bayes risk :math:`E[(Y - \eta(X))^2]` = the noise variance.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (7)).

        References
        ----------
        003 eq. (7).

        Examples
        --------
        >>> law = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.3), profile="kink", amplitude=1.0, theta=0.5)
        >>> round(law.bayes_risk(), 12)
        0.03
        """
        return self.noise.variance

    def sup_abs_eta(self) -> float:
        r""":math:`\sup|\eta|` (for the bound T of Assumption 2 with bounded noise: :math:`T > \sup|\eta| + \sigma`).

        Returns
        -------
        float
            :math:`d A \max(\theta, 1-\theta)^\beta` ("kink") or :math:`d \sum_j A 2^{-j\beta}` ("weierstrass").

        References
        ----------
        003 Assumption 2.

        Examples
        --------
        >>> AdditiveRegression(d=2, beta=1.0, noise=UniformNoise(0.0), terms=2).sup_abs_eta()
        1.5
        """
        if self.profile == "kink":
            return self.d * self.amplitude * max(self.theta, 1 - self.theta) ** self.beta
        return self.d * float(np.sum(self._coef()[0]))
