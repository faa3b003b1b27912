"""One way to turn seeds into independent random streams.

Every random draw of the suite flows from a root seed through :class:`numpy.random.SeedSequence`.
A stream is addressed by ``(config_key, trial, purpose)`` so that sampling the data, privatizing
the labels and evaluating never share a stream (docs/design.md: the counter-example of a simulation whose
test set repeated its training set because both were drawn after reseeding one global generator).
Results are therefore a pure function of (config, root seed), whatever the number of workers.
"""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["DATA", "PRIVACY", "EVAL", "as_generator", "check_generator", "stable_key", "stream"]

# Purposes of a stream within one trial (the last entry of the spawn key).
DATA = 0
PRIVACY = 1
EVAL = 2


def as_generator(seed_or_rng) -> np.random.Generator:
    """Return ``seed_or_rng`` if it is a Generator, else ``numpy.random.default_rng(seed_or_rng)``.

    Parameters
    ----------
    seed_or_rng : numpy.random.Generator, numpy.random.SeedSequence, int >= 0 or None
        A Generator is returned as it is (the caller's stream continues); a SeedSequence or a
        non-negative int seeds a new PCG64 Generator; ``None`` gives an unseeded (irreproducible)
        Generator; :func:`check_generator` is the variant that refuses ``None``.

    Returns
    -------
    numpy.random.Generator
        The same object when ``seed_or_rng`` is a Generator, else a fresh one.

    Raises
    ------
    ValueError
        If ``seed_or_rng`` is a negative int, or of any other type (a float, a string, a legacy
        ``RandomState``).

    References
    ----------
    docs/design.md, style contract "randomness": public functions take a Generator or a seed turned
    into one by one helper.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> as_generator(rng) is rng
    True
    >>> int(as_generator(7).integers(10**9)) == int(np.random.default_rng(7).integers(10**9))
    True
    >>> as_generator(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer, got seed=-1
    """
    if isinstance(seed_or_rng, np.random.Generator):
        return seed_or_rng
    if seed_or_rng is None or isinstance(seed_or_rng, (int, np.integer, np.random.SeedSequence)):
        if isinstance(seed_or_rng, (int, np.integer)) and seed_or_rng < 0:
            raise ValueError(f"seed must be a non-negative integer, got seed={seed_or_rng}")
        return np.random.default_rng(seed_or_rng)
    raise ValueError(f"rng must be a numpy Generator, a SeedSequence or an int seed, got rng={seed_or_rng!r}")


def check_generator(rng) -> np.random.Generator:
    """The ``rng`` argument of a sampler: a Generator, or an int seed / SeedSequence turned into one.

    ``None`` is refused (an unseeded draw would make the result irreproducible), and so is anything
    else, with a ``ValueError`` naming the argument instead of an ``AttributeError`` deep inside.

    Parameters
    ----------
    rng : numpy.random.Generator, numpy.random.SeedSequence or int >= 0
        The stream to draw from; an int or a SeedSequence is turned into a Generator as by
        :func:`as_generator`.

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself when it is a Generator.

    Raises
    ------
    ValueError
        If ``rng`` is None, a negative int, or of any other type.

    References
    ----------
    docs/design.md, style contract "randomness" (never an unseeded or global generator).

    Examples
    --------
    >>> isinstance(check_generator(3), np.random.Generator)
    True
    >>> check_generator(None)
    Traceback (most recent call last):
    ...
    ValueError: rng must be a numpy Generator, a SeedSequence or an int seed, got rng=None
    """
    if rng is None:
        raise ValueError("rng must be a numpy Generator, a SeedSequence or an int seed, got rng=None")
    return as_generator(rng)


def stable_key(text: str) -> int:
    """A 32-bit integer derived from ``text`` that is stable across processes and Python versions.

    The first 4 bytes of the SHA-256 digest of ``text`` (UTF-8), read little-endian.
    (``hash(str)`` is salted per process, so it cannot key a reproducible stream.)

    Parameters
    ----------
    text : str
        Any string, e.g. an experiment or configuration name.

    Returns
    -------
    int
        In ``[0, 2**32)``.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (a result is a pure function of config
    and root seed, in every process).

    Examples
    --------
    SHA-256 of ``"abc"`` begins with the bytes ``ba 78 16 bf`` (the FIPS 180-2 test vector), so
    the key is ``0xbf1678ba``:

    >>> stable_key("abc") == 0xbf1678ba == 3205920954
    True
    """
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


def stream(root_seed: int, config_key, trial: int, purpose: int, sub=None) -> np.random.Generator:
    """The generator for one (config, trial, purpose): ``SeedSequence(root, spawn_key=...)``.

    ``default_rng(SeedSequence(root_seed, spawn_key=(config_key, trial, purpose)))``: streams
    with different keys are independent for all practical purposes (numpy's parallel-RNG
    guarantee for distinct spawn keys), and the same key gives the same stream in every process.

    Parameters
    ----------
    root_seed : int >= 0
        The run's seed (``paper_repro.py --seed``).
    config_key : int >= 0 or str
        The experiment point; a string is hashed with :func:`stable_key`.
    trial : int >= 0
        Trial index.
    purpose : int >= 0
        :data:`DATA` (0), :data:`PRIVACY` (1) or :data:`EVAL` (2), so that sampling the data,
        privatizing the labels and evaluating never share a stream.
    sub : int >= 0 or str, optional
        Splits one purpose further, e.g. one privacy stream per method of a trial: the spawn key
        becomes ``(config_key, trial, purpose, sub)`` (a string is hashed with :func:`stable_key`).

    Returns
    -------
    numpy.random.Generator
        A fresh PCG64 Generator at the start of its stream.

    Raises
    ------
    ValueError
        From :class:`numpy.random.SeedSequence` if a seed or key entry is negative.

    References
    ----------
    docs/design.md, style contract "randomness": ``SeedSequence(root, spawn_key=(config_key, trial,
    PURPOSE))``, one stream per trial and purpose.

    Examples
    --------
    The same key repeats its stream, a different purpose (or trial, or config) gives another one:

    >>> a = stream(2024, "point-1", 0, DATA).integers(0, 2**32, size=4)
    >>> bool(np.array_equal(a, stream(2024, "point-1", 0, DATA).integers(0, 2**32, size=4)))
    True
    >>> bool(np.array_equal(a, stream(2024, "point-1", 0, PRIVACY).integers(0, 2**32, size=4)))
    False
    >>> ss = np.random.SeedSequence(2024, spawn_key=(stable_key("point-1"), 0, DATA))
    >>> bool(np.array_equal(a, np.random.default_rng(ss).integers(0, 2**32, size=4)))
    True
    >>> ss = np.random.SeedSequence(2024, spawn_key=(stable_key("point-1"), 0, PRIVACY, stable_key("RR")))
    >>> bool(np.array_equal(stream(2024, "point-1", 0, PRIVACY, sub="RR").integers(0, 2**32, size=4),
    ...                     np.random.default_rng(ss).integers(0, 2**32, size=4)))
    True
    """
    keys = [config_key, trial, purpose] + ([] if sub is None else [sub])
    spawn_key = tuple(stable_key(k) if isinstance(k, str) else int(k) for k in keys)
    return np.random.default_rng(np.random.SeedSequence(int(root_seed), spawn_key=spawn_key))
