"""Symbolic (sympy) and numeric checks of the papers' proof steps.

Importing the package registers every check in :data:`CHECKS` (id -> function); :func:`all_checks`
runs them. Modules, by concept:

- :mod:`.vector_mechanism` — 000 eq. (24) / 003 eq. (53) identity and argmax; 000 Theorem 1 privacy
- :mod:`.rrtopk` — 004 Lemma 1 and the RRTop-k objective identity
- :mod:`.exponential` — 003 eq. (17) privacy; eq. (108)-(109) gap bound
- :mod:`.laplace` — privacy and noise variances of 003's Laplace mechanisms (Theorems 6, 8, 10, 12)
- :mod:`.constructions` — identities of 003's lower-bound constructions (eq. (34), (47), (156)-(161))
- :mod:`.tuning_rates` — 003 Theorems 1-12 tunings and rates, Table 1, remarks
- :mod:`.unbiasedness` — 004 eq. (7) and Lemma 18
- :mod:`.convex_sco` — 004 Propositions 11-13, Fact 14, Lemmas 15-16 and 20 (Appendices F-G)
- :mod:`.inequalities` — numeric checks of 003 eq. (46)(c), (47)(b), (60), (61), (67), (80), (81), (113),
  Lemma 2; 000 eq. (33); 001 Theorem 2.7
- :mod:`.mechanism_findings` — 001 Algorithm 1 (exact δ, log base), 003 eq. (35)-(37) bump margin, 004
  Algorithms 1-2 tie-break and Section 3.2 index, 003 Theorem 4 exact slack, 000 Section 2 ALIBI cost
"""

from __future__ import annotations

from limits.validation import check_int
from simulations.executors import map_ordered

from . import (constructions, convex_sco, exponential, inequalities, laplace, mechanism_findings, rrtopk,  # noqa: F401
               tuning_rates, unbiasedness, vector_mechanism)
from .base import CHECKS, PROFILES, Finding, ProofCheck, proof_check

__all__ = ["CHECKS", "PROFILES", "Finding", "ProofCheck", "all_checks", "proof_check", "run_check"]


def run_check(check_id: str, profile: str = "smoke") -> ProofCheck:
    """Run one registered proof-step check by id.

    Parameters
    ----------
    check_id : str
        A key of :data:`CHECKS`, e.g. ``"004-alg1-tie-break"``.
    profile : {"smoke", "quick", "paper"}, default "smoke"
        Grid size of numeric checks (symbolic checks ignore it).

    Returns
    -------
    ProofCheck
        The check's result, with its findings.

    Raises
    ------
    ValueError
        An unknown ``check_id`` (or profile).

    References
    ----------
    The check's own ``source`` (e.g. 004 Algorithms 1-2, Lemma 1, Corollary 2 for the tie-break).

    Examples
    --------
    004 Algorithms 1-2 break ties "arbitrarily"; a tie-break that looks at the true label is not DP:

    >>> r = run_check("004-alg1-tie-break")
    >>> r.passed, [(f.source, f.severity) for f in r.findings]
    (False, [("004 Algorithms 1-2 (Y_k, 'ties broken arbitrarily')", 'privacy')])
    """
    if check_id not in CHECKS:
        raise ValueError(f"check_id must be one of the registered checks, got check_id={check_id!r}")
    return CHECKS[check_id](profile)


_RESULTS: dict[str, tuple[ProofCheck, ...]] = {}  # profile -> every check's result (the checks are deterministic)


def _run_one(check_id: str, profile: str) -> ProofCheck:
    """One check by id (module-level, so worker processes can run it)."""
    return CHECKS[check_id](profile)


def all_checks(profile: str = "smoke", *, jobs: int = 1, scheduler=None) -> list[ProofCheck]:
    """Run every registered check; the results are cached per profile (the checks are deterministic).

    Parameters
    ----------
    profile : {"smoke", "quick", "paper"}, default "smoke"
        Grid size of the numeric checks.
    jobs : int >= 1, default 1
        Worker processes (joblib/loky, :func:`simulations.executors.map_ordered`) the checks are spread
        over; the results do not depend on ``jobs`` (each check is a pure function of its profile).
    scheduler : None, "local", "proto://host:port" or distributed.Client, default None
        A Dask scheduler instead (the run's ``--scheduler``; see :func:`simulations.executors.open_executor`).

    Returns
    -------
    list of ProofCheck
        One result per entry of :data:`CHECKS`, in registration order.

    Raises
    ------
    ValueError
        An unknown ``profile``, ``jobs`` < 1 or a malformed ``scheduler``.

    References
    ----------
    003 Theorems 1-12 and Table 1, 000 eq. (24), (33), 001 Algorithm 1, 004 Algorithms 1-2, eq. (7),
    Lemma 18: the sources of the registered checks (each result's ``source``).

    Examples
    --------
    The smoke profile takes a few CPU seconds (sympy), so only the argument check runs here:

    >>> all_checks("huge")
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['smoke', 'quick', 'paper'], got profile='huge'
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {list(PROFILES)}, got profile={profile!r}")
    jobs = check_int("jobs", jobs, low=1)
    if profile not in _RESULTS:
        _RESULTS[profile] = tuple(map_ordered(_run_one, [(i, profile) for i in CHECKS], jobs, scheduler))
    return list(_RESULTS[profile])
