"""Experiment ``rates_table``: 003 Table 1 rendered from the symbolic forms of :mod:`limits`.

No randomness: the table, the curves and the claims are closed-form. The Markdown table (in the
report notes) and the figure show the derived rates (the default of ``limits``) and mark each cell
where 003 Table 1 prints something else; the second figure plots the rates against N for a few ε
(local vs central vs non-private). The claims compare exponents computed from the symbolic forms
with values written here from the paper's statements.

References: 003 Table 1; Theorems 1–12; Remark 1; Section 1 (lines 52–62); Section 6 (lines 306–308).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import sympy as sp

import limits
from limits import symbols as S

from simulations.plotting import color, figure
from simulations.experiments.base import Claim, ExperimentResult

__all__ = ["cell_tex", "compute", "plot"]

TASK_LABELS = {"classification": "Classification", "regression": "Regression, bounded noise",
               "regression_heavy_tailed": "Regression, heavy-tailed noise"}
PRIVACY_LABELS = {"local": "Local label DP", "central": "Central label DP", "local_full": "Local full DP",
                  "none": "Non-private"}
_BASE_TEX = {"N": "N", "eps N": r"(\epsilon N)", "N eps^2": r"(N\epsilon^2)", "N (eps^2 ∧ 1)": r"(N(\epsilon^2\wedge 1))"}

# Reference parameters for the numeric claims and curves.
REF = dict(beta=1.0, gamma=1.0, d=2, p=4.0)
EPS_GRID = (0.1, 0.5, 2.0)


def _exp_tex(expr: sp.Expr) -> str:
    return sp.latex(expr).replace(r"\left(", "(").replace(r"\right)", ")")


def cell_tex(task: str, privacy: str, variant: str = "derived") -> str:
    """A Table 1 cell in LaTeX / matplotlib mathtext, e.g. ``N^{-\\frac{2 \\beta}{2 \\beta + d}}``.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
        Row of 003 Table 1.
    privacy : {"local", "central", "local_full", "none"}
        Column of 003 Table 1.
    variant : {"derived", "printed"}, default "derived"
        The re-derived rate, or the cell exactly as 003 prints it.

    Returns
    -------
    str
        The cell's terms ``base^{-exponent}``, joined by ``+`` (a sum) or ``\\vee`` (a maximum).

    Raises
    ------
    ValueError
        If ``task``, ``privacy`` or ``variant`` is unknown (raised by :func:`limits.cell`).

    References
    ----------
    003 Table 1; Theorems 7–8 (the central regression privacy term, printed ``2β/(d+2β)``, derived
    ``2β/(d+β)``).

    Examples
    --------
    >>> print(cell_tex("regression", "central"))
    N^{-\\frac{2 \\beta}{2 \\beta + d}} + (\\epsilon N)^{-\\frac{2 \\beta}{\\beta + d}}
    >>> print(cell_tex("regression", "central", "printed"))
    N^{-\\frac{2 \\beta}{2 \\beta + d}} + (\\epsilon N)^{-\\frac{2 \\beta}{2 \\beta + d}}
    """
    c = limits.cell(task, privacy, variant=variant)
    parts = [f"{_BASE_TEX[t.base]}^{{-{_exp_tex(t.exponent)}}}" for t in c.terms]
    return {"single": parts[0], "sum": " + ".join(parts), "max": r" \vee ".join(parts)}[c.combine]


@lru_cache(maxsize=None)
def _differs(task, privacy) -> bool:
    return sp.simplify(limits.symbolic_rate(task, privacy) - limits.printed_rate(task, privacy)) != 0


def _kw(task):
    kw = dict(beta=REF["beta"], d=REF["d"])
    if task == "classification":
        kw["gamma"] = REF["gamma"]
    if task == "regression_heavy_tailed":
        kw["p"] = REF["p"]
    return kw


def _markdown() -> str:
    tasks, privs = limits.TASKS, limits.PRIVACY
    lines = ["Minimax excess-risk rates (003 Table 1, constants and log factors dropped), as computed by "
             "`limits.symbolic_rate`. Cells marked † are printed differently in 003 Table 1; the derived "
             "form follows the paper's theorems and proofs (`limits.discrepancies()`).", "",
             "| | " + " | ".join(TASK_LABELS[t] for t in tasks) + " |", "|---" * (len(tasks) + 1) + "|"]
    foot = []
    for pr in privs:
        row = []
        for t in tasks:
            mark = ""
            if _differs(t, pr):
                foot.append(f"{TASK_LABELS[t]} / {PRIVACY_LABELS[pr]}: printed ${cell_tex(t, pr, 'printed')}$")
                mark = " †"
            row.append(f"${cell_tex(t, pr)}${mark}")
        lines.append(f"| {PRIVACY_LABELS[pr]} | " + " | ".join(row) + " |")
    lines += [""] + [f"- † {f}" for f in foot]
    lines += ["", "All recorded discrepancies of 003 (printed → derived):", ""]
    for x in limits.DISCREPANCIES:
        lines.append(f"- **{x.source}**: `{x.printed_text}` → `{x.derived_text}`")
    return "\n".join(lines) + "\n"


def _claims() -> list[Claim]:
    b, g, d, p = REF["beta"], REF["gamma"], REF["d"], REF["p"]
    # Expected values written from the paper.
    cls_np = b * (g + 1) / (2 * b + d)                  # 003 Remark 1(1), eq. (103)
    reg_np = 2 * b / (2 * b + d)                        # 003 eq. (145)
    cls_central = b * (g + 1) / (b + d)                 # 003 Theorems 3-4, eq. (16), (18)
    reg_central = 2 * b / (d + b)                       # 003 Theorems 7-8, eq. (22), (24)
    reg_central_printed = 2 * b / (d + 2 * b)           # 003 Table 1 as printed
    heavy_local = 2 * b * (p - 1) / (2 * p * b + d * (p - 1))   # 003 Theorems 9-10
    heavy_central = 2 * b * (p - 1) / (p * b + d * (p - 1))     # 003 Theorems 11-12
    cls_full = b * (g + 1) / (2 * b + 2 * d)            # 003 Remark 1(2)
    ref = f"β={b:g}, γ={g:g}, d={d}, p={p:g}"

    def exp_(task, privacy, term=None, variant="derived"):
        return limits.rate_exponent(task, privacy, term=term, variant=variant, **_kw(task))

    def eq(a, x):
        return math.isclose(a, x, rel_tol=1e-12)

    claims = []
    m = exp_("classification", "local")
    claims.append(Claim("Local label DP keeps the non-private N-exponent β(γ+1)/(2β+d) for classification "
                        "(003 lines 52-55, Theorems 1-2)", eq(m, cls_np) and eq(m, exp_("classification", "none")),
                        cls_np, m, ref, kind="paper"))
    m = exp_("regression", "local")
    claims.append(Claim("Local label DP keeps the non-private N-exponent 2β/(2β+d) for bounded regression "
                        "(Theorems 5-6)", eq(m, reg_np) and eq(m, exp_("regression", "none")), reg_np, m, ref, kind="paper"))
    m = exp_("classification", "central", "privacy")
    claims.append(Claim("Central classification privacy term (εN)^(-β(γ+1)/(β+d)) decays faster than the "
                        "non-private term (003 lines 234-237)", eq(m, cls_central) and m > cls_np, cls_central, m,
                        f"{ref}; non-private exponent {cls_np:.4g}", kind="paper"))
    m = exp_("regression", "central", "privacy")
    claims.append(Claim("Central bounded-regression privacy term decays as (εN)^(-2β/(d+β)) (Theorems 7-8), "
                        "faster than non-private (lines 273-275)", eq(m, reg_central) and m > reg_np, reg_central, m,
                        f"{ref}; non-private exponent {reg_np:.4g}", kind="paper"))
    m = exp_("regression", "central", "privacy", variant="printed")
    claims.append(Claim("003 Table 1 as printed gives that term the exponent 2β/(d+2β) = the non-private one "
                        "(recorded discrepancy table1_central_regression_privacy_term)",
                        eq(m, reg_central_printed) and not eq(m, reg_central), reg_central_printed, m, ref, kind="erratum", finding="table1 central regression bounded"))
    m = exp_("regression_heavy_tailed", "central", "privacy")
    claims.append(Claim("Central heavy-tailed privacy exponent 2β(p-1)/(pβ+d(p-1)) exceeds the non-private "
                        "2β/(2β+d) for p > 2 (Theorems 11-12)", eq(m, heavy_central) and m > reg_np, heavy_central, m,
                        ref, kind="paper"))
    m = exp_("regression_heavy_tailed", "local")
    claims.append(Claim("Heavy-tailed local label DP is slower: 2β(p-1)/(2pβ+d(p-1)) < 2β/(2β+d) "
                        "(003 lines 56-58, 307-308)", eq(m, heavy_local) and m < reg_np, heavy_local, m, ref, kind="paper"))
    vals = {S.beta: sp.Rational(REF["beta"]), S.d: REF["d"]}
    for privacy, want, text in (
            ("local", reg_np, "local heavy-tailed exponent -> 2β/(2β+d), Theorem 6's (003 lines 306-307)"),
            ("central", reg_central, "central heavy-tailed privacy exponent -> 2β/(d+β), Theorems 7-8's")):
        term = limits.cell("regression_heavy_tailed", privacy).term("privacy").exponent
        m = float(sp.limit(term, S.p, sp.oo).subs(vals))
        claims.append(Claim(f"p -> ∞: {text} (sympy limit)", eq(m, want), want, m, f"β={b:g}, d={d}", kind="paper"))
    m = exp_("classification", "local_full", "privacy")
    claims.append(Claim("Local DP of features and labels is slower: (Nε²)^(-β(γ+1)/(2β+2d)) (003 Remark 1(2))",
                        eq(m, cls_full) and m < cls_np, cls_full, m, ref, kind="paper"))
    eps = 0.5
    m = limits.privacy_cost("classification", "local", target=1e-3, epsilon=eps, **_kw("classification"))
    claims.append(Claim("N privatized labels are worth Nε² clean ones: sample-size factor 1/ε² at ε=0.5 "
                        "(003 Remark 1(1))", math.isclose(m, 1 / eps**2, rel_tol=1e-9), 1 / eps**2, m, ref, kind="paper"))
    n_grid = np.logspace(0, 12, 25)
    ratio = limits.minimax_rate("regression", "local", N=n_grid, epsilon=2.0, **_kw("regression")) / \
        limits.minimax_rate("regression", "none", N=n_grid, **_kw("regression"))
    claims.append(Claim("Local rate equals the non-private rate for ε >= 1 (ε² ∧ 1; max ratio over N at ε=2)",
                        bool(np.all(ratio == 1.0)), 1.0, float(ratio.max()), "N = 1 .. 1e12", kind="paper"))
    a, bb = reg_np, reg_central
    want = eps ** (-bb / (bb - a))
    m = limits.crossover("regression", "central", epsilon=eps, **_kw("regression"))
    claims.append(Claim("Central regression: the privacy term stops dominating at N = ε^(-b/(b-a)) (ε=0.5)",
                        math.isclose(m, want, rel_tol=1e-12), want, m, f"a = 2β/(2β+d), b = 2β/(d+β); {ref}", kind="beyond"))
    return claims


def compute(ctx) -> ExperimentResult:
    """Render 003 Table 1 from :mod:`limits`: cells, rate curves in N, discrepancies and exponent claims.

    Parameters
    ----------
    ctx : RunContext
        Unused beyond the signature: closed form, the same at every profile and seed.

    Returns
    -------
    ExperimentResult
        Tables ``cells`` (derived and printed rate and N-exponent per cell), ``rates_vs_N`` (the rates
        at β = γ = 1, d = 2, p = 4 for ε in :data:`EPS_GRID`), ``discrepancies``; the exponent claims
        (expected values written from the paper); the Markdown table in the notes.

    References
    ----------
    003 Table 1; Theorems 1–12; Remark 1; Sections 1 and 6.

    Examples
    --------
    Closed form, but it simplifies every cell with sympy (about half a CPU second), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> res = compute(RunContext(profile="smoke"))  # doctest: +SKIP
    >>> list(res.tables), all(c.holds for c in res.claims)  # doctest: +SKIP
    (['cells', 'rates_vs_N', 'discrepancies'], True)
    """
    # Closed form: the same (tiny) work at every profile.
    tasks, privs = limits.TASKS, limits.PRIVACY
    cells = {"task": [], "privacy": [], "derived": [], "printed": [], "printed_differs": [], "exponent_N": []}
    for t in tasks:
        for pr in privs:
            cells["task"].append(t)
            cells["privacy"].append(pr)
            cells["derived"].append(str(limits.symbolic_rate(t, pr)))
            cells["printed"].append(str(limits.printed_rate(t, pr)))
            cells["printed_differs"].append(_differs(t, pr))
            cells["exponent_N"].append(limits.rate_exponent(t, pr, **_kw(t)))
    n_grid = np.logspace(1, 12, 45)
    curves = {"task": [], "privacy": [], "eps": [], "N": [], "rate": []}
    for t in tasks:
        for pr, eps_list in (("none", (math.inf,)), ("local", EPS_GRID), ("central", EPS_GRID)):
            for eps in eps_list:
                r = limits.minimax_rate(t, pr, N=n_grid, epsilon=None if pr == "none" else eps, **_kw(t))
                curves["task"] += [t] * n_grid.size
                curves["privacy"] += [pr] * n_grid.size
                curves["eps"] += [eps] * n_grid.size
                curves["N"] += list(n_grid)
                curves["rate"] += list(r)
    disc = {k: [x[k] for x in limits.discrepancies()] for k in ("key", "source", "printed", "derived")}
    notes = _markdown() + (f"\nCurves (figure `rates_vs_N`, CSV `rates_vs_N.csv`, ε = inf for non-private) use "
                           f"β={REF['beta']:g}, γ={REF['gamma']:g}, d={REF['d']}, p={REF['p']:g}, constants 1.\n")
    return ExperimentResult(tables={"cells": cells, "rates_vs_N": curves, "discrepancies": disc},
                            claims=_claims(), notes=notes, data={"curves": curves})


def _plot_table():
    tasks, privs = limits.TASKS, limits.PRIVACY
    # one column per task and one row per privacy model, however many :mod:`limits` lists (the Extending page
    # "Adding a rate cell" adds a column of Table 1, a row here): 1.28 inches per row and the header
    fig, (ax,) = figure(1, 1, width=14.0, height=1.28 * (len(privs) + 1),
                        title="003 Table 1: minimax rates under label DP (derived; † = printed differently)")
    ax.set_axis_off()
    ax.grid(False)
    col_x = [0.0, *np.linspace(0.15, 0.71, len(tasks))]
    row_y = [0.93, *np.linspace(0.74, 0.10, len(privs))]
    for j, t in enumerate(tasks):
        ax.text(col_x[j + 1], row_y[0], TASK_LABELS[t], fontsize=12, fontweight="bold", va="center")
    for i, pr in enumerate(privs):
        ax.text(col_x[0], row_y[i + 1], PRIVACY_LABELS[pr], fontsize=12, fontweight="bold", va="center")
        for j, t in enumerate(tasks):
            differs = _differs(t, pr)
            label = f"${cell_tex(t, pr)}$" + (" †" if differs else "")
            ax.text(col_x[j + 1], row_y[i + 1] + (0.045 if differs else 0), label,
                    fontsize=15, va="center", color=color(1) if differs else "black")
            if differs:
                ax.text(col_x[j + 1], row_y[i + 1] - 0.055, f"printed: ${cell_tex(t, pr, 'printed')}$", fontsize=11,
                        va="center", color="0.35")
    for y0, y1 in zip(row_y, row_y[1:]):
        ax.axhline((y0 + y1) / 2, color="0.8", lw=0.6)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    return fig


def _plot_curves(curves):
    tasks = limits.TASKS
    fig, axes = figure(1, 3, width=4.4, height=3.6,
                       title=f"Rates vs N (β={REF['beta']:g}, γ={REF['gamma']:g}, d={REF['d']}, p={REF['p']:g}; "
                             "solid: local, dashed: central)")
    arr = {k: np.asarray(v) for k, v in curves.items()}
    for ax, t in zip(axes, tasks):
        sel = arr["task"] == t
        m = sel & (arr["privacy"] == "none")
        ax.plot(arr["N"][m], arr["rate"][m], color="black", lw=2, label="non-private")
        for i, eps in enumerate(EPS_GRID):
            for pr, ls in (("local", "-"), ("central", "--")):
                m = sel & (arr["privacy"] == pr) & (arr["eps"] == eps)
                ax.plot(arr["N"][m], arr["rate"][m], color=color(i), ls=ls, lw=1.3,
                        label=f"{pr}, ε={eps:g}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N")
        ax.set_ylabel("excess risk rate (constants 1)")
        ax.set_title(TASK_LABELS[t])
    axes[0].legend(fontsize=7, ncol=1)
    return fig


def plot(result: ExperimentResult) -> dict:
    """The two figures: 003 Table 1 typeset (derived, † where printed differently) and the rates vs N.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["curves"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        ``"table1"`` and ``"rates_vs_N"``.

    References
    ----------
    003 Table 1.

    Examples
    --------
    Typesetting the table takes about half a CPU second, so not run here:

    >>> figs = plot(compute(None))  # doctest: +SKIP
    >>> list(figs)  # doctest: +SKIP
    ['table1', 'rates_vs_N']
    """
    return {"table1": _plot_table(), "rates_vs_N": _plot_curves(result.data["curves"])}


# Registered through simulations/experiments/catalogue.py ("rates_table"): name, what it reproduces, report order.
