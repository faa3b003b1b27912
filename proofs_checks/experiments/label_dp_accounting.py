"""Experiment ``label_dp_accounting``: the per-label ledger (:mod:`simulations.accounting`) against exact
enumeration of whole multi-release pipelines on tiny instances.

* **LP-MST** (004 Algorithm 3, Observation 4): the ledger puts each stage in its own part (stage 1 RR
  under the uniform prior, later stages RRWithPrior with a data-dependent prior, dominated by binary
  RR at ε): parallel, ε per label. Checked against :func:`proofs_checks.accounting_check.lp_mst_profile`
  (every labelling, every output, the learner's own priors) on cases of ``lp_mst_privacy``.
* **cluster priors** (004 Algorithm 4): dlaplace(ε_p/2) histogram then RRWithPrior at ε on the same
  labels: sequential, ε_p + ε. Exact loss and profile on one cluster of n labels, K = 2.
* **PCL2b** (001 Algorithm 5, Theorem A.14): two (ε, δ) stability histograms; under 001's full DP both
  read the record ((2ε, 2δ), checked by :func:`proofs_checks.full_dp.full_dp_pcl2b`), under label DP the
  point counts ĉ read no label ((ε, δ), checked by :func:`proofs_checks.accounting_check.pcl2b_label_profile`).
* **k releases through one channel**: dp_accounting's PLD composition and the ledger's exact
  convolution against the enumerated k-fold product channel; 100 binary RR releases against the
  binomial law of their loss, where the tight accountant beats basic composition.

Everything is exact arithmetic on enumerations (no randomness: the verdicts do not depend on the seed);
the PLD is dp_accounting's pessimistic discretization (an upper bound within :data:`PLD_TOL`).

References: 004 Algorithms 2-4, Observation 4; 001 Algorithm 5, Theorem A.14, Definition 1.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations.experiments.base import Claim, ExperimentResult, ExperimentSkipped

__all__ = ["PLD_TOL", "PROFILES", "Profile", "compute", "plot"]

#: δ at which ε is compared in the table and the plot (PCL2b: its own 2δ / δ)
DELTA = 1e-5
#: ε' grid points per profile comparison (0 .. the basic ε)
GRID = 41
#: largest excess of the PLD's δ over the exact one: dp_accounting rounds each loss up to a multiple of
#: the interval (1e-4 here), so δ_pld(ε') <= δ(ε' - k 1e-4) and the excess is at most k 1e-4 e^{ε'} in mass
#: terms; the quick cases show at most 5.2e-5, the paper cases (up to 10 releases) 1.9e-4
PLD_TOL = 1e-3
#: float tolerance of exact-vs-exact comparisons
EXACT_TOL = 1e-12
#: many releases of one label: (k, ε) of binary RR; the tight accountant against the binomial law
MANY = (100, 0.1)


@dataclass(frozen=True, slots=True)
class Profile:
    """The cases one profile checks.

    Parameters
    ----------
    rr_cases : tuple of (int, int, float, str)
        (K, releases k, ε, channel): ``"rr"`` K-ary randomized response, ``"vector"`` the K-bit vector
        mechanism, composed k times.
    lp_mst_cases : tuple of tuple
        (label, learner, K, n, stages, ε, T, temperature, filter): tiny LP-MST instances (those of the
        ``lp_mst_privacy`` experiment without its planted leaks).
    cluster_cases : tuple of (int, int, float, float)
        (K, labels n in the cluster, ε_p, ε of RRWithPrior).
    pcl2b_cases : tuple of (float, float, int, int)
        (ε, δ) of PCL2b's histograms, records of the full-DP datasets, largest cell count of the label-DP check.

    References
    ----------
    004 Algorithms 3-4; 001 Algorithm 5.

    Examples
    --------
    >>> [case[0] for case in PROFILES["quick"].lp_mst_cases]
    ['LP-2ST, 1-NN, K=3', 'LP-3ST, 2-NN, K=2, filter', 'LP-2ST, logistic, K=3, t=2']
    """

    rr_cases: tuple
    lp_mst_cases: tuple
    cluster_cases: tuple
    pcl2b_cases: tuple


#: (label, learner, K, n, stages, ε, T, temperature, filter) of the LP-MST instances
_LP = (("LP-2ST, 1-NN, K=3", "knn1", 3, 4, (0, 1, 0, 1), 1.0, 2, 1.0, False),
       ("LP-2ST, 2-NN, K=3, ε=0.1", "knn2", 3, 4, (0, 1, 0, 1), 0.1, 2, 1.0, False),
       ("LP-2ST, 2-NN, K=3, ε=3", "knn2", 3, 4, (0, 1, 0, 1), 3.0, 2, 1.0, False),
       ("LP-3ST, 2-NN, K=2, filter", "knn2", 2, 6, (0, 1, 2, 0, 1, 2), 1.0, 3, 1.0, True),
       ("LP-3ST, logistic, K=2, t=0.5, filter", "logistic", 2, 6, (0, 1, 2, 0, 1, 2), 1.0, 3, 0.5, True),
       ("LP-2ST, logistic, K=3, t=2", "logistic", 3, 4, (0, 0, 1, 1), 0.5, 2, 2.0, False))

PROFILES = {
    "smoke": Profile(rr_cases=((2, 3, 1.0, "rr"),), lp_mst_cases=_LP[:1], cluster_cases=((2, 2, 1.0, 0.5),),
                     pcl2b_cases=((1.0, 0.1, 6, 6),)),
    "quick": Profile(rr_cases=((2, 4, 1.0, "rr"), (3, 3, 0.5, "rr"), (4, 2, 2.0, "rr"), (3, 2, 1.0, "vector")),
                     lp_mst_cases=(_LP[0], _LP[3], _LP[5]),
                     cluster_cases=((2, 1, 1.0, 0.5), (2, 2, 1.0, 0.5), (2, 3, 1.0, 1.0)),
                     pcl2b_cases=((1.0, 0.1, 8, 8), (2.0, 0.1, 8, 8))),
    "paper": Profile(rr_cases=((2, 4, 1.0, "rr"), (3, 3, 0.5, "rr"), (4, 2, 2.0, "rr"), (3, 2, 1.0, "vector"),
                               (2, 10, 0.3, "rr"), (3, 6, 0.5, "rr"), (4, 3, 1.0, "vector")),
                     lp_mst_cases=_LP,
                     cluster_cases=((2, 1, 1.0, 0.5), (2, 2, 1.0, 0.5), (2, 3, 1.0, 1.0), (2, 2, 0.5, 1.0),
                                    (2, 3, 2.0, 0.5)),
                     pcl2b_cases=((1.0, 0.1, 8, 12), (2.0, 0.1, 8, 12))),
}


class _Collector:
    """The rows of the two tables and the plot's bars, filled pipeline by pipeline."""

    def __init__(self):
        self.acc = {k: [] for k in ("pipeline", "basic_epsilon", "basic_delta", "delta", "tight_epsilon", "exact_epsilon")}
        self.prof = {k: [] for k in ("pipeline", "epsilon_prime", "exact_delta", "ledger_delta")}
        self.bars = []

    def row(self, name, led, d, tight, exact):
        for k, v in zip(self.acc, (name, *led.basic(), d, tight, exact)):
            self.acc[k].append(v)
        self.bars.append((name, led.basic()[0], tight, exact))

    def curve(self, name, grid, exact, ledger):
        for e, x, y in zip(grid, exact, ledger):
            for k, v in zip(self.prof, (name, float(e), float(x), float(y))):
                self.prof[k].append(v)


