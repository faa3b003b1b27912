"""The privacy ledgers of the experiments whose pipelines release labels more than once.

Each function takes a profile name and returns the experiment's :class:`~simulations.accounting.Ledger`
objects (one per pipeline it runs), declared from the compute module's own settings and docstrings;
the catalogues name them (``privacy=``). The compute modules never import this module, so a ledger
changes no configuration fingerprint (:mod:`simulations.experiments.fingerprint`).

How each pipeline's labels are released (read from the code):

* **validation labels** (``lp_mst_digits``, ``lp_mst_dynamics``, ``cluster_priors_digits``,
  ``cnn_benchmarks``, ``movielens_table3``): a label-independent split V is carved out of the
  training set, its labels are released once by K-ary RR at ε and never trained on; the methods
  train on the rest. V is a part disjoint from the training labels: parallel composition.
* **LP-MST** (004 Algorithm 3): stage t's labels are a part; stage 1 by RR, stage t >= 2 by
  RRWithPrior whose prior comes from the stage-(t-1) model, i.e. from the *other* labels: one ε
  release per label (004 Observation 4).
* **cluster priors** (004 Algorithm 4): each cluster's histogram counts the label (dlaplace(ε_p/2) on
  two counts), then RRWithPrior at ε - ε_p releases it under a prior computed from that histogram: the
  same label twice, sequential, ε_p + (ε - ε_p) = ε.
* **PCL2b** (001 Algorithm 5): ĉ (the point counts) reads no label under label DP; ŷ (the label-1
  counts) reads every label. Under 001's full DP (replace a record) both read the record: (2ε, 2δ),
  Theorem A.14.
* **data-driven bandwidth** (rates_data_driven): local tasks release each label once (the hold-out's
  use is post-processing); central tasks fit m candidates on the training labels at ε_fit/m each
  (sequential) and select on the hold-out labels at ε_select (a disjoint part).

References: 004 Algorithms 3-4, Observation 4; 001 Algorithm 5, Theorem A.14; 003 Theorems 2, 4, 6, 8;
docs/notes/accounting.md.
"""

from __future__ import annotations

from simulations.accounting import ALL, NONE, Ledger, Release

__all__ = ["cluster_priors_digits", "cnn_benchmarks", "lp_mst_digits", "lp_mst_dynamics", "metric_space_consistency",
           "movielens_table3", "rates_data_driven"]

#: the ε the learning ledgers are shown at (004 Figure 1's middle; every ε of a sweep composes alike)
SHOWN_EPSILON = 1.0


def _rr(K: int, eps: float, part: str, what: str = "RR") -> Release:
    from simulations.mechanisms import RandomizedResponse

    return Release.from_mechanism(f"{what} at ε = {eps:g}", RandomizedResponse(num_classes=K, epsilon=eps), part=part)


def _label_methods(K: int, eps: float, methods, stages: dict) -> tuple[Ledger, ...]:
    """One ledger per method: training labels by the method, validation labels by RR (disjoint)."""
    from simulations.mechanisms import VectorMechanism

    val = _rr(K, eps, "validation", "validation RR")
    out = []
    for m in methods:
        if m in stages:
            rel = [_rr(K, eps, "stage 1", "stage 1 RR")]
            rel += [Release.dp(f"stage {t} RRWithPrior at ε = {eps:g} (prior from stage {t - 1}'s model)", eps,
                               part=f"stage {t}") for t in range(2, len(stages[m]) + 1)]
        elif m.startswith("RR"):
            rel = [_rr(K, eps, "training")]
        elif m == "ALIBI":
            rel = [Release.laplace(f"ALIBI: Lap(2/ε) on the one-hot label, ε = {eps:g}", 2.0 / eps, (1.0, 1.0),
                                   part="training")]
        else:  # the vector approximation (000 eq. (12)-(13))
            rel = [Release.from_mechanism(f"vector mechanism at ε = {eps:g}", VectorMechanism(K, eps), part="training")]
        out.append(Ledger(name=f"{m}, ε = {eps:g}").record(*rel, val))
    return tuple(out)


