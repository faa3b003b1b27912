r"""A mechanism advisor: closed-form utility proxies of the local label-DP mechanisms, and a recommendation.

Given K classes, the budget ε, the training size N and a prior (or only one top-k miss rate),
:func:`advise` returns, per mechanism, exact utility proxies and recommends one for a use case:

* **keep probability** (label-output mechanisms): K-ary randomized response keeps the label with
  probability :math:`e^\varepsilon/(e^\varepsilon + K - 1)` (004 eq. (1)); RRWithPrior with
  :math:`\max_k w_k`, :math:`w_k = e^\varepsilon/(e^\varepsilon + k - 1)\cdot\sum_{y \in Y_k} p_y`
  (004 Algorithm 2), the optimum of LP1 over every ε-DP label randomizer (004 Theorem 3);
* **debiased noise-to-signal** (mechanisms whose reports are averaged, e.g. by a kNN, 000 eq. (29)):
  a report's statistic :math:`T_j` (the bit :math:`Z(j)` of a vector mechanism, :math:`1(Z = j)` of RR) has
  mean :math:`b + (a - b)\eta_j` (000 eq. (24) for the symmetric mechanism; the same algebra for any
  channel with :math:`P(T_j = 1 \mid Y = j) = a`, :math:`P(T_j = 1 \mid Y \ne j) = b`), so
  :math:`\hat\eta_j = (T_j - b)/(a - b)` is unbiased for :math:`\eta_j`. Its covariance (derived here,
  checked by enumeration in ``tests/limits/test_advisor.py``), with :math:`c = a - b` and
  :math:`q = b + c\eta`:

  - bit vectors (bits independent given Y): :math:`\Sigma = \mathrm{diag}(b(1-b)/c^2 + \eta(1-2b)/c) -
    \eta\eta^\top` (the off-diagonal :math:`-c^2\eta_j\eta_l` of the raw bits divides to :math:`-\eta_j\eta_l`);
  - RR (one-hot of one label): :math:`\Sigma = (\mathrm{diag}(q) - qq^\top)/c^2`.

  The noise-to-signal of a mechanism is the standard deviation of one report's debiased contrast
  :math:`\hat\eta_j - \hat\eta_l` between the two classes a decision is about (the raw contrast's standard
  deviation over its slope c): an average of k reports has it over √k, the same signal
  :math:`\eta_j - \eta_l` for every mechanism. Its square, the contrast variance
  :math:`\Sigma_{jj} + \Sigma_{ll} - 2\Sigma_{jl}`:

  - RR (004 eq. (1): :math:`a = e^\varepsilon/(e^\varepsilon+K-1)`, :math:`b = 1/(e^\varepsilon+K-1)`):
    :math:`(q_j + q_l - (q_j - q_l)^2)/c^2`;
  - symmetric vector (000 eq. (12)-(13): :math:`a = e^{\varepsilon/2}/(1+e^{\varepsilon/2}) = 1 - b`):
    :math:`2e^{\varepsilon/2}/(e^{\varepsilon/2}-1)^2 + \eta_j + \eta_l - (\eta_j - \eta_l)^2`;
  - asymmetric vector (OUE-style, 002 Limitations' asymmetric flipping: :math:`a = 1/2`,
    :math:`b = 1/(e^\varepsilon+1)`): :math:`8e^\varepsilon/(e^\varepsilon-1)^2 + 2(\eta_j + \eta_l) -
    (\eta_j - \eta_l)^2`.

  With :math:`u = e^{\varepsilon/2}`, the symmetric constant minus the asymmetric one is
  :math:`2u/(u+1)^2 \le 1/2`: at a two-class tie (:math:`\eta_j = \eta_l = 1/2`, the asymmetric mechanism
  pays 1 more in its η term) the symmetric mechanism always wins; at the uniform η the asymmetric one
  wins when :math:`K > u + 2 + 1/u`.
* **Theorem 2's factor**: :math:`\Delta_\varepsilon = \Delta\,(e^{\varepsilon/2}+1)/(e^{\varepsilon/2}-1)`
  (000 eq. (21)) is :math:`\Delta/c` of the symmetric mechanism; the proof's step (23) → (25) uses
  eq. (24)'s linear form only, so :math:`1/c` is the factor of every mechanism above (beyond 000, which
  states the symmetric case);
* **the rate at N**: the local label-DP classification cell of 003 Table 1 at (N, ε) (the same for every
  mechanism: a minimax order), and per mechanism the non-private cell at the effective sample size
  :math:`N_{\rm eff} = N\,V_0/V`, V the mechanism's contrast variance and :math:`V_0 = \eta_j + \eta_l -
  (\eta_j - \eta_l)^2` the true labels' (a proxy of the suite, not a theorem).

Which η: the prior when one is given (004's prior is a guess of the label's distribution at x),
otherwise ``at="two_class_tie"`` (default: 000 Theorem 2 puts the excess risk where
:math:`\eta^* - \eta_s \le 2\Delta_\varepsilon`, near a tie of the two largest classes; the decision
there is between two classes at 1/2 each) or ``at="uniform"`` (a K-way tie). The proxies are closed forms:
nothing here is random.

References: 000 eq. (12)-(13), (21), (24), (29) (in 002, the published version: eq. (14), (17), (25), (28));
002 Limitations; 003 Table 1; 004 eq. (1), Algorithm 2, Theorem 3 (LP1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .rates import minimax_rate
from .validation import check_choice, check_int, check_probability, check_probability_vector, check_real

__all__ = ["AGGREGATED", "Advice", "EPS_MAX", "EVALUATION_POINTS", "MECHANISMS", "MechanismRow", "USE_CASES", "advise",
           "debiased_covariance", "delta_eps_factor", "noise_to_signal", "rr_with_prior_keep", "signal_probabilities"]

#: the mechanisms the advisor ranks, in the order of its rows
MECHANISMS = ("rr", "rr_with_prior", "vector", "vector_asymmetric")
#: the mechanisms whose reports a kNN averages and debiases (they have a noise-to-signal)
AGGREGATED = ("rr", "vector", "vector_asymmetric")
#: use case -> the rule, and the paper that backs it
USE_CASES = {
    "aggregation": "smallest debiased noise-to-signal: reports averaged (kNN) and debiased "
                   "(000 Section 4, eq. (24), (29); Theorem 2)",
    "noisy_labels": "highest keep probability: a learner trained on the noisy labels (004 Section 3, Theorem 3)",
}
EVALUATION_POINTS = ("two_class_tie", "uniform")
_SAME = 1e-12  # relative difference under which two proxies count as equal (the earlier mechanism is kept)
#: the largest ε accepted: e^ε must be a finite double (e^709.78 overflows)
EPS_MAX = 700.0


def _check_epsilon(epsilon) -> float:
    return check_real("epsilon", epsilon, low=0.0, low_open=True, high=EPS_MAX)


def signal_probabilities(mechanism: str, epsilon: float, num_classes: int) -> tuple[float, float]:
    r"""(a, b): the probability that a report's statistic :math:`T_j` is 1 when Y = j, and when Y ≠ j.

    Parameters
    ----------
    mechanism : {"rr", "vector", "vector_asymmetric"}
        K-ary randomized response (:math:`T_j = 1(Z = j)`) or a K-bit vector mechanism (:math:`T_j = Z(j)`).
    epsilon : float
        ε > 0.
    num_classes : int
        K >= 2.

    Returns
    -------
    tuple of float
        (a, b) with a > b; the debiasing slope is c = a − b.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    004 eq. (1) (RR); 000 eq. (12)-(13) (symmetric vector); 002 Limitations (asymmetric flipping:
    a = 1/2, b = 1/(e^ε + 1), the OUE-style choice of the suite).

    Examples
    --------
    >>> [round(x, 12) for x in signal_probabilities("rr", math.log(3), 3)]  # e^ε = 3: a = 3/5, b = 1/5
    [0.6, 0.2]
    >>> [round(x, 12) for x in signal_probabilities("vector", 2 * math.log(3), 5)]  # e^{ε/2} = 3
    [0.75, 0.25]
    >>> [round(x, 12) for x in signal_probabilities("vector_asymmetric", math.log(3), 5)]
    [0.5, 0.25]
    """
    check_choice("mechanism", mechanism, AGGREGATED)
    epsilon = _check_epsilon(epsilon)
    K = check_int("num_classes", num_classes, low=2)
    if mechanism == "rr":
        e = math.exp(epsilon)
        return e / (e + K - 1), 1.0 / (e + K - 1)  # 004 eq. (1)
    if mechanism == "vector":
        b = 1.0 / (1.0 + math.exp(epsilon / 2))  # 000 eq. (12)
        return 1.0 - b, b
    return 0.5, 1.0 / (math.exp(epsilon) + 1.0)


def _slope(mechanism, epsilon, K):
    """c = a − b without cancellation (expm1)."""
    if mechanism == "rr":
        return math.expm1(epsilon) / (math.exp(epsilon) + K - 1)
    if mechanism == "vector":
        return math.expm1(epsilon / 2) / (math.exp(epsilon / 2) + 1)
    return math.expm1(epsilon) / (2 * (math.exp(epsilon) + 1))


def debiased_covariance(mechanism: str, epsilon: float, eta) -> np.ndarray:
    r"""Covariance of one report's debiased estimate :math:`\hat\eta = (T - b)/(a - b)` when Y ~ η.

    Parameters
    ----------
    mechanism : {"rr", "vector", "vector_asymmetric"}
        The mechanism (:func:`signal_probabilities`).
    epsilon : float
        ε > 0.
    eta : array_like, shape (K,)
        The label's distribution η (a probability vector, K >= 2).

    Returns
    -------
    ndarray of float, shape (K, K)
        Bit vectors: :math:`\mathrm{diag}(b(1-b)/c^2 + \eta(1-2b)/c) - \eta\eta^\top`;
        RR: :math:`(\mathrm{diag}(q) - qq^\top)/c^2`, :math:`q = b + c\eta` (module docstring).

    Raises
    ------
    ValueError
        If ``mechanism`` or ``epsilon`` is out of range, or ``eta`` is not a probability vector of length >= 2.

    References
    ----------
    000 eq. (12)-(13), (24); 004 eq. (1); 002 Limitations.

    Examples
    --------
    Symmetric vector, e^{ε/2} = 3: isotropic part b(1−b)/c² = (3/16)/(1/4) = 3/4, plus diag(η) − ηηᵀ:

    >>> debiased_covariance("vector", 2 * math.log(3), [0.5, 0.5]).round(12).tolist()
    [[1.0, -0.25], [-0.25, 1.0]]
    """
    eta = _check_eta(eta)
    a, b = signal_probabilities(mechanism, epsilon, eta.size)
    c = _slope(mechanism, epsilon, eta.size)
    if mechanism == "rr":
        q = b + c * eta
        return (np.diag(q) - np.outer(q, q)) / c**2
    return np.diag(b * (1 - b) / c**2 + eta * (1 - 2 * b) / c) - np.outer(eta, eta)


def _check_eta(eta, name: str = "eta") -> np.ndarray:
    eta = check_probability_vector(name, eta)
    if eta.ndim != 1 or eta.size < 2:
        raise ValueError(f"{name} must be one probability vector of length >= 2, got shape {eta.shape}")
    return eta


def _top_two(eta: np.ndarray) -> tuple[int, int]:
    order = np.argsort(-eta, kind="stable")
    return int(order[0]), int(order[1])


def noise_to_signal(mechanism: str, epsilon: float, eta) -> float:
    r"""Standard deviation of one report's debiased contrast :math:`\hat\eta_j - \hat\eta_l`, j, l η's top two.

    Parameters
    ----------
    mechanism : {"rr", "vector", "vector_asymmetric"}
        The mechanism.
    epsilon : float
        ε > 0.
    eta : array_like, shape (K,)
        The label's distribution (ties between the top two broken by index).

    Returns
    -------
    float
        :math:`\sqrt{\Sigma_{jj} + \Sigma_{ll} - 2\Sigma_{jl}}` of :func:`debiased_covariance` (module docstring
        for the three closed forms); a kNN average of k reports has it over √k.

    Raises
    ------
    ValueError
        As :func:`debiased_covariance`.

    References
    ----------
    000 eq. (24), (29); 004 eq. (1).

    Examples
    --------
    At a two-class tie with e^{ε/2} = 3 (e^ε = 9): symmetric 2·3/4 + 1 = 2.5; asymmetric 8·9/64 + 2 = 3.125;
    RR with K = 2 (a = 9/10, b = 1/10, q = (1/2, 1/2)): 1/(4/5)² = 1.5625:

    >>> eps = 2 * math.log(3)
    >>> [round(noise_to_signal(m, eps, [0.5, 0.5]) ** 2, 12) for m in ("vector", "vector_asymmetric", "rr")]
    [2.5, 3.125, 1.5625]
    """
    eta = _check_eta(eta)
    cov = debiased_covariance(mechanism, epsilon, eta)
    j, l = _top_two(eta)
    return math.sqrt(cov[j, j] + cov[l, l] - 2 * cov[j, l])


def rr_with_prior_keep(epsilon: float, prior=None, *, top_k_miss=None, num_classes: int | None = None) -> float:
    r"""Probability that RRWithPrior returns the true label when it is drawn from the prior.

    With the prior: :math:`\max_k e^\varepsilon/(e^\varepsilon+k-1)\cdot\sum_{y\in Y_k} p_y` (004 Algorithm 2),
    the optimum of LP1 (004 Theorem 3). With only ``top_k_miss = (k, m)`` (the prior's top k classes miss
    the label with probability m): :math:`\max(w_k, w_K)` with :math:`w_k = (1-m)e^\varepsilon/(e^\varepsilon+k-1)`
    and :math:`w_K = e^\varepsilon/(e^\varepsilon+K-1)`, the two terms of the max that are known: a lower bound.

    Parameters
    ----------
    epsilon : float
        ε > 0.
    prior : array_like, shape (K,), optional
        The prior p (a probability vector).
    top_k_miss : tuple of (int, float), optional
        (k, m), 1 <= k <= K, 0 <= m <= 1; used when ``prior`` is None (then ``num_classes`` is required).
    num_classes : int, optional
        K, required with ``top_k_miss``; must match ``len(prior)`` when both are given.

    Returns
    -------
    float
        The keep probability (with ``top_k_miss``: a lower bound on it).

    Raises
    ------
    ValueError
        If neither or both of ``prior`` and ``top_k_miss`` are given, or an argument is out of range.

    References
    ----------
    004 Algorithm 2 (w_k), Theorem 3 and its proof (LP1, LP2).

    Examples
    --------
    e^ε = 3, prior (0.6, 0.3, 0.1): w_1 = 0.6, w_2 = 3/4·0.9 = 0.675, w_3 = 3/5 = 0.6:

    >>> round(rr_with_prior_keep(math.log(3), [0.6, 0.3, 0.1]), 12)
    0.675
    >>> round(rr_with_prior_keep(math.log(3), top_k_miss=(2, 0.1), num_classes=3), 12)
    0.675
    """
    epsilon = _check_epsilon(epsilon)
    e = math.exp(epsilon)
    if (prior is None) == (top_k_miss is None):
        raise ValueError(f"give exactly one of prior and top_k_miss, got prior={prior!r}, top_k_miss={top_k_miss!r}")
    if prior is not None:
        p = np.sort(_check_eta(prior, "prior"))[::-1]
        if num_classes is not None and check_int("num_classes", num_classes, low=2) != p.size:
            raise ValueError(f"num_classes must equal len(prior)={p.size}, got num_classes={num_classes}")
        k = np.arange(1, p.size + 1)
        return float(np.max(e / (e + k - 1) * np.cumsum(p)))  # 004 Algorithm 2 step 1(a)
    K = check_int("num_classes", num_classes, low=2)
    if not isinstance(top_k_miss, tuple) or len(top_k_miss) != 2:
        raise ValueError(f"top_k_miss must be a pair (k, miss rate), got top_k_miss={top_k_miss!r}")
    k = check_int("top_k_miss[0]", top_k_miss[0], low=1)
    if k > K:
        raise ValueError(f"top_k_miss[0] must be <= num_classes={K}, got top_k_miss[0]={k}")
    miss = check_probability("top_k_miss[1]", top_k_miss[1], allow_one=True)
    return max((1 - miss) * e / (e + k - 1), e / (e + K - 1))


def delta_eps_factor(mechanism: str, epsilon: float, num_classes: int) -> float:
    r"""The factor 1/(a − b) that turns Δ into :math:`\Delta_\varepsilon` in 000 Theorem 2.

    Parameters
    ----------
    mechanism : {"rr", "vector", "vector_asymmetric"}
        The mechanism.
    epsilon : float
        ε > 0.
    num_classes : int
        K >= 2.

    Returns
    -------
    float
        Symmetric vector: :math:`(e^{\varepsilon/2}+1)/(e^{\varepsilon/2}-1)` (000 eq. (21)); RR:
        :math:`(e^\varepsilon+K-1)/(e^\varepsilon-1)`; asymmetric: :math:`2(e^\varepsilon+1)/(e^\varepsilon-1)`
        (the same proof step with their (a, b): beyond 000).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    000 Theorem 2, eq. (21), (23)-(25).

    Examples
    --------
    >>> delta_eps_factor("vector", 2 * math.log(3), 10)  # (3 + 1)/(3 - 1)
    2.0
    """
    signal_probabilities(mechanism, epsilon, num_classes)  # validates
    return 1.0 / _slope(mechanism, epsilon, num_classes)


@dataclass(frozen=True, slots=True)
class MechanismRow:
    """The utility proxies of one mechanism (None where a proxy does not apply).

    Parameters
    ----------
    mechanism : str
        One of :data:`MECHANISMS`.
    keep_probability : float or None
        P(released label = true label) (label-output mechanisms: RR, RRWithPrior).
    noise_to_signal : float or None
        :func:`noise_to_signal` (mechanisms in :data:`AGGREGATED`).
    delta_eps_factor : float or None
        :func:`delta_eps_factor`.
    effective_n : float or None
        :math:`N V_0/V` (module docstring).
    rate : float or None
        The non-private 003 Table 1 classification rate at ``max(effective_n, 1)``.

    Examples
    --------
    >>> MechanismRow("rr", 0.5, None, None, None, None).keep_probability
    0.5
    """

    mechanism: str
    keep_probability: float | None
    noise_to_signal: float | None
    delta_eps_factor: float | None
    effective_n: float | None
    rate: float | None


@dataclass(frozen=True, slots=True)
class Advice:
    """What :func:`advise` returns: the inputs, one row per mechanism, the recommendation and its rule.

    Parameters
    ----------
    num_classes, epsilon, N : int, float, int
        The inputs.
    use_case : str
        A key of :data:`USE_CASES`.
    rule : str
        The rule, in words, with its paper.
    eta : tuple of float
        The η the noise-to-signal proxies are evaluated at.
    rows : tuple of MechanismRow
        In the order of :data:`MECHANISMS` (RRWithPrior only with a prior or a miss rate).
    recommended : str
        The recommended mechanism.
    minimax_rate : float
        003 Table 1, classification, local label DP, at (N, ε) with the ln K of Theorem 2.

    Examples
    --------
    >>> advise(10, 1.0, 10_000).row("vector").mechanism
    'vector'
    """

    num_classes: int
    epsilon: float
    N: int
    use_case: str
    rule: str
    eta: tuple
    rows: tuple
    recommended: str
    minimax_rate: float

    def row(self, mechanism: str) -> MechanismRow:
        """The row of ``mechanism``.

        Parameters
        ----------
        mechanism : str
            A mechanism of :attr:`rows`.

        Returns
        -------
        MechanismRow

        Raises
        ------
        ValueError
            If no row has that name.

        Examples
        --------
        >>> round(advise(2, 1.0, 100).row("rr").keep_probability, 12) == round(math.e / (math.e + 1), 12)
        True
        """
        names = [r.mechanism for r in self.rows]
        return self.rows[names.index(check_choice("mechanism", mechanism, names))]

    def __str__(self) -> str:
        """A table of the rows, the recommendation and its rule (what ``print(advice)`` shows).

        Returns
        -------
        str
            One line per mechanism (keep probability, noise-to-signal, Δ_ε factor, effective N), the
            recommended one marked with ``*``, then the rule.

        Examples
        --------
        >>> print(advise(10, 1.0, 10_000))  # doctest: +NORMALIZE_WHITESPACE +ELLIPSIS
        K = 10, ε = 1, N = 10000, use case: aggregation
        mechanism             keep P  noise/signal  Δ_ε factor  effective N
          rr                   0.232          3.84        6.82          678
        * vector                   -          2.97        4.08         1132
          vector_asymmetric        -          3.06        4.33         1068
        rule: smallest debiased noise-to-signal: reports averaged (kNN) and debiased ...
        """
        def cell(x, fmt):
            return "-" if x is None else format(x, fmt)

        lines = [f"K = {self.num_classes}, ε = {self.epsilon:g}, N = {self.N}, use case: {self.use_case}",
                 f"{'mechanism':<19} {'keep P':>8} {'noise/signal':>13} {'Δ_ε factor':>11} {'effective N':>12}"]
        for r in self.rows:
            mark = "*" if r.mechanism == self.recommended else " "
            lines.append(f"{mark} {r.mechanism:<17} {cell(r.keep_probability, '.3f'):>8} "
                         f"{cell(r.noise_to_signal, '.3g'):>13} {cell(r.delta_eps_factor, '.3g'):>11} "
                         f"{cell(r.effective_n, '.0f'):>12}")
        lines.append(f"rule: {self.rule}")
        return "\n".join(lines)


def _eta(K, prior, at):
    if prior is not None:
        return _check_eta(prior, "prior")
    eta = np.zeros(K)
    if check_choice("at", at, EVALUATION_POINTS) == "uniform":
        eta[:] = 1.0 / K
    else:
        eta[:2] = 0.5
    return eta


def advise(num_classes: int, epsilon: float, N: int, *, prior=None, top_k_miss=None, use_case: str = "aggregation",
           at: str = "two_class_tie", beta: float = 1.0, gamma: float = 1.0, d: int = 2) -> Advice:
    r"""Utility proxies of RR, RRWithPrior, the symmetric and the asymmetric vector mechanism, and a pick.

    Rules (:data:`USE_CASES`): ``"aggregation"`` (default; 000's use: a kNN averages the reports, Theorem 2)
    picks the smallest :func:`noise_to_signal` among :data:`AGGREGATED`; ``"noisy_labels"`` (004's use: a
    network trained on the released labels) picks the highest keep probability among RR and RRWithPrior
    (RR when they are equal: RRWithPrior never keeps less, its k = K term is RR). A proxy within a relative
    1e-12 of a better one is a tie, resolved in the order of :data:`MECHANISMS`.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        ε > 0.
    N : int
        Training size, >= 1.
    prior : array_like, shape (K,), optional
        A prior over the label (004 Section 3); also the η of the noise-to-signal proxies.
    top_k_miss : tuple of (int, float), optional
        Only the prior's top-k miss rate (:func:`rr_with_prior_keep`); not with ``prior``.
    use_case : {"aggregation", "noisy_labels"}, default "aggregation"
        Which rule decides.
    at : {"two_class_tie", "uniform"}, default "two_class_tie"
        The η of the noise-to-signal proxies when no prior is given (module docstring).
    beta, gamma, d : float, float, int, default 1, 1, 2
        Hölder exponent, Tsybakov exponent and dimension of the 003 Table 1 rates.

    Returns
    -------
    Advice
        Rows per mechanism, the recommendation and the rule.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it and repeats its value), or both ``prior`` and
        ``top_k_miss`` are given.

    References
    ----------
    000 eq. (12)-(13), (21), (24), Theorem 2; 003 Table 1, Theorem 2; 004 eq. (1), Algorithm 2, Theorem 3.

    Examples
    --------
    K = 10, ε = 1 (kNN): the symmetric vector mechanism, as in 000 Figure 2; at ε = 4, RR:

    >>> advise(10, 1.0, 10_000).recommended, advise(10, 4.0, 10_000).recommended
    ('vector', 'rr')
    >>> advise(10, 1.0, 10_000, top_k_miss=(2, 0.1), use_case="noisy_labels").recommended
    'rr_with_prior'
    """
    K = check_int("num_classes", num_classes, low=2)
    epsilon = _check_epsilon(epsilon)
    N = check_int("N", N, low=1)
    check_choice("use_case", use_case, USE_CASES)
    check_choice("at", at, EVALUATION_POINTS)
    if prior is not None and top_k_miss is not None:
        raise ValueError(f"give at most one of prior and top_k_miss, got prior={prior!r}, top_k_miss={top_k_miss!r}")
    eta = _eta(K, prior, at)
    if eta.size != K:
        raise ValueError(f"prior must have num_classes={K} entries, got {eta.size}")
    j, l = _top_two(eta)
    v0 = eta[j] + eta[l] - (eta[j] - eta[l]) ** 2
    rows = []
    for m in MECHANISMS:
        if m == "rr_with_prior":
            if prior is None and top_k_miss is None:
                continue
            keep = rr_with_prior_keep(epsilon, prior, top_k_miss=top_k_miss, num_classes=K)
            rows.append(MechanismRow(m, keep, None, None, None, None))
            continue
        nsr = noise_to_signal(m, epsilon, eta)
        n_eff = float(N * v0 / nsr**2)
        rate = float(minimax_rate("classification", "none", N=max(n_eff, 1.0), beta=beta, d=d, gamma=gamma))
        keep = signal_probabilities("rr", epsilon, K)[0] if m == "rr" else None
        rows.append(MechanismRow(m, keep, nsr, delta_eps_factor(m, epsilon, K), n_eff, rate))
    if use_case == "aggregation":
        ranked = [(r.noise_to_signal, r.mechanism) for r in rows if r.noise_to_signal is not None]
    else:
        ranked = [(-r.keep_probability, r.mechanism) for r in rows if r.keep_probability is not None]
    best = min(v for v, _ in ranked)
    recommended = next(m for v, m in ranked if v <= best + _SAME * abs(best))
    local = float(minimax_rate("classification", "local", N=N, epsilon=epsilon, beta=beta, d=d, gamma=gamma,
                               num_classes=K, log_factors=True))
    return Advice(K, epsilon, N, use_case, USE_CASES[use_case], tuple(float(x) for x in eta), tuple(rows),
                  recommended, local)