def _grid(top: float) -> np.ndarray:
    return np.linspace(0.0, top, GRID)


def _ledger_profile(led, eps, method):
    return np.array([led.delta(float(e), method=method) for e in eps])


def _rr_part(profile):
    """PLD and exact convolution against the enumerated k-fold product channel."""
    from proofs_checks.accounting_check import product_profile
    from simulations.accounting import Ledger, Release
    from simulations.mechanisms import RandomizedResponse, VectorMechanism

    rows, dev_pld, dev_exact = [], 0.0, 0.0
    for K, k, eps, kind in PROFILES[profile].rr_cases:
        mech = RandomizedResponse(K, eps) if kind == "rr" else VectorMechanism(K, eps)
        rel = Release.from_mechanism(f"{kind} K={K}", mech)
        led = Ledger(name=f"{k} x {kind}").record(*[rel] * k)
        grid = _grid(led.basic()[0])
        enum = product_profile(mech.channel_matrix(), k, grid)
        pld, ex = _ledger_profile(led, grid, "pld"), _ledger_profile(led, grid, "exact")
        lo, hi = float((pld - enum).min()), float((pld - enum).max())
        dev_pld = max(dev_pld, hi if lo >= -EXACT_TOL else math.inf)  # below the exact δ: not an upper bound
        dev_exact = max(dev_exact, float(np.abs(ex - enum).max()))
        rows.append((f"{k} x {'RR' if kind == 'rr' else 'vector'} (K = {K}, ε = {eps:g})", led, enum, pld, ex, grid))
    return rows, dev_pld, dev_exact


