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
    texts = {p.stem: p.read_text(encoding="utf-8") for p in (tmp_path / "theory").glob("*.rst")}
    records = pages.experiments()
    assert records, "no experiment in the catalogues"
    for _, exp in records:
        seeds = sorted(set(pages._SEED_RE.findall(exp.reproduces))) or ["other"]
        rec = json.loads((ROOT / "figures" / exp.name / "results.json").read_text(encoding="utf-8"))
        holds = sum(c.get("holds") is True for c in rec.get("claims") or [])
        for seed in seeds:
            text = texts[seed]
            start = text.index(f".. _exp-{exp.name}-{seed}:")
            section = text[start:text.find(".. _exp-", start + 1) if ".. _exp-" in text[start + 1:] else None]
            if rec.get("claims"):
                assert "**Verdicts:**" in section and (holds == 0 or f"holds {holds}" in section), exp.name
            for fig in rec.get("figures") or []:
                if fig.endswith(".png"):
                    assert f"figures/{exp.name}/{fig}" in section, (exp.name, fig)
    assert sum(n for _, n, _ in totals.values()) >= len(records)
