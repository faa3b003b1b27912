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
    """Classes 0 and 1 separated by ``x_1 = θ``; ``K − 2`` further classes at the floor ``ρ/K``.

    ``s(x) = sign(x_1 − θ) min(1, |x_1 − θ|/w)^κ``; ``η_0 = ρ/K + (1 − ρ)(1 + s)/2``,
    ``η_1 = ρ/K + (1 − ρ)(1 − s)/2``, ``η_j = ρ/K`` for ``j >= 2``. Margin ``η* − η_s = (1 − ρ)|s|``.

    Parameters
    ----------
    d : int >= 1.
    kappa : float in (0, 1]: β = κ, γ = 1/κ.
    num_classes : int >= 2.
    rho : float in [0, 1).
    width : float > 0, ``w``: distance from the boundary at which the margin saturates.
    theta : float in (0, 1), boundary position.
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
        return self.kappa

    @property
    def gamma(self) -> float:
        return 1.0 / self.kappa

    @property
    def holder_constant(self) -> float:
        """Assumption 1(a) constant: ``|η_j(x) − η_j(x')| <= (1−ρ) w^{−κ} ‖x − x'‖^κ``.

        (``t ↦ sign(t)|t|^κ`` is κ-Hölder with constant ``2^{1−κ}``, halved by the ``/2``.)
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
        int_s, _, vol = self._slab(bins)
        K, rho = self.num_classes, self.rho
        out = np.full((int_s.size, K), vol * rho / K)
        out[:, 0] += (1.0 - rho) * (vol + int_s) / 2.0
        out[:, 1] += (1.0 - rho) * (vol - int_s) / 2.0
        return _repeat_slab(out, bins, self.d)

    def cell_bayes_mass(self, bins: int) -> np.ndarray:
        _, int_abs, vol = self._slab(bins)
        m = vol * self.rho / self.num_classes + (1.0 - self.rho) * (vol + int_abs) / 2.0
        return _repeat_slab(m, bins, self.d)

    def bayes_risk(self) -> float:
        int_abs = float(self._S_odd(1.0) - self._S_odd(0.0))
        return 1.0 - self.rho / self.num_classes - (1.0 - self.rho) * (1.0 + int_abs) / 2.0

    def margin_probability(self, t) -> np.ndarray:
        """Exact ``P(0 < η*(X) − η_s(X) < t)``, for ``t`` array-like."""
        t = np.asarray(t, dtype=float)
        r = self.width * np.minimum(1.0, np.maximum(t, 0.0) / (1.0 - self.rho)) ** (1.0 / self.kappa)
        r = np.where(t > 1.0 - self.rho, np.inf, r)  # past saturation every point with s ≠ 0 counts
        return np.minimum(1.0, self.theta + r) - np.maximum(0.0, self.theta - r)


@dataclass(frozen=True)
class UniformNoise:
    """Noise uniform on ``[−sigma, sigma]``: bounded (003 Assumption 2), variance ``σ²/3``."""

    sigma: float

    def __post_init__(self):
        check_real("sigma", self.sigma, low=0.0)

    def sample(self, n, rng):
        """``n`` draws of the centred noise, shape (n,); ``rng``: numpy Generator or int seed."""
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        return self.sigma * (2.0 * rng.random(n) - 1.0)

    @property
    def variance(self) -> float:
        return self.sigma ** 2 / 3.0

    @property
    def bound(self) -> float:
        return self.sigma

    def clipped_mean(self, center, level):
        """Exact ``E[clip(center + ξ, −level, level)]`` (elementwise in ``center``)."""
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
    """Centered Lomax (Pareto II) noise ``ξ − E ξ`` with ``P(ξ > t) = (1 + t/scale)^{−shape}``.

    Right-skewed, so clipping at ``±T`` biases the mean downwards by ``≍ T^{1−shape}`` instead of
    cancelling. ``E|ξ|^p < ∞`` iff ``p < shape``: to exercise 003 Assumption 3 with moment order
    ``p`` use ``shape`` slightly above ``p`` (:meth:`for_moment`). ``shape > 2`` is required (finite
    variance, so the Bayes risk exists). The clipping bias then decays like ``T^{1−shape}``, slightly
    faster than the ``T^{1−p}`` of 003 Lemma 2 (eq. (167)), so a fitted rate can be optimistic by
    that gap.
    """

    shape: float
    scale: float = 1.0

    def __post_init__(self):
        check_real("shape", self.shape, low=2.0, low_open=True)
        check_positive("scale", self.scale)

    @classmethod
    def for_moment(cls, p: float, *, excess: float = 0.25, scale: float = 1.0):
        """Tail index ``p + excess``: moments of order p finite, of order ``p + excess`` infinite."""
        check_real("p", p, low=2.0)
        check_positive("excess", excess)
        return cls(shape=p + excess, scale=scale)

    @property
    def mean_raw(self) -> float:
        return self.scale / (self.shape - 1.0)

    @property
    def variance(self) -> float:
        a = self.shape
        return self.scale ** 2 * a / ((a - 1.0) ** 2 * (a - 2.0))

    def sample(self, n, rng):
        """``n`` draws of the centred Lomax noise, shape (n,); ``rng``: numpy Generator or int seed."""
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        return self.scale * rng.pareto(self.shape, n) - self.mean_raw

    def abs_moment(self, p: float) -> float:
        """``E|ξ − E ξ|^p`` for ``p < shape`` by adaptive quadrature (requested accuracy 1e-10).

        With ``|Y| <= sup|η| + |ξ − E ξ|``, Minkowski gives ``M_p <= (sup|η| + abs_moment(p)^{1/p})^p``
        for Assumption 3.
        """
        p = check_real("p", p, low=0.0, high=self.shape, high_open=True)
        a, lam, mu = self.shape, self.scale, self.mean_raw
        dens = lambda x: a / lam * (1.0 + x / lam) ** (-a - 1.0)
        f = lambda x: abs(x - mu) ** p * dens(x)
        left = integrate.quad(f, 0.0, mu, epsabs=1e-12, epsrel=1e-10)[0]
        right = integrate.quad(f, mu, np.inf, epsabs=1e-12, epsrel=1e-10, limit=200)[0]
        return left + right

    def clipped_mean(self, center, level):
        """Exact ``E[clip(center + ξ − E ξ, −level, level)]`` (elementwise in ``center``).

        With ``Y = c + ξ``, ``c = center − E ξ``: ``E[clip(Y)] = −level + ∫_{−level}^{level} P(Y > t) dt``.
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
    """``Y = ∑_{i<d} g(X_i) + noise`` with a one-dimensional profile ``g`` (see module docstring).

    Parameters
    ----------
    d : int >= 1.
    beta : float in (0, 1].
    profile : "weierstrass" or "kink".
    amplitude : float > 0, ``A``.
    noise : UniformNoise or LomaxNoise.
    terms : int >= 1, ``J`` for the Weierstrass profile.
    theta : float, the kink position.
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
        """The one-dimensional profile at ``t`` (any shape, same shape out): ``a |t − θ|^β`` ("kink") or
        the truncated Weierstrass sum ``Σ_j a 2^{−jβ} cos(π 2^j t)`` (β-Hölder, 003 Assumption 1)."""
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
        X = check_points(X, self.d)
        return self.g(X).sum(axis=1)

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        return eta_x + self.noise.sample(eta_x.size, rng)

    def cell_moments(self, bins: int):
        bins = check_int("bins", bins, low=1)
        m1, var1 = self._g_moments(bins)
        grids = np.meshgrid(*([np.arange(bins)] * self.d), indexing="ij")
        mean = sum(m1[gi.ravel()] for gi in grids)
        var = sum(var1[gi.ravel()] for gi in grids)  # coordinates independent under the uniform law
        return mean, var

    def bayes_risk(self) -> float:
        return self.noise.variance

    def sup_abs_eta(self) -> float:
        """``sup |η|`` (for the bound ``T`` of Assumption 2 with bounded noise: ``T > sup|η| + σ``)."""
        if self.profile == "kink":
            return self.d * self.amplitude * max(self.theta, 1 - self.theta) ** self.beta
        return self.d * float(np.sum(self._coef()[0]))
