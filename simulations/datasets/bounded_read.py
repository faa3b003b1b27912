"""Reading untrusted data files with bounded memory: nothing beyond a stated size is ever read.

A 14 MB gzip file can expand to gigabytes, and a file under ``--data-dir`` may be anything. The
readers of :mod:`.formats` therefore read a header first through :func:`open_data_file`, check the
sizes it declares against the format's known ones, and only then read the declared body; a
whole-file read (:func:`read_at_most`: CSV, ratings, pickles) stops one byte past its cap.
Gzip is decompressed incrementally (``gzip.GzipFile.read(n)`` inflates only about n bytes), so the
memory used is that of the bytes kept, never that of what the file would expand to.

Each function raises ``ValueError`` naming the file when it is not valid gzip, cannot be read, is
truncated or exceeds its cap, with the low-level exception chained as its cause.

References: 004 Appendix B (the data sets and their sizes); RFC 1952 (gzip).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import zlib
from pathlib import Path

__all__ = ["open_data_file", "read_at_most"]

# what a corrupt gzip stream raises while it is read: not gzip, truncated, corrupt deflate data, bad CRC
_GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)


@contextlib.contextmanager
def open_data_file(path):
    """Open ``path`` for reading binary data, through gzip when its name ends in ``.gz``.

    Read errors inside the ``with`` block (an unreadable file, corrupt or truncated gzip) become a
    ``ValueError`` naming ``path``.

    Parameters
    ----------
    path : str or Path
        The file.

    Yields
    ------
    binary file object
        Reads return decompressed bytes, inflated only as far as they are read.

    Raises
    ------
    ValueError
        Naming ``path`` when it cannot be opened or read, or is not a valid gzip file.

    References
    ----------
    RFC 1952 (gzip); 004 Appendix B (the data sets' distribution formats).

    Examples
    --------
    >>> import gzip, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "x.gz"
    ...     _ = path.write_bytes(gzip.compress(b"abcdef"))
    ...     with open_data_file(path) as fh:
    ...         fh.read(2)
    b'ab'
    """
    path = Path(path)
    try:
        with (gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")) as fh:
            yield fh
    except _GZIP_ERRORS as exc:
        raise ValueError(f"{path} is not a valid gzip file (corrupt or truncated?): {exc}") from exc
    except OSError as exc:
        raise ValueError(f"{path} cannot be read: {exc}") from exc


def read_at_most(path, limit: int, what: str) -> bytes:
    """The whole content of ``path`` (decompressed when it ends in ``.gz``), refused beyond ``limit`` bytes.

    A plain file larger than ``limit`` is refused unread (its size is known); a gzip file is inflated
    one byte past ``limit`` at most, whatever it would expand to.

    Parameters
    ----------
    path : str or Path
        The file.
    limit : int >= 0
        The largest content accepted, in bytes (after decompression).
    what : str
        What the file is (``"MovieLens-1M ratings file"``), for the message.

    Returns
    -------
    bytes
        The content.

    Raises
    ------
    ValueError
        Naming ``path`` when it cannot be read, is not valid gzip, or holds more than ``limit`` bytes.

    References
    ----------
    004 Appendix B (the data sets' sizes).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "big.txt"
    ...     _ = path.write_bytes(b"x" * 11)
    ...     read_at_most(path, 10, "text file")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../big.txt holds more than 10 bytes, beyond the largest text file this reader accepts (...)
    """
    path = Path(path)
    gz = path.suffix == ".gz"
    with open_data_file(path) as fh:
        # a plain file's size is known: refused unread; otherwise (gzip, or a file growing meanwhile)
        # never more than limit + 1 bytes are read
        data = None if not gz and os.fstat(fh.fileno()).st_size > limit else fh.read(limit + 1)
    if data is None or len(data) > limit:
        raise ValueError(f"{path} holds more than {limit} bytes, beyond the largest {what} this reader accepts "
                         f"(refused{' after inflating that much' if gz else ' unread'}: "
                         f"not the official file?)")
    return data
