"""The four label treatments of the CNN benchmarks, sharing :func:`~simulations.torch_path.training.fit_classifier`.

=============== ============================================ ===================================== ==========================
method          privatized training targets                  loss                                  prediction
=============== ============================================ ===================================== ==========================
``RR``          K-ary randomized response (004 eq. (1))     cross-entropy on one-hot (+ mixup)     arg-max of the logits
``LP-2ST``      RRWithPrior in two stages (004 Alg. 3)       cross-entropy on one-hot (+ mixup)     arg-max of stage-2 model
``ALIBI``       Laplace(2/ε) on the one-hot label,           soft-label cross-entropy              arg-max of the logits
                Bayesian soft label under a uniform prior
``vector``      K-bit vector Z (000 eq. (12)-(13))           sigmoid output + BCE on Z (000 §4.3)  debiased arg-max (eq. 16)
``non-private`` the true labels                              cross-entropy                         arg-max of the logits
=============== ============================================ ===================================== ==========================

LP-2ST reuses :class:`simulations.learning.LPMST` (stage split, RRWithPrior priors from the stage-1
model, 004 Appendix B's label filtering) with :class:`TorchClassifier` as its learner. The prior is 004
Algorithm 3's: the stage-1 network's softmax probabilities as they are (temperature
:data:`LP2ST_TEMPERATURE` = 1; 004 Appendix E tunes a temperature but gives no value). The stage split
is 004's, 65 % / 35 % (:data:`LP2ST_FRACTIONS`, 004 Appendix D: "Stage-1 of LP-2ST (using 65% training
data)"); ``split="60/40"`` names the suite's earlier split (``simulations.learning.lp_mst.LP2ST_SPLITS``).
:data:`LP2ST_RECIPE` names the recipe in every claim. Each stage
trains a fresh network; 004 Appendix B also warm-starts stage 2 from the stage-1 weights, which this
implementation does not do (a difference from the paper's recipe, stated in the experiment notes).

Vector approximation (000 Section 4.3): the network's K sigmoid outputs g_j(x) estimate
η̃_j(x) = P(Z(j) = 1 | x) = b + (a - b) η_j(x) with a = e^{ε/2}/(1 + e^{ε/2}), b = 1/(1 + e^{ε/2})
(000 eq. (24)); :func:`vector_debiased_scores` inverts it, η̂_j = (g_j - b)/(a - b), and the
prediction is its arg-max, which equals the arg-max of g (eq. (16)) because a > b.

References: 000 Sections 4.1-4.3 (eq. (12)-(16), (24)), 5.2; 004 eq. (1), Algorithms 2-3, Appendix B.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np

from limits.validation import check_choice
from simulations.learning import LPMST
from simulations.learning.lp_mst import LP2ST_SPLITS
from simulations.mechanisms import ALIBI, RandomizedResponse, VectorMechanism
from simulations.seeding import check_generator
from simulations.torch_path import require_torch
from simulations.torch_path.training import TrainConfig, fit_classifier, image_tensor, predict_scores

torch = require_torch()

__all__ = ["LP2ST_FRACTIONS", "LP2ST_RECIPE", "LP2ST_TEMPERATURE", "METHODS", "StageMixupLPMST", "TorchClassifier", "method_accuracy", "pixel_scale", "predict_method",
           "train_method", "vector_debiased_scores"]

METHODS = ("RR", "LP-2ST", "ALIBI", "vector")
ALL_METHODS = METHODS + ("non-private",)
LP2ST_SPLIT = "004"  # the default split's name in LP2ST_SPLITS
LP2ST_FRACTIONS = LP2ST_SPLITS[LP2ST_SPLIT]  # (0.65, 0.35), 004 Appendix D: "Stage-1 of LP-2ST (using 65% training data)"
LP2ST_TEMPERATURE = 1.0  # 004 Algorithm 3 step 3(b)i: "the probabilities predicted by" the stage-1 model
LP2ST_RECIPE = (f"LP-2ST as 004 Alg. 3: prior = the stage-1 network's softmax as is (t = {LP2ST_TEMPERATURE:g}); "
                f"stage split {LP2ST_FRACTIONS} (004 App. D); 004 App. B label filtering; fresh stage-2 network")


def pixel_scale(dataset) -> float:
    """Pixel maximum of a :class:`~simulations.datasets.Dataset`: 16 for the digits, 255 otherwise."""
    return 16.0 if dataset.name == "digits" else 255.0


def _seed(rng: np.random.Generator) -> int:
    """One torch seed drawn from a SeedSequence-backed numpy stream."""
    return int(check_generator(rng).integers(0, 2**63 - 1))


def _one_hot(labels: np.ndarray, K: int) -> np.ndarray:
    t = np.zeros((labels.size, K), dtype=np.float32)
    t[np.arange(labels.size), labels] = 1.0
    return t


def vector_debiased_scores(g, epsilon: float) -> np.ndarray:
    """η̂_j = (g_j - b)/(a - b): the sigmoid outputs g (n, K) mapped back to class-probability scale
    (000 eq. (24) inverted); arg-max over j is the prediction (eq. (16))."""
    a, b = VectorMechanism(num_classes=2, epsilon=epsilon).flip_probabilities()  # a, b do not depend on K
    g = np.asarray(g, dtype=float)
    return (g - b) / (a - b)


class TorchClassifier:
    """A probabilistic classifier over uint8 images for :class:`~simulations.learning.LPMST`.

    ``fit(X, y)`` trains a fresh network with cross-entropy on one-hot labels (+ mixup as set in
    ``config``); ``predict_proba`` is its softmax. The torch seed of a fit is derived from ``seed``
    and the size of the training set, so the two stages of LP-2ST draw different initial weights.

    Parameters (keyword-only, stored as given)
    ------------------------------------------
    config : TrainConfig
    num_classes : int
    seed : int >= 0
    scale : float, pixel maximum
    checkpoint_dir, progress : passed to :func:`fit_classifier`
    """

    def __init__(self, *, config: TrainConfig, num_classes: int, seed: int, scale: float,
                 checkpoint_dir=None, progress: bool = False):
        self.config = config
        self.num_classes = num_classes
        self.seed = seed
        self.scale = scale
        self.checkpoint_dir = checkpoint_dir
        self.progress = progress

    def fit(self, X, y):
        y = np.asarray(y, dtype=np.int64)
        seed = int(np.random.SeedSequence([int(self.seed), int(y.size)]).generate_state(2, np.uint64)[0] >> 1)
        self.model_ = fit_classifier(image_tensor(X, self.scale), _one_hot(y, self.num_classes), loss="softmax",
                                     config=self.config, seed=seed, checkpoint_dir=self.checkpoint_dir,
                                     progress=self.progress, desc=f"LP-MST stage (n={y.size})")
        return self

    def predict_proba(self, X) -> np.ndarray:
        logits = predict_scores(self.model_, image_tensor(X, self.scale))
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        return np.argmax(predict_scores(self.model_, image_tensor(X, self.scale)), axis=1).astype(np.int64)


class StageMixupLPMST(LPMST):
    """LP-MST over a :class:`TorchClassifier` whose stage t trains with mixup α = ``stage_mixup[t]``.

    004 Figure 4(b) varies the mixup coefficient of stage 1 and stage 2 separately; everything else is
    :class:`~simulations.learning.LPMST` (the learner's ``config`` is replaced per stage on a copy).

    Parameters
    ----------
    stage_mixup : sequence of float >= 0, one per stage
    **lpmst : the arguments of :class:`~simulations.learning.LPMST`; ``learner`` a :class:`TorchClassifier`

    References
    ----------
    004 Algorithm 3, Appendix B (mixup), Appendix E ("stage-2 typically requires less regularization").

    Examples
    --------
    >>> learner = TorchClassifier(config=TrainConfig(mixup_alpha=0.0), num_classes=10, seed=0, scale=16.0)
    >>> StageMixupLPMST(stage_mixup=(4.0, 1.0), learner=learner, num_classes=10, epsilon=2.0, num_stages=2).stage_mixup
    (4.0, 1.0)
    """

    def __init__(self, *, stage_mixup, **lpmst):
        super().__init__(**lpmst)
        self.stage_mixup = tuple(stage_mixup)

    def train_stage(self, X, z, stages, t: int, previous, k_filter):
        """:meth:`LPMST.train_stage <simulations.learning.LPMST.train_stage>` with the learner's mixup α = ``stage_mixup[t]``.

        Parameters
        ----------
        X, z, stages, t, previous, k_filter
            As in :meth:`LPMST.train_stage <simulations.learning.LPMST.train_stage>`.

        Returns
        -------
        (model, int)
            M(t) and its number of training examples; the caller's learner is left as it was.

        Examples
        --------
        >>> class Recorder:  # a stand-in learner that records the mixup α it is trained with
        ...     config = TrainConfig(mixup_alpha=0.0)
        ...     def fit(self, X, y):
        ...         self.alpha = self.config.mixup_alpha
        ...         return self
        ...     def predict_proba(self, X):
        ...         return np.full((len(X), 2), 0.5)
        >>> est = StageMixupLPMST(stage_mixup=(4.0, 1.0), learner=Recorder(), num_classes=2, epsilon=1.0, num_stages=2)
        >>> X, z, stages = np.zeros((8, 1)), np.array([0, 1] * 4), np.repeat([0, 1], 4)
        >>> [est.train_stage(X, z, stages, t, None, None)[0].alpha for t in (0, 1)], est.learner.config.mixup_alpha
        ([4.0, 1.0], 0.0)
        """
        base = self.learner
        self.learner = copy.copy(base)
        self.learner.config = replace(base.config, mixup_alpha=float(self.stage_mixup[t]))
        try:
            return super().train_stage(X, z, stages, t, previous, k_filter)
        finally:
            self.learner = base


def train_method(method: str, dataset, epsilon: float | None, rng: np.random.Generator, config: TrainConfig, *,
                 checkpoint_dir=None, progress: bool = False, split: str = LP2ST_SPLIT, stage_mixup=None):
    """Privatize ``dataset.y_train`` for ``method`` from ``rng`` and train; returns a predictor
    ``images (m, ...) -> labels (m,)``.

    Parameters
    ----------
    method : one of ``METHODS + ("non-private",)``
    dataset : :class:`~simulations.datasets.Dataset` of images
    epsilon : float > 0 (ignored for "non-private")
    rng : numpy Generator, the PRIVACY stream: every privatization and the torch seeds
    config : TrainConfig; its ``mixup_alpha`` is used for RR and LP-2ST only
    split : a key of ``LP2ST_SPLITS``, LP-2ST's stage split ("004": 0.65 / 0.35, the default; "60/40")
    stage_mixup : None or (α1, α2), floats >= 0
        LP-2ST only: mixup α of stage 1 and stage 2 (004 Figure 4(b)); None: ``config.mixup_alpha`` for both.
    """
    check_choice("method", method, ALL_METHODS)
    fractions = LP2ST_SPLITS[check_choice("split", split, tuple(LP2ST_SPLITS))]
    if stage_mixup is not None and (method != "LP-2ST" or len(stage_mixup) != 2
                                    or not all(np.isfinite(a) and a >= 0 for a in stage_mixup)):
        raise ValueError(f"stage_mixup must be None or two mixup α >= 0 for LP-2ST, got stage_mixup={stage_mixup!r} "
                         f"with method={method!r}")
    rng = check_generator(rng)
    K, scale, y = dataset.num_classes, pixel_scale(dataset), dataset.y_train
    hard = config if method in ("RR", "LP-2ST") else _without_mixup(config)
    opts = dict(checkpoint_dir=checkpoint_dir, progress=progress)
    if method == "LP-2ST":
        learner = TorchClassifier(config=hard, num_classes=K, seed=_seed(rng), scale=scale, **opts)
        lpmst = dict(learner=learner, num_classes=K, epsilon=epsilon, num_stages=2, stage_fractions=fractions,
                     temperature=LP2ST_TEMPERATURE, filter_labels=True)
        est = LPMST(**lpmst) if stage_mixup is None else StageMixupLPMST(stage_mixup=stage_mixup, **lpmst)
        return est.fit(dataset.x_train, y, rng).predict
    if method == "RR":
        targets, loss = _one_hot(RandomizedResponse(num_classes=K, epsilon=epsilon).sample(y, rng), K), "softmax"
    elif method == "ALIBI":
        mech = ALIBI(num_classes=K, epsilon=epsilon)
        targets, loss = mech.soft_labels(mech.sample(y, rng)), "softmax"
    elif method == "vector":
        targets, loss = VectorMechanism(num_classes=K, epsilon=epsilon).sample(y, rng), "sigmoid"
    else:
        targets, loss = _one_hot(y, K), "softmax"
    model = fit_classifier(image_tensor(dataset.x_train, scale), targets, loss=loss, config=hard, seed=_seed(rng),
                           desc=f"{method} ε={epsilon}", **opts)
    return lambda images: predict_method(method, model, image_tensor(images, scale), epsilon)


def predict_method(method: str, model, x, epsilon: float | None) -> np.ndarray:
    """Predicted labels (m,): arg-max of the logits, or of the debiased sigmoid outputs for "vector"."""
    logits = predict_scores(model, x)
    if method == "vector":
        return np.argmax(vector_debiased_scores(1.0 / (1.0 + np.exp(-logits)), epsilon), axis=1).astype(np.int64)
    return np.argmax(logits, axis=1).astype(np.int64)


def method_accuracy(method: str, dataset, epsilon: float | None, rng: np.random.Generator, config: TrainConfig, *,
                    checkpoint_dir=None, progress: bool = False, split: str = LP2ST_SPLIT, stage_mixup=None) -> float:
    """Test accuracy of :func:`train_method` on ``dataset.x_test``."""
    predict = train_method(method, dataset, epsilon, rng, config, checkpoint_dir=checkpoint_dir, progress=progress,
                           split=split, stage_mixup=stage_mixup)
    return float(np.mean(predict(dataset.x_test) == dataset.y_test))


def _without_mixup(config: TrainConfig) -> TrainConfig:
    return replace(config, mixup_alpha=0.0) if config.mixup_alpha else config
