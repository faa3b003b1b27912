"""Exact label-DP verification: privacy loss of channels and the ``check_label_dp`` dispatcher.

Label DP (003 Definition 1, 004 Definition 1): neighbouring inputs differ in one *label*
(replace-one), never by adding or removing a point. For a finite local randomizer with channel
P[y, z] = P(output z | label y) the exact privacy loss is max_{y, y', z} ln(P[y, z] / P[y', z]).

What :func:`check_label_dp` is handed is never guessed: a mechanism catalogued in
:mod:`proofs_checks.catalogue` (its record's independent verifier), an array-like channel
(:func:`check_channel`), or anything else with an explicit ``kind=``: ``"channel"`` (an object with
a parameter-free ``channel_matrix()``), ``"prior_channel"`` (a callable ``prior -> channel`` or an
object with ``channel_matrix(prior)``, enumerated for every prior of a stated set,
:func:`check_prior_channel`), ``"sampler"`` (a black-box ``(labels, rng) -> outputs``, audited
statistically by :func:`proofs_checks.audit.audit_label_sampler`, ``exact=False``).

A channel must be a mechanism: rows are probability vectors (:func:`as_channel`, tolerance
:func:`row_sum_tolerance`); sub-stochastic event matrices have their own entry points
(:func:`max_event_privacy_loss`, :func:`event_privacy_loss_witness`). Unknown keyword arguments raise
``TypeError`` (:func:`reject_unknown_keywords`). The structured checkers pass closed-form
log-ratios (:func:`log_privacy_loss_witness`), so their losses are exact to rounding from ε = 1e-8 to
beyond 700.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Callable

import numpy as np

from limits.validation import check_int, check_probability, check_real

from .audit import audit_label_sampler
from .result import DPCheckResult

__all__ = ["HOW_TO_PASS", "MAX_ENUMERATION", "MECHANISM_KINDS", "ROW_SUM_ATOL", "TOL", "DPCheckResult", "as_channel", "as_subchannel", "audit_priors",
           "check_channel", "check_label_dp", "check_log_channel", "check_prior_channel", "checker_keywords",
           "event_privacy_loss_witness", "is_tight", "log_privacy_loss_witness", "max_event_privacy_loss",
           "max_privacy_loss", "mechanism_kind", "privacy_loss_witness", "reject_unknown_keywords",
           "row_sum_tolerance", "within"]

# Relative slack when comparing an exactly computed loss with the claimed epsilon (float rounding
# of log-ratios of probabilities; the exact-arithmetic tests confirm the floats).
TOL = 1e-9


# A channel's rows must sum to 1 within ROW_SUM_ATOL + n_outputs * 2^-52 (the second term is the
# worst rounding of a float64 sum of n_outputs probabilities, e.g. the 2^16 columns of a vector
# mechanism); anything further off is not a mechanism and is refused.
ROW_SUM_ATOL = 1e-12


def row_sum_tolerance(n_outputs: int, atol: float | None = None) -> float:
    """The allowed |row sum - 1| of a channel with ``n_outputs`` columns: ``atol`` (default
    :data:`ROW_SUM_ATOL`) + n_outputs * 2^-52."""
    base = ROW_SUM_ATOL if atol is None else check_real("row_sum_atol", atol, low=0.0)
    return base + n_outputs * float(np.finfo(float).eps)


def _as_matrix(channel, name: str) -> np.ndarray:
    try:
        P = np.asarray(channel, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a 2-D array of probabilities, got {type(channel).__name__}: {exc}") from None
    if P.ndim != 2 or P.shape[0] < 1 or P.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-D array (inputs x outputs), got shape {P.shape}")
    if np.any(np.isnan(P)):
        i, j = np.argwhere(np.isnan(P))[0]
        raise ValueError(f"{name} must not contain NaN, got NaN at [{i}, {j}]")
    if not np.all(np.isfinite(P)):
        i, j = np.argwhere(~np.isfinite(P))[0]
        raise ValueError(f"{name} must hold finite probabilities, got {P[i, j]} at [{i}, {j}]")
    if np.any(P < 0):
        i, j = np.argwhere(P < 0)[0]
        raise ValueError(f"{name} must hold non-negative probabilities, got {P[i, j]!r} at [{i}, {j}]")
    return P


def as_channel(channel, *, name: str = "channel", num_rows: int | None = None,
               row_sum_atol: float | None = None) -> np.ndarray:
    """Validate a channel P[y, z] = P(output z | input y) and return it as a float64 array.

    Every row must be a probability vector: finite, non-negative, summing to 1 within
    :func:`row_sum_tolerance`; with ``num_rows`` the channel must have exactly that many rows (one per
    label). ``row_sum_atol`` widens the row-sum tolerance for channels that are solver outputs (state
    the solver's tolerance). Raises ``ValueError`` naming ``name`` and what is wrong.
    """
    P = _as_matrix(channel, name)
    if num_rows is not None and P.shape[0] != num_rows:
        raise ValueError(f"{name} must have one row per label ({num_rows} rows), got shape {P.shape}")
    sums = P.sum(axis=1)
    tol = row_sum_tolerance(P.shape[1], row_sum_atol)
    bad = np.flatnonzero(np.abs(sums - 1.0) > tol)
    if bad.size:
        raise ValueError(f"{name} rows must sum to 1 (within {tol:.3g}): row {bad[0]} sums to {sums[bad[0]]!r}"
                         f" ({bad.size} of {P.shape[0]} rows off)")
    return P


def as_subchannel(subchannel, *, name: str = "subchannel") -> np.ndarray:
    """Validate a sub-stochastic matrix S[y, e] = P(event e | input y): entries >= 0, row sums <= 1 (+ tolerance).

    The events need not be disjoint or exhaustive only in the sense that each row's mass is at most
    one: typically a channel with some output columns merged or dropped.
    """
    S = _as_matrix(subchannel, name)
    sums = S.sum(axis=1)
    tol = row_sum_tolerance(S.shape[1])
    bad = np.flatnonzero(sums > 1.0 + tol)
    if bad.size:
        raise ValueError(f"{name} rows must sum to at most 1 (within {tol:.3g}): row {bad[0]} sums to {sums[bad[0]]!r}")
    return S


def log_privacy_loss_witness(log_channel) -> tuple[float, tuple[int, int, int] | None]:
    """Exact max over (y, y', z) of L[y, z] - L[y', z] for a log-channel L (``-inf`` = probability 0).

    Any per-column offset cancels, so L may hold ln(P[y, z] / c_z) for any c_z > 0: the structured
    exact checks pass log-ratios computed in closed form (no rounding of P near 0 or 1). Columns that
    are ``-inf`` throughout (0/0) are ignored; ``-inf`` next to a finite entry gives ``inf``.
    """
    L = np.asarray(log_channel, dtype=float)
    if L.ndim != 2 or L.shape[0] < 1 or L.shape[1] < 1:
        raise ValueError(f"log_channel must be a non-empty 2-D array, got shape {L.shape}")
    if np.any(np.isnan(L)) or np.any(L == np.inf):
        raise ValueError("log_channel must hold log-probabilities in [-inf, inf) without NaN")
    col_max = L.max(axis=0)  # per output z: the largest and the smallest log-probability
    col_min = L.min(axis=0)
    live = np.isfinite(col_max)  # columns with some positive mass (all-zero columns: 0/0, ignored)
    if not np.any(live):
        return 0.0, None
    with np.errstate(invalid="ignore"):  # -inf - -inf in all-zero columns, masked just below
        gaps = np.where(live, col_max - col_min, -np.inf)  # +inf where some row has 0 and another > 0
    z = int(np.argmax(gaps))
    y = int(np.argmax(L[:, z]))
    y2 = int(np.argmin(L[:, z]))
    return float(gaps[z]), (y, y2, z)


def _log(P: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(P)


def privacy_loss_witness(channel) -> tuple[float, tuple[int, int, int] | None]:
    """Exact max over (y, y', z) of ln(P[y, z] / P[y', z]) and the (y, y', z) attaining it.

    Parameters
    ----------
    channel : array_like, shape (n_inputs, n_outputs)
        A channel: rows are probability vectors (validated by :func:`as_channel`). For sub-stochastic
        event matrices use :func:`event_privacy_loss_witness`.

    Returns
    -------
    loss : float
        0/0 pairs are ignored; p/0 with p > 0 gives ``inf``. Computed as differences of logs, so
        tiny probabilities do not underflow the ratio.
    witness : (y, y', z) or None when every column is all-zero.
    """
    return log_privacy_loss_witness(_log(as_channel(channel)))


def max_privacy_loss(channel, **kwargs) -> float:
    """Exact worst-case privacy loss max_{y, y', z} ln(P[y, z] / P[y', z]).

    ``channel`` is a channel matrix (any array-like, rows summing to 1), or anything
    :func:`check_label_dp` checks exactly: a catalogued mechanism, or an object / callable with
    ``kind="channel"`` or ``kind="prior_channel"`` (the worst loss over the priors, ``kwargs`` as
    there). A black-box sampler has no exact loss: ``ValueError`` (use :func:`check_label_dp` for its
    audit).

    Examples
    --------
    >>> round(max_privacy_loss([[0.75, 0.25], [0.25, 0.75]]), 12) == round(float(np.log(3)), 12)
    True
    """
    if _is_array_like(channel):
        reject_unknown_keywords(kwargs, (), "a channel array")
        return privacy_loss_witness(channel)[0]
    if kwargs.get("kind") == "sampler":
        raise ValueError("mechanism is a black-box sampler: it has no exact privacy loss; "
                         "check_label_dp(sampler, epsilon, kind='sampler', ...) runs the statistical audit")
    res = check_label_dp(channel, 0.0, **kwargs)
    if not res.exact:
        raise ValueError("mechanism is a black-box sampler: it has no exact privacy loss; "
                         "check_label_dp(sampler, epsilon, kind='sampler', ...) runs the statistical audit")
    return res.epsilon_actual


def event_privacy_loss_witness(subchannel) -> tuple[float, tuple[int, int, int] | None]:
    """:func:`privacy_loss_witness` for a sub-stochastic matrix of event probabilities (rows sum to <= 1).

    ln P(E | y) / P(E | y') over the given events only: a lower bound on the mechanism's loss unless
    the events include the worst one. Entry point for event sub-channels (e.g. a few output events of
    a large channel); :func:`check_label_dp` and :func:`max_privacy_loss` accept only full channels.
    """
    return log_privacy_loss_witness(_log(as_subchannel(subchannel)))


def max_event_privacy_loss(subchannel) -> float:
    """max over (y, y', event) of ln(S[y, e] / S[y', e]) for a sub-stochastic event matrix (see above)."""
    return event_privacy_loss_witness(subchannel)[0]


# The catalogue's verifiers by mechanism class, filled when :mod:`proofs_checks.mechanisms` is imported
# (read by :mod:`proofs_checks.privacy_profile`); :func:`check_label_dp` reads the records themselves.
_CHECKERS: dict[type, Callable[..., DPCheckResult]] = {}


def within(actual: float, claimed: float) -> bool:
    """``actual <= claimed`` up to the relative float tolerance :data:`TOL`."""
    return actual <= claimed * (1 + TOL) + TOL


def is_tight(actual: float, claimed: float) -> bool:
    """``actual == claimed`` up to :data:`TOL` (relative): the claimed ε is attained, not only respected."""
    return abs(actual - claimed) <= TOL * max(1.0, abs(claimed))


def _verdict(loss: float, w, epsilon: float, method: str, labels=None, outputs=None) -> DPCheckResult:
    witness = {}
    if w is not None:
        y, y2, z = w
        witness = {"y": labels[y] if labels is not None else y,
                   "y_prime": labels[y2] if labels is not None else y2,
                   "output": outputs[z] if outputs is not None else z}
    holds = within(loss, epsilon)
    expl = (f"max ln P(z|y)/P(z|y') = {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g}"
            + (f" at y={witness['y']}, y'={witness['y_prime']}, output={witness['output']}" if witness else ""))
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=loss, delta_actual=0.0,
                         method=method, witness=witness, explanation=expl)


def check_channel(channel, epsilon: float, *, method: str = "exact enumeration of the channel",
                  labels=None, outputs=None, num_classes: int | None = None,
                  row_sum_atol: float | None = None) -> DPCheckResult:
    """Pure ε-DP check of a finite channel P[y, z] by exact enumeration of (y, y', z).

    Parameters
    ----------
    channel : array_like, shape (n_inputs, n_outputs)
        Rows must be probability vectors (:func:`as_channel`); ``ValueError`` otherwise.
    epsilon : float >= 0, the claimed budget.
    labels, outputs : optional sequences naming the rows and columns in the witness.
    num_classes : int, optional
        The number of labels: the channel must have exactly this many rows.
    row_sum_atol : float, optional
        Row-sum tolerance instead of :data:`ROW_SUM_ATOL` (e.g. an LP solver's feasibility tolerance).

    Returns
    -------
    DPCheckResult with the exact loss and its witness (y, y', output).
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    P = as_channel(channel, num_rows=num_classes, row_sum_atol=row_sum_atol)
    loss, w = log_privacy_loss_witness(_log(P))
    return _verdict(loss, w, epsilon, method, labels, outputs)


def check_log_channel(log_channel, epsilon: float, *, method: str) -> DPCheckResult:
    """:func:`check_channel` from a log-channel ln(P[y, z] / c_z) computed in closed form by a structured checker."""
    epsilon = check_real("epsilon", epsilon, low=0.0)
    loss, w = log_privacy_loss_witness(log_channel)
    return _verdict(loss, w, epsilon, method)


def checker_keywords(fn) -> tuple[str, ...] | None:
    """The keyword arguments a verifier ``fn(mechanism, epsilon, delta, **kw)`` accepts (None if it takes ``**kwargs``)."""
    params = list(inspect.signature(fn).parameters.values())[3:]
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return tuple(p.name for p in params)


def reject_unknown_keywords(kwargs: dict, accepted, what: str) -> None:
    """``TypeError`` naming every keyword of ``kwargs`` not in ``accepted`` (a misspelt ``prio=`` must not
    silently fall back to defaults)."""
    if accepted is None:
        return
    unknown = sorted(set(kwargs) - set(accepted))
    if unknown:
        raise TypeError(f"unexpected keyword argument(s) {unknown} for {what}; "
                        f"accepted: {sorted(accepted) if accepted else 'none'}")


def _is_array_like(x) -> bool:
    return isinstance(x, (np.ndarray, list, tuple)) or (
        not callable(x) and not hasattr(x, "channel_matrix") and hasattr(x, "__array__"))


def _required_positional(fn) -> int | None:
    """Number of required positional parameters of ``fn`` (None when it cannot be inspected)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    return sum(1 for p in params if p.default is inspect.Parameter.empty
               and p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD))


MECHANISM_KINDS = ("channel", "prior_channel", "sampler")


def mechanism_kind(mechanism, kind: str | None = None) -> str:
    """How an uncatalogued ``mechanism`` reads, guessed from its signature (used by
    :func:`proofs_checks.privacy_profile.privacy_profile` and :func:`proofs_checks.utility_gap`;
    :func:`check_label_dp` does not guess: it needs ``kind=`` for these).

    * ``"channel"``: an array-like (K, M) channel, or an object with a parameter-free ``channel_matrix()``;
    * ``"prior_channel"``: a callable ``prior -> channel`` (one required argument) or an object whose
      ``channel_matrix`` takes the prior;
    * ``"sampler"``: a callable ``(labels, rng) -> outputs`` (two required arguments), audited statistically.

    ``kind`` overrides the detection (e.g. for a callable whose signature cannot be inspected).
    """
    if kind is not None:
        if kind not in MECHANISM_KINDS:
            raise ValueError(f"kind must be one of {list(MECHANISM_KINDS)}, got kind={kind!r}")
        return kind
    if _is_array_like(mechanism):
        return "channel"
    if hasattr(mechanism, "channel_matrix"):
        return "prior_channel" if _required_positional(mechanism.channel_matrix) == 1 else "channel"
    if callable(mechanism):
        n = _required_positional(mechanism)
        if n == 1:
            return "prior_channel"
        if n == 2:
            return "sampler"
        raise ValueError(f"mechanism is a callable with {n} required arguments: expected prior -> channel (1) or "
                         f"(labels, rng) -> outputs (2); pass kind= to say which")
    raise ValueError(f"mechanism has no exact privacy checker: {type(mechanism).__name__} is neither a registered "
                     f"mechanism, an array-like channel, a callable, nor has channel_matrix")


def audit_priors(num_classes: int, rng=0, *, draws: int = 10, concentrations=(0.1, 1.0, 10.0),
                 max_point_masses: int = 32) -> list[np.ndarray]:
    """The priors a prior-dependent randomizer is checked over when none are given, shapes (K,).

    ``draws`` Dirichlet(α) priors for each α in ``concentrations`` (sparse-ish to near uniform), the
    point masses on each label (the first and last ``max_point_masses // 2`` labels when K is larger),
    and ties: uniform, two labels sharing all the mass, (3, 2, 2, 1, ..., 1)/sum (a tie at the k = 2
    boundary). Deterministic for a given ``rng`` seed.
    """
    from simulations.seeding import as_generator

    K = check_int("num_classes", num_classes, low=2)
    gen = as_generator(rng)
    out = [gen.dirichlet(np.full(K, float(a))) for a in concentrations for _ in range(draws)]
    labels = range(K) if K <= max_point_masses else [*range(max_point_masses // 2),
                                                     *range(K - max_point_masses // 2, K)]
    out += [np.eye(1, K, j).ravel() for j in labels]
    tie = np.r_[3.0, 2.0, 2.0, np.ones(K - 3)] if K >= 3 else np.array([1.0, 1.0])
    out += [np.full(K, 1.0 / K), np.r_[0.5, 0.5, np.zeros(K - 2)], tie / tie.sum()]
    return out


#: Default cap on the exact enumeration of a prior-dependent randomizer: (number of priors) x K x K
#: channel entries (8 bytes each, one channel at a time). 10^9 allows K ~ 3900 over the 65 drawn
#: priors; num_classes=10**7 (6.5e15 entries) spent minutes drawing priors before failing.
MAX_ENUMERATION = 10**9


def _n_audit_priors(K: int, draws: int, concentrations=(0.1, 1.0, 10.0), max_point_masses: int = 32) -> int:
    """The number of priors :func:`audit_priors` returns, computed without drawing them."""
    return draws * len(concentrations) + (K if K <= max_point_masses else 2 * (max_point_masses // 2)) + 3


def check_prior_channel(channel_of, epsilon: float, *, num_classes: int | None = None, prior=None, priors=None,
                        rng=0, draws: int = 10, max_entries: int = MAX_ENUMERATION) -> DPCheckResult:
    """Exact ε-label-DP check of a prior-dependent randomizer ``prior -> channel`` over a set of priors.

    Parameters
    ----------
    channel_of : callable ``prior (K,) -> channel (K, M)``
    epsilon : float >= 0
    num_classes : int, optional
        K; needed when no prior is given (taken from the priors otherwise).
    prior, priors : one prior (K,) or several; when neither is given, :func:`audit_priors` (Dirichlet
        at concentrations 0.1, 1, 10, point masses and ties) drawn with ``rng`` and ``draws``.
        Priors follow the suite's one rule (:func:`simulations.mechanisms.labels.check_priors`: any
        real dtype, float32 within its rounding tolerance).
    max_entries : int
        Refuse, before drawing a prior or calling ``channel_of``, an enumeration of more than this many
        channel entries, counted as (number of priors) x K x K (a label randomizer outputs labels);
        default :data:`MAX_ENUMERATION` = 10^9. Pass a larger value to run a bigger check.

    Returns
    -------
    DPCheckResult whose loss is the worst over the priors; the witness holds the worst prior, its
    index and every prior's loss. A prior-dependent mechanism is ε-label DP only if the choice of
    channel uses the prior alone (004 Corollary 2) and every channel is ε-DP: the check covers the
    stated priors, not all priors.

    Raises
    ------
    ValueError
        Invalid arguments or priors, an enumeration above ``max_entries`` (the message gives its size
        and how to raise the limit), or a channel that is not (K, M) with rows summing to 1.

    References
    ----------
    004 Corollary 2; label DP as in 004 Definition 1 (neighbours differ in one label).

    Examples
    --------
    >>> from simulations.mechanisms import RRWithPrior
    >>> res = check_prior_channel(RRWithPrior(4, 1.0).channel_matrix, 1.0, num_classes=4)
    >>> res.holds, round(res.epsilon_actual, 12)
    (True, 1.0)
    """
    from simulations.mechanisms.labels import check_priors

    epsilon = check_real("epsilon", epsilon, low=0.0)
    max_entries = check_int("max_entries", max_entries, low=1)
    if prior is not None and priors is not None:
        raise ValueError("give prior= or priors=, not both")
    if prior is not None or priors is not None:
        plist = [prior] if prior is not None else list(priors)
        if not plist:
            raise ValueError("priors must not be empty")
        if num_classes is None:
            try:
                shape = np.shape(plist[0])
            except ValueError:  # ragged
                shape = ()
            if len(shape) == 0:
                raise ValueError(f"prior must be an array of shape (K,), got prior={plist[0]!r}")
            num_classes = shape[-1]
        K = check_int("num_classes", num_classes, low=2)
        n_priors = len(plist)
        source = "the given prior" if prior is not None else f"{n_priors} given priors"
    else:
        if num_classes is None:
            raise ValueError("num_classes is needed to draw priors (or pass prior= / priors=)")
        K = check_int("num_classes", num_classes, low=2)
        n_priors = _n_audit_priors(K, check_int("draws", draws, low=0))
    size = n_priors * K * K
    if size > max_entries:  # before any prior is drawn or any channel built
        raise ValueError(f"exact enumeration of a prior-dependent randomizer with num_classes={K} over {n_priors} "
                         f"priors evaluates {n_priors} channels of {K} x {K} entries, {size:.3g} in all, above "
                         f"max_entries={max_entries:.3g}; pass max_entries= to allow it (time and memory grow as "
                         f"K^2 per prior), or fewer priors (priors=, draws=)")
    if prior is None and priors is None:
        plist = audit_priors(K, rng, draws=draws)
        source = (f"{len(plist)} drawn priors (Dirichlet alpha in (0.1, 1, 10) x {draws}, point masses, ties; "
                  f"seed {rng!r})")
    best, best_i, losses, witness = -np.inf, 0, [], None
    for i, p in enumerate(plist):
        p = check_priors(p, K)
        if p.ndim != 1:
            raise ValueError(f"each prior must have shape ({K},), got shape {p.shape} for prior #{i}")
        P = as_channel(channel_of(p), name=f"mechanism(prior) for prior #{i}", num_rows=K)
        loss, w = log_privacy_loss_witness(_log(P))
        losses.append(loss)
        if loss > best:
            best, best_i, witness, worst_prior = loss, i, w, p
    holds = within(best, epsilon)
    wit = {"prior_index": best_i, "prior": worst_prior.tolist(), "losses": losses}
    if witness is not None:
        wit.update(y=witness[0], y_prime=witness[1], output=witness[2])
    expl = (f"exact enumeration over {source}: worst loss {best:.12g} {'<=' if holds else '>'} epsilon = "
            f"{epsilon:g} at prior #{best_i}" + (f", y={witness[0]}, y'={witness[1]}, output={witness[2]}"
                                                 if witness is not None else ""))
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=best, delta_actual=0.0,
                         method="exact enumeration of the channel for every prior", witness=wit, explanation=expl)


#: What check_label_dp says when it cannot tell how to read a mechanism.
HOW_TO_PASS = ("check_label_dp takes a mechanism catalogued in proofs_checks.catalogue (a class of "
               "simulations.mechanisms or a subclass), a channel array P[y, z] = P(output z | label y), or an "
               "explicit kind=: kind='channel' (an object with channel_matrix()), kind='prior_channel' (a callable "
               "prior -> channel, or an object with channel_matrix(prior)), kind='sampler' (a callable "
               "(labels, rng) -> integer outputs, audited statistically)")


def check_label_dp(mechanism, epsilon: float, delta: float = 0.0, *, kind: str | None = None,
                   **kwargs) -> DPCheckResult:
    """Check that ``mechanism`` satisfies (epsilon, delta)-label DP: exactly, or statistically for a sampler.

    Parameters
    ----------
    mechanism : catalogued mechanism, array_like channel, or (with ``kind=``) an object / callable
        * a mechanism catalogued in :mod:`proofs_checks.catalogue` (a class exported by
          :mod:`simulations.mechanisms`, or a subclass such as a planted bug): its record's
          independent verifier (keywords: the record's checker arguments, e.g. ``prior=`` /
          ``priors=`` for RRTopK and RRWithPrior, ``bin_size=`` for the exponential mechanism);
        * a channel: any array-like (K, M) of P(output | label): exact enumeration (keyword
          ``num_classes=`` checks the number of rows).
    epsilon : float >= 0
    delta : float in [0, 1]
    kind : {"channel", "prior_channel", "sampler"}, optional
        Required for anything else; it is never guessed:

        * ``"channel"``: an object with a parameter-free ``channel_matrix()`` (or an array);
        * ``"prior_channel"``: a callable ``prior -> channel`` or an object with
          ``channel_matrix(prior)``: :func:`check_prior_channel` over ``prior=``/``priors=`` or drawn
          priors (keywords ``num_classes``, ``prior``, ``priors``, ``rng``, ``draws``,
          ``max_entries``), the worst prior reported; an enumeration above ``max_entries`` (default
          10^9 channel entries) is refused up front with a ``ValueError`` stating its size;
        * ``"sampler"``: a callable ``(labels, rng) -> outputs`` with integer outputs in
          [0, num_outputs): :func:`proofs_checks.audit.audit_label_sampler` (keywords
          ``num_classes``, ``num_outputs``, ``n``, ``power``, ``alternative_epsilon``,
          ``confidence``, ``rng``, ``max_draws``); the result has ``exact=False`` (a lower confidence
          bound, not a proof).

    Returns
    -------
    DPCheckResult

    Raises
    ------
    ValueError
        Anything that is neither catalogued nor an array, without ``kind=`` (the message says how to
        pass it); an unknown ``kind``; a channel whose rows are not probability vectors, of the wrong
        number of rows, or with NaN.
    TypeError
        An unknown keyword argument (a misspelt ``prio=`` must not fall back to defaults).

    References
    ----------
    Label DP: 003 Definition 1, 004 Definition 1 (neighbours differ in one label).

    Examples
    --------
    >>> check_label_dp([[0.75, 0.25], [0.25, 0.75]], epsilon=np.log(3)).holds
    True
    >>> from simulations.mechanisms import RandomizedResponse
    >>> round(check_label_dp(RandomizedResponse(3, 1.0), 1.0).epsilon_actual, 12)
    1.0
    >>> check_label_dp(lambda prior: [[0.75, 0.25], [0.25, 0.75]], 1.2, kind="prior_channel", num_classes=2).holds
    True
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    delta = check_probability("delta", delta)
    if kind is None:
        from .catalogue import record_for  # imports every verifier module on first use

        record = record_for(mechanism)
        if record is not None:
            reject_unknown_keywords(kwargs, record.checker_keywords(), f"the {record.mechanism.__name__} checker")
            return record.verifier(mechanism, epsilon, delta, **kwargs)
        if not _is_array_like(mechanism):
            raise ValueError(f"no exact privacy checker for a {type(mechanism).__name__}: it is neither catalogued "
                             f"nor a channel array, and check_label_dp does not guess; {HOW_TO_PASS}")
        kind = "channel"
    if kind not in MECHANISM_KINDS:
        raise ValueError(f"kind must be one of {list(MECHANISM_KINDS)}, got kind={kind!r}; {HOW_TO_PASS}")
    if kind == "channel":
        reject_unknown_keywords(kwargs, ("num_classes",), "a channel")
        if _is_array_like(mechanism):
            P = mechanism
        elif callable(getattr(mechanism, "channel_matrix", None)):
            P = mechanism.channel_matrix()
        else:
            raise ValueError(f"kind='channel' needs a channel array or an object with channel_matrix(), got a "
                             f"{type(mechanism).__name__}")
        return _with_delta(check_channel(P, epsilon, **kwargs), delta)
    if kind == "prior_channel":
        reject_unknown_keywords(kwargs, ("num_classes", "prior", "priors", "rng", "draws", "max_entries"),
                                "a prior-dependent randomizer")
        if callable(getattr(mechanism, "channel_matrix", None)):
            fn = mechanism.channel_matrix
        elif callable(mechanism):
            fn = mechanism
        else:
            raise ValueError(f"kind='prior_channel' needs a callable prior -> channel or an object with "
                             f"channel_matrix(prior), got a {type(mechanism).__name__}")
        if kwargs.get("num_classes") is None and getattr(mechanism, "num_classes", None) is not None:
            kwargs["num_classes"] = mechanism.num_classes
        return _with_delta(check_prior_channel(fn, epsilon, **kwargs), delta)
    if not callable(mechanism):
        raise ValueError(f"kind='sampler' needs a callable (labels, rng) -> outputs, got a {type(mechanism).__name__}"
                         f" (for a mechanism object pass its bound method, e.g. mech.sample)")
    return _with_delta(audit_label_sampler(mechanism, epsilon, **kwargs), delta)


def _with_delta(res: DPCheckResult, delta: float) -> DPCheckResult:
    return dataclasses.replace(res, delta=delta)
