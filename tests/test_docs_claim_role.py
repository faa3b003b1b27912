"""The docs' ``{claim}`` role: prose quotes results only through claims that exist and are decided words.

Every ``{claim}`` reference in the docs pages resolves to exactly one committed claim (so a sentence can
neither quote a number that is not in ``figures/`` nor outlive its claim), and the role renders the
claim's reading in its kind's words with the interval-bearing detail.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import labeldp_claims  # noqa: E402

REF = re.compile(r"\{claim\}`([^`]+)`")


def _figures(tmp_path, claims, name="exp"):
    (tmp_path / name).mkdir(parents=True)
    (tmp_path / name / "results.json").write_text(json.dumps({"claims": claims}), encoding="utf-8")
    return tmp_path


def test_resolve_finds_exactly_one_claim(tmp_path):
    figs = _figures(tmp_path, [{"claim": "A beats B at ε = 1", "kind": "paper", "holds": None,
                                "detail": "difference -0.010, 95% CI [-0.061, +0.042]"},
                               {"claim": "A beats B at ε = 2", "kind": "beyond", "holds": False, "detail": ""}])
    c = labeldp_claims.resolve("exp: at ε = 1", figs)
    assert c["claim"] == "A beats B at ε = 1" and labeldp_claims.reading(c) == "inconclusive"
    assert labeldp_claims.reading(labeldp_claims.resolve("exp: ε = 2", figs)) == "no"
    with pytest.raises(ValueError, match="matches 2 claims"):
        labeldp_claims.resolve("exp: A beats B", figs)
    with pytest.raises(ValueError, match="matches 0 claims"):
        labeldp_claims.resolve("exp: C beats D", figs)
    with pytest.raises(ValueError, match="cannot read"):
        labeldp_claims.resolve("nope: A", figs)
    with pytest.raises(ValueError, match=r"\[paper/\]EXPERIMENT: TEXT"):
        labeldp_claims.resolve("exp", figs)


def test_a_claim_without_a_kind_is_refused(tmp_path):
    figs = _figures(tmp_path, [{"claim": "old", "holds": True}])
    with pytest.raises(ValueError, match="has no kind"):
        labeldp_claims.reading(labeldp_claims.resolve("exp: old", figs))


def test_every_claim_reference_in_the_docs_resolves():
    pages = [p for p in (ROOT / "docs").rglob("*.md") if "generated" not in p.parts and "_build" not in p.parts]
    refs = [(p, m) for p in pages for m in REF.findall(p.read_text(encoding="utf-8"))]
    for page, ref in refs:
        c = labeldp_claims.resolve(ref)
        assert labeldp_claims.reading(c), (page, ref)