def _many_part():
    """k binary RR releases: PLD ε(δ) against the binomial law of the loss, and basic composition."""
    from scipy import stats

    from proofs_checks.accounting_check import epsilon_for_delta
    from simulations.accounting import Ledger, Release

    k, eps = MANY
    led = Ledger(name=f"{k} x binary RR").record(*[Release.dp(f"RR {i}", eps) for i in range(k)])
    p = math.exp(eps) / (1 + math.exp(eps))
    b = np.arange(k + 1)
    pmf, loss = stats.binom.pmf(b, k, p), eps * (2 * b - k)

    def exact(e):
        return float(np.sum(pmf * np.maximum(0.0, -np.expm1(e - loss))))

    return led, led.epsilon(DELTA, method="pld"), epsilon_for_delta(exact, DELTA, high=k * eps)


def _lp_mst_part(profile):
    from proofs_checks.accounting_check import epsilon_for_delta, max_loss_from_log, profile_from_log
    from proofs_checks.lp_mst_check import lp_mst_log_probabilities, tiny_learner
    from simulations.accounting import Ledger, Release
    from simulations.learning import LPMST
    from simulations.mechanisms import RRWithPrior

    rows = []
    for label, lname, K, n, stages, eps, T, temp, filt in PROFILES[profile].lp_mst_cases:
        est = LPMST(learner=tiny_learner(lname, K), num_classes=K, epsilon=eps, num_stages=T, temperature=temp,
                    filter_labels=filt)
        X, st = np.arange(float(n))[:, None], np.array(stages)
        led = Ledger(name=label).record(
            Release.from_mechanism("stage 1: RRWithPrior, uniform prior", RRWithPrior(K, eps), np.full(K, 1 / K),
                                   part="stage 1"),
            *[Release.dp(f"stage {t}: RRWithPrior, prior from stage {t - 1}", eps, part=f"stage {t}")
              for t in range(2, T + 1)])
        grid, logp = _grid(eps), lp_mst_log_probabilities(est, X, st)
        exact, loss = profile_from_log(logp, grid), max_loss_from_log(logp)
        e_exact = epsilon_for_delta(lambda e: float(profile_from_log(logp, [e])[0]), DELTA, high=eps, tol=1e-7)
        rows.append((label, led, loss, exact, _ledger_profile(led, grid, "exact"), _ledger_profile(led, grid, "pld"),
                     grid, e_exact))
    return rows


def _cluster_part(profile):
    from proofs_checks.accounting_check import (TAIL, cluster_prior_log_probabilities, epsilon_for_delta,
                                                max_loss_from_log, profile_from_log)
    from simulations.accounting import Ledger, Release

    rows = []
    for K, n, eps_p, eps in PROFILES[profile].cluster_cases:
        led = Ledger(name=f"cluster of {n}, ε_p = {eps_p:g}, ε = {eps:g}").record(
            Release.discrete_laplace("histogram", eps_p / 2), Release.dp("RRWithPrior", eps))
        grid = _grid(eps_p + eps)
        logp = cluster_prior_log_probabilities(K, n, eps_p, eps)
        exact, loss = profile_from_log(logp, grid), max_loss_from_log(logp)
        e_exact = epsilon_for_delta(lambda e: float(profile_from_log(logp, [e])[0]), DELTA, high=loss, tol=1e-7)
        rows.append((led.name, led, loss, exact + TAIL, _ledger_profile(led, grid, "exact"), grid, e_exact, n))
    return rows


def _pcl2b_part(profile):
    from proofs_checks.accounting_check import epsilon_for_delta, pcl2b_label_profile
    from proofs_checks.full_dp import full_dp_pcl2b
    from simulations.accounting import ALL, NONE, Ledger, Release

    rows = []
    for eps, delta, size, max_count in PROFILES[profile].pcl2b_cases:
        full = Ledger(name=f"PCL2b full DP ({eps:g}, {delta:g})").record(
            Release.dp("ĉ", eps, delta, part=ALL), Release.dp("ŷ", eps, delta))
        label = Ledger(name=f"PCL2b label DP ({eps:g}, {delta:g})").record(
            Release.dp("ĉ", eps, delta, part=NONE), Release.dp("ŷ", eps, delta))
        ex_full = full_dp_pcl2b(eps, delta, num_cells=2, dataset_size=size).delta_actual
        ex_label = float(pcl2b_label_profile(eps, delta, max_count, [eps])[0])
        e_full = epsilon_for_delta(lambda e: full_dp_pcl2b(eps, delta, num_cells=2, dataset_size=size,
                                                           claimed_epsilon=max(e, 1e-12)).delta_actual,
                                   2 * delta, high=2 * eps, tol=1e-6)
        e_label = epsilon_for_delta(lambda e: float(pcl2b_label_profile(eps, delta, max_count, [e])[0]), delta,
                                    high=eps, tol=1e-6)
        rows.append((eps, delta, size, max_count, full, label, ex_full, ex_label, e_full, e_label))
    return rows


