"""K Gaussian classes on the unit circle: the synthetic law of 000 Section 5.1 (Figures 2-4).

Class ``j`` (0-based) has prior ``1/K`` and features ``X | Y = j ~ N(μ_j, σ² I_2)`` with
``μ_j = (cos 2πj/K, sin 2πj/K)``. Everything the experiments need is exact or a deterministic
quadrature, never sampling:

* the posterior ``η_j(x) = softmax_j(x·μ_j / σ²)`` (the ``|x|²`` and ``|μ_j|² = 1`` terms of the
  Gaussian exponents are common to every class and cancel), computed with log-sum-exp;
* the Bayes accuracy ``∫ max_j η_j f = (1/K) ∑_j P_j(V_j) = P_0(V_0)``, where ``V_j`` is the set where
  class ``j`` wins (the wedge of half-angle ``π/K`` around ``μ_j``; a half-plane for K = 2) and, by
  the rotational symmetry of the law, every class has the same probability of landing in its own
  wedge. The angle ``θ`` of ``X ~ N(μ_0, σ²I)`` has the projected-normal density
  ``p(θ) = (1/2π) [e^{-s²/2} + √(2π) t Φ(t) e^{-s² sin²θ / 2}]`` with ``s = 1/σ``, ``t = s cos θ``,
  so the Bayes accuracy is ``2 ∫_0^{π/K} p(θ) dθ``, one adaptive quadrature (error < 1e-10);
* the ball mass ``p_r(x) = P(|X − x| <= r)`` and the radius ``r_0(x)`` of 000 eq. (30) (noncentral
  χ² with 2 degrees of freedom per component), and a Lipschitz constant of η for 000 eq. (34).

References: 000 Section 5.1 (the law), eq. (5) (Bayes classifier), Appendix B.1 eq. (30), (34).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import integrate, special, stats

from limits.validation import check_int, check_positive, check_real
from simulations.seeding import check_generator

__all__ = ["CircleMixture"]


@lru_cache(maxsize=256)
def _bayes_accuracy(num_classes: int, sigma: float) -> float:
    s = 1.0 / sigma

    def p(theta):
        t = s * math.cos(theta)
        return (math.exp(-0.5 * s * s) + math.sqrt(2 * math.pi) * t * special.ndtr(t)
                * math.exp(-0.5 * (s * math.sin(theta)) ** 2)) / (2 * math.pi)

    val, _ = integrate.quad(p, 0.0, math.pi / num_classes, epsabs=1e-13, epsrel=1e-12, limit=200)
    return 2.0 * val


@lru_cache(maxsize=64)
def _lipschitz(num_classes: int, sigma: float) -> float:
    K = num_classes
    # Polar grid over one half-wedge (the law is invariant under rotations by 2π/K and the reflection
    # θ -> -θ, which permute the classes), resolving both σ and the wedge.
    r = np.linspace(0.0, 1.0 + 12.0 * sigma, int(min(4000, max(400, 40 * (1.0 + 12 * sigma) / sigma))))
    n_theta = int(min(400, max(16, 10 * (math.pi / K) / sigma)))
    theta = np.linspace(0.0, math.pi / K, n_theta)
    law = CircleMixture(K, sigma)
    mu = law.means()
    best = 0.0
    for th in theta:
        X = np.stack([r * math.cos(th), r * math.sin(th)], axis=1)
        eta = law.posterior(X)
        mbar = eta @ mu
        # |∇η_j| = η_j |μ_j − μ̄(x)| / σ²
        dist = np.sqrt(((mu[None, :, :] - mbar[:, None, :]) ** 2).sum(axis=2))
        best = max(best, float((eta * dist).max()) / sigma ** 2)
    return best


_R0_WINDOW = 1e-10  # relative distance from the located root inside which r0 evaluates p_r itself


def _bisection(reaches, n: int) -> np.ndarray:
    """The bisection defining :meth:`CircleMixture.r0`; ``reaches(r)`` is ``ball_mass(X, r) >= mass``."""
    lo = np.zeros(n)
    hi = np.full(n, 1.0)
    while True:  # grow the bracket until every point reaches the mass
        short = ~reaches(hi)
        if not short.any():
            break
        hi = np.where(short, 2 * hi, hi)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        ok = reaches(mid)
        hi = np.where(ok, mid, hi)
        lo = np.where(ok, lo, mid)
        if np.all(hi - lo <= 1e-9 * hi):
            break
    return hi


@dataclass(frozen=True, slots=True)
class CircleMixture:
    r"""Equal-weight mixture of K isotropic Gaussians centred on the unit circle.

    Class j (0-based) has prior 1/K and features :math:`X \mid Y = j \sim N(\mu_j, \sigma^2 I_2)` with
    :math:`\mu_j = (\cos 2\pi j/K, \sin 2\pi j/K)`.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    sigma : float
        Standard deviation σ > 0 of each coordinate (000 uses σ = 0.05 and σ = 2/K).

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``sigma`` is not finite and > 0.

    References
    ----------
    000 Section 5.1 (the synthetic experiments, Figures 2-4).

    Examples
    --------
    For K = 2 the Bayes classifier is the half-plane :math:`x_1 > 0`, so the Bayes accuracy is
    :math:`\Phi(1/\sigma)`, 0.841345 at σ = 1:

    >>> round(CircleMixture(num_classes=2, sigma=1.0).bayes_accuracy(), 6)
    0.841345
    """

    num_classes: int
    sigma: float

    def __post_init__(self):
        check_int("num_classes", self.num_classes, low=2)
        check_positive("sigma", self.sigma)

    @property
    def d(self) -> int:
        """Feature dimension, 2.

        References
        ----------
        000 Section 5.1.

        Examples
        --------
        >>> CircleMixture(3, 0.1).d
        2
        """
        return 2

    def means(self) -> np.ndarray:
        r"""The class means :math:`\mu_j = (\cos 2\pi j/K, \sin 2\pi j/K)`.

        Returns
        -------
        ndarray of float64, shape (K, 2)
            One mean per row.

        References
        ----------
        000 Section 5.1.

        Examples
        --------
        >>> (np.round(CircleMixture(4, 0.1).means(), 12) + 0.0).tolist()
        [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]
        """
        a = 2.0 * np.pi * np.arange(self.num_classes) / self.num_classes
        return np.stack([np.cos(a), np.sin(a)], axis=1)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``n`` pairs (labels first, then the Gaussian noise).

        Parameters
        ----------
        n : int
            Number of pairs, >= 0.
        rng : numpy.random.Generator or int
            Source of randomness.

        Returns
        -------
        X : ndarray of float64, shape (n, 2)
            Features.
        Y : ndarray of int64, shape (n,)
            Labels in ``0 .. K-1``.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is neither a Generator nor a seed.

        References
        ----------
        000 Section 5.1.

        Examples
        --------
        >>> X, Y = CircleMixture(4, 0.05).sample(10, np.random.default_rng(0))
        >>> X.shape, Y.dtype, bool(np.all((0 <= Y) & (Y < 4)))
        ((10, 2), dtype('int64'), True)
        """
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        Y = rng.integers(0, self.num_classes, size=n)
        X = self.means()[Y] + self.sigma * rng.standard_normal((n, 2))
        return X, Y.astype(np.int64)

    def _points(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != 2:
            raise ValueError(f"X must have shape (n, 2), got shape {X.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must be finite")
        return X

    def posterior(self, X) -> np.ndarray:
        r"""Class posterior :math:`\eta_j(x) = P(Y = j \mid X = x)`.

        :math:`\eta_j(x) = \mathrm{softmax}_j(x \cdot \mu_j / \sigma^2)`, by log-sum-exp (no overflow).

        The :math:`|x|^2` and :math:`|\mu_j|^2 = 1` terms of the Gaussian exponents are common to every class
        and cancel.

        Parameters
        ----------
        X : array_like, shape (n, 2)
            Finite points.

        Returns
        -------
        ndarray of float64, shape (n, K)
            Rows sum to 1.

        Raises
        ------
        ValueError
            If ``X`` is not a finite (n, 2) array.

        References
        ----------
        000 Section 5.1, eq. (5) (the Bayes classifier is its argmax).

        Examples
        --------
        At the origin every class is equally likely:

        >>> CircleMixture(4, 0.3).posterior([[0.0, 0.0]]).tolist()
        [[0.25, 0.25, 0.25, 0.25]]
        """
        X = self._points(X)
        logits = (X @ self.means().T) / self.sigma ** 2
        return special.softmax(logits, axis=1)

    def density(self, X) -> np.ndarray:
        r"""Feature density :math:`f(x) = \frac{1}{K} \sum_j \varphi_\sigma(x - \mu_j)`.

        Parameters
        ----------
        X : array_like, shape (n, 2)
            Finite points.

        Returns
        -------
        ndarray of float64, shape (n,)
            Density values.

        Raises
        ------
        ValueError
            If ``X`` is not a finite (n, 2) array.

        References
        ----------
        000 Section 5.1; Appendix B.1 (f enters the kNN bound).

        Examples
        --------
        At the origin every mean is at distance 1: :math:`e^{-1/2}/(2\pi) = 0.096532` for σ = 1.

        >>> np.round(CircleMixture(4, 1.0).density([[0.0, 0.0]]), 6).tolist()
        [0.096532]
        """
        X = self._points(X)
        d2 = ((X[:, None, :] - self.means()[None]) ** 2).sum(axis=2)
        return np.exp(special.logsumexp(-0.5 * d2 / self.sigma ** 2, axis=1)) / (
            self.num_classes * 2 * np.pi * self.sigma ** 2)

    def bayes_accuracy(self) -> float:
        r""":math:`E[\max_j \eta_j(X)]` by one-dimensional adaptive quadrature (error < 1e-10).

        By rotational symmetry it is the probability that :math:`X \sim N(\mu_0, \sigma^2 I)` lands in the
        wedge of half-angle π/K around :math:`\mu_0`: :math:`2 \int_0^{\pi/K} p(\theta)\,d\theta` with the
        projected-normal density p.

        Returns
        -------
        float
            The Bayes accuracy :math:`1 - R^*`.

        References
        ----------
        000 Section 5.1, eq. (5).

        Examples
        --------
        K = 2: :math:`\Phi(1/\sigma)`, e.g. :math:`\Phi(2) = 0.977250` at σ = 1/2.

        >>> round(CircleMixture(2, 0.5).bayes_accuracy(), 6)
        0.97725
        """
        return _bayes_accuracy(self.num_classes, float(self.sigma))

    def ball_mass(self, X, r) -> np.ndarray:
        r""":math:`p_r(x) = P(|X' - x| \le r)` for X' from the law.

        Each component gives a noncentral :math:`\chi^2_2` probability
        :math:`P(\chi^2_2(|x - \mu_j|^2/\sigma^2) \le r^2/\sigma^2)`.

        Parameters
        ----------
        X : array_like, shape (n, 2)
            Finite points.
        r : float or array_like, shape (n,)
            Radii, finite and >= 0.

        Returns
        -------
        ndarray of float64, shape (n,)
            Ball masses.

        Raises
        ------
        ValueError
            If ``X`` is not a finite (n, 2) array or a radius is negative or not finite.

        References
        ----------
        000 Appendix B.1 (definition of :math:`p_r` before eq. (30)).

        Examples
        --------
        K = 2, σ = 0.1, x = μ_0, r = σ: the own component gives the Rayleigh probability
        :math:`1 - e^{-1/2}` and the other (20σ away) nothing, so :math:`p_r = (1 - e^{-1/2})/2 = 0.196735`.

        >>> np.round(CircleMixture(2, 0.1).ball_mass([[1.0, 0.0]], 0.1), 6).tolist()
        [0.196735]
        """
        X = self._points(X)
        r = np.broadcast_to(np.asarray(r, dtype=float), (X.shape[0],))
        if np.any(~np.isfinite(r)) or np.any(r < 0):
            raise ValueError("r must be finite and >= 0")
        d2 = ((X[:, None, :] - self.means()[None]) ** 2).sum(axis=2) / self.sigma ** 2
        q = (r / self.sigma)[:, None] ** 2
        return stats.ncx2.cdf(np.broadcast_to(q, d2.shape), 2, d2).mean(axis=1)

    def r0(self, X, mass: float) -> np.ndarray:
        """``r_0(x) = inf{r : p_r(x) >= mass}`` of 000 eq. (30) (there mass = 2k/N), shape (n,).

        Defined as the result of a vectorized bisection on :meth:`ball_mass` (p_r is continuous and
        increasing in r): the bracket ``[0, 2^m]`` (``2^m`` the first power of two, from 1 up, that
        every point reaches), halved until ``hi − lo <= 1e-9 hi`` at every point; the upper end is
        returned. That bisection evaluates about 35 ball masses (n × K noncentral χ² CDFs each);
        this method returns the same array, bit for bit, with about a sixth of them (issue 20):
        Newton's method first locates the root of each point to about 1e-13 (relative;
        ``_root_bracket``), then the bisection is replayed, every comparison ``p_mid >= mass`` whose
        ``mid`` lies more than 1e-10 (relative) away from that root being decided by the monotonicity
        of p_r, and the few closer ones by evaluating :meth:`ball_mass` exactly as the bisection does
        (the CDF's rounding errors, ~1e-15, cannot move the computed crossing by 1e-10).
        :meth:`_r0_bisection` is the plain bisection, kept as the test oracle.

        Parameters
        ----------
        X : array_like, shape (n, 2)
            Points x.
        mass : float in (0, 1)
            The ball mass to reach.

        Returns
        -------
        numpy.ndarray, shape (n,)
            ``r_0(x)`` for each row of ``X``, within a relative 1e-9 above the exact radius.

        Raises
        ------
        ValueError
            If ``X`` is not a finite (n, 2) array or ``mass`` is not in (0, 1).

        References
        ----------
        000 Appendix B.1, eq. (30).

        Examples
        --------
        >>> law = CircleMixture(4, 0.1)
        >>> r = law.r0([[1.0, 0.0]], 0.04)
        >>> bool(abs(law.ball_mass([[1.0, 0.0]], r)[0] - 0.04) < 1e-8)
        True
        """
        X = self._points(X)
        mass = check_real("mass", mass, low=0.0, high=1.0, low_open=True, high_open=True)
        below, above = self._root_bracket(X, mass)
        window_low, window_high = below * (1.0 - _R0_WINDOW), above * (1.0 + _R0_WINDOW)

        def reaches(r):  # ball_mass(X, r) >= mass, evaluated only where r is near the root
            near = (r >= window_low) & (r <= window_high)
            ok = r > window_high
            if near.any():
                ok[near] = self.ball_mass(X[near], r[near]) >= mass
            return ok

        return _bisection(reaches, X.shape[0])

    def _r0_bisection(self, X, mass: float) -> np.ndarray:
        """The plain bisection that defines :meth:`r0` (every comparison evaluated; test oracle)."""
        X = self._points(X)
        mass = check_real("mass", mass, low=0.0, high=1.0, low_open=True, high_open=True)
        return _bisection(lambda r: self.ball_mass(X, r) >= mass, X.shape[0])

    def _root_bracket(self, X, mass: float) -> tuple[np.ndarray, np.ndarray]:
        """Radii ``below <= above`` around the crossing of ``p_r = mass``, a relative 1e-13 apart or less
        (``0`` and ``inf`` at a point where the search would not converge in 200 steps).

        Newton's method on ``u = r²`` (the ball mass is close to linear in u for small balls), kept
        inside a bracket ``[a, b]`` with ``p_√a < mass <= p_√b`` (a step leaving it bisects it), from
        the small-ball guess ``π r² f(x) = mass``. The derivative is exact and cheap for two degrees of
        freedom: ``d/dx P(χ²_2(λ) <= x) = ½ e^{−(√x − √λ)²/2} I0e(√(λx))``. Each step evaluates the
        points not yet converged only; the CDF values are those of :meth:`ball_mass` up to the rounding
        of ``u / σ²``, which the window of :meth:`r0` (1e-10) covers.
        """
        s2 = self.sigma ** 2
        lam = ((X[:, None, :] - self.means()[None]) ** 2).sum(axis=2) / s2
        n = X.shape[0]

        def excess_and_slope(u, rows):  # p_{√u} − mass and its derivative in u, at the points `rows`
            lr = lam[rows]
            x = np.broadcast_to((u / s2)[:, None], lr.shape)
            with np.errstate(over="ignore"):
                cdf = np.where(lr != 0, special.chndtr(x, 2, lr), special.chdtr(2, x))
            root = np.sqrt(x * lr)
            pdf = 0.5 * np.exp(-0.5 * (np.sqrt(x) - np.sqrt(lr)) ** 2) * special.i0e(root)
            return cdf.mean(axis=1) - mass, pdf.mean(axis=1) / s2

        a, b = np.zeros(n), np.full(n, np.inf)  # p_0 = 0 < mass
        below, above = np.zeros(n), np.full(n, np.inf)  # the result, in u
        u = mass / (np.pi * np.maximum(self.density(X), 1e-300))  # small-ball guess
        u = np.minimum(u, (3.0 + 12.0 * self.sigma) ** 2)  # a ball of radius 3 + 12σ holds nearly everything
        active = np.arange(n)
        for _ in range(200):
            if active.size == 0:
                break
            x = u[active]
            f, slope = excess_and_slope(x, active)
            up = f >= 0
            a[active] = np.where(up, a[active], x)
            b[active] = np.where(up, x, b[active])
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # tiny slopes: step inf, bracket decides
                step = np.where(slope > 0, f / slope, np.inf)
            nxt = x - step
            lo, hi = a[active], b[active]
            # Converged: a Newton step below 1e-13 (keep that iterate), or a bracket that narrow. p_r can
            # be flat at exactly `mass` in floating point (e.g. mass = 1/K with well separated classes):
            # the crossing is then the left end of that plateau, which bisection (f = 0 counts as "up")
            # finds; f = 0 ends Newton only where p_r is steep (elasticity u p'/p >= 0.01), so that a
            # plateau of equal rounded values is narrower than a relative ~1e-13.
            newton = (np.abs(step) <= 1e-13 * x) & ((f != 0) | (slope * x >= 1e-2 * mass))
            bracket = np.isfinite(hi) & (hi - lo <= 1e-13 * hi)
            outside = ~((nxt > lo) & (nxt < hi)) & ~newton
            nxt[outside] = np.where(np.isfinite(hi[outside]), 0.5 * (lo[outside] + hi[outside]), 4.0 * x[outside])
            u[active] = nxt
            below[active[newton]] = above[active[newton]] = nxt[newton]
            below[active[bracket]], above[active[bracket]] = lo[bracket], hi[bracket]
            active = active[~(newton | bracket)]
        below[active], above[active] = 0.0, np.inf  # not converged (never seen): r0 evaluates every comparison
        return np.sqrt(below) * (1.0 - 1e-13), np.sqrt(above) * (1.0 + 1e-13)

    def lipschitz(self) -> float:
        r""":math:`L = \sup_x \max_j |\nabla \eta_j(x)|`, estimated on a fine polar grid (a lower estimate of the sup).

        :math:`\nabla\eta_j = \eta_j (\mu_j - \sum_l \eta_l \mu_l)/\sigma^2`. The grid covers one half-wedge of
        angle π/K (enough by symmetry) and radii :math:`[0, 1 + 12\sigma]` at a spacing of at most σ/10, so the
        estimate is within a few percent of the supremum.

        Returns
        -------
        float
            The Lipschitz constant estimate.

        References
        ----------
        000 Appendix B.1 (the Lipschitz assumption before eq. (31)).

        Examples
        --------
        K = 2: :math:`|\nabla\eta_0| = 2\eta_0\eta_1/\sigma^2`, largest (1/(2σ²)) on the line :math:`x_1 = 0`,
        which the grid contains:

        >>> CircleMixture(2, 1.0).lipschitz()
        0.5
        """
        return _lipschitz(self.num_classes, float(self.sigma))
