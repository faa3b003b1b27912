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
    """One discrepancy between a paper and the derivation (machine-readable, see :meth:`to_dict`).

    Parameters
    ----------
    source : str
        Where the paper states it, e.g. ``"003 Theorem 12"`` or ``"003 Table 1"``.
    printed : str
        What the paper states.
    derived : str
        What the derivation gives.
    evidence : str
        The check (id and what it computed) that establishes it.
    severity : str, default "rate"
        One of :data:`SEVERITIES`: "rate" (a headline rate), "privacy" (a privacy claim), "tuning" (a
        tuning rule), "constant" (constants only), "domain" (an unstated precondition), "typo" (an
        intermediate step whose conclusion is unaffected).
    topic : str, default ""
        Short key for de-duplication across derivations (e.g. "central regression bounded").

    Raises
    ------
    ValueError
        An unknown ``severity``.

    References
    ----------
    The findings of 003 Table 1 against Theorems 7-8 (the seeds' README example) are records of this
    type.

    Examples
    --------
    >>> f = Finding("003 Table 1", "(eps N)^(-2beta/(d+2beta))", "(eps N)^(-2beta/(d+beta))", "check x")
    >>> f.severity, sorted(f.to_dict())
    ('rate', ['derived', 'evidence', 'printed', 'severity', 'source', 'topic'])
    >>> Finding("a", "b", "c", "d", severity="major")
    Traceback (most recent call last):
    ...
    ValueError: severity must be one of [...], got severity='major'
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
        """The finding as a plain dict (for JSON reports).

        Returns
        -------
        dict
            Keys ``source, printed, derived, evidence, severity, topic``.

        References
        ----------
        Infrastructure: docs/design.md's machine-readable claim records (results.json).

        Examples
        --------
        >>> Finding("003 eq. (109)", "a", "b", "c", severity="constant").to_dict()["source"]
        '003 eq. (109)'
        """
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ProofCheck:
    """Result of one proof-step check.

    Parameters
    ----------
    check_id : str
        Stable id, e.g. ``"003-thm8-rate"``.
    source : str
        The paper reference checked, e.g. ``"003 eq. (153)-(155), Theorem 8"``.
    statement : str
        The statement checked, in words.
    passed : bool
        True when the printed statement agrees with the derivation / the inequality holds everywhere
        on the grid.
    derived : str, default ""
        The derived expression or the measured extreme value.
    printed : str, default ""
        The paper's expression (given where it differs or is compared).
    detail : str, default ""
        How it was established (grid sizes, worst case, counterexample).
    findings : tuple of Finding, default ()
        The discrepancies this check establishes (empty when ``passed``).

    References
    ----------
    The check's ``source``; e.g. 003 eq. (47)(b) for ``"003-eq47b-binary-kl"``.

    Examples
    --------
    >>> from proofs_checks.proof_steps import run_check
    >>> r = run_check("003-eq47b-binary-kl")
    >>> r.source, r.passed, r.findings
    ('003 eq. (47)(b)', True, ())
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
        """The result as a plain dict, findings included as dicts (for JSON reports).

        Returns
        -------
        dict
            The fields of the record; ``"findings"`` is a list of :meth:`Finding.to_dict`.

        References
        ----------
        Infrastructure: docs/design.md's machine-readable claim records (results.json).

        Examples
        --------
        >>> ProofCheck("x", "003 eq. (1)", "s", True).to_dict()["findings"]
        []
        """
        out = asdict(self)
        out["findings"] = [f.to_dict() for f in self.findings]
        return out


#: check id -> function(profile) -> ProofCheck, in registration order
CHECKS: dict[str, Callable[..., ProofCheck]] = {}


def proof_check(check_id: str):
    """Decorator registering ``fn(profile="smoke") -> ProofCheck`` under ``check_id`` in :data:`CHECKS`.

    Parameters
    ----------
    check_id : str
        The unique id (convention: seed file, place, topic, e.g. ``"003-eq17-privacy"``).

    Returns
    -------
    callable
        The decorator; it returns ``fn`` unchanged, with ``fn.check_id`` set.

    Raises
    ------
    ValueError
        When ``check_id`` is already registered (raised when the decorator is applied).

    References
    ----------
    Infrastructure: one registry of checks, each citing its seed file and equation in ``source``.

    Examples
    --------
    >>> from proofs_checks.proof_steps import run_check   # registers every check
    >>> proof_check("003-eq47b-binary-kl")(lambda profile="smoke": None)
    Traceback (most recent call last):
    ...
    ValueError: proof check id already registered: '003-eq47b-binary-kl'
    """

    def deco(fn):
        if check_id in CHECKS:
            raise ValueError(f"proof check id already registered: {check_id!r}")
        CHECKS[check_id] = fn
        fn.check_id = check_id
        return fn

    return deco


def grid_size(profile: str, smoke: int, quick: int, paper: int) -> int:
    """The grid size (number of points / random instances) of a numeric check for a profile.

    Parameters
    ----------
    profile : {"smoke", "quick", "paper"}
        The profile.
    smoke, quick, paper : int
        The size for each profile.

    Returns
    -------
    int
        The size for ``profile``.

    Raises
    ------
    ValueError
        An unknown ``profile``.

    References
    ----------
    Infrastructure: docs/design.md's experiment profiles (``smoke`` seconds, ``quick`` minutes, ``paper``
    full size).

    Examples
    --------
    >>> grid_size("quick", 300, 3000, 30000)
    3000
    """
    check_choice("profile", profile, PROFILES)
    return {"smoke": smoke, "quick": quick, "paper": paper}[profile]


def nonnegative_for_positive(expr, s: sp.Symbol) -> bool:
    r"""Decide ``expr(s) >= 0 for all s > 0`` for a rational function in ``s``, conservatively.

    True when numerator and denominator (after ``together``) are polynomials in ``s`` whose
    coefficients are all non-negative (or all non-positive for both), other symbols being positive.
    False means "not proved", not "negative".

    Parameters
    ----------
    expr : sympy expression
        A rational function of ``s`` (other symbols positive).
    s : sympy.Symbol
        The variable, positive.

    Returns
    -------
    bool
        True when the sign certificate applies.

    References
    ----------
    Used by the symbolic privacy checks of 004 Lemma 1 and 003 eq. (17) (a ratio bound
    :math:`e^\varepsilon - r \ge 0` written with :math:`e^\varepsilon = 1 + s`).

    Examples
    --------
    >>> import sympy as sp
    >>> s = sp.Symbol("s", positive=True)
    >>> nonnegative_for_positive((s + 1)**2 / (s + 2), s), nonnegative_for_positive(s - 1, s)
    (True, False)
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
