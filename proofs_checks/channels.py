"""Exact label-DP verification primitives: the privacy loss of channels and the checks built on it.

Label DP (003 Definitions 2-3, 004 Definition 2.2): neighbouring inputs differ in one *label*
(replace-one), never by adding or removing a point. For a finite local randomizer with channel
P[y, z] = P(output z | label y) the exact privacy loss is max_{y, y', z} ln(P[y, z] / P[y', z]).

A channel must be a mechanism: rows are probability vectors (:func:`as_channel`, tolerance
:func:`row_sum_tolerance`); sub-stochastic event matrices have their own entry points
(:func:`max_event_privacy_loss`, :func:`event_privacy_loss_witness`). Unknown keyword arguments raise
``TypeError`` (:func:`reject_unknown_keywords`). The structured checkers pass closed-form
log-ratios (:func:`log_privacy_loss_witness`), so their losses are exact to rounding from ε = 1e-8 to
beyond 700.

This module imports neither the catalogue nor the auditor: the catalogue's verifiers
(:mod:`proofs_checks.mechanisms`) build on it, and the front door :mod:`proofs_checks.dp`
(:func:`~proofs_checks.dp.check_label_dp`, :func:`~proofs_checks.dp.audit_catalogued`,
:func:`~proofs_checks.dp.max_privacy_loss`) imports them all,
so the import graph has no cycle.
"""

from __future__ import annotations

import inspect

import numpy as np

from limits.validation import check_int, check_probability, check_real

from .result import DPCheckResult

__all__ = ["DPCheckResult", "HOW_TO_PASS", "MAX_ENUMERATION", "MECHANISM_KINDS", "ROW_SUM_ATOL", "TOL", "as_channel",
           "as_subchannel", "audit_priors", "check_channel", "check_log_channel", "check_prior_channel",
           "checker_keywords", "event_privacy_loss_witness", "is_tight", "log_privacy_loss_witness",
           "max_event_privacy_loss", "mechanism_kind", "privacy_loss_witness",
           "reject_unknown_keywords", "row_sum_tolerance", "within"]

# Relative slack when comparing an exactly computed loss with the claimed epsilon (float rounding
# of log-ratios of probabilities; the exact-arithmetic tests confirm the floats).
TOL = 1e-9


# A channel's rows must sum to 1 within ROW_SUM_ATOL + n_outputs * 2^-52 (the second term is the
# worst rounding of a float64 sum of n_outputs probabilities, e.g. the 2^16 columns of a vector
# mechanism); anything further off is not a mechanism and is refused.
ROW_SUM_ATOL = 1e-12


