"""The project cites only files it has (issue 40 item 3).

* No tracked file refers to a design file outside the repository or to a folder beside it: the design page
  is ``docs/design.md``, shipped with the code.
* Every citation of ``docs/design.md`` that names a section (``docs/design.md, "Off limits"``), a row of its
  style contract (``style contract "randomness"``) or quotes it (``docs/design.md: "..."``) points at text
  the page has, so a renamed section cannot leave dangling citations behind.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
#: spelled in pieces so that this file does not match itself
FORBIDDEN = ("DESIGN" + ".md", "../" + "shared", "/work/" + "shared")
SKIP_SUFFIXES = (".png", ".pdf", ".npz", ".npy", ".gz", ".pkl", ".whl", ".ico", ".woff", ".woff2")


def _tracked_files() -> list[Path]:
    """The repository's files: git's list where this is a checkout, else every file outside hidden folders."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        out = None
    if out is not None and out.returncode == 0 and out.stdout:
        return [ROOT / p for p in out.stdout.split("\0") if p]
    return [p for p in ROOT.rglob("*") if p.is_file() and not any(part.startswith(".") or part == "_build"
                                                                   for part in p.relative_to(ROOT).parts)]


def _texts():
    for path in _tracked_files():
        if path.suffix in SKIP_SUFFIXES or not path.is_file():
            continue
        try:
            yield path, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def test_no_file_refers_outside_the_repository():
    hits = [f"{p.relative_to(ROOT)}:{text.count(f)} x {f!r}" for p, text in _texts() for f in FORBIDDEN if f in text]
    assert not hits, "files citing something the repository does not have:\n" + "\n".join(hits)


def _design():
    text = DESIGN.read_text(encoding="utf-8")
    headings = {m.group(1).strip() for m in re.finditer(r"^#{2,3} (.+)$", text, re.M)}
    style = text[text.index("## Style contract"):]
    style = style[:style.index("\n## ", 1)]
    rows = {m.group(1).strip() for m in re.finditer(r"^\| ([^|]+) \|", style, re.M)}
    return " ".join(text.split()), headings, rows


def test_design_page_has_the_sections_the_issue_asks_for():
    _, headings, _ = _design()
    for must in ("Layers", "The catalogues", "Randomness, reproducibility, parallelism", "The runner and its staging",
                 "Experiments and their outputs", "The decision rule", "Claim kinds", "Untrusted input"):
        assert must in headings, must
    flat, _, _ = _design()
    for kind, verdicts in (("paper", "reproduced / not reproduced / inconclusive"),
                           ("erratum", "confirmed / not confirmed"), ("beyond", "yes / no / inconclusive")):
        assert f"| `{kind}` |" in flat and verdicts in flat, kind


CITATION = re.compile(r'docs/design\.md(?P<sep>,? ?(?:style contract )?|: )"(?P<what>[^"]+)"')


def _citations():
    for path, text in _texts():
        if path == DESIGN:
            continue
        flat = " ".join(text.replace('"""', "   ").split())
        for m in CITATION.finditer(flat):
            yield path.relative_to(ROOT).as_posix(), m.group("sep"), m.group("what")


def test_there_are_citations_to_check():
    # the check below must not pass vacuously (e.g. after a change to the citation style)
    assert sum(1 for _ in _citations()) >= 50


@pytest.mark.parametrize("where,sep,what", sorted(set(_citations())))
def test_design_citation_resolves(where, sep, what):
    flat, headings, rows = _design()
    if sep.startswith(":"):
        assert what in flat, f"{where} quotes docs/design.md, which does not say {what!r}"
    elif "style contract" in sep:
        assert what in rows, f"{where} cites style contract row {what!r}; rows: {sorted(rows)}"
    else:
        assert what in headings, f"{where} cites section {what!r}; sections: {sorted(headings)}"
