"""Experiment ``third_party_audit``: the suite's checks applied to a randomizer it did not write.

The subject is the k* selection rule of a widely used open-source RRWithPrior implementation: the
function ``rr_with_prior`` of Google Research's label-DP code (repository google-research/google-research,
directory ``label_dp``, the code of Ghazi et al., "Deep Learning with Label Differential Privacy",
NeurIPS 2021). Re-implemented here from its public description, not copied: with the prior sorted in
decreasing order and S_m its top-m mass, that rule scores the candidate set of m = j + 1 labels
(j = 0 .. K-1) by S_{j+1} / (1 + (j - 1) e^{-ε}) and uses the m of largest score, then applies
RRTop-m correctly (keep e^ε/(e^ε + m - 1), labels outside the top m uniform on it). 004 Algorithm 2
scores the same set by w_m = S_m / (1 + (m - 1) e^{-ε}): the published denominator is one e^{-ε}
short (1 + (m - 2) e^{-ε}, and 1 - e^{-ε} for m = 1), which favours small candidate sets.

What is measured, with the suite's own public tools only:

* privacy: ``check_label_dp`` on the rule as a prior-dependent randomizer (an object with
  ``channel_matrix(prior)``), over drawn priors (Dirichlet at three concentrations, point masses,
  ties), worst prior reported. The set depends on the prior only, so it is ε-label DP (004
  Corollary 2); tight (loss ε) whenever m >= 2.
* utility: over Dirichlet priors for K in {5, 10, 100} and ε in {0.5, 1, 2, 4}, how often the
  published m differs from the optimal k* of 004 Algorithm 2, and the loss in P[output = true label]
  against the LP optimum of 004 Theorem 3 (``utility_gap``).
* a closed-form bound on that loss: the published score is w_m r_m with r_m = 1 + e^{-ε}/(1 + (m-2)e^{-ε})
  decreasing in m, so w_{m~} >= w_{k*} r_{k*} / r_1 >= w_{k*} r_K / r_1, i.e. relative loss
  <= 1 - (1 - e^{-ε}) (1 + e^{-ε} / (1 + (K-2) e^{-ε})).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive
from proofs_checks.audit import clopper_pearson_lower, clopper_pearson_upper
from proofs_checks.dp import check_label_dp, is_tight, within
from proofs_checks.rrwithprior_lp import rrwithprior_k, utility_gap
from simulations.experiments.base import Claim, ExperimentResult, RunContext
from simulations.mechanisms import RRTopK
from simulations.mechanisms.labels import check_priors
from simulations.seeding import DATA, stream

__all__ = ["CONFIGS", "AuditConfig", "PublishedRRWithPrior", "published_k", "published_loss_bound",
           "published_scores"]


def published_scores(prior, epsilon: float) -> np.ndarray:
    """Scores of the published rule for candidate sets of size m = 1..K: S_m / (1 + (m - 2) e^{-ε}), shape (K,)."""
    p = np.asarray(prior, dtype=float)
    epsilon = check_positive("epsilon", epsilon)
    top = np.cumsum(np.sort(p)[::-1])
    m = np.arange(1, p.size + 1)
    return top / (1.0 + (m - 2) * np.exp(-epsilon))


def published_k(prior, epsilon: float) -> int:
    """The candidate-set size the published rule uses: the first maximizer of :func:`published_scores`."""
    return int(np.argmax(published_scores(prior, epsilon))) + 1


def published_loss_bound(num_classes: int, epsilon: float) -> float:
    """Closed-form bound on the relative accuracy loss of the published rule (module docstring)."""
    K = check_int("num_classes", num_classes, low=2)
    t = math.exp(-check_positive("epsilon", epsilon))
    return 1.0 - (1.0 - t) * (1.0 + t / (1.0 + (K - 2) * t))


@dataclass(frozen=True, slots=True)
class PublishedRRWithPrior:
    """The published rule as a user would hand it to the suite: ``channel_matrix(prior)`` only."""

    num_classes: int
    epsilon: float

    def channel_matrix(self, prior) -> np.ndarray:
        p = check_priors(prior, self.num_classes)
        return RRTopK(self.num_classes, self.epsilon, published_k(p, self.epsilon)).channel_matrix(p)


@dataclass(frozen=True, slots=True)
class AuditConfig:
    Ks: tuple[int, ...]
    epsilons: tuple[float, ...]
    alphas: tuple[float, ...]     # Dirichlet concentrations
    draws: int                    # priors per (K, alpha)
    dp_draws: int                 # Dirichlet draws per concentration in the exact DP check


CONFIGS = {
    "smoke": AuditConfig(Ks=(5, 10, 100), epsilons=(0.5, 1.0, 2.0, 4.0), alphas=(0.1, 1.0, 10.0), draws=10, dp_draws=2),
    "quick": AuditConfig(Ks=(5, 10, 100), epsilons=(0.5, 1.0, 2.0, 4.0), alphas=(0.1, 1.0, 10.0), draws=400,
                         dp_draws=10),
    "paper": AuditConfig(Ks=(5, 10, 100), epsilons=(0.5, 1.0, 2.0, 4.0), alphas=(0.1, 1.0, 10.0), draws=3000,
                         dp_draws=30),
}
CONFIDENCE = 0.95


def _measure(cfg: AuditConfig, seed: int) -> tuple[dict, dict]:
    cols = ("K", "eps", "priors", "frac_k_differs", "frac_lo", "frac_hi", "min_loss", "mean_loss", "max_loss",
            "mean_rel_loss", "max_rel_loss", "rel_loss_bound", "mean_k_published", "mean_k_star")
    rows: dict[str, list] = {c: [] for c in cols}
    dp: dict[str, list] = {c: [] for c in ("K", "eps", "priors_checked", "worst_loss", "holds", "tight", "worst_prior_k")}
    for K in cfg.Ks:
        priors = np.concatenate([stream(seed, f"third_party_audit/K={K}/alpha={a:g}", 0, DATA).dirichlet(
            np.full(K, a), size=cfg.draws) for a in cfg.alphas])
        for eps in cfg.epsilons:
            mech = PublishedRRWithPrior(K, eps)
            res = check_label_dp(mech, eps, draws=cfg.dp_draws, rng=seed)
            dp["K"].append(K)
            dp["eps"].append(eps)
            dp["priors_checked"].append(len(res.witness["losses"]))
            dp["worst_loss"].append(res.epsilon_actual)
            dp["holds"].append(res.holds)
            dp["tight"].append(is_tight(res.epsilon_actual, eps))
            dp["worst_prior_k"].append(published_k(res.witness["prior"], eps))
            kp = np.array([published_k(p, eps) for p in priors])
            ks = np.array([rrwithprior_k(p, eps) for p in priors])
            gaps = [utility_gap(mech, p, eps) for p in priors]
            loss = np.array([g.gap for g in gaps])
            rel = np.array([g.relative_gap for g in gaps])
            n, d = len(priors), int(np.count_nonzero(kp != ks))
            alpha = (1 - CONFIDENCE) / 2
            for c, v in (("K", K), ("eps", eps), ("priors", n), ("frac_k_differs", d / n),
                         ("frac_lo", clopper_pearson_lower(d, n, alpha)), ("frac_hi", clopper_pearson_upper(d, n, alpha)),
                         ("min_loss", float(loss.min())), ("mean_loss", float(loss.mean())), ("max_loss", float(loss.max())),
                         ("mean_rel_loss", float(rel.mean())), ("max_rel_loss", float(rel.max())),
                         ("rel_loss_bound", published_loss_bound(K, eps)), ("mean_k_published", float(kp.mean())),
                         ("mean_k_star", float(ks.mean()))):
                rows[c].append(v)
    return rows, dp


def _compute(ctx: RunContext) -> ExperimentResult:
    cfg = CONFIGS[ctx.profile]
    rows, dp = _measure(cfg, ctx.seed)
    worst = max(w / e for w, e in zip(dp["worst_loss"], dp["eps"]))
    n_priors = rows["priors"][0]
    min_gap = min(rows["min_loss"])
    bound_ok = all(m <= b + 1e-12 for m, b in zip(rows["max_rel_loss"], rows["rel_loss_bound"]))
    i_max = int(np.argmax(rows["max_rel_loss"]))
    claims = [
        Claim("the published rr_with_prior k rule is eps-label DP (exact enumeration, worst over drawn priors); "
              "max loss / eps", all(dp["holds"]), expected=1.0, measured=worst,
              detail=f"{sum(dp['priors_checked'])} (prior, K, eps) channels checked by check_label_dp on an object "
                     f"with channel_matrix(prior); tight (loss = eps) in {sum(dp['tight'])}/{len(dp['tight'])} "
                     f"(K, eps) cells (the prior set includes m >= 2 choices)"),
        Claim("the published rule is not optimal: its k differs from 004 Algorithm 2's k* on a positive fraction "
              "of Dirichlet priors (max over cells of the fraction)", max(rows["frac_k_differs"]) > 0,
              expected=None, measured=max(rows["frac_k_differs"]),
              detail="per (K, eps) cell: " + "; ".join(
                  f"K={K}, eps={e:g}: {f:.3f} [{lo:.3f}, {hi:.3f}]" for K, e, f, lo, hi in zip(
                      rows["K"], rows["eps"], rows["frac_k_differs"], rows["frac_lo"], rows["frac_hi"]))
              + f" ({n_priors} priors per cell, Dirichlet alpha in {list(cfg.alphas)}; 95% Clopper-Pearson)"),
        Claim("its accuracy never exceeds the LP optimum of 004 Theorem 3 (it is eps-DP); min over all priors of "
              "(optimum - accuracy)", min_gap >= -1e-12, expected=0.0, measured=min_gap,
              detail="utility_gap on every prior (0 where the published k equals k*); a negative gap would mean a "
                     "non-private channel; tolerance 1e-12"),
        Claim("relative accuracy loss <= 1 - (1 - e^-eps)(1 + e^-eps / (1 + (K-2) e^-eps)) (closed-form bound, "
              "derived in the module docstring); worst measured / bound", bound_ok, expected=None,
              measured=rows["max_rel_loss"][i_max] / rows["rel_loss_bound"][i_max],
              detail=f"worst relative loss {rows['max_rel_loss'][i_max]:.4g} at K={rows['K'][i_max]}, "
                     f"eps={rows['eps'][i_max]:g} (bound {rows['rel_loss_bound'][i_max]:.4g})"),
    ]
    lines = ["Published k rule (google-research `label_dp`, `rr_with_prior`: top-(k+1) mass / (1 + (k-1)e^-eps)) "
             "against 004 Algorithm 2 (/ (1 + k e^-eps)), over Dirichlet priors "
             f"(alpha in {list(cfg.alphas)}, {n_priors} priors per cell); loss = optimum - P[output = true label]:", "",
             "| K | eps | k differs (95% CI) | mean loss | max loss | max rel. loss | bound | mean k published / k* |",
             "|---|---|---|---|---|---|---|---|"]
    for i in range(len(rows["K"])):
        lines.append(f"| {rows['K'][i]} | {rows['eps'][i]:g} | {rows['frac_k_differs'][i]:.3f} "
                     f"[{rows['frac_lo'][i]:.3f}, {rows['frac_hi'][i]:.3f}] | {rows['mean_loss'][i]:.3g} | "
                     f"{rows['max_loss'][i]:.3g} | {rows['max_rel_loss'][i]:.3g} | {rows['rel_loss_bound'][i]:.3g} | "
                     f"{rows['mean_k_published'][i]:.2f} / {rows['mean_k_star'][i]:.2f} |")
    return ExperimentResult(tables={"utility": rows, "privacy": dp}, claims=claims, notes="\n".join(lines),
                            data={"utility": rows, "privacy": dp})


def _plot(result: ExperimentResult) -> dict:
    from simulations.plotting import MARKERS, color, figure

    r = result.data["utility"]
    fig, (ax1, ax2) = figure(1, 2, width=4.6, height=3.5,
                             title="Published rr_with_prior k rule vs 004 Algorithm 2 (Dirichlet priors)")
    K_all, eps_all = np.array(r["K"]), np.array(r["eps"])
    for i, K in enumerate(sorted(set(r["K"]))):
        m = K_all == K
        f, lo, hi = (np.array(r[c])[m] for c in ("frac_k_differs", "frac_lo", "frac_hi"))
        ax1.errorbar(eps_all[m], f, yerr=[f - lo, hi - f], color=color(i), marker=MARKERS[i % len(MARKERS)], ms=4,
                     capsize=3, label=f"K = {K}")
        ax2.plot(eps_all[m], np.array(r["mean_rel_loss"])[m], color=color(i), marker=MARKERS[i % len(MARKERS)], ms=4,
                 label=f"K = {K}, mean")
        ax2.plot(eps_all[m], np.array(r["max_rel_loss"])[m], color=color(i), ls="--", lw=1, label=f"K = {K}, max")
        ax2.plot(eps_all[m], np.array(r["rel_loss_bound"])[m], color=color(i), ls=":", lw=1)
    ax1.set(xscale="log", xlabel="ε", ylabel="fraction of priors with k ≠ k*", title="k differs (95% CI)")
    ax1.legend(fontsize=7)
    ax2.set(xscale="log", yscale="log", xlabel="ε", ylabel="(optimum − accuracy) / optimum",
            title="accuracy loss vs LP optimum (dotted: bound)")
    ax2.legend(fontsize=6)
    return {"third_party_audit": fig}


# Registered through proofs_checks/experiments/catalogue.py ("third_party_audit"):
# name, what it reproduces, report order.
