"""ALIBI soft labels (Malek Esmaeili et al. 2021, as cited in 000 Section 2): Laplace noise on the
one-hot label, then the Bayesian posterior over classes.

Two one-hot vectors differ by 2 in L1 norm, so Laplace noise of scale 2/ε per coordinate makes the
noisy vector o = e_y + Lap(2/ε)^K ε-label DP; the soft label is a function of o (and of a public
prior) only, hence ε-label DP by post-processing.

000 Section 2 describes ALIBI's transform as costing O(K^2) per label. Under Laplace noise the
posterior factorizes: every class shares the coordinates where it is 0, so each class score needs
only its own coordinate, ``(ε/2)(|o_c| - |o_c - 1|)``, and the posterior costs O(K) per label. Privacy is argued in idealized real arithmetic
(floating-point Laplace sampling has known attacks; this is a research tool).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations.mechanisms.labels import check_labels, check_num_classes_epsilon, check_priors
from simulations.seeding import check_generator

__all__ = ["ALIBI", "ONE_HOT_L1_SENSITIVITY"]

# max_{y, y'} ||e_y - e_y'||_1
ONE_HOT_L1_SENSITIVITY = 2.0


@dataclass(frozen=True, slots=True)
class ALIBI:
    r"""Laplace mechanism on the one-hot label with Bayesian soft labels.

    The noisy vector is :math:`o = e_y + \mathrm{Lap}(2/\varepsilon)^K`; two one-hot vectors differ by 2 in
    L1 norm, so o is ε-label DP and the soft labels (a function of o and a public prior) are too.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        Privacy parameter ε > 0, finite; the noise scale is 2/ε per coordinate.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0.

    References
    ----------
    ALIBI (Malek Esmaeili et al. 2021), as cited in 000 Section 2 (not one of the seed papers; the
    privacy argument is the Laplace mechanism's, in idealized real arithmetic).

    Examples
    --------
    >>> mech = ALIBI(num_classes=10, epsilon=1.0)
    >>> mech.scale, mech.privacy_loss()
    (2.0, 1.0)
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    @property
    def scale(self) -> float:
        """Laplace scale per coordinate, L1 sensitivity / ε = 2/ε.

        References
        ----------
        000 Section 2 (ALIBI: Laplace noise on the one-hot label).

        Examples
        --------
        >>> ALIBI(3, 0.5).scale
        4.0
        """
        return ONE_HOT_L1_SENSITIVITY / self.epsilon

    def privacy_loss(self) -> float:
        r"""Exact :math:`\sup_{y, y', o} \ln f(o|y)/f(o|y')` in closed form: 2 / scale = ε.

        :math:`\ln f(o|y)/f(o|y') = (\|o - e_{y'}\|_1 - \|o - e_y\|_1)/b \le \|e_y - e_{y'}\|_1 / b` by the
        triangle inequality per coordinate, with equality for :math:`o_y \ge 1, o_{y'} \le 0`; every pair
        y ≠ y' has :math:`\|e_y - e_{y'}\|_1 = 2`. Soft labels are post-processing of o.

        Returns
        -------
        float
            The loss, equal to ``epsilon``.

        References
        ----------
        000 Section 2 (ALIBI); the Laplace mechanism, 001 Definition 2.2.

        Examples
        --------
        >>> ALIBI(3, 0.5).privacy_loss()
        0.5
        """
        return 2.0 / self.scale

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        r"""Noisy one-hot vectors :math:`o = e_y + \mathrm{Lap}(2/\varepsilon)^K`.

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            True labels in ``0 .. K-1``.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of float64, shape (N, K)
            One noisy vector per label.

        Raises
        ------
        ValueError
            If ``labels`` is not a 1-D integer array in ``[0, K)`` or ``rng`` is not a Generator, SeedSequence or
            int seed.

        References
        ----------
        000 Section 2 (ALIBI).

        Examples
        --------
        >>> o = ALIBI(3, 1.0).sample([0, 2], np.random.default_rng(0))
        >>> o.shape, o.dtype
        ((2, 3), dtype('float64'))
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        noisy = rng.laplace(0.0, self.scale, size=(labels.size, self.num_classes))
        noisy[np.arange(labels.size), labels] += 1.0
        return noisy

    def log_density(self, noisy, labels) -> np.ndarray:
        r"""The exact channel of a continuous output: :math:`\ln f(o \mid y) = -\|o - e_y\|_1 / b - K \ln(2b)`.

        Parameters
        ----------
        noisy : array_like, shape (N, K)
            Finite noisy vectors.
        labels : array_like of int, shape (N,)
            Labels in ``0 .. K-1``, one per row of ``noisy``.

        Returns
        -------
        ndarray of float64, shape (N,)
            Log densities.

        Raises
        ------
        ValueError
            If ``noisy`` is not a finite (N, K) array or ``labels`` is malformed or of another length.

        References
        ----------
        000 Section 2 (ALIBI); 001 Definition 2.2 (Laplace density).

        Examples
        --------
        K = 2, ε = 2 (b = 1), o = e_0: :math:`-2 \ln 2` for y = 0 and :math:`-2 - 2 \ln 2` for y = 1.

        >>> lp = ALIBI(2, 2.0).log_density([[1.0, 0.0], [1.0, 0.0]], [0, 1])
        >>> np.round(lp + 2 * np.log(2), 12).tolist()
        [0.0, -2.0]
        """
        o = self._check_noisy(noisy)
        labels = check_labels(labels, self.num_classes)
        if labels.size != o.shape[0]:
            raise ValueError(f"labels must have {o.shape[0]} entries, got {labels.size}")
        onehot = np.zeros_like(o)
        onehot[np.arange(labels.size), labels] = 1.0
        return -np.abs(o - onehot).sum(axis=1) / self.scale - self.num_classes * np.log(2.0 * self.scale)

    def soft_labels(self, noisy, prior=None) -> np.ndarray:
        r"""Posterior :math:`P(y = c \mid o)` under a public prior (uniform by default).

        :math:`f(o \mid c) \propto \exp(-(\varepsilon/2) \|o - e_c\|_1) \propto \exp((\varepsilon/2)(|o_c| - |o_c -
        1|))`
        (the other coordinates are common to every c), so the posterior is a softmax of
        :math:`\ln p_c + (\varepsilon/2)(|o_c| - |o_c - 1|)`: O(K) per label.

        Parameters
        ----------
        noisy : array_like, shape (N, K)
            Finite noisy vectors from :meth:`sample`.
        prior : array_like, shape (K,) or (N, K), optional
            Public prior(s); uniform when omitted. Classes of prior 0 get posterior 0.

        Returns
        -------
        ndarray of float64, shape (N, K)
            Rows sum to 1.

        Raises
        ------
        ValueError
            If ``noisy`` is not a finite (N, K) array or ``prior`` is not a valid prior.

        References
        ----------
        000 Section 2 (ALIBI's Bayesian soft labels).

        Examples
        --------
        K = 2, ε = 2, o = (1, 0): scores (1, -1), posterior :math:`1/(1+e^{-2}) = 0.880797`.

        >>> np.round(ALIBI(2, 2.0).soft_labels([[1.0, 0.0]]), 6).tolist()
        [[0.880797, 0.119203]]
        """
        o = self._check_noisy(noisy)
        score = (np.abs(o) - np.abs(o - 1.0)) / self.scale
        if prior is not None:
            p = check_priors(prior, self.num_classes, n=o.shape[0])
            with np.errstate(divide="ignore"):  # classes of prior 0 get posterior 0
                score = score + np.log(p)
        score = score - score.max(axis=1, keepdims=True)
        post = np.exp(score)
        return post / post.sum(axis=1, keepdims=True)

    def _check_noisy(self, noisy) -> np.ndarray:
        o = np.asarray(noisy, dtype=float)
        if o.ndim != 2 or o.shape[1] != self.num_classes:
            raise ValueError(f"noisy must have shape (N, {self.num_classes}), got {o.shape}")
        if not np.all(np.isfinite(o)):
            raise ValueError("noisy must be finite")
        return o
