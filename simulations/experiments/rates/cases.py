"""The records of the rate experiments: :class:`RatePoint` (one engine config) and :class:`RateCase` (one curve).

Frozen dataclasses that hold no logic beyond reading :data:`limits.ALGORITHMS`; the trial, the grid and the
study live in :mod:`simulations.experiments.rates.machinery`, the slope fit in
:mod:`simulations.experiments.rates.fit`. Both import the records from here, so neither imports the other
for them (the import graph of the rate experiments has no cycle).

References: 003 Table 1 and the constructions of its lower-bound proofs (eqs. (36)-(37), (121), (156)).
"""

from __future__ import annotations

from dataclasses import dataclass

import limits

__all__ = ["AlgorithmFacts", "RateCase", "RatePoint"]


@dataclass(frozen=True, slots=True)
class RatePoint:
    """One experiment point (the engine's config): algorithm, construction and sample size.

    A frozen, hashable record (the engine keys its streams and caches on it); nothing is validated
    here: :func:`grid_for_case` builds consistent points, and the laws and estimators check their
    own arguments when a trial runs.

    Parameters
    ----------
    algorithm : str
        A key of :data:`limits.ALGORITHMS` (its task, privacy model and bins/kNN are read there).
    d : int
        Dimension of the features, >= 1.
    beta : float
        Hölder exponent of the construction, > 0.
    eps : float
        Privacy parameter ε > 0.
    N : int
        Sample size.
    g : int
        Cubes per axis of the construction (``h = 1/g``); also the bins per axis of histogram
        estimators.
    gamma : float or None, default None
        Margin exponent (classification).
    p : float or None, default None
        Moment order (heavy-tailed regression).
    k : int or None, default None
        Neighbours of the kNN estimators (None for histograms).
    C_M : float or None, default None
        Bump-count constant of 003 eq. (37) (classification).
    M_p : float or None, default None
        p-th moment of the three-point law, 003 eq. (156)-(157) (heavy tails).
    n_eval : int or None, default None
        Uniform evaluation points for the kNN excess risk.
    law_g : int or None, default None
        Cubes per axis of the construction when it is not drawn at the estimator's scale
        (None: ``g``); :mod:`simulations.experiments.rates.upper` uses ``g/2`` and ``2g``.
    benchmark : bool, default False
        Draw from the fixed benchmark law of the task instead (:func:`benchmark_law`).

    References
    ----------
    003 eqs. (36)-(37), (121), (156) (the constructions drawn at ``h = 1/g``).

    Examples
    --------
    >>> pt = RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=100, g=10)
    >>> pt.k is None, pt == RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=100, g=10)
    (True, True)
    """

    algorithm: str
    d: int
    beta: float
    eps: float
    N: int
    g: int
    gamma: float | None = None
    p: float | None = None
    k: int | None = None
    C_M: float | None = None
    M_p: float | None = None
    n_eval: int | None = None
    law_g: int | None = None
    benchmark: bool = False


class AlgorithmFacts:
    """``task``, ``privacy`` and ``kind`` (bins / kNN) of ``self.algorithm``, read off
    :data:`limits.ALGORITHMS` in one place for every case type of the rate experiments.

    A mixin without state: the subclass provides ``algorithm`` (a key of :data:`limits.ALGORITHMS`).

    References
    ----------
    003 Table 1 (task x privacy model cells) and Theorems 2-12 (the algorithms).

    Examples
    --------
    >>> c = RateCase(algorithm="local_regression", d=1, beta=1.0, eps=1.0, n_start=100.0)
    >>> c.task, c.privacy, c.kind
    ('regression', 'local', 'knn')
    """

    __slots__ = ()

    @property
    def task(self) -> str:
        """The task of the algorithm: ``"classification"``, ``"regression"`` or
        ``"regression_heavy_tailed"``.

        Returns
        -------
        str
            ``limits.ALGORITHMS[self.algorithm].task``.

        Examples
        --------
        >>> RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0).task
        'regression'
        """
        return limits.ALGORITHMS[self.algorithm].task

    @property
    def privacy(self) -> str:
        """The privacy model of the algorithm: ``"local"``, ``"central"`` or ``"nonprivate"``.

        Returns
        -------
        str
            ``limits.ALGORITHMS[self.algorithm].privacy``.

        Examples
        --------
        >>> RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0).privacy
        'central'
        """
        return limits.ALGORITHMS[self.algorithm].privacy

    @property
    def kind(self) -> str:
        """How the algorithm localizes: ``"bins"`` (histogram) or ``"knn"``.

        Returns
        -------
        str
            ``limits.ALGORITHMS[self.algorithm].neighbourhood``.

        Examples
        --------
        >>> RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0).kind
        'bins'
        """
        return limits.ALGORITHMS[self.algorithm].neighbourhood