def row_sum_tolerance(n_outputs: int, atol: float | None = None) -> float:
    r"""The allowed :math:`|\sum_z P[y, z] - 1|` of a channel with ``n_outputs`` columns.

    The tolerance is ``atol + n_outputs * 2**-52``: the second term is the worst rounding of a float64
    sum of ``n_outputs`` probabilities (e.g. the :math:`2^{16}` columns of a 16-class vector mechanism).

    Parameters
    ----------
    n_outputs : int
        Number of columns (outputs) of the channel.
    atol : float >= 0, optional
        Base tolerance; default :data:`ROW_SUM_ATOL` (1e-12). A solver's channel may pass its
        feasibility tolerance here.

    Returns
    -------
    float
        The tolerance on each row sum.

    Raises
    ------
    ValueError
        If ``atol`` is negative or not a finite real.

    References
    ----------
    Infrastructure: docs/design.md's rule that every finite-output mechanism exposes an exact channel whose
    rows are probability vectors.

    Examples
    --------
    >>> row_sum_tolerance(4) == 1e-12 + 4 * 2.0**-52
    True
    >>> row_sum_tolerance(1, atol=1e-9) == 1e-9 + 2.0**-52
    True
    """
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
    r"""Validate a channel :math:`P[y, z] = P(\text{output } z \mid \text{input } y)` and return it as float64.

    Every row must be a probability vector: finite, non-negative, summing to 1 within
    :func:`row_sum_tolerance`.

    Parameters
    ----------
    channel : array_like, shape (n_inputs, n_outputs)
        The channel; ``n_inputs, n_outputs >= 1``.
    name : str, default "channel"
        The argument name used in error messages.
    num_rows : int, optional
        If given, the channel must have exactly this many rows (one per label).
    row_sum_atol : float >= 0, optional
        Widens the row-sum tolerance (:func:`row_sum_tolerance`) for channels that are solver outputs;
        state the solver's tolerance.

    Returns
    -------
    ndarray of float64, shape (n_inputs, n_outputs)
        The validated channel.

    Raises
    ------
    ValueError
        Naming ``name`` and what is wrong: not a non-empty 2-D numeric array, NaN, infinite or negative
        entries, a wrong number of rows, or a row sum off 1 by more than the tolerance.

    References
    ----------
    Infrastructure: docs/design.md, "Exactness and the privacy checks" (a channel's rows are the exact
    probabilities P(output | label)).

    Examples
    --------
    >>> as_channel([[0.75, 0.25], [0.25, 0.75]]).shape
    (2, 2)
    >>> as_channel([[0.5, 0.4]])
    Traceback (most recent call last):
    ...
    ValueError: channel rows must sum to 1 (within 1e-12): row 0 sums to 0.9 (1 of 1 rows off)
    """
    P = _as_matrix(channel, name)
    if num_rows is not None and P.shape[0] != num_rows:
        raise ValueError(f"{name} must have one row per label ({num_rows} rows), got shape {P.shape}")
    sums = P.sum(axis=1)
    tol = row_sum_tolerance(P.shape[1], row_sum_atol)
    bad = np.flatnonzero(np.abs(sums - 1.0) > tol)
    if bad.size:
        raise ValueError(f"{name} rows must sum to 1 (within {tol:.3g}): row {bad[0]} sums to {float(sums[bad[0]])!r}"
                         f" ({bad.size} of {P.shape[0]} rows off)")
    return P


def as_subchannel(subchannel, *, name: str = "subchannel") -> np.ndarray:
    r"""Validate a sub-stochastic event matrix :math:`S[y, e] = P(\text{event } e \mid \text{input } y)`.

    Entries must be finite and non-negative and each row sum at most 1 (plus
    :func:`row_sum_tolerance`): typically a channel with some output columns merged or dropped
    (disjoint events, not necessarily exhaustive).

    Parameters
    ----------
    subchannel : array_like, shape (n_inputs, n_events)
        The event probabilities.
    name : str, default "subchannel"
        The argument name used in error messages.

    Returns
    -------
    ndarray of float64, shape (n_inputs, n_events)
        The validated matrix.

    Raises
    ------
    ValueError
        Naming ``name``: not a non-empty 2-D numeric array, NaN, infinite or negative entries, or a row
        whose mass exceeds 1 beyond the tolerance.

    References
    ----------
    Infrastructure: docs/design.md, "Exactness and the privacy checks".

    Examples
    --------
    >>> as_subchannel([[0.5], [0.25]]).tolist()
    [[0.5], [0.25]]
    """
    S = _as_matrix(subchannel, name)
    sums = S.sum(axis=1)
    tol = row_sum_tolerance(S.shape[1])
    bad = np.flatnonzero(sums > 1.0 + tol)
    if bad.size:
        raise ValueError(f"{name} rows must sum to at most 1 (within {tol:.3g}): row {bad[0]} sums to {float(sums[bad[0]])!r}")
    return S


