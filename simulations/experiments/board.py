"""The verdict board: per paper, what its claims came to, counted by claim kind.

A claim in ``results.json`` records what it tests (``kind``, :data:`simulations.experiments.base.KINDS`):
the paper's own statement, an erratum (the paper's text is wrong), or a question the suite adds. This
module counts them so that a reader never takes a ``beyond`` answer for a verdict on a paper: per paper,
its claims *reproduced* / *not reproduced* / *inconclusive*, its errata *confirmed*, and the beyond
questions answered *yes* / *no* / *inconclusive*. :func:`verdict_board_markdown` is the table that
opens ``REPORT.md`` and the docs site's results pages; each non-zero cell links to the claims behind it.

Standard library and :mod:`simulations.outputs` only (it is imported by the runner and by the docs build).

References
----------
docs/design.md, "Claim kinds" and "Experiments and their outputs".
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import KINDS, READINGS, reading_of

__all__ = ["PAPERS", "board_counts", "kind_counts_text", "kind_tally", "paper_of", "read_records", "verdict_board_markdown"]

#: The source papers (their file prefixes) and the short titles the board shows; 002 is the published
#: version of 000, so their claims share one row.
PAPERS = {
    "000": "000/002 Vector approximation (K-bit vector mechanism)",
    "001": "001 Differentially-private Bayes consistency",
    "003": "003 Theoretical limits of learning with label DP",
    "004": "004 Deep learning with label DP (RRWithPrior, LP-MST)",
}
_PAPER_RE = re.compile(r"(?<![\w.])(000|001|002|003|004)(?![\w.])")  # not the "000" of N^-1.000 or ε=0.0001


def paper_of(claim_text: str, reproduces: str) -> str:
    """The paper a claim is about: the first paper cited in its text, else the experiment's first.

    Parameters
    ----------
    claim_text : str
        The claim as written in ``results.json``.
    reproduces : str
        The experiment's ``reproduces`` line (cites its papers, e.g. ``"003 Table 1 ..."``).

    Returns
    -------
    str
        A key of :data:`PAPERS` (``"002"`` counts as ``"000"``), or ``"other"`` when neither text
        cites a paper.

    References
    ----------
    The five papers' file prefixes (docs/design.md, "Claim kinds").

    Examples
    --------
    >>> paper_of("001 Lemma A.8: every cell has diam <= 2r", "001 Appendix A"), paper_of("x", "002 eq. (14)")
    ('001', '000')
    >>> paper_of("ε=0.0001: excess risk ∝ N^-1.000 (003 Theorems 7-8)", "")
    '003'

    """
    for text in (claim_text, reproduces):
        m = _PAPER_RE.search(text)
        if m:
            return "000" if m.group(1) == "002" else m.group(1)
    return "other"


def read_records(out) -> tuple[dict[str, dict], dict[str, str]]:
    """Every readable ``<out>/<name>/results.json``, and the warning line for each that is not.

    Each file is read by :func:`simulations.outputs.read_results` (the one reader of results.json, which
    checks its shape: an untrusted folder may hold anything).

    Parameters
    ----------
    out : path-like
        An output root (``figures/`` or ``figures/paper/``).

    Returns
    -------
    records : dict of str to dict
        Experiment name -> its results.json object.
    unreadable : dict of str to str
        Experiment name -> the one-line warning naming its file and why it was skipped.

    References
    ----------
    docs/design.md, "Experiments and their outputs" and "Untrusted input".

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); (d / "a").mkdir(); (d / "b").mkdir()
    >>> ok = '{"profile": "quick", "runtime_s": 1, "command": "c", "claims": [], "figures": []}'
    >>> _ = (d / "a" / "results.json").write_text(ok); _ = (d / "b" / "results.json").write_text("{x")
    >>> recs, bad = read_records(d)
    >>> sorted(recs), sorted(bad), "unreadable" in bad["b"]
    (['a'], ['b'], True)
    """
    from simulations.outputs import read_results

    records, unreadable = {}, {}
    for f in sorted(Path(out).glob("*/results.json")):
        lines = []
        rec = read_results(f, warn=lines.append)
        if rec is None:
            unreadable[f.parent.name] = lines[0] if lines else f"warning: {f} is unreadable"
        else:
            records[f.parent.name] = rec
    return records, unreadable


def board_counts(records: dict[str, dict]) -> dict[str, dict[tuple[str, str], list[tuple[str, dict]]]]:
    """Claims grouped by paper, then by (kind, reading).

    Parameters
    ----------
    records : dict of str to dict
        Experiment name -> results.json object (see :func:`read_records`). A claim without a
        ``kind`` (written by an older suite) is grouped under kind ``"unknown"``.

    Returns
    -------
    dict
        paper -> {(kind, reading): [(experiment name, claim dict), ...]}.

    References
    ----------
    docs/design.md, "Claim kinds".

    Examples
    --------
    >>> recs = {"e": {"reproduces": "003 Table 1", "claims": [
    ...     {"claim": "slope", "kind": "paper", "holds": True},
    ...     {"claim": "beyond 003: within 10x", "kind": "beyond", "holds": False}]}}
    >>> sorted(board_counts(recs)["003"])
    [('beyond', 'no'), ('paper', 'reproduced')]
    """
    board: dict = {}
    for name, rec in records.items():
        for c in rec.get("claims", []):
            if not isinstance(c, dict):
                continue
            kind = c.get("kind") if c.get("kind") in KINDS else "unknown"
            reading = reading_of(kind, c.get("holds")) if kind in KINDS else str(c.get("verdict", "?"))
            paper = paper_of(str(c.get("claim", "")), str(rec.get("reproduces", "")))
            board.setdefault(paper, {}).setdefault((kind, reading), []).append((name, c))
    return board


def kind_tally(claims) -> dict[str, tuple[int, int, int]]:
    """Per kind, how many claims hold, fail and are inconclusive.

    Parameters
    ----------
    claims : iterable of dict
        ``results.json`` claims (``kind`` and ``holds``); a claim without a valid kind counts under
        ``"unknown"``.

    Returns
    -------
    dict of str to (int, int, int)
        kind -> (holds, fails, inconclusive), i.e. (reproduced, not reproduced, inconclusive) for
        ``paper``, (confirmed, not confirmed, inconclusive) for ``erratum``, (yes, no, inconclusive)
        for ``beyond``; every kind of :data:`simulations.experiments.base.KINDS` is present.

    References
    ----------
    docs/design.md, "Claim kinds".

    Examples
    --------
    >>> kind_tally([{"kind": "paper", "holds": True}, {"kind": "beyond", "holds": None}])
    {'paper': (1, 0, 0), 'erratum': (0, 0, 0), 'beyond': (0, 0, 1)}
    """
    tally = {k: [0, 0, 0] for k in KINDS}
    for c in claims:
        kind = c.get("kind") if c.get("kind") in KINDS else "unknown"
        holds = c.get("holds")
        tally.setdefault(kind, [0, 0, 0])[2 if holds is None else (0 if holds else 1)] += 1
    return {k: tuple(v) for k, v in tally.items()}


def kind_counts_text(claims) -> str:
    """One line that counts claims by kind, in each kind's words.

    Parameters
    ----------
    claims : iterable of dict
        ``results.json`` claims (``kind`` and ``holds``).

    Returns
    -------
    str
        E.g. ``"3 paper claims reproduced; 8 beyond questions answered no"``; kinds and readings with no
        claim are left out; ``"no claims"`` when there are none.

    References
    ----------
    docs/design.md, "Claim kinds".

    Examples
    --------
    >>> kind_counts_text([{"kind": "paper", "holds": True}] * 3 + [{"kind": "beyond", "holds": False}] * 8)
    '3 paper claims reproduced; 8 beyond questions answered no'
    >>> kind_counts_text([{"kind": "erratum", "holds": True}, {"kind": "paper", "holds": None}])
    '1 paper claim inconclusive; 1 erratum confirmed'
    """
    counts: dict = {}
    for c in claims:
        kind = c.get("kind") if c.get("kind") in KINDS else "unknown"
        reading = reading_of(kind, c.get("holds")) if kind in KINDS else str(c.get("verdict", "?"))
        counts[kind, reading] = counts.get((kind, reading), 0) + 1
    nouns = {"paper": ("paper claim", "paper claims", ""), "erratum": ("erratum", "errata", ""),
             "beyond": ("beyond question", "beyond questions", "answered "),
             "unknown": ("claim without a kind", "claims without a kind", "")}
    parts = []
    for kind in (*KINDS, "unknown"):
        readings = READINGS.get(kind, ())
        order = list(readings) + sorted({r for k, r in counts if k == kind and r not in readings})
        for reading in order:
            n = counts.get((kind, reading), 0)
            if n:
                one, many, verb = nouns[kind]
                verb = "" if reading == "inconclusive" else verb
                parts.append(f"{n} {one if n == 1 else many} {verb}{reading}")
    return "; ".join(parts) if parts else "no claims"


def _anchor(paper: str, kind: str, reading: str) -> str:
    return "board-" + re.sub(r"[^a-z0-9]+", "-", f"{paper} {kind} {reading}".lower()).strip("-")


def verdict_board_markdown(records: dict[str, dict], *, link=lambda name: f"#{name}", details: bool = True,
                           target=lambda anchor: f'<a id="{anchor}"></a>') -> str:
    """The verdict board as Markdown: one row per paper, one column per (kind, reading).

    Parameters
    ----------
    records : dict of str to dict
        Experiment name -> results.json object (see :func:`read_records`).
    link : callable, default ``lambda name: f"#{name}"``
        Maps an experiment name to the link target of its section (REPORT.md's anchors by default).
    details : bool, default True
        Also list, under the board, the claims behind every non-zero cell (the cells link there).
    target : callable, default an HTML ``<a id>``
        Maps an anchor name to the Markdown line that makes it a link target (``lambda a: f"({a})="`` for
        MyST, whose links resolve only its own targets).

    Returns
    -------
    str
        Markdown: the table, a key, and (``details``) the claims per paper, kind and reading.

    References
    ----------
    docs/design.md, "Claim kinds".

    Examples
    --------
    >>> recs = {"vector_theorem2": {"reproduces": "000 Theorem 2", "claims": [
    ...     {"claim": "000 eq. (20)", "kind": "paper", "holds": True},
    ...     {"claim": "beyond 000: within 10x", "kind": "beyond", "holds": False}]}}
    >>> md = verdict_board_markdown(recs, details=False)
    >>> [line for line in md.splitlines() if line.startswith("| 000")][0]
    '| 000/002 Vector approximation (K-bit vector mechanism) | 1 | 0 | 0 | 0 | 0 | 0 | 1 | 0 |'
    >>> "[1](#board-000-beyond-no)" in verdict_board_markdown(recs)
    True
    """
    board = board_counts(records)
    cols = [("paper", r) for r in READINGS["paper"]] + [("erratum", r) for r in READINGS["erratum"][:2]] + \
           [("beyond", r) for r in READINGS["beyond"]]
    heads = ["paper: reproduced", "paper: not reproduced", "paper: inconclusive", "errata confirmed",
             "errata not confirmed", "beyond: yes", "beyond: no", "beyond: inconclusive"]
    lines = ["| paper | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    papers = [p for p in PAPERS if p in board] + sorted(p for p in board if p not in PAPERS)
    for p in papers:
        cells = []
        for kind, reading in cols:
            n = len(board[p].get((kind, reading), []))
            cells.append(f"[{n}](#{_anchor(p, kind, reading)})" if n and details else str(n))
        lines.append(f"| {PAPERS.get(p, p)} | " + " | ".join(cells) + " |")
    unknown = sum(len(v) for b in board.values() for (k, _), v in b.items() if k not in KINDS)
    lines += ["", "*paper*: the paper states it (reproduced, not reproduced or inconclusive: one interval decides "
              "all three). *erratum*: the paper's text is wrong and the check confirms it (each names its "
              "`proofs_checks.findings()` entry). *beyond*: a question the suite adds (tightness, constants, "
              "stand-in data sets): a *no* there is not a verdict on the paper."]
    if unknown:
        lines += ["", f"{unknown} claims carry no kind (written by an older suite): rerun their experiments."]
    if details:
        for p in papers:
            for kind, reading in cols:
                items = board[p].get((kind, reading), [])
                if not items:
                    continue
                lines += ["", target(_anchor(p, kind, reading)), "",
                          f"**{PAPERS.get(p, p)}: {kind}, {reading}** ({len(items)})", ""]
                for name, c in items:
                    text = str(c.get("claim", "")).replace("|", "\\|").replace("\n", " ")
                    text = text if len(text) <= 220 else text[:217] + "..."
                    lines.append(f"- [{name}]({link(name)}): {text}")
    return "\n".join(lines)
