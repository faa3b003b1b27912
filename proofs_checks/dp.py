"""The front door of the exact label-DP checks: :func:`check_label_dp` and :func:`audit_catalogued`.

What :func:`check_label_dp` is handed is never guessed: a mechanism catalogued in
:mod:`proofs_checks.catalogue` (its record's independent verifier), an array-like channel
(:func:`~proofs_checks.channels.check_channel`), or anything else with an explicit ``kind=``: ``"channel"``
(an object with a parameter-free ``channel_matrix()``), ``"prior_channel"`` (a callable ``prior -> channel``
or an object with ``channel_matrix(prior)``, enumerated for every prior of a stated set,
:func:`~proofs_checks.channels.check_prior_channel`), ``"sampler"`` (a black-box ``(labels, rng) -> outputs``,
audited statistically by :func:`proofs_checks.audit.audit_label_sampler`, ``exact=False``).
:func:`audit_catalogued` audits a catalogued mechanism's sampler through its record.

:func:`max_privacy_loss` (a channel array, or anything :func:`check_label_dp` checks exactly) lives here
too. The checking primitives live in :mod:`proofs_checks.channels` (re-exported here, so
``from proofs_checks.dp import as_channel`` keeps working); this module imports them, the catalogue
and the auditor in the ordinary way, and nothing that the catalogue's verifiers import comes back here:
the import graph has no cycle (``tests/test_experiment_structure.py``).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from limits.validation import check_probability, check_real

from .audit import audit_label_sampler
from .catalogue import record_for
from .channels import (HOW_TO_PASS, MAX_ENUMERATION, MECHANISM_KINDS, ROW_SUM_ATOL, TOL, _is_array_like, as_channel,
                       as_subchannel, audit_priors, check_channel, check_log_channel, check_prior_channel,
                       checker_keywords, event_privacy_loss_witness, is_tight, log_privacy_loss_witness,
                       max_event_privacy_loss, mechanism_kind, privacy_loss_witness,
                       reject_unknown_keywords, row_sum_tolerance, within)
from .result import DPCheckResult
from .sampler_check import check_overridden_sampler

__all__ = ["HOW_TO_PASS", "MAX_ENUMERATION", "MECHANISM_KINDS", "ROW_SUM_ATOL", "TOL", "DPCheckResult", "as_channel",
           "as_subchannel", "audit_catalogued", "audit_priors", "check_channel", "check_label_dp", "check_log_channel",
           "check_prior_channel", "checker_keywords", "event_privacy_loss_witness", "is_tight",
           "log_privacy_loss_witness", "max_event_privacy_loss", "max_privacy_loss", "mechanism_kind",
           "privacy_loss_witness", "reject_unknown_keywords", "row_sum_tolerance", "within"]


def check_label_dp(mechanism, epsilon: float, delta: float = 0.0, *, kind: str | None = None,
                   **kwargs) -> DPCheckResult:
    """Check that ``mechanism`` satisfies (ε, δ)-label DP: exactly, or statistically for a sampler.

    Parameters
    ----------
    mechanism : catalogued mechanism, array_like channel, or (with ``kind=``) an object / callable
        * a mechanism catalogued in :mod:`proofs_checks.catalogue` (a class exported by
          :mod:`simulations.mechanisms`, or a subclass such as a planted bug): its record's
          independent verifier (keywords: the record's checker arguments, e.g. ``prior=`` /
          ``priors=`` for RRTopK and RRWithPrior, ``bin_size=`` for the exponential mechanism).
          A subclass that overrides ``sample`` or ``channel_matrix`` also has its sampler tested
          against its channel (:func:`proofs_checks.sampler_check.check_overridden_sampler`): the
          result is then statistical (``exact=False``), not certified (``holds=False``) when the
          sampler does not draw from the channel, or refused when there is no finite channel;
        * a channel: any array-like (K, M) of P(output | label): exact enumeration (keyword
          ``num_classes=`` checks the number of rows).
    epsilon : float >= 0
        The claimed ε.
    delta : float in [0, 1], default 0
        The claimed δ (pure-DP verifiers carry it into the result).
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
    **kwargs
        The keywords listed above for the record or the ``kind``; anything else is refused.

    Returns
    -------
    DPCheckResult
        The verdict, the exact loss (or the audit's lower bound) and its witness.

    Raises
    ------
    ValueError
        Anything that is neither catalogued nor an array, without ``kind=`` (the message says how to
        pass it); a subclass of a catalogued mechanism that overrides ``sample`` but has no finite
        channel to test it against; an unknown ``kind``; a negative ε or δ outside [0, 1]; a
        channel whose rows are not probability vectors, of the wrong number of rows, or with NaN.
    TypeError
        An unknown keyword argument (a misspelt ``prio=`` must not fall back to defaults).

    References
    ----------
    Label DP: 003 Definitions 2-3, 004 Definition 2.2 (neighbours differ in one label); randomized
    response 004 eq. (1).

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
        record = record_for(mechanism)  # imports every verifier module on first use
        if record is not None:
            reject_unknown_keywords(kwargs, record.checker_keywords(), f"the {record.mechanism.__name__} checker")
            # a subclass overriding sample / channel_matrix: its sampler is tested against the channel
            return check_overridden_sampler(mechanism, record, record.verifier(mechanism, epsilon, delta, **kwargs),
                                            epsilon, kwargs)
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


def audit_catalogued(mechanism, epsilon: float, **kwargs) -> DPCheckResult:
    """Statistical audit of a catalogued local randomizer through its record's ``audit_sampler``.

    The record (:mod:`proofs_checks.catalogue`) turns the instance into a black-box sampler with
    integer outputs (bit vectors encoded as integers; prior-dependent mechanisms at a fixed public
    prior), which :func:`audit_label_sampler` audits over all label pairs: a lower confidence bound
    on the loss, independent of the exact verifier (it only draws samples).

    Parameters
    ----------
    mechanism : a catalogued mechanism whose record has an ``audit_sampler`` (RR, RRTop-k,
        RRWithPrior, the vector mechanism and their planted bugs)
    epsilon : claimed ε >= 0
    **kwargs
        Passed to :func:`audit_label_sampler` (``n``, ``confidence``, ``rng``, ``power``, ...).

    Returns
    -------
    proofs_checks.dp.DPCheckResult with ``exact=False``.

    Raises
    ------
    ValueError
        ``mechanism`` is not catalogued or its record has no audit adapter (continuous outputs,
        central mechanisms); invalid audit arguments.

    References
    ----------
    Label DP, 004 Definition 2.2; the bound of :func:`audit_label_sampler`.

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> res = audit_catalogued(RandomizedResponse(3, 1.0), 1.0, n=2000)
    >>> res.exact, res.holds
    (False, True)
    """
    record = record_for(mechanism)
    if record is None or record.audit_sampler is None:
        what = "is not catalogued" if record is None else f"has no audit adapter in the {record.name!r} record"
        raise ValueError(f"mechanism {type(mechanism).__name__} {what}: audit_catalogued needs a local randomizer "
                         f"with finitely many outputs; use audit_label_sampler(sampler, ...) directly")
    sampler, num_outputs = record.audit_sampler(mechanism)
    return audit_label_sampler(sampler, epsilon, num_classes=mechanism.num_classes, num_outputs=num_outputs, **kwargs)


def max_privacy_loss(channel, **kwargs) -> float:
    r"""Exact worst-case privacy loss :math:`\max_{y, y', z} \ln(P[y, z] / P[y', z])`.

    Parameters
    ----------
    channel : array_like or mechanism
        A channel matrix (any array-like of shape (K, M), rows summing to 1), or anything
        :func:`check_label_dp` checks exactly: a catalogued mechanism, or an object / callable with
        ``kind="channel"`` or ``kind="prior_channel"`` (then the worst loss over the priors).
    **kwargs
        Passed to :func:`check_label_dp` (``kind``, the record's checker keywords, ``prior`` /
        ``priors`` / ``num_classes`` ...); none are accepted with a channel array.

    Returns
    -------
    float
        The exact loss (``inf`` when some output is impossible under one label only).

    Raises
    ------
    ValueError
        An invalid channel, something :func:`check_label_dp` cannot read, or a black-box sampler (it
        has no exact loss: use :func:`check_label_dp` for its audit).
    TypeError
        A keyword argument the check does not accept.

    References
    ----------
    003 Definition 3; 004 Definition 2.2 (neighbours differ in one label); 004 eq. (1).

    Examples
    --------
    >>> import math
    >>> round(max_privacy_loss([[0.75, 0.25], [0.25, 0.75]]), 12) == round(float(np.log(3)), 12)
    True
    >>> from simulations.mechanisms import RandomizedResponse
    >>> round(max_privacy_loss(RandomizedResponse(3, math.log(2))) / math.log(2), 12)
    1.0
    """
    if _is_array_like(channel):
        reject_unknown_keywords(kwargs, (), "a channel array")
        return privacy_loss_witness(channel)[0]
    if kwargs.get("kind") == "sampler":
        raise ValueError("mechanism is a black-box sampler: it has no exact privacy loss; "
                         "check_label_dp(sampler, epsilon, kind='sampler', ...) runs the statistical audit")
    res = check_label_dp(channel, 0.0, **kwargs)
    if not res.exact:
        raise ValueError("mechanism has no exact privacy loss (a black-box sampler, or a class whose overridden "
                         "sampler was only tested statistically); check_label_dp(...) gives its statistical result")
    return res.epsilon_actual


def _with_delta(res: DPCheckResult, delta: float) -> DPCheckResult:
    return dataclasses.replace(res, delta=delta)
