"""Experiment ``rrwithprior_lp``: 004 Theorem 3 checked by solving LP1 and LP2 (004 Section 3.2).

For priors of several shapes (Dirichlet of concentration α, sparse, tied) and a grid of ε, the LP
optima are compared with the closed form max_k w_k (004 Algorithm 2) and with the exact accuracy of
``simulations.mechanisms.RRWithPrior``; the LP-optimal channel is checked for ε-DP by exact
enumeration. The figure adds the optimal k* as a function of α and ε (closed form), and the solve
time of each LP formulation against K. Timings go to results.json and the figure only (the CSV
files hold data that is identical from run to run).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from limits.validation import check_choice, check_int
from proofs_checks.dp import check_channel
from proofs_checks.rrwithprior_lp import rrwithprior_k, rrwithprior_lp, rrwithprior_value
from simulations.executors import map_ordered
from simulations.experiments.base import Claim, ExperimentResult, RunContext
from simulations.seeding import DATA, stream

__all__ = ["PRIOR_KINDS", "LPConfig", "PROFILES", "sample_prior"]

# Prior shapes: Dirichlet concentrations, plus sparse (zeros) and tied masses.
PRIOR_KINDS = {"dirichlet(100)": 100.0, "dirichlet(1)": 1.0, "dirichlet(0.1)": 0.1, "sparse": None, "ties": None}
RTOL = 1e-6            # agreement target between the LP optima and the closed form (the issue's)
TIME_BUDGET_S = 5.0    # "solves K = 100 in a few seconds on one core"


def sample_prior(kind: str, num_classes: int, rng: np.random.Generator) -> np.ndarray:
    """Draw one prior over K labels of the given shape (the priors on which LP1/LP2 are solved).

    ``dirichlet(α)``: Dirichlet(α·1_K); ``sparse``: Dirichlet(1) on a random ``max(1, K // 3)`` of the
    labels, zeros elsewhere; ``ties``: masses proportional to integers drawn uniformly from {1, 2, 3}
    (so many labels share a mass, which exercises the ties of 004 Algorithm 2's top-k sets).

    Parameters
    ----------
    kind : str
        A key of :data:`PRIOR_KINDS`: ``"dirichlet(100)"``, ``"dirichlet(1)"``, ``"dirichlet(0.1)"``,
        ``"sparse"`` or ``"ties"``.
    num_classes : int
        K >= 1.
    rng : numpy.random.Generator
        Source of randomness (the experiment passes a :func:`simulations.seeding.stream`); not validated.

    Returns
    -------
    ndarray of float64, shape (K,)
        Non-negative masses summing to 1 (up to rounding).

    Raises
    ------
    ValueError
        If ``kind`` is not a key of :data:`PRIOR_KINDS` or ``num_classes`` is not an integer >= 1.

    References
    ----------
    004 Theorem 3 (holds for any prior p on [K]; these shapes probe it), Algorithm 2.

    Examples
    --------
    K = 9: ``sparse`` puts mass on 9 // 3 = 3 labels; ``ties`` uses at most 3 distinct masses:

    >>> rng = np.random.default_rng(0)
    >>> p = sample_prior("sparse", 9, rng)
    >>> p.shape, int(np.count_nonzero(p)), round(float(p.sum()), 12)
    ((9,), 3, 1.0)
    >>> q = sample_prior("ties", 9, rng)
    >>> len(np.unique(q)) <= 3, round(float(q.sum()), 12)
    (True, 1.0)
    >>> sample_prior("zipf", 3, rng)
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of ['dirichlet(0.1)', 'dirichlet(1)', 'dirichlet(100)', 'sparse', 'ties'], got kind='zipf'
    """
    check_choice("kind", kind, PRIOR_KINDS)
    num_classes = check_int("num_classes", num_classes, low=1)
    alpha = PRIOR_KINDS[kind]
    if alpha is not None:
        return rng.dirichlet(np.full(num_classes, alpha))
    if kind == "sparse":
        m = max(1, num_classes // 3)
        p = np.zeros(num_classes)
        p[rng.choice(num_classes, size=m, replace=False)] = rng.dirichlet(np.ones(m))
        return p
    w = rng.integers(1, 4, size=num_classes).astype(float)
    return w / w.sum()


@dataclass(frozen=True, slots=True)
class LPConfig:
    """Size of one profile of ``rrwithprior_lp``: the agreement grid, the k* panel and the timed solves.

    A frozen record; nothing is validated here (:data:`PROFILES` holds the suite's three).

    Parameters
    ----------
    Ks : tuple of int
        Numbers of labels K of the agreement table (LP1, LP2 and the closed form), each >= 1.
    epsilons : tuple of float
        Privacy parameters ε > 0 of the agreement table.
    draws : int
        Priors drawn per (prior kind, K), >= 1.
    naive_max_K : int
        The naive LP1 (all K²(K−1) DP constraints) is solved only for K up to this.
    kstar_K : int
        K of the k* panel (k* of 004 Algorithm 2 against the Dirichlet concentration).
    kstar_alphas : tuple of float
        Dirichlet concentrations α > 0 of the k* panel.
    kstar_epsilons : tuple of float
        Privacy parameters ε > 0 of the k* panel.
    kstar_draws : int
        Dirichlet(α·1_K) priors per α in the k* panel, >= 1.
    time_Ks : dict
        ``(formulation, method) -> tuple of K`` timed in the solve-time panel; formulation ``"lp1"`` or
        ``"lp2"``, method ``"naive"``, ``"envelope"`` or ``"efficient"``
        (:func:`proofs_checks.rrwithprior_lp`).
    time_eps : float, default 1.0
        Privacy parameter ε of the timed solves.

    References
    ----------
    004 Section 3.2: LP1 and LP2 (LP2's constraints (4)-(5)), Theorem 3; Algorithm 2 (k*).

    Examples
    --------
    >>> cfg = PROFILES["smoke"]
    >>> cfg.Ks, cfg.epsilons, cfg.naive_max_K, sorted(cfg.time_Ks)
    ((2, 5, 10), (0.05, 1.0, 10.0), 5, [('lp1', 'efficient'), ('lp1', 'naive'), ('lp2', 'efficient')])
    """

    Ks: tuple[int, ...]                 # agreement grid
    epsilons: tuple[float, ...]
    draws: int                          # priors per (kind, K)
    naive_max_K: int                    # naive LP1 only up to here (K³ constraints)
    kstar_K: int                        # panel 2
    kstar_alphas: tuple[float, ...]
    kstar_epsilons: tuple[float, ...]
    kstar_draws: int
    time_Ks: dict                       # (formulation, method) -> Ks timed (panel 3)
    time_eps: float = 1.0


PROFILES = {
    "smoke": LPConfig(Ks=(2, 5, 10), epsilons=(0.05, 1.0, 10.0), draws=1, naive_max_K=5,
                      kstar_K=10, kstar_alphas=tuple(np.logspace(-2, 2, 5)), kstar_epsilons=(0.5, 2.0, 8.0),
                      kstar_draws=20,
                      time_Ks={("lp1", "naive"): (5, 10), ("lp1", "efficient"): (10, 30, 100),
                               ("lp2", "efficient"): (10, 100, 1000)}),
    "quick": LPConfig(Ks=(2, 3, 5, 10, 20, 50, 100), epsilons=(0.05, 0.2, 1.0, 3.0, 10.0), draws=2, naive_max_K=10,
                      kstar_K=10, kstar_alphas=tuple(np.logspace(-2, 2, 9)), kstar_epsilons=(0.25, 0.5, 1.0, 2.0, 4.0, 8.0),
                      kstar_draws=200,
                      time_Ks={("lp1", "naive"): (5, 10, 15, 20, 30), ("lp1", "envelope"): (5, 10, 20, 50, 100),
                               ("lp1", "efficient"): (5, 10, 20, 50, 100, 200),
                               ("lp2", "naive"): (10, 100, 300, 1000), ("lp2", "efficient"): (10, 100, 300, 1000)}),
    "paper": LPConfig(Ks=(2, 3, 5, 10, 20, 50, 100), epsilons=(0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0),
                      draws=5, naive_max_K=10,
                      kstar_K=100, kstar_alphas=tuple(np.logspace(-2, 2, 17)),
                      kstar_epsilons=(0.25, 0.5, 1.0, 2.0, 4.0, 8.0), kstar_draws=500,
                      time_Ks={("lp1", "naive"): (5, 10, 15, 20, 30, 40), ("lp1", "envelope"): (5, 10, 20, 50, 100, 150),
                               ("lp1", "efficient"): (5, 10, 20, 50, 100, 200, 300),
                               ("lp2", "naive"): (10, 100, 300, 1000), ("lp2", "efficient"): (10, 100, 300, 1000, 3000)}),
}


def _rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)


_AGREEMENT_COLUMNS = ("kind", "K", "eps", "draw", "closed_form", "k_star", "lp1_efficient", "lp1_naive", "lp2",
                      "rel_err_lp1", "rel_err_lp2", "rel_diff_naive_efficient", "lp1_channel_loss_over_eps",
                      "rrwithprior_accuracy")


def _agreement(cfg: LPConfig, seed: int, jobs: int = 1, scheduler=None) -> dict:
    """LP1 (efficient, and naive for small K), LP2 and RRWithPrior against the closed form.

    One task per (prior kind, K) on the run's workers (:func:`~simulations.executors.map_ordered`); the
    rows are concatenated in grid order, so the table does not depend on ``jobs``.
    """
    blocks = map_ordered(_agreement_block, [(kind, K, cfg, seed) for kind in PRIOR_KINDS for K in cfg.Ks], jobs,
                         scheduler)
    return {c: [v for b in blocks for v in b[c]] for c in _AGREEMENT_COLUMNS}


def _agreement_block(kind: str, K: int, cfg: LPConfig, seed: int) -> dict:
    """The agreement rows of one (prior kind, K): every draw and ε (module-level, for worker processes)."""
    from simulations.mechanisms import RRWithPrior

    rows: dict[str, list] = {c: [] for c in _AGREEMENT_COLUMNS}
    for draw in range(cfg.draws):
        p = sample_prior(kind, K, stream(seed, f"rrwithprior_lp/{kind}/K={K}", draw, DATA))
        for eps in cfg.epsilons:
            closed = rrwithprior_value(p, eps)
            lp1 = rrwithprior_lp(p, eps)
            naive = rrwithprior_lp(p, eps, method="naive").value if K <= cfg.naive_max_K else math.nan
            lp2 = rrwithprior_lp(p, eps, "lp2").value
            acc = float(p @ np.diag(RRWithPrior(K, eps).channel_matrix(p))) if K >= 2 else 1.0
            for c, v in (("kind", kind), ("K", K), ("eps", eps), ("draw", draw), ("closed_form", closed),
                         ("k_star", rrwithprior_k(p, eps)), ("lp1_efficient", lp1.value),
                         ("lp1_naive", naive), ("lp2", lp2), ("rel_err_lp1", _rel(lp1.value, closed)),
                         ("rel_err_lp2", _rel(lp2, closed)),
                         ("rel_diff_naive_efficient", _rel(naive, lp1.value) if K <= cfg.naive_max_K else math.nan),
                         ("lp1_channel_loss_over_eps", check_channel(lp1.channel, eps,
                                                                          row_sum_atol=1e-9).epsilon_actual / eps),
                         ("rrwithprior_accuracy", acc)):
                rows[c].append(v)
    return rows


def _kstar(cfg: LPConfig, seed: int) -> dict:
    """Mean and 10%/90% quantiles of k* over Dirichlet(α) priors, by α and ε (closed form)."""
    rows: dict[str, list] = {c: [] for c in ("alpha", "eps", "K", "mean_k_star", "q10_k_star", "q90_k_star")}
    for i, alpha in enumerate(cfg.kstar_alphas):
        rng = stream(seed, f"rrwithprior_lp/kstar/alpha#{i}/K={cfg.kstar_K}", 0, DATA)
        priors = rng.dirichlet(np.full(cfg.kstar_K, alpha), size=cfg.kstar_draws)
        for eps in cfg.kstar_epsilons:
            ks = np.array([rrwithprior_k(p, eps) for p in priors])
            for c, v in (("alpha", float(alpha)), ("eps", eps), ("K", cfg.kstar_K), ("mean_k_star", ks.mean()),
                         ("q10_k_star", np.quantile(ks, 0.1)), ("q90_k_star", np.quantile(ks, 0.9))):
                rows[c].append(v)
    return rows


def _timings(cfg: LPConfig, seed: int) -> dict:
    """Wall and solver seconds per (formulation, method, K), on Dirichlet(1) priors (best of 3 if fast)."""
    out = {}
    for (formulation, method), Ks in cfg.time_Ks.items():
        wall, solver, err = [], [], []
        for K in Ks:
            p = sample_prior("dirichlet(1)", K, stream(seed, f"rrwithprior_lp/timing/K={K}", 0, DATA))
            best = None
            for _ in range(3):
                t0 = time.perf_counter()
                res = rrwithprior_lp(p, cfg.time_eps, formulation, method=method)
                res_wall = time.perf_counter() - t0
                if best is None or res_wall < best[0]:
                    best = (res_wall, res.solve_time, _rel(res.value, rrwithprior_value(p, cfg.time_eps)))
                if res_wall > 0.2:  # one repeat is enough once noise is small relative to the time
                    break
            wall.append(best[0])
            solver.append(best[1])
            err.append(best[2])
        out[f"{formulation}/{method}"] = {"K": list(Ks), "wall_s": wall, "solver_s": solver, "rel_err": err}
    return out


def _compute(ctx: RunContext) -> ExperimentResult:
    """Solve LP1 and LP2 on every prior of the profile, compare with the closed form, time the solvers.

    Parameters
    ----------
    ctx : RunContext
        Profile (a key of :data:`PROFILES`) and root seed of the priors.

    Returns
    -------
    ExperimentResult
        Tables ``agreement`` (per prior kind, K, ε, draw: the closed form ``max_k w_k``, k*, the LP1
        (efficient, naive), LP2 optima, their relative errors, the LP1 channel's exact loss / ε and
        RRWithPrior's exact accuracy) and ``k_star`` (k* over Dirichlet(α) priors); seven claims
        (LP1 = LP2 = closed form within 1e-6, naive = efficient LP1, the LP1 channel is ε-DP,
        RRWithPrior attains the optimum, the two timing claims); ``data["timings"]`` (results.json and
        the figure only: timings differ from run to run).

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by ``RunContext``, before any work).

    References
    ----------
    004 Theorem 3, Section 3.2 (LP1, LP2), Algorithm 2.

    Examples
    --------
    The run solves hundreds of LPs (seconds); one of its rows by hand: prior (0.4, 0.3, 0.3) at ε = ln 2
    has ``w_k = S_k / (1 + (k−1)/2)`` = 0.4, 0.7/1.5, 1/2, so ``max_k w_k = 1/2`` (k* = 3), and both LPs
    reach it:

    >>> p, eps = np.array([0.4, 0.3, 0.3]), math.log(2)
    >>> rrwithprior_value(p, eps), rrwithprior_k(p, eps)
    (0.5, 3)
    >>> round(rrwithprior_lp(p, eps).value, 6), round(rrwithprior_lp(p, eps, "lp2").value, 6)
    (0.5, 0.5)
    """
    cfg = PROFILES[ctx.profile]
    agree = _agreement(cfg, ctx.seed, ctx.jobs, ctx.scheduler)  # spread over the run's workers (same table)
    kstar = _kstar(cfg, ctx.seed)
    timings = _timings(cfg, ctx.seed)

    err1 = max(agree["rel_err_lp1"])
    err2 = max(agree["rel_err_lp2"])
    naive_diff = np.nanmax(agree["rel_diff_naive_efficient"])
    loss = max(agree["lp1_channel_loss_over_eps"])
    rr_diff = max(_rel(a, v) for a, v in zip(agree["rrwithprior_accuracy"], agree["lp1_efficient"]))
    n = len(agree["K"])
    eff = timings["lp1/efficient"]
    t100 = eff["wall_s"][eff["K"].index(100)] if 100 in eff["K"] else math.nan
    lp2 = timings["lp2/efficient"]
    t_lp2 = lp2["wall_s"][-1]
    grid = f"{n} (prior, ε) cases: kinds {list(PRIOR_KINDS)}, K in {list(cfg.Ks)}, ε in {list(cfg.epsilons)}"
    claims = [
        Claim("LP1 optimum = max_k w_k (004 Theorem 3, Algorithm 2); max relative difference", err1 <= RTOL,
              expected=0.0, measured=err1, detail=f"tolerance {RTOL:g}; {grid}; HiGHS dual simplex", kind="paper"),
        Claim("LP2 optimum = max_k w_k (004 LP2, eqs. (4)-(5)); max relative difference", err2 <= RTOL,
              expected=0.0, measured=err2, detail=f"tolerance {RTOL:g}; {grid}", kind="paper"),
        Claim("naive LP1 (K^2(K-1) DP rows) = efficient LP1 (projection on diagonal and lower envelope, 4K+1 rows); "
              "max relative difference",
              bool(naive_diff <= RTOL), expected=0.0, measured=float(naive_diff),
              detail=f"tolerance {RTOL:g}; naive solved for K <= {cfg.naive_max_K}", kind="beyond"),
        Claim("the LP1-optimal channel is ε-DP (exact enumeration); max loss / ε", loss <= 1 + 1e-9,
              expected=1.0, measured=loss, detail="after polish_channel (entries moved by <= solver tolerance)", kind="paper"),
        Claim("RRWithPrior (simulations.mechanisms) attains the LP1 optimum; max relative difference",
              rr_diff <= RTOL, expected=0.0, measured=rr_diff, detail="accuracy Σ_y p_y q[y|y] of its exact channel", kind="paper"),
        Claim(f"efficient LP1 solves K = 100 within {TIME_BUDGET_S:g} s on one core (wall seconds, build + solve)",
              bool(t100 <= TIME_BUDGET_S), expected=None, measured=t100,
              detail=f"Dirichlet(1) prior, ε = {cfg.time_eps:g}, HiGHS single thread; budget {TIME_BUDGET_S:g} s", kind="beyond"),
        Claim(f"LP2 (efficient) solves K = {lp2['K'][-1]} to the closed form (wall seconds)",
              lp2["rel_err"][-1] <= RTOL, expected=None, measured=t_lp2,
              detail=f"relative difference to max_k w_k: {lp2['rel_err'][-1]:.2g} (tolerance {RTOL:g})", kind="paper"),
    ]
    lines = ["Solve times (wall seconds including cvxpy compilation / HiGHS solver seconds), "
             f"Dirichlet(1) prior, ε = {cfg.time_eps:g}, one thread; measured on the machine that ran this report:", "",
             "| formulation | " + " | ".join(f"K={K}" for K in sorted({k for t in timings.values() for k in t["K"]})) + " |"]
    allK = sorted({k for t in timings.values() for k in t["K"]})
    lines.append("|---" * (len(allK) + 1) + "|")
    for name, t in timings.items():
        cells = {K: f"{w:.3g} / {s:.3g}" for K, w, s in zip(t["K"], t["wall_s"], t["solver_s"])}
        lines.append(f"| {name} | " + " | ".join(cells.get(K, "–") for K in allK) + " |")
    notes = "\n".join(lines + ["", "LP1 forms: naive = constraint (2) for all (y, y', ỹ); envelope = "
                               "l_ỹ <= q[ỹ|y] <= u_ỹ <= e^ε l_ỹ; substitution = q = l + r, 0 <= r <= (e^ε−1) l; "
                               "efficient = LP1 projected on x = diag q and l: l_y <= x_y <= e^ε l_y, "
                               "S_y <= 1 − x_y <= e^ε S_y with S_y = Σ_{ỹ≠y} l_ỹ (channel rebuilt from (x, l)). "
                               "LP2 naive = dense (4); LP2 efficient = (4) through the total s = Σ q[y|y]."])
    return ExperimentResult(tables={"agreement": agree, "k_star": kstar}, claims=claims, notes=notes,
                            data={"agreement": agree, "k_star": kstar, "timings": timings, "rtol": RTOL})


def _plot(result: ExperimentResult) -> dict:
    """LP optima vs the closed form, k* against the Dirichlet concentration, and the LP solve times against K.

    Parameters
    ----------
    result : ExperimentResult
        Returned by ``_compute`` (reads ``data["agreement"]``, ``data["k_star"]``, ``data["timings"]``,
        ``data["rtol"]``).

    Returns
    -------
    dict
        ``{"rrwithprior_lp": matplotlib.figure.Figure}``.

    References
    ----------
    004 Theorem 3, Algorithm 2.

    Examples
    --------
    Needs a computed result (seconds of LP solves), so not run here:

    >>> list(_plot(_compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['rrwithprior_lp']
    """
    from simulations.plotting import MARKERS, color, figure

    d = result.data
    fig, (ax1, ax2, ax3) = figure(1, 3, width=4.4, height=3.5,
                                  title="004 Theorem 3: the LP optimum is RRWithPrior's max_k w_k")
    a = d["agreement"]
    from matplotlib.lines import Line2D

    floor = 1e-17  # exact agreement (difference 0) is drawn here
    kinds = np.array(a["kind"])
    eps = np.array(a["eps"])
    for i, kind in enumerate(PRIOR_KINDS):
        m = kinds == kind
        jitter = 1.0 + 0.04 * (i - 2)
        ax1.scatter(eps[m] * jitter, np.maximum(np.array(a["rel_err_lp1"])[m], floor), s=12, color=color(i),
                    marker="o")
        ax1.scatter(eps[m] * jitter, np.maximum(np.array(a["rel_err_lp2"])[m], floor), s=14, color=color(i),
                    marker="x")
    ax1.axhline(d["rtol"], color="k", ls="--", lw=1)
    handles = [Line2D([], [], ls="", marker="s", color=color(i), label=kind) for i, kind in enumerate(PRIOR_KINDS)]
    handles += [Line2D([], [], ls="", marker="o", color="grey", label="LP1 (efficient)"),
                Line2D([], [], ls="", marker="x", color="grey", label="LP2"),
                Line2D([], [], ls="--", color="k", label=f"tolerance {d['rtol']:g}")]
    ax1.set(xscale="log", yscale="log", xlabel="ε", ylabel="|LP − closed form| / closed form",
            title=f"LP optimum vs max_k w_k (0 drawn at {floor:g})")
    ax1.legend(handles=handles, fontsize=6, loc="center right")

    k = d["k_star"]
    alphas, eps_k = np.array(k["alpha"]), np.array(k["eps"])
    for i, e in enumerate(sorted(set(k["eps"]))):
        m = eps_k == e
        ax2.plot(alphas[m], np.array(k["mean_k_star"])[m], marker=MARKERS[i % len(MARKERS)], ms=4, color=color(i),
                 label=f"ε = {e:g}")
        ax2.fill_between(alphas[m], np.array(k["q10_k_star"])[m], np.array(k["q90_k_star"])[m], color=color(i),
                         alpha=0.15, lw=0)
    ax2.set(xscale="log", xlabel="Dirichlet concentration α", ylabel="k* (mean, 10–90% band)",
            title=f"optimal k* of RRWithPrior, K = {k['K'][0]}")
    ax2.legend(fontsize=7)

    for i, (name, t) in enumerate(d["timings"].items()):
        ax3.plot(t["K"], t["wall_s"], marker=MARKERS[i % len(MARKERS)], ms=4, color=color(i), label=name)
    ax3.axhline(TIME_BUDGET_S, color="k", ls=":", lw=1, label=f"{TIME_BUDGET_S:g} s budget")
    ax3.set(xscale="log", yscale="log", xlabel="K (labels)", ylabel="wall seconds (build + solve)",
            title="LP solve time (HiGHS, 1 thread)")
    ax3.legend(fontsize=7)
    return {"rrwithprior_lp": fig}


# Registered through proofs_checks/experiments/catalogue.py ("rrwithprior_lp"):
# name, what it reproduces, report order.
