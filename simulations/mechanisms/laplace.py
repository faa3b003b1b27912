"""Laplace mechanisms for regression labels: local label noise and noisy bin means.

Local label DP (one label in, one noisy label out):

* :class:`LaplaceLabels` -- bounded labels ``|Y| <= T``: ``Z = Y + W``, ``W ~ Lap(2T/ε)``
  (003 §5.1 and Theorem 6).
* :class:`ClippedLaplaceLabels` -- heavy-tailed labels: ``Z = Clip(Y, T) + W``, ``W ~ Lap(2T/ε)``
  (003 §6.1 and Theorem 10); clipping is applied before the noise, so the sensitivity is 2T.

Central label DP (a dataset in, one statistic per bin out):

* :class:`NoisyBinMean` -- ``η̂_l = (1/n_l) Σ_{X_i ∈ B_l} Y_i + W_l`` with ``W_l ~ Lap(2T/(n_l ε))``
  (003 eq. (28); eq. (23) is the same with ``T = 1``, see the class docstring). The bin counts
  ``n_l`` depend on the features only, which are public under label DP.

API (all vectorized, first axis = samples or bins)::

    LaplaceLabels(T=1.0, epsilon=1.0).sample(labels, rng)            # (N,) -> (N,)
    ClippedLaplaceLabels(T=3.0, epsilon=1.0).sample(labels, rng)     # (N,) -> (N,)
    m = NoisyBinMean(T=1.0, epsilon=1.0, clip=True)
    sums, counts = m.bin_sums(labels, bin_index, n_bins)             # (N,), (N,) -> (L,), (L,)
    m.release(sums, counts, rng)                                     # (L,), (L,) -> (L,)

Laplace noise is analysed in idealized real arithmetic: the exact checks in
``proofs_checks.mechanisms.laplace`` bound the density ratio of the real-valued Laplace law. The
floating-point sampler used here (numpy's inverse-CDF Laplace) is known to be attackable through the
gaps of the float grid (Mironov 2012); this suite is a research tool, not a release library.

References: 003 §5.1 (Theorem 6), §5.2 eq. (23), §6.1 (Theorem 10), §6.2 eq. (28);
001 Definition 2.2 (the Laplace mechanism).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_positive
from simulations.seeding import check_generator

__all__ = ["ClippedLaplaceLabels", "LaplaceLabels", "NoisyBinMean", "laplace_logcdf", "laplace_logpdf",
           "laplace_logsf"]

_LOG_HALF = np.log(0.5)


def laplace_logpdf(x, scale):
    r"""Log density of :math:`\mathrm{Lap}(b)` (mean 0): :math:`-|x|/b - \ln(2b)`.

    Parameters
    ----------
    x : array_like of float
        Points.
    scale : float or array_like
        b > 0 (not checked; broadcast against ``x``).

    Returns
    -------
    ndarray of float64, broadcast shape
        Log densities.

    References
    ----------
    001 Definition 2.2 (the Laplace mechanism); 003 Theorem 6.

    Examples
    --------
    :math:`f(0) = 1/(2b)` and :math:`f(1) = e^{-1}/2` for b = 1:

    >>> np.round(np.exp(laplace_logpdf([0.0, 1.0], 1.0)), 6).tolist()
    [0.5, 0.18394]
    """
    x = np.asarray(x, dtype=float)
    return -np.abs(x) / scale - np.log(2.0 * scale)


def laplace_logsf(t, scale):
    r""":math:`\ln P(W > t)` for :math:`W \sim \mathrm{Lap}(b)`, accurate in both tails (log space).

    :math:`P(W > t) = \tfrac12 e^{-t/b}` for t >= 0 and :math:`1 - \tfrac12 e^{t/b}` for t < 0.

    Parameters
    ----------
    t : array_like of float
        Thresholds.
    scale : float
        b > 0 (not checked).

    Returns
    -------
    ndarray of float64, shape of ``t``
        Log survival probabilities.

    References
    ----------
    001 Definition 2.2 (Laplace noise), Algorithms 1-2 (its tails decide the releases).

    Examples
    --------
    With b = 1: :math:`P(W > \ln 2) = 1/4`, :math:`P(W > -\ln 2) = 3/4`.

    >>> np.round(np.exp(laplace_logsf([np.log(2), 0.0, -np.log(2)], 1.0)), 12).tolist()
    [0.25, 0.5, 0.75]
    """
    t = np.asarray(t, dtype=float)
    neg = np.minimum(t, 0.0)
    return np.where(t >= 0, _LOG_HALF - np.maximum(t, 0.0) / scale, np.log1p(-0.5 * np.exp(neg / scale)))


def laplace_logcdf(t, scale):
    r""":math:`\ln P(W \le t)` for :math:`W \sim \mathrm{Lap}(b)` (the law is symmetric: ``logsf(-t)``).

    Parameters
    ----------
    t : array_like of float
        Thresholds.
    scale : float
        b > 0 (not checked).

    Returns
    -------
    ndarray of float64, shape of ``t``
        Log distribution function values.

    References
    ----------
    001 Definition 2.2 (Laplace noise).

    Examples
    --------
    >>> np.round(np.exp(laplace_logcdf([np.log(2), -np.log(2)], 1.0)), 12).tolist()
    [0.75, 0.25]
    """
    return laplace_logsf(-np.asarray(t, dtype=float), scale)


def _check_real_array(name, values) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite real numbers, got {name}={values!r}")
    return arr


@dataclass(frozen=True, slots=True)
class LaplaceLabels:
    r"""Local Laplace label noise for labels in [-T, T]: :math:`Z = Y + \mathrm{Lap}(2T/\varepsilon)`.

    The density ratio :math:`f(z-y)/f(z-y') = \exp((|z-y'|-|z-y|)/b)` is at most
    :math:`\exp(|y-y'|/b) \le \exp(2T/b) = e^\varepsilon`, attained at y = T, y' = -T, z >= T: ε-label DP,
    tight (in idealized real arithmetic; floating-point Laplace sampling is known to be attackable).

    Parameters
    ----------
    T : float
        Label bound T > 0, finite (003 Assumption 2 writes :math:`|Y| < T`; the closed interval is
        accepted).
    epsilon : float
        Privacy parameter ε > 0, finite.

    Raises
    ------
    ValueError
        If ``T`` or ``epsilon`` is not finite and > 0.

    References
    ----------
    003 Section 5.1, Theorem 6 (:math:`W \sim \mathrm{Lap}(2T/\varepsilon)`).

    Examples
    --------
    >>> mech = LaplaceLabels(T=1.0, epsilon=1.0)
    >>> mech.scale, mech.privacy_loss()
    (2.0, 1.0)
    """

    T: float
    epsilon: float

    def __post_init__(self):
        check_positive("T", self.T)
        check_positive("epsilon", self.epsilon)

    @property
    def scale(self) -> float:
        """Laplace scale b = 2T/ε (sensitivity 2T of one label in [-T, T]).

        References
        ----------
        003 Theorem 6.

        Examples
        --------
        >>> LaplaceLabels(T=3.0, epsilon=2.0).scale
        3.0
        """
        return 2.0 * self.T / self.epsilon

    @property
    def label_range(self) -> tuple[float, float]:
        """The interval [-T, T] the noise is added to (what the privacy analysis ranges over).

        References
        ----------
        003 Assumption 2 (:math:`|Y| < T`).

        Examples
        --------
        >>> LaplaceLabels(T=3.0, epsilon=2.0).label_range
        (-3.0, 3.0)
        """
        return (-self.T, self.T)

    def _prepare(self, labels) -> np.ndarray:
        y = _check_real_array("labels", labels)
        if y.size and np.max(np.abs(y)) > self.T:
            raise ValueError(f"labels must lie in [-T, T] = [{-self.T}, {self.T}], got max |y| = {np.max(np.abs(y))}")
        return y

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        r"""Privatize labels at once: :math:`Z = Y + W`, :math:`W \sim \mathrm{Lap}(2T/\varepsilon)` i.i.d.

        Parameters
        ----------
        labels : array_like of float, shape (N,) or any shape
            Finite labels; for :class:`LaplaceLabels` within [-T, T] (:class:`ClippedLaplaceLabels` clips).
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape of ``labels``
            Noisy labels.

        Raises
        ------
        ValueError
            If a label is not finite or (unclipped) lies outside [-T, T], or ``rng`` is not a Generator,
            SeedSequence or int seed.

        References
        ----------
        003 Theorem 6 (bounded labels) and Theorem 10 (clipped labels).

        Examples
        --------
        >>> z = LaplaceLabels(1.0, 1.0).sample([0.5, -1.0, 1.0], np.random.default_rng(0))
        >>> z.shape, z.dtype
        ((3,), dtype('float64'))
        """
        rng = check_generator(rng)
        y = self._prepare(labels)
        return y + rng.laplace(0.0, self.scale, size=y.shape)

    def log_density(self, z, y):
        r"""The exact channel of a continuous output: :math:`\ln f_Z(z \mid Y = y)`, broadcasting z against y.

        Parameters
        ----------
        z : array_like of float
            Noisy labels.
        y : array_like of float
            True labels (clipped to [-T, T] by :class:`ClippedLaplaceLabels`).

        Returns
        -------
        ndarray of float64, broadcast shape
            Log densities.

        References
        ----------
        003 Theorem 6.

        Examples
        --------
        T = 1, ε = 1 (b = 2): the log-ratio of y = 1 against y' = -1 at z = 2 is (3 - 1)/2 = 1 = ε.

        >>> m = LaplaceLabels(1.0, 1.0)
        >>> round(float(m.log_density(2.0, 1.0) - m.log_density(2.0, -1.0)), 12)
        1.0
        """
        return laplace_logpdf(np.asarray(z, dtype=float) - np.asarray(y, dtype=float), self.scale)

    def privacy_loss(self) -> float:
        r"""Exact :math:`\sup_{y, y', z} \ln f(z-y)/f(z-y')` = (diameter of ``label_range``)/b = 2T/b = ε.

        :math:`(|z-y'| - |z-y|)/b \le |y-y'|/b` by the triangle inequality, with equality for z beyond both
        labels, so the supremum is attained at y = T, y' = -T (for the clipped mechanism, at any labels beyond
        ±T). Idealized real arithmetic.

        Returns
        -------
        float
            The loss, equal to ``epsilon``.

        References
        ----------
        003 Theorems 6 and 10.

        Examples
        --------
        >>> LaplaceLabels(T=3.0, epsilon=0.5).privacy_loss()
        0.5
        """
        lo, hi = self.label_range
        return (hi - lo) / self.scale


@dataclass(frozen=True, slots=True)
class ClippedLaplaceLabels(LaplaceLabels):
    r"""Clip to [-T, T], then add :math:`\mathrm{Lap}(2T/\varepsilon)`: ε-local label DP for unbounded labels.

    Any finite real label is accepted; :math:`\mathrm{Clip}(y, T) = (y \wedge T) \vee (-T)` is applied
    before the noise, so the analysis of :class:`LaplaceLabels` applies to the clipped value (sensitivity
    2T, tight).

    Parameters
    ----------
    T : float
        Clipping level T > 0, finite.
    epsilon : float
        Privacy parameter ε > 0, finite.

    Raises
    ------
    ValueError
        If ``T`` or ``epsilon`` is not finite and > 0.

    References
    ----------
    003 Section 6.1, Theorem 10; clipping bias bounded by 003 Lemma 2 (eq. (167)).

    Examples
    --------
    A label of 10 is treated as T = 1:

    >>> m = ClippedLaplaceLabels(T=1.0, epsilon=1.0)
    >>> bool(m.log_density(5.0, 10.0) == LaplaceLabels(1.0, 1.0).log_density(5.0, 1.0)), m.privacy_loss()
    (True, 1.0)
    """

    def _prepare(self, labels) -> np.ndarray:
        return np.clip(_check_real_array("labels", labels), -self.T, self.T)

    def log_density(self, z, y):
        r""":math:`\ln f_Z(z \mid Y = y)` of the clipped mechanism: the Laplace density around Clip(y, T).

        Parameters
        ----------
        z : array_like of float
            Noisy labels.
        y : array_like of float
            True labels (any real; clipped to [-T, T]).

        Returns
        -------
        ndarray of float64, broadcast shape
            Log densities.

        References
        ----------
        003 Theorem 10.

        Examples
        --------
        T = 1, ε = 1 (b = 2), y = -7 clipped to -1: :math:`\ln f(0 \mid -7) = -1/2 - \ln 4`.

        >>> round(float(ClippedLaplaceLabels(1.0, 1.0).log_density(0.0, -7.0) + 0.5 + np.log(4)), 12)
        0.0
        """
        return LaplaceLabels.log_density(self, z, np.clip(np.asarray(y, dtype=float), -self.T, self.T))


@dataclass(frozen=True, slots=True)
class NoisyBinMean:
    r"""Central label DP noisy bin means (003 eq. (28)).

    :math:`\hat\eta_l` = mean of the (clipped) labels in :math:`B_l` + :math:`\mathrm{Lap}(2T/(n_l\varepsilon))`.

    One label change moves the sum of bin l by at most 2T (labels, or clipped labels, lie in [-T, T]),
    hence its mean by :math:`2T/n_l`; the count :math:`n_l` depends only on the public features. Each label
    lies in exactly one bin, so the release is ε-label DP, tight. Empty bins release 0.

    Parameters
    ----------
    T : float
        Label bound (003 Assumption 2) or clipping level (003 eq. (28)), > 0 and finite.
    epsilon : float
        Privacy parameter ε > 0, finite.
    clip : bool, default False
        ``True``: :meth:`bin_sums` clips labels to [-T, T] (003 eq. (28), heavy tails);
        ``False``: labels must already lie in [-T, T] (003 eq. (23)).

    Raises
    ------
    ValueError
        If ``T`` or ``epsilon`` is not finite and > 0, or ``clip`` is not a bool.

    Notes
    -----
    003 eq. (23) prints :math:`W_l \sim \mathrm{Lap}(2/(n_l \varepsilon))`, which is the scale above only for
    T = 1 (its proof, eq. (150), also bounds Var[Y] <= 1). For labels in [-T, T] that printed scale has
    privacy loss Tε; this class uses the derived :math:`2T/(n_l \varepsilon)`, as 003 eq. (28) does.

    References
    ----------
    003 Section 5.2 eq. (23) and Theorem 8; Section 6.2 eq. (28) and Theorem 12.

    Examples
    --------
    >>> m = NoisyBinMean(T=1.0, epsilon=1.0, clip=True)
    >>> m.scale([1, 2, 4]).tolist(), m.privacy_loss([1, 2, 4])
    ([2.0, 1.0, 0.5], 1.0)
    """

    T: float
    epsilon: float
    clip: bool = False

    def __post_init__(self):
        check_positive("T", self.T)
        check_positive("epsilon", self.epsilon)
        if not isinstance(self.clip, (bool, np.bool_)):
            raise ValueError(f"clip must be a bool, got clip={self.clip!r}")

    @property
    def sensitivity(self) -> float:
        """Largest change of a bin *sum* when one label changes: 2T.

        References
        ----------
        003 eq. (23), (28).

        Examples
        --------
        >>> NoisyBinMean(T=1.5, epsilon=1.0).sensitivity
        3.0
        """
        return 2.0 * self.T

    def scale(self, counts) -> np.ndarray:
        r"""Laplace scale per bin, :math:`2T/(n_l \varepsilon)` (inf where :math:`n_l = 0`).

        Parameters
        ----------
        counts : array_like
            Bin sizes :math:`n_l`.

        Returns
        -------
        ndarray of float64, shape of ``counts``
            Scales.

        References
        ----------
        003 eq. (28) (and eq. (23) with T = 1).

        Examples
        --------
        >>> NoisyBinMean(T=1.0, epsilon=2.0).scale([0, 1, 4]).tolist()
        [inf, 1.0, 0.25]
        """
        n = np.asarray(counts, dtype=float)
        with np.errstate(divide="ignore"):
            return self.sensitivity / (n * self.epsilon)

    def bin_privacy_losses(self, counts) -> np.ndarray:
        r"""Exact loss of each bin of public size :math:`n_l \ge 1`: :math:`(2T/n_l)/b_l = \varepsilon`.

        One label in [-T, T] (clipped or checked) moves its bin's mean by at most :math:`2T/n_l` and no other
        bin, and :math:`\mathrm{Lap}(b_l)`'s log density ratio under a shift u is at most :math:`u/b_l`,
        attained in the tails.

        Parameters
        ----------
        counts : array_like
            Bin sizes, each >= 1.

        Returns
        -------
        ndarray of float64, shape of ``counts``
            Losses in nats.

        Raises
        ------
        ValueError
            If a count is below 1.

        References
        ----------
        003 eq. (23), (28); Theorems 8 and 12.

        Examples
        --------
        >>> NoisyBinMean(T=2.0, epsilon=0.5).bin_privacy_losses([1, 4]).tolist()
        [0.5, 0.5]
        """
        n = np.asarray(counts, dtype=float)
        if np.any(n < 1):
            raise ValueError(f"counts must be >= 1 (empty bins release nothing), got counts={counts!r}")
        return self.sensitivity / n / self.scale(n)

    def privacy_loss(self, counts) -> float:
        """Exact label-DP loss over bins of the given public sizes: the max of :meth:`bin_privacy_losses`.

        Parameters
        ----------
        counts : array_like
            Bin sizes, each >= 1.

        Returns
        -------
        float
            The loss, equal to ``epsilon``.

        Raises
        ------
        ValueError
            If a count is below 1.

        References
        ----------
        003 Theorems 8 and 12.

        Examples
        --------
        >>> NoisyBinMean(T=1.0, epsilon=0.5).privacy_loss([2, 4])
        0.5
        """
        return float(np.max(self.bin_privacy_losses(counts)))

    def bin_sums(self, labels, bin_index, n_bins: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Sums and counts per bin from labels and bin indices.

        Labels are clipped to [-T, T] when ``clip`` is set, otherwise checked to lie there.

        Parameters
        ----------
        labels : array_like of float, shape (N,)
            Finite labels.
        bin_index : array_like of int, shape (N,)
            The bin of each label, in ``[0, n_bins)``.
        n_bins : int
            L, the number of bins.

        Returns
        -------
        sums : ndarray of float64, shape (n_bins,)
            Sum of the (clipped) labels per bin.
        counts : ndarray of int64, shape (n_bins,)
            Number of labels per bin.

        Raises
        ------
        ValueError
            If shapes differ or are not 1-D, a label is not finite (or, without ``clip``, outside [-T, T]),
            or a bin index is outside ``[0, n_bins)``.

        References
        ----------
        003 eq. (23) and (28) (the bin means :math:`\frac{1}{n_l}\sum_{X_i \in B_l} Y_i`).

        Examples
        --------
        >>> sums, counts = NoisyBinMean(T=1.0, epsilon=1.0, clip=True).bin_sums([0.5, 3.0, -1.0], [0, 1, 1], 3)
        >>> sums.tolist(), counts.tolist()
        ([0.5, 0.0, 0.0], [1, 2, 0])
        """
        y = _check_real_array("labels", labels)
        idx = np.asarray(bin_index)
        if y.ndim != 1 or idx.shape != y.shape:
            raise ValueError(f"labels and bin_index must be 1-D of equal length, got {y.shape} and {idx.shape}")
        if idx.size and (not np.issubdtype(idx.dtype, np.integer) or idx.min() < 0 or idx.max() >= n_bins):
            raise ValueError(f"bin_index must be integers in [0, {n_bins}), got dtype {idx.dtype}")
        if self.clip:
            y = np.clip(y, -self.T, self.T)
        elif y.size and np.max(np.abs(y)) > self.T:
            raise ValueError(f"labels must lie in [-T, T] = [{-self.T}, {self.T}] (or set clip=True)")
        return np.bincount(idx, weights=y, minlength=n_bins), np.bincount(idx, minlength=n_bins)

    def release(self, sums, counts, rng: np.random.Generator) -> np.ndarray:
        r"""Noisy bin means from bin sums and counts; 0 for empty bins.

        Parameters
        ----------
        sums : array_like of float, shape (L,)
            Sums of labels in [-T, T] per bin (:math:`|\text{sum}| \le T n`), e.g. from :meth:`bin_sums`.
        counts : array_like of int, shape (L,)
            Bin sizes, non-negative.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (L,)
            :math:`\hat\eta_l`.

        Raises
        ------
        ValueError
            If ``sums`` is not finite, ``counts`` is not non-negative integers of the same shape, a sum
            exceeds T times its count, or ``rng`` is not a Generator, SeedSequence or int seed.

        References
        ----------
        003 eq. (23) and (28).

        Examples
        --------
        >>> out = NoisyBinMean(T=1.0, epsilon=1.0).release([0.5, 0.0], [1, 0], np.random.default_rng(0))
        >>> out.shape, float(out[1])
        ((2,), 0.0)
        """
        rng = check_generator(rng)
        s = _check_real_array("sums", sums)
        n = np.asarray(counts)
        if n.shape != s.shape or (n.size and (not np.issubdtype(n.dtype, np.integer) or n.min() < 0)):
            raise ValueError(f"counts must be non-negative integers of the shape of sums {s.shape}")
        if np.any(np.abs(s) > self.T * n * (1 + 1e-12) + 1e-12):
            raise ValueError("each |sum| must be at most T * count (labels in [-T, T])")
        live = n > 0
        out = np.zeros(s.shape)
        out[live] = s[live] / n[live] + rng.laplace(0.0, 1.0, size=int(live.sum())) * self.scale(n[live])
        return out