def log_privacy_loss_witness(log_channel) -> tuple[float, tuple[int, int, int] | None]:
    r"""Exact :math:`\max_{y, y', z} (L[y, z] - L[y', z])` of a log-channel and the triple attaining it.

    Any per-column offset cancels, so ``L`` may hold :math:`\ln(P[y, z] / c_z)` for any
    :math:`c_z > 0`: the structured exact checks pass log-ratios computed in closed form (no rounding
    of P near 0 or 1). Columns that are ``-inf`` throughout (0/0) are ignored; ``-inf`` next to a
    finite entry gives ``inf``.

    Parameters
    ----------
    log_channel : array_like, shape (n_inputs, n_outputs)
        Log-probabilities in ``[-inf, inf)``; ``-inf`` stands for probability 0.

    Returns
    -------
    loss : float
        The privacy loss, ``0.0`` when every column is all ``-inf``; ``inf`` when some output has
        probability 0 under one input and positive probability under another.
    witness : tuple of int (y, y_prime, z) or None
        Rows and column attaining the loss (ties: smallest column); None when every column is all-zero.

    Raises
    ------
    ValueError
        If ``log_channel`` is not a non-empty 2-D array, or holds NaN or ``+inf``.

    References
    ----------
    The privacy loss of a local label randomizer, 003 Definition 3 and 004 Definition 2.2
    (neighbours differ in one label).

    Examples
    --------
    >>> import math
    >>> loss, w = log_privacy_loss_witness(np.log([[0.75, 0.25], [0.25, 0.75]]))
    >>> round(loss / math.log(3), 12), w        # 0.75 / 0.25 = 3
    (1.0, (0, 1, 0))
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
    r"""Exact :math:`\max_{y, y', z} \ln(P[y, z] / P[y', z])` of a channel and the :math:`(y, y', z)` attaining it.

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
    witness : tuple of int (y, y_prime, z) or None
        None when every column is all-zero.

    Raises
    ------
    ValueError
        If ``channel`` is not a valid channel (:func:`as_channel`).

    References
    ----------
    003 Definition 3 (local label DP); 004 eq. (1) for randomized response.

    Examples
    --------
    >>> import math

    Randomized response with K = 3 and :math:`e^\varepsilon = 2` keeps the label with probability
    2/4 and moves it to each other label with 1/4 (004 eq. (1)), so the loss is exactly ln 2:

    >>> loss, w = privacy_loss_witness([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])
    >>> round(loss / math.log(2), 12), w
    (1.0, (0, 1, 0))
    """
    return log_privacy_loss_witness(_log(as_channel(channel)))


def event_privacy_loss_witness(subchannel) -> tuple[float, tuple[int, int, int] | None]:
    r""":func:`privacy_loss_witness` for a sub-stochastic matrix of event probabilities (rows sum to <= 1).

    :math:`\ln P(E \mid y) / P(E \mid y')` over the given events only: a lower bound on the
    mechanism's loss unless the events include the worst one. Entry point for event sub-channels (e.g.
    a few output events of a large channel); :func:`check_label_dp` and :func:`max_privacy_loss` accept
    only full channels.

    Parameters
    ----------
    subchannel : array_like, shape (n_inputs, n_events)
        Event probabilities, validated by :func:`as_subchannel`.

    Returns
    -------
    loss : float
        The largest log-ratio over (y, y', event); ``inf`` for p/0, 0/0 ignored.
    witness : tuple of int (y, y_prime, e) or None
        None when every event has probability 0 under every input.

    Raises
    ------
    ValueError
        If ``subchannel`` is not a valid sub-stochastic matrix.

    References
    ----------
    Event form of DP, 003 Definition 3 (any event S of the output space).

    Examples
    --------
    >>> import math
    >>> loss, w = event_privacy_loss_witness([[0.5], [0.25]])
    >>> round(loss / math.log(2), 12), w
    (1.0, (0, 1, 0))
    """
    return log_privacy_loss_witness(_log(as_subchannel(subchannel)))


def max_event_privacy_loss(subchannel) -> float:
    r""":math:`\max_{y, y', e} \ln(S[y, e] / S[y', e])` for a sub-stochastic event matrix.

    The loss part of :func:`event_privacy_loss_witness`: a lower bound on the mechanism's loss unless
    the events include the worst one.

    Parameters
    ----------
    subchannel : array_like, shape (n_inputs, n_events)
        Event probabilities (entries >= 0, rows summing to at most 1).

    Returns
    -------
    float
        The largest log-ratio over the given events.

    Raises
    ------
    ValueError
        If ``subchannel`` is not a valid sub-stochastic matrix (:func:`as_subchannel`).

    References
    ----------
    003 Definition 3 (the ratio bound over every output event).

    Examples
    --------
    >>> import math

    Randomized response, K = 3, :math:`e^\varepsilon = 2` (004 eq. (1)), with the outputs merged
    into the events {0} and {1, 2}: the rows are (1/2, 1/2), (1/4, 3/4), (1/4, 3/4), so the loss
    over these events is ln 2 (= the channel's own loss here):

    >>> round(max_event_privacy_loss([[0.5, 0.5], [0.25, 0.75], [0.25, 0.75]]) / math.log(2), 12)
    1.0
    """
    return event_privacy_loss_witness(subchannel)[0]




def within(actual: float, claimed: float) -> bool:
    """``actual <= claimed`` up to the relative float tolerance :data:`TOL` (1e-9).

    Parameters
    ----------
    actual : float
        An exactly computed loss (or δ).
    claimed : float
        The claimed budget.

    Returns
    -------
    bool
        ``actual <= claimed * (1 + TOL) + TOL``.

    References
    ----------
    Infrastructure: docs/design.md, "Exactness and the privacy checks" (losses are computed exactly; the
    tolerance only absorbs float rounding of log-ratios).

    Examples
    --------
    >>> within(1.0 + 1e-12, 1.0), within(1.001, 1.0)
    (True, False)
    """
    return actual <= claimed * (1 + TOL) + TOL


def is_tight(actual: float, claimed: float) -> bool:
    """``actual == claimed`` up to :data:`TOL` (relative): the claimed ε is attained, not only respected.

    Parameters
    ----------
    actual : float
        An exactly computed loss.
    claimed : float
        The claimed ε.

    Returns
    -------
    bool
        ``|actual - claimed| <= TOL * max(1, |claimed|)``.

    References
    ----------
    docs/design.md: where a mechanism is claimed tight (RR, RRTop-k, the vector mechanism; 004 eq. (1),
    Algorithm 1, 000 Theorem 1), the loss must equal ε, not only be at most ε.

    Examples
    --------
    >>> import math
    >>> is_tight(privacy_loss_witness([[0.75, 0.25], [0.25, 0.75]])[0], math.log(3)), is_tight(0.5, 1.0)
    (True, False)
    """
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
    r"""Pure ε-DP check of a finite channel :math:`P[y, z]` by exact enumeration of :math:`(y, y', z)`.

    Parameters
    ----------
    channel : array_like, shape (n_inputs, n_outputs)
        Rows must be probability vectors (:func:`as_channel`); ``ValueError`` otherwise.
    epsilon : float >= 0
        The claimed budget.
    method : str, default "exact enumeration of the channel"
        Text stored in the result's ``method``.
    labels, outputs : sequence, optional
        Names of the rows and columns, used in the witness (default: the indices).
    num_classes : int, optional
        The number of labels: the channel must have exactly this many rows.
    row_sum_atol : float >= 0, optional
        Row-sum tolerance instead of :data:`ROW_SUM_ATOL` (e.g. an LP solver's feasibility tolerance).

    Returns
    -------
    DPCheckResult
        ``epsilon_actual`` the exact loss, ``holds`` whether it is <= ε (up to :data:`TOL`), the
        witness ``{"y", "y_prime", "output"}``; ``delta = delta_actual = 0``.

    Raises
    ------
    ValueError
        A negative or non-finite ε, or an invalid channel.

    References
    ----------
    003 Definition 3 (local label DP); 004 eq. (1).

    Examples
    --------
    >>> import math

    Randomized response, K = 3, :math:`e^\varepsilon = 2` (004 eq. (1)) has loss exactly ln 2:

    >>> res = check_channel([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]], math.log(2))
    >>> res.holds, round(res.epsilon_actual / math.log(2), 12), res.witness
    (True, 1.0, {'y': 0, 'y_prime': 1, 'output': 0})
    >>> check_channel([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]], 0.5).holds
    False
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    P = as_channel(channel, num_rows=num_classes, row_sum_atol=row_sum_atol)
    loss, w = log_privacy_loss_witness(_log(P))
    return _verdict(loss, w, epsilon, method, labels, outputs)


def check_log_channel(log_channel, epsilon: float, *, method: str) -> DPCheckResult:
    r""":func:`check_channel` from a log-channel :math:`\ln(P[y, z] / c_z)` computed in closed form.

    Used by the structured checkers, whose log-ratios are exact to rounding at every ε (no rounding
    of probabilities near 0 or 1).

    Parameters
    ----------
    log_channel : array_like, shape (n_inputs, n_outputs)
        Log-probabilities up to a per-column offset; ``-inf`` for probability 0.
    epsilon : float >= 0
        The claimed budget.
    method : str
        Text stored in the result's ``method``.

    Returns
    -------
    DPCheckResult
        The exact loss and its witness, as :func:`check_channel`.

    Raises
    ------
    ValueError
        A negative ε, or a log-channel that is not 2-D or holds NaN / ``+inf``.

    References
    ----------
    003 Definition 3 (local label DP).

    Examples
    --------
    Log-ratios of randomized response (004 eq. (1)) against the off-diagonal entry: ε on the
    diagonal, 0 elsewhere; the loss is ε exactly, with no probability formed.

    >>> L = 700.0 * np.eye(3)
    >>> check_log_channel(L, 700.0, method="closed form").epsilon_actual
    700.0
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    loss, w = log_privacy_loss_witness(log_channel)
    return _verdict(loss, w, epsilon, method)


def checker_keywords(fn) -> tuple[str, ...] | None:
    """The keyword arguments a verifier ``fn(mechanism, epsilon, delta, **kw)`` accepts.

    Parameters
    ----------
    fn : callable
        A verifier whose first three parameters are ``mechanism, epsilon, delta``.

    Returns
    -------
    tuple of str or None
        The names of the parameters after the first three; None when ``fn`` takes ``**kwargs``
        (then every keyword is passed on).

    References
    ----------
    Infrastructure: docs/design.md, one catalogue record per mechanism, read by the checks.

    Examples
    --------
    >>> checker_keywords(lambda mechanism, epsilon, delta, prior=None, priors=None: None)
    ('prior', 'priors')
    >>> checker_keywords(lambda mechanism, epsilon, delta, **kw: None) is None
    True
    """
    params = list(inspect.signature(fn).parameters.values())[3:]
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return tuple(p.name for p in params)


def reject_unknown_keywords(kwargs: dict, accepted, what: str) -> None:
    """Raise ``TypeError`` naming every keyword of ``kwargs`` not in ``accepted``.

    A misspelt ``prio=`` must not silently fall back to defaults.

    Parameters
    ----------
    kwargs : dict
        The keyword arguments received.
    accepted : iterable of str or None
        The accepted names; None accepts everything.
    what : str
        What receives them, for the message (e.g. ``"a channel"``).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If some keyword is not accepted; the message lists them and the accepted ones.

    References
    ----------
    Infrastructure: docs/design.md's argument-check rule (a clear error naming the argument, before any work).

    Examples
    --------
    >>> reject_unknown_keywords({"prior": 1}, ("prior", "priors"), "RRTopK")
    >>> reject_unknown_keywords({"prio": 1}, ("prior",), "RRTopK")
    Traceback (most recent call last):
    ...
    TypeError: unexpected keyword argument(s) ['prio'] for RRTopK; accepted: ['prior']
    """
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
    """How an uncatalogued ``mechanism`` reads, guessed from its signature.

    Used by :func:`proofs_checks.privacy_profile.privacy_profile` and
    :func:`proofs_checks.rrwithprior_lp.utility_gap`; :func:`check_label_dp` does not guess: it
    needs ``kind=`` for these.

    * ``"channel"``: an array-like (K, M) channel, or an object with a parameter-free
      ``channel_matrix()``;
    * ``"prior_channel"``: a callable ``prior -> channel`` (one required argument) or an object whose
      ``channel_matrix`` takes the prior;
    * ``"sampler"``: a callable ``(labels, rng) -> outputs`` (two required arguments), audited
      statistically.

    Parameters
    ----------
    mechanism : array_like, object or callable
        What to classify.
    kind : {"channel", "prior_channel", "sampler"}, optional
        Overrides the detection (e.g. for a callable whose signature cannot be inspected).

    Returns
    -------
    str
        One of :data:`MECHANISM_KINDS`.

    Raises
    ------
    ValueError
        An unknown ``kind``; a callable with neither 1 nor 2 required positional arguments; an object
        that is none of the above.

    References
    ----------
    Infrastructure: docs/design.md, "Exactness and the privacy checks" (the checked object is never guessed
    by :func:`check_label_dp`).

    Examples
    --------
    >>> mechanism_kind([[1.0]]), mechanism_kind(lambda prior: prior), mechanism_kind(lambda labels, rng: labels)
    ('channel', 'prior_channel', 'sampler')
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
    """The priors a prior-dependent randomizer is checked over when none are given.

    ``draws`` Dirichlet(α) priors for each α in ``concentrations`` (sparse-ish to near uniform), the
    point masses on each label (the first and last ``max_point_masses // 2`` labels when K is larger),
    and ties: uniform, two labels sharing all the mass, (3, 2, 2, 1, ..., 1)/sum (a tie at the k = 2
    boundary of 004 Algorithm 1). Deterministic for a given ``rng`` seed.

    Parameters
    ----------
    num_classes : int >= 2
        K.
    rng : int, SeedSequence or Generator, default 0
        Seed of the Dirichlet draws (:func:`simulations.seeding.as_generator`).
    draws : int >= 0, default 10
        Dirichlet priors per concentration.
    concentrations : sequence of float > 0, default (0.1, 1.0, 10.0)
        The Dirichlet concentrations α.
    max_point_masses : int, default 32
        At most this many point masses.

    Returns
    -------
    list of ndarray, each of shape (K,)
        ``draws * len(concentrations)`` Dirichlet priors, K point masses (2 (max_point_masses // 2)
        when K > max_point_masses) and 3 ties.

    Raises
    ------
    ValueError
        If ``num_classes`` < 2 or not an integer.

    References
    ----------
    004 Algorithms 1-2 (ties "broken arbitrarily") and Corollary 2 (the channel depends on the prior).

    Examples
    --------
    >>> P = audit_priors(3)
    >>> len(P), [round(float(v), 4) for v in P[-1]]   # 30 drawn + 3 point masses + 3 ties; (3, 2, 2)/7
    (36, [0.4286, 0.2857, 0.2857])
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
    channel_of : callable
        ``prior (K,) -> channel (K, M)``.
    epsilon : float >= 0
        The claimed budget.
    num_classes : int >= 2, optional
        K; needed when no prior is given (taken from the priors otherwise).
    prior : array_like, shape (K,), optional
        One prior.
    priors : iterable of array_like, each of shape (K,), optional
        Several priors (not together with ``prior``). When neither is given, :func:`audit_priors`
        (Dirichlet at concentrations 0.1, 1, 10, point masses and ties) drawn with ``rng`` and
        ``draws``. Priors follow the suite's one rule (:func:`simulations.mechanisms.labels.check_priors`:
        any real dtype, float32 within its rounding tolerance).
    rng : int or Generator, default 0
        Seed of the drawn priors.
    draws : int >= 0, default 10
        Dirichlet priors per concentration.
    max_entries : int >= 1
        Refuse, before drawing a prior or calling ``channel_of``, an enumeration of more than this many
        channel entries, counted as (number of priors) x K x K (a label randomizer outputs labels);
        default :data:`MAX_ENUMERATION` = 10^9. Pass a larger value to run a bigger check.

    Returns
    -------
    DPCheckResult
        The worst loss over the priors; the witness holds the worst prior, its index and every prior's
        loss. A prior-dependent mechanism is ε-label DP only if the choice of channel uses the prior
        alone (004 Corollary 2) and every channel is ε-DP: the check covers the stated priors, not all
        priors.

    Raises
    ------
    ValueError
        Invalid arguments or priors, an enumeration above ``max_entries`` (the message gives its size
        and how to raise the limit), or a channel that is not (K, M) with rows summing to 1.

    References
    ----------
    004 Algorithm 2 and Corollary 2; label DP as in 004 Definition 2.2 (neighbours differ in one label).

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
