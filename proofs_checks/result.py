"""The outcome record of every privacy check (exact or statistical), shared by :mod:`proofs_checks.dp`
and :mod:`proofs_checks.audit`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DPCheckResult"]


@dataclass(frozen=True, slots=True)
class DPCheckResult:
    """Outcome of an exact privacy check.

    ``holds`` is True when ``epsilon_actual <= epsilon`` (up to :data:`proofs_checks.dp.TOL`) and, for approximate DP,
    ``delta_actual <= delta``. ``exact`` is False only for the statistical audit of a black-box sampler
    (then ``epsilon_actual`` is a lower confidence bound and ``holds`` means "no violation found"). ``epsilon_actual`` is the exact worst-case loss found (for (ε, δ)
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
    exact: bool = True

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "VIOLATED"
        if not self.exact:
            verdict = ("no violation found (statistical, not a proof)" if self.holds
                       else "VIOLATED (statistical lower bound)")
        return f"label DP ({self.epsilon:g}, {self.delta:g}) {verdict}: {self.explanation}"
