"""Committed outputs are today's code's, and every claim says what it tests (docs/design.md, "Claim kinds").

* every committed ``results.json`` (``figures/`` and ``figures/paper/``) has provenance, a kind on every claim,
  errata naming a ``findings()`` entry, and the configuration fingerprint of the experiment as it is now
  (:func:`simulations.experiments.fingerprint.stale_outputs`): an experiment changed without regenerating its
  committed outputs fails here;
* the check itself notices a changed configuration (a planted change of one setting);
* every ``findings()`` entry is checked: by an erratum claim (or, for a loose one, a beyond claim) of the
  committed ``proof_checks`` output, or by a substance test of ``tests/proofs_checks/test_findings.py``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import paper_repro  # noqa: F401  (registers every experiment of both layers)
from proofs_checks.findings import TEXT_FINDINGS, findings
from simulations.experiments.base import REGISTRY, Claim
from simulations.experiments.fingerprint import config_fingerprint, stale_outputs

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "figures"


@pytest.fixture(scope="module")
def topics():
    return {f["topic"] for f in findings("smoke")}


def test_committed_quick_outputs_are_current(topics):
    stale = stale_outputs(FIGURES, REGISTRY, known_findings=topics)
    assert not stale, "\n".join(f"figures/{k}: {v}" for k, v in sorted(stale.items()))


def test_committed_paper_outputs_are_current_or_declared_stale(topics):
    """A paper-profile output that could not be regenerated on the suite's machines is declared stale in the
    paper REPORT (its row, its section with the reason and the command) and kept off the verdict board; every
    other one is current. Every paper output has provenance (the outputs written before provenance records
    were regenerated)."""
    stale = stale_outputs(FIGURES / "paper", REGISTRY, known_findings=topics)
    report = (FIGURES / "paper" / "REPORT.md").read_text(encoding="utf-8")
    for name, why in stale.items():
        assert why != "no provenance", name
        assert f"| [{name}](#{name}) |" in report and f"**Stale output, not counted on the verdict board:** {why}" \
            in report, name


def test_every_quick_experiment_has_a_committed_output():
    have = {p.parent.name for p in FIGURES.glob("*/results.json")}
    assert set(REGISTRY) <= have, sorted(set(REGISTRY) - have)


def test_paper_folder_covers_or_explains_every_experiment():
    """Each experiment has a paper-profile output or a note saying why not (printed in the paper REPORT)."""
    have = {p.parent.name for p in (FIGURES / "paper").glob("*/results.json")}
    missing = [n for n, e in REGISTRY.items() if n not in have and not e.paper_note]
    assert not missing, missing
    report = (FIGURES / "paper" / "REPORT.md").read_text(encoding="utf-8")
    for n, e in REGISTRY.items():
        if n not in have:
            assert e.paper_note in report, n


def test_staleness_check_sees_a_changed_setting(tmp_path, monkeypatch):
    """A results.json written with today's fingerprint is current; changing one paper-profile setting of the
    experiment (its trial count) makes it stale, and a quick-profile output of it stays current."""
    import simulations.experiments.vector.theorem2 as mod

    exp = REGISTRY["vector_theorem2"]
    claim = Claim("x", True, kind="paper").to_json()
    for profile in ("quick", "paper"):
        (tmp_path / profile / exp.name).mkdir(parents=True)
        (tmp_path / profile / exp.name / "results.json").write_text(json.dumps(
            {"profile": profile, "provenance": {"profile": profile}, "claims": [claim],
             "config_fingerprint": config_fingerprint(exp, profile)}))
        assert stale_outputs(tmp_path / profile, REGISTRY) == {}
    changed = dict(mod.PROFILES)
    changed["paper"] = dataclasses.replace(mod.PROFILES["paper"], n_trials=mod.PROFILES["paper"].n_trials + 1)
    monkeypatch.setattr(mod, "PROFILES", changed)
    stale = stale_outputs(tmp_path / "paper", REGISTRY)
    assert list(stale) == [exp.name] and "another configuration" in stale[exp.name]
    assert stale_outputs(tmp_path / "quick", REGISTRY) == {}


def test_staleness_check_sees_missing_kinds_and_provenance(tmp_path, topics):
    for name, rec in {"rates_table": {"profile": "quick", "claims": [{"claim": "x", "holds": True}]},
                      "dp_checks": {"profile": "quick", "provenance": {"x": 1},
                                    "claims": [{"claim": "x", "holds": True}]},
                      "proof_checks": {"profile": "quick", "provenance": {"x": 1},
                                       "claims": [{"claim": "x", "holds": True, "kind": "erratum",
                                                   "finding": "no such topic"}]}}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps(rec))
    stale = stale_outputs(tmp_path, REGISTRY, known_findings=topics)
    assert stale["rates_table"] == "no provenance"
    assert "claim without a kind" in stale["dp_checks"]
    assert "erratum naming no findings() entry" in stale["proof_checks"]


def test_every_finding_is_checked_by_a_claim_or_a_test():
    committed = json.loads((FIGURES / "proof_checks" / "results.json").read_text(encoding="utf-8"))
    by_check = {c["claim"].split(":")[0].split(" ")[0]: c for c in committed["claims"]}
    text_topics = {rec["topic"] for rec in TEXT_FINDINGS}
    for f in findings("smoke"):
        if f["topic"] in text_topics:
            continue  # tests/proofs_checks/test_findings.py::test_every_text_finding_has_a_substance_test
        claim = by_check.get(f["check_id"]) if f["check_id"] else None
        assert claim is not None, f["topic"]
        if f["kind"] == "loose":
            assert claim["kind"] == "beyond" and claim["holds"] is False, f["topic"]
        else:
            assert claim["kind"] == "erratum" and claim["holds"] is True, f["topic"]
            assert any(c.get("finding") == f["topic"] for c in committed["claims"]), f["topic"]
