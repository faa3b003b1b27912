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
from scipy import sparse
from sklearn.utils._tags import InputTags, TargetTags
from sklearn.utils.validation import column_or_1d

from simulations.estimators._common import check_fitted
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
    ``_unit_cube``, ``_index_features``, ``_points_of_r`` (X of shape (n,) or (n, 1) accepted) and
    ``_label_domain``; its constructor stores ``random_state``. Estimators with a privacy parameter
    (``epsilon``, ``epsilon_prior``) declare ``poor_score``: at the sizes of scikit-learn's checks their
    noise dominates.

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
    _points_of_r: ClassVar[bool] = False
    _label_domain: ClassVar[str] = "real"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags = DomainInputTags(**{**asdict(tags.input_tags), "unit_cube": self._unit_cube,
                                             "indices": self._index_features,
                                             "positive_only": tags.input_tags.positive_only or self._unit_cube})
        tags.target_tags = DomainTargetTags(**{**asdict(tags.target_tags), "labels": self._label_domain})
        if self._label_domain == "none":
            tags.target_tags.required = False
        private = any(getattr(self, name, None) is not None for name in ("epsilon", "epsilon_prior"))
        if tags.classifier_tags is not None:
            tags.classifier_tags.multi_class = self._label_domain != "binary"
            tags.classifier_tags.poor_score = private  # noise at the checks' sizes (n of 20-100, ε of 1-2)
        if tags.regressor_tags is not None:
            tags.regressor_tags.poor_score = private
        return tags

    def _random_generator(self) -> np.random.Generator:
        """``self.random_state`` as a Generator (:func:`check_random_state`); read once per ``fit``."""
        return check_random_state(self.random_state)

    def _check_input(self, X, y=None, *, requires_y: bool = True):
        """scikit-learn's refusals of malformed input, before the estimator's own (domain) checks.

        Refuses, with the messages scikit-learn's tools look for: a missing ``y``; sparse or complex data; NaN
        or inf in a numeric ``X``; a 1-D ``X`` where rows of features are expected; no feature. (An empty sample
        is left to the estimator: some release a well-defined output for it.) A column-vector ``y`` of shape (n,
        1) is turned into shape (n,) with a ``DataConversionWarning``. Class labels: a continuous target is
        refused ("Unknown label type"), and more than two classes for a binary classifier; integral float labels
        become int64. ``X`` itself is returned as given (the estimator converts it), so the data an estimator
        sees, and what it draws, do not change.

        Parameters
        ----------
        X : array_like
            Features (a 2-D float array, points of R as (n,), or integer indices, as the estimator declares).
        y : array_like or None
            Labels.
        requires_y : bool, default True
            Refuse ``y=None`` (False for a density estimator).

        Returns
        -------
        X : the argument itself
        y : ``y`` as given, raveled from a column vector, or int64 from integral float labels
        """
        if requires_y and y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        self._check_array(X)
        if y is not None and not sparse.issparse(y):
            y_arr = np.asarray(y)
            if np.iscomplexobj(y_arr):
                raise ValueError("Complex data not supported (y)")
            if y_arr.ndim == 2 and y_arr.shape[1] == 1 and self._label_domain != "none":
                y = y_arr = column_or_1d(y_arr, warn=True)
            if self._label_domain in ("binary", "classes") and y_arr.ndim == 1:
                self._check_class_labels(y_arr)
                if np.issubdtype(y_arr.dtype, np.floating):  # integral floats (checked above) as class indices
                    y = y_arr.astype(np.int64)
        return X, y

    def _check_class_labels(self, y: np.ndarray) -> None:
        """Class labels: refuse a continuous target, and more than two classes for a binary classifier."""
        if np.issubdtype(y.dtype, np.floating) and not np.all(np.isfinite(y) & (y == np.floor(y))):
            raise ValueError("Unknown label type: continuous (class labels must be integers)")
        if self._label_domain == "binary" and np.issubdtype(y.dtype, np.number) and np.any((y != 0) & (y != 1)):
            values = np.unique(y)
            if values.size > 2:
                raise ValueError(f"Only binary classification is supported. The labels must be 0 or 1, got "
                                 f"{values.size} distinct values")

    def _check_predict_input(self, X):
        """:meth:`_check_input`'s refusals of ``X`` at predict time, then the feature count (``n_features_in_``).

        Parameters
        ----------
        X : array_like
            Query features.

        Returns
        -------
        X : the argument itself
        """
        check_fitted(self, "n_features_in_")
        self._check_array(X)
        self._check_n_features(X)
        return X

    def _check_array(self, X) -> None:
        if X is None:
            raise ValueError("Expected array-like (array or non-string sequence) for X, got None")
        if sparse.issparse(X):
            raise TypeError(f"Sparse data was passed to {type(self).__name__}, but dense data is required")
        arr = np.asarray(X)
        if np.iscomplexobj(arr):
            raise ValueError("Complex data not supported (X)")
        tags = self.__sklearn_tags__().input_tags
        if arr.ndim == 1 and not (tags.one_d_array or getattr(tags, "indices", False) or self._points_of_r):
            raise ValueError(f"Expected 2D array, got 1D array instead: X of shape {arr.shape}. Reshape your data "
                             "either using X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) if it "
                             "holds a single sample.")
        if arr.ndim >= 2 and arr.shape[1] == 0:
            raise ValueError(f"Found array with 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
        if np.issubdtype(arr.dtype, np.number) and not np.all(np.isfinite(arr)):
            raise ValueError("Input X contains NaN or infinity: X must be finite")

    def _check_random_state(self) -> None:
        """Refuse an invalid ``self.random_state`` without building a Generator (estimators that draw nothing)."""
        if self.random_state is not None:
            check_random_state(self.random_state)

    def _check_n_features(self, X) -> None:
        """Refuse an ``X`` of shape (n, ...) whose row size is not ``n_features_in_`` (scikit-learn's message).

        Trailing axes count together (an image of 28 x 28 pixels has 784 features); 1-D ``X`` (one value or
        index per row) is left to the estimator's own checks.
        """
        shape = np.asarray(X).shape
        p = int(np.prod(shape[1:])) if len(shape) >= 2 else None
        if p is not None and p != self.n_features_in_:
            raise ValueError(f"X has {p} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
