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
