"""Exact label-DP verification: privacy loss of channels and the ``check_label_dp`` dispatcher.

Label DP (003 Definition 1, 004 Definition 1): neighbouring inputs differ in one *label*
(replace-one), never by adding or removing a point. For a finite local randomizer with channel
P[y, z] = P(output z | label y) the exact privacy loss is max_{y, y', z} ln(P[y, z] / P[y', z]).

Mechanism families register their exact checker with :func:`register_checker`; a mechanism with
no registered checker but a parameter-free ``channel_matrix()`` is checked by enumeration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from limits._validation import check_probability, check_real

__all__ = ["TOL", "DPCheckResult", "check_channel", "check_label_dp", "is_tight", "max_privacy_loss",
           "privacy_loss_witness", "register_checker", "within"]

# Relative slack when comparing an exactly computed loss with the claimed epsilon (float rounding
# of log-ratios of probabilities; the exact-arithmetic tests confirm the floats).
TOL = 1e-9


def privacy_loss_witness(channel) -> tuple[float, tuple[int, int, int] | None]:
    """Exact max over (y, y', z) of ln(P[y, z] / P[y', z]) and the (y, y', z) attaining it.

    Parameters
    ----------
    channel : array_like, shape (n_inputs, n_outputs)
        P[y, z] >= 0. Rows need not sum to one (sub-channels of events are allowed).

    Returns
    -------
    loss : float
        0/0 pairs are ignored; p/0 with p > 0 gives ``inf``. Computed as differences of logs, so
        tiny probabilities do not underflow the ratio.
    witness : (y, y', z) or None when every column is all-zero.
    """
    P = np.asarray(channel, dtype=float)
    if P.ndim != 2 or P.shape[0] < 1 or P.shape[1] < 1:
        raise ValueError(f"channel must be a non-empty 2-D array, got shape {P.shape}")
    if not np.all(np.isfinite(P)) or np.any(P < 0):
        raise ValueError("channel must hold finite non-negative probabilities")
    with np.errstate(divide="ignore"):
        logP = np.log(P)
    col_max = logP.max(axis=0)  # per output z: the largest and the smallest log-probability
    col_min = logP.min(axis=0)
    live = np.isfinite(col_max)  # columns with some positive mass (all-zero columns: 0/0, ignored)
    if not np.any(live):
        return 0.0, None
    with np.errstate(invalid="ignore"):  # -inf - -inf in all-zero columns, masked just below
        gaps = np.where(live, col_max - col_min, -np.inf)  # +inf where some row has 0 and another > 0
    z = int(np.argmax(gaps))
    y = int(np.argmax(logP[:, z]))
    y2 = int(np.argmin(logP[:, z]))
    return float(gaps[z]), (y, y2, z)


def max_privacy_loss(channel) -> float:
    """Exact worst-case privacy loss max_{y, y', z} ln(P[y, z] / P[y', z]) of a channel matrix."""
    return privacy_loss_witness(channel)[0]


@dataclass(frozen=True, slots=True)
class DPCheckResult:
    """Outcome of an exact privacy check.

    ``holds`` is True when ``epsilon_actual <= epsilon`` (up to :data:`TOL`) and, for approximate DP,
    ``delta_actual <= delta``. ``epsilon_actual`` is the exact worst-case loss found (for (ε, δ)
    mechanisms: the smallest ε' with δ(ε') <= δ, or the loss at the claimed ε reported in delta_actual).
    """

    holds: bool
    epsilon: float
    delta: float
    epsilon_actual: float
    delta_actual: float | None = None
    method: str = ""
    witness: dict[str, Any] = field(default_factory=dict)
    explanation: str = ""

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "VIOLATED"
        return f"label DP ({self.epsilon:g}, {self.delta:g}) {verdict}: {self.explanation}"


_CHECKERS: dict[type, Callable[..., DPCheckResult]] = {}


def register_checker(cls: type):
    """Decorator: ``@register_checker(SomeMechanism)`` on ``fn(mechanism, epsilon, delta, **kw)``."""

    def deco(fn):
        _CHECKERS[cls] = fn
        return fn

    return deco


def within(actual: float, claimed: float) -> bool:
    """``actual <= claimed`` up to the relative float tolerance :data:`TOL`."""
    return actual <= claimed * (1 + TOL) + TOL


def is_tight(actual: float, claimed: float) -> bool:
    """``actual == claimed`` up to :data:`TOL` (relative): the claimed ε is attained, not only respected."""
    return abs(actual - claimed) <= TOL * max(1.0, abs(claimed))


def check_channel(channel, epsilon: float, *, method: str = "exact enumeration of the channel",
                  labels=None, outputs=None) -> DPCheckResult:
    """Pure ε-DP check of a finite channel P[y, z] by exact enumeration of (y, y', z).

    Parameters
    ----------
    channel : array_like, shape (n_inputs, n_outputs)
    epsilon : float >= 0, the claimed budget.
    labels, outputs : optional sequences naming the rows and columns in the witness.

    Returns
    -------
    DPCheckResult with the exact loss and its witness (y, y', output).
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    loss, w = privacy_loss_witness(channel)
    witness = {}
    if w is not None:
        y, y2, z = w
        witness = {"y": labels[y] if labels is not None else y,
                   "y_prime": labels[y2] if labels is not None else y2,
                   "output": outputs[z] if outputs is not None else z}
    holds = within(loss, epsilon)
    expl = (f"max ln P(z|y)/P(z|y') = {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g}"
            + (f" at y={witness['y']}, y'={witness['y_prime']}, output={witness['output']}" if witness else ""))
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=0.0, epsilon_actual=loss, delta_actual=0.0,
                         method=method, witness=witness, explanation=expl)


def check_label_dp(mechanism, epsilon: float, delta: float = 0.0, **kwargs) -> DPCheckResult:
    """Exactly check that ``mechanism`` satisfies (epsilon, delta)-label DP.

    Dispatches on the mechanism's type (the first registered class in its MRO); keyword arguments
    go to that checker (e.g. ``prior=`` for RRWithPrior, ``dataset_size=`` for central mechanisms).
    A mechanism without a registered checker but with a parameter-free ``channel_matrix()`` is
    checked by exact enumeration of its channel; so is a 2-D array passed as the channel itself.
    """
    epsilon = check_real("epsilon", epsilon, low=0.0)
    delta = check_probability("delta", delta)
    for cls in type(mechanism).__mro__:
        if cls in _CHECKERS:
            return _CHECKERS[cls](mechanism, epsilon, delta, **kwargs)
    if isinstance(mechanism, np.ndarray):
        return check_channel(mechanism, epsilon)
    if hasattr(mechanism, "channel_matrix"):
        return check_channel(mechanism.channel_matrix(**kwargs), epsilon)
    raise ValueError(f"mechanism has no exact privacy checker: {type(mechanism).__name__}")
