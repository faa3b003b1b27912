"""The ``dp_checks`` experiment runs at the smoke profile, writes its outputs, and every claim holds."""

from __future__ import annotations

import csv


def test_dp_checks_smoke(smoke_run):
    """Read from the test run's one smoke run (tests/conftest.py), at the default root seed as before."""
    run = smoke_run("dp_checks")
    folder = run.folder
    saved = run.record
    assert len(saved["claims"]) >= 19
    failing = [c["claim"] for c in saved["claims"] if not c["holds"]]
    assert not failing, failing
    assert (folder / "dp_checks.png").exists()
    for table in ("dp_checks.csv", "stability_delta.csv", "stability_profile.csv"):
        assert (folder / table).read_text().count("\n") > 10
    # every planted bug appears, and each is found violating at some ε of the grid
    with open(folder / "dp_checks.csv", newline="") as fh:
        bugs = [r for r in csv.DictReader(fh) if r["kind"] == "bug"]
    assert {b["mechanism"] for b in bugs} >= {"vector: eps per bit", "RRTop-k: e^eps/(e^eps+k)",
                                            "exponential: exp(eps n)", "Laplace: Lap(T/eps)"}
    assert all(any(b["holds"] == "False" for b in bugs if b["mechanism"] == name) for name in {b["mechanism"] for b in bugs})


def test_dp_checks_rows_are_the_catalogue(smoke_run):
    """Every pure-DP record and planted bug of the catalogue is a row group of dp_checks, in report order."""
    from proofs_checks.catalogue import records

    with open(smoke_run("dp_checks").folder / "dp_checks.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    names = list(dict.fromkeys(r["mechanism"] for r in rows if r["kind"] in ("paper", "suite")))
    # a record of the suite's own construction is reported as such, never as a paper's mechanism
    assert {r["mechanism"] for r in rows if r["kind"] == "suite"} == {r.name for r in records() if r.suite_construction}
    bugs = list(dict.fromkeys(r["mechanism"] for r in rows if r["kind"] == "bug"))
    recs = records()
    assert names == [r.name for r in recs if r.paper_claim != "delta"]
    assert bugs == [b.name for b in sorted((b for r in recs for b in r.planted_bugs if b.loss is not None),
                                           key=lambda b: b.order)]
