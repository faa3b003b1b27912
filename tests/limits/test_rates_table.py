"""The rates_table experiment runs at smoke profile through the runner and all its claims hold."""

from __future__ import annotations

import csv

import limits
from simulations.experiments import REGISTRY
from simulations.experiments.rates.table import cell_tex


def test_rates_table_smoke(smoke_run):
    assert REGISTRY["rates_table"].order == 0
    run = smoke_run("rates_table")  # the test run's one smoke run (tests/conftest.py)
    folder, saved = run.folder, run.record
    assert len(saved["claims"]) >= 10
    assert all(c["holds"] for c in saved["claims"]), [c for c in saved["claims"] if not c["holds"]]
    for name in ("table1", "rates_vs_N"):
        assert (folder / f"{name}.png").stat().st_size > 0  # the shared smoke runs write PNG only (conftest.py)
    with open(folder / "cells.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(limits.TASKS) * len(limits.PRIVACY)
    differs = {(r["task"], r["privacy"]) for r in rows if r["printed_differs"] == "True"}
    assert differs == {("regression", "central"), ("classification", "local_full")}
    with open(folder / "rates_vs_N.csv") as fh:
        curves = list(csv.DictReader(fh))
    r = next(c for c in curves if c["task"] == "regression" and c["privacy"] == "central" and c["eps"] == "0.5")
    assert float(r["rate"]) == limits.minimax_rate("regression", "central", N=float(r["N"]), epsilon=0.5, beta=1.0, d=2)
    # the Markdown table shows the derived cell and footnotes the printed one
    assert cell_tex("regression", "central") in saved["notes"]
    assert "printed $" + cell_tex("regression", "central", "printed") in saved["notes"]


def test_cell_tex_forms():
    assert cell_tex("regression", "none") == r"N^{-\frac{2 \beta}{2 \beta + d}}"
    assert r"\vee" in cell_tex("regression_heavy_tailed", "local")
    assert " + " in cell_tex("classification", "central")
    assert r"(N(\epsilon^2\wedge 1))" in cell_tex("classification", "local")
