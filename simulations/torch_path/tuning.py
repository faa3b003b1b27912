"""A CNN's learning rate and number of epochs chosen on a validation split with privatized labels (issue 22).

The CNN counterpart of :mod:`simulations.learning.validation_tuning` (the rule of ``lp_mst_digits``'
``tuned_knn``), shared by every label treatment of ``cnn_benchmarks``:

* The caller carves a label-independent validation split out of the training data and privatizes its
  labels **once**, by K-ary randomized response at the method's ε (004 eq. (1)); they are never trained
  on. The non-private reference gets the true validation labels.
* For each learning rate of a small grid, **one** training run (Adam, the same seed, so the same initial
  weights and batch order for every rate) is read at a few epoch checkpoints: the network after e
  epochs of that run is the network of a run with ``epochs = e``
  (:func:`~simulations.torch_path.training.fit_classifier`'s ``on_epoch``), so the epochs cost nothing
  beyond the longest run.
* The chosen (learning rate, epochs) is the grid cell whose predictions on the validation images agree
  most often with the validation labels (ties: the smaller rate, then the fewer epochs). For RR labels
  with keep probability a and other probability b, ``P(z = ŷ) = b + (a − b)·P(y = ŷ)`` is an increasing
  affine function of the true accuracy, so the agreement ranks the cells as the (unobserved) validation
  accuracy does, up to sampling noise.

Privacy: the choice is a function of the images, of the training labels as the method privatized them
and of the validation labels as RR privatized them; each label is used by exactly one ε-label-DP release
(the validation labels by RR, the training labels by the method), so the tuned method is ε-label DP
(parallel composition over disjoint label sets; the choice is post-processing). No test label is read:
``probe`` images, when given, only get predicted at every grid cell, for a sensitivity table.

References: 004 eq. (1), Appendix E (hyperparameters tuned); 000 Section 5.2 (Adam, lr 0.001; "all
methods with their own optimal parameters").
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

import numpy as np

from limits.validation import check_int, check_real
from simulations.torch_path import require_torch
from simulations.torch_path.training import TrainConfig, fit_classifier

torch = require_torch()

__all__ = ["TunedFit", "TuningGrid", "Validation", "checkpoint_epochs", "fit_tuned"]


def checkpoint_epochs(max_epochs: int) -> tuple[int, ...]:
    """The epoch checkpoints read in one run of ``max_epochs`` epochs: ⌈E/4⌉, ⌈E/2⌉ and E, without repeats.

    Parameters
    ----------
    max_epochs : int >= 1
        E, the length of the run.

    Returns
    -------
    tuple of int
        Increasing epoch counts, the last one E.

    Raises
    ------
    ValueError
        If ``max_epochs`` is not an integer >= 1.

    References
    ----------
    Issue 22 item 2 (epochs chosen on validation data, read at checkpoints of one run).

    Examples
    --------
    >>> checkpoint_epochs(20), checkpoint_epochs(5), checkpoint_epochs(1)
    ((5, 10, 20), (2, 3, 5), (1,))
    """
    e = check_int("max_epochs", max_epochs, low=1)
    return tuple(sorted({-(-e // 4), -(-e // 2), e}))


@dataclass(frozen=True, slots=True)
class TuningGrid:
    """The candidate learning rates and the epoch checkpoints read in each rate's one run.

    Parameters
    ----------
    lrs : tuple of float > 0
        Adam learning rates, increasing.
    epochs : tuple of int >= 1
        Epoch checkpoints, increasing; each rate's run lasts ``epochs[-1]`` epochs.

    Raises
    ------
    ValueError
        Naming the field: empty, out of range or not increasing.

    References
    ----------
    000 Section 5.2 (Adam); issue 22 item 2.

    Examples
    --------
    >>> g = TuningGrid(lrs=(1e-3, 3e-3), epochs=(2, 3, 5))
    >>> g.shape, g.cells()[:2]
    ((2, 3), [(0.001, 2), (0.001, 3)])
    >>> TuningGrid(lrs=(1e-3,), epochs=(5, 2))
    Traceback (most recent call last):
    ...
    ValueError: epochs must be increasing integers >= 1, got epochs=(5, 2)
    """

    lrs: tuple
    epochs: tuple

    def __post_init__(self):
        lrs, ep = tuple(self.lrs), tuple(self.epochs)
        if not lrs:
            raise ValueError(f"lrs must hold at least one learning rate, got lrs={self.lrs!r}")
        for lr in lrs:
            check_real("lrs", lr, low=0.0, low_open=True)
        if any(b <= a for a, b in zip(lrs, lrs[1:])):
            raise ValueError(f"lrs must be increasing, got lrs={self.lrs!r}")
        if not ep or not all(isinstance(e, (int, np.integer)) and not isinstance(e, bool) and e >= 1 for e in ep) \
                or any(b <= a for a, b in zip(ep, ep[1:])):
            raise ValueError(f"epochs must be increasing integers >= 1, got epochs={self.epochs!r}")
        object.__setattr__(self, "lrs", tuple(float(x) for x in lrs))
        object.__setattr__(self, "epochs", tuple(int(e) for e in ep))

    @property
    def shape(self) -> tuple[int, int]:
        """(number of learning rates, number of epoch checkpoints).

        Returns
        -------
        tuple of int

        Examples
        --------
        >>> TuningGrid(lrs=(1e-3, 3e-3, 1e-2), epochs=(5, 10, 20)).shape
        (3, 3)
        """
        return len(self.lrs), len(self.epochs)

    def cells(self) -> list[tuple[float, int]]:
        """Every (learning rate, epochs) cell, in the tie-breaking order (smaller rate, then fewer epochs).

        Returns
        -------
        list of (float, int)

        Examples
        --------
        >>> TuningGrid(lrs=(1e-3, 3e-3), epochs=(1, 2)).cells()
        [(0.001, 1), (0.001, 2), (0.003, 1), (0.003, 2)]
        """
        return [(lr, e) for lr in self.lrs for e in self.epochs]


@dataclass(frozen=True)
class Validation:
    """What the tuning may read: validation images with their privatized labels, and the grid.

    Parameters
    ----------
    x : ndarray, shape (v, H, W) or (v, H, W, C)
        Validation images (uint8; scaled by the caller's pixel maximum). Never trained on.
    labels : ndarray of int, shape (v,)
        Their labels as released once by K-ary randomized response at the method's ε (the true labels
        for the non-private reference).
    grid : TuningGrid
        The candidate learning rates and epoch checkpoints.
    probe : ndarray or None, default None
        Images predicted at every grid cell (the test images, for a sensitivity table); only their
        predictions are recorded, they never enter the choice.

    Raises
    ------
    ValueError
        If ``labels`` is not (v,) integers for v images, or ``grid`` is not a :class:`TuningGrid`.

    References
    ----------
    004 eq. (1) (randomized response); issue 22 item 2.

    Examples
    --------
    >>> import numpy as np
    >>> v = Validation(np.zeros((3, 8, 8), np.uint8), np.array([0, 1, 2]), TuningGrid((1e-3,), (1,)))
    >>> v.labels.tolist(), v.probe is None
    ([0, 1, 2], True)
    """

    x: np.ndarray
    labels: np.ndarray
    grid: TuningGrid
    probe: np.ndarray | None = None

    def __post_init__(self):
        if not isinstance(self.grid, TuningGrid):
            raise ValueError(f"grid must be a TuningGrid, got grid={self.grid!r}")
        lab = np.asarray(self.labels)
        if lab.ndim != 1 or lab.size != len(self.x) or lab.size == 0 or not np.issubdtype(lab.dtype, np.integer):
            raise ValueError(f"labels must be ({len(self.x)},) integers, one per validation image, got shape "
                             f"{lab.shape} of {lab.dtype}")
        object.__setattr__(self, "labels", lab.astype(np.int64))


@dataclass
class TunedFit:
    """The outcome of :func:`fit_tuned`.

    Parameters
    ----------
    model : torch.nn.Module
        The network at the chosen cell (eval mode).
    lr : float
        The chosen learning rate.
    epochs : int
        The chosen number of epochs.
    agreement : ndarray, shape (len(lrs), len(epochs))
        Fraction of validation images whose prediction equals their (privatized) label, per cell.
    probe_predictions : ndarray of int64, shape (len(lrs), len(epochs), m), or None
        Predictions on the probe images per cell (None without probe images).

    References
    ----------
    Issue 22 item 2 (the chosen values are recorded).

    Examples
    --------
    >>> import numpy as np
    >>> TunedFit(None, 1e-3, 5, np.zeros((1, 1)), None).epochs
    5
    """

    model: object
    lr: float
    epochs: int
    agreement: np.ndarray
    probe_predictions: np.ndarray | None


def fit_tuned(x, targets, *, loss: str, config: TrainConfig, seed: int, validation: Validation, scale: float,
              predict, progress: bool = False, desc: str = "train") -> TunedFit:
    """Train one run per learning rate of ``validation.grid`` and keep the cell that agrees most with the labels.

    Parameters
    ----------
    x : torch.Tensor, shape (n, C, H, W)
        Training images (:func:`~simulations.torch_path.training.image_tensor`).
    targets : array_like, shape (n, K)
        Training targets, as for :func:`~simulations.torch_path.training.fit_classifier`.
    loss : {"softmax", "sigmoid"}
        The loss.
    config : TrainConfig
        The other hyper-parameters; its ``lr`` and ``epochs`` are replaced by the grid's.
    seed : int >= 0
        The torch seed of every run (the same initial weights and batch order for every rate).
    validation : Validation
        Validation images, their privatized labels, the grid and the optional probe images.
    scale : float > 0
        Pixel maximum of the validation and probe images.
    predict : callable
        ``predict(model, images_tensor) -> labels (m,)``: the method's prediction rule.
    progress : bool, default False
        A bar over each run's epochs.
    desc : str, default "train"
        The bar's label.

    Returns
    -------
    TunedFit
        The network at the chosen cell, the chosen values, the agreement per cell and the probe
        predictions per cell.

    Raises
    ------
    ValueError
        If ``validation`` is not a :class:`Validation`, or from
        :func:`~simulations.torch_path.training.fit_classifier`.

    References
    ----------
    004 eq. (1) (the agreement with RR labels is affine in the accuracy); issue 22 item 2.

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.torch_path.training import image_tensor, predict_scores
    >>> rng = np.random.default_rng(0)
    >>> imgs, y = rng.integers(0, 17, size=(12, 8, 8), dtype=np.uint8), np.arange(12) % 2
    >>> val = Validation(imgs[:4], y[:4], TuningGrid(lrs=(1e-3, 1e-2), epochs=(1, 2)))
    >>> fit = fit_tuned(image_tensor(imgs, 16.0), np.eye(2)[y], loss="softmax",
    ...                 config=TrainConfig(device="cpu"), seed=0, validation=val, scale=16.0,
    ...                 predict=lambda m, t: predict_scores(m, t).argmax(axis=1))
    >>> fit.agreement.shape, (fit.lr, fit.epochs) in val.grid.cells(), fit.model.epochs_done == fit.epochs
    ((2, 2), True, True)
    """
    from simulations.torch_path.training import image_tensor

    if not isinstance(validation, Validation):
        raise ValueError(f"validation must be a Validation, got validation={validation!r}")
    grid = validation.grid
    xv = image_tensor(validation.x, scale)
    xp = None if validation.probe is None else image_tensor(validation.probe, scale)
    agreement = np.full(grid.shape, np.nan)
    probe = None if xp is None else np.zeros(grid.shape + (xp.shape[0],), dtype=np.int64)
    best = {"score": -np.inf}
    for i, lr in enumerate(grid.lrs):
        def on_epoch(model, done, i=i, lr=lr):
            if done not in grid.epochs:
                return
            j = grid.epochs.index(done)
            agreement[i, j] = float(np.mean(np.asarray(predict(model, xv)) == validation.labels))
            if probe is not None:
                probe[i, j] = np.asarray(predict(model, xp))
            if agreement[i, j] > best["score"]:  # strict: ties keep the earlier cell (smaller lr, fewer epochs)
                best.update(score=agreement[i, j], lr=lr, epochs=done, model=model,
                            state=copy.deepcopy(model.state_dict()))

        fit_classifier(x, targets, loss=loss, config=replace(config, lr=lr, epochs=grid.epochs[-1]), seed=seed,
                       progress=progress, desc=f"{desc} lr={lr:g}", on_epoch=on_epoch)
    model = best["model"]
    model.load_state_dict(best["state"])
    model.eval()
    model.epochs_done = best["epochs"]
    return TunedFit(model=model, lr=best["lr"], epochs=best["epochs"], agreement=agreement,
                    probe_predictions=probe)
