"""Loaders of the data sets of 004 Appendix B in their standard distribution formats.

Nothing is ever downloaded: the files must already be in the folder the user names (``--data-dir``).
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
=============== ========================================= ==========================================

The CIFAR pickles are unpickled: only load files from a source you trust (they are the official
archives' format; pickle can run code).

References: 004 Appendix B (data sets), Section 5.1 (MovieLens: random 80/20 split, ratings as
categorical labels).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from limits.validation import check_choice, check_int, check_real

from .formats import read_cifar_batch, read_idx, read_idx_split, read_ratings

__all__ = ["DATASETS", "DIGITS_TEST_SIZE", "DIGITS_SPLIT_SEED", "Dataset", "available_datasets", "expected_files", "load_dataset",
           "load_digits", "read_idx", "validate_data_dir"]

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
}
DATASETS = ("digits",) + tuple(_LAYOUT)
# how error messages name each data set
_TITLES = {"mnist": "MNIST", "fashion_mnist": "Fashion-MNIST", "kmnist": "KMNIST", "cifar10": "CIFAR-10",
           "cifar100": "CIFAR-100", "movielens1m": "MovieLens-1M"}
_IDX_SHAPE = (28, 28)  # the images of the three IDX sets

@dataclass(frozen=True, slots=True)
class Dataset:
    """A train/test split with integer labels.

    Attributes
    ----------
    name : str
    x_train : ndarray, shape (n_train, H, W) or (n_train, H, W, C) uint8 for images;
        (n_train, 2) int64 ``(user id, movie id)`` for MovieLens.
    y_train : ndarray of int64, shape (n_train,), values in [0, num_classes)
    x_test, y_test : the same for the test set
    num_classes : int
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
        digits: pixel / 16), unchanged for non-image data."""
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


def validate_data_dir(data_dir) -> list[str]:
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

    Returns
    -------
    list of str
        The names of the data sets found, all valid (as :func:`available_datasets` returns them).

    Raises
    ------
    ValueError
        When ``data_dir`` is not a folder or holds no data set (the message of
        :func:`available_datasets`), when a sub-folder is incomplete, or when a file is corrupt: the
        message names the data set, the file and the reason.

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
            _load_files(name, folder)
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


def _load_idx_set(name: str, folder: Path) -> Dataset:
    xtr, ytr = read_idx_split(folder / _IDX_FILES[0], folder / _IDX_FILES[1], _IDX_SHAPE, 10)
    xte, yte = read_idx_split(folder / _IDX_FILES[2], folder / _IDX_FILES[3], _IDX_SHAPE, 10)
    return Dataset(name, xtr, ytr, xte, yte, 10)


def _load_cifar(name: str, folder: Path) -> Dataset:
    key, K = ("labels", 10) if name == "cifar10" else ("fine_labels", 100)
    _, files = _LAYOUT[name]
    batches = [read_cifar_batch(folder / f, key, K) for f in files]
    train, (xte, yte) = batches[:-1], batches[-1]
    return Dataset(name, np.concatenate([x for x, _ in train]), np.concatenate([y for _, y in train]), xte, yte, K)


def _load_movielens(folder: Path, test_fraction: float, seed: int) -> Dataset:
    arr = read_ratings(folder / "ratings.dat")
    n = arr.shape[0]
    perm = np.random.default_rng(seed).permutation(n)
    n_test = int(round(test_fraction * n))
    te, tr = perm[:n_test], perm[n_test:]
    return Dataset("movielens1m", arr[tr, :2], arr[tr, 2] - 1, arr[te, :2], arr[te, 2] - 1, 5)


def _load_files(name: str, folder: Path, *, test_fraction: float = 0.2, seed: int = 0) -> Dataset:
    """Read data set ``name`` from ``folder``; every error of a file names the data set and the file."""
    try:
        if name in ("mnist", "fashion_mnist", "kmnist"):
            return _load_idx_set(name, folder)
        if name in ("cifar10", "cifar100"):
            return _load_cifar(name, folder)
        return _load_movielens(folder, test_fraction, seed)
    except ValueError as exc:  # the readers name the file and the reason; add which data set it is
        raise ValueError(f"{_TITLES[name]}: {exc}") from exc


def load_dataset(name: str, data_dir=None, *, test_fraction: float = 0.2, seed: int = 0) -> Dataset:
    """Load a data set of 004 Appendix B by name (``"digits"`` needs no ``data_dir``).

    Parameters
    ----------
    name : one of :data:`DATASETS`
    data_dir : str or Path
        Folder holding the unpacked archives (see the module table); never downloaded into.
    test_fraction, seed : MovieLens-1M only
        Its random train/test split (004 Section 5.1: 80/20): a permutation from
        ``default_rng(seed)``, the first ``round(test_fraction * n)`` ratings are the test set.
        Labels are ``rating - 1`` (5 classes); features ``(user id, movie id)``.

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        When a file is missing (the message lists every expected file and where it was looked
        for), or corrupt: the message starts with the data set (``"MNIST: "``, ``"CIFAR-10: "``,
        ...), names the file and says what is wrong with it.

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
    if name == "digits":
        return load_digits()
    folder = _locate(name, data_dir)
    if name == "movielens1m":
        check_real("test_fraction", test_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
        check_int("seed", seed, low=0)
    return _load_files(name, folder, test_fraction=test_fraction, seed=seed)
