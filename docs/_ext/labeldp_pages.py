"""Sphinx extension: write the generated pages of the site at every build (``builder-inited``).

Pages written under ``docs/generated/`` (git-ignored, rewritten at every build, so they cannot drift
from the code or the committed results):

* ``theory/<seed>.rst``, one per seed paper (000-004): a table of every experiment of the two catalogues
  (:mod:`simulations.experiments.catalogue`, :mod:`proofs_checks.experiments.catalogue`) whose
  ``reproduces`` text cites that seed, with its verdict counts; ``theory/other.rst`` for experiments citing
  no seed;
* ``theory/experiments/<name>.rst``, one per experiment: what it reproduces, its committed figures
  (``figures/<name>/*.png``), its claims and their verdicts read from the committed
  ``figures/<name>/results.json``, and the tests that read its smoke run; its ``notes`` (the results
  commentary the experiment writes) on ``<name>_notes*.md`` pages, cut so that no page exceeds
  :data:`PAGE_WORDS` words;
  its committed paper-profile run (``figures/paper/<name>/results.json``: claims and verdicts, or why there is
  none) on ``<name>_paper.rst``;
* ``verdict_board.md``: the per-paper verdict board (:func:`write_board`);
* ``findings.rst``: the committed ``figures/proof_checks/findings.csv`` (the table that the
  ``proof_checks`` experiment writes from :func:`proofs_checks.findings`) and
  :func:`limits.discrepancies`;
* ``api.rst``: the root of the autosummary tree over ``limits``, ``simulations`` and ``proofs_checks``.

No experiment is run: the build reads committed files only.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from simulations.experiments.base import KINDS, reading_of
from simulations.experiments.board import kind_counts_text, kind_tally

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
OUT = DOCS / "generated"
PAPER_OUT = ROOT / "figures" / "paper"
#: the paper-profile records and their stale/unreadable reasons, read once per build (:func:`_paper_status`)
_PAPER = None
PACKAGES = ("limits", "simulations", "proofs_checks")

#: Seed file -> (short title, role); the titles of the seed papers.
SEEDS = {
    "000": ("Enhancing Learning with Label Differential Privacy by Vector Approximation (review version)",
            "the K-bit vector mechanism, its Theorems 1-2 and the synthetic and CNN experiments"),
    "001": ("Differentially-Private Bayes Consistency",
            "the stability histogram, PCL / PCDE / PCL2 learners and the semi-supervised application"),
    "002": ("Enhancing Learning with Label Differential Privacy by Vector Approximation (published version)",
            "the same paper as 000 with other equation numbers and Table 1(b) at epsilon = 2"),
    "003": ("On Theoretical Limits of Learning with Label Differential Privacy",
            "Table 1 (minimax rates), the upper-bound algorithms and the lower-bound constructions"),
    "004": ("Deep Learning with Label Differential Privacy",
            "randomized response, RRTop-k, RRWithPrior and its LP optimality, LP-MST, LP-RR-SGD"),
}
_SEED_RE = re.compile(r"(?<![\d.])(00[0-4])(?![\d])")


#: The theory guide's count columns: one per kind, each "holds / fails / inconclusive" in the kind's words.
_TALLY_HEADS = ["paper: reproduced / not / inconclusive", "errata: confirmed / not / inconclusive",
                "beyond: yes / no / inconclusive"]


def _tally_cells(claims) -> list[str]:
    t = kind_tally(claims)
    return [" / ".join(map(str, t[k])) for k in KINDS]


def _verdict(holds) -> str:
    return {True: "holds", False: "fails", None: "inconclusive"}[holds]


def _esc(text) -> str:
    """Text safe inside an RST paragraph or table cell (no markup is interpreted)."""
    s = "" if text is None else str(text)
    s = s.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`").replace("|", "\\|").replace("_", "\\_")
    return " ".join(s.split())


def _num(x) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return f"{x:.6g}"
    return _esc(x)


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * max(len(text), 3)}\n\n"


def _csv_table(header, rows, widths=None) -> str:
    """An RST ``list-table`` (robust to any cell text)."""
    out = [".. list-table::", "   :header-rows: 1", "   :class: labeldp-table", ""]
    if widths:
        out.insert(2, "   :widths: " + " ".join(str(w) for w in widths))
    for row in [header, *rows]:
        cells = [c.text if isinstance(c, _Raw) else _esc(c) for c in row]
        cells = [c if c else "\\-" for c in cells]
        out.append("   * - " + cells[0])
        out.extend("     - " + c for c in cells[1:])
    return "\n".join(out) + "\n\n"


class _Raw:
    """A table cell written as given (already RST)."""

    def __init__(self, text):
        self.text = text


def experiments():
    """The records of both catalogues, as (layer, Experiment), in report order."""
    from proofs_checks.experiments.catalogue import EXPERIMENTS as P
    from simulations.experiments.catalogue import EXPERIMENTS as S

    recs = [("simulations", e) for e in S] + [("proofs_checks", e) for e in P]
    return sorted(recs, key=lambda r: (r[1].order, r[1].name))


def _tests_reading(names) -> dict:
    """Experiment name -> test files (relative paths) that mention it as a quoted string."""
    found = {n: [] for n in names}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for n in names:
            if f'"{n}"' in text or f"'{n}'" in text:
                found[n].append(path.relative_to(ROOT).as_posix())
    return found


#: pages of the theory guide stay below this many words (issue 40: no page over about 4000)
PAGE_WORDS = 3500


def _experiment_page(layer, exp, tests, seeds) -> tuple[str, dict]:
    """RST of one experiment's page (``theory/experiments/<name>.rst``), and its verdict counts."""
    folder = ROOT / "figures" / exp.name
    out = [f".. _exp-{exp.name}:\n\n", _title(exp.name)]
    out.append(f"**Reproduces:** {_esc(exp.reproduces)}\n\n")
    if seeds:
        out.append("**Papers:** " + ", ".join(f":doc:`{s} <../{s}>`" for s in seeds) + "\n\n")
    ref = exp.compute_ref if isinstance(exp.compute_ref, str) else \
        f"{exp.compute_ref.__module__}:{exp.compute_ref.__qualname__}"
    out.append(f"**Experiment:** ``{ref}`` (layer ``{layer}``); run it with "
               f"``python paper_repro.py --only {exp.name}``.\n\n")
    if tests:
        out.append("**Tests:** " + ", ".join(f"``{t}``" for t in tests) + "\n\n")
    counts = []  # the claims, counted by kind by the caller
    res_path = folder / "results.json"
    if not res_path.is_file():
        out.append(".. note::\n\n   No committed results (``figures/%s/results.json`` is absent): the experiment has "
                   "not been run with its outputs committed.\n\n" % exp.name)
        return "".join(out), counts
    rec = json.loads(res_path.read_text(encoding="utf-8"))
    meta = [f"profile ``{rec.get('profile', '?')}``", f"seed {rec.get('seed', '?')}"]
    if rec.get("skipped"):
        meta.append("skipped: " + _esc(rec.get("skipped")))
    out.append("**Committed run:** " + ", ".join(meta) + "\n\n")
    claims = counts = rec.get("claims") or []
    out.append(_claims_block(claims))
    for fig in rec.get("figures") or sorted(p.name for p in folder.glob("*.png")):
        if (folder / fig).is_file() and fig.endswith(".png"):
            rel = Path("../../../../figures") / exp.name / fig
            out.append(f".. figure:: {rel.as_posix()}\n   :width: 90%\n\n   ``figures/{exp.name}/{fig}``\n\n")
    return "".join(out), counts


