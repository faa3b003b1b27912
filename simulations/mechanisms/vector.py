"""The K-bit vector mechanism (000 eq. (12)-(13), 003 eq. (11)): one independent flip per class bit.

Given label y, output Z in {0, 1}^K with independent bits,
P(Z(j) = 1 | y) = e^{ε/2} / (1 + e^{ε/2}) if j = y and 1 / (1 + e^{ε/2}) otherwise.
Changing y moves only bits y and y', each by a likelihood ratio of at most e^{ε/2}, so the
mechanism is ε-label DP, tightly (000 Theorem 1 / 003 eq. (15)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_int
from simulations.mechanisms.labels import check_labels, check_num_classes_epsilon
from simulations.mechanisms._rare import refine_rare_event
from simulations.seeding import check_generator

__all__ = ["MAX_CHANNEL_CLASSES", "VectorMechanism", "output_bits"]

# The full channel has 2^K columns; beyond this use the per-bit factorization.
MAX_CHANNEL_CLASSES = 16

# Rows privatized per block: bounds the uniform buffer to ~8 MiB at K = 100. The block size does
# not change the output, since float64 draws consume the generator's stream one word each.
_BLOCK_ROWS = 1 << 14


def output_bits(num_classes: int) -> np.ndarray:
    """Bit vectors in channel-column order: row c is the binary expansion of c, bit j = Z(j).

    Returns
    -------
    bits : ndarray of uint8, shape (2^K, K), ``bits[c, j] = (c >> j) & 1``.
    """
    num_classes = check_int("num_classes", num_classes, low=1)
    codes = np.arange(1 << num_classes, dtype=np.int64)[:, None]
    return ((codes >> np.arange(num_classes)) & 1).astype(np.uint8)


def factorized_diagonal_loss(log_ratio_one: float, log_ratio_zero: float) -> float:
    """Closed-form loss of independent bits with P(Z(j)=1 | y) = a if j = y else b (K >= 2), O(1).

    Changing y -> y' moves only bits y and y': bit y contributes max(ln a/b, ln (1-a)/(1-b)), bit
    y' the same with a and b swapped, the other bits 0 (the generic factorization over independent bits). With
    r1 = ln(a/b), r0 = ln((1-a)/(1-b)): loss = max(r1, r0) + max(-r1, -r0) = |r1 - r0|.

    References: 000 eq. (12)-(14) (r1 = ε/2, r0 = -ε/2: loss ε).
    """
    return abs(float(log_ratio_one) - float(log_ratio_zero))


@dataclass(frozen=True, slots=True)
class VectorMechanism:
    """K-bit vector label randomizer with ε/2 per bit.

    Parameters
    ----------
    num_classes : int >= 2
        K, the number of bits.
    epsilon : float > 0
        Total label-DP budget; each bit uses ε/2.

    References: 000 eq. (12)-(13) and Theorem 1; 003 eq. (11) and (15).
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def bit_epsilon(self) -> float:
        """The per-bit parameter ε/2: P(Z(y)=1 | y) / P(Z(j)=1 | y) = e^{ε/2} for j != y (000 eq. (12))."""
        return self.epsilon / 2.0

    def flip_probabilities(self) -> tuple[float, float]:
        """(a, b) = (P(Z(y)=1 | y), P(Z(j)=1 | y), j != y) = (e^{ε/2}/(1+e^{ε/2}), 1/(1+e^{ε/2}))."""
        t = np.exp(-self.bit_epsilon())
        return float(1.0 / (1.0 + t)), float(t / (1.0 + t))

    def log_flip_probabilities(self) -> tuple[float, float]:
        """(ln a, ln b) without rounding: ``-log1p(e^{-ε/2})`` and ``-ε/2 - log1p(e^{-ε/2})``.

        ln(1 - a) = ln b and ln(1 - b) = ln a. At ε = 80, a rounds to 1.0 in float while ln(1 - a) = -40.
        """
        s = self.bit_epsilon()
        lse = float(np.log1p(np.exp(-s)))
        return -lse, -s - lse

    def bit_probabilities(self) -> np.ndarray:
        """Q[y, j] = P(Z(j) = 1 | label y), shape (K, K): a on the diagonal, b elsewhere (eq. (12))."""
        a, b = self.flip_probabilities()
        Q = np.full((self.num_classes, self.num_classes), b)
        np.fill_diagonal(Q, a)
        return Q

    def channel_matrix(self) -> np.ndarray:
        """P[y, c] = P(Z = bits c | y), shape (K, 2^K); column c encodes Z(j) = (c >> j) & 1.

        Built from eq. (12)-(13) directly: P(z | y) = P(Z(y) = z(y) | y) * b^{m} (1 - b)^{K-1-m}, with
        m the number of ones of z outside position y. Refuses K > :data:`MAX_CHANNEL_CLASSES`.
        """
        K = self.num_classes
        if K > MAX_CHANNEL_CLASSES:
            raise ValueError(f"the full channel has 2^K columns; num_classes must be <= {MAX_CHANNEL_CLASSES} "
                             f"for channel_matrix, got num_classes={K} (use bit_probabilities())")
        return np.exp(self.log_channel_matrix())

    def log_channel_matrix(self) -> np.ndarray:
        """ln P[y, c], shape (K, 2^K), from ln a and ln b without rounding (exact at large ε, where a
        rounds to 1); same column order and size limit as :meth:`channel_matrix`."""
        K = self.num_classes
        if K > MAX_CHANNEL_CLASSES:
            raise ValueError(f"the full channel has 2^K columns; num_classes must be <= {MAX_CHANNEL_CLASSES} "
                             f"for log_channel_matrix, got num_classes={K} (use bit_probabilities())")
        la, lb = self.log_flip_probabilities()  # ln(1 - a) = ln b, ln(1 - b) = ln a
        bits = output_bits(K).T.astype(float)  # (K, 2^K): bits[y, c] = z(y)
        ones_elsewhere = bits.sum(axis=0)[None, :] - bits
        return bits * la + (1 - bits) * lb + ones_elsewhere * lb + (K - 1 - ones_elsewhere) * la

    def privacy_loss(self) -> float:
        """Exact label-DP loss: ε (000 Theorem 1, eq. (14)).

        Bit j is 1 w.p. a = e^{ε/2}/(1+e^{ε/2}) if j = y, else b = 1 - a (000 eq. (12)-(13)), bits
        independent. Changing y -> y' changes only bits y and y'; with r1 = ln(a/b) = ε/2 and
        r0 = ln((1-a)/(1-b)) = -ε/2, bit y contributes at most max(r1, r0) = ε/2 and bit y' at most
        max(-r1, -r0) = ε/2, so the loss is :func:`factorized_diagonal_loss` (r1, r0) = ε, attained at
        z(y) = 1, z(y') = 0.
        """
        s = self.bit_epsilon()
        return factorized_diagonal_loss(s, -s)

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Privatize labels (N,) -> bit vectors (N, K) of uint8 (0/1).

        One uniform per bit compared with its threshold (a for the true class, b elsewhere); about a
        second for N = 10^6, K = 100 on one core (numba measured no faster than this numpy loop).
        Where b < 2^-20 (ε > ~27.7) the rare outcomes (a one off the true class, a zero on it) are
        drawn from ln b exactly instead (``simulations.mechanisms._rare``).
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        a, b = self.flip_probabilities()
        _, log_b = self.log_flip_probabilities()
        n, K = labels.size, self.num_classes
        out = np.empty((n, K), dtype=bool)
        buf = np.empty((min(n, _BLOCK_ROWS), K))
        for start in range(0, n, _BLOCK_ROWS):
            stop = min(n, start + _BLOCK_ROWS)
            u = buf[: stop - start]
            rng.random(out=u)
            block = out[start:stop]
            np.less(u, b, out=block)
            rows, y = np.arange(stop - start), labels[start:stop]
            u_true = u[rows, y].copy()
            block[rows, y] = u_true < a
            block[:] = refine_rare_event(block, u, log_b, rng)  # a one off the true class: w.p. b
            block[rows, y] = ~refine_rare_event(u_true >= a, u_true, log_b, rng)  # a zero on it: w.p. 1 - a = b
        return out.view(np.uint8)
