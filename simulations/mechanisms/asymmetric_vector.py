"""The asymmetric K-bit vector mechanism: the true class's bit kept at 1/2, the others set w.p. 1/(e^ε + 1).

002's Limitations paragraph: "the privacy mechanism is not designed optimally ... one may consider
using asymmetric flipping probabilities, instead of (14) and (17)". This module is the suite's own
construction of that suggestion (it is not in 000 or 002): the one-hot encoding of the label is
privatized bit by bit, independently, with

* ``P(Z(y) = 1 | y) = p = 1/2`` (the true class's bit),
* ``P(Z(j) = 1 | y) = q = 1/(e^ε + 1)`` for j ≠ y (every other bit),

the optimized-unary-encoding choice of frequency oracles (the keep probability 1/2 minimizes the
variance of the debiased 0-bits, see :meth:`AsymmetricVectorMechanism.debiased_variances`).

**Privacy (derivation).** The bits are independent, so for labels y ≠ y' and an output z,
``ln P(z|y)/P(z|y')`` is a sum over bits; only bits y and y' have different laws under y and y'.
Bit y is Bernoulli(p) under y and Bernoulli(q) under y': its term is at most
``r1 = max(ln p/q, ln (1-p)/(1-q)) = ln(p/q)`` (p > q). Bit y' is Bernoulli(q) under y and Bernoulli(p)
under y': at most ``max(ln q/p, ln (1-q)/(1-p)) = ln((1-q)/(1-p))``. Both maxima are attained together
(z(y) = 1, z(y') = 0), so the loss is exactly ``ln[p(1-q) / (q(1-p))]``; with p = 1/2 and
``(1-q)/q = e^ε`` it is **ε, tightly** (:meth:`AsymmetricVectorMechanism.privacy_loss`).

**Debiasing.** ``E[Z(j) | y] = q + (p - q) 1{j = y}``, so ``(Z(j) - q)/(p - q)`` is an unbiased
estimate of the one-hot label, and the mean over a neighbourhood of ``(Z - q)/(p - q)`` an unbiased
estimate of the class probabilities η(x), as 000 eq. (24) is for the symmetric mechanism with its
own (a, b) (:meth:`AsymmetricVectorMechanism.debias`).

References: 002 Limitations paragraph (the suggestion), 002 eq. (14), (17) / 000 eq. (12)-(13) (the
symmetric mechanism it modifies), 000 eq. (24) (debiasing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations.mechanisms._rare import refine_rare_event
from simulations.mechanisms.labels import check_labels, check_num_classes_epsilon
from simulations.mechanisms.vector import _BLOCK_ROWS, MAX_CHANNEL_CLASSES, factorized_diagonal_loss, output_bits
from simulations.seeding import check_generator

__all__ = ["AsymmetricVectorMechanism"]

_LOG_HALF = float(np.log(0.5))


@dataclass(frozen=True, slots=True)
class AsymmetricVectorMechanism:
    r"""Asymmetric K-bit label randomizer: the label's bit is 1 w.p. 1/2, every other bit w.p. 1/(e^ε + 1).

    Same interface as :class:`~simulations.mechanisms.VectorMechanism` (``flip_probabilities``,
    ``bit_probabilities``, ``channel_matrix``, ``log_channel_matrix``, ``privacy_loss``, ``debias``,
    ``sample``), so estimators that read (a, b) = (P(Z(y)=1|y), P(Z(j)=1|y)) take either.

    Parameters
    ----------
    num_classes : int
        K >= 2, the number of bits.
    epsilon : float
        Label-DP budget ε > 0, finite.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0.

    References
    ----------
    002 Limitations paragraph (asymmetric flipping suggested; the construction is the suite's own);
    000 eq. (12)-(13) (the symmetric mechanism).

    Examples
    --------
    At ε = ln 3: p = 1/2, q = 1/4, and the loss is ln[(1/2)(3/4) / ((1/4)(1/2))] = ln 3:

    >>> m = AsymmetricVectorMechanism(num_classes=4, epsilon=np.log(3))
    >>> [round(v, 12) for v in m.flip_probabilities()]
    [0.5, 0.25]
    >>> round(m.privacy_loss(), 12) == round(float(np.log(3)), 12)
    True
    """

    num_classes: int
    epsilon: float

    def __post_init__(self):
        check_num_classes_epsilon(self.num_classes, self.epsilon)

    def log_bit_probabilities(self) -> tuple[float, float, float, float]:
        r""":math:`(\ln p, \ln(1-p), \ln q, \ln(1-q))` without rounding: p = 1/2, q = 1/(e^ε + 1).

        ``ln q = -ε - log1p(e^{-ε})`` and ``ln(1 - q) = -log1p(e^{-ε})`` stay exact at large ε, where
        q underflows. Every other method (probabilities, channel, sampler, loss) derives from these four.

        Returns
        -------
        log_p, log_1mp, log_q, log_1mq : float
            Log-probabilities of the true bit being 1 / 0 and of another bit being 1 / 0.

        References
        ----------
        002 Limitations paragraph; the keep probability 1/2 of optimized unary encoding.

        Examples
        --------
        >>> lp, l1p, lq, l1q = AsymmetricVectorMechanism(3, np.log(3)).log_bit_probabilities()
        >>> [round(float(np.exp(v)), 12) for v in (lp, l1p, lq, l1q)]
        [0.5, 0.5, 0.25, 0.75]
        >>> round(AsymmetricVectorMechanism(3, 800.0).log_bit_probabilities()[2], 9)
        -800.0
        """
        tail = float(np.log1p(np.exp(-self.epsilon)))
        return _LOG_HALF, _LOG_HALF, -self.epsilon - tail, -tail

    def flip_probabilities(self) -> tuple[float, float]:
        r"""The bit probabilities :math:`(p, q) = (P(Z(y)=1 \mid y), P(Z(j)=1 \mid y))`, j ≠ y.

        Returns
        -------
        p : float
            Probability that the true class's bit is 1 (1/2).
        q : float
            Probability that another class's bit is 1 (1/(e^ε + 1)).

        References
        ----------
        002 Limitations paragraph (asymmetric flipping).

        Examples
        --------
        >>> [round(v, 12) for v in AsymmetricVectorMechanism(3, np.log(3)).flip_probabilities()]
        [0.5, 0.25]
        """
        lp, _, lq, _ = self.log_bit_probabilities()
        return float(np.exp(lp)), float(np.exp(lq))

    def bit_probabilities(self) -> np.ndarray:
        r"""The per-bit channel :math:`Q[y, j] = P(Z(j) = 1 \mid y)`: p on the diagonal, q elsewhere.

        Returns
        -------
        ndarray of float64, shape (K, K)
            The marginal probability of each bit given each label.

        References
        ----------
        002 Limitations paragraph; 000 eq. (12)-(13) (the symmetric layout).

        Examples
        --------
        >>> AsymmetricVectorMechanism(2, np.log(3)).bit_probabilities().round(12).tolist()
        [[0.5, 0.25], [0.25, 0.5]]
        """
        p, q = self.flip_probabilities()
        Q = np.full((self.num_classes, self.num_classes), q)
        np.fill_diagonal(Q, p)
        return Q

    def log_channel_matrix(self) -> np.ndarray:
        r""":math:`\ln P[y, c]`, column c the bit vector :math:`Z(j) = (c \gg j) \,\&\, 1` (:func:`output_bits`).

        :math:`\ln P(z \mid y) = z(y) \ln p + (1 - z(y)) \ln(1-p) + m \ln q + (K - 1 - m) \ln(1-q)`, m the number
        of ones of z outside position y.

        Returns
        -------
        ndarray of float64, shape (K, 2^K)

        Raises
        ------
        ValueError
            If K > :data:`~simulations.mechanisms.vector.MAX_CHANNEL_CLASSES` (use :meth:`bit_probabilities`).

        References
        ----------
        002 Limitations paragraph; 000 eq. (12)-(13) (column order as for the symmetric mechanism).

        Examples
        --------
        K = 2, ε = ln 3 (p = 1/2, q = 1/4): for y = 0, output (0, 0) has probability (1/2)(3/4) = 3/8:

        >>> np.exp(AsymmetricVectorMechanism(2, np.log(3)).log_channel_matrix()).round(12).tolist()
        [[0.375, 0.375, 0.125, 0.125], [0.375, 0.125, 0.375, 0.125]]
        """
        K = self.num_classes
        if K > MAX_CHANNEL_CLASSES:
            raise ValueError(f"the full channel has 2^K columns; num_classes must be <= {MAX_CHANNEL_CLASSES} "
                             f"for log_channel_matrix, got num_classes={K} (use bit_probabilities())")
        lp, l1p, lq, l1q = self.log_bit_probabilities()
        bits = output_bits(K).T.astype(float)  # (K, 2^K): bits[y, c] = z(y)
        ones_elsewhere = bits.sum(axis=0)[None, :] - bits
        return bits * lp + (1 - bits) * l1p + ones_elsewhere * lq + (K - 1 - ones_elsewhere) * l1q

    def channel_matrix(self) -> np.ndarray:
        r"""The exact channel :math:`P[y, c] = P(Z = \text{bits}_c \mid y)` (exp of :meth:`log_channel_matrix`).

        Returns
        -------
        ndarray of float64, shape (K, 2^K)
            Rows sum to 1; columns in the order of :func:`~simulations.mechanisms.output_bits`.

        Raises
        ------
        ValueError
            If K > :data:`~simulations.mechanisms.vector.MAX_CHANNEL_CLASSES`.

        References
        ----------
        002 Limitations paragraph; 000 eq. (12)-(13).

        Examples
        --------
        >>> P = AsymmetricVectorMechanism(3, 1.0).channel_matrix()
        >>> P.shape, P.sum(axis=1).round(12).tolist()
        ((3, 8), [1.0, 1.0, 1.0])
        """
        K = self.num_classes
        if K > MAX_CHANNEL_CLASSES:
            raise ValueError(f"the full channel has 2^K columns; num_classes must be <= {MAX_CHANNEL_CLASSES} "
                             f"for channel_matrix, got num_classes={K} (use bit_probabilities())")
        return np.exp(self.log_channel_matrix())

    def privacy_loss(self) -> float:
        r"""Exact label-DP loss :math:`\ln[p(1-q)/(q(1-p))]`, which is ε (module docstring's derivation).

        With :math:`r_1 = \ln(p/q)` and :math:`r_0 = \ln((1-p)/(1-q))`, bits y and y' contribute
        :math:`r_1` and :math:`-r_0`, all other bits 0: loss :math:`r_1 - r_0`; p = 1/2 and
        :math:`(1-q)/q = e^\varepsilon` give ε.

        Returns
        -------
        float
            The loss (ε up to rounding).

        References
        ----------
        002 Limitations paragraph; 000 Theorem 1 (the same two-bit argument).

        Examples
        --------
        >>> round(AsymmetricVectorMechanism(10, 1.0).privacy_loss(), 12)
        1.0
        """
        lp, l1p, lq, l1q = self.log_bit_probabilities()
        return factorized_diagonal_loss(lp - lq, l1p - l1q)

    def debias(self, bit_means) -> np.ndarray:
        r"""Unbiased estimate of the one-hot label / class probabilities: :math:`(\bar Z - q)/(p - q)`.

        Parameters
        ----------
        bit_means : array_like of float, shape (..., K)
            Means of released bit vectors (one row, or a neighbourhood's average).

        Returns
        -------
        ndarray of float64, same shape
            ``(bit_means - q) / (p - q)``; its expectation is the mean one-hot label (η where the mean is
            over points drawn from η).

        References
        ----------
        000 eq. (24) (the symmetric case, with its own (a, b)).

        Examples
        --------
        At ε = ln 3 (p = 1/2, q = 1/4), a mean of 1/2 on a bit debiases to 1 and a mean of 1/4 to 0:

        >>> AsymmetricVectorMechanism(2, np.log(3)).debias([0.5, 0.25]).round(12).tolist()
        [1.0, 0.0]
        """
        p, q = self.flip_probabilities()
        return (np.asarray(bit_means, dtype=float) - q) / (p - q)

    def debiased_variances(self) -> tuple[float, float]:
        r"""Variance of one debiased bit :math:`(Z(j) - q)/(p - q)`: on the label's bit and on any other.

        :math:`p(1-p)/(p-q)^2` and :math:`q(1-q)/(p-q)^2`; at p = 1/2 the second is
        :math:`4e^\varepsilon/(e^\varepsilon - 1)^2`, the minimum over p of the 0-bit variance at fixed loss ε.

        Returns
        -------
        var_one, var_zero : float

        References
        ----------
        000 eq. (24) (the debiased estimate whose variance this is).

        Examples
        --------
        At ε = ln 3: (1/4)/(1/16) = 4 and (3/16)/(1/16) = 3:

        >>> [round(v, 12) for v in AsymmetricVectorMechanism(2, np.log(3)).debiased_variances()]
        [4.0, 3.0]
        """
        p, q = self.flip_probabilities()
        return p * (1 - p) / (p - q) ** 2, q * (1 - q) / (p - q) ** 2

    def sample(self, labels, rng: np.random.Generator) -> np.ndarray:
        """Privatize N labels into N bit vectors (one uniform per bit, compared with p or q).

        Where q < 2^-20 (ε > ~13.9) the rare ones off the true class are drawn from ln q exactly
        (:func:`~simulations.mechanisms._rare.refine_rare_event`).

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            True labels in ``0 .. K-1``.
        rng : numpy.random.Generator
            Source of randomness (the PRIVACY stream).

        Returns
        -------
        ndarray of uint8, shape (N, K)
            Bits 0/1; row i is Z for label i.

        Raises
        ------
        ValueError
            If ``labels`` is not a 1-D integer array in ``[0, K)`` or ``rng`` is not a Generator,
            SeedSequence or int seed.

        References
        ----------
        002 Limitations paragraph.

        Examples
        --------
        >>> Z = AsymmetricVectorMechanism(4, 1.0).sample([0, 3, 1], np.random.default_rng(0))
        >>> Z.shape, Z.dtype, bool(np.isin(Z, [0, 1]).all())
        ((3, 4), dtype('uint8'), True)
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        p, q = self.flip_probabilities()
        _, l1p, lq, _ = self.log_bit_probabilities()
        n, K = labels.size, self.num_classes
        out = np.empty((n, K), dtype=bool)
        buf = np.empty((min(n, _BLOCK_ROWS), K))
        for start in range(0, n, _BLOCK_ROWS):
            stop = min(n, start + _BLOCK_ROWS)
            u = buf[: stop - start]
            rng.random(out=u)
            block = out[start:stop]
            np.less(u, q, out=block)
            rows, y = np.arange(stop - start), labels[start:stop]
            u_true = u[rows, y].copy()
            block[:] = refine_rare_event(block, u, lq, rng)  # a one off the true class: w.p. q
            block[rows, y] = ~refine_rare_event(u_true >= p, u_true, l1p, rng)  # a zero on it: w.p. 1 - p
        return out.view(np.uint8)