def _claims_block(claims) -> str:
    """The verdict line and the claims table of one results.json (RST)."""
    rows = []
    for c in claims:
        v = _verdict(c.get("holds"))
        kind = c.get("kind") if c.get("kind") in KINDS else "no kind"
        words = reading_of(kind, c.get("holds")) if kind in KINDS else v
        rows.append([kind, _Raw(f":labeldp-{v}:`{words}`"), c.get("claim"), _num(c.get("expected")),
                     _num(c.get("measured")), c.get("detail", "")])
    if not rows:
        return "No claims recorded.\n\n"
    return (f"**Verdicts:** {kind_counts_text(claims)} (of {len(rows)} claims; a *paper* claim is the paper's "
            "statement, an *erratum* an error in its text, a *beyond* question one the suite adds)\n\n"
            + _csv_table(["kind", "verdict", "claim", "expected", "measured", "detail"], rows,
                         widths=[6, 8, 38, 8, 8, 32]))


def _paper_status(name: str) -> tuple[str, dict | None]:
    """The paper-profile output of one experiment: ("current", record), ("stale: why", None) or ("not run", None).

    Read from the committed ``figures/paper/<name>/results.json``; stale outputs (made by another
    configuration or without claim kinds: :func:`simulations.experiments.fingerprint.stale_outputs`) are
    named, never counted.
    """
    global _PAPER
    if _PAPER is None:
        import proofs_checks.experiments  # noqa: F401 (registers the second catalogue in the shared REGISTRY)
        from simulations.experiments import REGISTRY, board
        from simulations.experiments.fingerprint import stale_outputs

        records, problems = board.read_records(PAPER_OUT)
        _PAPER = (records, {**problems, **stale_outputs(PAPER_OUT, REGISTRY)})
    records, bad = _PAPER
    if name in bad:
        return f"stale: {bad[name]}", None
    if name not in records:
        return "not run", None
    return "current", records[name]


