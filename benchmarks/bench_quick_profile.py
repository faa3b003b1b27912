#!/usr/bin/env python
"""Time the whole quick profile: one row per experiment with wall and CPU seconds and share of the total.

    python benchmarks/bench_quick_profile.py [--profile quick] [--jobs N] [--only a,b] [--out DIR] [--no-overlap]

Runs ``paper_repro.py``'s experiments into a fresh temporary folder (so no cached trial is reused
and the committed ``figures/`` stay as they are), then reads each experiment's ``results.json``
(wall seconds of computing, ``compute_s``, and of the whole experiment, ``runtime_s``; CPU seconds
of computing, ``compute_cpu_s``, main process plus its workers, and of the whole experiment,
provenance ``cpu_s``) and prints the table sorted by wall time: per experiment its wall seconds split
into computing and plotting + writing (drawn by the runner's background thread while the next
experiment computes, unless ``--no-overlap``), the same split of its CPU seconds, and its shares of
the total wall and CPU seconds; then the whole command's wall time, the utilization of the cores
(CPU seconds / (cores x wall)) and the load average before and after: timings on a busy machine
are not comparable with idle ones. Numbers are from one run; nothing asserts them.

With the overlap the experiments' wall times add up to more than the command's: each one's
plotting runs beside the next one's computing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paper_repro  # noqa: E402
from simulations.experiments import runner  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--profile", default="quick", choices=("smoke", "quick", "paper"))
    p.add_argument("--jobs", type=int, default=None, help="default: paper_repro.py's default (the cores)")
    p.add_argument("--only", default=None, help="comma-separated experiment names (default: all)")
    p.add_argument("--out", default=None, help="output folder (default: a new temporary folder)")
    p.add_argument("--no-overlap", action="store_true",
                   help="plot and write each experiment before the next one computes (the serial runner)")
    args = p.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bench_quick_profile-"))
    run = ["--profile", args.profile, "--out", str(out), "--no-progress"]
    run += ["--jobs", str(args.jobs)] if args.jobs else []
    run += ["--only", args.only] if args.only else []
    if args.no_overlap:  # paper_repro.main looks run_all up in the runner module at each call
        runner.run_all = partial(runner.run_all, overlap=False)
    load0 = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    code = paper_repro.main(run)
    wall = time.perf_counter() - t0
    load1 = os.getloadavg()
    rows = []
    for f in sorted(out.glob("*/results.json")):
        r = json.loads(f.read_text())
        prov = r.get("provenance") or {}
        hold, inconclusive, fail = runner.claim_counts(r["claims"])
        nan = float("nan")
        rows.append((r["name"], prov.get("wall_s", r["runtime_s"]), r.get("compute_s", nan), prov.get("cpu_s", nan),
                     r.get("compute_cpu_s", nan), f"{hold}/{inconclusive}/{fail}"))
    rows.sort(key=lambda row: -row[1])
    total, total_cpu = sum(row[1] for row in rows), sum(row[3] for row in rows)
    print(f"\n{'experiment':32s} {'wall s':>7s} {'compute':>7s} {'plot+io':>7s} {'CPU s':>7s} {'compute':>7s} "
          f"{'plot+io':>7s} {'wall %':>6s} {'CPU %':>6s}  claims hold/inconclusive/fail")
    for name, w, comp, c, ccomp, claims in rows:
        print(f"{name:32s} {w:7.1f} {comp:7.1f} {w - comp:7.1f} {c:7.1f} {ccomp:7.1f} {c - ccomp:7.1f} "
              f"{100 * w / total:6.1f} {100 * c / total_cpu:6.1f}  {claims}")
    compute, compute_cpu = sum(row[2] for row in rows), sum(row[4] for row in rows)
    print(f"{'sum of experiments':32s} {total:7.1f} {compute:7.1f} {total - compute:7.1f} {total_cpu:7.1f} "
          f"{compute_cpu:7.1f} {total_cpu - compute_cpu:7.1f}")
    cores = args.jobs or paper_repro._cores()
    print(f"whole command ({'serial' if args.no_overlap else 'plotting beside the next compute'}): {wall:.1f} s wall, "
          f"{time.process_time() - c0:.1f} CPU-s in this process; utilization {100 * total_cpu / (cores * wall):.0f} % "
          f"of {cores} cores (experiments' CPU seconds / (cores x the command's wall))")
    print(f"load average before {load0[0]:.2f}, after {load1[0]:.2f}; outputs in {out}")
    return code


if __name__ == "__main__":
    sys.exit(main())
