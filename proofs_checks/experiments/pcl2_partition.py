"""``pcl2_partition_conditions``: 001 Lemma A.8 and Theorem A.11's conditions on the suite's packings.

The packings are those of ``metric_space_consistency`` (:func:`simulations.experiments.consistency.metric_consistency.make_space`):
the maximal r-packing of S² (geodesic metric) and PCL2b's lattice ``r Z²``, with ``r = n^{-1/8}``
(001 Algorithms 4-5, ``r = n^{-1/(4d)}`` at d = 2), over a grid of n. Everything is deterministic and
exact (see :mod:`proofs_checks.partition_conditions`): the root seed plays no part.

* Lemma A.8 (``diam(V) <= 2r``): exact cell diameters (S²: largest vertex-to-vertex distance of the
  spherical Voronoi cell; lattice: the cube's diagonal r√2), with the packing-covering sandwich
  ``r <= diam(V) <= 2 R_V < 2r`` and a dense-sample lower bound as an independent check. The lemma's
  proof ends with ``ρ(a, b) <= r``; the measured diameters exceed r (a typo: the triangle inequality
  gives 2r, which the statement has).
* Theorem A.11 (1): ``sup_V diam(V)`` is between r and 2r, so it tends to 0 exactly like r = n^{-1/8}.
* Theorem A.11 (2): ``Pr[N(x) <= k]`` for k = 0, 1, 10, exact (binomial over exact cell probabilities)
  for X uniform on S² and X ~ N(0, I₂) on R², against Lemma A.9's bound ``(2k + 4) m_T / n + Pr(T̄)``
  (m_T: cells meeting the ball of radius θ = n^{1/(2d)}; on R² bounded by the area count
  ``π (θ + r/√2)² / r²``) and its final form ``4^d (2k + 4) / n^{1/4} + Pr(T̄)``; and the number of
  cells over n (Devroye et al.'s sufficient condition for N(x) -> ∞).

Why a separate experiment from ``stability_histogram_accuracy``: it checks geometry (no privacy noise,
no randomness), so it lives with the other exact checks in ``proofs_checks``.

References: 001 Appendix A: Theorem A.4, Algorithms 4-5, Lemmas A.8-A.9, Theorem A.11.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from proofs_checks.partition_conditions import (lattice_cell_diameter, normal_lattice_cell_probabilities,
                                                prob_few_points, sampled_cell_diameters, sphere_cell_geometry)
from simulations.experiments.base import Claim, ExperimentResult
from simulations.experiments.consistency.metric_consistency import make_space
from simulations.plotting import MARKERS, color, figure

__all__ = ["KS", "compute", "plot"]

D = 2  # the doubling dimension the suite's PCL2 / PCL2b use for the scale r = n^(-1/(4d))
KS = (0, 1, 10)


@dataclass(frozen=True, slots=True)
class Profile:
    """Size of one profile: the sample sizes n and the density of the sampled S² diameter check.

    Parameters
    ----------
    log10_n : tuple of float
        Exponents e of the sample sizes n = round(10^e).
    per_cell : int
        Fibonacci points per cell (on average) of the independent sampled lower bound on the S² cell
        diameters.

    References
    ----------
    001 Lemma A.8, Theorem A.11 (checked at each n).

    Examples
    --------
    >>> PROFILES["smoke"]
    Profile(log10_n=(2, 4, 6), per_cell=100)
    """

    log10_n: tuple[float, ...]
    per_cell: int


PROFILES = {
    "smoke": Profile(log10_n=(2, 4, 6), per_cell=100),
    "quick": Profile(log10_n=tuple(range(2, 11)), per_cell=200),
    "paper": Profile(log10_n=tuple(e / 2 for e in range(4, 29)), per_cell=200),
}
FLOOR = 1e-12  # plot floor of the probabilities (the S² ones fall below 1e-300 from n = 1e6 on)


def _sphere_row(n: int, per_cell: int) -> dict:
    space = make_space("sphere", n)
    r = space.r
    g = sphere_cell_geometry(space.centres)
    sampled = sampled_cell_diameters(space.centres, per_cell)
    m = space.n_cells
    theta = n ** (1 / (2 * D))
    out_T = 0.0 if theta >= math.pi else (1 + math.cos(theta)) / 2  # uniform mass outside the geodesic ball
    few = {k: prob_few_points(g["probability"], n, k) for k in KS}
    return dict(space="sphere", n=n, r=r, cells=m, covering_over_r=space.covering_radius / r,
                separation_over_r=space.min_separation() / r, max_diam_over_r=g["diameter"].max() / r,
                min_diam_over_r=g["diameter"].min() / r, max_radius_over_r=g["radius"].max() / r,
                sampled_le_exact=bool(np.all(sampled <= g["diameter"] + 1e-12)),
                max_sample_gap_over_r=float((g["diameter"] - sampled).max() / r),
                sandwich=bool(np.all((g["diameter"] >= r * (1 - 1e-12)) & (g["diameter"] <= 2 * g["radius"] + 1e-12)
                                     & (g["radius"] < r))),
                cells_over_n=m / n, few=few, few_upper=dict(few),
                a9={k: (2 * k + 4) * m / n + out_T for k in KS},
                a9_final={k: 4 ** D * (2 * k + 4) / n ** 0.25 + out_T for k in KS})


def _plane_row(n: int) -> dict:
    space = make_space("plane_normal", n)
    r = space.r
    diam = lattice_cell_diameter(2, r)
    p, tail = normal_lattice_cell_probabilities(r)
    theta = n ** (1 / (2 * D))
    out_T = math.exp(-theta * theta / 2)  # P(|X| > θ) for X ~ N(0, I₂)
    m_T = math.pi * (theta + r / math.sqrt(2)) ** 2 / r ** 2
    few = {k: prob_few_points(p, n, k) for k in KS}
    return dict(space="plane_normal", n=n, r=r, cells=m_T, covering_over_r=space.covering_radius / r,
                separation_over_r=1.0, max_diam_over_r=diam / r, min_diam_over_r=diam / r,
                max_radius_over_r=space.covering_radius / r, sampled_le_exact=True, max_sample_gap_over_r=0.0,
                sandwich=bool(r <= diam <= 2 * space.covering_radius + 1e-12 and space.covering_radius < r),
                cells_over_n=m_T / n, few=few, few_upper={k: v + tail for k, v in few.items()},
                a9={k: (2 * k + 4) * m_T / n + out_T for k in KS},
                a9_final={k: 4 ** D * (2 * k + 4) / n ** 0.25 + out_T for k in KS})


def compute(ctx) -> ExperimentResult:
    """Exact cell geometry and ``Pr[N(x) <= k]`` of both packings at every n of the profile, with the claims.

    Parameters
    ----------
    ctx : RunContext
        Only the profile is read (:data:`PROFILES`); the seed plays no part (everything is exact).

    Returns
    -------
    ExperimentResult
        Tables ``cell_geometry`` (per space and n: r, cells, covering radius, separation, largest and
        smallest cell diameter over r, gap to the sampled diameters, cells / n) and ``few_points`` (per
        space, n and k in :data:`KS`: the exact ``Pr[N(x) <= k]``, its upper value with the lattice's mass
        outside the counted cells, 001 Lemma A.9's bound and its final form); six claims: Lemma A.8
        (``diam <= 2r``), the proof's ``<= r`` typo, the packing-covering sandwich, the sampled check, and
        Theorem A.11 (2) on each space.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by ``RunContext``, before any work).

    References
    ----------
    001 Appendix A: Theorem A.4, Algorithms 4-5, Lemmas A.8-A.9, Theorem A.11.

    Examples
    --------
    The smoke profile is exact and fast: ``r = n^{−1/8}`` is ``10^{−1/4}, 10^{−1/2}, 10^{−3/4}`` at
    n = 10², 10⁴, 10⁶; the lattice cells ``r[−½, ½]²`` have diameter ``r√2``; S² cells lie between r
    and 2r (Lemma A.8 and the proof's typo); every claim holds:

    >>> from simulations.experiments.base import RunContext
    >>> res = compute(RunContext(profile="smoke"))
    >>> geo = res.tables["cell_geometry"]
    >>> geo["n"][:3], [round(r, 6) for r in geo["r"][:3]]
    ([100, 10000, 1000000], [0.562341, 0.316228, 0.177828])
    >>> geo["space"][3], [round(x, 6) for x in geo["max_diam_over_r"][3:]]
    ('plane_normal', [1.414214, 1.414214, 1.414214])
    >>> all(1 < x <= 2 for x in geo["max_diam_over_r"][:3]), [c.holds for c in res.claims]
    (True, [True, True, True, True, True, True])
    """
    prof = PROFILES[ctx.profile]
    ns = [int(round(10 ** e)) for e in prof.log10_n]
    rows = [_sphere_row(n, prof.per_cell) for n in ns] + [_plane_row(n) for n in ns]
    geometry, few = _tables(rows)
    claims = _diameter_claims(rows, ns, prof.per_cell) + _few_points_claims(rows)
    return ExperimentResult(tables={"cell_geometry": geometry, "few_points": few}, claims=claims, notes=_notes(rows),
                            data={"rows": rows})


def _tables(rows) -> tuple[dict, dict]:
    """Cell geometry per (space, n) and Pr[N(x) <= k] with Lemma A.9's bounds per (space, n, k)."""
    geo_cols = ("space", "n", "r", "cells", "covering_over_r", "separation_over_r", "max_diam_over_r",
                "min_diam_over_r", "max_radius_over_r", "max_sample_gap_over_r", "cells_over_n")
    geometry = {c: [row[c] for row in rows] for c in geo_cols}
    few = {c: [] for c in ("space", "n", "k", "prob_few_points", "prob_upper", "lemma_a9_bound", "lemma_a9_final")}
    for row in rows:
        for k in KS:
            for c, v in zip(few, (row["space"], row["n"], k, row["few"][k], row["few_upper"][k], row["a9"][k],
                                  row["a9_final"][k])):
                few[c].append(v)
    return geometry, few


def _diameter_claims(rows, ns, per_cell) -> list[Claim]:
    """Lemma A.8 (diam <= 2r), the proof's typo (diam <= r fails), the packing-covering sandwich (Theorem A.11
    (1)), and the exact diameters against a sampled lower bound."""
    sph = [row for row in rows if row["space"] == "sphere"]
    pla = [row for row in rows if row["space"] == "plane_normal"]
    worst = max(sph, key=lambda row: row["max_diam_over_r"])
    return [
        Claim(claim="001 Lemma A.8: every Voronoi cell has diam(V) <= 2r = 2n^(-1/(4d)), on the maximal r-packing "
                    "of S² (exact spherical Voronoi cells) and on PCL2b's lattice r Z²",
              holds=all(row["max_diam_over_r"] <= 2 for row in rows), expected=2.0, measured=worst["max_diam_over_r"],
              detail=(f"largest diam/r on S²: {worst['max_diam_over_r']:.4f} at n = {worst['n']:.0e} ({worst['cells']} "
                      f"cells); on r Z²: {pla[0]['max_diam_over_r']:.6f} (= √2); n from {ns[0]:.0e} to {ns[-1]:.0e}"), kind="paper"),
        Claim(claim="001 Lemma A.8's proof ends with ρ(a, b) <= r: not so, cells are wider than r (the triangle "
                    "inequality gives the statement's 2r; a typo in the proof)",
              holds=all(row["max_diam_over_r"] > 1 for row in rows), expected=1.0,
              measured=min(row["max_diam_over_r"] for row in sph),
              detail=("largest diam/r per n on S²: " + ", ".join(f"{row['max_diam_over_r']:.3f}" for row in sph)
                      + f"; smallest cell diam/r on S² {min(row['min_diam_over_r'] for row in sph):.3f}; r Z²: √2"), kind="erratum", finding="001 lemma A.8 proof"),
        Claim(claim="packing-covering sandwich r <= diam(V) <= 2R_V < 2r for every cell (R_V: largest distance from "
                    "the centre; the cell holds the r/2-ball of its centre and lies in its r-ball, 001 Theorem A.4), "
                    "so 001 Theorem A.11 (1) holds: sup diam(V) -> 0 like r = n^(-1/8)",
              holds=all(row["sandwich"] for row in rows), expected=0.0, measured=sph[-1]["max_diam_over_r"] * sph[-1]["r"],
              detail=(f"sup diam on S²: {sph[0]['max_diam_over_r'] * sph[0]['r']:.4f} at n = {ns[0]:.0e} -> "
                      f"{sph[-1]['max_diam_over_r'] * sph[-1]['r']:.4f} at n = {ns[-1]:.0e}; largest covering radius / r "
                      f"{max(row['covering_over_r'] for row in sph):.4f}, smallest separation / r "
                      f"{min(row['separation_over_r'] for row in sph):.4f}"), kind="paper"),
        Claim(claim="the exact (vertex) diameters agree with an independent dense-sample lower bound on every S² cell",
              holds=all(row["sampled_le_exact"] for row in sph), expected=None,
              measured=max(row["max_sample_gap_over_r"] for row in sph),
              detail=(f"sampled <= exact on every cell; largest exact − sampled: "
                      f"{max(row['max_sample_gap_over_r'] for row in sph):.4f} r ({per_cell} Fibonacci "
                      "points per cell on average)"), kind="beyond"),
    ]


def _few_points_claims(rows) -> list[Claim]:
    """Theorem A.11 (2) per space: Pr[N(x) <= k] -> 0, non-increasing in n and within Lemma A.9's bound."""
    sph = [row for row in rows if row["space"] == "sphere"]
    pla = [row for row in rows if row["space"] == "plane_normal"]
    claims = []
    for label, rs in (("S², X uniform", sph), ("R² (r Z²), X ~ N(0, I₂)", pla)):
        mono = all(a["few"][k] >= b["few"][k] - 1e-15 for a, b in zip(rs, rs[1:]) for k in KS)
        below = all(row["few_upper"][k] <= row["a9"][k] + 1e-15 and row["few_upper"][k] <= row["a9_final"][k] + 1e-15
                    for row in rs for k in KS)
        last = rs[-1]
        claims.append(Claim(
            claim=f"001 Theorem A.11 (2) on {label}: Pr[N(x) <= k] -> 0 for k = {', '.join(map(str, KS))} (exact), "
                  "non-increasing in n and within 001 Lemma A.9's bound; cells/n -> 0",
            holds=bool(mono and below and last["few_upper"][max(KS)] < rs[0]["few"][max(KS)]), expected=0.0,
            measured=last["few_upper"][max(KS)],
            detail=("; ".join(f"k = {k}: {rs[0]['few'][k]:.3g} at n = {rs[0]['n']:.0e} -> {last['few_upper'][k]:.3g} at "
                              f"n = {last['n']:.0e} (Lemma A.9: {last['a9'][k]:.3g}, final form {last['a9_final'][k]:.3g})"
                              for k in KS)
                    + f"; cells/n {rs[0]['cells_over_n']:.3g} -> {last['cells_over_n']:.3g}; monotone {mono}; "
                      f"within Lemma A.9 {below}"), kind="paper"))
    return claims


def _notes(rows) -> str:
    notes = ["| space | n | r | cells | max diam / r | min diam / r | covering / r | Pr[N(x) <= 10] | Lemma A.9 (k = 10) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        cells = f"{row['cells']}" if row["space"] == "sphere" else f"<= {row['cells']:.3g} (in T)"
        notes.append(f"| {row['space']} | {row['n']:.0e} | {row['r']:.4f} | {cells} | {row['max_diam_over_r']:.4f} | "
                     f"{row['min_diam_over_r']:.4f} | {row['covering_over_r']:.4f} | {row['few_upper'][10]:.3g} | "
                     f"{row['a9'][10]:.3g} |")
    notes.append("\nLemma A.9's bounds exceed 1 (are vacuous) until n is large: its final form 4^d (2k + 4) / n^(1/4) "
                 "drops below 1 at k = 0 only for n > 64^4 ≈ 1.7e7 (d = 2). The exact probabilities fall much faster. "
                 "The scale uses d = 2 as the suite's PCL2 does; the doubling dimension of the Euclidean plane (Definition "
                 "A.1) is log2 7 ≈ 2.8, which changes r's exponent, not Lemma A.8 (true for any r).")
    return "\n".join(notes)


def plot(result: ExperimentResult) -> dict:
    """Cell diameters against 2r and r over n, and the exact ``Pr[N(x) <= k]`` against Lemma A.9's bound.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["rows"]``).

    Returns
    -------
    dict
        ``{"pcl2_partition_conditions": matplotlib.figure.Figure}`` with two panels (probabilities below
        :data:`FLOOR` are not drawn).

    References
    ----------
    001 Lemma A.8, Lemma A.9, Theorem A.11.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from simulations.experiments.base import RunContext
    >>> figs = plot(compute(RunContext(profile="smoke")))
    >>> list(figs), len(figs["pcl2_partition_conditions"].axes)
    (['pcl2_partition_conditions'], 2)
    >>> plt.close(figs["pcl2_partition_conditions"])
    """
    rows = result.data["rows"]
    fig, axes = figure(1, 2, width=5.8, height=3.8,
                       title="PCL2's partitions (001 Algorithms 4-5, r = n^(-1/8)): Lemma A.8 and Theorem A.11, exact")
    ax = axes[0]
    for i, (space, lab) in enumerate((("sphere", "S², max over cells"), ("plane_normal", "r Z² (all cells)"))):
        rs = [row for row in rows if row["space"] == space]
        n = [row["n"] for row in rs]
        ax.plot(n, [row["max_diam_over_r"] * row["r"] for row in rs], color=color(i), marker=MARKERS[i], ms=4,
                label=f"diam(V), {lab}")
        if space == "sphere":
            ax.plot(n, [row["min_diam_over_r"] * row["r"] for row in rs], color=color(i), marker=MARKERS[i], ms=3,
                    ls=":", label="diam(V), S², min over cells")
    n = [row["n"] for row in rows if row["space"] == "sphere"]
    r = np.array([row["r"] for row in rows if row["space"] == "sphere"])
    ax.plot(n, 2 * r, color="k", ls="--", lw=1, label="2r (Lemma A.8)")
    ax.plot(n, r, color="k", ls="-.", lw=1, label="r (the proof's last line)")
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="cell diameter", title="cell diameters vs 2r")
    ax.legend(fontsize=7)
    ax = axes[1]
    for i, (space, lab) in enumerate((("sphere", "S², uniform"), ("plane_normal", "R², N(0, I)"))):
        rs = [row for row in rows if row["space"] == space]
        n = [row["n"] for row in rs]
        for j, k in enumerate(KS):
            v = np.array([row["few_upper"][k] for row in rs])
            ax.plot(n, np.where(v >= FLOOR, v, np.nan), color=color(i), marker=MARKERS[j],
                    ms=3.5, ls=("-", "--", ":")[j], label=f"{lab}, k = {k}")
        ax.plot(n, [min(row["a9"][10], 1.0) for row in rs], color=color(i), lw=2.2, alpha=0.35,
                label=f"Lemma A.9 bound (k = 10, capped at 1), {lab}")
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel=f"Pr[N(x) <= k] (values < {FLOOR:g} not drawn)", ylim=(FLOOR, 3),
           title="Theorem A.11 (2): exact Pr[N(x) <= k]")
    ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return {"pcl2_partition_conditions": fig}


# Registered through proofs_checks/experiments/catalogue.py ("pcl2_partition_conditions"):
# name, what it reproduces, report order.
