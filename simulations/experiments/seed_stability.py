"""Do the committed verdicts survive another root seed? Compare output folders claim by claim.

A verdict must not change with ``--seed`` (docs/design.md, "The decision rule"): where the interval of a
claim straddles its margin's edge, another seed moves it between *holds* and *inconclusive* and a reader
who reruns the suite sees another result. This module reads the ``results.json`` of one reference folder
(the committed ``figures/``) and of runs at other seeds (``paper_repro.py --seed S --out DIR``), pairs the
claims of each experiment by position (their texts must agree), and lists every claim whose verdict is
not the same in all of them. :func:`stability_record` is what ``figures/seed_stability.json`` holds,
with each run's configuration fingerprints, so that a test can tell a current record from a stale one.

Command line::

    python -m simulations.experiments.seed_stability figures RUN_0 RUN_1 ... [--json OUT.json]

References
----------
docs/design.md, "The decision rule" and "Experiments and their outputs".
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .board import read_records

__all__ = ["compare_runs", "stability_record", "main"]


def compare_runs(folders) -> dict:
    """Pair each experiment's claims across output folders and find the verdicts that differ.

    Parameters
    ----------
    folders : sequence of path-like
        Output roots; the first is the reference (its experiments are the ones compared). At least two.

    Returns
    -------
    dict
        ``compared`` (number of claims compared in every folder), ``experiments`` (names compared),
        ``changed`` (a list of ``{"experiment", "index", "claim", "kind", "verdicts"}`` with one
        verdict per folder, for each claim whose verdict is not the same everywhere) and ``problems``
        (experiments missing from a run, or whose claim lists differ in length or text: not comparable).

    Raises
    ------
    ValueError
        If fewer than two folders are given, or one is not a folder.

    References
    ----------
    docs/design.md, "The decision rule".

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for run, holds in (("a", [True, None]), ("b", [True, True])):
    ...     (root / run / "x").mkdir(parents=True)
    ...     claims = [{"claim": f"c{i}", "kind": "paper", "holds": h} for i, h in enumerate(holds)]
    ...     rec = {"profile": "quick", "runtime_s": 1, "command": "c", "figures": [], "claims": claims}
    ...     _ = (root / run / "x" / "results.json").write_text(json.dumps(rec))
    >>> out = compare_runs([root / "a", root / "b"])
    >>> out["compared"], [(c["claim"], c["verdicts"]) for c in out["changed"]]
    (2, [('c1', ['inconclusive', 'holds'])])
    """
    return _compare(*_read(folders))


def _read(folders) -> tuple[list[Path], list[dict]]:
    folders = [Path(f) for f in folders]
    if len(folders) < 2:
        raise ValueError(f"folders must name a reference and at least one run, got folders={[str(f) for f in folders]}")
    for f in folders:
        if not f.is_dir():
            raise ValueError(f"folders must be existing output folders, got {str(f)!r}")
    return folders, [read_records(f)[0] for f in folders]


def _compare(folders: list[Path], runs: list[dict]) -> dict:
    ref = runs[0]
    compared, changed, problems, names = 0, [], [], []
    for name in sorted(ref):
        lists = [r.get(name, {}).get("claims") for r in runs]
        missing = [f.name for f, c in zip(folders, lists) if c is None]
        if missing:
            problems.append(f"{name}: no results.json in {missing}")
            continue
        if len({len(c) for c in lists}) != 1:
            problems.append(f"{name}: {[len(c) for c in lists]} claims (not comparable)")
            continue
        names.append(name)
        for i, row in enumerate(zip(*lists)):
            texts = {c.get("claim") for c in row}
            if len(texts) != 1:
                problems.append(f"{name}: claim {i} reads differently across runs")
                continue
            compared += 1
            verdicts = [_verdict(c) for c in row]
            if len(set(verdicts)) > 1:
                changed.append({"experiment": name, "index": i, "claim": row[0].get("claim"),
                                "kind": row[0].get("kind"), "verdicts": verdicts})
    return {"compared": compared, "experiments": names, "changed": changed, "problems": problems}


def _verdict(claim: dict) -> str:
    h = claim.get("holds")
    return "inconclusive" if h is None else ("holds" if h else "fails")


def stability_record(folders) -> dict:
    """:func:`compare_runs` with what each folder was made from: profile, seed and fingerprints.

    Parameters
    ----------
    folders : sequence of path-like
        As for :func:`compare_runs`; the first is the reference.

    Returns
    -------
    dict
        The comparison, plus ``runs``: per folder its profile, its seeds (one per experiment, normally all
        equal) and ``fingerprints`` (experiment -> ``config_fingerprint`` from its results.json).

    References
    ----------
    docs/design.md, "Experiments and their outputs" (configuration fingerprints).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for run, seed in (("a", 1), ("b", 2)):
    ...     (root / run / "x").mkdir(parents=True)
    ...     rec = {"claims": [], "figures": [], "runtime_s": 1, "command": "c", "seed": seed, "profile": "quick"}
    ...     _ = (root / run / "x" / "results.json").write_text(json.dumps(rec))
    >>> [r["seeds"] for r in stability_record([root / "a", root / "b"])["runs"]]
    [[1], [2]]
    """
    folders, records = _read(folders)
    out = _compare(folders, records)
    runs = []
    for f, recs in zip(folders, records):
        runs.append({"folder": Path(f).name, "profiles": sorted({str(r.get("profile")) for r in recs.values()}),
                     "seeds": sorted({r.get("seed") for r in recs.values() if isinstance(r.get("seed"), int)}),
                     "fingerprints": {n: r.get("config_fingerprint") for n, r in sorted(recs.items())}})
    return out | {"runs": runs}


def main(argv=None) -> int:
    """Command line: compare folders, print the changed verdicts, optionally write the JSON record.

    Parameters
    ----------
    argv : list of str, optional
        ``REFERENCE RUN [RUN ...] [--json PATH]``; defaults to ``sys.argv[1:]``.

    Returns
    -------
    int
        0 when every compared verdict agrees and every experiment was comparable, 1 otherwise, 2 on bad
        arguments.

    References
    ----------
    docs/design.md, "The decision rule".

    Examples
    --------
    >>> main(["no/such/folder", "nor/this"])
    error: folders must be existing output folders, got 'no/such/folder'
    2
    """
    p = argparse.ArgumentParser(prog="python -m simulations.experiments.seed_stability",
                                description="Compare the claims' verdicts of output folders made at other seeds.")
    p.add_argument("folders", nargs="+", help="the reference output folder (e.g. figures), then the runs")
    p.add_argument("--json", default=None, help="write the record (with fingerprints) to this file")
    args = p.parse_args(argv)
    try:
        rec = stability_record(args.folders)
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    print(f"{rec['compared']} claims of {len(rec['experiments'])} experiments compared over "
          f"{len(args.folders)} folders; {len(rec['changed'])} verdicts differ")
    for c in rec["changed"]:
        print(f"  {c['experiment']} [{c['kind']}] {c['claim'][:110]}: {' / '.join(c['verdicts'])}")
    for why in rec["problems"]:
        print(f"  not comparable: {why}")
    if args.json:
        from simulations.atomic import atomic_write_text

        atomic_write_text(Path(args.json), json.dumps(rec, indent=1, ensure_ascii=False) + "\n")
    return 0 if not rec["changed"] and not rec["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())
