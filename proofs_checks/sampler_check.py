"""Does a mechanism draw from the channel it reports? A statistical check of an overridden sampler.

A catalogued mechanism's verifier (:mod:`proofs_checks.catalogue`) computes its exact loss from the
channel, ``channel_matrix()`` (or ``channel_matrix(prior)``). That certifies the mechanism only if
its ``sample`` draws from that channel, which the catalogued classes do (their tests check it). A
subclass that overrides ``sample`` (or ``channel_matrix``) breaks that link: a ``RandomizedResponse``
whose ``sample`` flips at 1.5ε still reports the channel of ε. :func:`check_overridden_sampler` is
what :func:`proofs_checks.dp.check_label_dp` runs after the verifier for such a subclass:

* nothing overridden relative to the catalogued class: the exact result, unchanged;
* a mechanism with a finite channel: the sampler is tested against the channel row by row
  (:func:`fit_sampler_to_channel`: exact two-sided binomial tests of every (label, output) count,
  Bonferroni over the cells, false-alarm rate :data:`FALSE_ALARM`, draws from a fixed
  ``SeedSequence``). Consistent: the channel's exact loss is reported, with ``exact=False`` (that
  the sampler draws from that channel is a statistical finding, not a proof). Inconsistent: the
  mechanism is not certified (``holds=False``), and ``epsilon_actual`` is the lower confidence bound
  of a statistical audit of the sampler alone (:func:`proofs_checks.audit.audit_label_sampler`);
* a mechanism without a finite channel (Laplace noise, histograms, ...), or one too large to test:
  refused with a ``ValueError`` saying that only the verifier's computation was checked.

References
----------
docs/design.md "Exactness and the privacy checks" and "Untrusted input" (a checker certifies only what
it checked; the sampler draws from the probabilities the channel reports); label DP: 003
Definitions 2-3, 004 Definition 2.2.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import stats

from limits.validation import check_int, check_size

from .audit import _check_sampler_outputs, audit_label_sampler
from .result import DPCheckResult

__all__ = ["DRAWS_PER_CHECK", "DRAWS_PER_LABEL", "FALSE_ALARM", "MAX_SAMPLER_CELLS", "MAX_SAMPLER_DRAWS",
           "SAMPLER_CHECK_SEED", "SamplerFit", "check_overridden_sampler", "fit_sampler_to_channel", "overridden_methods"]

#: Probability that a sampler which does draw from its channel is reported as inconsistent (Bonferroni
#: over every (label, output) cell of every channel tested).
FALSE_ALARM = 1e-6
#: Draws per label of :func:`fit_sampler_to_channel`; :func:`check_overridden_sampler` draws
#: ``min(DRAWS_PER_LABEL, DRAWS_PER_CHECK // (K x channels))``, never fewer than 1000 per label.
DRAWS_PER_LABEL = 20_000
#: The draws :func:`check_overridden_sampler` spreads over the labels and channels it tests (K = 3:
#: 16666 per label, which tells randomized response at 1.5 ε from ε by 16 standard deviations).
DRAWS_PER_CHECK = 50_000
#: The most draws one check makes (labels x draws per label, over every prior tested).
MAX_SAMPLER_DRAWS = 10**7
#: The largest channel (labels x outputs, over every prior tested) whose cells are tested.
MAX_SAMPLER_CELLS = 10**7
#: Root of the ``SeedSequence`` the draws come from (each channel tested gets its own child).
SAMPLER_CHECK_SEED = 20261128
_MIN_DRAWS = 1000
#: The methods whose override voids the link between the verified channel and what is drawn.
_SAMPLING = ("channel_matrix", "sample")


@dataclass(frozen=True, slots=True)
class SamplerFit:
    """Outcome of :func:`fit_sampler_to_channel`.

    Parameters
    ----------
    consistent : bool
        No cell's count is significant at the Bonferroni level ``false_alarm / cells``.
    n : int
        Draws per label.
    false_alarm : float
        P(consistent is False | the sampler draws from the channel) is at most this.
    cells : int
        The (label, output) cells tested.
    p_value : float
        The smallest two-sided exact binomial p-value over the cells (not corrected).
    worst : dict
        Its cell: ``y``, ``output``, ``count`` (out of n) and ``probability`` (the channel's).
    explanation : str
        The above in words.

    References
    ----------
    docs/design.md "Exactness and the privacy checks" (goodness of fit at a fixed seed).

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> rr = RandomizedResponse(3, 1.0)
    >>> fit_sampler_to_channel(rr.sample, rr.channel_matrix(), n=2000).consistent
    True
    """

    consistent: bool
    n: int
    false_alarm: float
    cells: int
    p_value: float
    worst: dict
    explanation: str


def _binomial_p_values(counts: np.ndarray, n: int, p: np.ndarray) -> np.ndarray:
    """Two-sided exact binomial p-values ``min(1, 2 min(P(X <= k), P(X >= k)))``, X ~ Bin(n, p).

    Each one-sided tail is a valid p-value, so twice the smaller is one too (P(p-value <= a) <= a).
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        low = stats.binom.cdf(counts, n, p)
        high = stats.binom.sf(counts - 1, n, p)
    return np.minimum(1.0, 2.0 * np.minimum(low, high))


def fit_sampler_to_channel(sampler: Callable, channel, *, n: int = DRAWS_PER_LABEL, false_alarm: float = FALSE_ALARM,
                           rng=SAMPLER_CHECK_SEED, tests: int | None = None) -> SamplerFit:
    r"""Test that ``sampler`` draws from the rows of ``channel``: exact binomial tests of every cell.

    For each label y, n outputs are drawn with ``sampler(np.full(n, y), gen)``; the count of each
    output z is compared with :math:`\mathrm{Bin}(n, P[y, z])` by a two-sided exact binomial test.
    The sampler is declared inconsistent when some p-value is below ``false_alarm / tests``
    (Bonferroni), so a sampler that does draw from the channel is declared inconsistent with
    probability at most ``false_alarm``. A cell of probability 0 that is drawn has p-value 0.

    Parameters
    ----------
    sampler : callable
        ``(labels (n,) int64, rng) -> outputs (n,)``, integer outputs in [0, M).
    channel : array_like, shape (K, M)
        ``P[y, z]``, rows summing to 1.
    n : int >= 1, default :data:`DRAWS_PER_LABEL`
        Draws per label.
    false_alarm : float in (0, 1), default :data:`FALSE_ALARM`
        The probability of declaring a faithful sampler inconsistent.
    rng : int or numpy.random.SeedSequence, default :data:`SAMPLER_CHECK_SEED`
        Seed of the draws (a fixed seed: the outcome is reproducible).
    tests : int, optional
        The number of cells the Bonferroni correction divides by (default K M; larger when several
        channels share the ``false_alarm`` budget).

    Returns
    -------
    SamplerFit

    Raises
    ------
    ValueError
        A channel that is not a non-empty 2-D array of finite probabilities; K n above
        :data:`MAX_SAMPLER_DRAWS` or K M above :data:`MAX_SAMPLER_CELLS` (refused before drawing);
        a sampler whose outputs are not n integers in [0, M).

    References
    ----------
    docs/design.md "Exactness and the privacy checks" (the sampler draws from the probabilities the channel
    reports; goodness of fit at a fixed seed, with a stated false-alarm rate).

    Examples
    --------
    Randomized response at 1.5 ε drawn against the channel of ε (004 eq. (1), K = 3) is caught. It
    keeps a label w.p. :math:`e^{1.5}/(e^{1.5}+2) = 0.691` instead of :math:`e/(e+2) = 0.576`, a gap
    twice that of each other output, so the most extreme cell is a kept label:

    >>> from simulations.mechanisms import RandomizedResponse
    >>> fit = fit_sampler_to_channel(RandomizedResponse(3, 1.5).sample, RandomizedResponse(3, 1.0).channel_matrix(),
    ...                              n=2000)
    >>> fit.consistent, fit.worst["y"] == fit.worst["output"]
    (False, True)
    """
    P = np.asarray(channel, dtype=float)
    if P.ndim != 2 or P.size == 0 or not np.all(np.isfinite(P)) or np.any(P < 0):
        raise ValueError(f"channel must be a non-empty 2-D array of probabilities, got shape {P.shape}")
    K, M = P.shape
    n = check_int("n", n, low=1)
    check_size("n", n, MAX_SAMPLER_DRAWS, size=K * n, what="draws (n per label)")
    check_size("channel", K * M, MAX_SAMPLER_CELLS, what="cells (labels x outputs) to test")
    if not 0.0 < false_alarm < 1.0:
        raise ValueError(f"false_alarm must lie in (0, 1), got false_alarm={false_alarm!r}")
    tests = K * M if tests is None else check_int("tests", tests, low=K * M)
    gen = np.random.default_rng(rng)
    best = (math.inf, 0, 0, 0)
    for y in range(K):
        out = _check_sampler_outputs(sampler(np.full(n, y, dtype=np.int64), gen), n, M, y)
        counts = np.bincount(out, minlength=M)
        pv = _binomial_p_values(counts, n, P[y])
        z = int(np.argmin(pv))
        if pv[z] < best[0]:
            best = (float(pv[z]), y, z, int(counts[z]))
    p_value, y, z, count = best
    consistent = bool(p_value >= false_alarm / tests)
    expl = (f"{n} draws per label; {'no' if consistent else 'a'} count differs from its channel probability at the "
            f"Bonferroni level {false_alarm:g}/{tests} (exact two-sided binomial tests); the most extreme: label {y}, "
            f"output {z} drawn {count}/{n} times, channel probability {P[y, z]:.6g}, p-value {p_value:.3g}")
    return SamplerFit(consistent=consistent, n=n, false_alarm=false_alarm, cells=K * M, p_value=p_value,
                      worst={"y": y, "output": z, "count": count, "probability": float(P[y, z])}, explanation=expl)


def overridden_methods(mechanism, base: type) -> tuple[str, ...]:
    """The sampling methods (``channel_matrix``, ``sample``) whose definition differs from ``base``'s.

    Parameters
    ----------
    mechanism : object or type
        An instance (or class) of ``base`` or of a subclass.
    base : type
        The catalogued class.

    Returns
    -------
    tuple of str
        The names, in alphabetical order; empty when the class is ``base`` or uses its definitions.

    References
    ----------
    docs/design.md "Untrusted input" (a checker certifies only what it checked).

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> class Mine(RandomizedResponse):
    ...     def sample(self, labels, rng):
    ...         return super().sample(labels, rng)
    >>> overridden_methods(Mine(3, 1.0), RandomizedResponse)
    ('sample',)
    >>> overridden_methods(RandomizedResponse(3, 1.0), RandomizedResponse)
    ()
    """
    cls = mechanism if isinstance(mechanism, type) else type(mechanism)
    return tuple(name for name in _SAMPLING
                 if inspect.getattr_static(cls, name, None) is not inspect.getattr_static(base, name, None))


def _takes_prior(mechanism) -> bool:
    params = [p for p in inspect.signature(mechanism.channel_matrix).parameters.values()
              if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(params) == 1


def _pairs(mechanism, record, result: DPCheckResult, kwargs: dict) -> list[tuple[str, Callable, int, Callable]]:
    """(where, sampler, number of outputs, channel builder) for each channel to test, before building any.

    Without a prior: the record's audit adapter when it has one (it encodes outputs in the channel's
    column order, e.g. the vector mechanism's bit vectors), else ``sample`` itself. With a prior: the
    prior(s) given to the check, else the prior of the verifier's witness (the one attaining the
    reported loss), else the uniform prior.
    """
    K = int(mechanism.num_classes)
    if not _takes_prior(mechanism):
        sampler, M = record.audit_sampler(mechanism) if record.audit_sampler is not None else (mechanism.sample, K)
        return [("", sampler, int(M), mechanism.channel_matrix)]
    if kwargs.get("prior") is not None:
        priors = [kwargs["prior"]]
    elif kwargs.get("priors") is not None:
        priors = list(kwargs["priors"])
    elif "prior" in result.witness:
        priors = [result.witness["prior"]]
    else:
        priors = [np.full(K, 1.0 / K)]
    return [(f" at prior {np.round(np.asarray(p, dtype=float), 6).tolist()}",
             (lambda labels, rng, p=p: mechanism.sample(labels, rng, p)), K, (lambda p=p: mechanism.channel_matrix(p)))
            for p in priors]


def check_overridden_sampler(mechanism, record, result: DPCheckResult, epsilon: float, kwargs=None) -> DPCheckResult:
    """The verifier's ``result`` for ``mechanism``, qualified when its class overrides how it samples.

    See the module docstring for the three outcomes.

    Parameters
    ----------
    mechanism : object
        An instance of ``record.mechanism`` or of a subclass.
    record : MechanismRecord
        Its catalogue record (``mechanism``: the catalogued class; ``audit_sampler``: its adapter).
    result : DPCheckResult
        What the record's verifier found for ``mechanism`` at ``epsilon``.
    epsilon : float
        The claimed ε (for the audit of an inconsistent sampler).
    kwargs : dict, optional
        The checker keywords the verifier was given (``prior`` / ``priors`` say where to test a
        prior-dependent sampler).

    Returns
    -------
    DPCheckResult
        ``result`` itself when nothing is overridden; else with ``exact=False`` (see the module
        docstring): the channel's loss when the sampler fits it, or ``holds=False`` and the audit's
        lower bound when it does not.

    Raises
    ------
    ValueError
        When the class overrides ``sample`` or ``channel_matrix`` but has no finite channel and
        sampler to compare (only the verifier's computation was checked), or the comparison would be
        too large (:data:`MAX_SAMPLER_DRAWS`, :data:`MAX_SAMPLER_CELLS`).

    References
    ----------
    docs/design.md "Untrusted input": a checker certifies only what it actually checked.

    Examples
    --------
    >>> from proofs_checks.dp import check_label_dp
    >>> from simulations.mechanisms import RandomizedResponse
    >>> class Louder(RandomizedResponse):  # samples at 1.5 epsilon, reports the channel of epsilon
    ...     def sample(self, labels, rng):
    ...         return RandomizedResponse(self.num_classes, 1.5 * self.epsilon).sample(labels, rng)
    >>> res = check_label_dp(Louder(3, 1.0), 1.0)
    >>> res.holds, res.exact, res.epsilon_actual > 1.0
    (False, False, True)
    """
    names = overridden_methods(mechanism, record.mechanism)
    if not names:
        return result
    cls, base = type(mechanism).__name__, record.mechanism.__name__
    what = f"{cls} overrides {' and '.join(names)} of the catalogued {base}"
    if not (callable(getattr(mechanism, "channel_matrix", None)) and callable(getattr(mechanism, "sample", None))
            and getattr(mechanism, "num_classes", None) is not None):
        raise ValueError(f"{what}, and has no finite channel to test its sampler against: the {base} verifier checked "
                         f"only its own computation ({result.method}), not the overriding code, so check_label_dp "
                         f"certifies nothing here (refused)")
    pairs = _pairs(mechanism, record, result, dict(kwargs or {}))
    K = int(mechanism.num_classes)
    cells = sum(K * M for _, _, M, _ in pairs)
    try:
        check_size("channel", cells, MAX_SAMPLER_CELLS, what="cells (labels x outputs) to test against the sampler")
        n = max(_MIN_DRAWS, min(DRAWS_PER_LABEL, DRAWS_PER_CHECK // (K * len(pairs))))
        check_size("num_classes", K, MAX_SAMPLER_DRAWS, size=K * len(pairs) * n,
                   what=f"draws ({n} per label and channel)")
    except ValueError as exc:
        raise ValueError(f"{what}; its sampler is too large to test against its channel ({exc}): only the channel "
                         f"was verified, so check_label_dp certifies nothing here (refused)") from exc
    seeds = np.random.SeedSequence(SAMPLER_CHECK_SEED).spawn(len(pairs) + 1)
    for (where, sampler, M, build), seed in zip(pairs, seeds):
        try:
            fit = fit_sampler_to_channel(sampler, build(), n=n, rng=seed, tests=cells)
        except ValueError as exc:  # outputs outside the channel's output space, or of the wrong shape
            raise ValueError(f"{what}; its sampler{where} does not draw from its channel ({exc}): only the channel "
                             f"was verified, so check_label_dp certifies nothing here (refused)") from exc
        if not fit.consistent:
            audit = audit_label_sampler(sampler, epsilon, num_classes=K, num_outputs=M, n=fit.n, rng=seeds[-1])
            expl = (f"NOT CERTIFIED: {what}, and its sampler{where} does not draw from channel_matrix "
                    f"({fit.explanation}; false-alarm rate {fit.false_alarm:g}); the exact loss of the channel "
                    f"({result.epsilon_actual:.6g}) does not describe it. A statistical audit of the sampler alone: "
                    f"{audit.explanation}")
            return DPCheckResult(holds=False, epsilon=result.epsilon, delta=result.delta,
                                 epsilon_actual=audit.epsilon_actual, delta_actual=None,
                                 method="statistical: an overridden sampler that does not match its channel, audited",
                                 witness={"sampler_fit": fit.worst, "p_value": fit.p_value, "n": fit.n,
                                          "channel_loss": result.epsilon_actual, "audit": audit.witness},
                                 explanation=expl, exact=False)
    note = (f"; {what}: its sampler was tested against the channel{'s' if len(pairs) > 1 else ''} it reports and fits "
            f"({n} draws per label; false-alarm rate {FALSE_ALARM:g}); that it draws from "
            f"{'them' if len(pairs) > 1 else 'it'} is a statistical finding, not a proof")
    return dataclasses.replace(result, method=result.method + " + statistical test of the overridden sampler",
                               explanation=result.explanation + note, exact=False)
