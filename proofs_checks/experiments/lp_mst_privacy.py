"""Experiment ``lp_mst_privacy``: LP-MST is exactly ε-label DP (004 Observation 4), checked by
enumerating every labelling of a tiny data set and every output (all privatized labels), for several
learners, numbers of stages, ε, temperatures and Appendix B's label filtering; plus a planted leak
(later priors trained on *true* labels), which the check must catch.

See :mod:`proofs_checks.lp_mst_check` for the method. The learners are deterministic (k-NN with
stable tie-breaking, scikit-learn's lbfgs logistic regression), so the models add nothing to the
output distribution beyond the privatized labels.
"""

from __future__ import annotations

import math

import numpy as np

from proofs_checks.lp_mst_check import check_lp_mst, tiny_learner
from simulations.experiments.base import Claim, ExperimentResult
from simulations.plotting import figure, verdict_bars

__all__ = ["CASES"]

# (label, learner factory name, K, X, stages, epsilon, num_stages, temperature, filter, leak)
CASES = (
    ("LP-2ST, 1-NN, K=3", "knn1", 3, 4, (0, 1, 0, 1), 1.0, 2, 1.0, False, "none"),
    ("LP-2ST, 2-NN, K=3, ε=0.1", "knn2", 3, 4, (0, 1, 0, 1), 0.1, 2, 1.0, False, "none"),
    ("LP-2ST, 2-NN, K=3, ε=3", "knn2", 3, 4, (0, 1, 0, 1), 3.0, 2, 1.0, False, "none"),
    ("LP-3ST, 2-NN, K=2, filter", "knn2", 2, 6, (0, 1, 2, 0, 1, 2), 1.0, 3, 1.0, True, "none"),
    ("LP-3ST, logistic, K=2, t=0.5, filter", "logistic", 2, 6, (0, 1, 2, 0, 1, 2), 1.0, 3, 0.5, True, "none"),
    ("LP-2ST, logistic, K=3, t=2", "logistic", 3, 4, (0, 0, 1, 1), 0.5, 2, 2.0, False, "none"),
    ("planted leak: LP-2ST on true labels, 1-NN", "knn1", 3, 4, (0, 1, 0, 1), 1.0, 2, 1.0, False, "true_labels"),
    ("planted leak: LP-3ST on true labels, logistic", "logistic", 2, 6, (0, 1, 2, 0, 1, 2), 1.0, 3, 1.0, False,
     "true_labels"),
)


def compute(ctx) -> ExperimentResult:
    """Exact privacy loss of LP-MST over every labelling and output of each tiny case of :data:`CASES`.

    Parameters
    ----------
    ctx : RunContext
        Only the profile is read: ``"smoke"`` checks the first case and the first planted leak, any other
        name all eight cases (the profile name is not validated).

    Returns
    -------
    ExperimentResult
        Table ``lp_mst_privacy`` (case, ε, exact loss, holds, tight, labellings, outputs); one claim per
        case: "ε-label DP with loss exactly ε" for the real ones, "the check catches the leak (loss > ε)"
        for the planted leaks; ``data["rows"]`` for :func:`plot`.

    References
    ----------
    004 Algorithm 3 (LP-MST), Observation 4 (it is ε-label DP), Algorithm 2 (RRWithPrior, each stage).

    Examples
    --------
    The smoke profile runs in a fraction of a second: LP-2ST with 1-NN has exact loss ε = 1 (004
    Observation 4, tight), and the planted leak (priors trained on true labels) makes a one-hot prior,
    so RRWithPrior copies the label: a probability ratio 1/0, loss ∞:

    >>> from simulations.experiments.base import RunContext
    >>> res = compute(RunContext(profile="smoke"))
    >>> [(round(r.loss, 9), r.holds) for _, _, r in res.data["rows"]], [c.holds for c in res.claims]
    ([(1.0, True), (inf, False)], [True, True])
    """
    from simulations.learning import LPMST

    cases = CASES if ctx.profile != "smoke" else CASES[:1] + CASES[-2:-1]
    table = {k: [] for k in ("case", "epsilon", "exact_loss", "holds", "tight", "labellings", "outputs")}
    claims, rows = [], []
    for label, lname, K, n, stages, eps, T, temp, filt, leak in cases:
        est = LPMST(learner=tiny_learner(lname, K), num_classes=K, epsilon=eps, num_stages=T, temperature=temp,
                    filter_labels=filt)
        X = np.arange(float(n))[:, None]
        res = check_lp_mst(est, X, np.array(stages), leak=leak)
        for k, v in zip(table, (label, eps, res.loss, res.holds, res.tight, res.n_labellings, res.n_outputs)):
            table[k].append(v)
        rows.append((label, eps, res))
        if leak == "none":
            claims.append(Claim(
                claim=f"{label}: all privatized labels together are ε-label DP, with loss exactly ε (004 Observation 4)",
                holds=bool(res.holds and res.tight), expected=eps, measured=res.loss,
                detail=f"exact worst loss over {res.n_labellings} labellings x {res.n_outputs} outputs, neighbours "
                       f"differing in one label; witness (y, y', z) = {res.witness}", kind="paper"))
        else:
            claims.append(Claim(
                claim=f"{label}: the check catches the leak (loss > ε)",
                holds=bool(not res.holds), expected=eps, measured=res.loss,
                detail=f"exact loss {res.loss}; witness (y, y', z) = {res.witness} (a one-hot prior from a true label "
                       f"makes RRWithPrior copy it: k* = 1, probability ratio 1/0)" if math.isinf(res.loss) else
                       f"exact loss {res.loss:.6f}; witness {res.witness}", kind="beyond"))
    notes = [__doc__.split("\n\n", 1)[1].strip(), "", "| case | ε | exact loss | holds |", "|---|---|---|---|"]
    notes += [f"| {lab} | {e:g} | {r.loss:.12g} | {'yes' if r.holds else 'no'} |" for lab, e, r in rows]
    return ExperimentResult(tables={"lp_mst_privacy": table}, claims=claims, notes="\n".join(notes),
                            data={"rows": rows})


def plot(result) -> dict:
    """One bar per case: exact loss / ε (∞ drawn at 3), coloured by verdict.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["rows"]``).

    Returns
    -------
    dict
        ``{"lp_mst_privacy": matplotlib.figure.Figure}``.

    References
    ----------
    004 Observation 4.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from simulations.experiments.base import RunContext
    >>> figs = plot(compute(RunContext(profile="smoke")))
    >>> list(figs)
    ['lp_mst_privacy']
    >>> plt.close(figs["lp_mst_privacy"])
    """
    rows = result.data["rows"]
    fig, axes = figure(1, 1, width=7.0, height=0.35 * len(rows) + 1.2,
                       title="LP-MST: exact privacy loss / ε over all neighbouring labellings (004 Observation 4)")
    verdict_bars(axes[0], [lab for lab, _, _ in rows], [min(r.loss / e, 3.0) for _, e, r in rows],
                 [r.holds for _, _, r in rows], xlabel="exact loss / ε (∞ drawn at 3)")
    return {"lp_mst_privacy": fig}


# Registered through proofs_checks/experiments/catalogue.py ("lp_mst_privacy"):
# name, what it reproduces, report order.
