"""The documentation's theory guide covers every experiment of ``paper_repro.py --list`` (issue 28).

``docs/_ext/labeldp_pages.py`` writes the pages at every Sphinx build from the two catalogues and the
committed ``figures/<name>/results.json``; here it writes them into a temporary folder (no Sphinx needed) and
each experiment must have a section on the page of every seed paper its ``reproduces`` text cites, with its
verdict counts and every committed figure, so the guide cannot silently drop one.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pages():
    spec = importlib.util.spec_from_file_location("labeldp_pages", ROOT / "docs" / "_ext" / "labeldp_pages.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_listed_experiment_has_a_theory_guide_entry_with_figure_and_verdict(pages, tmp_path):
    totals = pages.write_theory(tmp_path)
    theory = tmp_path / "theory"
    texts = {p.stem: p.read_text(encoding="utf-8") for p in theory.glob("*.rst")}
    records = pages.experiments()
    assert records, "no experiment in the catalogues"
    for _, exp in records:
        seeds = sorted(set(pages._SEED_RE.findall(exp.reproduces))) or ["other"]
        for seed in seeds:  # listed, with a link to its own page, on the page of every paper it cites
            assert f":doc:`{exp.name} <experiments/{exp.name}>`" in texts[seed], (seed, exp.name)
        page = (theory / "experiments" / f"{exp.name}.rst").read_text(encoding="utf-8")
        rec = json.loads((ROOT / "figures" / exp.name / "results.json").read_text(encoding="utf-8"))
        if rec.get("claims"):  # counted by kind, in each kind's words
            from simulations.experiments.board import kind_counts_text

            assert f"**Verdicts:** {kind_counts_text(rec['claims'])}" in page, exp.name
        for fig in rec.get("figures") or []:
            if fig.endswith(".png"):
                assert f"figures/{exp.name}/{fig}" in page, (exp.name, fig)
        notes = (rec.get("notes") or "").split()
        if notes:  # the notes are all there, on the experiment's notes pages
            text = " ".join(p.read_text(encoding="utf-8") for p in sorted((theory / "experiments").glob(
                f"{exp.name}_notes*.md")))
            assert all(w.strip("#") in text for w in notes[:50] + notes[-50:]), exp.name
    assert sum(n for _, n, _ in totals.values()) >= len(records)


def test_no_theory_guide_page_is_too_long(pages, tmp_path):
    pages.write_theory(tmp_path)
    for path in (tmp_path / "theory").rglob("*.*"):
        words = len(path.read_text(encoding="utf-8").split())
        assert words <= 4500, f"{path.name}: {words} words (at most about 4000)"


def test_split_notes_keeps_every_word_and_cuts_long_tables(pages):
    table = "| a | b |\n|---|---|\n" + "\n".join(f"| row {i} | some words here |" for i in range(400))
    notes = "### First\n\nintro words\n\n" + table + "\n\n### Second\n\n" + " ".join(["w"] * 50)
    parts = pages.split_notes(notes, limit=600)
    assert len(parts) >= 4 and all(len(p.split()) <= 600 for p in parts)
    assert parts[0].startswith("## First")  # headings shifted: the highest becomes level 2
    rows = [line for p in parts for line in p.splitlines() if line.startswith("| row ")]
    assert rows == [f"| row {i} | some words here |" for i in range(400)]
    assert all(p.splitlines()[:2] == ["| a | b |", "|---|---|"] for p in parts if "| row " in p)


def test_no_handwritten_docs_page_is_too_long():
    for path in sorted((ROOT / "docs").rglob("*.md")):
        if "generated" in path.parts or "_build" in path.parts:
            continue
        words = len(path.read_text(encoding="utf-8").split())
        assert words <= 4000, f"docs/{path.relative_to(ROOT / 'docs')}: {words} words (at most about 4000)"


def test_every_experiment_has_its_paper_profile_page(pages, tmp_path):
    """Each experiment page links a page with its committed paper-profile claims (counted as the paper REPORT
    counts them), or saying why there are none; a stale paper output is named, never counted."""
    from simulations.experiments.board import kind_counts_text

    pages.write_theory(tmp_path)
    exp_dir = tmp_path / "theory" / "experiments"
    for _, exp in pages.experiments():
        page = (exp_dir / f"{exp.name}_paper.rst").read_text(encoding="utf-8")
        assert f":doc:`{exp.name}_paper`" in (exp_dir / f"{exp.name}.rst").read_text(encoding="utf-8")
        res = ROOT / "figures" / "paper" / exp.name / "results.json"
        status, rec = pages._paper_status(exp.name)
        if not res.is_file():
            assert status == "not run" and "not run" in page, exp.name
        elif rec is not None:
            assert f"**Verdicts:** {kind_counts_text(rec['claims'])}" in page, exp.name
        else:
            assert status.startswith("stale") and "Verdicts" not in page, exp.name
