"""Loaders of the data sets of 004 Appendix B in their standard distribution formats.

Nothing is ever downloaded: the files must already be in the folder the user names (``--data-dir``).
Each data set lives in its usual sub-folder of that folder (the name its archive unpacks to); the
folder itself is also searched, so ``data_dir`` may point at the sub-folder directly. A missing file
raises a ``ValueError`` that lists every file expected and where it was looked for.

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

import gzip
import pickle
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from limits.validation import check_choice, check_int, check_real

__all__ = ["DATASETS", "DIGITS_TEST_SIZE", "DIGITS_SPLIT_SEED", "Dataset", "available_datasets", "expected_files", "load_dataset",
           "load_digits", "read_idx"]

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

# IDX type codes (third magic byte) -> numpy dtype (big-endian for multi-byte types)
_IDX_DTYPES = {0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"),
               0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


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
    """Where :func:`load_dataset` looks for the files of ``name`` (the sub-folder layout)."""
    check_choice("name", name, tuple(_LAYOUT))
    sub, files = _LAYOUT[name]
    return [Path(data_dir) / sub / f for f in files]


def available_datasets(data_dir) -> list[str]:
    """Names of the data sets whose files are all present in ``data_dir`` (sub-folder or the folder itself).

    Raises ValueError naming ``data_dir`` when it is not an existing folder, or when it holds none of
    them (the message lists every expected file): what ``--data-dir`` is checked with.
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


def read_idx(path) -> np.ndarray:
    """Read an IDX file (gzip-compressed when the name ends in ``.gz``) into an array.

    Format: two zero bytes, a type code (0x08 = uint8, ...), the number of dimensions, then each
    dimension as a big-endian uint32, then the data in C order.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        raw = fh.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_DTYPES:
        raise ValueError(f"{str(path)!r} is not an IDX file (bad magic number {raw[:4]!r})")
    dtype, ndim = _IDX_DTYPES[raw[2]], raw[3]
    shape = tuple(int(d) for d in np.frombuffer(raw, dtype=">u4", count=ndim, offset=4))
    offset = 4 + 4 * ndim
    if len(raw) - offset != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize:
        raise ValueError(f"{str(path)!r}: IDX header announces shape {shape} but the file holds "
                         f"{len(raw) - offset} data bytes")
    return np.frombuffer(raw, dtype=dtype, offset=offset).reshape(shape).astype(dtype.newbyteorder("="))


def _load_idx_set(name: str, folder: Path) -> Dataset:
    xtr, ytr, xte, yte = (read_idx(folder / f) for f in _IDX_FILES)
    return Dataset(name, xtr.astype(np.uint8), ytr.astype(np.int64), xte.astype(np.uint8), yte.astype(np.int64), 10)


def _unpickle(path: Path) -> dict:
    with open(path, "rb") as fh:
        d = pickle.load(fh, encoding="bytes")
    return {(k.decode() if isinstance(k, bytes) else k): v for k, v in d.items()}


def _cifar_images(data) -> np.ndarray:
    """(n, 3072) channel-major rows -> (n, 32, 32, 3) uint8."""
    a = np.asarray(data, dtype=np.uint8)
    return a.reshape(a.shape[0], 3, 32, 32).transpose(0, 2, 3, 1).copy()


def _load_cifar(name: str, folder: Path) -> Dataset:
    key, K = ("labels", 10) if name == "cifar10" else ("fine_labels", 100)
    _, files = _LAYOUT[name]
    parts = [_unpickle(folder / f) for f in files]
    train, test = parts[:-1], parts[-1]
    xtr = np.concatenate([_cifar_images(p["data"]) for p in train])
    ytr = np.concatenate([np.asarray(p[key], dtype=np.int64) for p in train])
    return Dataset(name, xtr, ytr, _cifar_images(test["data"]), np.asarray(test[key], dtype=np.int64), K)


def _load_movielens(folder: Path, test_fraction: float, seed: int) -> Dataset:
    path = folder / "ratings.dat"
    with open(path, "r", encoding="latin-1") as fh:
        rows = [line.split("::") for line in fh if line.strip()]
    try:
        arr = np.array([[int(r[0]), int(r[1]), int(r[2])] for r in rows], dtype=np.int64).reshape(-1, 3)
    except (ValueError, IndexError) as exc:
        raise ValueError(f"{str(path)!r} is not in the MovieLens-1M format "
                         f"'UserID::MovieID::Rating::Timestamp' ({exc})") from exc
    if arr.size and (arr[:, 2].min() < 1 or arr[:, 2].max() > 5):
        raise ValueError(f"{str(path)!r}: ratings must lie in 1..5, got {arr[:, 2].min()}..{arr[:, 2].max()}")
    n = arr.shape[0]
    perm = np.random.default_rng(seed).permutation(n)
    n_test = int(round(test_fraction * n))
    te, tr = perm[:n_test], perm[n_test:]
    return Dataset("movielens1m", arr[tr, :2], arr[tr, 2] - 1, arr[te, :2], arr[te, 2] - 1, 5)


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
    """
    check_choice("name", name, DATASETS)
    if name == "digits":
        return load_digits()
    folder = _locate(name, data_dir)
    if name in ("mnist", "fashion_mnist", "kmnist"):
        return _load_idx_set(name, folder)
    if name in ("cifar10", "cifar100"):
        return _load_cifar(name, folder)
    check_real("test_fraction", test_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    check_int("seed", seed, low=0)
    return _load_movielens(folder, test_fraction, seed)
