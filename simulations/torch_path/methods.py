"""The four label treatments of the CNN benchmarks, sharing :func:`~simulations.torch_path.training.fit_classifier`.

===============  =========================================  ====================================  =========================
method           privatized training targets                loss                                  prediction
===============  =========================================  ====================================  =========================
``RR``           K-ary randomized response (004 eq. (1))    cross-entropy on one-hot (+ mixup)    arg-max of the logits
``LP-2ST``       RRWithPrior in two stages (004 Alg. 3)     cross-entropy on one-hot (+ mixup)    arg-max of stage-2 model
``ALIBI``        Laplace(2/ε) on the one-hot label,         soft-label cross-entropy              arg-max of the logits
                 Bayesian soft label under a uniform prior
``vector``       K-bit vector Z (000 eq. (12)-(13))         sigmoid output + BCE on Z (000 §4.3)  debiased arg-max (eq. 16)
``non-private``  the true labels                            cross-entropy                         arg-max of the logits
===============  =========================================  ====================================  =========================

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
import functools
from dataclasses import replace

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_choice
from simulations.estimators._common import check_fitted
from simulations.estimators._sklearn import LabelDPEstimatorMixin, check_random_state
from simulations.learning import LPMST
from simulations.learning.lp_mst import LP2ST_SPLITS
from simulations.mechanisms import ALIBI, RandomizedResponse, VectorMechanism
from simulations.seeding import check_generator
from simulations.torch_path import require_torch
from simulations.torch_path.training import TrainConfig, fit_classifier, image_tensor, predict_scores
from simulations.torch_path.tuning import TunedFit, Validation, fit_tuned

torch = require_torch()

__all__ = ["LP2ST_FRACTIONS", "LP2ST_RECIPE", "LP2ST_TEMPERATURE", "METHODS", "StageMixupLPMST", "TorchClassifier", "method_accuracy", "pixel_scale", "predict_method",
           "train_method", "train_method_tuned", "vector_debiased_scores"]

METHODS = ("RR", "LP-2ST", "ALIBI", "vector")
ALL_METHODS = METHODS + ("non-private",)
LP2ST_SPLIT = "004"  # the default split's name in LP2ST_SPLITS
LP2ST_FRACTIONS = LP2ST_SPLITS[LP2ST_SPLIT]  # (0.65, 0.35), 004 Appendix D: "Stage-1 of LP-2ST (using 65% training data)"
LP2ST_TEMPERATURE = 1.0  # 004 Algorithm 3 step 3(b)i: "the probabilities predicted by" the stage-1 model
LP2ST_RECIPE = (f"LP-2ST as 004 Alg. 3: prior = the stage-1 network's softmax as is (t = {LP2ST_TEMPERATURE:g}); "
                f"stage split {LP2ST_FRACTIONS} (004 App. D); 004 App. B label filtering; fresh stage-2 network")


def pixel_scale(dataset) -> float:
    """Pixel maximum of a :class:`~simulations.datasets.Dataset`: 16 for the digits, 255 otherwise.

    Parameters
    ----------
    dataset : simulations.datasets.Dataset
        Any object with a ``name``.

    Returns
    -------
    float
        16.0 when ``dataset.name == "digits"`` (pixels 0..16), else 255.0.

    References
    ----------
    004 Appendix B (image inputs scaled to [0, 1]).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> pixel_scale(SimpleNamespace(name="digits")), pixel_scale(SimpleNamespace(name="mnist"))
    (16.0, 255.0)
    """
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
    (000 eq. (24) inverted); arg-max over j is the prediction (eq. (16)).

    :math:`a = e^{\\epsilon/2}/(1 + e^{\\epsilon/2})` and :math:`b = 1/(1 + e^{\\epsilon/2})` are the
    vector mechanism's bit probabilities (000 eq. (12)-(13)).

    Parameters
    ----------
    g : array_like, shape (n, K)
        Sigmoid outputs in [0, 1], estimates of :math:`\\tilde\\eta_j(x) = b + (a - b)\\eta_j(x)`.
    epsilon : float > 0
        The vector mechanism's ε.

    Returns
    -------
    ndarray of float64, shape (n, K)
        :math:`\\hat\\eta_j = (g_j - b)/(a - b)` (may leave [0, 1]: it is not clipped).

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0 (from :class:`~simulations.mechanisms.VectorMechanism`).

    References
    ----------
    000 eq. (12)-(13), (16), (24), Section 4.3.

    Examples
    --------
    At :math:`\\epsilon = 2 \\ln 3`, :math:`e^{\\epsilon/2} = 3`, so a = 3/4, b = 1/4 and
    :math:`\\hat\\eta = 2g - 1/2`:

    >>> import math
    >>> vector_debiased_scores([[0.25, 0.75, 0.5]], 2 * math.log(3)).round(9).tolist()
    [[0.0, 1.0, 0.5]]
    """
    a, b = VectorMechanism(num_classes=2, epsilon=epsilon).flip_probabilities()  # a, b do not depend on K
    g = np.asarray(g, dtype=float)
    return (g - b) / (a - b)


