"""Importable trial functions for the engine tests (loky and Dask workers unpickle them by name)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from simulations.engine import trial_streams


@dataclass(frozen=True, slots=True)
class Point:
    n: int
    shift: float = 0.0
    label: str = "a"


def three_stream_trial(config: Point, trial: int, root_seed: int) -> dict:
    """Draws from all three streams; returns a scalar, an integer and a fixed-shape vector."""
    data, privacy, evaluation = trial_streams(config, trial, root_seed)
    x = data.normal(size=config.n) + config.shift
    z = x + privacy.laplace(size=config.n)
    test = evaluation.uniform(size=3)
    return {"risk": float(np.mean((z - x) ** 2)), "count": int(privacy.integers(0, 1 << 40)),
            "curve": test * x.mean()}


CALLS: list[int] = []  # trial indices computed in this process (serial runs only)
RAISE_AT: int | None = None
INTERRUPT_AT: int | None = None  # Ctrl-C stand-in: KeyboardInterrupt at this trial


def counting_trial(config: Point, trial: int, root_seed: int) -> dict:
    """Same numbers as :func:`three_stream_trial`; records calls, raises at RAISE_AT, and the process dies at
    trial ``$ENGINE_TEST_CRASH_AT`` (a killed run; the resume must be the same function: the cache key holds its
    bytecode digest)."""
    if trial == int(os.environ.get("ENGINE_TEST_CRASH_AT", "-1")):
        os._exit(3)
    if RAISE_AT is not None and trial == RAISE_AT:
        raise RuntimeError(f"planned failure at trial {trial}")
    if INTERRUPT_AT is not None and trial == INTERRUPT_AT:
        raise KeyboardInterrupt
    CALLS.append(trial)
    return three_stream_trial(config, trial, root_seed)
