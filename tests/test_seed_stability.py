"""The committed seed-stability record (issue 35): made against today's committed quick run, and no verdict
holds at one root seed and fails at another.

``figures/seed_stability.json`` is written by ``python -m simulations.experiments.seed_stability figures
RUN_0 ...`` from the committed quick run and runs at other seeds (``paper_repro.py --seed S --out RUN_S``).
A verdict may move between holds (or fails) and inconclusive where an interval's end lies near its margin's
edge: the record lists those, and the docs page shows them. What one decision rule must never allow is a
claim that holds at one seed and is excluded at another.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulations.experiments.board import read_records
from simulations.experiments.seed_stability import compare_runs

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "figures" / "seed_stability.json"


@pytest.fixture(scope="module")
def record():
    if not RECORD.is_file():
        pytest.fail("figures/seed_stability.json is not committed")
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_the_record_was_made_against_the_committed_run(record):
    committed = {n: r.get("config_fingerprint") for n, r in read_records(ROOT / "figures")[0].items()}
    ref, *others = record["runs"]
    assert ref["fingerprints"] == committed, "the record was made against other outputs than figures/"
    for run in others:
        for name in record["experiments"]:
            assert run["fingerprints"].get(name) == committed[name], (run["folder"], name)
    assert others and record["compared"] > 0


def test_no_claim_holds_at_one_seed_and_fails_at_another(record):
    flips = [c for c in record["changed"] if {"holds", "fails"} <= set(c["verdicts"])]
    assert not flips, "\n".join(f"{c['experiment']}: {c['claim'][:100]}: {c['verdicts']}" for c in flips)


def test_the_comparison_sees_a_moved_verdict(tmp_path):
    """compare_runs finds a claim whose verdict moves, and names an experiment whose claims changed text."""
    for run, holds, text in (("ref", True, "c"), ("s0", None, "c"), ("s1", False, "c'")):
        (tmp_path / run / "x").mkdir(parents=True)
        rec = {"profile": "quick", "runtime_s": 1, "command": "c", "figures": [],
               "claims": [{"claim": text, "kind": "paper", "holds": holds}]}
        (tmp_path / run / "x" / "results.json").write_text(json.dumps(rec))
    out = compare_runs([tmp_path / "ref", tmp_path / "s0"])
    assert [c["verdicts"] for c in out["changed"]] == [["holds", "inconclusive"]]
    out = compare_runs([tmp_path / "ref", tmp_path / "s1"])
    assert out["compared"] == 0 and "reads differently" in out["problems"][0]
