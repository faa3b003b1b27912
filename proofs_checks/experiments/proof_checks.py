"""Experiment ``proof_checks``: every symbolic and numeric proof-step check, and every finding.

The report section lists each check (status, source, statement) and each discrepancy found in the
papers (source, printed, derived, evidence), the union of :mod:`proofs_checks.proof_steps` and
``limits.DISCREPANCIES``. The figure shows the status of the checks by paper and topic, and one
numeric check: the Chernoff bound e^(-(1-ln 2)k) of 000 eq. (33) against the exact binomial tail.

References: 000 eq. (24), (33), Theorem 1; 001 Theorem 2.7; 003 Theorems 1-12, Table 1, Appendices
B-M; 004 Lemma 1, eq. (7), (17), Lemma 18; 004 Propositions 11-13, Fact 14, Lemmas 15-16, 20.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from proofs_checks.findings import LOOSE_TOPICS, findings
from proofs_checks.proof_steps import all_checks
from proofs_checks.proof_steps.inequalities import chernoff_knn_curve
from simulations.experiments.base import Claim, ExperimentResult
from simulations.plotting import PALETTE, figure

__all__ = ["GROUPS", "compute", "group_of", "plot"]

#: (label, predicate on the check id) in display order
GROUPS = (
    ("000/002 vector mechanism, kNN", lambda c: c.startswith("000")),
    ("001 plug-in bound, stability histogram", lambda c: c.startswith("001")),
    ("003 upper-bound tunings and rates", lambda c: c.startswith("003-thm") and "lower" not in c and "p-limit" not in c
     and "eq187" not in c),
    ("003 lower bounds", lambda c: (c.startswith("003-thm") and ("lower" in c or "eq187" in c))
     or c == "003-eq156-construction"),
    ("003 Table 1", lambda c: c.startswith("003-table1")),
    ("003 remarks and limits", lambda c: c in ("003-thm10-p-limit", "003-thm12-p-limit", "003-p2-remark",
                                               "003-exponent-orderings")),
    ("003 mechanisms", lambda c: c in ("003-eq17-privacy", "003-eq17-exact-loss", "003-laplace-privacy",
                                   "003-laplace-variance")),
    ("003 inequalities", lambda c: c.startswith("003-")),
    ("004 convex SCO lower bounds, privacy (App. F-G)",
     lambda c: c.startswith(("004-prop1", "004-lemma15", "004-lemma20", "004-fact14"))),
    ("004 RRTop-k, debiasing", lambda c: c.startswith("004")),
)


def group_of(check_id: str) -> str:
    """The display group of a proof-step check: the label of the first :data:`GROUPS` predicate it meets.

    Parameters
    ----------
    check_id : str
        Id of a check of :mod:`proofs_checks.proof_steps`, prefixed by its paper (``"000-"``, ``"001-"``,
        ``"003-"``, ``"004-"``), e.g. ``"003-table1-local-classification"``.

    Returns
    -------
    str
        A label of :data:`GROUPS`; any other ``"003-"`` id falls in ``"003 inequalities"``.

    Raises
    ------
    ValueError
        If no group matches (an id without one of the four prefixes), naming the id.

    References
    ----------
    The checks' sources: 000 eq. (24), (33), Theorem 1; 001 Theorem 2.7, Algorithm 1; 003 Theorems 1-12,
    Table 1; 004 Lemma 1, eq. (7), Lemma 18.

    Examples
    --------
    The order of :data:`GROUPS` matters: ``"003-thm10-p-limit"`` starts with ``"003-thm"`` but is a remark,
    and an id no earlier group claims is an inequality:

    >>> group_of("003-table1-local-classification"), group_of("003-thm7-lower-rate")
    ('003 Table 1', '003 lower bounds')
    >>> group_of("003-thm10-p-limit"), group_of("003-eq61-domain"), group_of("004-eq7-unbiased")
    ('003 remarks and limits', '003 inequalities', '004 RRTop-k, debiasing')
    >>> group_of("002-eq14")
    Traceback (most recent call last):
    ...
    ValueError: check_id must start with 000-, 001-, 003- or 004- (a group of GROUPS), got check_id='002-eq14'
    """
    label = next((label for label, pred in GROUPS if pred(check_id)), None)
    if label is None:
        raise ValueError(f"check_id must start with 000-, 001-, 003- or 004- (a group of GROUPS), got check_id={check_id!r}")
    return label


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


@dataclass(frozen=True, slots=True)
class Profile:
    """Largest k of the plotted kNN Chernoff curve (the checks themselves read the profile name).

    Parameters
    ----------
    kmax : int
        The curve of 000 eq. (33) is drawn for k = 1 .. kmax, >= 1.

    References
    ----------
    000 eq. (33) (= 002 eq. (39)).

    Examples
    --------
    >>> PROFILES["quick"].kmax
    150
    """

    kmax: int


PROFILES = {"smoke": Profile(kmax=60), "quick": Profile(kmax=150), "paper": Profile(kmax=400)}



def _claim(check) -> Claim:
    """A proof-step check as a claim of its kind (docs/design.md, "Claim kinds").

    A check that agrees with the paper is a ``paper`` claim, reproduced. A check that establishes an error
    (one :data:`proofs_checks.findings.findings` entry of kind ``"error"``) is an ``erratum`` claim stating
    that the printed step is false, confirmed, naming its finding. A check whose printed statement holds
    but is loose (:data:`proofs_checks.findings.LOOSE_TOPICS`) asks a question beyond the paper (is the
    stated constant exact?), answered no. A failed check without a finding stays a paper claim, not
    reproduced.
    """
    where = f"[{check.source}]"
    if check.passed or not check.findings:
        detail = check.derived if check.passed else f"derived: {check.derived}; printed: {check.printed}"
        return Claim(claim=f"{check.check_id}: {check.statement} {where}", holds=check.passed, detail=detail[:300],
                     kind="paper")
    detail = f"derived: {check.derived}; printed: {check.printed}"[:300]
    topic = check.findings[0].topic
    if topic in LOOSE_TOPICS:
        return Claim(claim=f"{check.check_id} (beyond the paper: is the printed constant exact?): "
                           f"{check.statement} {where}", holds=False, detail=detail, kind="beyond")
    return Claim(claim=f"{check.check_id}: erratum, as printed this is false: {check.statement} {where}",
                 holds=True, detail=detail, kind="erratum", finding=topic)

def compute(ctx) -> ExperimentResult:
    """Run every proof-step check, list every finding, and tabulate 000 eq. (33)'s Chernoff bound against the exact tail.

    Parameters
    ----------
    ctx : RunContext
        Profile (``"smoke"``, ``"quick"`` or ``"paper"``: the size of the checks' numeric grids and of the
        plotted curve); the seed plays no part (the checks use fixed grids).

    Returns
    -------
    ExperimentResult
        Tables ``proof_checks`` (per check: id, group, source, passed, derived, printed), ``findings``
        (severity, source, printed, derived, evidence, origin: :func:`proofs_checks.findings`) and
        ``chernoff_eq33`` (k, the bound ``e^{−(1−ln 2)k}``, the exact ``P(Bin(N, 2k/N) < k)`` at N = 10^6 and
        N = 4 kmax); one claim per check (holds = the check agrees with the paper as printed); notes with
        both lists as markdown tables.

    Raises
    ------
    ValueError
        For an unknown profile (from :func:`proofs_checks.proof_steps.all_checks`), before any check runs.

    References
    ----------
    000 eq. (24), (33), Theorem 1; 001 Theorem 2.7; 003 Theorems 1-12, Table 1, Appendices B-M; 004 Lemma 1,
    eq. (7), (17), Lemma 18.

    Examples
    --------
    The smoke profile takes a few CPU seconds (sympy); an unknown profile is refused first:

    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    checks = all_checks(ctx.profile, jobs=ctx.jobs, scheduler=ctx.scheduler)  # on the run's workers (same results)
    found = findings(ctx.profile)
    kmax = PROFILES[ctx.profile].kmax
    ks = np.arange(1, kmax + 1)
    curves = {}
    for N in (10**6, 4 * kmax):  # large N (Poisson-like) and a small sample
        exact, bound = chernoff_knn_curve(ks, N)
        curves[N] = exact
    claims = [_claim(c) for c in checks]
    lines = ["### Proof checks", "",
             f"{sum(c.passed for c in checks)} of {len(checks)} checks agree with the papers as printed; "
             f"{len(found)} discrepancies are listed under Findings. Symbolic checks are exact (sympy); numeric "
             "checks use fixed-seed grids whose size grows with the profile.", "",
             "| status | check | group | source | statement |", "|---|---|---|---|---|"]
    for c in checks:
        lines.append(f"| {'pass' if c.passed else '**FAIL**'} | `{c.check_id}` | {group_of(c.check_id)} | "
                     f"{_md(c.source)} | {_md(c.statement)} |")
    lines += ["", "### Findings", "",
              "Severity: rate / tuning / privacy change a headline result; constant / domain / typo do not change a "
              "conclusion. Origin: proof_steps, limits, or both (derived independently in both places).", "",
              "| severity | source | printed | derived | evidence | origin |", "|---|---|---|---|---|---|"]
    for f in found:
        lines.append(f"| {f['severity']} | {_md(f['source'])} | {_md(f['printed'])} | {_md(f['derived'])} | "
                     f"{_md(f['evidence'])} | {f['origin']} |")
    tables = {
        "proof_checks": {"check_id": [c.check_id for c in checks], "group": [group_of(c.check_id) for c in checks],
                         "source": [c.source for c in checks], "passed": [c.passed for c in checks],
                         "derived": [c.derived for c in checks], "printed": [c.printed for c in checks]},
        "findings": {k: [f[k] for f in found] for k in ("severity", "source", "printed", "derived", "evidence", "origin")},
        "chernoff_eq33": {"k": ks, "bound": np.exp(-(1 - np.log(2)) * ks),
                          **{f"exact_N{N}": v for N, v in curves.items()}},
    }
    return ExperimentResult(tables=tables, claims=claims, notes="\n".join(lines),
                            data={"checks": [(c.check_id, c.passed) for c in checks], "ks": ks, "curves": curves})


