"""A finite law whose top-k priors miss the label with an exact, chosen probability (004 Corollary 10, Theorem 17).

:class:`MissRateLaw`: x uniform on m points (cells); each cell x has a prior whose top-k set
:math:`Y_k^x` is given (``tops[x]``), and the label law is

    η_q(x) = (1 - q) · a_x + q · u_x,

a_x putting the weights ``inside`` on the labels of :math:`Y_k^x` (in their order) and u_x uniform on
the K - k labels outside. Then Pr[y ∉ Y_k^x] = q in every cell, hence overall: the miss rate of 004
eq. (8) and (18) is the parameter itself. The prior handed to RRTop-k is ``0.9 a_x + 0.1/K`` (its top
k labels are :math:`Y_k^x` whenever every ``inside`` weight is > 0).

:meth:`MissRateLaw.xi_eta` is the law P' of 004's proof of Corollary 10 (the map ξ sends a label outside
:math:`Y_k^x` uniformly into it): η'(x) = (1 - q) a_x + q · uniform(Y_k^x). LP-RR-SGD and the debiased
ERM of Theorem 17 both learn P' in the limit (004 eq. (9)-(10), Lemma 20).

References: 004 Corollary 10 and its proof (ξ, P'), Theorem 17, Lemma 20.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_probability_vector, check_real
from simulations.seeding import check_generator

__all__ = ["MissRateLaw", "PRIOR_WEIGHT"]

#: weight of a_x in the prior handed to RRTop-k (the rest is uniform): any value in (0, 1] keeps Y_k^x on top
PRIOR_WEIGHT = 0.9


@dataclass(frozen=True, slots=True)
class MissRateLaw:
    """x uniform on m cells; y | x = (1 - q) a_x + q · uniform(outside Y_k^x): Pr[y ∉ Y_k^x] = q exactly.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    tops : tuple of tuple of int
        ``tops[x]`` = :math:`Y_k^x`, k distinct labels (the same k for every cell), m >= 1 cells.
    inside : tuple of float
        The weights of a_x on ``tops[x]`` (length k, each > 0, summing to 1).
    miss_rate : float, default 0
        q in [0, 1]; q > 0 needs k < K.

    Raises
    ------
    ValueError
        If a field is out of range (naming it).

    References
    ----------
    004 Corollary 10 (Pr_{(x,y)~P}[y ∉ Y_k^x]), Theorem 17.

    Examples
    --------
    >>> law = MissRateLaw(num_classes=4, tops=((0, 1), (2, 3)), inside=(0.75, 0.25), miss_rate=0.2)
    >>> law.eta().round(12).tolist()
    [[0.6, 0.2, 0.1, 0.1], [0.1, 0.1, 0.6, 0.2]]
    >>> round(law.exact_miss_rate(), 12)
    0.2
    """

    num_classes: int
    tops: tuple[tuple[int, ...], ...]
    inside: tuple[float, ...]
    miss_rate: float = 0.0

    def __post_init__(self):
        K = check_int("num_classes", self.num_classes, low=2)
        k = len(self.inside)
        check_probability_vector("inside", self.inside)
        if k < 1 or k > K or min(self.inside) <= 0:
            raise ValueError(f"inside must hold 1..{K} weights > 0, got inside={self.inside!r}")
        if not self.tops or any(len(set(t)) != k or min(t) < 0 or max(t) >= K for t in self.tops):
            raise ValueError(f"tops must be cells of {k} distinct labels in [0, {K}), got tops={self.tops!r}")
        q = check_real("miss_rate", self.miss_rate, low=0.0, high=1.0)
        if q > 0 and k == K:
            raise ValueError(f"miss_rate must be 0 when k = K = {K}, got miss_rate={self.miss_rate}")

    @property
    def k(self) -> int:
        """k, the size of every Y_k^x (the length of ``inside``).

        Returns
        -------
        int

        Examples
        --------
        >>> MissRateLaw(num_classes=4, tops=((0, 1),), inside=(0.75, 0.25)).k
        2
        """
        return len(self.inside)

    def _inside_matrix(self, weights) -> np.ndarray:
        A = np.zeros((len(self.tops), self.num_classes))
        for x, t in enumerate(self.tops):
            A[x, list(t)] = weights
        return A

    def top_mask(self) -> np.ndarray:
        """Which labels lie in each cell's top-k set.

        Returns
        -------
        ndarray of bool, shape (m, K)
            Entry [x, y] is True when y ∈ Y_k^x.

        References
        ----------
        004 Algorithm 1 step 1 (Y_k), Corollary 10.

        Examples
        --------
        >>> MissRateLaw(num_classes=3, tops=((2, 0),), inside=(0.5, 0.5)).top_mask().tolist()
        [[True, False, True]]
        """
        return self._inside_matrix(np.ones(self.k)) > 0

    def eta(self) -> np.ndarray:
        """The label law of every cell, η_q(x) = (1 - q) a_x + q · uniform(outside Y_k^x).

        Returns
        -------
        ndarray of float64, shape (m, K)
            Row x is the law of y given cell x (rows sum to 1).

        References
        ----------
        004 Corollary 10 (the miss rate Pr[y ∉ Y_k^x] = q).

        Examples
        --------
        >>> MissRateLaw(num_classes=3, tops=((0, 1),), inside=(0.5, 0.5), miss_rate=0.2).eta().round(12).tolist()
        [[0.4, 0.4, 0.2]]
        """
        A = self._inside_matrix(self.inside)
        out = ~self.top_mask() / max(self.num_classes - self.k, 1)
        return (1.0 - self.miss_rate) * A + self.miss_rate * out

    def xi_eta(self) -> np.ndarray:
        """The label law of P' = ξ(P): the missed mass moved uniformly onto Y_k^x.

        Returns
        -------
        ndarray of float64, shape (m, K)
            η'(x) = (1 - q) a_x + q · uniform(Y_k^x); zero outside Y_k^x.

        References
        ----------
        004 proof of Corollary 10 (ξ, P'), Lemma 20.

        Examples
        --------
        >>> MissRateLaw(num_classes=3, tops=((0, 1),), inside=(0.5, 0.5), miss_rate=0.2).xi_eta().round(12).tolist()
        [[0.5, 0.5, 0.0]]
        """
        A = self._inside_matrix(self.inside)
        return (1.0 - self.miss_rate) * A + self.miss_rate * self._inside_matrix(np.full(self.k, 1.0 / self.k))

    def prior(self) -> np.ndarray:
        """The priors handed to RRTop-k: ``PRIOR_WEIGHT · a_x + (1 - PRIOR_WEIGHT)/K``.

        Returns
        -------
        ndarray of float64, shape (m, K)
            One probability vector per cell; its k largest entries are Y_k^x.

        References
        ----------
        004 Algorithm 1 (the prior p_x), Corollary 10.

        Examples
        --------
        >>> MissRateLaw(num_classes=4, tops=((2, 3),), inside=(0.75, 0.25)).prior().round(4).tolist()
        [[0.025, 0.025, 0.7, 0.25]]
        """
        return PRIOR_WEIGHT * self._inside_matrix(self.inside) + (1.0 - PRIOR_WEIGHT) / self.num_classes

    def exact_miss_rate(self) -> float:
        """Σ_x P(x) η_q(x)(labels outside Y_k^x), from :meth:`eta` (P(x) = 1/m).

        Returns
        -------
        float
            Equal to ``miss_rate`` up to rounding (the tests check it in fractions).

        References
        ----------
        004 eq. (8), (18): Pr_{(x,y)~P}[y ∉ Y_k^x].

        Examples
        --------
        >>> round(MissRateLaw(num_classes=4, tops=((0, 1), (1, 2)), inside=(0.6, 0.4), miss_rate=0.05).exact_miss_rate(), 12)
        0.05
        """
        return float((self.eta() * ~self.top_mask()).sum(axis=1).mean())

    def sample(self, n: int, rng) -> tuple[np.ndarray, np.ndarray]:
        """n i.i.d. pairs: x uniform on the cells, then y ~ η_q(x).

        Parameters
        ----------
        n : int >= 0
            Number of pairs.
        rng : numpy.random.Generator
            The DATA stream.

        Returns
        -------
        cells, labels : ndarray of int64, shape (n,)

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0 or ``rng`` is not a Generator.

        References
        ----------
        004 Appendix G (n i.i.d. samples from P).

        Examples
        --------
        >>> law = MissRateLaw(num_classes=4, tops=((0, 1),), inside=(0.75, 0.25))
        >>> x, y = law.sample(5, np.random.default_rng(0))
        >>> x.tolist(), bool(np.isin(y, [0, 1]).all())
        ([0, 0, 0, 0, 0], True)
        """
        n = check_int("n", n, low=0)
        rng = check_generator(rng)
        x = rng.integers(0, len(self.tops), size=n)
        cdf = np.cumsum(self.eta(), axis=1)[x]
        y = (rng.random(n)[:, None] >= cdf).sum(axis=1)
        return x.astype(np.int64), np.minimum(y, self.num_classes - 1).astype(np.int64)
