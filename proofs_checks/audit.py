"""Black-box statistical audit: a one-sided lower confidence bound on ε from samples.

Draw n outputs of the mechanism on each of two neighbouring inputs a and b (labels y and y').
For every output event E, ε >= ln(P_a(E) / P_b(E)) (and the same with a and b swapped). With
Clopper-Pearson bounds, a lower bound on P_a(E) and an upper bound on P_b(E) give

    ε_lb = max over events and directions of ln(lower(P_a(E)) / upper(P_b(E))).

Confidence semantics: all the one-sided Clopper-Pearson bounds used (two per event and direction)
hold simultaneously with probability >= ``confidence`` (Bonferroni: each at level
(1 - confidence) / number of bounds). On that event every ratio bound is <= the true ratio <= e^ε,
so for an ε-DP mechanism P(ε_lb > ε) <= 1 - confidence whatever the events, n or the mechanism:
a reported violation (ε_lb > ε claimed) is wrong with probability at most 1 - confidence.
The events must be fixed before the samples are seen (choosing them from the same samples voids
the guarantee).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from scipy import stats

from limits.validation import check_int, check_probability, check_real, check_size
from simulations.seeding import as_generator, check_generator

from .result import DPCheckResult

__all__ = ["MAX_AUDIT_DRAWS", "AuditResult", "audit_epsilon", "audit_label_randomizer", "audit_label_sampler", "clopper_pearson_lower",
           "clopper_pearson_upper", "output_events", "sample_size_for_power"]


def _check_binomial(k, n, alpha) -> None:
    n = check_int("n", n, low=1)
    k = check_int("k", k, low=0)
    if k > n:
        raise ValueError(f"k must be <= n={n}, got k={k}")
    check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)


def clopper_pearson_lower(k: int, n: int, alpha: float) -> float:
    r"""One-sided Clopper-Pearson lower confidence bound on a binomial p from k successes in n.

    The bound is the α quantile of Beta(k, n - k + 1) (0 when k = 0), so
    :math:`P(p < \text{bound}) \le \alpha` whatever p.

    Parameters
    ----------
    k : int, 0 <= k <= n
        Number of successes.
    n : int >= 1
        Number of trials.
    alpha : float in (0, 1)
        Error probability of the one-sided bound.

    Returns
    -------
    float
        The lower bound, in [0, 1].

    Raises
    ------
    ValueError
        If n < 1, k < 0, k > n, or alpha is not in the open interval (0, 1).

    References
    ----------
    Infrastructure (no paper source): the statistical audit's confidence bound, stated in this module's
    docstring.

    Examples
    --------
    With k = n the bound solves :math:`p^n = \alpha`: at n = 2, α = 1/4 it is 1/2.

    >>> round(clopper_pearson_lower(2, 2, 0.25), 12), clopper_pearson_lower(0, 5, 0.05)
    (0.5, 0.0)
    """
    _check_binomial(k, n, alpha)
    return 0.0 if k == 0 else float(stats.beta.ppf(alpha, k, n - k + 1))


def clopper_pearson_upper(k: int, n: int, alpha: float) -> float:
    r"""One-sided Clopper-Pearson upper confidence bound on a binomial p from k successes in n.

    The bound is the 1 - α quantile of Beta(k + 1, n - k) (1 when k = n), so
    :math:`P(p > \text{bound}) \le \alpha` whatever p.

    Parameters
    ----------
    k : int, 0 <= k <= n
        Number of successes.
    n : int >= 1
        Number of trials.
    alpha : float in (0, 1)
        Error probability of the one-sided bound.

    Returns
    -------
    float
        The upper bound, in [0, 1].

    Raises
    ------
    ValueError
        If n < 1, k < 0, k > n, or alpha is not in the open interval (0, 1).

    References
    ----------
    Infrastructure (no paper source): the statistical audit's confidence bound, stated in this module's
    docstring.

    Examples
    --------
    With k = 0 the bound solves :math:`(1 - p)^n = \alpha`: at n = 2, α = 1/4 it is 1/2.

    >>> round(clopper_pearson_upper(0, 2, 0.25), 12), clopper_pearson_upper(5, 5, 0.05)
    (0.5, 1.0)
    """
    _check_binomial(k, n, alpha)
    return 1.0 if k == n else float(stats.beta.isf(alpha, k + 1, n - k))


@dataclass(frozen=True, slots=True)
class AuditResult:
    r"""Outcome of :func:`audit_epsilon`: a lower confidence bound on the privacy loss.

    Parameters
    ----------
    epsilon_lower : float >= 0
        Lower confidence bound on the true privacy loss at level ``confidence`` (0.0 when no event
        separates the inputs).
    confidence : float in (0, 1)
        Simultaneous confidence of all the Clopper-Pearson bounds used.
    n : int
        Samples drawn on each input.
    event : int
        Index of the best event.
    direction : {"a/b", "b/a"}
        Which ratio attained the bound.
    counts : tuple of int (count_a, count_b)
        Counts of the best event on a and on b, out of ``n`` each.
    explanation : str
        The verdict in words.

    References
    ----------
    Label DP, 003 Definitions 2-3 (the ratio bound over every output event); the bound is this
    module's Clopper-Pearson construction.

    Examples
    --------
    A mechanism that outputs 0 on input a and 1 on input b, audited with n = 8 and confidence 1/2: the
    8 one-sided bounds each have α = 1/16, the lower bound on P_a({0}) is
    :math:`(1/16)^{1/8} = 2^{-1/2}` and the upper bound on P_b({0}) is :math:`1 - 2^{-1/2}`, so
    :math:`\varepsilon_{lb} = \ln(2^{-1/2} / (1 - 2^{-1/2})) = \ln(1 + \sqrt 2)`.

    >>> import math
    >>> res = audit_epsilon(lambda n, rng: np.zeros(n, int), lambda n, rng: np.ones(n, int),
    ...                     output_events(2), 8, np.random.default_rng(0), confidence=0.5)
    >>> round(res.epsilon_lower / math.log(1 + math.sqrt(2)), 9), res.event, res.direction, res.counts
    (1.0, 0, 'a/b', (8, 0))
    """

    epsilon_lower: float
    confidence: float
    n: int
    event: int
    direction: str
    counts: tuple[int, int]
    explanation: str

    def violates(self, epsilon: float) -> bool:
        r"""True when the audit proves, at its confidence, that the mechanism is not ε-DP.

        Parameters
        ----------
        epsilon : float
            The claimed ε.

        Returns
        -------
        bool
            ``epsilon_lower > epsilon``.

        References
        ----------
        003 Definitions 2-3: ε-DP bounds every event ratio by :math:`e^\varepsilon`.

        Examples
        --------
        >>> res = audit_epsilon(lambda n, rng: np.zeros(n, int), lambda n, rng: np.ones(n, int),
        ...                     output_events(2), 8, np.random.default_rng(0), confidence=0.5)
        >>> res.violates(0.5), res.violates(1.0)      # epsilon_lower = ln(1 + sqrt 2) = 0.8814
        (True, False)
        """
        return self.epsilon_lower > epsilon


def _check_outputs(name: str, out, n: int):
    """A sampler asked for n outputs must return n of them along the first axis (else every event
    count would be compared against the wrong n and the bound is meaningless)."""
    shape = np.shape(out)
    if len(shape) == 0 or shape[0] != n:
        raise ValueError(f"{name} must return n={n} outputs along its first axis, got shape {shape}")
    return out


def _event_count(ev, out, n: int, i: int, which: str) -> int:
    hit = np.asarray(ev(out))
    if hit.shape != (n,):
        raise ValueError(f"events[{i}] must return a boolean array of shape ({n},) on the outputs of {which}, "
                         f"got shape {hit.shape}")
    return int(np.count_nonzero(hit))


def audit_epsilon(sample_a: Callable, sample_b: Callable, events: Sequence[Callable], n: int,
                  rng: np.random.Generator, confidence: float = 0.95, both_directions: bool = True) -> AuditResult:
    r"""Lower confidence bound on ε from n samples on each of two neighbouring inputs.

    For every event E and direction,
    :math:`\varepsilon \ge \ln(\mathrm{lower}(P_a(E)) / \mathrm{upper}(P_b(E)))` holds on the event
    that all Clopper-Pearson bounds hold, which has probability >= ``confidence`` (Bonferroni over
    the 2 x events x directions one-sided bounds).

    Parameters
    ----------
    sample_a, sample_b : callable
        ``(n, rng) -> outputs``: draw n outputs (first axis = samples, checked: ``ValueError``
        otherwise) of the mechanism on the inputs a and b.
    events : sequence of callable
        ``outputs -> bool array of shape (n,)``; output events fixed in advance (e.g.
        :func:`output_events`). Choosing them from the same samples voids the guarantee.
    n : int >= 1
        Samples per input.
    rng : numpy.random.Generator
        The generator both samplers draw from.
    confidence : float in (0, 1), default 0.95
        Simultaneous confidence of all bounds (see the module docstring).
    both_directions : bool, default True
        Also bound :math:`\ln(P_b(E)/P_a(E))` (doubles the number of bounds in the Bonferroni
        correction).

    Returns
    -------
    AuditResult
        The best bound, its event, direction and counts.

    Raises
    ------
    ValueError
        n < 1, 2 n above :data:`MAX_AUDIT_DRAWS` (refused before any draw), confidence not in
        (0, 1), no events, a sampler returning the wrong number of outputs, or an event returning a
        mask of the wrong shape.
    TypeError
        If ``rng`` is not a numpy Generator.

    References
    ----------
    Label DP, 003 Definitions 2-3 and 004 Definition 2.2 (neighbours differ in one label).

    Examples
    --------
    Deterministic outputs 0 on a and 1 on b (derivation in :class:`AuditResult`):

    >>> import math
    >>> res = audit_epsilon(lambda n, rng: np.zeros(n, int), lambda n, rng: np.ones(n, int),
    ...                     output_events(2), 8, np.random.default_rng(0), confidence=0.5)
    >>> round(res.epsilon_lower, 6) == round(math.log(1 + math.sqrt(2)), 6)
    True
    """
    n = check_int("n", n, low=1)
    check_size("n", n, MAX_AUDIT_DRAWS, size=2 * n, what="draws (n on each of the two inputs)")
    confidence = check_probability("confidence", confidence)
    if confidence <= 0:
        raise ValueError(f"confidence must be > 0, got confidence={confidence}")
    if len(events) == 0:
        raise ValueError("events must not be empty")
    rng = check_generator(rng)
    out_a, out_b = _check_outputs("sample_a", sample_a(n, rng), n), _check_outputs("sample_b", sample_b(n, rng), n)
    counts = [(_event_count(ev, out_a, n, i, "sample_a"), _event_count(ev, out_b, n, i, "sample_b"))
              for i, ev in enumerate(events)]
    directions = ("a/b", "b/a") if both_directions else ("a/b",)
    alpha = (1.0 - confidence) / (2 * len(events) * len(directions))
    best = (0.0, 0, "a/b")
    for i, (ka, kb) in enumerate(counts):
        for d in directions:
            k_num, k_den = (ka, kb) if d == "a/b" else (kb, ka)
            lo, hi = clopper_pearson_lower(k_num, n, alpha), clopper_pearson_upper(k_den, n, alpha)
            lb = math.log(lo / hi) if lo > 0 else -math.inf
            if lb > best[0]:
                best = (lb, i, d)
    lb, i, d = best
    expl = (f"epsilon >= {lb:.6g} with confidence {confidence:g} (event #{i}, {d}: counts "
            f"{counts[i][0]}/{n} on a, {counts[i][1]}/{n} on b; Clopper-Pearson, Bonferroni over "
            f"{2 * len(events) * len(directions)} one-sided bounds)")
    return AuditResult(epsilon_lower=lb, confidence=confidence, n=n, event=i, direction=d,
                       counts=counts[i], explanation=expl)


def output_events(num_outputs: int) -> list[Callable]:
    r"""Singleton events :math:`\{z = c\}` for c = 0 .. num_outputs - 1 (finite integer outputs).

    Parameters
    ----------
    num_outputs : int >= 1
        Size of the output space.

    Returns
    -------
    list of callable
        ``events[c](z)`` is the boolean array ``z == c``.

    Raises
    ------
    ValueError
        If ``num_outputs`` < 1 or not an integer.

    References
    ----------
    003 Definition 3: for finite outputs the singletons are the events that attain the loss.

    Examples
    --------
    >>> ev = output_events(3)
    >>> len(ev), ev[1](np.array([0, 1, 1])).tolist()
    (3, [False, True, True])
    """
    return [lambda z, c=c: np.asarray(z) == c for c in range(check_int("num_outputs", num_outputs, low=1))]


def audit_label_randomizer(mechanism, y: int, y_prime: int, events: Sequence[Callable], n: int,
                           rng: np.random.Generator, confidence: float = 0.95, **sample_kwargs) -> AuditResult:
    r""":func:`audit_epsilon` for a local label randomizer on the labels y and y' (``mechanism.sample``).

    Parameters
    ----------
    mechanism : object
        A label randomizer with ``sample(labels (n,), rng, **sample_kwargs) -> outputs`` (e.g.
        :class:`simulations.mechanisms.RandomizedResponse`).
    y, y_prime : int
        The two labels (label-DP neighbours differ in the label: they must differ).
    events : sequence of callable
        Output events fixed in advance (:func:`output_events`).
    n : int >= 1
        Samples per label.
    rng : numpy.random.Generator
        The generator the samples are drawn from.
    confidence : float in (0, 1), default 0.95
        Simultaneous confidence of the bounds.
    **sample_kwargs
        Passed to ``mechanism.sample`` (e.g. ``prior=`` for RRTopK / RRWithPrior).

    Returns
    -------
    AuditResult
        The lower confidence bound on the loss between y and y'.

    Raises
    ------
    ValueError
        If ``y == y_prime``, or as :func:`audit_epsilon`.

    References
    ----------
    003 Definition 3 (local label DP); 004 eq. (1).

    Examples
    --------
    Randomized response at ε = 50 keeps the label except with probability about :math:`e^{-50}`,
    so all 8 draws on each label are kept and the bound is the one of :class:`AuditResult`,
    :math:`\ln(1 + \sqrt 2)`, far below the true loss 50: an audit bounds from below only.

    >>> import math
    >>> from simulations.mechanisms import RandomizedResponse
    >>> res = audit_label_randomizer(RandomizedResponse(2, 50.0), 0, 1, output_events(2), 8,
    ...                              np.random.default_rng(0), confidence=0.5)
    >>> round(res.epsilon_lower, 6) == round(math.log(1 + math.sqrt(2)), 6), res.counts
    (True, (8, 0))
    """
    if y == y_prime:  # label-DP neighbours differ in the label: the same label twice audits nothing
        raise ValueError(f"y and y_prime must differ, got y={y}, y_prime={y_prime}")
    def sampler(label):
        return lambda m, g: mechanism.sample(np.full(m, label, dtype=np.int64), g, **sample_kwargs)

    return audit_epsilon(sampler(y), sampler(y_prime), events, n, rng, confidence)


# ---------------------------------------------------------------- black-box label samplers (all label pairs)

def _power_ok(n: int, epsilon: float, p_a: float, p_b: float, alpha: float, power: float) -> bool:
    """Conservative: with prob >= sqrt(power) each, X_a >= q_a and X_b <= q_b; then the bound is at
    least ln(lower(q_a) / upper(q_b)) (both bounds increase with the count)."""
    r = math.sqrt(power)
    qa = int(stats.binom.ppf(1.0 - r, n, p_a))
    qb = int(stats.binom.ppf(r, n, p_b))
    lo = clopper_pearson_lower(qa, n, alpha)
    return lo > 0 and math.log(lo / clopper_pearson_upper(qb, n, alpha)) > epsilon


def sample_size_for_power(epsilon: float, alternative_epsilon: float, num_outputs: int, alpha: float,
                          power: float = 0.8, max_n: int = 10**7) -> int:
    r"""Samples per label with which the audit flags a violation with probability >= ``power``.

    The alternative: a mechanism whose worst event is an output of randomized response on
    ``num_outputs`` outputs at ``alternative_epsilon`` > ``epsilon``
    (:math:`P(E|y) = e^a/(e^a+M-1)`, :math:`P(E|y') = 1/(e^a+M-1)`, 004 eq. (1)); each
    Clopper-Pearson bound at level ``alpha``. The smallest n found by doubling and bisection (to 1 %)
    on a conservative criterion (binomial quantiles at :math:`\sqrt{\text{power}}` each).

    Parameters
    ----------
    epsilon : float
        The claimed ε.
    alternative_epsilon : float > epsilon
        The loss of the alternative to detect.
    num_outputs : int >= 2
        M, the outputs of the alternative randomized response.
    alpha : float in (0, 1)
        Level of each one-sided bound (after the Bonferroni correction).
    power : float in (0, 1), default 0.8
        Probability of flagging the alternative.
    max_n : int, default 10**7
        Give up above this many samples per label.

    Returns
    -------
    int
        Samples per label.

    Raises
    ------
    ValueError
        ``alternative_epsilon <= epsilon``, ``num_outputs`` < 2, power not in (0, 1), or more than
        ``max_n`` samples needed.

    References
    ----------
    004 eq. (1) (the randomized-response alternative); the bound of :func:`audit_epsilon`.

    Examples
    --------
    A larger violation needs fewer samples:

    >>> sample_size_for_power(1.0, 3.0, 2, 0.0125) < sample_size_for_power(1.0, 2.0, 2, 0.0125)
    True
    """
    M = check_int("num_outputs", num_outputs, low=2)
    if not alternative_epsilon > epsilon:
        raise ValueError(f"alternative_epsilon must be > epsilon={epsilon}, got alternative_epsilon={alternative_epsilon}")
    power = check_real("power", power, low=0.0, high=1.0, low_open=True, high_open=True)
    den = math.exp(alternative_epsilon) + M - 1 if alternative_epsilon < 700 else math.inf
    p_a = 1.0 / (1.0 + (M - 1) * math.exp(-alternative_epsilon))
    p_b = math.exp(-alternative_epsilon) * p_a if den == math.inf else 1.0 / den
    hi = 16
    while not _power_ok(hi, epsilon, p_a, p_b, alpha, power):
        hi *= 2
        if hi > max_n:
            raise ValueError(f"more than max_n={max_n} samples per label are needed for power {power} against "
                             f"alternative_epsilon={alternative_epsilon}; pass n= or a larger alternative_epsilon")
    lo = hi // 2
    while hi - lo > max(1, hi // 100):
        mid = (lo + hi) // 2
        if _power_ok(mid, epsilon, p_a, p_b, alpha, power):
            hi = mid
        else:
            lo = mid
    return hi


def _check_sampler_outputs(out, n: int, num_outputs: int, label: int) -> np.ndarray:
    arr = np.asarray(out)
    if arr.shape != (n,):
        raise ValueError(f"sampler must return one output per label, shape ({n},), got shape {arr.shape} "
                         f"for label {label}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"sampler must return integer outputs in [0, {num_outputs}), got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= num_outputs):
        raise ValueError(f"sampler returned outputs outside the output space [0, {num_outputs}): "
                         f"min {arr.min()}, max {arr.max()} for label {label}")
    return arr.astype(np.int64, copy=False)


#: Default cap on the outputs a sampler audit draws (K labels x n samples each), checked before any draw.
MAX_AUDIT_DRAWS = 10**8


def _observed_counts(sampler, K: int, M: int, n: int, gen):
    """Draw n outputs per label; return the observed (label, output, count) triples, count > 0.

    Memory is proportional to what is observed: at most K * min(n, M) triples, never a K x M table.
    """
    ys, cs, ks = [], [], []
    for y in range(K):
        out = _check_sampler_outputs(sampler(np.full(n, y, dtype=np.int64), gen), n, M, y)
        c, k = np.unique(out, return_counts=True)
        ys.append(np.full(c.size, y, dtype=np.int64))
        cs.append(c)
        ks.append(k.astype(np.int64))
    return np.concatenate(ys), np.concatenate(cs), np.concatenate(ks)


def _best_log_ratio(y_obs, c_obs, k_obs, K: int, n: int, alpha: float):
    """max over (y, y' != y, output c) of ln lower(count[y, c]) - ln upper(count[y', c]) from sparse counts.

    Only observed (y, c) can be a numerator (lower(0) = 0). The upper bound increases with the count, so
    the best denominator of column c is its smallest count over y' != y: 0 when some label other than
    y never produced c, else the column's smallest (or, for y itself, second smallest) count. Ties go to
    the smallest (y, y', c) in lexicographic order, as a dense argmax over a (K, K, M) table would.
    Returns (value, y, y', c, count[y, c], count[y', c]).
    """
    order = np.lexsort((y_obs, k_obs, c_obs))  # by output, then count, then label
    y_s, c_s, k_s = y_obs[order], c_obs[order], k_obs[order]
    _, start, nnz = np.unique(c_s, return_index=True, return_counts=True)
    group = np.repeat(np.arange(start.size), nnz)
    first = start[group]
    full = nnz[group] == K  # every label produced c: the denominator is another observed count
    is_first = np.arange(y_s.size) == first
    other = np.where(is_first, first + 1, first)  # valid only where full (then nnz = K >= 2)
    other = np.where(full, other, 0)
    den_k = np.where(full, k_s[other], 0)
    # the Clopper-Pearson bounds depend on the count only: evaluate them once per distinct count
    vals = np.unique(np.concatenate([k_s, den_k]))
    lower = np.where(vals > 0, stats.beta.ppf(alpha, np.maximum(vals, 1), n - vals + 1), 0.0)
    upper = np.where(vals < n, stats.beta.isf(alpha, vals + 1, np.maximum(n - vals, 1)), 1.0)
    with np.errstate(divide="ignore"):
        log_lower, log_upper = np.log(lower), np.log(upper)
    lr = log_lower[np.searchsorted(vals, k_s)] - log_upper[np.searchsorted(vals, den_k)]
    best = lr.max()
    cands = []
    for i in np.flatnonzero(lr == best):
        if full[i]:
            y2 = int(y_s[other[i]])
        else:  # the smallest label that never produced this output
            labels = np.sort(y_s[start[group[i]]:start[group[i]] + nnz[group[i]]])
            missing = np.flatnonzero(labels != np.arange(labels.size))
            y2 = int(missing[0]) if missing.size else int(labels.size)
        cands.append((int(y_s[i]), y2, int(c_s[i]), int(k_s[i]), int(den_k[i])))
    y, y2, c, ka, kb = min(cands)
    return float(best), y, y2, c, ka, kb


def audit_label_sampler(sampler: Callable, epsilon: float, *, num_classes: int, num_outputs: int | None = None,
                        n: int | None = None, power: float = 0.8, alternative_epsilon: float | None = None,
                        confidence: float = 0.95, rng=0, max_draws: int = MAX_AUDIT_DRAWS):
    r"""Statistical ε-label-DP audit of a black-box sampler ``(labels, rng) -> outputs`` over all label pairs.

    Draws n outputs for each label y in [0, K), counts each output c in [0, M), and bounds
    :math:`\ln P(c|y)/P(c|y')` from below with Clopper-Pearson bounds that hold simultaneously with
    probability >= ``confidence`` (Bonferroni over the 2 K M one-sided bounds). The result is a lower
    confidence bound on the loss, **not** an exact value: ``holds`` means no violation was found at
    this n.

    The counts are kept sparse (only the (label, output) pairs observed, at most K min(n, M)) and the
    bounds are evaluated once per distinct count, so memory and time grow with what is drawn, not
    with K x K x M (the dense table took 1.7 GB at K = M = 600, n = 100).

    Parameters
    ----------
    sampler : callable
        ``(labels (n,) int64, rng) -> outputs (n,)``, integer outputs in [0, num_outputs).
    epsilon : float >= 0
        The claimed ε.
    num_classes : int >= 2
        K.
    num_outputs : int >= 2, optional
        M (default K: outputs are labels).
    n : int >= 1, optional
        Samples per label; default :func:`sample_size_for_power` for ``power`` against
        ``alternative_epsilon``.
    power : float in (0, 1), default 0.8
        Power of the default n against the alternative.
    alternative_epsilon : float >= 0, optional
        The randomized-response alternative the default n is sized for (default max(2ε, ε + 0.5));
        when given together with ``n``, the n it would need is reported alongside.
    confidence : float in (0, 1), default 0.95
        Simultaneous confidence of all bounds.
    rng : int, SeedSequence or Generator, default 0
        Seed or generator of the draws.
    max_draws : int >= 1
        Refuse (before drawing anything) an audit of more than this many outputs, K n in all
        (default :data:`MAX_AUDIT_DRAWS` = 10^8); pass a larger value to run it anyway.

    Returns
    -------
    DPCheckResult
        With ``exact=False``; the witness holds the best (y, y', output), ``counts`` (the counts of
        that output on y and on y', out of n each), n and the power settings.

    Raises
    ------
    ValueError
        Invalid arguments; K n above ``max_draws``; a sampler returning the wrong shape, non-integers
        or outputs outside [0, M).

    References
    ----------
    Label DP, 003 Definitions 2-3 / 004 Definition 2.2 (neighbours differ in one label); the bound is
    the module's Clopper-Pearson construction.

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> rr = RandomizedResponse(3, 1.0)
    >>> res = audit_label_sampler(lambda labels, rng: rr.sample(labels, rng), 1.0, num_classes=3, n=2000)
    >>> res.exact, res.holds
    (False, True)
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    K = check_int("num_classes", num_classes, low=2)
    M = K if num_outputs is None else check_int("num_outputs", num_outputs, low=2)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    max_draws = check_int("max_draws", max_draws, low=1)
    alt = max(2 * epsilon, epsilon + 0.5) if alternative_epsilon is None else check_real(
        "alternative_epsilon", alternative_epsilon, low=0.0)
    alpha = (1.0 - confidence) / (2 * K * M)
    if n is not None:
        n = check_int("n", n, low=1)
    if n is not None and K * n > max_draws:  # refuse before any work (the power search included)
        raise ValueError(f"the audit would draw n={n} outputs for each of num_classes={K} labels, {K * n:.3g} in "
                         f"all, above max_draws={max_draws:.3g}; pass max_draws= to allow it, or a smaller n")
    n_power = None
    if n is None:  # the power search itself stays within max_draws: at most max_draws // K per label
        cap = max_draws // K
        try:
            n_power = sample_size_for_power(epsilon, alt, M, alpha, power, max_n=max(1, min(10**7, cap)))
        except ValueError:
            if cap >= 10**7:
                raise
            raise ValueError(f"power {power:g} against alternative_epsilon={alt:g} needs more than max_draws // "
                             f"num_classes = {cap} samples per label (num_classes={K}, max_draws={max_draws:.3g}); "
                             f"pass max_draws= to allow more, n=, or a larger alternative_epsilon") from None
        n = n_power
    elif alternative_epsilon:  # reported alongside the given n
        n_power = sample_size_for_power(epsilon, alt, M, alpha, power)
    if K * n > max_draws:
        raise ValueError(f"the audit would draw n={n} outputs (for power {power:g}) for each of num_classes={K} "
                         f"labels, {K * n:.3g} in all, above max_draws={max_draws:.3g}; pass max_draws= to allow "
                         f"it, or n= / a larger alternative_epsilon")
    gen = as_generator(rng)
    y_obs, c_obs, k_obs = _observed_counts(sampler, K, M, n, gen)
    lr, y, y2, c, ka, kb = _best_log_ratio(y_obs, c_obs, k_obs, K, n, alpha)
    lb = max(0.0, lr)
    holds = lb <= epsilon
    expl = (f"statistical audit (not exact): epsilon >= {lb:.6g} with confidence {confidence:g} "
            f"({'no violation of' if holds else 'VIOLATES'} epsilon = {epsilon:g}); best event output={c} for "
            f"y={y} vs y'={y2}: counts {ka}/{n} vs {kb}/{n}; Clopper-Pearson, Bonferroni over "
            f"{2 * K * M} bounds; n = {n} per label"
            + (f" (power {power:g} to flag a randomized response at epsilon' = {alt:g} needs {n_power})"
               if n_power is not None else ""))
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=lb, delta_actual=None,
                         method="statistical audit of a black-box sampler (Clopper-Pearson lower bound, not exact)",
                         witness={"y": y, "y_prime": y2, "output": c, "n": n, "n_for_power": n_power,
                                  "power": power, "alternative_epsilon": alt, "confidence": confidence,
                                  "counts": (ka, kb)},
                         explanation=expl, exact=False)