class TorchClassifier(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """A probabilistic classifier over uint8 images for :class:`~simulations.learning.LPMST`.

    ``fit(X, y)`` trains a fresh network with cross-entropy on one-hot labels (+ mixup as set in
    ``config``); ``predict_proba`` is its softmax. The torch seed of a fit is derived from ``random_state``
    and the size of the training set, so the two stages of LP-2ST draw different initial weights.

    Parameters
    ----------
    config : TrainConfig
        Hyper-parameters of each fit (keyword-only, like every parameter; stored as given).
    num_classes : int >= 2
        K.
    random_state : int >= 0, numpy.random.Generator or None
        Root of the fits' torch seeds: an int is the root itself; a Generator (or None: a fresh unseeded
        one) draws a root at each ``fit``.
    scale : float > 0
        Pixel maximum (:func:`pixel_scale`).
    checkpoint_dir : path-like or None, default None
        Passed to :func:`~simulations.torch_path.training.fit_classifier`.
    progress : bool, default False
        Passed to :func:`~simulations.torch_path.training.fit_classifier`.
    validation : Validation or None, default None
        When given, each fit chooses its learning rate and epochs on these privatized validation labels
        (:func:`~simulations.torch_path.tuning.fit_tuned`; ``checkpoint_dir`` is then not used).

    Attributes
    ----------
    model_ : torch.nn.Module
        The network of the last :meth:`fit`.
    tuned_ : TunedFit or None
        The tuning record of the last :meth:`fit` (None without ``validation``).
    classes_ : ndarray, ``0..K-1``
    n_features_in_ : int
        Pixels (times channels) of each image.

    References
    ----------
    004 Algorithm 3 (LP-MST: the learner of each stage), Appendix B (training details).

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> x = np.random.default_rng(0).integers(0, 256, size=(8, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x, np.arange(8) % 2, x[:4], np.arange(4) % 2, num_classes=2)
    >>> clf = TorchClassifier(config=TrainConfig(epochs=1, device="cpu"), num_classes=2, random_state=0, scale=255.0)
    >>> proba = clf.fit(toy.x_train, toy.y_train).predict_proba(toy.x_test)
    >>> proba.shape, bool(np.allclose(proba.sum(axis=1), 1.0)), clf.predict(toy.x_test).shape
    ((4, 2), True, (4,))
    """

    _label_domain = "classes"

    def __init__(self, *, config: TrainConfig, num_classes: int, random_state, scale: float,
                 checkpoint_dir=None, progress: bool = False, validation: Validation | None = None):
        self.config = config
        self.num_classes = num_classes
        self.random_state = random_state
        self.scale = scale
        self.checkpoint_dir = checkpoint_dir
        self.progress = progress
        self.validation = validation

    def fit(self, X, y):
        """Train a fresh network on images ``X`` with labels ``y`` (cross-entropy on one-hot rows).

        Parameters
        ----------
        X : ndarray, shape (n, H, W) or (n, H, W, C)
            uint8 images.
        y : array_like of int, shape (n,)
            Labels in ``[0, num_classes)``.

        Returns
        -------
        TorchClassifier
            ``self``, with ``model_`` set.

        Raises
        ------
        ValueError
            From :func:`~simulations.torch_path.training.fit_classifier` on bad input.

        Examples
        --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> x = np.random.default_rng(0).integers(0, 256, size=(8, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x, np.arange(8) % 2, x[:4], np.arange(4) % 2, num_classes=2)
        >>> clf = TorchClassifier(config=TrainConfig(epochs=1, device="cpu"), num_classes=2, random_state=0, scale=255.0)
        >>> clf.fit(toy.x_train, toy.y_train).model_.epochs_done
        1
        """
        X, y = self._check_input(X, y)
        root = self.random_state
        if not (isinstance(root, (int, np.integer)) and not isinstance(root, (bool, np.bool_)) and root >= 0):
            root = int(check_random_state(root).integers(0, 2 ** 63))
        y = np.asarray(y, dtype=np.int64)
        seed = int(np.random.SeedSequence([int(root), int(y.size)]).generate_state(2, np.uint64)[0] >> 1)
        self.model_, self.tuned_ = _fit(image_tensor(X, self.scale), _one_hot(y, self.num_classes), "softmax",
                                        self.config, seed, self.validation, self.scale,
                                        functools.partial(predict_method, "RR", epsilon=None),
                                        checkpoint_dir=self.checkpoint_dir, progress=self.progress,
                                        desc=f"LP-MST stage (n={y.size})")
        self.classes_, self.n_features_in_ = np.arange(self.num_classes), int(np.prod(np.shape(X)[1:]))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Softmax of the network's logits on images ``X``.

        Parameters
        ----------
        X : ndarray, shape (m, H, W) or (m, H, W, C)
            uint8 images.

        Returns
        -------
        ndarray of float64, shape (m, num_classes)
            Rows sum to 1 (the stage-1 prior of LP-2ST, 004 Algorithm 3).

        Examples
        --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> x = np.random.default_rng(0).integers(0, 256, size=(8, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x, np.arange(8) % 2, x[:4], np.arange(4) % 2, num_classes=2)
        >>> clf = TorchClassifier(config=TrainConfig(epochs=1, device="cpu"), num_classes=2, random_state=0, scale=255.0)
        >>> clf.fit(toy.x_train, toy.y_train).predict_proba(toy.x_test).shape
        (4, 2)
        """
        self._check_predict_input(X)
        check_fitted(self, "model_")
        logits = predict_scores(self.model_, image_tensor(X, self.scale))
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        """Arg-max class of the network's logits on images ``X``.

        Parameters
        ----------
        X : ndarray, shape (m, H, W) or (m, H, W, C)
            uint8 images.

        Returns
        -------
        ndarray of int64, shape (m,)
            Labels in ``[0, num_classes)``.

        Examples
        --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> x = np.random.default_rng(0).integers(0, 256, size=(8, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x, np.arange(8) % 2, x[:4], np.arange(4) % 2, num_classes=2)
        >>> clf = TorchClassifier(config=TrainConfig(epochs=1, device="cpu"), num_classes=2, random_state=0, scale=255.0)
        >>> set(clf.fit(toy.x_train, toy.y_train).predict(toy.x_test).tolist()) <= {0, 1}
        True
        """
        self._check_predict_input(X)
        check_fitted(self, "model_")
        return np.argmax(predict_scores(self.model_, image_tensor(X, self.scale)), axis=1).astype(np.int64)


class StageMixupLPMST(LPMST):
    """LP-MST over a :class:`TorchClassifier` whose stage t trains with mixup α = ``stage_mixup[t]``.

    004 Figure 4(b) varies the mixup coefficient of stage 1 and stage 2 separately; everything else is
    :class:`~simulations.learning.LPMST` (the learner's ``config`` is replaced per stage on a copy).

    Parameters
    ----------
    stage_mixup : sequence of float >= 0, one per stage
    learner, num_classes, epsilon, num_stages, stage_fractions, temperature, filter_labels, random_state
        As in :class:`~simulations.learning.LPMST`; ``learner`` a :class:`TorchClassifier`.

    References
    ----------
    004 Algorithm 3, Appendix B (mixup), Appendix E ("stage-2 typically requires less regularization").

    Examples
    --------
    >>> learner = TorchClassifier(config=TrainConfig(mixup_alpha=0.0), num_classes=10, random_state=0, scale=16.0)
    >>> StageMixupLPMST(stage_mixup=(4.0, 1.0), learner=learner, num_classes=10, epsilon=2.0, num_stages=2).stage_mixup
    (4.0, 1.0)
    """

    # every argument spelled out (no **kwargs): scikit-learn's get_params reads them from this signature
    def __init__(self, *, stage_mixup, learner, num_classes: int, epsilon: float, num_stages: int = 2,
                 stage_fractions=None, temperature: float = 1.0, filter_labels: bool = False, random_state=None):
        super().__init__(learner=learner, num_classes=num_classes, epsilon=epsilon, num_stages=num_stages,
                         stage_fractions=stage_fractions, temperature=temperature, filter_labels=filter_labels,
                         random_state=random_state)
        self.stage_mixup = stage_mixup

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
    method : {"RR", "LP-2ST", "ALIBI", "vector", "non-private"}
        The label treatment (module table).
    dataset : simulations.datasets.Dataset
        Images (uint8) and labels.
    epsilon : float > 0 or None
        The label-DP ε (ignored for "non-private").
    rng : numpy.random.Generator or int seed
        The PRIVACY stream: every privatization and the torch seeds.
    config : TrainConfig
        Hyper-parameters; its ``mixup_alpha`` is used for RR and LP-2ST only.
    checkpoint_dir : path-like or None, default None
        Passed to :func:`~simulations.torch_path.training.fit_classifier`.
    progress : bool, default False
        Show a bar over epochs.
    split : str, default LP2ST_SPLIT
        A key of ``LP2ST_SPLITS``: LP-2ST's stage split ("004": 0.65 / 0.35, the default, 004 Appendix D;
        "60/40" the former one).
    stage_mixup : None or (float, float), default None
        LP-2ST only: mixup α of stage 1 and stage 2, each >= 0 (004 Figure 4(b)); None uses
        ``config.mixup_alpha`` for both.

    Returns
    -------
    callable
        ``predict(images) -> ndarray of int64, shape (m,)``.

    Raises
    ------
    ValueError
        For an unknown ``method`` or ``split``, a ``stage_mixup`` that is not two α >= 0 for LP-2ST, an
        invalid ``rng`` or ``epsilon`` (from the mechanism).

    References
    ----------
    004 eq. (1), Algorithms 2-3, Appendix B; 000 eq. (12)-(16), Sections 4.3, 5.2.

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> x = np.random.default_rng(0).integers(0, 256, size=(8, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x, np.arange(8) % 2, x[:4], np.arange(4) % 2, num_classes=2)
    >>> predict = train_method("vector", toy, 1.0, np.random.default_rng(0), TrainConfig(epochs=1, device="cpu"))
    >>> labels = predict(toy.x_test)
    >>> labels.shape, labels.dtype.name
    ((4,), 'int64')
    """
    return _train(method, dataset, epsilon, rng, config, None, checkpoint_dir=checkpoint_dir, progress=progress,
                  split=split, stage_mixup=stage_mixup)[0]


def train_method_tuned(method: str, dataset, epsilon: float | None, rng: np.random.Generator, config: TrainConfig,
                       validation: Validation, *, progress: bool = False, split: str = LP2ST_SPLIT, stage_mixup=None):
    """:func:`train_method` with every network's learning rate and epochs chosen on ``validation``.

    Each network the method trains (one; two for LP-2ST, each stage tuned on its own before the next
    stage's labels are privatized) runs :func:`~simulations.torch_path.tuning.fit_tuned`: one run per
    learning rate of ``validation.grid``, read at its epoch checkpoints, keeping the cell whose
    predictions (the method's rule: the debiased arg-max for "vector") agree most with
    ``validation.labels``. Those labels are the validation points' labels released once by RR at
    ``epsilon`` (the true ones for "non-private"); ``dataset.y_train`` must not contain them.

    Parameters
    ----------
    method : {"RR", "LP-2ST", "ALIBI", "vector", "non-private"}
        The label treatment.
    dataset : simulations.datasets.Dataset
        The training part (without the validation points); its test split is not read.
    epsilon : float > 0 or None
        The label-DP ε (ignored for "non-private").
    rng : numpy.random.Generator or int seed
        The PRIVACY stream of the method (as :func:`train_method`).
    config : TrainConfig
        The other hyper-parameters (``lr`` and ``epochs`` come from the grid).
    validation : Validation
        Validation images, their privatized labels, the grid and the optional probe images.
    progress : bool, default False
        Show a bar over epochs.
    split : str, default LP2ST_SPLIT
        As :func:`train_method`.
    stage_mixup : None or (float, float), default None
        As :func:`train_method`.

    Returns
    -------
    predict : callable
        ``predict(images) -> ndarray of int64, shape (m,)`` with the chosen network(s).
    fits : list of TunedFit
        The tuning record of each network, in training order (LP-2ST: stage 1, stage 2; a stage whose
        labels hold one class is a constant model and has none).

    Raises
    ------
    ValueError
        As :func:`train_method`, or if ``validation`` is not a
        :class:`~simulations.torch_path.tuning.Validation`.

    References
    ----------
    004 eq. (1), Algorithm 3, Appendix E; 000 Section 5.2; issue 22 item 2.

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> from simulations.torch_path.tuning import TuningGrid
    >>> x = np.random.default_rng(0).integers(0, 256, size=(12, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x[:8], np.arange(8) % 2, x[8:], np.arange(4) % 2, num_classes=2)
    >>> val = Validation(x[8:], np.array([0, 1, 0, 1]), TuningGrid(lrs=(1e-3, 3e-3), epochs=(1, 2)))
    >>> predict, fits = train_method_tuned("RR", toy, 1.0, np.random.default_rng(0),
    ...                                    TrainConfig(device="cpu"), val)
    >>> len(fits), (fits[0].lr, fits[0].epochs) in val.grid.cells(), predict(toy.x_test).shape
    (1, True, (4,))
    """
    if not isinstance(validation, Validation):
        raise ValueError(f"validation must be a Validation, got validation={validation!r}")
    return _train(method, dataset, epsilon, rng, config, validation, checkpoint_dir=None, progress=progress,
                  split=split, stage_mixup=stage_mixup)


def _fit(x, targets, loss: str, config: TrainConfig, seed: int, validation, scale: float, predict, *,
         checkpoint_dir=None, progress: bool = False, desc: str = "train"):
    """(model, TunedFit or None): one network at ``config``, or tuned on ``validation`` when given."""
    if validation is None:
        return fit_classifier(x, targets, loss=loss, config=config, seed=seed, checkpoint_dir=checkpoint_dir,
                              progress=progress, desc=desc), None
    tuned = fit_tuned(x, targets, loss=loss, config=config, seed=seed, validation=validation, scale=scale,
                      predict=predict, progress=progress, desc=desc)
    return tuned.model, tuned


def _train(method, dataset, epsilon, rng, config, validation, *, checkpoint_dir, progress, split, stage_mixup):
    """(predict, list of TunedFit): the body of :func:`train_method` and :func:`train_method_tuned`."""
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
        learner = TorchClassifier(config=hard, num_classes=K, random_state=_seed(rng), scale=scale,
                                  validation=validation, **opts)
        lpmst = dict(learner=learner, num_classes=K, epsilon=epsilon, num_stages=2, stage_fractions=fractions,
                     temperature=LP2ST_TEMPERATURE, filter_labels=True, random_state=rng)
        est = LPMST(**lpmst) if stage_mixup is None else StageMixupLPMST(stage_mixup=tuple(stage_mixup), **lpmst)
        est.fit(dataset.x_train, y)
        return est.predict, [m.tuned_ for m in est.models_ if getattr(m, "tuned_", None) is not None]
    if method == "RR":
        targets, loss = _one_hot(RandomizedResponse(num_classes=K, epsilon=epsilon).sample(y, rng), K), "softmax"
    elif method == "ALIBI":
        mech = ALIBI(num_classes=K, epsilon=epsilon)
        targets, loss = mech.soft_labels(mech.sample(y, rng)), "softmax"
    elif method == "vector":
        targets, loss = VectorMechanism(num_classes=K, epsilon=epsilon).sample(y, rng), "sigmoid"
    else:
        targets, loss = _one_hot(y, K), "softmax"
    rule = functools.partial(predict_method, method, epsilon=epsilon)
    model, tuned = _fit(image_tensor(dataset.x_train, scale), targets, loss, hard, _seed(rng), validation, scale, rule,
                        desc=f"{method} ε={epsilon}", **opts)
    return (lambda images: predict_method(method, model, image_tensor(images, scale), epsilon)), \
        [] if tuned is None else [tuned]


def predict_method(method: str, model, x, epsilon: float | None) -> np.ndarray:
    """Predicted labels (m,): arg-max of the logits, or of the debiased sigmoid outputs for "vector".

    Parameters
    ----------
    method : str
        The label treatment; only ``"vector"`` changes the rule.
    model : torch.nn.Module
        A trained network.
    x : torch.Tensor, shape (m, C, H, W)
        Images (:func:`~simulations.torch_path.training.image_tensor`).
    epsilon : float > 0 or None
        The vector mechanism's ε (used for ``"vector"`` only).

    Returns
    -------
    ndarray of int64, shape (m,)

    References
    ----------
    000 eq. (16) and (24) (the debiased arg-max of the vector approximation).

    Examples
    --------
    >>> import torch
    >>> from simulations.torch_path.models import SimpleCNN
    >>> predict_method("RR", SimpleCNN(1, 8, 3), torch.zeros(2, 1, 8, 8), 1.0).shape
    (2,)
    """
    logits = predict_scores(model, x)
    if method == "vector":
        return np.argmax(vector_debiased_scores(1.0 / (1.0 + np.exp(-logits)), epsilon), axis=1).astype(np.int64)
    return np.argmax(logits, axis=1).astype(np.int64)


def method_accuracy(method: str, dataset, epsilon: float | None, rng: np.random.Generator, config: TrainConfig, *,
                    checkpoint_dir=None, progress: bool = False, split: str = LP2ST_SPLIT, stage_mixup=None) -> float:
    """Test accuracy of :func:`train_method` on ``dataset.x_test``.

    Parameters
    ----------
    method : {"RR", "LP-2ST", "ALIBI", "vector", "non-private"}
        The label treatment.
    dataset : simulations.datasets.Dataset
        Images and labels, with a test split.
    epsilon : float > 0 or None
        The label-DP ε.
    rng : numpy.random.Generator or int seed
        The PRIVACY stream.
    config : TrainConfig
        Hyper-parameters.
    checkpoint_dir : path-like or None, default None
        Passed to :func:`~simulations.torch_path.training.fit_classifier`.
    progress : bool, default False
        Show a bar over epochs.
    split : str, default LP2ST_SPLIT
        As :func:`train_method`.
    stage_mixup : None or (float, float), default None
        As :func:`train_method`.

    Returns
    -------
    float
        Fraction of test images classified correctly, in [0, 1].

    Raises
    ------
    ValueError
        As :func:`train_method`.

    References
    ----------
    000 Tables 1-3 and 004 Appendix B (test accuracy of each label treatment).

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.datasets import Dataset
    >>> x = np.random.default_rng(0).integers(0, 256, size=(8, 8, 8), dtype=np.uint8)
    >>> toy = Dataset("toy", x, np.arange(8) % 2, x[:4], np.arange(4) % 2, num_classes=2)
    >>> acc = method_accuracy("RR", toy, 1.0, np.random.default_rng(0), TrainConfig(epochs=1, device="cpu"))
    >>> 0.0 <= acc <= 1.0 and acc * 4 == int(acc * 4)     # a multiple of 1/4 on 4 test images
    True
    """
    predict = train_method(method, dataset, epsilon, rng, config, checkpoint_dir=checkpoint_dir, progress=progress,
                           split=split, stage_mixup=stage_mixup)
    return float(np.mean(predict(dataset.x_test) == dataset.y_test))


def _without_mixup(config: TrainConfig) -> TrainConfig:
    return replace(config, mixup_alpha=0.0) if config.mixup_alpha else config
