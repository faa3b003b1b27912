#!/usr/bin/env python
"""Time the whole quick profile: one row per experiment with wall and CPU seconds and share of the total.

    python benchmarks/bench_quick_profile.py [--profile quick] [--jobs N] [--only a,b] [--out DIR]

Runs ``paper_repro.py``'s experiments into a fresh temporary folder (so no cached trial is reused
and the committed ``figures/`` stay as they are), then reads each experiment's ``results.json``
provenance (wall seconds, and CPU seconds of the main process plus its workers) and prints the
table sorted by wall time: per experiment its wall seconds split into computing (``compute_s``) and
plotting + writing (the rest, serial in the main process), its CPU seconds, and its shares of the
total wall and CPU seconds; then the utilization of the cores (CPU seconds / (cores x wall)) and the
load average before and after: timings on a busy machine are not comparable with idle ones. Numbers
are from one run; nothing asserts them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paper_repro  # noqa: E402
from simulations.experiments.runner import claim_counts  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--profile", default="quick", choices=("smoke", "quick", "paper"))
    p.add_argument("--jobs", type=int, default=None, help="default: paper_repro.py's default (the cores)")
    p.add_argument("--only", default=None, help="comma-separated experiment names (default: all)")
    p.add_argument("--out", default=None, help="output folder (default: a new temporary folder)")
    args = p.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bench_quick_profile-"))
    run = ["--profile", args.profile, "--out", str(out), "--no-progress"]
    run += ["--jobs", str(args.jobs)] if args.jobs else []
    run += ["--only", args.only] if args.only else []
    load0 = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    code = paper_repro.main(run)
    wall = time.perf_counter() - t0
    load1 = os.getloadavg()
    rows = []
    for f in sorted(out.glob("*/results.json")):
        r = json.loads(f.read_text())
        prov = r.get("provenance") or {}
        hold, inconclusive, fail = claim_counts(r["claims"])
        wall_s = prov.get("wall_s", r["runtime_s"])
        rows.append((r["name"], wall_s, r.get("compute_s", float("nan")), prov.get("cpu_s", float("nan")),
                     f"{hold}/{inconclusive}/{fail}"))
    rows.sort(key=lambda row: -row[1])
    total, total_cpu = sum(row[1] for row in rows), sum(row[3] for row in rows)
    print(f"\n{'experiment':32s} {'wall s':>8s} {'compute':>8s} {'plot+io':>8s} {'CPU s':>8s} {'wall %':>6s} "
          f"{'CPU %':>6s}  claims hold/inconclusive/fail")
    for name, w, comp, c, claims in rows:
        print(f"{name:32s} {w:8.1f} {comp:8.1f} {w - comp:8.1f} {c:8.1f} {100 * w / total:6.1f} "
              f"{100 * c / total_cpu:6.1f}  {claims}")
    compute = sum(row[2] for row in rows)
    print(f"{'sum of experiments':32s} {total:8.1f} {compute:8.1f} {total - compute:8.1f} {total_cpu:8.1f}")
    cores = args.jobs or paper_repro._cores()
    print(f"whole command: {wall:.1f} s wall ({wall - total:.1f} s outside experiments: imports, report); "
          f"utilization during the experiments {100 * total_cpu / (cores * total):.0f} % of {cores} cores")
    print(f"load average before {load0[0]:.2f}, after {load1[0]:.2f}; outputs in {out}")
    return code


if __name__ == "__main__":
    sys.exit(main())
