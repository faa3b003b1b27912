"""ALIBI soft labels (Malek Esmaeili et al. 2021, as cited in 000 Section 2): Laplace noise on the
one-hot label, then the Bayesian posterior over classes.

Two one-hot vectors differ by 2 in L1 norm, so Laplace noise of scale 2/ε per coordinate makes the
noisy vector o = e_y + Lap(2/ε)^K ε-label DP; the soft label is a function of o (and of a public
prior) only, hence ε-label DP by post-processing.

000 Section 2 describes ALIBI's transform as costing O(K^2) per label. Under Laplace noise the
posterior factorizes: every class shares the coordinates where it is 0, so each class score needs
only its own coordinate, (ε/2)(|o_c| - |o_c - 1|), and the posterior costs O(K) per label. Privacy is argued in idealized real arithmetic
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
    """Laplace mechanism on the one-hot label with Bayesian soft labels.

    Parameters
    ----------
    num_classes : int >= 2
    epsilon : float > 0
        The noise scale is 2/ε per coordinate.

    References: ALIBI (Malek Esmaeili et al. 2021), cited in 000 Section 2.
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    @property
    def scale(self) -> float:
        """Laplace scale per coordinate, L1 sensitivity / ε = 2/ε."""
        return ONE_HOT_L1_SENSITIVITY / self.epsilon

    def privacy_loss(self) -> float:
        """Exact sup over (y, y', o) of ln f(o|y)/f(o|y') in closed form: 2 / scale = ε (O(1)).

        ln f(o|y)/f(o|y') = (||o - e_y'||_1 - ||o - e_y||_1) / scale <= ||e_y - e_y'||_1 / scale by the
        triangle inequality per coordinate, with equality for o(y) >= 1, o(y') <= 0. Every pair y != y'
        has ||e_y - e_y'||_1 = 2, so the loss is 2 / scale; soft labels are post-processing of o.
        """
        return 2.0 / self.scale

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Noisy one-hot vectors o = e_y + Lap(2/ε)^K, shape (N,) -> (N, K) float64."""
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        noisy = rng.laplace(0.0, self.scale, size=(labels.size, self.num_classes))
        noisy[np.arange(labels.size), labels] += 1.0
        return noisy

    def log_density(self, noisy, labels) -> np.ndarray:
        """ln f(o | y) of the noisy vector, shapes (N, K) and (N,) -> (N,)."""
        o = self._check_noisy(noisy)
        labels = check_labels(labels, self.num_classes)
        if labels.size != o.shape[0]:
            raise ValueError(f"labels must have {o.shape[0]} entries, got {labels.size}")
        onehot = np.zeros_like(o)
        onehot[np.arange(labels.size), labels] = 1.0
        return -np.abs(o - onehot).sum(axis=1) / self.scale - self.num_classes * np.log(2.0 * self.scale)

    def soft_labels(self, noisy, prior=None) -> np.ndarray:
        """Posterior P(y = c | o) under a public prior (uniform by default), shape (N, K).

        f(o | c) ∝ exp(-(ε/2) ||o - e_c||_1) ∝ exp((ε/2)(|o_c| - |o_c - 1|)) (the other coordinates
        are common to every c), so the posterior is a softmax of ln p_c + (ε/2)(|o_c| - |o_c - 1|).

        Parameters
        ----------
        noisy : array_like, shape (N, K)
        prior : array_like, shape (K,) or (N, K), optional
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