def _paper_page(name: str, theory: Path) -> str:
    """Write ``experiments/<name>_paper.rst`` (the committed paper-profile run's claims, or why there is none, on
    a page of its own so that no page doubles) and return the experiment page's paragraph that links to it."""
    status, rec = _paper_status(name)
    out = [_title(f"{name} at the paper profile")]
    if rec is None:
        out.append(f"``figures/paper/{name}/``: {_esc(status)}.\n\n")
    else:
        out.append(f"**Committed run:** ``figures/paper/{name}/results.json``, seed {rec.get('seed', '?')}\n\n")
        out.append(_claims_block(rec.get("claims") or []))
    (theory / "experiments" / f"{name}_paper.rst").write_text("".join(out), encoding="utf-8")
    summary = _esc(status) if rec is None else kind_counts_text(rec.get("claims") or [])
    return (f"**At the paper profile:** {summary} (:doc:`{name}_paper`)\n\n"
            f".. toctree::\n   :hidden:\n\n   {name}_paper\n\n")


def _paper_cell(name: str) -> str:
    """A per-paper table cell: the paper-profile tallies (paper · errata · beyond, as the quick columns), or why
    there are none."""
    status, rec = _paper_status(name)
    if rec is None:
        return "stale" if status.startswith("stale") else status
    return " · ".join(_tally_cells(rec.get("claims") or []))


def _words(text: str) -> int:
    return len(text.split())


def _split_table(block: str, limit: int) -> list[str]:
    """A Markdown table cut into tables of at most ``limit`` words, each with the header rows repeated."""
    lines = block.split("\n")
    head, rows = lines[:2], lines[2:]
    parts, cur = [], []
    for row in rows:
        if cur and _words("\n".join(head + cur + [row])) > limit:
            parts.append("\n".join(head + cur))
            cur = []
        cur.append(row)
    parts.append("\n".join(head + cur))
    return parts


def split_notes(notes: str, limit: int = PAGE_WORDS) -> list[str]:
    """The Markdown ``notes`` of a ``results.json`` cut into parts of at most about ``limit`` words.

    Cuts fall between paragraphs (a heading starts a new part when the current one is not empty); a table
    longer than ``limit`` is cut between rows, its header repeated. Headings are shifted so that the
    highest one is a level-2 heading (each part becomes a page with its own title).
    """
    levels = [len(m) for m in re.findall(r"^(#+) ", notes, re.M)]
    shift = (min(levels) - 2) if levels else 0
    if shift:
        notes = re.sub(r"^(#+) ", lambda m: "#" * max(2, len(m.group(1)) - shift) + " ", notes, flags=re.M)
    blocks = []
    for block in re.split(r"\n\s*\n", notes.strip()):
        if block.lstrip().startswith("|") and _words(block) > limit:
            blocks.extend(_split_table(block, limit))
        else:
            blocks.append(block)
    parts, cur = [], []
    for block in blocks:
        heading = block.startswith("#")
        if cur and (_words("\n\n".join(cur + [block])) > limit or (heading and _words("\n\n".join(cur)) > limit / 2)):
            parts.append("\n\n".join(cur))
            cur = []
        cur.append(block)
    if cur:
        parts.append("\n\n".join(cur))
    return parts


