"""Unpickling that can only rebuild what the CIFAR "python version" batches contain.

A pickle is a program: each ``GLOBAL`` / ``STACK_GLOBAL`` opcode names any importable callable and
``REDUCE`` calls it, so ``pickle.load`` on a file from an untrusted folder runs whatever the file
names (``os.system``, ...). The CIFAR-10 / CIFAR-100 batches are dicts of bytes keys, lists of ints
and bytes, bytes, and one ``uint8`` numpy array; rebuilding that needs exactly three globals:
numpy's array reconstructor (``numpy.core.multiarray._reconstruct``, written ``numpy._core...`` by
numpy >= 2), ``numpy.ndarray`` and ``numpy.dtype``. Pickles written by Python 3 with protocol 2
(e.g. a test's batch) also spell each ``bytes`` object as ``_codecs.encode(text, "latin1")``.
:class:`RestrictedUnpickler` resolves only those, with the numpy ones narrowed to numeric dtypes and
``_codecs.encode`` to latin-1, and refuses every other global with ``pickle.UnpicklingError``
naming it, before anything is called. Dicts, lists, tuples, str, bytes, int, float, bool and None
are built by opcodes, without any global.

References: the CIFAR "python version" batches (Krizhevsky 2009); Python's ``pickle`` documentation,
"Restricting Globals".
"""

from __future__ import annotations

import io
import pickle

import numpy as np

__all__ = ["ALLOWED_GLOBALS", "RestrictedUnpickler", "restricted_load"]

# numpy's array reconstructor, taken from ndarray's own reduce (no import of the deprecated numpy.core)
_RECONSTRUCT = np.empty(0, dtype=np.uint8).__reduce__()[0]
_NUMERIC_KINDS = "biuf"  # bool, signed and unsigned integers, floats: no object, void or str dtypes


def _numeric_dtype(spec, *args):
    """``numpy.dtype(spec, *args)`` for a numeric type only (an object dtype would unpickle its items)."""
    dt = np.dtype(spec, *args)
    if dt.kind not in _NUMERIC_KINDS or dt.hasobject:
        raise pickle.UnpicklingError(f"refused numpy dtype {dt!r} (only numeric dtypes are allowed)")
    return dt


def _reconstruct(cls, shape, typecode):
    """numpy's ``_reconstruct`` for ``numpy.ndarray`` itself (no subclass) of a numeric type code."""
    if cls is not np.ndarray:
        raise pickle.UnpicklingError(f"refused array class {cls!r} (only numpy.ndarray is allowed)")
    _numeric_dtype(typecode)
    return _RECONSTRUCT(cls, shape, typecode)


def _latin1_encode(text, encoding="utf-8"):
    """``_codecs.encode`` as Python 3 protocol-2 pickles use it for bytes: ``(str, "latin1")`` only."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError(f"refused _codecs.encode of a {type(text).__name__} with "
                                     f"encoding {encoding!r} (only str to latin1 is allowed)")
    return text.encode("latin-1")


#: ``(module, name)`` -> what it resolves to; everything else is refused.
ALLOWED_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy._core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): _numeric_dtype,
    ("_codecs", "encode"): _latin1_encode,
}


class RestrictedUnpickler(pickle.Unpickler):
    """A ``pickle.Unpickler`` that resolves only :data:`ALLOWED_GLOBALS` (what CIFAR batches hold).

    Parameters
    ----------
    file : binary file object
        Read from as ``pickle.Unpickler`` does.
    **kwargs
        Passed to ``pickle.Unpickler`` (e.g. ``encoding="bytes"`` for Python 2 pickles such as the
        official CIFAR archives).

    Raises
    ------
    pickle.UnpicklingError
        From :meth:`load`, naming the first global the pickle asks for that is not allowed; nothing
        it names is imported or called.

    References
    ----------
    The CIFAR "python version" batches (Krizhevsky 2009); Python's ``pickle`` documentation,
    "Restricting Globals".

    Examples
    --------
    >>> import io, pickle
    >>> RestrictedUnpickler(io.BytesIO(pickle.dumps({"k": [1, 2]}))).load()
    {'k': [1, 2]}
    >>> RestrictedUnpickler(io.BytesIO(pickle.dumps(print))).load()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    _pickle.UnpicklingError: refused global 'builtins.print': only ['_codecs.encode', ...] may be loaded
    """

    def __init__(self, file, **kwargs):
        super().__init__(file, **kwargs)

    def find_class(self, module, name):
        """Resolve ``module.name`` when it is in :data:`ALLOWED_GLOBALS`, else refuse it.

        Parameters
        ----------
        module, name : str
            The global the pickle names.

        Returns
        -------
        object
            The allowed callable or class.

        Raises
        ------
        pickle.UnpicklingError
            For any other global.

        References
        ----------
        Python's ``pickle`` documentation, "Restricting Globals".

        Examples
        --------
        >>> import io
        >>> RestrictedUnpickler(io.BytesIO(b"")).find_class("numpy", "ndarray") is np.ndarray
        True
        """
        try:
            return ALLOWED_GLOBALS[(module, name)]
        except (KeyError, TypeError):
            allowed = sorted(f"{m}.{n}" for m, n in ALLOWED_GLOBALS)
            raise pickle.UnpicklingError(f"refused global '{module}.{name}': only {allowed} may be loaded") from None


def restricted_load(file, **kwargs):
    """``pickle.load`` through :class:`RestrictedUnpickler`.

    Parameters
    ----------
    file : binary file object or bytes
        The pickle.
    **kwargs
        Passed to the unpickler (``encoding="bytes"`` for the official CIFAR archives).

    Returns
    -------
    object
        The unpickled object.

    Raises
    ------
    pickle.UnpicklingError
        A global outside :data:`ALLOWED_GLOBALS`, or a corrupt pickle; also whatever
        ``pickle.load`` raises on truncated input (``EOFError``, ...).

    References
    ----------
    The CIFAR "python version" batches (Krizhevsky 2009).

    Examples
    --------
    A batch as Python 3 writes it with protocol 2 (bytes keys, a uint8 array):

    >>> import pickle
    >>> batch = {b"data": np.arange(6, dtype=np.uint8).reshape(2, 3), b"labels": [1, 0]}
    >>> back = restricted_load(pickle.dumps(batch, protocol=2), encoding="bytes")
    >>> back[b"data"].tolist(), back[b"labels"]
    ([[0, 1, 2], [3, 4, 5]], [1, 0])
    """
    if isinstance(file, (bytes, bytearray)):
        file = io.BytesIO(file)
    return RestrictedUnpickler(file, **kwargs).load()
