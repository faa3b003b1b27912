"""One seeded training loop for image classifiers on privatized labels, with resumable checkpoints.

Every label treatment of the CNN benchmarks goes through :func:`fit_classifier`; only the target
matrix and the loss differ (:data:`LOSSES`):

* ``"softmax"`` -- targets are rows of class probabilities (one-hot privatized labels for RR and
  LP-2ST, ALIBI's Bayesian soft labels); loss = soft-label cross-entropy ``-sum_k t_k log softmax_k``
  (equal to the usual cross-entropy on one-hot rows). With ``mixup_alpha > 0`` each batch is replaced
  by ``lam * batch + (1 - lam) * shuffled batch`` on inputs and targets alike, ``lam ~ Beta(α, α)``
  (mixup, 004 Appendix B "Learning with Noisy Labels").
* ``"sigmoid"`` -- targets are the K-bit vectors Z of the vector mechanism; the output layer is a
  per-class sigmoid and the loss binary cross-entropy on Z (000 Section 4.3; computed on logits with
  ``binary_cross_entropy_with_logits``, the numerically stable form of sigmoid + BCE).

Reproducibility. The caller passes an integer ``seed`` drawn from one of the suite's SeedSequence
streams; inside a :func:`torch.random.fork_rng` block (the caller's torch generator is left as it
was) the loop calls ``torch.manual_seed(seed)`` and then draws everything from torch's generator in
a fixed order: the initial weights, each epoch's permutation, mixup's λ and partners, dropout. On CPU
it runs under ``torch.use_deterministic_algorithms(True)`` with ``num_threads`` threads (1 by
default, so a run gives the same weights whatever the number of worker processes next to it). On
CUDA (chosen automatically when present) cuDNN is set to deterministic, non-benchmark mode.

Checkpoints. With ``checkpoint_dir`` the model, optimizer, epoch and generator state are saved after
every epoch under a name that hashes the whole training problem (config, seed, inputs, targets),
written to a temporary file and renamed (atomic: a kill never leaves a half-written checkpoint). A
later call with the same problem resumes after the last finished epoch and ends with the same
weights as an uninterrupted run; a finished checkpoint is loaded without training.

References: 000 Section 4.3 (sigmoid + BCE), Section 5.2 (Adam, lr 0.001); 004 Appendix B (mixup).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from limits.validation import check_choice, check_int, check_real
from simulations.torch_path import require_torch
from simulations.torch_path.models import MODELS, build_model

torch = require_torch()
F = torch.nn.functional

__all__ = ["LOSSES", "PREDICT_BATCH", "TrainConfig", "checkpoint_path", "fit_classifier", "image_tensor",
           "predict_scores", "resolve_device"]

LOSSES = ("softmax", "sigmoid")
CHECKPOINT_VERSION = 1


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """Hyper-parameters of one training run (validated once).

    Parameters
    ----------
    model : {"simple_cnn", "resnet18"}, default "simple_cnn"
        One of :data:`~simulations.torch_path.models.MODELS`.
    epochs : int >= 1, default 20
        Passes over the training set.
    batch_size : int >= 1, default 64
        Images per Adam step.
    lr : float > 0, default 0.001
        Adam's learning rate (000 Section 5.2: 0.001).
    weight_decay : float >= 0, default 0
        Adam's L2 coefficient.
    mixup_alpha : float >= 0, default 0
        α of mixup's ``Beta(α, α)``; 0 = no mixup (004 Appendix B).
    flip : bool, default False
        Random horizontal flips (batched, for CIFAR).
    device : {None, "cpu", "cuda"}, default None
        None: CUDA when present, else CPU.
    num_threads : int >= 1, default 1
        torch CPU threads during training.

    Raises
    ------
    ValueError
        Naming the first field out of range.

    References
    ----------
    000 Section 5.2 (Adam, learning rate 0.001); 004 Appendix B (mixup, training details).

    Examples
    --------
    >>> TrainConfig(epochs=2).lr
    0.001
    >>> TrainConfig(batch_size=0)
    Traceback (most recent call last):
    ...
    ValueError: batch_size must be an integer >= 1, got batch_size=0
    """

    model: str = "simple_cnn"
    epochs: int = 20
    batch_size: int = 64
    lr: float = 1e-3
    weight_decay: float = 0.0
    mixup_alpha: float = 0.0
    flip: bool = False
    device: str | None = None
    num_threads: int = 1

    def __post_init__(self):
        check_choice("model", self.model, MODELS)
        check_int("epochs", self.epochs, low=1)
        check_int("batch_size", self.batch_size, low=1)
        check_real("lr", self.lr, low=0.0, low_open=True)
        check_real("weight_decay", self.weight_decay, low=0.0)
        check_real("mixup_alpha", self.mixup_alpha, low=0.0)
        if self.device is not None:
            check_choice("device", self.device, ("cpu", "cuda"))
        check_int("num_threads", self.num_threads, low=1)


def resolve_device(device: str | None = None):
    """``torch.device``: CUDA when available and ``device`` is None, else CPU; "cuda" without a GPU
    raises ``ValueError``.

    Parameters
    ----------
    device : {None, "cpu", "cuda"}, default None
        The device asked for.

    Returns
    -------
    torch.device

    Raises
    ------
    ValueError
        For another name, or ``"cuda"`` when torch sees no CUDA device.

    References
    ----------
    docs/design.md, "Ecosystem notes" (torch is an optional extra; the CPU build is enough).

    Examples
    --------
    >>> resolve_device("cpu")
    device(type='cpu')
    """
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    check_choice("device", device, ("cpu", "cuda"))
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device='cuda' was asked for but torch sees no CUDA device")
    return torch.device(device)


def image_tensor(images: np.ndarray, scale: float):
    """uint8 images (n, H, W) or (n, H, W, C) -> float32 tensor (n, C, H, W) = pixel / scale, made once
    (whole data set in memory, no per-sample transform).

    Parameters
    ----------
    images : ndarray, shape (n, H, W) or (n, H, W, C)
        Pixels (uint8 for the loaders of :mod:`simulations.datasets`).
    scale : float > 0
        The pixel maximum (:func:`~simulations.torch_path.methods.pixel_scale`).

    Returns
    -------
    torch.Tensor, shape (n, C, H, W), float32
        Channels first (C = 1 for 3-D input).

    Raises
    ------
    ValueError
        If ``images`` is not 3-D or 4-D, or ``scale`` is not > 0.

    References
    ----------
    000 Section 5.2 (the CNN benchmarks' inputs).

    Examples
    --------
    >>> import numpy as np
    >>> t = image_tensor(np.full((2, 32, 32, 3), 255, dtype=np.uint8), 255.0)
    >>> tuple(t.shape), t.dtype, float(t.max())
    ((2, 3, 32, 32), torch.float32, 1.0)
    """
    a = np.asarray(images)
    if a.ndim == 3:
        a = a[:, None, :, :]
    elif a.ndim == 4:
        a = a.transpose(0, 3, 1, 2)
    else:
        raise ValueError(f"images must have shape (n, H, W) or (n, H, W, C), got shape {a.shape}")
    check_real("scale", scale, low=0.0, low_open=True)
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32) / np.float32(scale))


def _check_targets(targets: np.ndarray, n: int, loss: str) -> np.ndarray:
    t = np.asarray(targets, dtype=np.float32)
    if t.ndim != 2 or t.shape[0] != n:
        raise ValueError(f"targets must have shape ({n}, K), got shape {t.shape}")
    if not np.all(np.isfinite(t)) or t.min() < 0 or t.max() > 1:
        raise ValueError("targets must lie in [0, 1]")
    if loss == "softmax" and not np.allclose(t.sum(axis=1), 1.0, atol=1e-4):
        raise ValueError("softmax targets must be rows of class probabilities summing to 1")
    return t


def checkpoint_path(checkpoint_dir, x, targets: np.ndarray, loss: str, config: TrainConfig, seed: int) -> Path:
    """``<checkpoint_dir>/<sha256 of (version, config, loss, seed, inputs, targets)>.pt``.

    ``device`` and ``num_threads`` are left out of the key (they do not change the problem), so
    a run resumes on another machine.

    Parameters
    ----------
    checkpoint_dir : path-like
        The folder.
    x : torch.Tensor, shape (n, C, H, W)
        The training inputs (hashed byte for byte).
    targets : ndarray, shape (n, K)
        The training targets (hashed as float32).
    loss : {"softmax", "sigmoid"}
        The loss.
    config : TrainConfig
        The hyper-parameters.
    seed : int
        The torch seed.

    Returns
    -------
    pathlib.Path
        ``checkpoint_dir / "<first 32 hex digits>.pt"``.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": results keyed by a hash of the full
    problem; a killed run resumes.

    Examples
    --------
    >>> import numpy as np, torch
    >>> x, t = torch.zeros(2, 1, 8, 8), np.eye(2)
    >>> p = checkpoint_path("ck", x, t, "softmax", TrainConfig(), seed=1)
    >>> len(p.stem), p.suffix, p == checkpoint_path("ck", x, t, "softmax", TrainConfig(device="cpu"), seed=1)
    (32, '.pt', True)
    >>> p == checkpoint_path("ck", x, t, "softmax", TrainConfig(), seed=2)
    False
    """
    h = hashlib.sha256()
    h.update(json.dumps({"v": CHECKPOINT_VERSION, "config": {k: v for k, v in asdict(config).items()
                                                              if k not in ("device", "num_threads")},
                         "loss": loss, "seed": int(seed), "x_shape": list(x.shape)}, sort_keys=True).encode())
    h.update(x.numpy().tobytes())
    h.update(np.ascontiguousarray(targets, dtype=np.float32).tobytes())
    return Path(checkpoint_dir) / f"{h.hexdigest()[:32]}.pt"


def _atomic_save(obj, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


@contextlib.contextmanager
def _deterministic(device, num_threads: int):
    """Deterministic kernels (CPU) / deterministic cuDNN (CUDA), restoring the previous settings."""
    prev_det, prev_threads = torch.are_deterministic_algorithms_enabled(), torch.get_num_threads()
    prev_cudnn = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
    try:
        if device.type == "cpu":
            torch.use_deterministic_algorithms(True)
            torch.set_num_threads(num_threads)
        else:
            torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = True, False
        yield
    finally:
        torch.use_deterministic_algorithms(prev_det)
        torch.set_num_threads(prev_threads)
        torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = prev_cudnn


def _loss(logits, target, loss: str):
    if loss == "sigmoid":
        return F.binary_cross_entropy_with_logits(logits, target)
    return -(target * F.log_softmax(logits, dim=1)).sum(dim=1).mean()


def _epoch(model, opt, x, t, config: TrainConfig, loss: str, device) -> float:
    """One pass over (x, t) in a random order; returns the mean batch loss."""
    n = x.shape[0]
    perm = torch.randperm(n)
    beta = torch.distributions.Beta(config.mixup_alpha, config.mixup_alpha) if config.mixup_alpha > 0 else None
    total, batches = 0.0, 0
    for start in range(0, n, config.batch_size):
        idx = perm[start:start + config.batch_size].to(device)
        xb, tb = torch.index_select(x, 0, idx), torch.index_select(t, 0, idx)  # faster than x[idx]
        if config.flip:
            flip = (torch.rand(xb.shape[0]) < 0.5).to(device)
            xb = torch.where(flip[:, None, None, None], xb.flip(3), xb)
        if beta is not None:
            lam = float(beta.sample())
            partner = torch.randperm(xb.shape[0]).to(device)
            xb = lam * xb + (1.0 - lam) * xb[partner]
            tb = lam * tb + (1.0 - lam) * tb[partner]
        opt.zero_grad(set_to_none=True)
        value = _loss(model(xb), tb, loss)
        value.backward()
        opt.step()
        total += float(value.detach())
        batches += 1
    return total / max(batches, 1)


def fit_classifier(x, targets, *, loss: str, config: TrainConfig, seed: int, checkpoint_dir=None,
                   progress: bool = False, stop_after: int | None = None, desc: str = "train", on_epoch=None):
    """Train a fresh :func:`~simulations.torch_path.models.build_model` on (x, targets).

    Parameters
    ----------
    x : torch.Tensor, shape (n, C, H, W), float
        Training images (see :func:`image_tensor`).
    targets : array_like, shape (n, K), entries in [0, 1]
        Class-probability rows for ``loss="softmax"``, 0/1 bit vectors for ``loss="sigmoid"``.
    loss : {"softmax", "sigmoid"}
        One of :data:`LOSSES`: soft-label cross-entropy, or per-class sigmoid + binary
        cross-entropy (000 Section 4.3).
    config : TrainConfig
        The hyper-parameters.
    seed : int >= 0
        The torch seed, drawn by the caller from a SeedSequence stream.
    checkpoint_dir : path-like or None, default None
        Save after every epoch; resume from a saved checkpoint of the same problem.
    progress : bool, default False
        A tqdm bar over epochs (loss shown).
    stop_after : int >= 1 or None, default None
        Train at most this many epochs in this call, then return (the checkpoint keeps the rest for
        a later call; used to time-slice long runs and by the resume test).
    desc : str, default "train"
        The progress bar's label.
    on_epoch : callable or None, default None
        ``on_epoch(model, epochs_done)`` after every epoch trained in this call (the model in eval
        mode; training resumes in train mode). It must not draw from torch's generator: the run then
        ends with the same weights as without it, and the model it sees after e epochs is the model
        of a run with ``epochs = e`` (nothing in the loop depends on ``config.epochs`` but the stop),
        so one run serves every epoch count up to ``config.epochs``
        (:func:`~simulations.torch_path.tuning.fit_tuned`).

    Returns
    -------
    torch.nn.Module
        The model in eval mode, on the chosen device; ``model.epochs_done`` says how many epochs
        it has.

    Raises
    ------
    ValueError
        For an unknown ``loss``, a ``config`` that is not a TrainConfig, a negative ``seed``,
        ``stop_after < 1``, ``x`` that is not 4-D, targets that are not (n, K) in [0, 1] (softmax
        rows must sum to 1), or ``device="cuda"`` without a GPU.

    References
    ----------
    000 Section 4.3 (sigmoid outputs + BCE on Z), Section 5.2 (Adam); 004 Appendix B (mixup).

    Examples
    --------
    >>> import numpy as np, torch
    >>> x = torch.rand(8, 1, 8, 8, generator=torch.Generator().manual_seed(0))
    >>> targets = np.eye(2)[np.arange(8) % 2]
    >>> model = fit_classifier(x, targets, loss="softmax", config=TrainConfig(epochs=1, device="cpu"), seed=3)
    >>> model.epochs_done, model.training
    (1, False)
    """
    check_choice("loss", loss, LOSSES)
    if not isinstance(config, TrainConfig):
        raise ValueError(f"config must be a TrainConfig, got config={config!r}")
    seed = check_int("seed", seed, low=0)
    if stop_after is not None:
        check_int("stop_after", stop_after, low=1)
    if not (hasattr(x, "ndim") and x.ndim == 4):
        raise ValueError(f"x must be a float tensor of shape (n, C, H, W), got {getattr(x, 'shape', type(x))}")
    t_np = _check_targets(targets, x.shape[0], loss)
    device = resolve_device(config.device)
    path = checkpoint_path(checkpoint_dir, x, t_np, loss, config, seed) if checkpoint_dir is not None else None
    devices = [device.index or 0] if device.type == "cuda" else []
    with torch.random.fork_rng(devices=devices), _deterministic(device, config.num_threads):
        torch.manual_seed(seed)
        model = build_model(config.model, in_channels=x.shape[1], image_size=x.shape[2],
                            num_classes=t_np.shape[1]).to(device)
        opt = torch.optim.Adam(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
        start = 0
        if path is not None and path.is_file():
            state = torch.load(path, map_location=device, weights_only=True)
            model.load_state_dict(state["model"])
            opt.load_state_dict(state["opt"])
            torch.set_rng_state(state["rng"])
            if device.type == "cuda" and "cuda_rng" in state:
                torch.cuda.set_rng_state(state["cuda_rng"], device)
            start = int(state["epoch"])
        xd, td = x.to(device), torch.from_numpy(t_np).to(device)
        stop = config.epochs if stop_after is None else min(config.epochs, start + stop_after)
        bar = _bar(config.epochs, start, progress, desc)
        try:
            for epoch in range(start, stop):
                model.train()
                mean_loss = _epoch(model, opt, xd, td, config, loss, device)
                if path is not None:
                    state = {"epoch": epoch + 1, "model": model.state_dict(), "opt": opt.state_dict(),
                             "rng": torch.get_rng_state()}
                    if device.type == "cuda":
                        state["cuda_rng"] = torch.cuda.get_rng_state(device)
                    _atomic_save(state, path)
                if on_epoch is not None:
                    model.eval()
                    on_epoch(model, epoch + 1)
                bar.update(1)
                bar.set_postfix(loss=f"{mean_loss:.4f}")
        finally:
            bar.close()
    model.eval()
    model.epochs_done = max(start, stop)
    return model


def _bar(total: int, initial: int, enabled: bool, desc: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, disable=not enabled, leave=False, desc=desc, unit="epoch")


# Images per forward pass of predict_scores. Small enough that a 28x28 batch's activations (~86 KB per image after
# the first convolution) stay under the mmap threshold glibc has reached after training (the training batches'
# size), so the buffers come from the heap instead of being mapped and faulted in on every call. Measured on the
# MNIST subset (issue 20): predicting its 1000 test images took 0.25 s at 1024 and 0.105 s at 64; 2 epochs with
# the 800 validation and 1000 test images predicted after each had 101,059 page faults at 256 and 13 at 64. The
# logits were identical at 64, 128, 256 and 1024 on the machine measured.
PREDICT_BATCH = 64


def predict_scores(model, x, *, batch_size: int = PREDICT_BATCH, num_threads: int = 1):
    """Logits of ``model`` on x (n, C, H, W), batched without gradients -> float64 array (n, K).

    Runs under the same deterministic settings as training (``num_threads`` CPU threads), so the
    logits, and hence tie-breaking in an arg-max, do not depend on the machine's thread count.

    Parameters
    ----------
    model : torch.nn.Module
        A trained model (put in eval mode here).
    x : torch.Tensor, shape (n, C, H, W)
        Images, moved batch by batch to the model's device.
    batch_size : int >= 1, default :data:`PREDICT_BATCH` (64)
        Images per forward pass (the logits of an image do not depend on it beyond rounding).
    num_threads : int >= 1, default 1
        torch CPU threads.

    Returns
    -------
    ndarray of float64, shape (n, K)
        The logits; shape (0, 0) for an empty ``x``.

    Raises
    ------
    ValueError
        If ``batch_size`` or ``num_threads`` < 1.

    References
    ----------
    000 eq. (16) (predictions are arg-maxes of the outputs); docs/design.md, "Randomness,
    reproducibility, parallelism" (the same numbers whatever the number of workers).

    Examples
    --------
    >>> import torch
    >>> from simulations.torch_path.models import SimpleCNN
    >>> predict_scores(SimpleCNN(1, 8, 3), torch.zeros(5, 1, 8, 8), batch_size=2).shape
    (5, 3)
    """
    check_int("batch_size", batch_size, low=1)
    check_int("num_threads", num_threads, low=1)
    device = next(model.parameters()).device
    model.eval()
    out = []
    with torch.no_grad(), _deterministic(device, num_threads):
        for start in range(0, x.shape[0], batch_size):
            out.append(model(x[start:start + batch_size].to(device)).double().cpu())
    return torch.cat(out).numpy() if out else np.zeros((0, 0))