def _notes_pages(exp, theory: Path) -> list[str]:
    """Write the committed run's notes as Markdown pages beside the experiment's page; their names."""
    res_path = ROOT / "figures" / exp.name / "results.json"
    if not res_path.is_file():
        return []
    notes = (json.loads(res_path.read_text(encoding="utf-8")).get("notes") or "").strip()
    if not notes:
        return []
    parts = split_notes(notes)
    names = []
    for k, part in enumerate(parts, 1):
        name = f"{exp.name}_notes" + (f"_{k}" if len(parts) > 1 else "")
        title = f"{exp.name}: notes of the committed run" + (f" ({k} of {len(parts)})" if len(parts) > 1 else "")
        (theory / "experiments" / f"{name}.md").write_text(
            f"# {title}\n\nThe ``notes`` of ``figures/{exp.name}/results.json``, as the experiment wrote them.\n\n"
            + part + "\n", encoding="utf-8")
        names.append(name)
    return names


def write_theory(out_dir: Path) -> dict:
    """Write the theory guide: an index, one page per seed paper, one page per experiment (+ its notes)."""
    recs = experiments()
    tests = _tests_reading([e.name for _, e in recs])
    by_seed = {s: [] for s in SEEDS}
    other = []
    theory = out_dir / "theory"
    (theory / "experiments").mkdir(parents=True, exist_ok=True)
    for old in (theory / "experiments").iterdir():
        old.unlink()
    counts_of = {}
    for layer, e in recs:
        seeds = sorted(set(_SEED_RE.findall(e.reproduces)))
        for s in seeds:
            by_seed[s].append((layer, e))
        if not seeds:
            other.append((layer, e))
        text, counts_of[e.name] = _experiment_page(layer, e, tests[e.name], seeds)
        text += _paper_page(e.name, theory)
        notes = _notes_pages(e, theory)
        if notes:
            text += ("**Notes of the committed run:** " + ", ".join(f":doc:`{n}`" for n in notes) + "\n\n"
                     ".. toctree::\n   :hidden:\n\n" + "".join(f"   {n}\n" for n in notes) + "\n")
        (theory / "experiments" / f"{e.name}.rst").write_text(text, encoding="utf-8")
    totals = {}
    index_rows = []
    pages = [(s, f"{s}: {SEEDS[s][0]}", SEEDS[s][1], by_seed[s]) for s in SEEDS]
    if other:
        pages.append(("other", "Experiments citing no seed paper", "", other))
    for key, title, role, items in pages:
        body = [_title(title)]
        if role:
            body.append(f"What the suite takes from seed ``{key}``: {role}.\n\n")
        body.append(f"{len(items)} experiment(s) cite this paper in their catalogue record; each has its own page with "
                    "its claims, verdicts and figures. Written at build time from the experiment catalogues and the "
                    "committed ``figures/<name>/results.json``. Claims are counted by kind: *paper* claims "
                    "reproduced / not reproduced / inconclusive, *errata* confirmed / not confirmed / inconclusive, "
                    "*beyond* questions answered yes / no / inconclusive (one interval decides each). The count columns are the committed quick-profile run; the committed "
                    "paper-profile run's counts follow each experiment's description in the same order (paper · errata "
                    "· beyond), or say why there are none.\n\n")
        page_claims = []
        rows = []
        for layer, e in items:
            c = counts_of[e.name]
            page_claims += c
            rows.append([_Raw(f":doc:`{e.name} <experiments/{e.name}>`"),
                         _Raw(f"{_esc(e.reproduces)} *(paper profile: {_esc(_paper_cell(e.name))})*"),
                         *_tally_cells(c)])
        if rows:
            body.append(_csv_table(["experiment", "reproduces (and the paper-profile run's counts)", *_TALLY_HEADS],
                                   rows, widths=[18, 49, 11, 11, 11]))
        (theory / f"{key}.rst").write_text("".join(body), encoding="utf-8")
        totals[key] = (title, len(items), kind_tally(page_claims))
        index_rows.append([_Raw(f":doc:`{key}`"), str(len(items)), *_tally_cells(page_claims)])
    idx = [_title("Theory guide"),
           "One page per seed paper, listing each experiment that checks one of its claims, and one page per "
           "experiment with its committed figures, claims and verdicts. Generated at build time from the "
           "experiment catalogues and the committed results; an experiment citing several papers is listed on "
           "each of their pages.\n\n",
           ".. toctree::\n   :maxdepth: 1\n\n" + "".join(f"   {p[0]}\n" for p in pages) + "\n",
           ".. toctree::\n   :hidden:\n\n" + "".join(f"   experiments/{e.name}\n" for _, e in recs) + "\n"]
    table = [".. list-table::", "   :header-rows: 1", "", "   * - page", "     - experiments",
             *(f"     - {h}" for h in _TALLY_HEADS)]
    for r in index_rows:
        table.append(f"   * - {r[0].text}")
        table.extend(f"     - {c}" for c in r[1:])
    idx.append("\n".join(table) + "\n")
    (theory / "index.rst").write_text("".join(idx), encoding="utf-8")
    return totals


