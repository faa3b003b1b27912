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
    """log density of ``Lap(scale)`` (mean 0): ``-|x|/b - ln(2b)``."""
    x = np.asarray(x, dtype=float)
    return -np.abs(x) / scale - np.log(2.0 * scale)


def laplace_logsf(t, scale):
    """log P(W > t) for ``W ~ Lap(scale)``, accurate in both tails (log space).

    ``P(W > t) = ½ e^{-t/b}`` for ``t >= 0`` and ``1 - ½ e^{t/b}`` for ``t < 0``.
    """
    t = np.asarray(t, dtype=float)
    neg = np.minimum(t, 0.0)
    return np.where(t >= 0, _LOG_HALF - np.maximum(t, 0.0) / scale, np.log1p(-0.5 * np.exp(neg / scale)))


def laplace_logcdf(t, scale):
    """log P(W <= t) for ``W ~ Lap(scale)`` (the Laplace law is symmetric: ``logsf(-t)``)."""
    return laplace_logsf(-np.asarray(t, dtype=float), scale)


def _check_real_array(name, values) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite real numbers, got {name}={values!r}")
    return arr


@dataclass(frozen=True, slots=True)
class LaplaceLabels:
    """Local Laplace label noise for labels in ``[-T, T]``: ``Z = Y + Lap(2T/ε)``.

    Parameters
    ----------
    T : float > 0
        Label bound (003 Assumption 2 writes ``|Y| < T``; the closed interval is accepted).
    epsilon : float > 0
        Privacy parameter. The density ratio ``f(z-y)/f(z-y') = exp((|z-y'|-|z-y|)/b)`` is at most
        ``exp(|y-y'|/b) <= exp(2T/b) = e^ε``, attained at ``y = T, y' = -T, z >= T``: ε-label DP, tight
        (in idealized real arithmetic; see the module docstring).

    References
    ----------
    003 §5.1, Theorem 6 (``W ~ Lap(2T/ε)``).
    """

    T: float
    epsilon: float

    def __post_init__(self):
        check_positive("T", self.T)
        check_positive("epsilon", self.epsilon)

    @property
    def scale(self) -> float:
        """Laplace scale b = 2T/ε (sensitivity 2T of one label in [-T, T])."""
        return 2.0 * self.T / self.epsilon

    @property
    def label_range(self) -> tuple[float, float]:
        """The interval the noise is added to (what the privacy analysis ranges over)."""
        return (-self.T, self.T)

    def _prepare(self, labels) -> np.ndarray:
        y = _check_real_array("labels", labels)
        if y.size and np.max(np.abs(y)) > self.T:
            raise ValueError(f"labels must lie in [-T, T] = [{-self.T}, {self.T}], got max |y| = {np.max(np.abs(y))}")
        return y

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Privatize labels of shape (N,) (or any shape) at once; returns floats of the same shape."""
        rng = check_generator(rng)
        y = self._prepare(labels)
        return y + rng.laplace(0.0, self.scale, size=y.shape)

    def log_density(self, z, y):
        """log f_Z(z | Y = y), broadcasting ``z`` against ``y`` (the exact channel of a continuous output)."""
        return laplace_logpdf(np.asarray(z, dtype=float) - np.asarray(y, dtype=float), self.scale)

    def privacy_loss(self) -> float:
        """Exact sup over (y, y', z) of ln f(z-y)/f(z-y') = (diameter of ``label_range``)/b = 2T/b = ε.

        ``(|z-y'| - |z-y|)/b <= |y-y'|/b`` by the triangle inequality, with equality for z beyond both
        labels, so the supremum is attained at y = T, y' = -T (for the clipped mechanism, at any
        labels beyond ±T). Idealized real arithmetic (003 Theorems 6, 10).
        """
        lo, hi = self.label_range
        return (hi - lo) / self.scale


@dataclass(frozen=True, slots=True)
class ClippedLaplaceLabels(LaplaceLabels):
    """Clip to ``[-T, T]``, then add ``Lap(2T/ε)``: ε-local label DP for unbounded labels.

    Any finite real label is accepted; ``Clip(y, T) = (y ∧ T) ∨ (-T)`` is applied before the noise,
    so the analysis of :class:`LaplaceLabels` applies to the clipped value (sensitivity 2T, tight).

    References
    ----------
    003 §6.1, Theorem 10; clipping bias bounded by 003 Lemma 2 (eq. (167)).
    """

    def _prepare(self, labels) -> np.ndarray:
        return np.clip(_check_real_array("labels", labels), -self.T, self.T)

    def log_density(self, z, y):
        return LaplaceLabels.log_density(self, z, np.clip(np.asarray(y, dtype=float), -self.T, self.T))


@dataclass(frozen=True, slots=True)
class NoisyBinMean:
    """Central label DP noisy bin means: ``η̂_l = mean of (clipped) labels in B_l + Lap(2T/(n_l ε))``.

    One label change moves the sum of bin ``l`` by at most ``2T`` (labels, or clipped labels, lie in
    ``[-T, T]``), hence its mean by ``2T/n_l``; the count ``n_l`` depends only on the public features.
    Each label lies in exactly one bin, so the other bins' outputs are unchanged and the release is
    ε-label DP, tight (``sup ln`` density ratio = ``(2T/n_l)/b_l = ε``). Empty bins release 0.

    Parameters
    ----------
    T : float > 0
        Label bound (003 Assumption 2) or clipping level (003 eq. (28)).
    epsilon : float > 0
    clip : bool
        ``True``: :meth:`bin_sums` clips labels to ``[-T, T]`` (003 eq. (28), heavy tails);
        ``False``: labels must already lie in ``[-T, T]`` (003 eq. (23)).

    Notes
    -----
    003 eq. (23) prints ``W_l ~ Lap(2/(n_l ε))``, which is the scale above only for ``T = 1`` (its proof,
    eq. (150), also bounds ``Var[Y] <= 1``). For labels in ``[-T, T]`` that printed scale has privacy
    loss ``T ε``; this class uses the derived ``2T/(n_l ε)``, as 003 eq. (28) does.

    References
    ----------
    003 §5.2 eq. (23) and Theorem 8; §6.2 eq. (28) and Theorem 12.
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
        """Largest change of a bin *sum* when one label changes: 2T."""
        return 2.0 * self.T

    def scale(self, counts) -> np.ndarray:
        """Laplace scale per bin, ``2T/(n_l ε)`` (shape of ``counts``; inf where ``n_l = 0``)."""
        n = np.asarray(counts, dtype=float)
        with np.errstate(divide="ignore"):
            return self.sensitivity / (n * self.epsilon)

    def bin_privacy_losses(self, counts) -> np.ndarray:
        """Exact loss of each bin of public size n_l >= 1: (2T/n_l)/b_l = ε (003 eq. (23), (28)).

        One label in [-T, T] (clipped or checked) moves its bin's mean by at most 2T/n_l and no other
        bin, and Lap(b_l)'s log density ratio under a shift u is at most u/b_l, attained in the tails.
        """
        n = np.asarray(counts, dtype=float)
        if np.any(n < 1):
            raise ValueError(f"counts must be >= 1 (empty bins release nothing), got counts={counts!r}")
        return self.sensitivity / n / self.scale(n)

    def privacy_loss(self, counts) -> float:
        """Exact label-DP loss over bins of the given public sizes: the max of :meth:`bin_privacy_losses`."""
        return float(np.max(self.bin_privacy_losses(counts)))

    def bin_sums(self, labels, bin_index, n_bins: int) -> tuple[np.ndarray, np.ndarray]:
        """Sums and counts per bin from labels (N,) and bin indices (N,) in ``[0, n_bins)``.

        Labels are clipped to ``[-T, T]`` when ``clip`` is set, otherwise checked to lie there.
        Returns ``(sums, counts)``, each of shape (n_bins,).
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
        """Noisy bin means from bin sums (L,) and counts (L,); 0 for empty bins.

        ``sums`` must be sums of labels in ``[-T, T]`` (``|sum| <= T n``), e.g. from :meth:`bin_sums`.
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
