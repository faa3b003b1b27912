"""Fixed smooth laws with finitely many label values, for count-level rate experiments.

Both laws have uniform features on ``[0, 1]^d``, a regression function / class probability known in
closed form, exact cell integrals on the regular grid (so the excess risk of a histogram rule is
exact) and labels with finitely many values (so the table of (cell, label) counts of N points is
``Multinomial(N, masses)``, :mod:`simulations.estimators.count_level`). Neither is tied to a
bandwidth: unlike the 003 lower-bound constructions they are the same law at every N.

* :class:`SineClassification` — two classes, ``η_1(x) = (1 + A sin(2πν x_1 + φ))/2``. The margin
  ``|η_1 − η_0| = A |sin(2πν x_1 + φ)|`` vanishes linearly at the ``≈ 2ν`` zeros of the sine, so 003
  Assumption 1 holds with ``β = 1`` (``L = πνA``) and ``γ = 1``
  (``P(0 < η* − η_s < t) <= C_T t``, :meth:`SineClassification.margin_probability` is exact). The
  zeros sit at irrational positions (``ν``, ``φ`` below), so no dyadic grid puts a cell edge on
  one, and the boundary cells' bias averages over several positions inside their cells.
* :class:`SignLabelRegression` — labels ``Y ∈ {−1, +1}`` with ``P(Y = 1 | x) = (1 + η(x))/2`` for a
  base regression function ``η`` with ``sup|η| <= 1`` (bounded noise, 003 Assumption 2 with
  ``T = 1``): ``E[Y | x] = η(x)``; the base is e.g. the Weierstrass profile of
  :class:`~simulations.laws.benchmarks.AdditiveRegression`, β-Hölder and nowhere smoother at the
  scales of the experiments, so histograms and kNN both meet the ``β`` of Table 1.

References: 003 Assumptions 1-2, Proposition 2 (eqs. (8)-(9)), Table 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive, check_real
from simulations.laws.base import ClassificationLaw, RegressionLaw, cell_volume, check_points

__all__ = ["SineClassification", "SignLabelRegression", "abs_sine_antiderivative"]

#: defaults of :class:`SineClassification`: frequency 1 + 3·golden (≈ 2.85 periods, ≈ 5.7 zeros in [0, 1])
#: and phase 1 (radian): irrational zero positions
SINE_FREQUENCY = 1.0 + 3.0 * (math.sqrt(5.0) - 1.0) / 2.0
SINE_PHASE = 1.0


def abs_sine_antiderivative(u) -> np.ndarray:
    """``F(u) = ∫_0^u |sin s| ds`` for real ``u`` (any shape): ``2k + 1 − cos(u − kπ)``, ``k = ⌊u/π⌋``, odd in u.

    Parameters
    ----------
    u : array_like of float.

    Returns
    -------
    ndarray of the shape of ``u``.

    Examples
    --------
    >>> float(abs_sine_antiderivative(np.pi)), float(abs_sine_antiderivative(-2.5 * np.pi))
    (2.0, -5.0)
    """
    u = np.asarray(u, dtype=float)
    a = np.abs(u)
    k = np.floor(a / np.pi)
    return np.sign(u) * (2.0 * k + 1.0 - np.cos(a - k * np.pi))


@dataclass(frozen=True)
class SineClassification(ClassificationLaw):
    """Two classes with ``η_1(x) = (1 + A sin(2πν x_1 + φ))/2``, ``η_0 = 1 − η_1`` (x uniform on ``[0, 1]^d``).

    Parameters
    ----------
    d : int >= 1.
    amplitude : float in (0, 1], ``A``.
    frequency : float > 0, ``ν`` (periods over ``x_1 ∈ [0, 1]``).
    phase : float, ``φ`` (radians).

    Notes
    -----
    003 Assumption 1: (a) every η_j is Lipschitz with constant ``πνA`` (β = 1; a histogram rule
    cannot use more smoothness than that); (b) ``P(0 < A|sin(2πνX_1 + φ)| < t)`` is at most
    ``(number of zeros) · 2 arcsin(t/A)/(2πν) <= C_T t``, i.e. γ = 1; (c)-(d) uniform features.

    References
    ----------
    003 Assumption 1, eqs. (4)-(6), (8).

    Examples
    --------
    >>> law = SineClassification(d=1)
    >>> bool(np.allclose(law.cell_class_mass(4).sum(axis=1), 0.25))
    True
    >>> round(law.bayes_risk(), 6) == round(1.0 - float(law.cell_bayes_mass(64).sum()), 6)
    True
    """

    d: int
    amplitude: float = 0.8
    frequency: float = SINE_FREQUENCY
    phase: float = SINE_PHASE

    def __post_init__(self):
        check_int("d", self.d, low=1)
        check_real("amplitude", self.amplitude, low=0.0, high=1.0, low_open=True)
        check_positive("frequency", self.frequency)
        check_real("phase", self.phase)

    @property
    def num_classes(self) -> int:
        """Number of classes, 2.

        References
        ----------
        003 Section 3.2 (K classes).

        Examples
        --------
        >>> SineClassification(d=1).num_classes
        2
        """
        return 2

    @property
    def holder_constant(self) -> float:
        r"""Assumption 1(a) with β = 1: :math:`|\eta_j(x) - \eta_j(x')| \le \pi\nu A \|x - x'\|`.

        References
        ----------
        003 Assumption 1(a).

        Examples
        --------
        ν = 1, A = 1/2: π/2.

        >>> law = SineClassification(d=1, amplitude=0.5, frequency=1.0, phase=0.0)
        >>> round(law.holder_constant, 6)
        1.570796
        """
        return math.pi * self.frequency * self.amplitude

    def _u(self, t):
        return 2.0 * math.pi * self.frequency * np.asarray(t, dtype=float) + self.phase

    def eta(self, X) -> np.ndarray:
        r"""Class probabilities :math:`(\eta_0, \eta_1) = ((1 - A\sin u)/2, (1 + A\sin u)/2)`.

        Here :math:`u = 2\pi\nu x_1 + \varphi`.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n, 2)
            Rows sum to 1.

        Raises
        ------
        ValueError
            If ``X`` is not (n, d) inside the unit cube.

        References
        ----------
        003 Section 3.2, Assumption 1.

        Examples
        --------
        At :math:`x_1 = 1/4`, sin u = 1:

        >>> law = SineClassification(d=1, amplitude=0.5, frequency=1.0, phase=0.0)
        >>> law.eta([[0.25]]).tolist()
        [[0.25, 0.75]]
        """
        X = check_points(X, self.d)
        s = self.amplitude * np.sin(self._u(X[:, 0]))
        return np.stack([(1.0 - s) / 2.0, (1.0 + s) / 2.0], axis=1)

    def _slab(self, bins):
        bins = check_int("bins", bins, low=1)
        u = self._u(np.arange(bins + 1) / bins)
        w = 2.0 * math.pi * self.frequency
        other = float(bins) ** (-(self.d - 1))
        int_sin = -np.diff(np.cos(u)) / w * other  # ∫ sin over each cell
        int_abs = np.diff(abs_sine_antiderivative(u)) / w * other  # ∫ |sin| over each cell
        return int_sin, int_abs, cell_volume(bins, self.d)

    def cell_class_mass(self, bins: int) -> np.ndarray:
        r"""Exact :math:`\int_{\text{cell}} \eta_j` for every grid cell and class.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        ndarray of float64, shape (bins^d, 2)
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
        On [0, 1/2]: :math:`\int \sin 2\pi x = 1/\pi`, masses :math:`(1/2 \mp 1/(2\pi))/2`.

        >>> law = SineClassification(d=1, amplitude=0.5, frequency=1.0, phase=0.0)
        >>> np.round(law.cell_class_mass(2), 6).tolist()
        [[0.170423, 0.329577], [0.329577, 0.170423]]
        """
        int_sin, _, vol = self._slab(bins)
        A = self.amplitude
        slab = np.stack([(vol - A * int_sin) / 2.0, (vol + A * int_sin) / 2.0], axis=1)
        return np.repeat(slab, bins ** (self.d - 1), axis=0)  # C order: x_1 is the slowest axis

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
        >>> law = SineClassification(d=1, amplitude=0.5, frequency=1.0, phase=0.0)
        >>> np.round(law.cell_bayes_mass(2), 6).tolist()
        [0.329577, 0.329577]
        """
        _, int_abs, vol = self._slab(bins)
        return np.repeat((vol + self.amplitude * int_abs) / 2.0, bins ** (self.d - 1))

    def bayes_risk(self) -> float:
        r"""Exact Bayes risk :math:`\tfrac12(1 - A \int_0^1 |\sin(2\pi\nu x + \varphi)|\,dx)`.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (6)).

        References
        ----------
        003 eq. (6).

        Examples
        --------
        :math:`\int_0^1 |\sin 2\pi x| = 2/\pi`: :math:`R^* = 1/2 - 1/(2\pi) = 0.340845` for A = 1/2.

        >>> law = SineClassification(d=1, amplitude=0.5, frequency=1.0, phase=0.0)
        >>> round(law.bayes_risk(), 6)
        0.340845
        """
        u0, u1 = self._u(0.0), self._u(1.0)
        int_abs = float(abs_sine_antiderivative(u1) - abs_sine_antiderivative(u0)) / (2.0 * math.pi * self.frequency)
        return 0.5 * (1.0 - self.amplitude * int_abs)

    def margin_probability(self, t) -> np.ndarray:
        r"""Exact :math:`P(0 < \eta^*(X) - \eta_s(X) < t)` of 003 Assumption 1(b).

        It equals :math:`P(A|\sin(2\pi\nu X_1 + \varphi)| < t)` (the zeros have measure 0).

        :math:`\{|\sin u| < s\}` is the union over k of :math:`(k\pi - \arcsin s, k\pi + \arcsin s)`; its measure
        over :math:`u \in [\varphi, \varphi + 2\pi\nu]` divided by :math:`2\pi\nu`.

        Parameters
        ----------
        t : array_like of float
            Margins.

        Returns
        -------
        ndarray of float64, shape of ``np.atleast_1d(t)``
            Probabilities (0 for t <= 0).

        References
        ----------
        003 Assumption 1(b).

        Examples
        --------
        A = 1/2, t = 1/4: :math:`|\sin u| < 1/2` on 4 · (π/6) of each period 2π, a third.

        >>> law = SineClassification(d=1, amplitude=0.5, frequency=1.0, phase=0.0)
        >>> np.round(law.margin_probability([0.25, 1.0]), 12).tolist()
        [0.333333333333, 1.0]
        """
        t = np.atleast_1d(np.asarray(t, dtype=float))
        s = np.clip(t / self.amplitude, 0.0, 1.0)
        half = np.arcsin(s)
        u0, u1 = self._u(0.0), self._u(1.0)
        ks = np.arange(math.floor(u0 / math.pi) - 1, math.ceil(u1 / math.pi) + 2)
        lo = np.maximum(ks[:, None] * math.pi - half[None, :], u0)
        hi = np.minimum(ks[:, None] * math.pi + half[None, :], u1)
        total = np.clip(hi - lo, 0.0, None).sum(axis=0) / (u1 - u0)
        return np.where(t > 0, np.minimum(total, 1.0), 0.0)