def write_board(out_dir: Path) -> bool:
    """Write ``verdict_board.md``: the per-paper verdict board of ``figures/REPORT.md``, from the committed results.

    Made by :func:`simulations.experiments.board.verdict_board_markdown` from the readable
    ``figures/<name>/results.json``, less the stale ones (:func:`simulations.experiments.fingerprint.stale_outputs`),
    which are named under the board; every non-zero cell links to its claims, each claim to its experiment's page.
    Returns True.
    """
    from simulations.experiments import REGISTRY, board
    from simulations.experiments.fingerprint import stale_outputs

    records, problems = board.read_records(ROOT / "figures")
    stale = stale_outputs(ROOT / "figures", REGISTRY)
    current = {k: v for k, v in records.items() if k not in stale and "error" not in v}
    body = ["# Verdict board\n\n",
            "Every claim of the committed quick-profile results, per paper and kind, as `figures/REPORT.md` opens "
            "with it (written at build time from `figures/<name>/results.json`). A number is the count of claims; "
            "it links to the list of those claims, and each claim to its experiment's page.\n\n",
            board.verdict_board_markdown(current, link=lambda name: f"theory/experiments/{name}.rst",
                                         details=True, target=lambda a: f"({a})=").strip() + "\n"]
    left_out = {**{k: v for k, v in stale.items() if k in records}, **problems}
    if left_out:
        body.append("\n**Not counted (stale or unreadable outputs):** "
                    + "; ".join(f"`{k}`: {v}" for k, v in sorted(left_out.items())) + "\n")
    (out_dir / "verdict_board.md").write_text("".join(body), encoding="utf-8")
    return True


