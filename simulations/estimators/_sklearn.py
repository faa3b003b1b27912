"""scikit-learn conventions shared by every estimator of the suite.

One mixin, :class:`LabelDPEstimatorMixin`, gives the estimators what scikit-learn's tools expect:

* ``random_state`` (a constructor parameter, read by :meth:`~LabelDPEstimatorMixin._random_generator` at
  ``fit``): an int seed, a ``numpy.random.Generator`` or None, as :func:`sklearn.utils.check_random_state`
  reads it, but always turned into a ``Generator`` (:func:`check_random_state`). The Monte Carlo engine
  passes its per-trial PRIVACY Generator as ``random_state``, so a trial draws exactly the stream it drew
  when the Generator was an argument of ``fit``;
* ``n_features_in_``, set at ``fit`` and checked at ``predict`` with scikit-learn's message;
* :class:`sklearn.exceptions.NotFittedError` (a ``ValueError``) when used unfitted
  (:func:`simulations.estimators._common.check_fitted`);
* ``__sklearn_tags__`` declaring the input domain: :class:`DomainInputTags` (X in [0, 1]^d, X holding
  indices) and :class:`DomainTargetTags` (real, bounded, binary or 0..K-1 labels). scikit-learn has no
  tag for these domains, so they extend its dataclasses; its own fields are set where they apply
  (``positive_only`` for the unit cube, ``multi_class=False`` for binary labels).

NaN and inf are refused by each estimator's own argument checks (``check_features`` and friends), with a
``ValueError`` naming the argument.

References: scikit-learn developer guide, "Developing scikit-learn estimators" (``random_state``,
``n_features_in_``, estimator tags); docs/design.md (randomness: one stream per purpose).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import ClassVar

import numpy as np
from sklearn.utils._tags import InputTags, TargetTags

from simulations.seeding import as_generator

__all__ = ["DomainInputTags", "DomainTargetTags", "LabelDPEstimatorMixin", "check_random_state"]

LABEL_DOMAINS = ("real", "bounded", "binary", "classes", "none")


def check_random_state(random_state) -> np.random.Generator:
    """``random_state`` as a numpy Generator: None (unseeded), an int seed >= 0, a SeedSequence or a Generator.

    scikit-learn's :func:`sklearn.utils.check_random_state` reads the same values but returns a legacy
    ``RandomState``; the suite's samplers draw from a ``Generator``, so this helper returns one. A Generator
    is returned as it is: the caller's stream continues (what the engine relies on).

    Parameters
    ----------
    random_state : None, int >= 0, numpy.random.SeedSequence or numpy.random.Generator
        None gives an unseeded (irreproducible) Generator; an int or a SeedSequence seeds a fresh PCG64 one.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ValueError
        If ``random_state`` is a bool, a negative int or of another type (a float, a legacy ``RandomState``).

    References
    ----------
    scikit-learn glossary, "random_state"; docs/design.md (randomness).

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> check_random_state(rng) is rng
    True
    >>> int(check_random_state(7).integers(10**9)) == int(np.random.default_rng(7).integers(10**9))
    True
    >>> check_random_state(0.5)
    Traceback (most recent call last):
    ...
    ValueError: random_state must be None, an int seed >= 0, a SeedSequence or a numpy Generator, got random_state=0.5
    """
    ok = random_state is None or isinstance(random_state, (np.random.Generator, np.random.SeedSequence)) or (
        isinstance(random_state, (int, np.integer)) and not isinstance(random_state, (bool, np.bool_))
        and random_state >= 0)
    if not ok:
        raise ValueError("random_state must be None, an int seed >= 0, a SeedSequence or a numpy Generator, "
                         f"got random_state={random_state!r}")
    return as_generator(random_state)


@dataclass(slots=True)
class DomainInputTags(InputTags):
    """scikit-learn's input tags plus the input domain of a label-DP estimator.

    Parameters
    ----------
    unit_cube : bool, default False
        X must lie in [0, 1]^d (the partition estimators and PCL of 003 / 001).
    indices : bool, default False
        X holds integer indices (of points, users and items, clusters), not coordinates.
    **kwargs
        The fields of :class:`sklearn.utils.InputTags`.

    References
    ----------
    scikit-learn developer guide, "Estimator tags".

    Examples
    --------
    >>> DomainInputTags(unit_cube=True).unit_cube
    True
    """

    unit_cube: bool = False
    indices: bool = False


@dataclass(slots=True)
class DomainTargetTags(TargetTags):
    """scikit-learn's target tags plus the label domain of a label-DP estimator.

    Parameters
    ----------
    labels : {"real", "bounded", "binary", "classes", "none"}, default "real"
        Finite reals; reals with ``|y| <= T`` (unless the estimator clips); {0, 1}; 0..K-1 with K the
        estimator's ``num_classes``; no labels (a density estimator).
    **kwargs
        The fields of :class:`sklearn.utils.TargetTags` (``required`` among them).

    References
    ----------
    scikit-learn developer guide, "Estimator tags".

    Examples
    --------
    >>> DomainTargetTags(required=True, labels="binary").labels
    'binary'
    """

    labels: str = "real"

    def __post_init__(self):
        if self.labels not in LABEL_DOMAINS:
            raise ValueError(f"labels must be one of {LABEL_DOMAINS}, got labels={self.labels!r}")


class LabelDPEstimatorMixin:
    """``random_state``, ``n_features_in_`` and domain tags, as scikit-learn's tools expect them.

    Put it first in the bases, before scikit-learn's ``ClassifierMixin`` / ``RegressorMixin`` /
    ``DensityMixin`` and ``BaseEstimator``. A subclass declares its domain with the class attributes
    ``_unit_cube``, ``_index_features`` and ``_label_domain``; its constructor stores ``random_state``.

    References
    ----------
    scikit-learn developer guide, "Developing scikit-learn estimators".

    Examples
    --------
    >>> from sklearn.base import BaseEstimator, RegressorMixin
    >>> class Mean(LabelDPEstimatorMixin, RegressorMixin, BaseEstimator):
    ...     _unit_cube = True
    ...     def __init__(self, *, random_state=None):
    ...         self.random_state = random_state
    >>> tags = Mean().__sklearn_tags__()
    >>> tags.input_tags.unit_cube, tags.input_tags.positive_only, tags.target_tags.labels
    (True, True, 'real')
    """

    _unit_cube: ClassVar[bool] = False
    _index_features: ClassVar[bool] = False
    _label_domain: ClassVar[str] = "real"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags = DomainInputTags(**{**asdict(tags.input_tags), "unit_cube": self._unit_cube,
                                             "indices": self._index_features,
                                             "positive_only": tags.input_tags.positive_only or self._unit_cube})
        tags.target_tags = DomainTargetTags(**{**asdict(tags.target_tags), "labels": self._label_domain})
        if self._label_domain == "none":
            tags.target_tags.required = False
        if tags.classifier_tags is not None and self._label_domain == "binary":
            tags.classifier_tags.multi_class = False
        return tags

    def _random_generator(self) -> np.random.Generator:
        """``self.random_state`` as a Generator (:func:`check_random_state`); read once per ``fit``."""
        return check_random_state(self.random_state)

    def _check_random_state(self) -> None:
        """Refuse an invalid ``self.random_state`` without building a Generator (estimators that draw nothing)."""
        if self.random_state is not None:
            check_random_state(self.random_state)

    def _check_n_features(self, X) -> None:
        """Refuse an ``X`` of shape (n, ...) whose row size is not ``n_features_in_`` (scikit-learn's message).

        Trailing axes count together (an image of 28 x 28 pixels has 784 features); 1-D ``X`` (one value or
        index per row) is left to the estimator's own checks.
        """
        shape = np.shape(X)
        p = int(np.prod(shape[1:])) if len(shape) >= 2 else None
        if p is not None and p != self.n_features_in_:
            raise ValueError(f"X has {p} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
