"""The outcome record of every privacy check (exact or statistical), shared by :mod:`proofs_checks.dp`
and :mod:`proofs_checks.audit`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DPCheckResult"]


@dataclass(frozen=True, slots=True)
class DPCheckResult:
    r"""Outcome of a privacy check, exact or statistical.

    ``holds`` is True when ``epsilon_actual <= epsilon`` (up to :data:`proofs_checks.dp.TOL`) and, for
    approximate DP, ``delta_actual <= delta``. ``str(result)`` gives the verdict in one line.

    Parameters
    ----------
    holds : bool
        The verdict.
    epsilon : float
        The claimed ε.
    delta : float
        The claimed δ.
    epsilon_actual : float
        The exact worst-case loss found (``inf`` when some output is impossible under one input only);
        for (ε, δ) mechanisms the ε at which ``delta_actual`` was computed. For the statistical audit
        (``exact=False``) a lower confidence bound.
    delta_actual : float or None, default None
        The exact δ(ε) for (ε, δ) checks (0.0 for pure checks); None for the statistical audit.
    method : str, default ""
        How the number was computed.
    witness : dict, default {}
        What attains it, e.g. ``{"y": 0, "y_prime": 1, "output": 0}`` or the neighbouring datasets.
    explanation : str, default ""
        The computation in words.
    exact : bool, default True
        False only for the statistical audit of a black-box sampler (then ``holds`` means "no
        violation found").

    References
    ----------
    Label DP: 003 Definitions 2-3, 004 Definition 2.2; (ε, δ)-DP: 001 Definition 1.1.

    Examples
    --------
    Randomized response with K = 2 and :math:`e^\varepsilon = 3` (004 eq. (1)) has loss ln 3:

    >>> from proofs_checks.dp import check_channel
    >>> res = check_channel([[0.75, 0.25], [0.25, 0.75]], 1.0)
    >>> res.holds, res.exact, res.witness
    (False, True, {'y': 0, 'y_prime': 1, 'output': 0})
    >>> str(res)
    "label DP (1, 0) VIOLATED: max ln P(z|y)/P(z|y') = 1.09861228867 > epsilon = 1 at y=0, y'=1, output=0"
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
