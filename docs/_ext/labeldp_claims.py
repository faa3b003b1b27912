"""The ``claim`` role: prose that quotes a result reads it from the committed ``results.json``.

A sentence in a docs page that states a comparison ("LP-2ST beats RR at ε = 1") cites the claim that
decides it instead of typing its numbers::

    LP-2ST against RR at ε = 1: {claim}`lp_mst_digits: than RR (LP-1ST) on digits at ε = 1 (`

The reference is ``[paper/]EXPERIMENT: TEXT``, where ``TEXT`` is a substring of exactly one of the
experiment's claims (``paper/`` reads ``figures/paper/``). The role renders the claim's reading in its
kind's words (*reproduced*, *confirmed*, *yes*, *inconclusive*, ...) followed by its detail, which holds
the interval that decided it. A reference that matches no claim, or several, is a build error, so a
number quoted in prose can neither drift from the committed results nor outlive the claim.

References
----------
docs/design.md, "The decision rule" and "Claim kinds".
"""

from __future__ import annotations

import json
from pathlib import Path

from simulations.experiments.base import KINDS, reading_of

FIGURES = Path(__file__).resolve().parents[2] / "figures"


def resolve(ref: str, figures: Path = FIGURES) -> dict:
    """The one committed claim that ``ref`` names; ValueError when none or several match."""
    where, sep, text = ref.partition(":")
    text = text.strip()
    if not sep or not text:
        raise ValueError(f"a claim reference reads '[paper/]EXPERIMENT: TEXT', got {ref!r}")
    path = Path(figures) / where.strip() / "results.json"
    try:
        claims = json.loads(path.read_text(encoding="utf-8"))["claims"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"claim reference {ref!r}: cannot read {path}: {exc}") from None
    hits = [c for c in claims if text in c.get("claim", "")]
    if len(hits) != 1:
        raise ValueError(f"claim reference {ref!r} matches {len(hits)} claims of {path} (exactly one needed)")
    return hits[0]


def reading(claim: dict) -> str:
    """The claim's verdict in its kind's words; ValueError for a claim without a kind."""
    if claim.get("kind") not in KINDS:
        raise ValueError(f"claim {claim.get('claim', '')[:80]!r} has no kind (kind={claim.get('kind')!r}): "
                         "regenerate its experiment's outputs")
    return reading_of(claim["kind"], claim.get("holds"))


def _claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    from docutils import nodes

    try:
        c = resolve(text)
        r = reading(c)
    except ValueError as exc:
        msg = inliner.reporter.error(str(exc), line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    cls = {None: "inconclusive", True: "holds", False: "fails"}[c.get("holds")]
    detail = c.get("detail", "")
    out = [nodes.strong(r, r, classes=[f"labeldp-{cls}"])]
    if detail:
        out.append(nodes.Text(f" ({detail})"))
    return out, []


def setup(app):
    app.add_role("claim", _claim_role)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
