"""The mechanism catalogue: one record per privacy mechanism, read by every privacy check.

A :class:`MechanismRecord` states what the papers claim about one class of
:mod:`simulations.mechanisms` and how to verify it:

* the paper source (seed file + equation) and a display name;
* examples (a few parameter settings, each a factory ``epsilon -> mechanism``) with the exact loss
  claimed, as a closed form written in the record (never read from the class);
* the verifier ``(mechanism, epsilon, delta, **checker_kwargs) -> DPCheckResult``, which computes its
  number independently of the class (enumeration of the channel, exact arithmetic or its own closed
  form; never the class's ``privacy_loss``);
* the planted bugs (:class:`PlantedBug`): deliberately wrong subclasses with their exact wrong loss,
  derived by hand;
* optionally an audit adapter (``audit_sampler``) that turns an instance into a black-box sampler
  with integer outputs, for the statistical audit (:func:`proofs_checks.dp.audit_catalogued`).

Records live beside their verifiers, as ``RECORDS`` in each module of :mod:`proofs_checks.mechanisms`;
:func:`records` collects them (every module of that package is imported, so a new verifier module
is found without editing any list). :func:`check_label_dp <proofs_checks.dp.check_label_dp>`,
the ``dp_checks`` experiment, the audit and the tests read them; :func:`missing_records` lists the
classes exported by :mod:`simulations.mechanisms` that have no record (a test asserts it is empty).

References
----------
docs/design.md "Exactness and the privacy checks"; the claims themselves are cited in each record
(e.g. 004 eq. (1), 000 eq. (12)-(13), 003 eq. (17), 001 Algorithm 1).

Examples
--------
>>> from simulations.mechanisms import RandomizedResponse
>>> rec = record_for(RandomizedResponse(3, 1.0))
>>> rec.name, rec.source, rec.examples[0].loss(0.5)
('randomized response', '004 eq. (1)', 0.5)
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

__all__ = ["PAPER_CLAIMS", "Example", "MechanismRecord", "PlantedBug", "missing_records", "record_for", "records",
           "verifier_for"]

#: How a record's headline claim reads in the papers: ``"tight"`` (the loss equals ε), ``"below"``
#: (an exact closed form below ε), ``"at most"`` (the paper states only "ε-DP"; the record may still
#: give the exact loss), ``"delta"`` ((ε, δ)-DP: the record gives the exact δ at the claimed ε).
PAPER_CLAIMS = ("tight", "below", "at most", "delta")


def _frozen(mapping) -> Mapping[str, Any]:
    if not isinstance(mapping, Mapping):
        raise ValueError(f"checker_kwargs must be a mapping, got checker_kwargs={mapping!r}")
    return MappingProxyType(dict(mapping))


def _check_callable(owner: str, name: str, value, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not callable(value):
        raise ValueError(f"{owner}: {name} must be callable, got {name}={value!r}")


@dataclass(frozen=True)
class Example:
    """One parameter setting of a catalogued mechanism and the exact loss it has.

    Parameters
    ----------
    label : str
        Short description of the setting (``"K=5"``).
    make : callable ``epsilon -> mechanism``
        Builds the mechanism at the claimed ε.
    loss : callable ``epsilon -> float`` or None
        The exact privacy loss at that ε, as a closed form written in the record (for "at most"
        claims it may be None: only ``loss <= ε`` is asserted).
    delta : callable ``epsilon -> float`` or None
        For (ε, δ) mechanisms: the exact δ(ε) at the claimed ε (``loss`` is then None).
    checker_kwargs : mapping
        Keyword arguments for the verifier (``prior=``, ``bin_size=``, ...).

    Raises
    ------
    ValueError
        ``make`` not callable, ``loss``/``delta`` neither callable nor None, both given.

    References
    ----------
    docs/design.md "Exactness and the privacy checks".

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> ex = Example("K=3", lambda e: RandomizedResponse(3, e), loss=lambda e: e)
    >>> ex.make(1.0).num_classes, ex.loss(1.0)
    (3, 1.0)
    """

    label: str
    make: Callable[[float], Any]
    loss: Callable[[float], float] | None = None
    delta: Callable[[float], float] | None = None
    checker_kwargs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        _check_callable(f"example {self.label!r}", "make", self.make)
        _check_callable(f"example {self.label!r}", "loss", self.loss, optional=True)
        _check_callable(f"example {self.label!r}", "delta", self.delta, optional=True)
        if self.loss is not None and self.delta is not None:
            raise ValueError(f"example {self.label!r}: give loss (pure DP) or delta ((eps, delta)-DP), not both")
        object.__setattr__(self, "checker_kwargs", _frozen(self.checker_kwargs))


@dataclass(frozen=True)
class PlantedBug:
    """A deliberately wrong variant of a catalogued mechanism and its exact wrong loss.

    Parameters
    ----------
    name : str
        What is wrong, as reported (``"vector: eps per bit"``).
    make : callable ``epsilon -> mechanism``
        Builds the buggy mechanism at the claimed ε (a subclass of the record's class, overriding
        public behaviour only, so that the record's verifier checks it).
    loss : callable ``epsilon -> float`` or None
        Its exact wrong privacy loss, derived by hand (see ``derivation``).
    delta : callable ``epsilon -> float`` or None
        For (ε, δ) mechanisms: its exact wrong δ(ε) at the claimed ε.
    checker_kwargs : mapping
        Keyword arguments for the verifier.
    order : int
        Position in reports (``dp_checks`` rows), smaller first.
    derivation : str
        The hand derivation of the wrong loss (one or two sentences, or where it is written).

    Raises
    ------
    ValueError
        ``make`` not callable, neither or both of ``loss`` and ``delta`` given.

    References
    ----------
    docs/design.md: "A planted bug is tested by asserting its exact wrong ε, not just 'fails'."

    Examples
    --------
    >>> from simulations.mechanisms import LaplaceLabels
    >>> bug = PlantedBug("half scale", lambda e: LaplaceLabels(1.0, 2 * e), loss=lambda e: 2 * e)
    >>> bug.loss(0.5)
    1.0
    """

    name: str
    make: Callable[[float], Any]
    loss: Callable[[float], float] | None = None
    delta: Callable[[float], float] | None = None
    checker_kwargs: Mapping[str, Any] = field(default_factory=dict)
    order: int = 1000
    derivation: str = ""

    def __post_init__(self):
        _check_callable(f"planted bug {self.name!r}", "make", self.make)
        if (self.loss is None) == (self.delta is None):
            raise ValueError(f"planted bug {self.name!r}: give exactly one of loss (pure DP) and delta "
                             f"((eps, delta)-DP), got loss={self.loss!r}, delta={self.delta!r}")
        _check_callable(f"planted bug {self.name!r}", "loss", self.loss, optional=True)
        _check_callable(f"planted bug {self.name!r}", "delta", self.delta, optional=True)
        object.__setattr__(self, "checker_kwargs", _frozen(self.checker_kwargs))


@dataclass(frozen=True)
class MechanismRecord:
    """The catalogue entry of one mechanism class (see the module docstring).

    Parameters
    ----------
    mechanism : type
        The class of :mod:`simulations.mechanisms` (subclasses are verified by the same record
        unless they have their own).
    name : str
        Display name of the headline example (``"randomized response"``).
    source : str
        The paper source, seed file + equation (``"004 eq. (1)"``).
    verifier : callable ``(mechanism, epsilon, delta, **checker_kwargs) -> DPCheckResult``
        The independent exact check; its keyword parameters are the checker arguments.
    examples : tuple of :class:`Example`
        At least one; ``examples[0]`` is the headline setting reported by ``dp_checks``.
    paper_claim : str
        One of :data:`PAPER_CLAIMS`.
    planted_bugs : tuple of :class:`PlantedBug`
    audit_sampler : callable ``mechanism -> (sampler, num_outputs)`` or None
        For local randomizers with finitely many outputs: a black-box sampler ``(labels, rng) ->
        int outputs in [0, num_outputs)`` (prior-dependent mechanisms: at a fixed public prior).
    order : int
        Position in reports, smaller first.
    suite_construction : bool, default False
        True when the mechanism is the suite's own construction, not a paper's (e.g. the asymmetric vector
        mechanism that 002's Limitations paragraph only suggests): ``paper_claim`` is then the suite's claim,
        and ``dp_checks`` reports it as a "beyond" question, never as a verdict on a paper.

    Raises
    ------
    ValueError
        A missing or non-callable verifier, no examples, an unknown ``paper_claim``, or a
        ``"tight"``/``"below"`` headline example without its exact loss.

    References
    ----------
    docs/design.md "Exactness and the privacy checks".

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> MechanismRecord(RandomizedResponse, "RR", "004 eq. (1)", verifier=None,
    ...                 examples=(Example("K=2", lambda e: RandomizedResponse(2, e), loss=lambda e: e),))
    Traceback (most recent call last):
    ...
    ValueError: record of RandomizedResponse: verifier must be callable, got verifier=None
    """

    mechanism: type
    name: str
    source: str
    verifier: Callable[..., Any]
    examples: tuple[Example, ...]
    paper_claim: str = "tight"
    planted_bugs: tuple[PlantedBug, ...] = ()
    audit_sampler: Callable[[Any], tuple[Callable, int]] | None = None
    order: int = 1000
    suite_construction: bool = False

    def __post_init__(self):
        if not isinstance(self.mechanism, type):
            raise ValueError(f"mechanism must be a class, got mechanism={self.mechanism!r}")
        owner = f"record of {self.mechanism.__name__}"
        _check_callable(owner, "verifier", self.verifier)
        _check_callable(owner, "audit_sampler", self.audit_sampler, optional=True)
        if self.paper_claim not in PAPER_CLAIMS:
            raise ValueError(f"{owner}: paper_claim must be one of {list(PAPER_CLAIMS)}, got "
                             f"paper_claim={self.paper_claim!r}")
        examples, bugs = tuple(self.examples), tuple(self.planted_bugs)
        if not examples or not all(isinstance(e, Example) for e in examples):
            raise ValueError(f"{owner}: examples must be a non-empty tuple of Example, got examples={self.examples!r}")
        if not all(isinstance(b, PlantedBug) for b in bugs):
            raise ValueError(f"{owner}: planted_bugs must hold PlantedBug records, got {self.planted_bugs!r}")
        head = examples[0]
        if self.paper_claim in ("tight", "below") and head.loss is None:
            raise ValueError(f"{owner}: a {self.paper_claim!r} claim needs the exact loss of examples[0]")
        if self.paper_claim == "delta" and head.delta is None:
            raise ValueError(f"{owner}: a 'delta' claim needs the exact delta of examples[0]")
        object.__setattr__(self, "examples", examples)
        object.__setattr__(self, "planted_bugs", bugs)

    @property
    def headline(self) -> Example:
        """``examples[0]``: the setting ``dp_checks`` reports.

        Returns
        -------
        Example
            The headline example.

        References
        ----------
        Infrastructure: docs/design.md, one catalogue record per mechanism.

        Examples
        --------
        >>> from simulations.mechanisms import RandomizedResponse
        >>> record_for(RandomizedResponse).headline.label
        'K=5'
        """
        return self.examples[0]

    def checker_keywords(self) -> tuple[str, ...]:
        """The keyword arguments the verifier accepts (after ``mechanism, epsilon, delta``).

        Returns
        -------
        tuple of str
            Their names, in signature order.

        References
        ----------
        Infrastructure: docs/design.md, one catalogue record per mechanism.

        Examples
        --------
        >>> from simulations.mechanisms import RRTopK
        >>> record_for(RRTopK).checker_keywords()
        ('prior', 'priors')
        """
        params = list(inspect.signature(self.verifier).parameters.values())[3:]
        return tuple(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


_RECORDS: dict[type, MechanismRecord] | None = None


def _collect() -> dict[type, MechanismRecord]:
    import proofs_checks.mechanisms as package

    found: dict[type, MechanismRecord] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for rec in getattr(module, "RECORDS", ()):
            if not isinstance(rec, MechanismRecord):
                raise ValueError(f"{module.__name__}.RECORDS must hold MechanismRecord, got {rec!r}")
            if rec.mechanism in found:
                raise ValueError(f"two records for {rec.mechanism.__name__}: in {module.__name__} and before")
            found[rec.mechanism] = rec
    return dict(sorted(found.items(), key=lambda kv: kv[1].order))


def records() -> tuple[MechanismRecord, ...]:
    """Every catalogued mechanism's record, in report order (``order``, then module name).

    Returns
    -------
    tuple of :class:`MechanismRecord`

    References
    ----------
    docs/design.md "Exactness and the privacy checks".

    Examples
    --------
    >>> [r.mechanism.__name__ for r in records()][:3]
    ['RandomizedResponse', 'RRTopK', 'RRWithPrior']
    """
    global _RECORDS
    if _RECORDS is None:
        _RECORDS = _collect()
    return tuple(_RECORDS.values())


def record_for(mechanism) -> MechanismRecord | None:
    """The record verifying ``mechanism`` (an instance or a class): the first class of its MRO with a
    record, or None when it is not catalogued.

    Parameters
    ----------
    mechanism : object or type

    Returns
    -------
    MechanismRecord or None

    References
    ----------
    docs/design.md "Exactness and the privacy checks".

    Examples
    --------
    >>> from simulations.mechanisms import ClippedLaplaceLabels
    >>> record_for(ClippedLaplaceLabels).name, record_for(object()) is None
    ('clipping + Laplace', True)
    """
    records()
    cls = mechanism if isinstance(mechanism, type) else type(mechanism)
    for base in cls.__mro__:
        if base in _RECORDS:
            return _RECORDS[base]
    return None


def verifier_for(mechanism) -> Callable[..., Any] | None:
    """The independent verifier of ``mechanism`` (an instance or a class): its record's, or None when it is
    not catalogued.

    What :func:`proofs_checks.dp.check_label_dp` runs for a catalogued mechanism; other modules (the privacy
    profiles) ask for it here instead of keeping a table of their own.

    Parameters
    ----------
    mechanism : object or type

    Returns
    -------
    callable ``(mechanism, epsilon, delta, **keywords) -> DPCheckResult``, or None

    References
    ----------
    docs/design.md (one catalogue record per mechanism, read by the checks, tests and audit).

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> verifier_for(RandomizedResponse(3, 1.0))(RandomizedResponse(3, 1.0), 1.0, 0.0).holds
    True
    >>> verifier_for(object()) is None
    True
    """
    record = record_for(mechanism)
    return None if record is None else record.verifier


def missing_records(namespace=None) -> list[str]:
    """Classes exported by ``namespace`` (default :mod:`simulations.mechanisms`, its ``__all__``) that
    have no record of their own.

    Parameters
    ----------
    namespace : module, optional

    Returns
    -------
    list of str
        The class names lacking a record (empty when the catalogue is complete).

    References
    ----------
    docs/design.md: "a mechanism without a record fails a test".

    Examples
    --------
    >>> missing_records()
    []
    """
    if namespace is None:
        namespace = importlib.import_module("simulations.mechanisms")
    records()
    names = getattr(namespace, "__all__", [n for n in dir(namespace) if not n.startswith("_")])
    return [n for n in names if isinstance(getattr(namespace, n), type) and getattr(namespace, n) not in _RECORDS]
