"""Two-class location mixtures on unbounded R^d with exact η, Bayes risk and cube integrals.

``Y ~ Bernoulli(π_1)`` and ``X | Y = y ~ μ_y + σ Z`` with ``Z`` of product density ``g`` (standard
normal, or standard Cauchy: heavy tails, no mean). The sub-densities ``f_y(x) = π_y σ^{-d} g((x − μ_y)/σ)``
give ``η = f_1 / (f_0 + f_1)``. Everything the Remark 1.8 experiments need is in closed form:

* ``class_mass(lo, hi)`` -- ``F_y(C) = π_y Π_a (G((hi_a − μ_ya)/σ) − G((lo_a − μ_ya)/σ))`` per cube;
* ``bayes_positive_mass()`` -- ``∫ (f_1 − f_0)_+``: equal-scale normals have a half-space
  ``{w·x > t}`` as Bayes region (``w = μ_1 − μ_0``, ``t = (|μ_1|² − |μ_0|²)/2 + σ² ln(π_0/π_1)``),
  a 1-D Cauchy mixture the set where a quadratic is positive (an interval, a half-line or its
  complement); its mass is a sum of CDF differences;
* ``excess_risk_cubes(lo, hi, bits)`` -- the exact excess risk of the classifier equal to ``bits_j`` on
  the disjoint cubes ``C_j`` and 0 elsewhere:
  ``err(h) − L* = ∫ |f_1 − f_0| 1[h ≠ h*] = ∫ (f_1 − f_0)_+ + Σ_{j: bits_j = 1} (F_0(C_j) − F_1(C_j))``
  (001 Section 2.2: ``err(h) = ∫ f_1 1[h=0] + f_0 1[h=1]``);
* ``joint_l1_cubes(lo, hi, values)`` -- ``Σ_y ∫ |f_y − f̂_y|`` for a joint estimate equal to
  ``values[j, y]`` on cube ``C_j`` and 0 elsewhere, exact through
  :meth:`~simulations.laws.densities.ProductDensity.l1_cubes` on the standardized cubes
  (``∫_C |π σ^{-d} g((x−μ)/σ) − v| dx = π ∫_{(C−μ)/σ} |g − v σ^d / π|``); d <= 2.

References: 001 Section 2.2 (err, h*, L*, Theorem 2.7), Theorem 1.7 and Remark 1.8, Algorithm 3.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.laws.densities import ProductDensity
from simulations.seeding import check_generator

__all__ = ["LocationMixture"]


class LocationMixture:
    """``P(Y = 1) = π_1``, ``X | Y = y ~ μ_y + σ Z``, ``Z`` with i.i.d. normal or Cauchy coordinates.

    Parameters
    ----------
    kind : {"normal", "cauchy"}
        Law of each coordinate of ``Z``.
    means : array_like, shape (2, d)
        ``μ_0`` and ``μ_1`` (distinct); ``d`` in {1, 2} (exact L1 of :class:`ProductDensity`), and
        ``d = 1`` for ``"cauchy"`` (closed-form Bayes region).
    prior1 : float in (0, 1)
        ``π_1 = P(Y = 1)``.
    sigma : float > 0
        Common scale of both classes.

    Raises
    ------
    ValueError
        On a bad kind, shape, equal means, prior outside (0, 1) or non-positive sigma.

    References
    ----------
    001 Section 2.2 (η, h*, L*), Remark 1.8.

    Examples
    --------
    >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
    >>> round(law.bayes_risk(), 6)   # Φ(−1): the two classes cross at x = 1
    0.158655
    >>> float(law.eta(np.array([[1.0]]))[0])
    0.5
    """

    def __init__(self, *, kind: str, means, prior1: float = 0.5, sigma: float = 1.0):
        self.kind = check_choice("kind", kind, ("normal", "cauchy"))
        mu = np.asarray(means, dtype=float)
        if mu.ndim != 2 or mu.shape[0] != 2 or not 1 <= mu.shape[1] <= 2 or not np.all(np.isfinite(mu)):
            raise ValueError(f"means must be a finite array of shape (2, d) with d in {{1, 2}}, got means={means!r}")
        if np.array_equal(mu[0], mu[1]):
            raise ValueError(f"means must differ (else η is constant), got means={means!r}")
        if kind == "cauchy" and mu.shape[1] != 1:
            raise ValueError(f"kind='cauchy' needs d = 1 (closed-form Bayes region), got means of shape {mu.shape}")
        self.means = mu
        self.d = mu.shape[1]
        self.prior1 = check_real("prior1", prior1, low=0.0, high=1.0, low_open=True, high_open=True)
        self.sigma = check_positive("sigma", sigma)
        self.priors = np.array([1.0 - self.prior1, self.prior1])
        self._std = ProductDensity(self.d, self.kind)

    # ---------------------------------------------------------------------------- the law
    def _points(self, X) -> np.ndarray:
        arr = np.asarray(X, dtype=float)
        if arr.ndim != 2 or arr.shape[1] != self.d:
            raise ValueError(f"X must have shape (n, {self.d}), got shape {arr.shape}")
        return arr

    def class_densities(self, X) -> np.ndarray:
        r"""The sub-densities :math:`f_y(x) = \pi_y \sigma^{-d} g((x - \mu_y)/\sigma)`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points.

        Returns
        -------
        ndarray of float64, shape (n, 2)
            :math:`f_0(x), f_1(x)` per row.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d).

        References
        ----------
        001 Section 2.2 (the joint law of (X, Y)).

        Examples
        --------
        At x = 1 both classes give :math:`\tfrac12 \varphi(1) = 0.120985`:

        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> np.round(law.class_densities([[1.0]]), 6).tolist()
        [[0.120985, 0.120985]]
        """
        X = self._points(X)
        return np.stack([self.priors[y] * self._std.pdf((X - self.means[y]) / self.sigma) / self.sigma ** self.d
                         for y in (0, 1)], axis=1)

    def eta(self, X) -> np.ndarray:
        r""":math:`\eta(x) = f_1 / (f_0 + f_1)`.

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
        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> law.eta([[1.0]]).tolist()
        [0.5]
        """
        f = self.class_densities(X)
        return f[:, 1] / f.sum(axis=1)

    def sample(self, n: int, rng) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``n`` pairs (labels first, then the noise).

        Parameters
        ----------
        n : int
            Number of pairs, >= 0.
        rng : numpy.random.Generator or int
            Source of randomness.

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
        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> X, Y = law.sample(6, np.random.default_rng(0))
        >>> X.shape, Y.dtype
        ((6, 1), dtype('int64'))
        """
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        Y = (rng.random(n) < self.prior1).astype(np.int64)
        Z = self._std.sample(n, rng)
        return self.means[Y] + self.sigma * Z, Y

    # ------------------------------------------------------------------------ cube integrals
    def class_mass(self, lo, hi) -> np.ndarray:
        r""":math:`F_y(C_j) = \pi_y \prod_a (G((hi_a - \mu_{ya})/\sigma) - G((lo_a - \mu_{ya})/\sigma))` per cube.

        Parameters
        ----------
        lo : array_like, shape (k, d)
            Lower corners.
        hi : array_like, shape (k, d)
            Upper corners.

        Returns
        -------
        ndarray of float64, shape (k, 2)
            :math:`F_0(C_j), F_1(C_j)` per row.

        References
        ----------
        001 Section 2.2.

        Examples
        --------
        On [0, 2] both classes have :math:`\tfrac12(\Phi(2) - \Phi(0)) = 0.238625`:

        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> np.round(law.class_mass([[0.0]], [[2.0]]), 6).tolist()
        [[0.238625, 0.238625]]
        """
        lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        return np.stack([self.priors[y] * self._std.mass((lo - self.means[y]) / self.sigma,
                                                          (hi - self.means[y]) / self.sigma) for y in (0, 1)], axis=1)

    def _bayes_region_1d(self) -> list[tuple[float, float]]:
        """Intervals of {f_1 > f_0} on the line (d = 1)."""
        m0, m1 = float(self.means[0, 0]), float(self.means[1, 0])
        p0, p1, s = float(self.priors[0]), float(self.priors[1]), self.sigma
        if self.kind == "normal":  # linear: (m1 - m0) x > t
            t = (m1 * m1 - m0 * m0) / 2 + s * s * math.log(p0 / p1)
            c = t / (m1 - m0)
            return [(c, math.inf)] if m1 > m0 else [(-math.inf, c)]
        # Cauchy: p1 (s² + (x−m0)²) − p0 (s² + (x−m1)²) > 0, i.e. A x² + B x + C > 0
        A, B = p1 - p0, -2.0 * (p1 * m0 - p0 * m1)
        C = p1 * (s * s + m0 * m0) - p0 * (s * s + m1 * m1)
        if A == 0.0:
            c = -C / B
            return [(c, math.inf)] if B > 0 else [(-math.inf, c)]
        disc = B * B - 4 * A * C
        if disc <= 0:
            return [(-math.inf, math.inf)] if A > 0 else []
        r = sorted(((-B - math.sqrt(disc)) / (2 * A), (-B + math.sqrt(disc)) / (2 * A)))
        return [(-math.inf, r[0]), (r[1], math.inf)] if A > 0 else [(r[0], r[1])]

    def bayes_positive_mass(self) -> float:
        r""":math:`\int (f_1 - f_0)_+\,dx`: the excess risk of the constant classifier 0.

        Returns
        -------
        float
            The mass of the Bayes region of class 1 under :math:`f_1 - f_0`.

        References
        ----------
        001 Section 2.2 (err(h) - L*).

        Examples
        --------
        The Bayes region is x > 1: :math:`\tfrac12(\Phi(1) - (1 - \Phi(1))) = \Phi(1) - 1/2 = 0.341345`.

        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> round(float(law.bayes_positive_mass()), 6)
        0.341345
        """
        if self.d == 1:
            G = self._std.G
            tot = 0.0
            for a, b in self._bayes_region_1d():
                for y, sign in ((1, 1.0), (0, -1.0)):
                    mu = float(self.means[y, 0])
                    tot += sign * self.priors[y] * float(G((b - mu) / self.sigma) - G((a - mu) / self.sigma))
            return tot
        w = self.means[1] - self.means[0]
        t = (self.means[1] @ self.means[1] - self.means[0] @ self.means[0]) / 2 + self.sigma ** 2 * math.log(
            self.priors[0] / self.priors[1])
        scale = self.sigma * math.sqrt(w @ w)
        tails = [float(special.ndtr((w @ self.means[y] - t) / scale)) for y in (0, 1)]
        return float(self.priors[1] * tails[1] - self.priors[0] * tails[0])

    def bayes_risk(self) -> float:
        r""":math:`L^* = \int \min(f_0, f_1) = \pi_1 - \int (f_1 - f_0)_+`.

        Returns
        -------
        float
            The Bayes risk.

        References
        ----------
        001 Section 2.2 (L*).

        Examples
        --------
        :math:`\Phi(-1) = 0.158655`:

        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> round(law.bayes_risk(), 6)
        0.158655
        """
        return float(self.priors[1] - self.bayes_positive_mass())

    def excess_risk_cubes(self, lo, hi, bits) -> float:
        r"""Exact :math:`\mathrm{err}(h) - L^*` of h = ``bits[j]`` on disjoint cubes :math:`C_j` and h = 0 elsewhere.

        :math:`\int (f_1 - f_0)_+ + \sum_{j: b_j = 1} (F_0(C_j) - F_1(C_j))`.

        Parameters
        ----------
        lo : array_like, shape (k, d)
            Lower corners of disjoint cubes.
        hi : array_like, shape (k, d)
            Upper corners.
        bits : array_like of {0, 1}, shape (k,)
            The prediction on each cube.

        Returns
        -------
        float
            The excess risk.

        References
        ----------
        001 Section 2.2 (:math:`\mathrm{err}(h) = \int f_1 1[h=0] + f_0 1[h=1]`).

        Examples
        --------
        Predicting 1 exactly on the Bayes region :math:`[1, \infty)` has excess 0; predicting 0 there costs
        :math:`\Phi(1) - 1/2`:

        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> abs(law.excess_risk_cubes([[1.0]], [[np.inf]], [1])) < 1e-12
        True
        >>> round(float(law.excess_risk_cubes([[1.0]], [[np.inf]], [0])), 6)
        0.341345
        """
        b = np.asarray(bits).astype(bool)
        base = self.bayes_positive_mass()
        if not b.any():
            return base
        F = self.class_mass(np.asarray(lo)[b], np.asarray(hi)[b])
        return float(base + (F[:, 0] - F[:, 1]).sum())

    def joint_l1_cubes(self, lo, hi, values) -> float:
        r"""Exact L1 distance :math:`\sum_y \int |f_y - \hat f_y|` of a piecewise-constant joint estimate.

        :math:`\hat f_y` = ``values[j, y]`` on disjoint cubes :math:`C_j` and 0 elsewhere.

        Exact through :meth:`~simulations.laws.densities.ProductDensity.l1_cubes` on the standardized cubes.

        Parameters
        ----------
        lo : array_like, shape (k, d)
            Lower corners of disjoint cubes.
        hi : array_like, shape (k, d)
            Upper corners.
        values : array_like, shape (k, 2)
            The joint estimate per cube and class, >= 0.

        Returns
        -------
        float
            The L1 distance.

        Raises
        ------
        ValueError
            If ``values`` does not have shape (k, 2).

        References
        ----------
        001 Definition 2.10, Algorithm 3, Theorem 1.7 and Remark 1.8.

        Examples
        --------
        The zero estimate is at L1 distance 1 (the total mass):

        >>> law = LocationMixture(kind="normal", means=[[0.0], [2.0]], prior1=0.5)
        >>> round(law.joint_l1_cubes([[0.0]], [[1.0]], [[0.0, 0.0]]), 12)
        1.0
        """
        lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        v = np.asarray(values, dtype=float)
        if v.shape != (lo.shape[0], 2):
            raise ValueError(f"values must have shape ({lo.shape[0]}, 2), got shape {v.shape}")
        total = 0.0
        for y in (0, 1):
            p, mu = self.priors[y], self.means[y]
            a, b = (lo - mu) / self.sigma, (hi - mu) / self.sigma
            inside = p * self._std.l1_cubes(a, b, v[:, y] * self.sigma ** self.d / p).sum() if lo.shape[0] else 0.0
            outside = p * (1.0 - self._std.mass(a, b).sum()) if lo.shape[0] else p
            total += float(inside + max(outside, 0.0))
        return total
