"""Records and independent verifiers of the randomized-response family (004 eq. (1), Algorithms 1-2),
with their planted bugs.

The verifier never calls the mechanism's ``privacy_loss`` (nor the loss helpers of
:mod:`simulations.mechanisms.randomized_response`). Two routes, cross-checked:

1. **enumeration** of the mechanism's own channel ``channel_matrix(prior)`` (all (y, y', z), in log
   space), when it has at most :data:`ENUMERATION_MAX_ENTRIES` entries and no probability below
   e^-700 (the float channel is then faithful);
2. the verifier's **own closed form**, written here: every column of Y_k holds three row classes,
   the kept label (keep/other = e^ε, log-ratio ε), the other labels of Y_k (0) and the labels
   outside Y_k (ln((e^ε+k-1)/k), :func:`outside_log_ratio`); the loss is the largest gap of one
   such column, O(K), exact to rounding from ε = 1e-8 to beyond 700.

When both run, the closed form is reported if the enumeration agrees with it within the
enumeration's own rounding (1e-12 of the largest ``|log-probability|``), otherwise the enumeration
(a mechanism whose channel is not Algorithm 1's, e.g. a planted bug, is reported as it behaves).
Past the enumeration size (K^2 > 2^22, e.g. K = 10^4) or where the float channel underflows
(ε above ~700), only the closed form runs, with Y_k from the verifier's own stable sort and, for
RRWithPrior, k* as the mechanism chooses it (``k_star``: the mechanism's description, not its
analysis). The prior-dependent mechanisms are checked over every prior given (``prior=`` one,
``priors=`` several) or over :func:`default_priors`.

References: 004 eq. (1), Algorithm 1, Lemma 1, Algorithm 2, Corollary 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive
from proofs_checks.catalogue import Example, MechanismRecord, PlantedBug
from proofs_checks.channels import DPCheckResult, as_channel, log_privacy_loss_witness, within
from simulations.mechanisms import RandomizedResponse, RRTopK, RRWithPrior
from simulations.mechanisms.labels import check_labels, check_priors
from simulations.seeding import check_generator

from ._common import certify, with_delta

__all__ = ["ENUMERATION_MAX_ENTRIES", "RECORDS", "RRTopKShortKeep", "RRTopKUniformFallback", "default_priors",
           "outside_log_ratio", "rr_top_k_short_keep_loss", "rr_top_k_uniform_fallback_loss"]

#: Largest channel (K x K entries) the verifier enumerates; above it only its closed form runs.
ENUMERATION_MAX_ENTRIES = 1 << 22
# Below ln P = -700 the float channel is near the end of the normal range (e^-708): not enumerated.
_FAITHFUL_LOG = 700.0

K = 5  # classes of the headline examples (the dp_checks rows)


def default_priors(num_classes: int) -> list[np.ndarray]:
    """Deterministic priors used when none is given to the RRTopK / RRWithPrior checkers.

    Uniform; linearly decreasing and increasing; a prior with ties at the k = 2 boundary
    (3, 2, 2, 1, ...) / sum; two tied labels carrying all the mass; geometric (ratio 1/2); a
    point mass on the last label.

    Parameters
    ----------
    num_classes : int >= 2

    Returns
    -------
    list of 7 ndarrays of shape (K,)

    References
    ----------
    004 Algorithms 1-2 (ties "broken arbitrarily": the tie cases are what a check must cover).

    Examples
    --------
    >>> [p.round(3).tolist() for p in default_priors(2)][:2]
    [[0.5, 0.5], [0.667, 0.333]]
    """
    K = check_int("num_classes", num_classes, low=2)
    ramp = np.arange(K, 0, -1, dtype=float)
    out = [np.full(K, 1.0 / K), ramp / ramp.sum(), ramp[::-1] / ramp.sum()]
    tie = np.r_[3.0, 2.0, 2.0, np.ones(K - 3)] if K >= 3 else np.array([1.0, 1.0])
    out.append(tie / tie.sum())
    out.append(np.r_[0.5, 0.5, np.zeros(K - 2)])
    geo = 0.5 ** np.arange(K)
    out.append(geo / geo.sum())
    out.append(np.eye(1, K, K - 1).ravel())  # a point mass on the last label (no K x K identity)
    return out


def outside_log_ratio(epsilon: float, k: int) -> float:
    """ln((1/k) / other) with other = 1/(e^ε + k - 1): a label outside Y_k against a non-kept one inside.

    ``log1p(expm1(ε)/k)`` for ε <= 1 (no cancellation at ε = 1e-8), ``ε - ln k + log1p((k-1)e^{-ε})``
    above (no overflow at ε = 700 and beyond).

    Parameters
    ----------
    epsilon : float > 0
    k : int >= 1

    Returns
    -------
    float

    References
    ----------
    004 Algorithm 1 steps 2-3.

    Examples
    --------
    >>> round(outside_log_ratio(math.log(3), 2), 12) == round(math.log(2), 12)  # (3 + 1)/2 = 2
    True
    """
    epsilon, k = check_positive("epsilon", epsilon), check_int("k", k, low=1)
    if epsilon <= 1.0:
        return math.log1p(math.expm1(epsilon) / k)
    return epsilon - math.log(k) + math.log1p((k - 1) * math.exp(-epsilon))


def _closed_form(order: np.ndarray, k: int, epsilon: float) -> tuple[float, tuple[int, int, int]]:
    """Largest gap of one column of Y_k (all columns of Y_k are alike), as log-ratios against ``other``."""
    K = order.size
    top = order[:k]
    z = int(top.min())
    col = np.full(K, 0.0 if k == 1 else outside_log_ratio(epsilon, k))
    if k > 1:
        col[top] = 0.0
        col[z] = epsilon
    y, y2 = int(np.argmax(col)), int(np.argmin(col))
    return float(col[y] - col[y2]), (y, y2, z)


def _smallest_log_probability(epsilon: float, k: int) -> float:
    """ln other = -ε - ln(1 + (k-1)e^{-ε}) <= the smallest nonzero log-probability of RRTop-k (k >= 2)."""
    return -epsilon - math.log1p((k - 1) * math.exp(-epsilon)) if k > 1 else 0.0


def _rr_family_result(mech, channel_of, order, k: int, epsilon: float) -> DPCheckResult:
    """Closed form + enumeration of ``channel_of()`` where faithful; see the module docstring."""
    Kc = order.size
    closed, wit = _closed_form(order, k, mech.epsilon)
    faithful = _smallest_log_probability(mech.epsilon, k) > -_FAITHFUL_LOG
    if Kc * Kc <= ENUMERATION_MAX_ENTRIES and faithful:
        with np.errstate(divide="ignore"):
            L = np.log(as_channel(channel_of(), name="mechanism's channel", num_rows=Kc))
        enum, wit_e = log_privacy_loss_witness(L)
        loss, agree, tol = certify(enum, closed, L)
        if not agree:
            wit = wit_e
        how = (f"enumeration of the {Kc} x {Kc} channel: {enum:.12g} "
               + (f"(= the closed form within rounding {tol:.2g})" if agree else
                  f"(DIFFERS from Algorithm 1's closed form {closed:.12g}: the channel is reported)"))
        method = "exact enumeration of the K x K channel, certified by the closed-form log-ratio column"
    else:
        loss = closed
        why = f"K^2 = {Kc * Kc} > {ENUMERATION_MAX_ENTRIES}" if faithful else "float channel underflows (eps > ~700)"
        how = f"not enumerated ({why}): the verifier's closed form only"
        method = "closed-form log-ratio column (004 Algorithm 1), O(K)"
    holds = within(loss, epsilon)
    y, y2, z = wit
    expl = (f"max ln P(z|y)/P(z|y') = {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g} "
            f"at y={y}, y'={y2}, output={z}; closed form (keep/other = e^eps, outside/other = (e^eps+k-1)/k, "
            f"k = {k}) {closed:.12g}; {how}")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=float(loss), delta_actual=0.0,
                         method=method, witness={"y": y, "y_prime": y2, "output": z}, explanation=expl)


def _order(prior: np.ndarray) -> np.ndarray:
    return np.argsort(-prior, kind="stable")  # Y_k: largest priors, ties by smaller label (004 Alg. 1)


def verify_randomized_response(mech: RandomizedResponse, epsilon, delta) -> DPCheckResult:
    """Exact loss of K-ary randomized response (004 eq. (1)): RRTop-k with k = K (module docstring).

    Parameters
    ----------
    mech : RandomizedResponse
    epsilon : float >= 0, the claimed budget
    delta : float, carried into the result

    Returns
    -------
    DPCheckResult with the witness (y, y', output).

    References
    ----------
    004 eq. (1).

    Examples
    --------
    >>> round(verify_randomized_response(RandomizedResponse(3, 1.0), 1.0, 0.0).epsilon_actual, 12)
    1.0
    """
    res = _rr_family_result(mech, mech.channel_matrix, np.arange(mech.num_classes), mech.num_classes, epsilon)
    return with_delta(res, delta)


def _check_over_priors(mech, epsilon, delta, prior, priors, loss_of, describe):
    if prior is not None and priors is not None:
        raise ValueError("give prior= or priors=, not both")
    given = [prior] if prior is not None else (list(priors) if priors is not None else None)
    plist = given if given is not None else default_priors(mech.num_classes)
    if not plist:
        raise ValueError("priors must not be empty")
    plist = [check_priors(p, mech.num_classes) for p in plist]
    if any(p.ndim != 1 for p in plist):
        raise ValueError(f"each prior must have shape ({mech.num_classes},)")
    results = [loss_of(p) for p in plist]
    i = int(np.argmax([r.epsilon_actual for r in results]))
    worst = results[i]
    source = "the given prior" if prior is not None else (
        f"{len(plist)} given priors" if priors is not None else f"{len(plist)} default priors")
    holds = all(r.holds for r in results)
    expl = (f"exact check over {source}: worst loss {worst.epsilon_actual:.12g} "
            f"{'<=' if holds else '>'} epsilon = {epsilon:g} at prior #{i} ({describe(plist[i])}); "
            + worst.explanation)
    witness = dict(worst.witness, prior_index=i, prior=np.asarray(plist[i], dtype=float).tolist(),
                   losses=[r.epsilon_actual for r in results])
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=worst.epsilon_actual,
                         delta_actual=0.0, method="exact enumeration of the channel for every prior (" + worst.method + ")",
                         witness=witness, explanation=expl)


def verify_rr_top_k(mech: RRTopK, epsilon, delta, prior=None, priors=None) -> DPCheckResult:
    """Exact loss of RRTop-k (004 Algorithm 1, Lemma 1), worst over the priors; planted bugs as their channel.

    Parameters
    ----------
    mech : RRTopK (or a subclass)
    epsilon : float >= 0
    delta : float
    prior, priors : one prior (K,) or several; default :func:`default_priors`

    Returns
    -------
    DPCheckResult; the witness holds every prior's loss and the worst prior.

    References
    ----------
    004 Algorithm 1, Lemma 1.

    Examples
    --------
    >>> round(verify_rr_top_k(RRTopK(4, 1.0, 2), 1.0, 0.0).epsilon_actual, 12)
    1.0
    """
    return _check_over_priors(
        mech, epsilon, delta, prior, priors,
        lambda p: _rr_family_result(mech, lambda: mech.channel_matrix(p), _order(p), mech.k, epsilon),
        lambda p: f"k={mech.k}, Y_k={_order(p)[:mech.k].tolist()}")


def verify_rr_with_prior(mech: RRWithPrior, epsilon, delta, prior=None, priors=None) -> DPCheckResult:
    """Exact loss of RRWithPrior, worst over the priors: each prior's channel is checked with k = k*(prior).

    Parameters
    ----------
    mech : RRWithPrior
    epsilon : float >= 0
    delta : float
    prior, priors : one prior (K,) or several; default :func:`default_priors`

    Returns
    -------
    DPCheckResult; ε for a prior with k* >= 2, 0 for k* = 1.

    References
    ----------
    004 Algorithm 2, Corollary 2.

    Examples
    --------
    >>> verify_rr_with_prior(RRWithPrior(3, 1.0), 1.0, 0.0, prior=[1.0, 0.0, 0.0]).epsilon_actual
    0.0
    """
    return _check_over_priors(
        mech, epsilon, delta, prior, priors,
        lambda p: _rr_family_result(mech, lambda: mech.channel_matrix(p), _order(p), mech.k_star(p), epsilon),
        lambda p: f"k*={mech.k_star(p)}")


# ---------------------------------------------------------------- planted bugs


@dataclass(frozen=True, slots=True)
class RRTopKShortKeep(RRTopK):
    r"""PLANTED BUG: RRTop-k keeping y w.p. :math:`e^\varepsilon/(e^\varepsilon+k)`, not :math:`e^\varepsilon/(e^\varepsilon+k-1)`.

    The wrong denominator no longer normalizes a row, so the missing mass must go somewhere: the
    natural sampler ("keep y if u < keep, else a uniform other label of :math:`Y_k`") sends all of it
    to :math:`Y_k` minus y. With :math:`E = e^\varepsilon`, a column z of :math:`Y_k` holds
    q = E/(E+k) (row z), r = k/((k-1)(E+k)) (rows of :math:`Y_k` other than z) and s = 1/k (rows
    outside :math:`Y_k`, if k < K). The comparisons q vs r, q vs s and s vs r all flip at
    E = k/(k-1): above, q > s > r; below, q < s < r. So the loss is
    :math:`|\ln(q/r)| = |\varepsilon - \ln(k/(k-1))|` (:func:`rr_top_k_short_keep_loss`): a violation
    exactly when :math:`\varepsilon < \ln(k/(k-1))/2` (k = 2, ε = 0.1: ln 2 - 0.1 ≈ 0.593), an
    untight loss below ε otherwise.

    Overrides the public ``channel_matrix`` and ``sample`` (inversion of its own channel rows; one
    prior of shape (K,) only). Needs k >= 2.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        The claimed ε.
    k : int, 2 <= k <= K
        Size of :math:`Y_k`.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.RRTopK`, or k < 2.

    References
    ----------
    004 Algorithm 1, Lemma 1.

    Examples
    --------
    >>> import math
    >>> from proofs_checks.dp import check_label_dp
    >>> res = check_label_dp(RRTopKShortKeep(3, 0.1, 2), 0.1, prior=[0.5, 0.3, 0.2])
    >>> res.holds, abs(res.epsilon_actual - (math.log(2) - 0.1)) < 1e-12
    (False, True)
    """

    def __post_init__(self):
        RRTopK.__post_init__(self)
        if self.k < 2:
            raise ValueError(f"the short-keep bug needs k >= 2 (no other label to receive the mass), got k={self.k}")

    def keep_and_other(self) -> tuple[float, float]:
        r"""(keep, per-other-label) inside :math:`Y_k`: :math:`e^\varepsilon/(e^\varepsilon+k)` and (1 - keep)/(k - 1).

        Returns
        -------
        tuple of float
            (keep, other).

        References
        ----------
        004 Algorithm 1 (correct keep probability e^ε/(e^ε+k-1)).

        Examples
        --------
        At :math:`e^\varepsilon = 3`, k = 2: (3/5, 2/5).

        >>> import math
        >>> [round(v, 12) for v in RRTopKShortKeep(3, math.log(3), 2).keep_and_other()]
        [0.6, 0.4]
        """
        t = math.exp(-self.epsilon)
        keep = 1.0 / (1.0 + self.k * t)  # e^ε / (e^ε + k)
        return keep, self.k * t / ((self.k - 1) * (1.0 + self.k * t))  # (1 - keep) / (k - 1)

    def channel_matrix(self, prior) -> np.ndarray:
        r""":math:`P[y, z]` with the bug's keep/other inside :math:`Y_k`; outside :math:`Y_k` uniform on :math:`Y_k`.

        Parameters
        ----------
        prior : array_like, shape (K,)
            One prior (it chooses :math:`Y_k`: largest priors, ties by smaller label).

        Returns
        -------
        ndarray, shape (K, K)
            The channel.

        Raises
        ------
        ValueError
            A prior that is not one probability vector of shape (K,).

        References
        ----------
        004 Algorithm 1.

        Examples
        --------
        At :math:`e^\varepsilon = 3`, k = 2, prior (3, 2, 1)/6; the same as
        :func:`proofs_checks.exact.rr_top_k_short_keep_channel_exact` (keep 3/5, other 2/5, outside 1/2):

        >>> import math
        >>> RRTopKShortKeep(3, math.log(3), 2).channel_matrix(np.array([3, 2, 1]) / 6).round(12).tolist()
        [[0.6, 0.4, 0.0], [0.4, 0.6, 0.0], [0.5, 0.5, 0.0]]
        """
        p = check_priors(prior, self.num_classes)
        if p.ndim != 1:
            raise ValueError(f"prior must have shape ({self.num_classes},), got shape {p.shape}")
        keep, other = self.keep_and_other()
        top = _order(p)[: self.k]
        P = np.zeros((self.num_classes, self.num_classes))
        P[:, top] = 1.0 / self.k
        P[np.ix_(top, top)] = other
        P[top, top] = keep
        return P

    def sample(self, labels, rng: np.random.Generator, prior) -> np.ndarray:
        r"""Draw from the rows of :meth:`channel_matrix` by inversion.

        Parameters
        ----------
        labels : array_like of int, shape (N,)
            Labels in [0, K).
        rng : numpy.random.Generator
            The generator.
        prior : array_like, shape (K,)
            One prior, shared by all N labels.

        Returns
        -------
        ndarray of int64, shape (N,)
            The privatized labels.

        Raises
        ------
        ValueError
            Labels out of range or an invalid prior.
        TypeError
            If ``rng`` is not a numpy Generator.

        References
        ----------
        004 Algorithm 1.

        Examples
        --------
        A label outside :math:`Y_2 = \{0, 1\}` is sent into :math:`Y_2`:

        >>> out = RRTopKShortKeep(3, 0.1, 2).sample(np.full(100, 2), np.random.default_rng(0), [0.5, 0.3, 0.2])
        >>> out.shape, sorted(set(out.tolist()))
        ((100,), [0, 1])
        """
        rng = check_generator(rng)
        labels = check_labels(labels, self.num_classes)
        cum = np.cumsum(self.channel_matrix(prior)[labels], axis=1)
        u = rng.random(labels.size)[:, None] * cum[:, -1:]
        return np.minimum((cum <= u).sum(axis=1), self.num_classes - 1).astype(np.int64)


def rr_top_k_short_keep_loss(epsilon: float, k: int) -> float:
    r"""Exact privacy loss of :class:`RRTopKShortKeep`: :math:`|\varepsilon - \ln(k/(k-1))|` (derived in its docstring).

    Parameters
    ----------
    epsilon : float > 0
        The mechanism's ε.
    k : int >= 2
        Size of :math:`Y_k`.

    Returns
    -------
    float
        The loss.

    Raises
    ------
    ValueError
        If ε <= 0 or k < 2.

    References
    ----------
    004 Algorithm 1 (the correct keep probability gives loss ε, Lemma 1).

    Examples
    --------
    >>> import math
    >>> round(rr_top_k_short_keep_loss(0.1, 2), 12) == round(math.log(2) - 0.1, 12)
    True
    """
    epsilon, k = check_positive("epsilon", epsilon), check_int("k", k, low=2)
    return abs(epsilon - math.log(k / (k - 1)))


@dataclass(frozen=True, slots=True)
class RRTopKUniformFallback(RRTopKShortKeep):
    r"""PLANTED BUG: keep y w.p. :math:`e^\varepsilon/(e^\varepsilon+k)`, else a uniform label of :math:`Y_k` (y included).

    With :math:`E = e^\varepsilon`: P(y | y) = E/(E+k) + (k/(E+k))(1/k) = (E+1)/(E+k) and
    P(z | y) = 1/(E+k) for z in :math:`Y_k` minus y; rows outside :math:`Y_k` put 1/k > 1/(E+k) on
    each z. The worst column ratio is ((E+1)/(E+k)) / (1/(E+k)): loss :math:`\ln(1 + e^\varepsilon)`
    > ε for every ε (:func:`rr_top_k_uniform_fallback_loss`). Needs k >= 2.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    epsilon : float > 0
        The claimed ε.
    k : int, 2 <= k <= K
        Size of :math:`Y_k`.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.RRTopK`, or k < 2.

    References
    ----------
    004 Algorithm 1, Lemma 1.

    Examples
    --------
    >>> import math
    >>> from proofs_checks.dp import check_label_dp
    >>> res = check_label_dp(RRTopKUniformFallback(3, 1.0, 2), 1.0, prior=[0.5, 0.3, 0.2])
    >>> res.holds, abs(res.epsilon_actual - math.log(1 + math.e)) < 1e-12
    (False, True)
    """

    def keep_and_other(self) -> tuple[float, float]:
        r"""(P(y | y), P(z | y)) inside :math:`Y_k`: :math:`(e^\varepsilon+1)/(e^\varepsilon+k)` and :math:`1/(e^\varepsilon+k)`.

        Returns
        -------
        tuple of float
            (keep, other).

        References
        ----------
        004 Algorithm 1.

        Examples
        --------
        At :math:`e^\varepsilon = 3`, k = 2: (4/5, 1/5).

        >>> import math
        >>> [round(v, 12) for v in RRTopKUniformFallback(3, math.log(3), 2).keep_and_other()]
        [0.8, 0.2]
        """
        t = math.exp(-self.epsilon)
        other = t / (1.0 + self.k * t)  # 1 / (e^ε + k)
        return (1.0 + t) / (1.0 + self.k * t), other  # (e^ε + 1) / (e^ε + k)


def rr_top_k_uniform_fallback_loss(epsilon: float) -> float:
    r"""Exact privacy loss of :class:`RRTopKUniformFallback`: :math:`\ln(1 + e^\varepsilon)` (derived in its docstring).

    Parameters
    ----------
    epsilon : float > 0
        The mechanism's ε.

    Returns
    -------
    float
        The loss.

    Raises
    ------
    ValueError
        If ε <= 0.

    References
    ----------
    004 Algorithm 1.

    Examples
    --------
    >>> import math
    >>> round(rr_top_k_uniform_fallback_loss(math.log(3)) - math.log(4), 12)
    0.0
    """
    return math.log1p(math.exp(check_positive("epsilon", epsilon)))


# ---------------------------------------------------------------- records

#: The public prior the audit adapters of RRTopK / RRWithPrior sample at (decreasing, no ties).
AUDIT_PRIOR = np.array([0.4, 0.25, 0.15, 0.12, 0.08])


def _audit_with_prior(mech):
    prior = AUDIT_PRIOR if mech.num_classes == AUDIT_PRIOR.size else np.full(mech.num_classes, 1 / mech.num_classes)
    return (lambda labels, rng: mech.sample(labels, rng, prior)), mech.num_classes


RECORDS = (
    MechanismRecord(
        RandomizedResponse, "randomized response", "004 eq. (1)", verify_randomized_response,
        examples=(Example(f"K={K}", lambda e: RandomizedResponse(K, e), loss=lambda e: e),
                  Example("K=2", lambda e: RandomizedResponse(2, e), loss=lambda e: e)),
        paper_claim="tight", audit_sampler=lambda m: (m.sample, m.num_classes), order=10),
    MechanismRecord(
        RRTopK, "RRTop-k (k=2)", "004 Alg. 1", verify_rr_top_k,
        examples=(Example(f"K={K}, k=2", lambda e: RRTopK(K, e, 2), loss=lambda e: e),
                  Example(f"K={K}, k=1 (top label only)", lambda e: RRTopK(K, e, 1), loss=lambda e: 0.0),
                  Example(f"K={K}, k=3, one prior", lambda e: RRTopK(K, e, 3), loss=lambda e: e,
                          checker_kwargs={"prior": [0.1, 0.3, 0.2, 0.3, 0.1]})),
        paper_claim="tight", audit_sampler=_audit_with_prior, order=20,
        planted_bugs=(
            PlantedBug("RRTop-k: e^eps/(e^eps+k)", lambda e: RRTopKShortKeep(K, e, 2),
                       loss=lambda e: rr_top_k_short_keep_loss(e, 2), order=20,
                       derivation="|eps - ln(k/(k-1))|: RRTopKShortKeep's docstring"),
            PlantedBug("RRTop-k: e^eps/(e^eps+k), uniform fallback", lambda e: RRTopKUniformFallback(K, e, 2),
                       loss=rr_top_k_uniform_fallback_loss, order=30,
                       derivation="ln(1 + e^eps): RRTopKUniformFallback's docstring"))),
    MechanismRecord(
        RRWithPrior, "RRWithPrior", "004 Alg. 2", verify_rr_with_prior,
        # 004 Corollary 2 claims eps-DP; over the default priors (uniform: k* >= 2) the loss is eps
        examples=(Example(f"K={K}", lambda e: RRWithPrior(K, e), loss=lambda e: e),
                  Example(f"K={K}, point mass (k* = 1)", lambda e: RRWithPrior(K, e), loss=lambda e: 0.0,
                          checker_kwargs={"prior": [1.0, 0.0, 0.0, 0.0, 0.0]})),
        paper_claim="at most", audit_sampler=_audit_with_prior, order=30),
)
