"""A small multilayer perceptron with one sigmoid per class, trained with BCE on the vector mechanism's bits.

000 Section 4.3: the K models g_1, ..., g_K of eq. (15) share every layer but the last, whose K outputs
go through a sigmoid and are fitted to the privatized K-bit vectors Z with binary cross-entropy (not
softmax: Z may hold several ones). 000 Appendix B.2 argues that the minimizer of eq. (35) then
approximates η̃_j (eq. (43)); :mod:`simulations.experiments.vector.neural_network` measures how well.

The number of epochs is the one hyper-parameter tuned, on a validation part carved from the training
set (its own privatized bits, never the test points): every epoch the mean BCE on the validation bits is
computed and the weights of the best epoch are returned (early stopping). Adam with learning rate 0.001
and batches of 400 are 000 Section 5.2's settings.

Reproducibility as in :mod:`.training`: inside :func:`torch.random.fork_rng`, ``torch.manual_seed(seed)``
then the initial weights and each epoch's permutation in a fixed order, deterministic kernels on one thread.

References: 000 Section 4.3, Section 5.2 (Adam, lr 0.001, batch 400), Appendix B.2 eq. (35)-(43).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_real
from simulations.torch_path import require_torch
from simulations.torch_path.training import _deterministic

torch = require_torch()
F = torch.nn.functional

__all__ = ["MLPConfig", "SigmoidMLP", "fit_sigmoid_mlp", "sigmoid_outputs"]


@dataclass(frozen=True, slots=True)
class MLPConfig:
    """Architecture and training settings of :func:`fit_sigmoid_mlp` (validated once).

    Parameters
    ----------
    hidden : int >= 1, default 64
        Units of each hidden layer (ReLU).
    depth : int >= 1, default 2
        Hidden layers.
    max_epochs : int >= 1, default 60
        Epochs trained; the returned weights are those of the epoch with the lowest validation BCE.
    batch_size : int >= 1, default 400
        Points per Adam step (000 Section 5.2: 400).
    lr : float > 0, default 0.001
        Adam's learning rate (000 Section 5.2: 0.001).
    val_fraction : float in (0, 1), default 0.2
        Fraction of the training points held out to choose the epoch.

    Raises
    ------
    ValueError
        Naming the first field out of range.

    References
    ----------
    000 Section 4.3 (shared layers, sigmoid outputs, BCE), Section 5.2 (Adam, lr 0.001, batch 400).

    Examples
    --------
    >>> MLPConfig().batch_size, MLPConfig().lr
    (400, 0.001)
    >>> MLPConfig(val_fraction=1.0)
    Traceback (most recent call last):
    ...
    ValueError: val_fraction must be < 1.0, got val_fraction=1.0
    """

    hidden: int = 64
    depth: int = 2
    max_epochs: int = 60
    batch_size: int = 400
    lr: float = 1e-3
    val_fraction: float = 0.2

    def __post_init__(self):
        check_int("hidden", self.hidden, low=1)
        check_int("depth", self.depth, low=1)
        check_int("max_epochs", self.max_epochs, low=1)
        check_int("batch_size", self.batch_size, low=1)
        check_real("lr", self.lr, low=0.0, low_open=True)
        check_real("val_fraction", self.val_fraction, low=0.0, high=1.0, low_open=True, high_open=True)


class SigmoidMLP(torch.nn.Module):
    """``depth`` ReLU layers of ``hidden`` units shared by all classes, then K logits (000 Section 4.3).

    Parameters
    ----------
    in_features : int
        Dimension d of x.
    num_classes : int
        K outputs, one logit per class (the sigmoid is applied by the loss / :func:`sigmoid_outputs`).
    hidden : int
        Units per hidden layer.
    depth : int
        Hidden layers.

    References
    ----------
    000 Section 4.3 (w_1, ..., w_K share all parameters but the last layer).

    Examples
    --------
    >>> SigmoidMLP(2, 5, hidden=8, depth=2)(torch.zeros(3, 2)).shape
    torch.Size([3, 5])
    """

    def __init__(self, in_features: int, num_classes: int, *, hidden: int, depth: int):
        super().__init__()
        layers, width = [], in_features
        for _ in range(depth):
            layers += [torch.nn.Linear(width, hidden), torch.nn.ReLU()]
            width = hidden
        self.body = torch.nn.Sequential(*layers)
        self.head = torch.nn.Linear(width, num_classes)

    def forward(self, x):
        """Logits, shape (n, K), of x of shape (n, d).

        Parameters
        ----------
        x : torch.Tensor, shape (n, d)
            Features.

        Returns
        -------
        torch.Tensor, shape (n, K)
            One logit per class.

        Examples
        --------
        >>> SigmoidMLP(2, 3, hidden=4, depth=1).forward(torch.ones(1, 2)).shape
        torch.Size([1, 3])
        """
        return self.head(self.body(x))


def fit_sigmoid_mlp(X, Z, *, config: MLPConfig, seed: int):
    """Train :class:`SigmoidMLP` on (X, Z) with BCE (000 eq. (35)), the epoch chosen on a validation part.

    The last ``round(val_fraction * n)`` rows of a seeded permutation are the validation part; the model
    is trained on the others for ``max_epochs`` epochs, and the weights of the epoch whose mean BCE on
    the validation bits is lowest are returned.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features.
    Z : array_like, shape (n, K), entries 0/1
        The privatized bit vectors (000 eq. (12)-(13)).
    config : MLPConfig
        Architecture and training settings.
    seed : int >= 0
        The torch seed, drawn by the caller from a SeedSequence stream.

    Returns
    -------
    model : SigmoidMLP
        In eval mode, with the best epoch's weights; ``model.best_epoch`` (1-based) and
        ``model.val_bce`` (its validation BCE) are set.

    Raises
    ------
    ValueError
        If X is not 2-D, Z is not (n, K) with K >= 2 and entries in {0, 1}, the seed is negative, or
        the validation or training part would be empty.

    References
    ----------
    000 Section 4.3, Section 5.2; Appendix B.2 eq. (35).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2)); Z = (rng.random((60, 3)) < 0.5).astype(np.uint8)
    >>> m = fit_sigmoid_mlp(X, Z, config=MLPConfig(hidden=8, max_epochs=3, batch_size=16), seed=1)
    >>> 1 <= m.best_epoch <= 3, sigmoid_outputs(m, X).shape
    (True, (60, 3))
    """
    X, Z = np.asarray(X, dtype=np.float32), np.asarray(Z)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n, d), got shape {X.shape}")
    if Z.ndim != 2 or Z.shape[0] != X.shape[0] or Z.shape[1] < 2 or not np.isin(Z, (0, 1)).all():
        raise ValueError(f"Z must be (n={X.shape[0]}, K >= 2) bits in {{0, 1}}, got shape {Z.shape}")
    seed = check_int("seed", seed, low=0)
    n_val = int(round(config.val_fraction * X.shape[0]))
    if not 1 <= n_val < X.shape[0]:
        raise ValueError(f"val_fraction={config.val_fraction} leaves an empty part of n={X.shape[0]} points")
    with torch.random.fork_rng(devices=[]), _deterministic(torch.device("cpu"), 1):
        torch.manual_seed(seed)
        model = SigmoidMLP(X.shape[1], Z.shape[1], hidden=config.hidden, depth=config.depth)
        opt = torch.optim.Adam(model.parameters(), lr=config.lr)
        perm = torch.randperm(X.shape[0])
        x, z = torch.from_numpy(X)[perm], torch.from_numpy(Z.astype(np.float32))[perm]
        xt, zt, xv, zv = x[n_val:], z[n_val:], x[:n_val], z[:n_val]
        best = (np.inf, 0, None)
        for epoch in range(1, config.max_epochs + 1):
            model.train()
            order = torch.randperm(xt.shape[0])
            for start in range(0, xt.shape[0], config.batch_size):
                idx = order[start:start + config.batch_size]
                opt.zero_grad(set_to_none=True)
                F.binary_cross_entropy_with_logits(model(xt[idx]), zt[idx]).backward()
                opt.step()
            model.eval()
            with torch.no_grad():
                val = float(F.binary_cross_entropy_with_logits(model(xv), zv))
            if val < best[0]:
                best = (val, epoch, {k: v.clone() for k, v in model.state_dict().items()})
        model.load_state_dict(best[2])
    model.eval()
    model.val_bce, model.best_epoch = best[0], best[1]
    return model


def sigmoid_outputs(model, X) -> np.ndarray:
    """The K sigmoid outputs g_j(x) of a trained model (000 eq. (15)), float64, shape (n, K).

    Parameters
    ----------
    model : SigmoidMLP
        A trained model.
    X : array_like, shape (n, d)
        Features.

    Returns
    -------
    ndarray of float64, shape (n, K)
        ``sigmoid(logits)``, in (0, 1).

    References
    ----------
    000 eq. (15), Section 4.3.

    Examples
    --------
    >>> m = SigmoidMLP(2, 3, hidden=4, depth=1)
    >>> g = sigmoid_outputs(m, np.zeros((2, 2)))
    >>> g.shape, bool(((g > 0) & (g < 1)).all())
    ((2, 3), True)
    """
    with torch.no_grad(), _deterministic(torch.device("cpu"), 1):
        logits = model(torch.from_numpy(np.asarray(X, dtype=np.float32)))
    return torch.sigmoid(logits.double()).numpy()
