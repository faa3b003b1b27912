"""The experiments of the ``simulations`` layer, as data: name, what each reproduces, its report order.

``compute`` / ``plot`` are ``"package.module:function"`` references that
:class:`~simulations.experiments.base.Experiment` imports on first use, so this list (and
``paper_repro.py --list``) costs no import of the topic modules or of numpy, scipy, sympy, numba,
matplotlib or torch. ``simulations/experiments/__init__.py`` registers these records; the topic
modules only define the functions. The topic modules are grouped by subject in sub-packages: ``rates``
(003), ``vector`` (000), ``consistency`` (001), ``learning`` (004 and 000 Section 5.2). A new
experiment: write ``compute(ctx)`` and ``plot(result)`` in ``simulations/experiments/<subject>/<topic>.py``
and add its record here, with ``_ref("<subject>.<topic>", "compute")`` (``tests/test_experiment_catalogue.py``
checks that every reference resolves).

The entries are in the order the topic modules were registered before this catalogue existed; the
report orders them by ``(order, name)``.
"""

from __future__ import annotations

from .base import Experiment

__all__ = ["EXPERIMENTS"]


def _ref(module: str, function: str) -> str:
    return f"simulations.experiments.{module}:{function}"


def _ledger(function: str) -> str:
    """The experiment's privacy ledgers (:mod:`simulations.experiments.ledgers`, never imported by compute modules)."""
    return f"simulations.experiments.ledgers:{function}"


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        name="rates_table",
        reproduces="003 Table 1 (minimax rates under local / central / local-full label DP) and the exponent "
                   "relations of Sections 1, 4-6",
        compute=_ref("rates.table", "compute"), plot=_ref("rates.table", "plot"), order=0),
    Experiment(
        name="rates_local_classification",
        reproduces="003 Table 1 (classification, local label DP): excess risk ≍ (N(ε²∧1))^{-β(γ+1)/(2β+d)}, "
                   "Theorems 1–2",
        compute=_ref("rates.classification", "compute_local"), plot=_ref("rates.classification", "plot_local"),
        order=20),
    Experiment(
        name="rates_local_full_dp",
        reproduces="003 Remark 1(2) and Table 1 (classification, local full DP): a learner privatizing the joint "
                   "(cell, label), excess risk ≍ (Nε²)^{-β(γ+1)/(2β+2d)}, against the printed cell",
        compute=_ref("rates.local_full_dp", "compute"), plot=_ref("rates.local_full_dp", "plot"), order=24),
    Experiment(
        name="rates_central_classification",
        reproduces="003 Table 1 (classification, central label DP): privacy term (εN)^{-β(γ+1)/(β+d)}, Theorems 3–4",
        compute=_ref("rates.classification", "compute_central"), plot=_ref("rates.classification", "plot_central"),
        order=21),
    Experiment(
        name="rates_local_regression",
        reproduces="003 Table 1 (regression, bounded noise, local label DP): (N(ε²∧1))^{-2β/(d+2β)}, Theorems 5–6",
        compute=_ref("rates.regression", "compute_local"), plot=_ref("rates.regression", "plot_local"), order=22),
    Experiment(
        name="rates_central_regression",
        reproduces="003 Theorems 7–8 (regression, bounded noise, central label DP): privacy term (εN)^{-2β/(d+β)}",
        compute=_ref("rates.regression", "compute_central"), plot=_ref("rates.regression", "plot_central"),
        order=23),
    Experiment(
        name="rates_heavy_tailed",
        reproduces="003 Table 1 (regression, heavy-tailed labels): local (Nε²)^{-2β(p−1)/(2pβ+d(p−1))}, central "
                   "(εN)^{-2β(p−1)/(pβ+d(p−1))}, Theorems 9–12",
        compute=_ref("rates.heavy_tailed", "compute"), plot=_ref("rates.heavy_tailed", "plot"), order=24),
    Experiment(
        name="rates_eps_collapse",
        reproduces="003 Remark 1(1) and below Theorem 8: local risk depends on (N, ε) through Nε²; the central "
                   "privacy term fades with N",
        compute=_ref("rates.epsilon", "compute_collapse"), plot=_ref("rates.epsilon", "plot_collapse"), order=25),
    Experiment(
        name="rates_local_vs_central",
        reproduces="003 Table 1 rows Local / Central / Non-private: risk vs ε at fixed N",
        compute=_ref("rates.epsilon", "compute_vs"), plot=_ref("rates.epsilon", "plot_vs"), order=26),
    Experiment(
        name="rates_upper_bound",
        reproduces="003 Theorems 2, 4, 8, 12 as upper bounds: worst excess risk over laws not tied to the "
                   "estimator's h decays at least at the Table 1 rate",
        compute=_ref("rates.upper", "compute"), plot=_ref("rates.upper", "plot"), order=27),
    Experiment(
        name="rates_data_driven",
        reproduces="003 Table 1 with h chosen from data: privatized hold-out selection (local: debiased hold-out "
                   "risk; central: exponential-mechanism selection, ε = ε_fit + ε_select) for Theorems 2, 4, 6, 8 on "
                   "fixed smooth laws, slopes vs the pinned-h and oracle-h slopes",
        compute=_ref("rates.data_driven", "compute"), plot=_ref("rates.data_driven", "plot"), order=28, privacy=_ledger("rates_data_driven")),
    Experiment(
        name="rates_k_gamma",
        reproduces="003 Theorems 2 and 4 beyond K = 2, γ = 1: N-exponents β(γ+1)/(2β+d) (local, eq. (14)) and "
                   "β(γ+1)/(β+d) (central privacy term, eq. (18)) at γ ∈ {0.5, 1, 2}; growth of the risk in K at "
                   "fixed N against the (ln K) factor of eqs. (14)/(18); Assumption 1(b) of a K-class construction",
        compute=_ref("rates.k_gamma", "compute"), plot=_ref("rates.k_gamma", "plot"), order=29),
    # 000 Figures 2-4: the text is vector.approximation.figure_reproduces(fig), i.e. (ε, k) = its FIGURES[fig]
    # (a test keeps them equal).
    Experiment(
        name="vector_fig2",
        reproduces="000 Section 5.1 / Appendix A, Figure 2 (ε = 1, k = 200): RR, LP-2ST, ALIBI and vector "
                   "approximation vs K",
        compute=_ref("vector.approximation", "compute_fig2"), plot=_ref("vector.approximation", "plot_fig2"), order=60),
    Experiment(
        name="vector_fig3",
        reproduces="000 Section 5.1 / Appendix A, Figure 3 (ε = 2, k = 100): RR, LP-2ST, ALIBI and vector "
                   "approximation vs K",
        compute=_ref("vector.approximation", "compute_fig3"), plot=_ref("vector.approximation", "plot_fig3"), order=61),
    Experiment(
        name="vector_fig4",
        reproduces="000 Section 5.1 / Appendix A, Figure 4 (ε = 1, k = 100): RR, LP-2ST, ALIBI and vector "
                   "approximation vs K",
        compute=_ref("vector.approximation", "compute_fig4"), plot=_ref("vector.approximation", "plot_fig4"), order=62),
    Experiment(
        name="vector_theorem2",
        reproduces="000 Theorem 2 (eq. (20)) and Appendix B.1 eq. (34): kNN approximation error Δ and excess risk "
                   "of the vector approximation vs their bounds, over K and N",
        compute=_ref("vector.theorem2", "compute"), plot=_ref("vector.theorem2", "plot"), order=63),
    Experiment(
        name="vector_nn_approximation",
        reproduces="000 Appendix B.2 (eq. (39), (43)) and Section 4.2: Δ(x) of a sigmoid/BCE network trained on the "
                   "vector mechanism's bits against K and N, beside kNN's (Appendix B.1); needs torch",
        compute=_ref("vector.neural_network", "compute"), plot=_ref("vector.neural_network", "plot"), order=64,
        skip=_ref("vector.neural_network", "skip_reason")),
    Experiment(
        name="vector_crossover",
        reproduces="beyond the papers (002 Limitations: asymmetric flipping): from which K the symmetric (000 eq. "
                   "(12)-(13)) and asymmetric vector mechanisms beat RR, ε ∈ {0.5, 1, 2, 4}, 000's circle classes",
        compute=_ref("vector.crossover", "compute"), plot=_ref("vector.crossover", "plot"), order=64),
    Experiment(
        name="advisor_validation",
        reproduces="beyond the papers: limits.advise's recommended mechanism (RR, symmetric or asymmetric vector; "
                   "000 eq. (12)-(13), (24), 004 eq. (1), 002 Limitations) against the kNN's measured best over "
                   "(K, ε, N) in 000 Section 5.1's synthetic setting",
        compute=_ref("vector.advisor_validation", "compute"), plot=_ref("vector.advisor_validation", "plot"),
        order=65),
    Experiment(
        name="bayes_consistency",
        reproduces="001 Theorems 1.5 / 3.2: PCL (Algorithm 2) is universally consistent; excess error -> 0 on "
                   "smooth, discontinuous and rough η, d = 1..3, ε ∈ {0.1, 1}, vs the non-private histogram rule",
        compute=_ref("consistency.bayes_consistency", "compute"), plot=_ref("consistency.bayes_consistency", "plot"), order=60),
    Experiment(
        name="thresholds_contrast",
        reproduces="001 Section 1 (Theorem 1.5 vs the impossibility of private PAC learning of thresholds): PCL's "
                   "excess error vanishes for each fixed threshold law but its worst case over the family does not",
        compute=_ref("consistency.thresholds_contrast", "compute"), plot=_ref("consistency.thresholds_contrast", "plot"), order=61),
    Experiment(
        name="private_density_estimation",
        reproduces="001 Theorems 1.7 / 4.3: PCDE (Algorithm 3, stability histogram over cubes) is an (ε, δ)-DP "
                   "universally consistent density estimator on R^d, heavy tails included; Remark 4.1",
        compute=_ref("consistency.density_estimation", "compute"), plot=_ref("consistency.density_estimation", "plot"), order=62),
    Experiment(
        name="metric_space_consistency",
        reproduces="001 Appendix A (Theorems A.6, A.12, A.13, A.15): PCL2 (Algorithm 4) on S² and PCL2b "
                   "(Algorithm 5) on R², universally consistent on doubling metric spaces; plus pure-DP PCL2 on R²",
        compute=_ref("consistency.metric_consistency", "compute"), plot=_ref("consistency.metric_consistency", "plot"), order=63, privacy=_ledger("metric_space_consistency")),
    Experiment(
        name="stability_histogram_accuracy",
        reproduces="001 Theorem 2.4 (accuracy of the stability-based histogram, Algorithm 1): exact E|ĉ − c| "
                   "vs the sampler over counts, ε and δ; ĉ = 0 on zero counts; the constant hidden in "
                   "O((1/ε) min{log(1/δ), c}) (→ 2 as δ → 0, unbounded for ε > 1)",
        compute=_ref("consistency.stability_accuracy", "compute"), plot=_ref("consistency.stability_accuracy", "plot"), order=64),
    Experiment(
        name="remark18_classifier",
        reproduces="001 Remark 1.8: the (ε, δ)-DP universally consistent classifier on unbounded R^d obtained from "
                   "Theorem 1.7's density estimator (PCDE plug-in on the joint (x, y) cells), beside PCL2b and the "
                   "non-private rule on the same laws; exact excess risk vs n at δ = n^-2",
        compute=_ref("consistency.remark18", "compute"), plot=_ref("consistency.remark18", "plot"), order=64),
    Experiment(
        name="pcde_error_terms",
        reproduces="001 eq. (5)-(7) (proof of Theorem 4.3): PCDE's privacy error inside the cube 𝒯 against "
                   "T^d ln(1/δ)/(ε√n) and outside it against τ/ε, exact in the noise, normal and Cauchy laws, d = 1, 2",
        compute=_ref("consistency.pcde_terms", "compute"), plot=_ref("consistency.pcde_terms", "plot"), order=62),
    Experiment(
        name="semi_supervised_halfplanes",
        reproduces="001 Theorem 4.11 beyond R: the private CSSL (PCDE in d = 2, synthetic points, exponential "
                   "mechanism over the exact half-plane dichotomies) on half-planes of R² (VC 3), exact in the mechanism",
        compute=_ref("consistency.semi_supervised_2d", "compute"), plot=_ref("consistency.semi_supervised_2d", "plot"),
        order=64),
    Experiment(
        name="delta_decaying",
        reproduces="001 Section 4 (δ ≪ 1/n): PCDE and PCL2b with δ = n^(−a), a ∈ {1.5, 2}, beside fixed δ: still "
                   "consistent (Theorem 1.7, Remark 1.8, Theorem A.13), release threshold (2/ε)ln(2/δ)+1 of "
                   "Algorithm 1 growing like log n and the release onset moving with it; Theorem 1.7's δ(n) = ω(2^-√n) "
                   "tried at δ = 2^(-√n/2)",
        compute=_ref("consistency.delta_decay", "compute"), plot=_ref("consistency.delta_decay", "plot"), order=64),
    Experiment(
        name="semi_supervised_learning",
        reproduces="001 Section 4.1, Theorem 4.11: private consistent semi-supervised learning (PCDE synthetic "
                   "unlabeled sample + the semi-private exponential-mechanism learner of Theorem 4.10, thresholds and "
                   "intervals on R): labeled size m(α) ∝ 1/(εα), the same for every law, unlabeled size law-dependent; "
                   "contrast with thresholds_contrast (001 Section 1)",
        compute=_ref("consistency.semi_supervised", "compute"), plot=_ref("consistency.semi_supervised", "plot"), order=64),
    Experiment(
        name="lp_mst_digits",
        reproduces="004 Section 5.1 / Figure 1(a) on real data (scikit-learn digits): RR vs LP-2ST vs LP-3ST vs "
                   "ALIBI vs vector approximation, accuracy vs ε, every method's k (and LP-MST's prior) tuned on "
                   "RR-privatized validation labels, with a k-sensitivity table; beyond the paper: ε reaching 90 % "
                   "of non-private accuracy",
        compute=_ref("learning.lp_mst_digits", "compute"), plot=_ref("learning.lp_mst_digits", "plot"), order=60, privacy=_ledger("lp_mst_digits")),
    Experiment(
        name="lp_mst_dynamics",
        reproduces="004 Appendices D-E, Figures 3, 4(a), 5 on real data (digits, k-NN learner, ε = 2): LP-1ST vs "
                   "LP-2ST learning curves, LP-2ST accuracy over stage split × prior temperature, stage-1 top-k "
                   "accuracy vs final accuracy",
        compute=_ref("learning.lp_mst_dynamics", "compute"), plot=_ref("learning.lp_mst_dynamics", "plot"), order=61, privacy=_ledger("lp_mst_dynamics")),
    Experiment(
        name="cluster_priors_digits",
        reproduces="004 Algorithm 4, Section 5.2 / Figure 1(b) and Appendix B Figure 2 on real data (digits): "
                   "accuracy vs ε_p of k-means cluster priors",
        compute=_ref("learning.cluster_priors_digits", "compute"), plot=_ref("learning.cluster_priors_digits", "plot"), order=61, privacy=_ledger("cluster_priors_digits")),
    Experiment(
        name="lp_rr_sgd",
        reproduces="004 Theorem 9 (LP-RR-SGD, Algorithm 5, eq. 7) and Proposition 11 (LP-Normal-SGD, Algorithm 6): "
                   "excess population loss vs n and vs dimension p",
        compute=_ref("learning.lp_rr_sgd", "compute"), plot=_ref("learning.lp_rr_sgd", "plot"), order=62),
    Experiment(
        name="debiased_erm_topk",
        reproduces="004 Theorem 17 (eq. 18) and the debiased loss (eq. 17): ERM on RRTop-k labels, uniform deviation "
                   "and excess risk vs n and vs the prior's miss rate Pr[y ∉ Y_k]",
        compute=_ref("learning.debiased_erm_topk", "compute"), plot=_ref("learning.debiased_erm_topk", "plot"),
        order=62),
    Experiment(
        name="prior_quality_sgd",
        reproduces="004 Corollaries 6 and 10 (eq. 8-10): LP-RR-SGD on RRTop-k labels with priors of controlled top-k "
                   "miss rate, excess population loss vs n, ε and Pr[y ∉ Y_k], against plain LP-RR-SGD (Theorem 9)",
        compute=_ref("learning.prior_quality_sgd", "compute"), plot=_ref("learning.prior_quality_sgd", "plot"),
        order=62),
    Experiment(
        name="cnn_benchmarks",
        reproduces="000 Section 5.2 / Tables 1-3 and 004 Tables 1, 2, 4, 5 (optional torch path): CNNs trained on "
                   "RR, LP-2ST, ALIBI and vector-approximation labels; bundled digits on CPU, published vs measured "
                   "grids from --data-dir",
        compute=_ref("learning.cnn_benchmarks", "compute"), plot=_ref("learning.cnn_benchmarks", "plot"), order=65,
        skip=_ref("learning.cnn_benchmarks", "skip_reason"), privacy=_ledger("cnn_benchmarks"),
        paper_note="its paper profile (30 seeds on the digits, 10 on the MNIST subset with 20 epochs) costs about 8 "
                   "CPU-hours on the suite's 2-core CPU machines, estimated from the quick profile's per-model cost. "
                   "Command: `python paper_repro.py --only cnn_benchmarks --profile paper` with the torch extra "
                   "(`pip install -e '.[torch,data]'`); hardware: a CUDA GPU, or 16 or more CPU cores for an "
                   "overnight run. The quick profile's output is in figures/cnn_benchmarks/."),
    Experiment(
        name="movielens_table3",
        reproduces="004 Table 3 / Section 5.1 / Appendix B: MovieLens test RMSE of RR (LP-1ST) vs LP-2ST with a "
                   "two-branch CF model, ε = 1-8; ML-1M from --data-dir, else ML-100K (package copy) as a stand-in",
        compute=_ref("learning.movielens", "compute"), plot=_ref("learning.movielens", "plot"), order=66,
        skip=_ref("learning.movielens", "skip_reason"), privacy=_ledger("movielens_table3")),
)
