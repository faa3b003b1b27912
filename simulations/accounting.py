"""A per-label ledger of label-DP releases: which labels each release touches, and their totals.

Several pipelines of the papers release labels more than once (004 Algorithm 3's stages, Algorithm 4's
histogram then RRWithPrior, 001 Algorithm 5's two histograms, hold-out selection, RR-released
validation labels). A :class:`Ledger` records each :class:`Release` with the labels it touches:

* ``part="all"``: every label (e.g. a histogram of all labels);
* ``part="<name>"``: a named part of the labels; parts of different names are **disjoint** by
  declaration (LP-MST's stages, a carved validation split);
* ``part="none"``: no label (a release of the public features only, e.g. 001 Algorithm 5's count
  histogram ĉ under label DP).

Label-DP neighbours differ in one label (docs/design.md, *Exactness and the privacy checks*), so the
releases one label sees are the ``"all"`` releases and those of its own part: the total **per label**
is their sequential composition, and the ledger's total is the largest over the parts (parallel
composition: disjoint parts add nothing to each other).

Two totals:

* **basic** composition: ``(Σ ε, Σ δ)`` over the releases one label sees, the maximum over parts;
* **tight**: the privacy profile ``δ(ε')`` (hockey-stick divergence) of the composed releases, and its
  inverse ``ε(δ)``. Each release contributes, for a pair of neighbouring labels (y, y'), a pair of
  output distributions (P, Q):

  - an exact finite channel ``M`` (``channel_matrix()`` of :mod:`simulations.mechanisms`: randomized
    response, RRWithPrior under a *fixed* prior, the vector mechanism): ``(M[y], M[y'])``. The same
    label changes in every release, so the composed pair is the product of the rows of one (y, y')
    and the ledger takes the maximum over the ordered pairs **after** composing: exact for fixed
    channels, no single dominating pair is assumed (one may not exist);
  - a release known only to be (ε, δ)-label DP (RRWithPrior whose prior depends on the data, an
    exponential mechanism, a stability histogram): the pair of 4 outcomes
    ``P = (δ, (1-δ)e^ε/(1+e^ε), (1-δ)/(1+e^ε), 0)``, ``Q`` reversed, which dominates every
    (ε, δ)-DP pair (Kairouz, Oh and Viswanath 2015); for δ = 0 it is binary randomized response. This is
    exact for RRWithPrior over all priors: a prior on two labels makes k* = 2, binary RR(ε) itself;
  - a discrete Laplace count (004 Algorithm 4: ``dlaplace(a)``, each shifted count by ``s``): the
    privacy loss takes finitely many values (constant beyond the shift), an exact finite pair; shift 1
    is binary RR at ε = a;
  - a Laplace release (scale b, shift Δ): the continuous pair, dp_accounting's closed form.

  With dp_accounting installed (``pip install -e '.[accounting]'``) each pair becomes a privacy-loss
  distribution (``from_two_probability_mass_functions``, ``from_laplace_mechanism``), composed by FFT;
  its pessimistic discretization (interval :func:`discretization` of the smallest ε) makes δ an upper
  bound within about ``interval x`` (number of releases). Without it, or with ``method="exact"``, the
  finite pairs are composed by exact convolution of their loss values (small cases only).

Where the label-level structure goes beyond what dp_accounting models (it composes mechanisms of one
neighbouring pair; it has no notion of which labels a release reads):

* parallel composition over disjoint label parts (the max over parts is taken here, not there);
* releases that read no label (``"none"``) cost nothing per label;
* data-dependent channels: RRWithPrior's prior in LP-MST stage t is computed from the *other*
  labels, those of stages < t (disjoint), so for one label it is a fixed channel chosen by data the
  label does not touch: the label sees one ε-DP release (004 Observation 4). When a prior depends on
  the *same* label (004 Algorithm 4: the cluster histogram includes it) the composition is adaptive
  and sequential; the dominating pair of each step then bounds it (composition of dominating pairs
  is valid under adaptivity), as the ledger does with :meth:`Release.dp`.

Continuous noise is in idealized real arithmetic, as everywhere in the suite.

References: 004 Algorithm 3, Observation 4, Algorithm 4; 001 Algorithm 5, Theorem A.14 (basic
composition); 001 Definition 1.1 (the hockey-stick form of (ε, δ)-DP); docs/notes/accounting.md.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from limits.validation import check_choice, check_int, check_positive, check_probability, check_real

__all__ = ["ALL", "DELTA", "INSTALL_HINT", "Ledger", "NONE", "Release", "discretization", "load_dp_accounting"]

ALL = "all"
NONE = "none"
#: the δ at which ledgers report a tight ε (results.json, REPORT.md)
DELTA = 1e-5
INSTALL_HINT = "dp_accounting is not installed: pip install -e '.[accounting]' (or pip install 'dp_accounting>=0.4')"
_KINDS = ("dp", "channel", "laplace", "discrete_laplace")
_ROUND = 12  # decimals of loss values merged by the exact convolution


def load_dp_accounting():
    """Import dp_accounting's PLD module lazily, with the install line when it is missing.

    Returns
    -------
    module
        ``dp_accounting.pld.privacy_loss_distribution``.

    Raises
    ------
    ImportError
        If dp_accounting is not installed; the message says how to install it (:data:`INSTALL_HINT`).

    References
    ----------
    docs/notes/accounting.md (where dp_accounting applies).

    Examples
    --------
    >>> hasattr(load_dp_accounting(), "from_two_probability_mass_functions")  # doctest: +SKIP
    True
    """
    try:
        return importlib.import_module("dp_accounting.pld.privacy_loss_distribution")
    except ImportError as err:
        raise ImportError(INSTALL_HINT) from err


def discretization(epsilons) -> float:
    """The PLD discretization interval: 1e-4, or 1/1000 of the smallest positive ε if that is smaller.

    Parameters
    ----------
    epsilons : iterable of float
        The releases' ε (zeros and infinities ignored).

    Returns
    -------
    float
        The interval; a release of ε = 1e-8 then spans 2000 buckets rather than rounding to one.

    References
    ----------
    003 Theorems 4, 8 at ε = 1e-7 (rates_data_driven's central budgets).

    Examples
    --------
    >>> discretization([1.0, 2.0]), float(f"{discretization([1e-7, 0.0]):.6g}")
    (0.0001, 1e-10)
    """
    small = [float(e) for e in epsilons if 0 < float(e) < math.inf]
    return min([1e-4] + [e / 1000 for e in small])


@dataclass(frozen=True, slots=True)
class Release:
    r"""One release of labels: its guarantee, the labels it touches and, where known, its exact pair.

    Build it with one of the constructors (:meth:`dp`, :meth:`from_channel`, :meth:`from_mechanism`,
    :meth:`laplace`, :meth:`discrete_laplace`), which fill ``kind`` and the parameters.

    Parameters
    ----------
    name : str
        What is released (shown in reports).
    epsilon : float >= 0
        Its label-DP ε (``inf`` allowed for a channel whose support moves).
    delta : float in [0, 1], default 0
        Its δ.
    part : str, default "all"
        The labels it touches: ``"all"``, ``"none"`` or the name of a disjoint part.
    kind : {"dp", "channel", "laplace", "discrete_laplace"}, default "dp"
        How its exact pair is known (module docstring).
    channel : tuple of tuple of float, default ()
        ``kind="channel"``: the rows P(z | y), shape (K, n_outputs).
    noise : float, default 0
        ``"laplace"``: the scale b; ``"discrete_laplace"``: the parameter a (pmf ∝ e^{-a|k|}).
    shifts : tuple of float, default ()
        ``"laplace"``: (Δ,); ``"discrete_laplace"``: the integer shift of each noisy count a change of
        one label moves (a histogram: (1, 1), one unit leaves a count and joins another).

    Raises
    ------
    ValueError
        If ``kind`` is unknown, ε < 0 or δ not in [0, 1].

    References
    ----------
    004 eq. (1), Algorithms 2 and 4; 001 Algorithm 1; 001 Definition 1.1.

    Examples
    --------
    >>> r = Release.dp("RRWithPrior, data-dependent prior", 1.0, part="stage 2")
    >>> r.kind, r.epsilon, r.delta, r.part
    ('dp', 1.0, 0.0, 'stage 2')
    >>> Release("x", -1.0)
    Traceback (most recent call last):
    ...
    ValueError: epsilon must be >= 0, got epsilon=-1.0
    """

    name: str
    epsilon: float
    delta: float = 0.0
    part: str = ALL
    kind: str = "dp"
    channel: tuple = ()
    noise: float = 0.0
    shifts: tuple = ()

    def __post_init__(self):
        check_choice("kind", self.kind, _KINDS)
        if not (isinstance(self.epsilon, (int, float)) and float(self.epsilon) >= 0):
            raise ValueError(f"epsilon must be >= 0, got epsilon={self.epsilon}")
        check_probability("delta", self.delta, allow_one=True)
        if not isinstance(self.part, str) or not self.part:
            raise ValueError(f"part must be a non-empty string, got part={self.part!r}")

    # ----------------------------------------------------------------------------------- constructors
    @classmethod
    def dp(cls, name: str, epsilon: float, delta: float = 0.0, *, part: str = ALL) -> "Release":
        """A release known only to be (ε, δ)-label DP; its tight pair is the dominating one of 4 outcomes.

        Parameters
        ----------
        name : str
            What is released.
        epsilon : float >= 0
            Its ε.
        delta : float in [0, 1], default 0
            Its δ.
        part : str, default "all"
            The labels it touches.

        Returns
        -------
        Release
            ``kind="dp"``.

        References
        ----------
        004 Algorithm 2 (RRWithPrior is ε-DP for every prior); 001 Theorem 2.4 (stability histogram).

        Examples
        --------
        >>> Release.dp("stability histogram ŷ", 1.0, 1e-6).delta
        1e-06
        """
        return cls(name, float(check_real("epsilon", epsilon, low=0.0)), float(delta), part)

    @classmethod
    def from_channel(cls, name: str, channel, *, part: str = ALL) -> "Release":
        r"""A release through an exact finite channel P(z | y) (a fixed, label-independent channel).

        Parameters
        ----------
        name : str
            What is released.
        channel : array_like, shape (K, n_outputs)
            Rows are output distributions (non-negative, summing to 1), K >= 2.
        part : str, default "all"
            The labels it touches.

        Returns
        -------
        Release
            ``kind="channel"``, ε the largest :math:`|\ln M[y,z] - \ln M[y',z]|` (0/0 ignored, p/0
            infinite).

        Raises
        ------
        ValueError
            If the channel is not a row-stochastic matrix with at least 2 rows.

        References
        ----------
        004 eq. (1) (randomized response's channel).

        Examples
        --------
        Binary randomized response at :math:`e^\varepsilon = 3`:

        >>> round(Release.from_channel("RR", [[0.75, 0.25], [0.25, 0.75]]).epsilon, 12) == round(math.log(3), 12)
        True
        """
        M = np.asarray(channel, dtype=float)
        if M.ndim != 2 or M.shape[0] < 2 or not np.all(np.isfinite(M)) or M.min() < 0 \
                or not np.allclose(M.sum(axis=1), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"channel must be a row-stochastic matrix with >= 2 rows, got shape {M.shape}")
        with np.errstate(divide="ignore"):
            L = np.log(M)
        eps = 0.0
        for y, y2 in permutations(range(M.shape[0]), 2):
            live = M[y] > 0
            gap = np.where(M[y2][live] > 0, L[y][live] - L[y2][live], np.inf)
            eps = max(eps, float(gap.max()) if gap.size else 0.0)
        return cls(name, eps, 0.0, part, "channel", tuple(map(tuple, M.tolist())))

    @classmethod
    def from_mechanism(cls, name: str, mechanism, prior=None, *, part: str = ALL) -> "Release":
        """A release by one of :mod:`simulations.mechanisms`' local randomizers.

        A mechanism whose ``channel_matrix()`` takes no argument (RR, the vector mechanism) or one given
        a fixed ``prior`` (RRWithPrior, RRTop-k) gives an exact channel; a prior-dependent mechanism
        without ``prior`` (the prior is computed from data) gives :meth:`dp` at its ε, whose pair (binary
        RR) is the worst case over all priors.

        Parameters
        ----------
        name : str
            What is released.
        mechanism : object
            Has ``epsilon`` and ``channel_matrix()`` (or ``channel_matrix(prior)``).
        prior : array_like of shape (K,), optional
            A fixed prior (public, or computed from labels this label does not touch).
        part : str, default "all"
            The labels it touches.

        Returns
        -------
        Release
            ``kind="channel"`` or ``"dp"``.

        References
        ----------
        004 eq. (1), Algorithms 1-2; 000 eq. (12)-(13).

        Examples
        --------
        >>> from simulations.mechanisms import RandomizedResponse, RRWithPrior
        >>> Release.from_mechanism("RR", RandomizedResponse(3, 1.0)).kind
        'channel'
        >>> Release.from_mechanism("RRWithPrior", RRWithPrior(3, 1.0)).kind
        'dp'
        """
        if prior is not None:
            return cls.from_channel(name, mechanism.channel_matrix(prior), part=part)
        try:
            M = mechanism.channel_matrix()
        except TypeError:  # needs a prior, computed from data: the worst case over priors
            return cls.dp(name, float(mechanism.epsilon), part=part)
        return cls.from_channel(name, M, part=part)

    @classmethod
    def laplace(cls, name: str, scale: float, shifts=(1.0,), *, part: str = ALL) -> "Release":
        """Laplace noise of scale b on each released coordinate; one label's change shifts coordinate j by ``shifts[j]``.

        Parameters
        ----------
        name : str
            What is released.
        scale : float > 0
            The Laplace scale b.
        shifts : tuple of float > 0, default (1.0,)
            The shifts one label's change causes (a one-hot label: (1, 1); a label in [-T, T]: (2T,)).
        part : str, default "all"
            The labels it touches.

        Returns
        -------
        Release
            ``kind="laplace"``, ε = Σ shifts / b.

        References
        ----------
        003 Theorems 6, 10 (Laplace label noise); ALIBI's Laplace on the one-hot label.

        Examples
        --------
        >>> Release.laplace("Lap(2T/ε) labels, T = 1, ε = 1", scale=2.0, shifts=(2.0,)).epsilon
        1.0
        """
        b = check_positive("scale", scale)
        sh = tuple(check_positive("shifts", float(s)) for s in shifts)
        return cls(name, sum(sh) / b, 0.0, part, "laplace", (), b, sh)

    @classmethod
    def discrete_laplace(cls, name: str, a: float, shifts=(1, 1), *, part: str = ALL) -> "Release":
        """Discrete Laplace counts: noise pmf ∝ e^{-a|k|}; one label's change shifts count j by ``shifts[j]``.

        Parameters
        ----------
        name : str
            What is released.
        a : float > 0
            The parameter (scipy's ``dlaplace`` shape; 004 Algorithm 4 uses a = ε_p / 2).
        shifts : tuple of int >= 1, default (1, 1)
            The shifted counts; a label histogram: one count loses a unit, another gains one.
        part : str, default "all"
            The labels it touches.

        Returns
        -------
        Release
            ``kind="discrete_laplace"``, ε = a Σ shifts.

        References
        ----------
        004 Algorithm 4 step (b).

        Examples
        --------
        >>> Release.discrete_laplace("cluster histograms", a=0.25).epsilon
        0.5
        """
        a = check_positive("a", a)
        sh = tuple(check_int("shifts", int(s), low=1) for s in shifts)
        return cls(name, a * sum(sh), 0.0, part, "discrete_laplace", (), a, sh)

    # ----------------------------------------------------------------------------------- pairs
    def pairs(self) -> list[tuple[np.ndarray, np.ndarray]] | None:
        """The finite output distributions (P, Q) of one neighbouring pair, one per ordered label pair.

        Returns
        -------
        list of (ndarray, ndarray) or None
            A channel: one (M[y], M[y']) per ordered pair y != y' (in ``permutations`` order); the other
            finite kinds: one pair (the same for every label pair); ``None`` for Laplace (continuous).

        References
        ----------
        004 eq. (1); module docstring (the dominating pair of an (ε, δ) release).

        Examples
        --------
        A pure ε release is binary randomized response at ε:

        >>> P, Q = Release.dp("x", math.log(3)).pairs()[0]
        >>> np.round(P, 12).tolist(), np.round(Q, 12).tolist()
        ([0.0, 0.75, 0.25, 0.0], [0.0, 0.25, 0.75, 0.0])
        """
        if self.kind == "channel":
            M = np.asarray(self.channel)
            return [(M[y], M[y2]) for y, y2 in permutations(range(M.shape[0]), 2)]
        if self.kind == "dp":
            e, d = self.epsilon, self.delta
            hi = (1 - d) / (1 + math.exp(-e))  # (1-δ) e^ε/(1+e^ε), stable for large ε
            lo = (1 - d) - hi
            return [(np.array([d, hi, lo, 0.0]), np.array([0.0, lo, hi, d]))]
        if self.kind == "discrete_laplace":
            P, Q = np.ones(1), np.ones(1)
            for s in self.shifts:
                p, q = _dlaplace_pair(self.noise, int(s))
                P, Q = np.outer(P, p).ravel(), np.outer(Q, q).ravel()
            return [(P, Q)]
        return None

    def pld(self, interval: float) -> list:
        """dp_accounting privacy-loss distributions of the pairs of :meth:`pairs` (Laplace: its closed form).

        Parameters
        ----------
        interval : float > 0
            The value discretization interval (pessimistic rounding).

        Returns
        -------
        list of dp_accounting PrivacyLossDistribution
            One per entry of :meth:`pairs` (one for Laplace).

        Raises
        ------
        ImportError
            If dp_accounting is missing.

        References
        ----------
        001 Definition 1.1 (the hockey stick the PLD evaluates).

        Examples
        --------
        >>> pld = Release.dp("x", 1.0).pld(1e-4)[0]  # doctest: +SKIP
        >>> round(pld.get_delta_for_epsilon(0.0), 4)  # doctest: +SKIP
        0.4621
        """
        lib = load_dp_accounting()
        if self.kind == "laplace":
            out = None
            for sh in self.shifts:
                f = lib.from_laplace_mechanism(self.noise, sensitivity=sh, value_discretization_interval=interval)
                out = f if out is None else out.compose(f)
            return [out]
        return [_pair_pld(P, Q, interval) for P, Q in self.pairs()]


def _dlaplace_pair(a: float, s: int) -> tuple[np.ndarray, np.ndarray]:
    """(P, Q) of dlaplace(a) noise at 0 vs at s, outcomes grouped where the loss is constant:
    k <= 0, k = 1..s-1, k >= s. P(Z <= 0) = 1/(1+r), P(Z = k) = (1-r)/(1+r) r^|k|, r = e^{-a}."""
    r = math.exp(-a)
    head = 1 / (1 + r)  # P(Z <= 0) = P(Z >= 0)
    mid = np.array([(1 - r) / (1 + r) * r ** k for k in range(1, s)])
    P = np.concatenate([[head], mid, [head * r ** s]])
    return P, P[::-1].copy()


# ------------------------------------------------------------------------------------- exact convolution
def _finite_pld(P: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(loss values, P-masses, P-mass where Q = 0) of a finite pair, equal losses merged."""
    live = (P > 0) & (Q > 0)
    inf_mass = float(P[(P > 0) & (Q == 0)].sum())
    loss = np.round(np.log(P[live]) - np.log(Q[live]), _ROUND)
    vals, inv = np.unique(loss, return_inverse=True)
    return vals, np.bincount(inv, weights=P[live], minlength=vals.size), inf_mass


def _pair_key(P: np.ndarray, Q: np.ndarray) -> tuple:
    """(P, Q) up to a relabelling of the outputs (the hockey stick and the PLD do not see labels)."""
    return tuple(sorted(zip(np.round(P, 14).tolist(), np.round(Q, 14).tolist())))


def _pair_pld(P: np.ndarray, Q: np.ndarray, interval: float):
    lib = load_dp_accounting()
    with np.errstate(divide="ignore"):
        upper = {i: float(v) for i, v in enumerate(np.log(P)) if P[i] > 0}
        lower = {i: float(v) for i, v in enumerate(np.log(Q)) if Q[i] > 0}
    return lib.from_two_probability_mass_functions(lower, upper, value_discretization_interval=interval)


def _compose_finite(a, b):
    la, pa, ia = a
    lb, pb, ib = b
    loss = np.round((la[:, None] + lb[None, :]).ravel(), _ROUND)
    vals, inv = np.unique(loss, return_inverse=True)
    return vals, np.bincount(inv, weights=np.outer(pa, pb).ravel(), minlength=vals.size), 1 - (1 - ia) * (1 - ib)


def _finite_delta(pld, eps) -> float:
    vals, p, inf_mass = pld
    return float(inf_mass + np.sum(p * np.maximum(0.0, -np.expm1(eps - vals))))


@dataclass(frozen=True, slots=True)
class Ledger:
    """The releases of one pipeline and the per-label totals they compose to.

    Parameters
    ----------
    releases : tuple of Release, default ()
        In release order.
    name : str, default ""
        The pipeline (shown in reports).

    References
    ----------
    004 Algorithm 3, Observation 4 (parallel composition over stages), Algorithm 4 (sequential);
    001 Algorithm 5, Theorem A.14; module docstring.

    Examples
    --------
    LP-2ST (004 Algorithm 3): RR on stage 1, RRWithPrior on stage 2, RR on a carved validation split;
    three disjoint parts, so each label sees one ε release:

    >>> led = Ledger(name="LP-2ST").record(Release.dp("RR", 1.0, part="stage 1"),
    ...                                    Release.dp("RRWithPrior", 1.0, part="stage 2"),
    ...                                    Release.dp("validation RR", 1.0, part="validation"))
    >>> led.composition, led.basic()
    ('parallel', (1.0, 0.0))
    >>> Ledger().record(Release.dp("a", 0.5), Release.dp("b", 0.25)).basic()
    (0.75, 0.0)
    """

    releases: tuple = ()
    name: str = ""

    def record(self, *releases: Release) -> "Ledger":
        """A ledger with ``releases`` appended.

        Parameters
        ----------
        *releases : Release
            The releases, in order.

        Returns
        -------
        Ledger
            A new ledger (this one is frozen).

        Raises
        ------
        TypeError
            If an argument is not a :class:`Release`.

        Examples
        --------
        >>> len(Ledger().record(Release.dp("a", 1.0)).releases)
        1
        """
        for r in releases:
            if not isinstance(r, Release):
                raise TypeError(f"releases must be Release objects, got {type(r).__name__}")
        return Ledger(self.releases + tuple(releases), self.name)

    @property
    def parts(self) -> tuple[str, ...]:
        """The named (disjoint) parts, in order of first release.

        Returns
        -------
        tuple of str
            Neither ``"all"`` nor ``"none"``.

        Examples
        --------
        >>> Ledger().record(Release.dp("a", 1, part="x"), Release.dp("b", 1), Release.dp("c", 1, part="x")).parts
        ('x',)
        """
        return tuple(dict.fromkeys(r.part for r in self.releases if r.part not in (ALL, NONE)))

    def groups(self) -> dict[str, tuple[Release, ...]]:
        """The releases each label sees, per part: that part's and the ``"all"`` ones.

        Returns
        -------
        dict of str to tuple of Release
            ``{part: releases}``; with no named part, ``{"all": the "all" releases}``.

        Examples
        --------
        >>> g = Ledger().record(Release.dp("h", 1), Release.dp("a", 1, part="x"), Release.dp("c", 1, part=NONE)).groups()
        >>> {k: [r.name for r in v] for k, v in g.items()}
        {'x': ['h', 'a']}
        """
        common = tuple(r for r in self.releases if r.part == ALL)
        if not self.parts:
            return {ALL: common}
        return {p: common + tuple(r for r in self.releases if r.part == p) for p in self.parts}

    @property
    def composition(self) -> str:
        """How the releases compose per label.

        Returns
        -------
        str
            ``"none"`` (no release touches a label), ``"single"``, ``"sequential"`` (one label sees
            several), ``"parallel"`` (several disjoint parts, one release each) or ``"parallel and
            sequential"``.

        Examples
        --------
        >>> Ledger().record(Release.dp("a", 1), Release.dp("b", 1)).composition
        'sequential'
        """
        sizes = [len(v) for v in self.groups().values()]
        if not sizes or max(sizes) == 0:
            return "none"
        seq, par = max(sizes) > 1, len(sizes) > 1
        return "parallel and sequential" if seq and par else "sequential" if seq else "parallel" if par else "single"

    def basic(self) -> tuple[float, float]:
        """Basic composition per label: the largest (Σ ε, Σ δ) over the parts.

        Returns
        -------
        (float, float)
            (ε, δ); each is the maximum over parts (together an upper bound for every label).

        References
        ----------
        001 Theorem A.14's proof (composition of two (ε, δ) histograms).

        Examples
        --------
        >>> Ledger().record(Release.dp("a", 1, 1e-6), Release.dp("b", 1, 1e-6)).basic()
        (2.0, 2e-06)
        """
        sums = [(math.fsum(r.epsilon for r in v), math.fsum(r.delta for r in v)) for v in self.groups().values()]
        return (max(e for e, _ in sums), max(d for _, d in sums)) if sums else (0.0, 0.0)

    def _method(self, method: str) -> str:
        check_choice("method", method, ("auto", "pld", "exact"))
        if method != "auto":
            return method
        try:
            load_dp_accounting()
        except ImportError:
            return "exact"
        return "pld"

    def _composed(self, method: str) -> list:
        """Per part and per distinct ordered label pair: the composed PLD (dp_accounting or exact finite)."""
        out = []
        interval = discretization(r.epsilon for r in self.releases)
        for rel in self.groups().values():
            if not rel:
                continue
            channels = {len(r.channel) for r in rel if r.kind == "channel"}
            if len(channels) > 1:
                raise ValueError(f"channel releases of one part must share the label alphabet, got K in {sorted(channels)}")
            pairs = [r.pairs() for r in rel]
            if method == "exact":
                for r, pr in zip(rel, pairs):
                    if pr is None:
                        raise ValueError(f"release {r.name!r} ({r.kind}) has no finite pair: use method='pld' "
                                         "(dp_accounting)")
            # one key per pair: its (P, Q) values up to output relabelling; equal keys compose alike
            keys = [[None] if pr is None else [_pair_key(P, Q) for P, Q in pr] for pr in pairs]
            n_pairs = max(len(k) for k in keys)
            combos = dict.fromkeys(tuple((i if len(k) > 1 else 0) for k in keys) for i in range(n_pairs))
            combos = {tuple(keys[j][c[j]] for j in range(len(rel))): c for c in combos}
            cache: dict = {}

            def factor(j, i):
                if (j, i) not in cache:
                    cache[(j, i)] = (_finite_pld(*pairs[j][i]) if method == "exact"
                                     else rel[j].pld(interval)[i] if pairs[j] is None or len(pairs[j]) == 1
                                     else _pair_pld(*pairs[j][i], interval))
                return cache[(j, i)]

            for c in combos.values():
                acc = factor(0, c[0])
                for j in range(1, len(rel)):
                    f = factor(j, c[j])
                    acc = _compose_finite(acc, f) if method == "exact" else acc.compose(f)
                out.append(acc)
        return out

    def delta(self, epsilon: float, *, method: str = "auto") -> float:
        """The tight δ(ε') per label: the largest hockey stick over parts and neighbouring label pairs.

        Parameters
        ----------
        epsilon : float >= 0
            ε'.
        method : {"auto", "pld", "exact"}, default "auto"
            ``"pld"``: dp_accounting (pessimistic, an upper bound within its discretization);
            ``"exact"``: exact convolution of the finite pairs; ``"auto"``: pld if installed.

        Returns
        -------
        float
            δ(ε') in [0, 1].

        Raises
        ------
        ValueError
            If ``epsilon`` < 0, or ``"exact"`` meets a Laplace release.
        ImportError
            If ``"pld"`` is asked and dp_accounting is missing.

        References
        ----------
        001 Definition 1.1; module docstring (pairs).

        Examples
        --------
        Two binary RR releases at ε = ln 3 of one label: the loss is ±2 ln 3 or 0, so at ε' = ln 3
        δ = P(loss = 2 ln 3) (1 - 3/9) = (9/16)(2/3) = 3/8:

        >>> led = Ledger().record(Release.dp("a", math.log(3)), Release.dp("b", math.log(3)))
        >>> round(led.delta(math.log(3), method="exact"), 12)
        0.375
        """
        eps = check_real("epsilon", epsilon, low=0.0)
        m = self._method(method)
        plds = self._composed(m)
        if not plds:
            return 0.0
        if m == "exact":
            return max(_finite_delta(p, eps) for p in plds)
        return float(max(p.get_delta_for_epsilon(eps) for p in plds))

    def epsilon(self, delta: float = DELTA, *, method: str = "auto") -> float:
        """The tight ε(δ) per label: the smallest ε' >= 0 with δ(ε') <= δ.

        Parameters
        ----------
        delta : float in [0, 1), default :data:`DELTA`
            The target δ.
        method : {"auto", "pld", "exact"}, default "auto"
            As :meth:`delta` (``"exact"`` inverts the exact curve by bisection to 1e-12).

        Returns
        -------
        float
            ε(δ); ``inf`` if no finite ε' reaches δ. With ``"pld"`` the smaller of dp_accounting's
            (pessimistic) value and the basic ε when the basic δ is at most ``delta``: both are upper bounds.

        Raises
        ------
        ValueError
            If ``delta`` is not in [0, 1).

        References
        ----------
        001 Definition 1.1.

        Examples
        --------
        A hundred binary RR releases at ε = 0.1: basic composition says 10; the loss is
        0.1 (2B - 100) with B ~ Bin(100, e^0.1/(1 + e^0.1)), whose δ(ε') reaches 1e-5 at
        ε' = 4.30679137... (mpmath root of the binomial sum; tests/simulations/test_accounting.py):

        >>> led = Ledger().record(*[Release.dp(f"RR {i}", 0.1) for i in range(100)])
        >>> led.basic()[0], round(led.epsilon(1e-5, method="exact"), 9)
        (10.0, 4.306791373)
        """
        d = check_probability("delta", delta)
        m = self._method(method)
        plds = self._composed(m)
        if not plds:
            return 0.0
        if m == "pld":
            # two upper bounds: the pessimistic PLD's and, where its δ fits, basic composition's
            e_basic, d_basic = self.basic()
            tight = float(max(max(p.get_epsilon_for_delta(d), 0.0) for p in plds))
            return min(tight, e_basic) if d_basic <= d else tight
        out = 0.0
        for p in plds:
            vals, _, inf_mass = p
            if inf_mass > d:
                return math.inf
            lo, hi = 0.0, float(max(vals.max(), 0.0))
            if _finite_delta(p, lo) <= d:
                continue
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if _finite_delta(p, mid) <= d else (mid, hi)
                if hi - lo < 1e-13:
                    break
            out = max(out, hi)
        return out

    def to_json(self, delta: float = DELTA) -> dict:
        """The ledger's totals as written to ``results.json`` (key ``"privacy"``).

        Parameters
        ----------
        delta : float, default :data:`DELTA`
            The δ of the tight ε.

        Returns
        -------
        dict
            ``name``, ``composition``, ``epsilon`` and ``delta`` (basic), ``tight_delta`` and
            ``tight_epsilon`` (at that δ; ``None`` when no method can compute it here), ``method``,
            and ``releases`` (name, part, ε, δ, kind).

        References
        ----------
        docs/notes/accounting.md.

        Examples
        --------
        >>> j = Ledger(name="RR").record(Release.dp("RR", 1.0)).to_json()
        >>> j["composition"], j["epsilon"], j["releases"][0]["part"]
        ('single', 1.0, 'all')
        """
        e, d = self.basic()
        m = self._method("auto")
        try:
            tight = self.epsilon(delta, method=m) if d < delta else None
        except ValueError:  # a Laplace release without dp_accounting
            tight = None
        return {"name": self.name, "composition": self.composition, "epsilon": e, "delta": d,
                "tight_delta": delta if tight is not None else None,
                "tight_epsilon": None if tight is None else float(f"{tight:.6g}"), "method": m,
                "releases": [{"name": r.name, "part": r.part, "epsilon": r.epsilon, "delta": r.delta, "kind": r.kind}
                             for r in self.releases]}

    def summary(self, delta: float = DELTA) -> str:
        """One line: composition, basic (ε, δ) and the tight ε at δ.

        Parameters
        ----------
        delta : float, default :data:`DELTA`
            The δ of the tight ε.

        Returns
        -------
        str
            For example ``"LP-2ST: parallel over 3 parts, ε = 1 (basic), 1 at δ = 1e-05 (tight)"``.

        Examples
        --------
        >>> Ledger(name="RR").record(Release.dp("RR", 1.0)).summary()
        'RR: single release, ε = 1, δ = 0 (basic); ε = 1 at δ = 1e-05 (tight)'
        """
        return summary_line(self.to_json(delta))


def summary_line(record: dict) -> str:
    """The one-line summary of a ledger's ``to_json`` record (also of one read back from results.json).

    Parameters
    ----------
    record : dict
        As returned by :meth:`Ledger.to_json`.

    Returns
    -------
    str
        Name, composition, basic (ε, δ), tight ε at δ where computed.

    Examples
    --------
    >>> summary_line({"name": "x", "composition": "sequential", "epsilon": 2.0, "delta": 0.0,
    ...               "tight_epsilon": 1.9, "tight_delta": 1e-5, "releases": [{}, {}]})
    'x: sequential over 2 releases, ε = 2, δ = 0 (basic); ε = 1.9 at δ = 1e-05 (tight)'
    """
    comp = record["composition"]
    n = len(record.get("releases", ()))
    parts = len({r.get("part") for r in record.get("releases", ()) if r.get("part") not in (ALL, NONE)})
    how = {"single": "single release", "sequential": f"sequential over {n} releases",
           "parallel": f"parallel over {parts} disjoint parts",
           "parallel and sequential": f"parallel over {parts} disjoint parts, sequential within"}.get(comp, comp)
    line = f"{record['name']}: {how}, ε = {record['epsilon']:.4g}, δ = {record['delta']:.3g} (basic)"
    if record.get("tight_epsilon") is not None:
        line += f"; ε = {record['tight_epsilon']:.4g} at δ = {record['tight_delta']:.3g} (tight)"
    return line
