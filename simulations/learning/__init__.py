"""Learning with label DP on real data (004 Sections 4-6): multi-stage training, priors from public
features, and debiased private SGD.

* :class:`LPMST` -- 004 Algorithm 3 over any probabilistic classifier (``fit`` / ``predict_proba``).
* :class:`ClusterPriors`, :func:`cluster_prior_rr` -- 004 Algorithm 4 (k-means + geometric histograms).
* :func:`lp_sgd_logistic` -- LP-RR-SGD / LP-Normal-SGD (004 Algorithms 5-6), :func:`debiased_gradient`
  (eq. 7), :func:`debiased_loss` (eq. 17).
* :class:`SoftKNNClassifier` -- a deterministic k-NN classifier learning from hard labels, soft labels
  (ALIBI) or debiased label vectors (the vector mechanism); :class:`IndexedKNNClassifier`, the same
  on a fixed pool with precomputed neighbour orders (fast repeated fits).
"""

from .cluster_priors import ClusterPriors, cluster_prior_rr, kmeans_clusters
from .lp_mst import LPMST, ConstantModel, check_classifier, check_stage_fractions, split_stages, tempered, top_k_mask
from .private_sgd import debiased_gradient, debiased_loss, lp_sgd_logistic
from .soft_knn import IndexedKNNClassifier, SoftKNNClassifier, nearest_neighbours, neighbour_order

__all__ = ["ClusterPriors", "cluster_prior_rr", "debiased_gradient", "debiased_loss", "kmeans_clusters",
           "lp_sgd_logistic", "LPMST", "ConstantModel", "IndexedKNNClassifier", "SoftKNNClassifier", "check_classifier", "check_stage_fractions",
           "nearest_neighbours", "neighbour_order", "split_stages", "tempered", "top_k_mask"]