@dataclass(frozen=True)
class SignLabelRegression(RegressionLaw):
    """``Y ∈ {−1, +1}`` with ``P(Y = 1 | x) = (1 + η(x))/2``, η the regression function of ``base``.

    Parameters
    ----------
    base : a regression law providing ``d``, ``eta(X)``, ``cell_moments(bins)`` and ``sup_abs_eta()``
        (e.g. :class:`~simulations.laws.benchmarks.AdditiveRegression`; its own noise is not used).
        ``sup_abs_eta() <= 1`` is required (probabilities in [0, 1]).

    Notes
    -----
    ``E[Y | x] = η(x)`` and ``|Y| = 1``: 003 Assumption 2 with ``T = 1``; Bayes risk
    ``E[1 − η(X)²]``. The (cell, label) masses are ``|B_l| (1 ∓ mean_l(η))/2``, exact because the
    label probability is affine in η.

    References
    ----------
    003 Assumption 2, eqs. (7), (9).

    Examples
    --------
    >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
    >>> law = SignLabelRegression(AdditiveRegression(d=1, beta=0.5, noise=UniformNoise(0.0), amplitude=0.25))
    >>> masses, values = law.cell_label_masses(8)
    >>> masses.shape, values.tolist(), bool(abs(masses.sum() - 1.0) < 1e-12)
    ((8, 2), [-1.0, 1.0], True)
    """

    base: object

    def __post_init__(self):
        for attr in ("d", "eta", "cell_moments", "sup_abs_eta"):
            if not hasattr(self.base, attr):
                raise ValueError(f"base must provide d, eta, cell_moments and sup_abs_eta, got base={self.base!r}")
        if self.base.sup_abs_eta() > 1.0:
            raise ValueError(f"base must have sup|eta| <= 1 for labels in {{-1, 1}}, got {self.base.sup_abs_eta()!r}")

    @property
    def d(self) -> int:
        """Dimension d of the features (the base law's).

        References
        ----------
        003 Section 3.2.

        Examples
        --------
        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> base = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law = SignLabelRegression(base)
        >>> law.d
        1
        """
        return self.base.d

    def eta(self, X) -> np.ndarray:
        r"""The regression function :math:`\eta(x) = E[Y \mid x]` of the base law.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in :math:`[0, 1]^d`.

        Returns
        -------
        ndarray of float64, shape (n,)
            η at each point.

        References
        ----------
        003 Section 3.2.

        Examples
        --------
        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> base = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law = SignLabelRegression(base)
        >>> law.eta([[0.0], [0.25]]).tolist()
        [0.5, 0.25]
        """
        return self.base.eta(X)

    def sample_labels(self, eta_x, rng) -> np.ndarray:
        r"""Labels ±1 with :math:`P(Y = 1) = (1 + \eta)/2`.

        Parameters
        ----------
        eta_x : array_like of float, shape (n,)
            :math:`\eta(X_i)` in [-1, 1].
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (n,)
            Labels in {-1, +1}.

        References
        ----------
        003 Assumption 2 (bounded labels, T = 1).

        Examples
        --------
        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> base = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law = SignLabelRegression(base)
        >>> law.sample_labels([1.0, -1.0], np.random.default_rng(0)).tolist()
        [1.0, -1.0]
        """
        u = rng.random(np.size(eta_x))
        return np.where(u < (1.0 + np.asarray(eta_x, dtype=float)) / 2.0, 1.0, -1.0)

    def cell_moments(self, bins: int):
        """Per grid cell: mean and within-cell variance of η (the base law's).

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

        References
        ----------
        003 eq. (9) with f = 1.

        Examples
        --------
        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> base = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law = SignLabelRegression(base)
        >>> law.cell_moments(2)[0].tolist()
        [0.25, 0.25]
        """
        return self.base.cell_moments(bins)

    def cell_label_masses(self, bins: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Exact joint law of (grid cell, label) for the labels -1 and +1.

        :math:`P(X \in B_l, Y = \mp 1) = |B_l|(1 \mp \text{mean}_l(\eta))/2`.

        Parameters
        ----------
        bins : int
            Cells per axis, >= 1.

        Returns
        -------
        masses : ndarray of float64, shape (bins^d, 2)
            Sums to 1.
        values : ndarray of float64, shape (2,)
            ``[-1., 1.]``.

        References
        ----------
        003 Assumption 2, eq. (9).

        Examples
        --------
        Cell mean 1/4 on each half: :math:`\tfrac12(1 \mp \tfrac14)/2`.

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> base = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law = SignLabelRegression(base)
        >>> masses, values = law.cell_label_masses(2)
        >>> masses.tolist(), values.tolist()
        ([[0.1875, 0.3125], [0.1875, 0.3125]], [-1.0, 1.0])
        """
        mean, _ = self.cell_moments(bins)
        vol = cell_volume(bins, self.d)
        return np.stack([vol * (1.0 - mean) / 2.0, vol * (1.0 + mean) / 2.0], axis=1), np.array([-1.0, 1.0])

    def bayes_risk(self) -> float:
        r"""Exact Bayes risk :math:`E[1 - \eta(X)^2]`.

        Returns
        -------
        float
            :math:`R^*` (003 eq. (7)).

        References
        ----------
        003 eq. (7).

        Examples
        --------
        :math:`\eta = |x - 1/2|`: :math:`1 - \int_0^1 (x - 1/2)^2 dx = 1 - 1/12`.

        >>> from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
        >>> base = AdditiveRegression(d=1, beta=1.0, noise=UniformNoise(0.0), profile="kink", amplitude=1.0, theta=0.5)
        >>> law = SignLabelRegression(base)
        >>> round(law.bayes_risk() * 12, 9)
        11.0
        """
        mean, var = self.cell_moments(1)
        return float(1.0 - (mean[0] ** 2 + var[0]))