def write_seed_stability(out_dir: Path) -> int:
    """Write ``seed_stability.md`` from ``figures/seed_stability.json``; returns the number of claims compared.

    The record is made by :mod:`simulations.experiments.seed_stability` from the committed quick run and runs at
    other root seeds; this page lists every claim whose verdict differs between them.
    """
    path = ROOT / "figures" / "seed_stability.json"
    body = ["# Verdicts at other seeds\n\n"]
    if not path.is_file():
        body.append("No seed-stability record is committed (`figures/seed_stability.json`).\n")
        (out_dir / "seed_stability.md").write_text("".join(body), encoding="utf-8")
        return 0
    rec = json.loads(path.read_text(encoding="utf-8"))
    runs = rec.get("runs", [])
    seeds = [", ".join(map(str, r.get("seeds", []))) for r in runs]
    flips = [c for c in rec["changed"] if {"holds", "fails"} <= set(c["verdicts"])]
    body.append(f"Each claim of the committed quick run (`figures/`, seed {seeds[0] if seeds else '?'}) against the "
                f"same claim at root seeds {'; '.join(seeds[1:])}: **{rec['compared']} claims** of "
                f"{len(rec['experiments'])} experiments compared, **{len(rec['changed'])}** whose verdict is not the "
                f"same at every seed, **{len(flips)}** of them between *holds* and *fails*. A verdict would move "
                "between *holds* (or *fails*) and *inconclusive* where an interval's end lies near its margin's edge; "
                "one interval decides every verdict, so a claim never holds at one seed and fails at another unless "
                "listed with both. The test suite requires that no verdict moves (`tests/test_seed_stability.py`): "
                "a claim whose interval met its bound at some seed got trials sized from the spread over the seeds, "
                "or an interval covering all its randomness (issue 35). Made by "
                "`python -m simulations.experiments.seed_stability figures RUN...` (see the design page).\n\n")
    if rec["changed"]:
        body.append("| experiment | kind | claim | verdicts (committed run first) |\n|---|---|---|---|\n")
        for c in rec["changed"]:
            text = str(c["claim"]).replace("|", "\\|")
            body.append(f"| {c['experiment']} | {c.get('kind') or '–'} | {text} | {' / '.join(c['verdicts'])} |\n")
    if rec.get("problems"):
        body.append("\n**Not compared:** " + "; ".join(rec["problems"]) + "\n")
    (out_dir / "seed_stability.md").write_text("".join(body), encoding="utf-8")
    return rec["compared"]


def write_findings(out_dir: Path) -> int:
    import limits

    body = [_title("Findings: where the papers are wrong"),
            "Written at build time from two sources, so it cannot disagree with the code: the committed "
            "``figures/proof_checks/findings.csv`` (the output of :func:`proofs_checks.findings` as the "
            "``proof_checks`` experiment wrote it; run ``python paper_repro.py --only proof_checks`` to refresh "
            "it) and :func:`limits.discrepancies` (evaluated now).\n\n"]
    path = ROOT / "figures" / "proof_checks" / "findings.csv"
    n = 0
    if path.is_file():
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        n = len(rows)
        body.append(_title(f"Proof-step findings ({n}, most severe first)", "-"))
        body.append(_csv_table(["severity", "source", "printed", "derived", "evidence"],
                               [[r.get("severity", ""), r.get("source", ""), r.get("printed", ""),
                                 r.get("derived", ""), r.get("evidence", "")] for r in rows],
                               widths=[8, 16, 20, 20, 36]))
    else:
        body.append(".. note::\n\n   ``figures/proof_checks/findings.csv`` is not committed.\n\n")
    recs = list(limits.discrepancies())
    body.append(_title(f"limits.discrepancies() ({len(recs)})", "-"))
    body.append(_csv_table(["key", "source", "printed", "derived", "evidence"],
                           [[r.get("key", ""), r.get("source", ""), r.get("printed_text", r.get("printed", "")),
                             r.get("derived_text", r.get("derived", "")), r.get("evidence", "")] for r in recs],
                           widths=[12, 16, 20, 20, 32]))
    (out_dir / "findings.rst").write_text("".join(body), encoding="utf-8")
    return n + len(recs)