def _lp_mst_claims(profile, col) -> list[Claim]:
    """004 Observation 4: the ledger's ε equals the exact loss, its profile bounds the exact one."""
    from proofs_checks.channels import is_tight

    lp = _lp_mst_part(profile)
    ok = True
    for label, led, loss, exact, l_exact, l_pld, grid, e_exact in lp:
        ok &= bool(is_tight(loss, led.basic()[0]) and np.all(exact <= l_exact + EXACT_TOL)
                   and np.all(exact <= l_pld + EXACT_TOL))
        col.row(f"LP-MST: {label}", led, DELTA, led.epsilon(DELTA), e_exact)
        col.curve(f"LP-MST: {label}", grid, exact, l_exact)
    return [Claim(
        claim="004 Observation 4: LP-MST is ε-label DP; the ledger (each stage a disjoint part: parallel "
              "composition) gives ε, equal to the exact loss of the whole pipeline, and its δ(ε') bounds the exact profile",
        holds=ok, expected=lp[0][1].basic()[0], measured=lp[0][2], kind="paper",
        detail="; ".join(f"{lab}: exact loss {loss:.12g}, ledger ε {led.basic()[0]:g}, max exact - ledger δ over "
                         f"{GRID} ε' in [0, ε]: {float((ex - le).max()):.3g}; ε at δ = {DELTA:g}: exact {ee:.6g}, "
                         f"ledger {led.epsilon(DELTA):.6g}" for lab, led, loss, ex, le, _, _, ee in lp))]


def _cluster_claims(profile, col) -> list[Claim]:
    """004 Algorithm 4: exact loss <= ε_p + ε (paper); attained once a cluster holds two labels (beyond)."""
    from proofs_checks.channels import is_tight, within

    cl = _cluster_part(profile)
    ok = all(within(loss, led.basic()[0]) and np.all(ex - led_d <= EXACT_TOL) for _, led, loss, ex, led_d, *_ in cl)
    for name, led, loss, ex, led_d, grid, e_exact, n in cl:
        col.row(f"cluster priors: {name}", led, DELTA, led.epsilon(DELTA), e_exact)
        col.curve(f"cluster priors: {name}", grid, ex, led_d)
    claims = [Claim(
        claim="004 Algorithm 4 / Section 5.2: the cluster histogram at ε_p then RRWithPrior at ε on the same labels "
              "is (ε_p + ε)-label DP (sequential composition, the ledger's basic total); exact enumeration on one cluster",
        holds=bool(ok), expected=cl[-1][1].basic()[0], measured=cl[-1][2], kind="paper",
        detail="; ".join(f"{name}: exact loss {loss:.9g} <= ε_p + ε = {led.basic()[0]:g}" for name, led, loss, *_ in cl)
        + "; outputs (noisy histogram, privatized labels), histogram window with outside mass < 1e-15")]
    multi = [(name, led, loss) for name, led, loss, *_, n in cl if n >= 2]
    single = [(name, led, loss) for name, led, loss, *_, n in cl if n == 1]
    if multi:
        claims.append(Claim(
            claim="basic composition ε_p + ε is attained by cluster priors (exact loss = ε_p + ε) once a cluster "
                  "holds two labels",
            holds=all(is_tight(loss, led.basic()[0]) for _, led, loss in multi), expected=multi[0][1].basic()[0],
            measured=multi[0][2], kind="beyond",
            detail="; ".join(f"{name}: exact loss {loss:.9g}" for name, led, loss in multi)
            + "".join(f"; with a single label ({name}) it is loose: exact loss {loss:.9g} = max(ε_p, ε), the "
                      "histogram's full ratio needs a count <= 0, which makes the prior one-hot" for name, _, loss in single)))
    return claims


