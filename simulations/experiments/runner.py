"""Run registered experiments and write ``figures/<name>/`` and ``figures/REPORT.md``.

Per experiment: PNG and PDF figures, one CSV per table (data only), and ``results.json`` with the
claims, the profile, the seed and the runtime (DESIGN.md "Experiments and their outputs").
"""

from __future__ import annotations

import csv
import json
import os
import time
import traceback
from dataclasses import replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from .base import REGISTRY, Experiment, ExperimentResult, RunContext

__all__ = ["regenerate_command", "run_all", "run_experiment", "write_csv", "write_report"]


def regenerate_command(name: str, ctx: RunContext) -> str:
    return f"python paper_repro.py --only {name} --profile {ctx.profile} --seed {ctx.seed}"


def _cell(v) -> str:
    if isinstance(v, (float, np.floating)):
        return repr(float(v))  # shortest round-trip text: deterministic and lossless
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def write_csv(path: Path, columns: dict) -> None:
    """Write ``{column: 1-D sequence}`` as CSV; all columns must have the same length."""
    names = list(columns)
    cols = [np.asarray(columns[c]).ravel() for c in names]
    lengths = {len(c) for c in cols}
    if len(lengths) > 1:
        raise ValueError(f"table columns differ in length: { {n: len(c) for n, c in zip(names, cols)} }")
    tmp = path.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(names)
        for row in zip(*cols):
            w.writerow([_cell(v) for v in row])
    os.replace(tmp, path)


def _write_json(path: Path, obj) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(obj, indent=2, allow_nan=False) + "\n")
    os.replace(tmp, path)


def run_experiment(exp: Experiment, ctx: RunContext, out: Path) -> dict:
    """Compute, plot and write one experiment; returns the results.json content.

    A crash is recorded in results.json (``"error"``) and re-raised, so the caller can carry on
    with the other experiments and still exit non-zero.
    """
    folder = Path(out) / exp.name
    folder.mkdir(parents=True, exist_ok=True)
    if ctx.cache_dir is None:
        ctx = replace(ctx, cache_dir=Path(out) / ".cache" / exp.name)
    for old in folder.iterdir():  # drop outputs of a previous run (renamed figures must not linger)
        if old.is_file():
            old.unlink()
    record = {"name": exp.name, "reproduces": exp.reproduces, "profile": ctx.profile, "seed": ctx.seed,
              "command": regenerate_command(exp.name, ctx)}
    t0 = time.perf_counter()
    try:
        result: ExperimentResult = exp.compute(ctx)
        t1 = time.perf_counter()
        figures = exp.plot(result) or {}
        names = []
        for fname, fig in figures.items():
            fig.savefig(folder / f"{fname}.png")
            fig.savefig(folder / f"{fname}.pdf", metadata={"CreationDate": None})
            plt.close(fig)
            names.append(f"{fname}.png")
        for tname, columns in result.tables.items():
            write_csv(folder / f"{tname}.csv", columns)
    except Exception:
        record.update(error=traceback.format_exc(), runtime_s=round(time.perf_counter() - t0, 3),
                      claims=[], figures=[], tables=[], notes="")
        _write_json(folder / "results.json", record)
        raise
    record.update(
        runtime_s=round(time.perf_counter() - t0, 3),
        compute_s=round(t1 - t0, 3),
        figures=names,
        tables=[f"{t}.csv" for t in result.tables],
        claims=[c.to_json() for c in result.claims],
        notes=result.notes,
    )
    _write_json(folder / "results.json", record)
    return record


def _claims_table(claims: list[dict]) -> str:
    if not claims:
        return "_No numeric claims._\n"

    def fmt(x):
        if x is None:
            return "–"
        if isinstance(x, str):
            return x
        return f"{x:.4g}"

    lines = ["| claim | expected | measured | holds | detail |", "|---|---|---|---|---|"]
    for c in claims:
        verdict = "yes" if c["holds"] else "**NO**"
        detail = str(c.get("detail", "")).replace("|", "\\|").replace("\n", " ")
        claim = c["claim"].replace("|", "\\|")
        lines.append(f"| {claim} | {fmt(c['expected'])} | {fmt(c['measured'])} | {verdict} | {detail} |")
    return "\n".join(lines) + "\n"


def write_report(out: Path, registry: dict[str, Experiment] | None = None) -> Path:
    """Stitch every experiment's results.json into ``out/REPORT.md`` (registry order).

    Built from the files on disk, so running one experiment with ``--only`` keeps the others'
    sections; an experiment never run is listed as such.
    """
    registry = REGISTRY if registry is None else registry
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    exps = sorted(registry.values(), key=lambda e: (e.order, e.name))
    records = {}
    for e in exps:
        f = out / e.name / "results.json"
        records[e.name] = json.loads(f.read_text()) if f.exists() else None

    lines = ["# labeldp-suite: reproduction report", "",
             "Generated by `paper_repro.py`. Every number below is measured by the command shown "
             "in its section; a claim that does not hold is reported as such.", "",
             "| experiment | reproduces | claims holding | profile | runtime (s) |", "|---|---|---|---|---|"]
    for e in exps:
        r = records[e.name]
        if r is None:
            lines.append(f"| [{e.name}](#{e.name}) | {e.reproduces} | not run | – | – |")
            continue
        n = len(r["claims"])
        ok = sum(c["holds"] for c in r["claims"])
        status = "CRASHED" if "error" in r else f"{ok}/{n}"
        lines.append(f"| [{e.name}](#{e.name}) | {e.reproduces} | {status} | {r['profile']} | {r['runtime_s']} |")
    lines.append("")
    for e in exps:
        r = records[e.name]
        lines += [f"## {e.name}", "", f"**Reproduces:** {e.reproduces}", ""]
        if r is None:
            lines += ["_Not run yet:_ `python paper_repro.py --only " + e.name + "`", ""]
            continue
        lines += [f"**Command:** `{r['command']}`  ", f"**Profile:** {r['profile']} · **runtime:** {r['runtime_s']} s", ""]
        if "error" in r:
            lines += ["**This experiment crashed:**", "", "```", r["error"].strip(), "```", ""]
            continue
        for fig in r["figures"]:
            lines += [f"![{e.name}: {fig}]({e.name}/{fig})", ""]
        if r.get("notes"):
            lines += [r["notes"].strip(), ""]
        lines += [_claims_table(r["claims"])]
    path = out / "REPORT.md"
    path.write_text("\n".join(lines))
    return path


def run_all(names, ctx: RunContext, out: Path, *, log=print) -> list[str]:
    """Run the named experiments, then rewrite the report; returns the names that crashed."""
    crashed = []
    for name in names:
        exp = REGISTRY[name]
        log(f"[{name}] running ({ctx.profile}) ...")
        try:
            rec = run_experiment(exp, ctx, out)
        except Exception:
            crashed.append(name)
            log(f"[{name}] CRASHED:\n{traceback.format_exc()}")
            continue
        ok = sum(c["holds"] for c in rec["claims"])
        log(f"[{name}] done in {rec['runtime_s']:.1f} s; claims holding {ok}/{len(rec['claims'])}")
    write_report(out)
    return crashed