def public_modules(package: str) -> list[str]:
    """``package`` and every submodule whose dotted name has no part starting with ``_``, sorted."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(package)
    names = [package]
    for m in pkgutil.walk_packages(pkg.__path__, package + "."):
        if not any(part.startswith("_") for part in m.name.split(".")):
            names.append(m.name)
    return sorted(names)


def _public_names(mod) -> list[str]:
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n, v in vars(mod).items() if not n.startswith("_") and getattr(v, "__module__", None) ==
                 mod.__name__ and (callable(v) or isinstance(v, type))]
    return list(names)


def _module_page(modname: str, walked: set) -> str:
    """RST of one module page: docstring, summary table, the names defined here, links to re-exports.

    A name of ``__all__`` defined in another public module is documented on that module's page and
    linked from here (one description per object: no duplicates, no ambiguous targets).
    """
    import importlib
    import inspect

    mod = importlib.import_module(modname)
    out = [_title(f"``{modname}``"), f".. automodule:: {modname}\n   :no-members:\n\n",
           f".. currentmodule:: {modname}\n\n"]
    here, elsewhere, data, submods = [], [], [], []
    for name in _public_names(mod):
        obj = getattr(mod, name, None)
        if inspect.ismodule(obj):
            if obj.__name__ in walked:
                submods.append(obj.__name__)
            continue
        home = getattr(obj, "__module__", None) if (inspect.isclass(obj) or inspect.isroutine(obj)) else None
        if home and home != modname and home in walked:
            kind = "class" if inspect.isclass(obj) else "func"
            elsewhere.append(f":py:{kind}:`{name} <{home}.{getattr(obj, '__qualname__', name)}>` "
                             f"(:py:mod:`{home}`)")
        elif inspect.isclass(obj) or inspect.isroutine(obj) or callable(obj):
            here.append((name, obj))
        else:
            data.append(name)
    if here:  # a plain list: an autosummary table here would import and parse every docstring twice
        out.append(".. rubric:: Defined here\n\n" + "".join(
            f"* :py:{'class' if inspect.isclass(o) else 'func'}:`{n}`\n" for n, o in here) + "\n")
    if elsewhere:
        out.append(".. rubric:: Re-exported here, documented where defined\n\n"
                   + "".join(f"* {e}\n" for e in elsewhere) + "\n")
    if submods:
        out.append(".. rubric:: Submodules in ``__all__``\n\n" + "".join(f"* :py:mod:`{m}`\n" for m in submods)
                   + "\n")
    for name, obj in here:
        if inspect.isclass(obj):
            directive = "autoexception" if issubclass(obj, BaseException) else "autoclass"
            out.append(f".. {directive}:: {name}\n   :members:\n\n")
        else:
            out.append(f".. autofunction:: {name}\n\n")
    for name in data:
        out.append(f".. autodata:: {name}\n   :no-value:\n\n")
    return "".join(out)


def write_api(out_dir: Path) -> int:
    body = [_title("API reference"),
            "Generated at build time from the docstrings: one page per public module (every module whose "
            "dotted name has no part starting with an underscore, found by walking the packages), each "
            "documenting the names in the module's ``__all__`` (or, without ``__all__``, the public functions "
            "and classes it defines); a name re-exported from another public module links to the page where "
            "it is defined.\n\n"]
    api = out_dir / "api"
    api.mkdir(parents=True, exist_ok=True)
    all_mods = {p: public_modules(p) for p in PACKAGES}
    walked = {m for ms in all_mods.values() for m in ms}
    for p, mods in all_mods.items():
        body.append(_title(f"{p} ({len(mods)} modules)", "-"))
        body.append(".. autosummary::\n\n" + "".join(f"   {m}\n" for m in mods) + "\n")
        body.append(".. toctree::\n   :hidden:\n\n" + "".join(f"   api/{m}\n" for m in mods) + "\n")
        for m in mods:
            (api / f"{m}.rst").write_text(_module_page(m, walked), encoding="utf-8")
    (out_dir / "api.rst").write_text("".join(body), encoding="utf-8")
    return len(walked)


def _role(verdict):
    from docutils import nodes

    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        return [nodes.inline(rawtext, text, classes=[f"labeldp-{verdict}"])], []

    return role


#: scikit-learn's metadata-routing methods, generated on every estimator (``set_fit_request``, ...): their
#: docstrings are scikit-learn's, cross-reference its own glossary, and document nothing of the suite
_SKLEARN_GENERATED = re.compile(r"^(set_\w+_request|get_metadata_routing)$")


def _skip_member(app, what, name, obj, skip, options):
    """Leave scikit-learn's generated metadata-routing methods out of the API pages."""
    if _SKLEARN_GENERATED.match(name):
        return True
    return None


def _generate(app):
    from sphinx.ext.autodoc.mock import mock

    OUT.mkdir(exist_ok=True)
    with mock(app.config.autodoc_mock_imports):  # the same optional packages autodoc mocks
        write_theory(OUT)
        write_board(OUT)
        write_seed_stability(OUT)
        write_findings(OUT)
        write_api(OUT)


def setup(app):
    for v in ("holds", "fails", "inconclusive"):
        app.add_role(f"labeldp-{v}", _role(v))
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("config-inited", lambda app, cfg: _generate(app), priority=100)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