def lp_mst_digits(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``lp_mst_digits``: each method's training release and the RR validation release.

    Parameters
    ----------
    profile : str
        The profile (the pipeline is the same at every profile).

    Returns
    -------
    tuple of Ledger
        RR, LP-2ST, LP-3ST, ALIBI, vector approximation at ε = :data:`SHOWN_EPSILON`.

    References
    ----------
    004 Algorithm 3, Observation 4; 004 eq. (1); 000 eq. (12)-(13).

    Examples
    --------
    >>> [round(led.basic()[0], 12) for led in lp_mst_digits("quick")]
    [1.0, 1.0, 1.0, 1.0, 1.0]
    >>> lp_mst_digits("quick")[1].composition
    'parallel'
    """
    from simulations.experiments.learning.lp_mst_digits import K, LP_STAGES, METHODS

    return _label_methods(K, SHOWN_EPSILON, METHODS, LP_STAGES)


def lp_mst_dynamics(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``lp_mst_dynamics``: LP-1ST and LP-2ST at ε = 2 with the RR validation release.

    Parameters
    ----------
    profile : str
        The profile (unused: the same pipeline at every profile).

    Returns
    -------
    tuple of Ledger
        LP-1ST (RR), LP-2ST.

    References
    ----------
    004 Algorithm 3, Appendices D-E (ε = 2).

    Examples
    --------
    >>> [(led.name, led.basic()[0]) for led in lp_mst_dynamics("quick")]
    [('RR (LP-1ST), ε = 2', 2.0), ('LP-2ST, ε = 2', 2.0)]
    """
    from simulations.experiments.learning.lp_mst_digits import K
    from simulations.experiments.learning.lp_mst_dynamics import CURVE_SPLIT, EPSILON

    return _label_methods(K, EPSILON, ("RR (LP-1ST)", "LP-2ST"), {"LP-2ST": (CURVE_SPLIT, 1 - CURVE_SPLIT)})


def cnn_benchmarks(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``cnn_benchmarks``: RR, LP-2ST, ALIBI, vector, each with the RR validation release.

    Parameters
    ----------
    profile : str
        The profile (unused).

    Returns
    -------
    tuple of Ledger
        One per method at ε = :data:`SHOWN_EPSILON`, K = 10.

    References
    ----------
    004 Algorithm 3, Appendix B; 000 Section 5.2.

    Examples
    --------
    >>> [led.composition for led in cnn_benchmarks("quick")]
    ['parallel', 'parallel', 'parallel', 'parallel']
    """
    return _label_methods(10, SHOWN_EPSILON, ("RR", "LP-2ST", "ALIBI", "vector"), {"LP-2ST": (0.65, 0.35)})


def movielens_table3(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``movielens_table3``: RR (LP-1ST) and LP-2ST on K = 5 rating classes, RR validation.

    Parameters
    ----------
    profile : str
        The profile (unused).

    Returns
    -------
    tuple of Ledger
        RR, LP-2ST at ε = :data:`SHOWN_EPSILON`.

    References
    ----------
    004 Section 5.1, Table 3; Algorithm 3.

    Examples
    --------
    >>> [led.basic() for led in movielens_table3("quick")]
    [(1.0, 0.0), (1.0, 0.0)]
    """
    return _label_methods(5, SHOWN_EPSILON, ("RR (LP-1ST)", "LP-2ST"), {"LP-2ST": (0.65, 0.35)})


def cluster_priors_digits(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``cluster_priors_digits``: the histogram query alone, RR, and cluster prior + RRWithPrior.

    Parameters
    ----------
    profile : str
        Reads the profile's first panel-2 ε_p.

    Returns
    -------
    tuple of Ledger
        Panel 1 (dlaplace(ε_p/2) histograms of all training labels, ε_p = 0.05, 004's value), RR at ε and
        cluster prior + RRWithPrior at ε (histogram ε_p then RRWithPrior at ε - ε_p on the fit labels,
        RR at ε on the validation labels).

    References
    ----------
    004 Algorithm 4, Section 5.2, Appendix B.

    Examples
    --------
    >>> [(led.composition, round(led.basic()[0], 12)) for led in cluster_priors_digits("quick")]
    [('single', 0.05), ('parallel', 1.0), ('parallel and sequential', 1.0)]
    """
    from simulations.experiments.learning.cluster_priors_digits import PROFILES
    from simulations.experiments.learning.lp_mst_digits import K

    eps, eps_p = SHOWN_EPSILON, PROFILES[profile].eps_p_rr[0]
    hist = Ledger(name="histogram query alone (panel 1), ε_p = 0.05").record(
        Release.discrete_laplace("cluster histograms, dlaplace(ε_p/2) on two counts", 0.05 / 2))
    val = _rr(K, eps, "validation", "validation RR")
    rr = Ledger(name=f"RR, ε = {eps:g}").record(_rr(K, eps, "training"), val)
    cp = Ledger(name=f"cluster prior + RRWithPrior, ε = {eps:g}, ε_p = {eps_p:g}").record(
        Release.discrete_laplace(f"cluster histograms, dlaplace(ε_p/2), ε_p = {eps_p:g}", eps_p / 2, part="training"),
        Release.dp(f"RRWithPrior at ε - ε_p = {eps - eps_p:g} (prior from the histogram of the same labels)",
                   eps - eps_p, part="training"), val)
    return hist, rr, cp


def metric_space_consistency(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``metric_space_consistency``: PCL2, PCL2b under label DP and under 001's full DP.

    Parameters
    ----------
    profile : str
        The profile (unused).

    Returns
    -------
    tuple of Ledger
        PCL2 (ε = 1), PCL2b label DP (ĉ reads no label: (ε, δ)), PCL2b full DP ((2ε, 2δ), 001 Theorem A.14).

    References
    ----------
    001 Algorithms 4-5, Theorem A.14.

    Examples
    --------
    >>> [led.basic() for led in metric_space_consistency("quick")]
    [(1.0, 0.0), (1.0, 1e-06), (2.0, 2e-06)]
    """
    eps, delta = 1.0, 1e-6
    pcl2 = Ledger(name="PCL2, ε = 1").record(Release.dp("noisy majority vote per cell", eps))
    c_hat = "ĉ: stability histogram of the point counts"
    y_hat = "ŷ: stability histogram of the label-1 counts"
    label = Ledger(name="PCL2b under label DP").record(Release.dp(c_hat, eps, delta, part=NONE),
                                                       Release.dp(y_hat, eps, delta))
    full = Ledger(name="PCL2b under 001's full DP").record(Release.dp(c_hat, eps, delta, part=ALL),
                                                           Release.dp(y_hat, eps, delta))
    return pcl2, label, full


def rates_data_driven(profile: str) -> tuple[Ledger, ...]:
    """Ledgers of ``rates_data_driven``: per task, the fits and the hold-out selection.

    Parameters
    ----------
    profile : {"smoke", "quick", "paper"}
        Sets the number m of candidates of the central tasks.

    Returns
    -------
    tuple of Ledger
        Local classification (vector mechanism at ε, once per label), local regression
        (Lap(2T/ε), once), central classification and regression (m fits at ε_fit/m on the training
        part, exponential selection at ε_select on the hold-out part).

    References
    ----------
    003 Theorems 2, 4, 6, 8; 003 Definition 2.

    Examples
    --------
    Central tasks: the selection's labels are disjoint from the fits', so each label sees ε/2:

    >>> [round(led.basic()[0] / case_eps, 9) for led, case_eps in zip(rates_data_driven("quick"), (1, 1e-7, 1, 1e-5))]
    [1.0, 0.5, 1.0, 0.5]
    """
    from simulations.experiments.rates.data_driven import CASES, SELECT_SHARE, T_LABEL
    from simulations.mechanisms import VectorMechanism

    out = []
    for case in CASES:
        eps = case.eps
        if case.algorithm == "local_classification":
            rel = [Release.from_mechanism(f"vector mechanism (K = 2) at ε = {eps:g}", VectorMechanism(2, eps))]
        elif case.algorithm == "local_regression":
            rel = [Release.laplace(f"Lap(2T/ε) labels, ε = {eps:g}", 2 * T_LABEL / eps, (2 * T_LABEL,))]
        else:
            m = len(case.candidates[profile])
            e_sel = SELECT_SHARE * eps
            e_fit = eps - e_sel
            rel = [Release.dp(f"candidate fit {j + 1}/{m} at ε_fit/m = {e_fit / m:.3g}", e_fit / m, part="training")
                   for j in range(m)]
            rel.append(Release.dp(f"exponential selection at ε_select = {e_sel:.3g}", e_sel, part="hold-out"))
        out.append(Ledger(name=f"{case.name}, ε = {eps:g}").record(*rel))
    return tuple(out)