def plot(result: ExperimentResult) -> dict:
    """Status of every check by group (green: agrees, orange: discrepancy), and 000 eq. (33)'s bound vs the exact tail.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["checks"]``, ``data["ks"]``, ``data["curves"]``).

    Returns
    -------
    dict
        ``{"proof_checks": matplotlib.figure.Figure}``.

    References
    ----------
    000 eq. (33) = 002 eq. (39) (the right panel).

    Examples
    --------
    Needs a computed result (seconds of sympy), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['proof_checks']
    """
    fig, (ax0, ax1) = figure(1, 2, width=5.6, height=4.2,
                             title="Proof-step checks: status by topic, and 000 eq. (33) Chernoff bound vs exact tail")
    rows = [label for label, _ in GROUPS]
    by_group = {label: [] for label in rows}
    for cid, ok in result.data["checks"]:
        by_group[group_of(cid)].append(ok)
    width = max(len(v) for v in by_group.values())
    for i, label in enumerate(rows):
        for j, ok in enumerate(by_group[label]):
            ax0.add_patch(__import__("matplotlib").patches.Rectangle(
                (j, len(rows) - 1 - i), 0.9, 0.9, color=PALETTE[2] if ok else PALETTE[1]))
    ax0.set_xlim(0, width)
    ax0.set_ylim(0, len(rows))
    ax0.set_yticks(np.arange(len(rows)) + 0.45, [f"{r} ({sum(by_group[r])}/{len(by_group[r])})" for r in reversed(rows)])
    ax0.set_xlabel("check (green: agrees with the paper; orange: discrepancy found)")
    ax0.grid(False)
    ax0.set_title("status of each check")
    ks = result.data["ks"]
    ax1.semilogy(ks, np.exp(-(1 - np.log(2)) * ks), color=PALETTE[0], lw=1.8, label=r"bound $e^{-(1-\ln 2)k}$")
    for i, (N, exact) in enumerate(result.data["curves"].items()):
        ax1.semilogy(ks, exact, color=PALETTE[3 + i], lw=1.4, ls="--" if i else "-",
                     label=f"exact P(Bin(N, 2k/N) < k), N = {N:g}")
    ax1.set_xlabel("k (number of neighbours)")
    ax1.set_ylabel("probability")
    ax1.set_title("000 eq. (33) = 002 eq. (39)")
    ax1.legend()
    return {"proof_checks": fig}


# Registered through proofs_checks/experiments/catalogue.py ("proof_checks"): name, what it reproduces, report order.
