"""The optional torch path: image classifiers trained on privatized labels (000 Section 4.3, 5.2; 004 App. B).

This package is the only place of the suite that imports ``torch``, and it does so lazily: importing
``simulations.torch_path`` itself needs no torch; its members (:mod:`.models`, :mod:`.training`,
:mod:`.methods`) are loaded on first access and, when torch is missing, raise one ``ImportError``
whose message says which extra to install (:data:`INSTALL_HINT`).

* :mod:`.models` -- the simple CNN of 000 Section 5.2 (two conv + max-pool layers, dropout 0.5; a
  padded variant for the 8x8 digits) and a CIFAR ResNet-18 (pre-activation, 3x3 stem; 004 App. B).
* :mod:`.training` -- one seeded training loop for every label treatment (hard labels with mixup,
  soft labels, bit vectors with a sigmoid output and BCE), per-epoch progress bar, atomic
  checkpoints so an interrupted run resumes bit-identically.
* :mod:`.methods` -- the four label treatments: RR and LP-2ST (cross-entropy + mixup; LP-2ST through
  :class:`simulations.learning.LPMST`), ALIBI (soft-label cross-entropy), vector approximation
  (sigmoid + BCE on Z, debiased arg-max, 000 eq. (12)-(16)).
* :mod:`.mlp` -- a small ReLU network on R^d features with K sigmoid outputs trained with BCE on the
  vector mechanism's bits, its epoch chosen on a validation part (000 Section 4.3, Appendix B.2).
"""

from __future__ import annotations

import importlib
import importlib.util

__all__ = ["INSTALL_HINT", "require_torch", "torch_available"]

INSTALL_HINT = "torch is not installed: pip install -e '.[torch]' (the CPU build torch==2.13.0 is enough)"

_LAZY = {
    "SimpleCNN": "models", "ResNet18": "models", "MODELS": "models", "build_model": "models",
    "TrainConfig": "training", "fit_classifier": "training", "predict_scores": "training",
    "resolve_device": "training", "image_tensor": "training", "LOSSES": "training",
    "METHODS": "methods", "TorchClassifier": "methods", "train_method": "methods",
    "vector_debiased_scores": "methods", "method_accuracy": "methods",
}


def torch_available() -> bool:
    """True when ``import torch`` would succeed (checked without importing it).

    Returns
    -------
    bool
        Whether an import finder locates ``torch`` (a module spec exists).

    References
    ----------
    docs/design.md, "Ecosystem notes": heavy dependencies are optional extras, imported lazily.

    Examples
    --------
    This module's examples run only where torch is installed (``tests/test_doctests.py``):

    >>> torch_available()
    True
    """
    try:
        return importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):  # a finder that refuses torch, or a broken half-import
        return False


def require_torch():
    """Import and return ``torch``, or raise ``ImportError(INSTALL_HINT)`` (one line).

    Returns
    -------
    module
        The ``torch`` module.

    Raises
    ------
    ImportError
        With :data:`INSTALL_HINT` as its message when torch is not installed.

    References
    ----------
    docs/design.md, "Ecosystem notes": optional extras imported lazily with a clear message when missing.

    Examples
    --------
    >>> require_torch().__name__
    'torch'
    """
    try:
        import torch
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return torch


def __getattr__(name):
    if name in _LAZY:
        require_torch()
        module = importlib.import_module(f"{__name__}.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
