"""One way to turn seeds into independent random streams.

Every random draw of the suite flows from a root seed through :class:`numpy.random.SeedSequence`.
A stream is addressed by ``(config_key, trial, purpose)`` so that sampling the data, privatizing
the labels and evaluating never share a stream (DESIGN.md: the counter-example of a simulation whose
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
    """Return ``seed_or_rng`` if it is a Generator, else ``numpy.random.default_rng(seed)``."""
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
    """
    if rng is None:
        raise ValueError("rng must be a numpy Generator, a SeedSequence or an int seed, got rng=None")
    return as_generator(rng)


def stable_key(text: str) -> int:
    """A 32-bit integer derived from ``text`` that is stable across processes and Python versions.

    (``hash(str)`` is salted per process, so it cannot key a reproducible stream.)
    """
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


def stream(root_seed: int, config_key, trial: int, purpose: int, sub=None) -> np.random.Generator:
    """The generator for one (config, trial, purpose): ``SeedSequence(root, spawn_key=...)``.

    ``config_key`` may be an int or a string (hashed with :func:`stable_key`). ``sub`` (an int or a
    string, hashed the same way) splits one purpose further, e.g. one privacy stream per method of a
    trial: the spawn key becomes ``(config_key, trial, purpose, sub)``.
    """
    keys = [config_key, trial, purpose] + ([] if sub is None else [sub])
    spawn_key = tuple(stable_key(k) if isinstance(k, str) else int(k) for k in keys)
    return np.random.default_rng(np.random.SeedSequence(int(root_seed), spawn_key=spawn_key))
