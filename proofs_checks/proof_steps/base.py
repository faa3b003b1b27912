"""The result record of a proof-step check, the check registry, and small exact helpers.

Every check is a plain function ``fn(profile="smoke") -> ProofCheck`` registered with
:func:`proof_check`. Symbolic checks ignore ``profile``; numeric checks grow their grids with it
(``smoke`` < ``quick`` < ``paper``). A check that finds the printed statement wrong (or an
inequality that fails somewhere) returns ``passed=False`` together with one :class:`Finding` per
discrepancy; a check never weakens itself to agree with the paper.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

import sympy as sp

from limits.validation import check_choice

__all__ = ["CHECKS", "PROFILES", "Finding", "ProofCheck", "grid_size", "nonnegative_for_positive", "proof_check"]

PROFILES = ("smoke", "quick", "paper")

#: severity of a finding, most serious first
SEVERITIES = ("rate", "privacy", "tuning", "constant", "domain", "typo")


@dataclass(frozen=True, slots=True)
class Finding:
    """One discrepancy between a paper and the derivation (machine-readable, see ``to_dict``).

    source : where the paper states it, e.g. ``"003 Theorem 12"`` or ``"003 Table 1"``.
    printed : what the paper states.  derived : what the derivation gives.
    evidence : the check (id and what it computed) that establishes it.
    severity : one of ``SEVERITIES`` ("rate": a headline rate; "tuning": a tuning rule;
        "privacy": a privacy claim; "constant": constants only; "domain": an unstated
        precondition; "typo": an intermediate step whose conclusion is unaffected).
    topic : short key for de-duplication across derivations (e.g. "central regression bounded").
    """

    source: str
    printed: str
    derived: str
    evidence: str
    severity: str = "rate"
    topic: str = ""

    def __post_init__(self):
        check_choice("severity", self.severity, SEVERITIES)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ProofCheck:
    """Result of one check.

    check_id : stable id, e.g. ``"003-thm8-rate"``.
    source : the paper reference checked, e.g. ``"003 eq. (153)-(155), Theorem 8"``.
    statement : the statement checked, in words.
    passed : True when the printed statement agrees with the derivation / the inequality holds
        everywhere on the grid.
    derived : the derived expression or the measured extreme value.
    printed : the paper's expression (given where it differs or is compared).
    detail : how it was established (grid sizes, worst case, counterexample).
    findings : the discrepancies this check establishes (empty when ``passed``).
    """

    check_id: str
    source: str
    statement: str
    passed: bool
    derived: str = ""
    printed: str = ""
    detail: str = ""
    findings: tuple[Finding, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["findings"] = [f.to_dict() for f in self.findings]
        return out


#: check id -> function(profile) -> ProofCheck, in registration order
CHECKS: dict[str, Callable[..., ProofCheck]] = {}


def proof_check(check_id: str):
    """Register ``fn(profile="smoke") -> ProofCheck`` under ``check_id`` (ids must be unique)."""

    def deco(fn):
        if check_id in CHECKS:
            raise ValueError(f"proof check id already registered: {check_id!r}")
        CHECKS[check_id] = fn
        fn.check_id = check_id
        return fn

    return deco


def grid_size(profile: str, smoke: int, quick: int, paper: int) -> int:
    """The grid size (number of points / random instances) for a profile."""
    check_choice("profile", profile, PROFILES)
    return {"smoke": smoke, "quick": quick, "paper": paper}[profile]


def nonnegative_for_positive(expr, s: sp.Symbol) -> bool:
    """Decide ``expr(s) >= 0 for all s > 0`` for a rational function in ``s``, conservatively.

    True when numerator and denominator (after ``together``) are polynomials in ``s`` whose
    coefficients are all non-negative (or all non-positive for both), other symbols being
    positive. False means "not proved", not "negative".
    """
    num, den = sp.fraction(sp.factor(sp.together(expr)))

    def sign_of_coefficients(poly_expr):
        poly = sp.Poly(sp.expand(poly_expr), s)
        signs = set()
        for c in poly.coeffs():
            c = sp.simplify(c)
            if c.is_nonnegative:
                signs.add(1)
            elif c.is_nonpositive:
                signs.add(-1)
            else:
                return None
        return signs.pop() if len(signs) == 1 else (0 if not signs else None)

    sn, sd = sign_of_coefficients(num), sign_of_coefficients(den)
    if sn is None or sd is None or sd == 0:
        return False
    return sn == 0 or sn == sd