def _pcl2b_claims(profile, col) -> list[Claim]:
    """001 Theorem A.14 under full DP (paper) and PCL2b's (ε, δ) under label DP (beyond)."""
    pc = _pcl2b_part(profile)
    for eps, delta, size, mc, full, label, ex_full, ex_label, e_full, e_label in pc:
        # the ledger's ε at exactly its own δ sits on the PLD's infinity mass: asked a hair above it
        col.row(f"PCL2b full DP, ({eps:g}, {delta:g}) histograms", full, 2 * delta, full.epsilon(2 * delta * (1 + 1e-9)),
                e_full)
        col.row(f"PCL2b label DP, ({eps:g}, {delta:g}) histograms", label, delta, label.epsilon(delta * (1 + 1e-9)),
                e_label)
    return [Claim(
        claim="001 Theorem A.14: PCL2b (two (ε, δ) stability histograms) is (2ε, 2δ)-DP; the ledger's basic total under "
              "001's full DP is (2ε, 2δ) and the exact δ at 2ε is at most 2δ",
        holds=all(np.allclose(f.basic(), (2 * e, 2 * d), rtol=1e-12, atol=0) and x <= 2 * d * (1 + 1e-9)
                  for e, d, _, _, f, _, x, *_ in pc),
        expected=2 * pc[-1][1], measured=pc[-1][6], kind="paper",
        detail="; ".join(f"(ε, δ) = ({e:g}, {d:g}), {s} records over 2 cells: exact δ(2ε) = {x:.6g}, exact ε at δ = 2δ: "
                         f"{ef:.6g} (ledger basic 2ε = {2 * e:g})" for e, d, s, _, _, _, x, _, ef, _ in pc)), Claim(
        claim="under label DP PCL2b is (ε, δ)-label DP, not only (2ε, 2δ): the point counts ĉ read no label "
              "(ledger part 'none'), and the exact label-only δ(ε) is at most δ",
        holds=all(np.allclose(lab.basic(), (e, d), rtol=1e-12, atol=0) and x <= d * (1 + 1e-9)
                  for e, d, _, _, _, lab, _, x, *_ in pc),
        expected=pc[-1][1], measured=pc[-1][7], kind="beyond",
        detail="; ".join(f"(ε, δ) = ({e:g}, {d:g}), cells of 1..{mc} points: exact label-only δ(ε) = {x:.6g}, ε at δ: "
                         f"{el:.6g}" for e, d, _, mc, _, _, _, x, _, el in pc))]


def _composition_claims(profile, col) -> list[Claim]:
    """PLD and exact convolution vs the enumerated product channel; tight vs basic for many releases."""
    rr, dev_pld, dev_exact = _rr_part(profile)
    for name, led, enum, pld, ex, grid in rr:
        col.curve(name, grid, enum, pld)
    claims = [Claim(
        claim="dp_accounting's PLD composition of k releases of one label through a finite channel (max over "
              "neighbouring label pairs after composing) bounds the enumerated k-fold product channel's δ(ε') from "
              f"above within {PLD_TOL:g}, and the ledger's exact convolution equals it within {EXACT_TOL:g}",
        holds=bool(dev_pld <= PLD_TOL and dev_exact <= EXACT_TOL), expected=0.0, measured=dev_pld, kind="beyond",
        detail=f"largest PLD - enumeration over {len(rr)} cases x {GRID} ε': {dev_pld:.3g} (a negative excess beyond "
               f"{EXACT_TOL:g} would count as a failure); largest |exact convolution - enumeration|: {dev_exact:.3g}; "
               + ", ".join(name for name, *_ in rr))]
    led, tight, exact = _many_part()
    col.row(led.name + f" at ε = {MANY[1]:g}", led, DELTA, tight, exact)
    claims.append(Claim(
        claim=f"the tight accountant improves on basic composition: {MANY[0]} binary RR releases at ε = {MANY[1]:g} of "
              f"one label are (ε', {DELTA:g})-DP at ε' well below the basic {MANY[0] * MANY[1]:g}, matching the "
              "binomial law of the loss",
        holds=bool(tight < 0.5 * led.basic()[0] and exact <= tight <= exact + 0.01), expected=exact, measured=tight,
        kind="beyond",
        detail=f"PLD ε({DELTA:g}) = {tight:.6g}, exact (bisection on the binomial sum) {exact:.6g}, basic "
               f"{led.basic()[0]:g}; margin 0.01 = the discretization (1e-4) times {MANY[0]} releases"))
    return claims


