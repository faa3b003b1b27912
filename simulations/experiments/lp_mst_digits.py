"""``lp_mst_digits``: RR vs LP-2ST vs LP-3ST vs ALIBI vs the vector approximation on real data.

scikit-learn's bundled handwritten digits (1347 train / 450 test 8x8 images, K = 10, the fixed split
of :func:`simulations.datasets.load_digits`), one learner for every method: the k-NN class-frequency
classifier (k = 20, Euclidean on pixels / 16), trained on

* RR = LP-1ST: K-ary randomized response labels (004 eq. (1));
* LP-2ST, LP-3ST: 004 Algorithm 3 with stage fractions (0.6, 0.4) / (0.4, 0.3, 0.3), Appendix B's
  label filtering, temperature 1 (chosen in a small pilot among filtering on/off and temperature
  0.5/1 — the paper also reports tuned settings, Appendix E);
* ALIBI: Laplace(2/ε) on the one-hot label and the Bayesian soft label under a uniform prior; the
  k-NN averages soft labels;
* vector approximation: the K-bit vector mechanism (000 eq. (12)-(13)), each bit debiased,
  ``(Z - b)/(a - b)`` (an unbiased estimate of the one-hot label); the k-NN averages them and predicts
  the arg-max (003 Theorem 2's estimator with k-NN cells).

Each trial privatizes the labels afresh (its own PRIVACY stream) for every ε and method; the data
and the non-private accuracy are fixed (deterministic k-NN on the fixed split). Beyond the paper:
per trial, the smallest ε at which a method reaches 90 % of the non-private accuracy, interpolated
linearly in log ε between the grid points around the first crossing.

References: 004 Algorithm 3, Section 5.1 (LP-1ST vs LP-2ST), Figure 1(a) (T > 2), Appendices B, E.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from limits.validation import check_choice
from simulations.datasets import load_digits
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.experiments.base import Claim, ExperimentResult
from simulations.learning import LPMST, IndexedKNNClassifier, neighbour_order
from simulations.mechanisms import ALIBI, VectorMechanism
from simulations.plotting import band, color, figure
from simulations.stats import bound_verdict, holds_from, t_interval

__all__ = ["DigitsPoint", "METHODS", "digits_pool", "digits_trial", "eps_at_fraction"]

METHODS = ("RR (LP-1ST)", "LP-2ST", "LP-3ST", "ALIBI", "vector approx.")
REQUIRED_EPS = (0.05, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0)
N_NEIGHBORS = 20
TARGET_FRACTION = 0.9
_PROFILES = {  # trials, extra ε points (for the 90 % crossing)
    "smoke": (2, ()),  # ε = (0.5, 2) only
    "quick": (20, (0.25, 0.7, 1.4, 2.8)),
    "paper": (50, (0.2, 0.3, 0.4, 0.6, 0.7, 0.85, 1.2, 1.4, 1.7, 2.4, 2.8, 3.4, 5.7)),
}
_STAGES = {"LP-2ST": (0.6, 0.4), "LP-3ST": (0.4, 0.3, 0.3)}


@dataclass(frozen=True, slots=True)
class DigitsPoint:
    """One run of every method at every ε on the digits (the whole curve is one config)."""

    epsilons: tuple
    n_neighbors: int = N_NEIGHBORS
    methods: tuple = METHODS


@functools.lru_cache(maxsize=1)
def digits_pool():
    """(neighbour order of train+test against train, y_train, y_test, n_train), computed once per process."""
    ds = load_digits()
    xtr, xte = ds.flat()
    return neighbour_order(xtr, np.concatenate([xtr, xte])), ds.y_train, ds.y_test, xtr.shape[0]


def _accuracy(model, q, y_test) -> float:
    return float(np.mean(model.predict(q) == y_test))


def method_accuracy(method: str, epsilon: float, rng, *, n_neighbors: int = N_NEIGHBORS) -> float:
    """Test accuracy of one method at one ε with labels privatized from ``rng``."""
    order, y_tr, y_te, n = digits_pool()
    K = 10
    train, q = np.arange(n), np.arange(n, n + y_te.size)
    knn = IndexedKNNClassifier(order=order, n_neighbors=n_neighbors, num_classes=K)
    if method == "RR (LP-1ST)":
        est = LPMST(learner=knn, num_classes=K, epsilon=epsilon, num_stages=1).fit(train, y_tr, rng)
        return _accuracy(est.model_, q, y_te)
    if method in _STAGES:
        fr = _STAGES[method]
        est = LPMST(learner=knn, num_classes=K, epsilon=epsilon, num_stages=len(fr), stage_fractions=fr,
                    filter_labels=True).fit(train, y_tr, rng)
        return _accuracy(est.model_, q, y_te)
    if method == "ALIBI":
        mech = ALIBI(num_classes=K, epsilon=epsilon)
        return _accuracy(knn.fit(train, mech.soft_labels(mech.sample(y_tr, rng))), q, y_te)
    if method == "vector approx.":
        mech = VectorMechanism(num_classes=K, epsilon=epsilon)
        a, b = mech.flip_probabilities()
        unbiased = (mech.sample(y_tr, rng).astype(float) - b) / (a - b)
        return _accuracy(knn.fit(train, unbiased), q, y_te)
    raise ValueError(f"method must be one of {METHODS}, got method={method!r}")


def nonprivate_accuracy(n_neighbors: int = N_NEIGHBORS) -> float:
    order, y_tr, y_te, n = digits_pool()
    knn = IndexedKNNClassifier(order=order, n_neighbors=n_neighbors, num_classes=10).fit(np.arange(n), y_tr)
    return _accuracy(knn, np.arange(n, n + y_te.size), y_te)


def digits_trial(pt: DigitsPoint, trial: int, root_seed: int) -> dict:
    """``{"accuracy": (methods, ε)}`` for one trial; all privatization from the PRIVACY stream."""
    _, privacy, _ = trial_streams(pt, trial, root_seed)
    acc = np.array([[method_accuracy(m, e, privacy, n_neighbors=pt.n_neighbors) for e in pt.epsilons]
                    for m in pt.methods])
    return {"accuracy": acc}


def eps_at_fraction(epsilons, accuracy, target: float) -> float:
    """Smallest ε where the curve first reaches ``target``, linear in log ε between grid points;
    ``inf`` if never reached, the first ε if already reached there."""
    e = np.asarray(epsilons, float)
    a = np.asarray(accuracy, float)
    hit = np.flatnonzero(a >= target)
    if hit.size == 0:
        return float("inf")
    i = int(hit[0])
    if i == 0:
        return float(e[0])
    x0, x1, y0, y1 = np.log(e[i - 1]), np.log(e[i]), a[i - 1], a[i]
    return float(np.exp(x0 + (target - y0) / (y1 - y0) * (x1 - x0)))


def _paired(acc, e_idx, m1, m2):
    d = acc[:, m1, e_idx] - acc[:, m2, e_idx]
    mean, _, n, lo, hi = t_interval(d)
    return mean, lo, hi, n


def compute(ctx) -> ExperimentResult:
    check_choice("profile", ctx.profile, tuple(_PROFILES))
    trials, extra = _PROFILES[ctx.profile]
    eps = tuple(sorted(set(REQUIRED_EPS) | set(extra))) if ctx.profile != "smoke" else (0.5, 2.0)
    pt = DigitsPoint(epsilons=eps)
    res = run_trials(digits_trial, [pt], trials, version="lp_mst_digits/v1", **engine_options(ctx))
    acc = res.per_config[0]["accuracy"]  # (trials, methods, ε)
    acc_np = nonprivate_accuracy()
    target = TARGET_FRACTION * acc_np
    table = {k: [] for k in ("method", "epsilon", "trials", "mean", "ci_low", "ci_high")}
    for j, m in enumerate(METHODS):
        for i, e in enumerate(eps):
            mean, _, n, lo, hi = t_interval(acc[:, j, i])
            for k, v in zip(table, (m, e, n, mean, lo, hi)):
                table[k].append(v)
    for k, v in zip(table, ("non-private", float("inf"), 1, acc_np, acc_np, acc_np)):
        table[k].append(v)

    e90 = np.array([[eps_at_fraction(eps, acc[t, j], target) for j in range(len(METHODS))] for t in range(trials)])
    cross = {k: [] for k in ("method", "reached_in", "trials", "eps90_mean", "eps90_ci_low", "eps90_ci_high",
                             "eps90_median")}
    cross_rows = []
    for j, m in enumerate(METHODS):
        fin = e90[:, j][np.isfinite(e90[:, j])]
        if fin.size == trials and trials > 1:
            mean, _, _, lo, hi = t_interval(fin)
        else:
            mean = lo = hi = float("nan")
        med = float(np.median(e90[:, j]))
        for k, v in zip(cross, (m, int(fin.size), trials, mean, lo, hi, med)):
            cross[k].append(v)
        cross_rows.append((m, fin.size, mean, lo, hi, med))

    claims = []
    if ctx.profile != "smoke":
        i1 = eps.index(1.0)
        # ε where the comparison is resolved by the trials (ε = 2 differences are within ~1 point and
        # their sign is seed-dependent at 20 trials; they are in the table and CSV). Two kinds of claim,
        # each chosen so that it does not flip between holds and fails with --seed (checked at seeds 0, 1, 2):
        #   "improves": the paired 95% CI lies above 0 (gaps of 6-17 points, CI half-width ~3-5 points);
        #     LP-3ST vs LP-2ST at ε = 1 (a gap of ~5-8 points, per-trial sd ~0.14) is resolved at some seeds
        #     and not at others with 20 trials: there it holds or is inconclusive (it was a weaker
        #     "CI reaches above 0" claim before the one rule of issue 23);
        #   "material": the CI lies above +0.005 (004 reports gains of 1-2 points; at ε = 4 the true gap is
        #     ~0, so a plain "CI above 0" test would come out True at ~2.5 % of seeds).
        for m_hi, m_lo, paper, e, kind in (
                ("LP-2ST", "RR (LP-1ST)", "004 Tables 1, 4, 5: LP-2ST improves on LP-1ST at every ε reported", 0.5, "improves"),
                ("LP-2ST", "RR (LP-1ST)", "004 Tables 1, 4, 5: LP-2ST improves on LP-1ST at every ε reported", 1.0, "improves"),
                ("LP-2ST", "RR (LP-1ST)", "004 Tables 1, 4, 5: LP-2ST improves on LP-1ST at every ε reported", 4.0, "material"),
                ("LP-3ST", "LP-2ST", "004 Figure 1(a): LP-3ST improves on LP-2ST by 1-2 %", 1.0, "improves"),
                ("LP-3ST", "LP-2ST", "004 Figure 1(a): LP-3ST improves on LP-2ST by 1-2 %", 4.0, "material")):
            ie = eps.index(e)
            mean, lo, hi, n = _paired(acc, ie, METHODS.index(m_hi), METHODS.index(m_lo))
            # the suite's one rule (simulations.stats.bound_verdict, margin 0: strict orderings): holds when the
            # CI lies above the bound, fails when it lies below, inconclusive when it straddles it
            text, bound = {
                "improves": (f"{m_hi} is more accurate than {m_lo} on digits at ε = {e:g}", 0.0),
                "material": (f"{m_hi} is more accurate than {m_lo} on digits at ε = {e:g} by at least 0.5 accuracy "
                             f"points", 0.005),
            }[kind]
            verdict = bound_verdict(bound, lo, hi, 0.0, side="at_least")
            rule = f"{verdict}; the claim holds iff the CI lies above {bound:+g}, fails iff below, else inconclusive"
            claims.append(Claim(
                claim=f"{text} ({paper})", holds=holds_from(verdict), expected=None, measured=mean,
                detail=(f"paired accuracy difference {mean:+.4f}, 95% t-CI [{lo:+.4f}, {hi:+.4f}] over {n} trials "
                        f"({rule})"
                        + ("; at ε = 4 RR already matches the non-private k-NN, so there is nothing left to gain: "
                           "004's claim does not reproduce here" if e == 4.0 else "")
                        + ("; at the quick profile's 20 trials the CI's lower end was above 0 at some seeds and "
                           "below at others: such a run is inconclusive" if m_hi == "LP-3ST" and e == 1.0 else ""))))
        best = max(range(len(METHODS)), key=lambda j: acc[:, j, i1].mean())
        claims.append(Claim(
            claim="at ε = 1 a multi-stage RRWithPrior method (LP-2ST or LP-3ST) is the most accurate of the five "
                  "(004's thesis: priors learned in earlier stages beat prior-free label randomizers)",
            holds=METHODS[best] in ("LP-2ST", "LP-3ST"), measured=float(acc[:, best, i1].mean()),
            detail="mean accuracies at ε = 1: " + ", ".join(f"{m} {acc[:, j, i1].mean():.3f}"
                                                            for j, m in enumerate(METHODS))))
        i8 = eps.index(8.0)
        worst = float(acc[:, :, i8].mean(axis=0).min())
        claims.append(Claim(
            claim="at ε = 8 every method is within 2 accuracy points of the non-private k-NN",
            holds=bool(acc_np - worst <= 0.02), expected=acc_np, measured=worst,
            detail=f"non-private {acc_np:.4f}; lowest mean at ε = 8: {worst:.4f}"))

    notes = [__doc__.split("\n\n", 1)[1].split("References")[0].strip(), "",
             f"Non-private k-NN (k = {N_NEIGHBORS}) test accuracy: **{acc_np:.4f}**; target for the crossing: "
             f"90 % of it = {target:.4f}.", "",
             "| method | " + " | ".join(f"ε={e:g}" for e in REQUIRED_EPS if e in eps) + " |",
             "|---|" + "---|" * sum(e in eps for e in REQUIRED_EPS)]
    for j, m in enumerate(METHODS):
        cells = []
        for e in REQUIRED_EPS:
            if e in eps:
                mean, _, _, lo, hi = t_interval(acc[:, j, eps.index(e)])
                cells.append(f"{mean:.3f} [{lo:.3f}, {hi:.3f}]")
        notes.append(f"| {m} | " + " | ".join(cells) + " |")
    notes += ["", f"**Beyond the paper: ε needed to reach 90 % of non-private accuracy** (per trial, log-linear "
                  f"interpolation on the grid {list(eps)}; mean with 95 % t-CI over {trials} trials):", "",
              "| method | reached in | ε₉₀ mean [95% CI] | median |", "|---|---|---|---|"]
    for m, nf, mean, lo, hi, med in cross_rows:
        notes.append(f"| {m} | {nf}/{trials} | {mean:.3f} [{lo:.3f}, {hi:.3f}] | {med:.3f} |")
    return ExperimentResult(tables={"accuracy": table, "eps90": cross}, claims=claims, notes="\n".join(notes),
                            data={"eps": eps, "acc": acc, "acc_np": acc_np, "e90": e90})


def plot(result) -> dict:
    d = result.data
    eps, acc, acc_np, e90 = d["eps"], d["acc"], d["acc_np"], d["e90"]
    fig, axes = figure(1, 2, width=4.6, title="Digits (scikit-learn, K = 10): test accuracy of a k-NN (k = 20) "
                                             "trained on privatized labels")
    ax = axes[0]
    for j, m in enumerate(METHODS):
        st = np.array([t_interval(acc[:, j, i]) for i in range(len(eps))])
        band(ax, eps, st[:, 0], st[:, 3], st[:, 4], i=j, label=m)
    ax.axhline(acc_np, color="k", lw=1, ls="--", label="non-private")
    ax.axhline(TARGET_FRACTION * acc_np, color="gray", lw=0.8, ls=":", label="90 % of non-private")
    ax.set_xscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("test accuracy (mean, 95 % CI)")
    ax.set_title("accuracy vs ε")
    ax.legend(loc="lower right", fontsize=7)
    ax = axes[1]
    for j, m in enumerate(METHODS):
        v = e90[:, j]
        fin = v[np.isfinite(v)]
        if fin.size:
            ax.scatter(np.full(fin.size, j) + np.linspace(-0.15, 0.15, fin.size), fin, s=8, color=color(j), alpha=0.6)
            ax.plot([j - 0.25, j + 0.25], [np.median(fin)] * 2, color="k", lw=1.5)
    ax.set_xticks(range(len(METHODS)))
    ax.set_xticklabels([m.replace(" (LP-1ST)", "") for m in METHODS], rotation=20, fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("ε reaching 90 % of non-private accuracy")
    ax.set_title("per-trial ε₉₀ (bar: median)")
    return {"lp_mst_digits": fig}


# Registered through simulations/experiments/catalogue.py ("lp_mst_digits"): name, what it reproduces, report order.