@dataclass(frozen=True, slots=True)
class RateCase(AlgorithmFacts):
    """One curve of a rate experiment: an algorithm on its construction at fixed (d, β, γ/p, ε).

    A frozen record; nothing is validated here (the grid and the trials check what they use).

    Parameters
    ----------
    algorithm : str
        A key of :data:`limits.ALGORITHMS`.
    d : int
        Dimension, >= 1.
    beta : float
        Hölder exponent, > 0.
    eps : float
        Privacy parameter ε > 0.
    n_start : float
        Smallest N of the quick/paper grids (times ``Profile.start_factor``).
    gamma : float or None, default None
        Margin exponent (classification).
    p : float or None, default None
        Moment order (heavy-tailed regression).
    C_M : float or None, default None
        Bump-count constant of 003 eq. (37) (classification).
    M_p : float or None, default None
        p-th moment of the three-point law (heavy tails, 003 eq. (156)-(157)).
    term : str or None, default None
        The Table 1 term whose exponent is the theory (None: the dominant one as N → ∞).
    branch : {None, "privacy"}, default None
        None — the theorem's own tuning of the scale; "privacy" — the bin width pinned to the
        privacy branch of that tuning (e.g. ``h = (εN)^{-1/(d+β)}`` of 003 Theorem 8, ``(ln K/(εN))^{1/(β+d)}``
        of Theorem 4), which isolates the privacy term.
    reference : {"rate", "predicted"}, default "rate"
        "rate" — the claim compares the slope with the Table 1 exponent (and with 003's
        printed one where it differs); "predicted" — with the local slope of the theorem's own
        three-term expected risk (:func:`simulations.experiments.rates.terms.expected_terms`) over
        the same grid (for a two-term tuning whose slope is not a single rate exponent).
    decades : float or None, default None
        Cap on the decades of N of a count-level grid (None: the profile's ``decades_counts``);
        the central cases stop at εN = 10^6, where the non-private share is still below 2%.
    trials_factor : int, default 1
        Multiplies the trials of the case at every profile (:func:`case_trials`), for cells whose
        per-trial risk is so spread that the profile's trials leave a slope CI near the margin band's
        edge, so that the verdict would move with the root seed (e.g. heavy-tailed central cells with
        few atoms ±T per bin at the small-N end; the k-NN cells listed in the seed record,
        ``figures/seed_stability.json``). Set from the spread of the fits over root seeds, never from
        which verdict they gave.

    References
    ----------
    003 Table 1 and Theorems 1-12 (the exponents); eqs. (36)-(37), (121), (156) (the constructions).

    Examples
    --------
    Local classification at d = 1, β = γ = 1: the rate ``(N(ε²∧1))^{-β(γ+1)/(2β+d)}`` has exponent 2/3:

    >>> c = RateCase(algorithm="local_classification", d=1, beta=1.0, gamma=1.0, eps=1.0, n_start=300.0)
    >>> round(c.exponent(), 6), c.theta, c.label
    (0.666667, 2.0, 'local: d=1, β=1, γ=1, ε=1')
    """

    algorithm: str
    d: int
    beta: float
    eps: float
    n_start: float
    gamma: float | None = None
    p: float | None = None
    C_M: float | None = None
    M_p: float | None = None
    term: str | None = None
    branch: str | None = None
    reference: str = "rate"
    decades: float | None = None
    trials_factor: int = 1


    @property
    def label(self) -> str:
        """Short description of the curve for legends, tables and claims.

        Returns
        -------
        str
            ``"<privacy>: d=…, β=…[, γ=…][, p=…], ε=…"`` and the tuning (``[h: privacy branch]`` or
            ``[h: two-term tuning]``) where it is not the theorem's own.

        Examples
        --------
        >>> RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0,
        ...          branch="privacy").label
        'central: d=1, β=1, ε=1 [h: privacy branch]'
        """
        parts = [f"d={self.d}", f"β={self.beta:g}"]
        if self.gamma is not None:
            parts.append(f"γ={self.gamma:g}")
        if self.p is not None:
            parts.append(f"p={self.p:g}")
        parts.append(f"ε={self.eps:g}")
        tuning = {None: "", "privacy": " [h: privacy branch]"}[self.branch]
        if self.reference == "predicted":
            tuning = " [h: two-term tuning]"
        return f"{self.privacy}: " + ", ".join(parts) + tuning

    @property
    def theta(self) -> float:
        """Excess risk ≍ h^θ on the construction: θ = β(γ+1) (classification), 2β (regression).

        Returns
        -------
        float
            θ, from 003 eqs. (42) (classification: ``h^{β(γ+1)}`` per active cube mass) and (126)
            (regression: ``h^{2β}``).

        Examples
        --------
        >>> RateCase(algorithm="local_classification", d=2, beta=0.5, gamma=2.0, eps=1.0, n_start=1.0).theta
        1.5
        >>> RateCase(algorithm="central_regression", d=2, beta=0.5, eps=1.0, n_start=1.0).theta
        1.0
        """
        return self.beta * (self.gamma + 1.0) if self.task == "classification" else 2.0 * self.beta

    def exponent(self, variant: str = "derived") -> float:
        """The rate exponent of the case's cell (and ``term``): excess risk ≍ N^(−exponent).

        Parameters
        ----------
        variant : {"derived", "printed"}, default "derived"
            The re-derived exponent, or 003 Table 1 exactly as printed (:func:`limits.rate_exponent`).

        Returns
        -------
        float
            The exponent, > 0.

        Raises
        ------
        ValueError
            If ``variant`` is not one of the two (raised by :func:`limits.rate_exponent`).

        References
        ----------
        003 Table 1; Theorems 7-8 for the central regression privacy term ``2β/(d+β)``.

        Examples
        --------
        Central regression, privacy term, d = β = 1: ``2β/(d+β) = 1`` derived, ``2β/(d+2β) = 2/3`` printed:

        >>> c = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy")
        >>> c.exponent(), round(c.exponent("printed"), 6)
        (1.0, 0.666667)
        """
        return limits.rate_exponent(self.task, self.privacy, beta=self.beta, d=self.d, gamma=self.gamma,
                                    p=self.p, term=self.term, variant=variant)

    def printed_exponent(self) -> float | None:
        """003's printed exponent where it differs from the derived one (else None).

        Returns
        -------
        float or None
            ``exponent("printed")``, or None when it equals ``exponent()`` (to 1e-12).

        References
        ----------
        003 Table 1 (as printed) against Theorems 7-8 (see :mod:`limits.rates`).

        Examples
        --------
        >>> c = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy")
        >>> round(c.printed_exponent(), 6)   # 2β/(d+2β) at d = β = 1
        0.666667
        >>> print(RateCase(algorithm="local_regression", d=1, beta=1.0, eps=1.0, n_start=100.0).printed_exponent())
        None
        """
        e = self.exponent("printed")
        return None if abs(e - self.exponent()) < 1e-12 else e

    def source(self) -> str:
        """Where 003 states the case's rate: the theorems and equations of its Table 1 cell.

        Returns
        -------
        str
            ``limits.cell(task, privacy).source``.

        Examples
        --------
        >>> RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0).source()
        '003 Theorems 7-8, eq. (22), (24)'
        """
        return limits.cell(self.task, self.privacy).source