def skip_reason(ctx) -> str | None:
    """Why :func:`compute` would be skipped here: dp_accounting (the ``accounting`` extra) is not installed.

    Parameters
    ----------
    ctx : RunContext
        The run's context (not read).

    Returns
    -------
    str or None
        The install hint, or None when ``import dp_accounting`` would succeed (checked without importing it).

    References
    ----------
    docs/design.md, "Ecosystem notes" (optional extras, imported lazily).

    Examples
    --------
    >>> import importlib.util
    >>> (skip_reason(None) is None) == (importlib.util.find_spec("dp_accounting") is not None)
    True
    """
    import importlib.util

    from simulations.accounting import INSTALL_HINT

    return None if importlib.util.find_spec("dp_accounting") is not None else INSTALL_HINT


def compute(ctx) -> ExperimentResult:
    """The ledger's per-label totals against exact enumeration, per pipeline.

    Parameters
    ----------
    ctx : RunContext
        Only the profile is read (its cases: :data:`PROFILES`); nothing is random.

    Returns
    -------
    ExperimentResult
        Table ``accounting`` (pipeline, basic ε, basic δ, δ of the comparison, tight ε, exact ε) and
        ``profiles`` (pipeline, ε', exact δ, ledger δ); paper claims (004 Observation 4, 004 Algorithm 4,
        001 Theorem A.14) and beyond claims (PLD vs enumeration, tight vs basic, cluster priors'
        tightness, PCL2b under label DP); ``data["bars"]`` for :func:`plot`.

    Raises
    ------
    ExperimentSkipped
        If dp_accounting is not installed.

    References
    ----------
    004 Algorithms 2-4, Observation 4; 001 Algorithm 5, Theorem A.14.

    Examples
    --------
    The smoke profile (a few CPU seconds) checks one case of each pipeline; every claim holds:

    >>> from simulations.experiments.base import RunContext
    >>> res = compute(RunContext(profile="smoke"))
    >>> [(c.kind, c.holds) for c in res.claims][:3]
    [('paper', True), ('paper', True), ('beyond', True)]
    """
    from simulations.accounting import load_dp_accounting

    try:
        load_dp_accounting()
    except ImportError as err:
        raise ExperimentSkipped(str(err)) from err
    col = _Collector()
    claims = (_lp_mst_claims(ctx.profile, col) + _cluster_claims(ctx.profile, col) + _pcl2b_claims(ctx.profile, col)
              + _composition_claims(ctx.profile, col))
    acc = col.acc
    notes = [__doc__.split("\n\n", 1)[1].split("References")[0].strip(), "",
             "| pipeline | basic (ε, δ) | δ | tight ε (ledger) | exact ε |", "|---|---|---|---|---|"]
    notes += [f"| {a} | ({b:.4g}, {c:.3g}) | {d:.3g} | {e:.6g} | {f:.6g} |" for a, b, c, d, e, f in zip(*acc.values())]
    return ExperimentResult(tables={"accounting": acc, "profiles": col.prof}, claims=claims, notes="\n".join(notes),
                            data={"bars": col.bars})


def plot(result) -> dict:
    """Per pipeline: basic, tight (ledger) and exact ε at the comparison δ, side by side.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["bars"]``).

    Returns
    -------
    dict
        ``{"label_dp_accounting": matplotlib.figure.Figure}``.

    References
    ----------
    004 Observation 4, Algorithm 4; 001 Theorem A.14.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from simulations.experiments.base import ExperimentResult
    >>> figs = plot(ExperimentResult(data={"bars": [("RR", 1.0, 0.99, 0.99)]}))
    >>> list(figs)
    ['label_dp_accounting']
    >>> plt.close(figs["label_dp_accounting"])
    """
    from simulations.plotting import color, figure

    bars = result.data["bars"]
    fig, axes = figure(1, 1, width=8.0, height=0.42 * len(bars) + 1.4,
                       title="Per-label ε: basic composition vs tight ledger vs exact enumeration")
    ax = axes[0]
    y = np.arange(len(bars))
    for j, (what, h) in enumerate((("basic", 1), ("tight (ledger, PLD)", 2), ("exact (enumeration)", 3))):
        vals = [b[h] if math.isfinite(b[h]) else np.nan for b in bars]
        ax.barh(y + (j - 1) * 0.27, vals, height=0.26, color=color(j), label=what)
    ax.set_yticks(y, [b[0] for b in bars], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("ε at the row's δ (1e-5; PCL2b: 2δ full DP, δ label DP)")
    ax.legend(fontsize=7, loc="lower right")
    return {"label_dp_accounting": fig}
