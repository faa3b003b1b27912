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
    r"""Bit vectors in channel-column order: row c is the binary expansion of c, bit j = Z(j).

    Parameters
    ----------
    num_classes : int
        K >= 1, the number of bits.

    Returns
    -------
    bits : ndarray of uint8, shape (2^K, K)
        ``bits[c, j] = (c >> j) & 1``.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 1.

    References
    ----------
    000 eq. (12)-(13) (the output :math:`Z \in \{0, 1\}^K`).

    Examples
    --------
    >>> output_bits(2).tolist()
    [[0, 0], [1, 0], [0, 1], [1, 1]]
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
    r"""K-bit vector label randomizer with ε/2 per bit.

    Given label y, each bit :math:`Z(j)` is 1 independently with probability
    :math:`e^{\varepsilon/2}/(1+e^{\varepsilon/2})` if j = y and :math:`1/(1+e^{\varepsilon/2})` otherwise.

    Parameters
    ----------
    num_classes : int
        K >= 2, the number of bits.
    epsilon : float
        Total label-DP budget ε > 0, finite; each bit uses ε/2.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0.

    References
    ----------
    000 eq. (12)-(13) and Theorem 1; 003 eq. (11) and (15).

    Examples
    --------
    With K = 10 at ε = 1 the loss is exactly ε (ε/2 from each of the two bits that change):

    >>> VectorMechanism(num_classes=10, epsilon=1.0).privacy_loss()
    1.0
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def bit_epsilon(self) -> float:
        r"""The per-bit parameter ε/2: :math:`P(Z(y)=1 \mid y) / P(Z(j)=1 \mid y) = e^{\varepsilon/2}` for j ≠ y.

        Returns
        -------
        float
            ε/2.

        References
        ----------
        000 eq. (12).

        Examples
        --------
        >>> VectorMechanism(3, 2.0).bit_epsilon()
        1.0
        """
        return self.epsilon / 2.0

    def flip_probabilities(self) -> tuple[float, float]:
        r"""The bit probabilities :math:`(a, b) = (P(Z(y)=1 \mid y), P(Z(j)=1 \mid y))`, j ≠ y.

        :math:`a = e^{\varepsilon/2}/(1+e^{\varepsilon/2})`, :math:`b = 1/(1+e^{\varepsilon/2}) = 1 - a`.

        Returns
        -------
        a : float
            Probability that the true class's bit is 1.
        b : float
            Probability that another class's bit is 1.

        References
        ----------
        000 eq. (12)-(13); 003 eq. (11).

        Examples
        --------
        At ε = 2 ln 3, :math:`e^{\varepsilon/2} = 3`: a = 3/4, b = 1/4.

        >>> a, b = VectorMechanism(3, 2 * np.log(3)).flip_probabilities()
        >>> round(a, 12), round(b, 12)
        (0.75, 0.25)
        """
        t = np.exp(-self.bit_epsilon())
        return float(1.0 / (1.0 + t)), float(t / (1.0 + t))

    def log_flip_probabilities(self) -> tuple[float, float]:
        r""":math:`(\ln a, \ln b)` without rounding: ``-log1p(e^{-ε/2})`` and ``-ε/2 - log1p(e^{-ε/2})``.

        :math:`\ln(1 - a) = \ln b` and :math:`\ln(1 - b) = \ln a`. At ε = 80, a rounds to 1.0 in float while
        :math:`\ln(1 - a) = -40`.

        Returns
        -------
        log_a : float
            ln a.
        log_b : float
            ln b.

        References
        ----------
        000 eq. (12)-(13).

        Examples
        --------
        >>> la, lb = VectorMechanism(3, 2 * np.log(3)).log_flip_probabilities()
        >>> round(float(np.exp(la)), 12), round(float(np.exp(lb)), 12)
        (0.75, 0.25)
        >>> round(VectorMechanism(3, 80.0).log_flip_probabilities()[1], 9)
        -40.0
        """
        s = self.bit_epsilon()
        lse = float(np.log1p(np.exp(-s)))
        return -lse, -s - lse

    def bit_probabilities(self) -> np.ndarray:
        r"""The per-bit channel :math:`Q[y, j] = P(Z(j) = 1 \mid y)`: a on the diagonal, b elsewhere.

        Returns
        -------
        ndarray of float64, shape (K, K)
            The marginal probability of each bit given each label.

        References
        ----------
        000 eq. (12)-(13).

        Examples
        --------
        >>> np.round(VectorMechanism(2, 2 * np.log(3)).bit_probabilities(), 12).tolist()
        [[0.75, 0.25], [0.25, 0.75]]
        """
        a, b = self.flip_probabilities()
        Q = np.full((self.num_classes, self.num_classes), b)
        np.fill_diagonal(Q, a)
        return Q

    def channel_matrix(self) -> np.ndarray:
        r"""The exact channel :math:`P[y, c] = P(Z = \text{bits}_c \mid y)`.

        Column c encodes :math:`Z(j) = (c \gg j) \,\&\, 1`.

        Built from 000 eq. (12)-(13): :math:`P(z \mid y) = P(Z(y) = z(y) \mid y)\, b^{m} (1 - b)^{K-1-m}`, with
        m the number of ones of z outside position y.

        Returns
        -------
        ndarray of float64, shape (K, 2^K)
            Rows sum to 1; columns in the order of :func:`output_bits`.

        Raises
        ------
        ValueError
            If K > :data:`MAX_CHANNEL_CLASSES` (use :meth:`bit_probabilities`).

        References
        ----------
        000 eq. (12)-(13).

        Examples
        --------
        K = 2, ε = 2 ln 3 (a = 3/4, b = 1/4): for y = 0, output (0, 0) has probability (1/4)(3/4) = 3/16.

        >>> np.round(VectorMechanism(2, 2 * np.log(3)).channel_matrix(), 12).tolist()
        [[0.1875, 0.5625, 0.0625, 0.1875], [0.1875, 0.0625, 0.5625, 0.1875]]
        """
        K = self.num_classes
        if K > MAX_CHANNEL_CLASSES:
            raise ValueError(f"the full channel has 2^K columns; num_classes must be <= {MAX_CHANNEL_CLASSES} "
                             f"for channel_matrix, got num_classes={K} (use bit_probabilities())")
        return np.exp(self.log_channel_matrix())

    def log_channel_matrix(self) -> np.ndarray:
        r""":math:`\ln P[y, c]` from ln a and ln b without rounding (exact at large ε, where a rounds to 1).

        Returns
        -------
        ndarray of float64, shape (K, 2^K)
            Same column order as :meth:`channel_matrix`.

        Raises
        ------
        ValueError
            If K > :data:`MAX_CHANNEL_CLASSES`.

        References
        ----------
        000 eq. (12)-(13); 003 eq. (15) (the likelihood ratio it bounds).

        Examples
        --------
        The largest log-ratio between the rows of labels 0 and 1 is ε = 2 ln 3 = ln 9 (at z = (1, 0)):

        >>> L = VectorMechanism(2, 2 * np.log(3)).log_channel_matrix()
        >>> round(float(np.max(L[0] - L[1])), 12) == round(float(np.log(9)), 12)
        True
        """
        K = self.num_classes
        if K > MAX_CHANNEL_CLASSES:
            raise ValueError(f"the full channel has 2^K columns; num_classes must be <= {MAX_CHANNEL_CLASSES} "
                             f"for log_channel_matrix, got num_classes={K} (use bit_probabilities())")
        la, lb = self.log_flip_probabilities()  # ln(1 - a) = ln b, ln(1 - b) = ln a
        bits = output_bits(K).T.astype(float)  # (K, 2^K): bits[y, c] = z(y)
        ones_elsewhere = bits.sum(axis=0)[None, :] - bits
        return bits * la + (1 - bits) * lb + ones_elsewhere * lb + (K - 1 - ones_elsewhere) * la

    def privacy_loss(self) -> float:
        r"""Exact label-DP loss: ε.

        Bit j is 1 w.p. :math:`a = e^{\varepsilon/2}/(1+e^{\varepsilon/2})` if j = y, else b = 1 - a, bits
        independent. Changing y → y' changes only bits y and y'; with :math:`r_1 = \ln(a/b) = \varepsilon/2` and
        :math:`r_0 = \ln((1-a)/(1-b)) = -\varepsilon/2`, each of the two bits contributes at most ε/2, so the loss is
        :math:`|r_1 - r_0| = \varepsilon`, attained at z(y) = 1, z(y') = 0.

        Returns
        -------
        float
            The loss, equal to ``epsilon``.

        References
        ----------
        000 Theorem 1; 003 eq. (15).

        Examples
        --------
        >>> VectorMechanism(10, 1.0).privacy_loss()
        1.0
        """
        s = self.bit_epsilon()
        return factorized_diagonal_loss(s, -s)

    def debias(self, bit_means) -> np.ndarray:
        r"""Unbiased estimate of the one-hot label / class probabilities: :math:`(\bar Z - b)/(a - b)`.

        Parameters
        ----------
        bit_means : array_like of float, shape (..., K)
            Means of released bit vectors (one row, or a neighbourhood's average :math:`g_j`).

        Returns
        -------
        ndarray of float64, same shape
            ``(bit_means - b) / (a - b)``.

        References
        ----------
        000 eq. (24) inverted (:math:`\tilde\eta_j = b + (a - b)\eta_j`).

        Examples
        --------
        At ε = 2 ln 3 (a = 3/4, b = 1/4), a mean of 1/2 debiases to 1/2 and 0 to -1/2:

        >>> VectorMechanism(2, 2 * np.log(3)).debias([0.5, 0.0]).round(12).tolist()
        [0.5, -0.5]
        """
        a, b = self.flip_probabilities()
        return (np.asarray(bit_means, dtype=float) - b) / (a - b)

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Privatize N labels into N bit vectors.

        One uniform per bit compared with its threshold (a for the true class, b elsewhere). Where
        :math:`b < 2^{-20}` (ε > ~27.7) the rare outcomes are drawn from ln b exactly instead.

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            True labels in ``0 .. K-1``.
        rng : numpy.random.Generator
            Source of randomness.

        Returns
        -------
        ndarray of uint8, shape (N, K)
            Bits 0/1; row i is :math:`Z` for label i.

        Raises
        ------
        ValueError
            If ``labels`` is not a 1-D integer array in ``[0, K)`` or ``rng`` is not a Generator, SeedSequence or
            int seed.

        References
        ----------
        000 eq. (12)-(13).

        Examples
        --------
        >>> Z = VectorMechanism(4, 1.0).sample([0, 3, 1], np.random.default_rng(0))
        >>> Z.shape, Z.dtype, bool(np.isin(Z, [0, 1]).all())
        ((3, 4), dtype('uint8'), True)
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
