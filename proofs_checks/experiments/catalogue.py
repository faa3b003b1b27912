"""The experiments of the ``proofs_checks`` layer (they report checks), as data.

Like :mod:`simulations.experiments.catalogue`: ``compute`` / ``plot`` are ``"package.module:function"``
references imported on first use, so listing these records imports neither the topic modules nor
what they verify with (sympy, scipy, cvxpy, the mechanisms' checkers). ``proofs_checks/__init__.py``
is lazy for the same reason: importing this module runs it first.
``proofs_checks/experiments/__init__.py`` registers these records in the shared
:data:`simulations.experiments.REGISTRY`.
"""

from __future__ import annotations

from simulations.experiments.base import Experiment

__all__ = ["EXPERIMENTS"]


def _ref(module: str, function: str) -> str:
    return f"proofs_checks.experiments.{module}:{function}"


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        name="dp_checks",
        reproduces="privacy claims of every mechanism: 004 eq. (1), Alg. 1, 2, 4; 000 eq. (12)-(13); "
                   "003 eq. (17), (23), (28), Thm 6, 10; 001 Alg. 1 (Thm 2.4), Alg. 2 (Thm 3.1)",
        compute=_ref("dp_checks", "compute"), plot=_ref("dp_checks", "plot"), order=20),
    Experiment(
        name="rrwithprior_lp",
        reproduces="004 Theorem 3 (optimality of RRWithPrior via LP1/LP2, Section 3.2) and Algorithm 2",
        compute=_ref("rrwithprior_lp", "_compute"), plot=_ref("rrwithprior_lp", "_plot"), order=60),
    Experiment(
        name="approx_dp_randomizer",
        reproduces="004 Theorem 3 at δ = 0, extended by the suite to (ε, δ) label randomizers (LPs, the closed form "
                   "δ + (1 − δ) max_k w_k, exact DP check) and 000's arg-max / debiased-variance objectives",
        compute=_ref("approx_dp_randomizer", "compute"), plot=_ref("approx_dp_randomizer", "plot"), order=61),
    Experiment(
        name="proof_checks",
        reproduces="symbolic and numeric checks of the proofs of 000/002 (eq. (24), (33), Theorem 1), 001 "
                   "Theorem 2.7, 003 (Theorems 1-12, Table 1, eq. (17), (46)-(47), (60)-(61), (67), (80)-(81), "
                   "(109), (113), Lemma 2) and 004 (Lemma 1, eq. (7), Lemma 18; Propositions 11-13, Fact 14, Lemmas 15-16, "
                   "20), with the list of findings",
        compute=_ref("proof_checks", "compute"), plot=_ref("proof_checks", "plot"), order=90),
    Experiment(
        name="third_party_audit",
        reproduces="004 Algorithm 2, Theorem 3 and Corollary 2 applied to a published RRWithPrior k* rule "
                   "(google-research label_dp, rr_with_prior)",
        compute=_ref("third_party_audit", "_compute"), plot=_ref("third_party_audit", "_plot"), order=65),
    Experiment(
        name="lp_mst_privacy",
        reproduces="004 Observation 4: LP-MST (Algorithm 3) is ε-label DP, by exact enumeration on tiny data sets; "
                   "planted leak caught",
        compute=_ref("lp_mst_privacy", "compute"), plot=_ref("lp_mst_privacy", "plot"), order=63),
    Experiment(
        name="full_dp_checks",
        reproduces="001 Theorems 2.4, 3.1, 4.2, A.14 and Algorithm 4 (PCL2's ε-DP, Appendix A.1) under 001's "
                   "full-DP relation (replace one record), exact enumeration, compared with label-only neighbours",
        compute=_ref("full_dp_checks", "compute"), plot=_ref("full_dp_checks", "plot"), order=64),
    Experiment(
        name="pcl2_partition_conditions",
        reproduces="001 Lemma A.8 (cell diameters <= 2r = 2n^(-1/(4d))) and Theorem A.11's conditions (diam(V(x)) -> 0, "
                   "Pr[N(x) <= k] -> 0; Lemma A.9's bound) on the suite's packings of S² and r Z², exact geometry",
        compute=_ref("pcl2_partition", "compute"), plot=_ref("pcl2_partition", "plot"), order=65),
    Experiment(
        name="pcl_partition_conditions",
        reproduces="001 Lemma 3.3 (Pr[N(x) <= k] -> 0) on PCL's cubes of side n^(-1/(2d)) over [0, 1]^d, exact "
                   "(uniform and Beta(2,5) product marginals, d = 1, 2, 3)",
        compute=_ref("pcl_partition", "compute"), plot=_ref("pcl_partition", "plot"), order=65),
    Experiment(
        name="rates_lower_bounds",
        reproduces="003 Theorems 1, 3, 5, 7, 9, 11: the proofs' explicit lower bounds (Appendices B, D, F, H, J, L) "
                   "evaluated on the packing family, beside the measured risk of Theorems 2, 4, 6, 8, 10, 12 there",
        compute=_ref("lower_bounds", "compute"), plot=_ref("lower_bounds", "plot"), order=30),
    Experiment(
        name="lemma_tests_lp",
        reproduces="003 Lemma 1 (eq. (91)), Lemma 3 (eq. (183)) and eq. (97): the exact minimum error of an "
                   "ε-label-DP two-point test (linear program over all labellings of small cubes)",
        compute=_ref("lemma_tests_lp", "compute"), plot=_ref("lemma_tests_lp", "plot"), order=31),
    Experiment(
        name="label_dp_accounting",
        reproduces="per-label privacy ledger (simulations.accounting) vs exact enumeration: 004 Observation 4 (LP-MST "
                   "ε-label DP, parallel over stages), 004 Algorithm 4 (cluster priors ε_p + ε, sequential), 001 Theorem "
                   "A.14 (PCL2b (2ε, 2δ)); dp_accounting's PLD vs enumerated product channels",
        compute=_ref("label_dp_accounting", "compute"), plot=_ref("label_dp_accounting", "plot"), order=66,
        skip=_ref("label_dp_accounting", "skip_reason")),
    Experiment(
        name="sgd_lower_bounds",
        reproduces="004 Propositions 12-13 and Lemmas 15-16 (lower bounds Ω(DL/√n), Ω̃(DL/√(εn)) for label-DP convex "
                   "ERM / SCO) evaluated exactly on their own construction beside RR + ERM and LP-RR-SGD (Algorithm 5, "
                   "Theorem 9); Proposition 11's Gaussian privacy (exact profile); Fact 14 on exact product channels",
        compute=_ref("sgd_lower_bounds", "compute"), plot=_ref("sgd_lower_bounds", "plot"), order=62),
)
