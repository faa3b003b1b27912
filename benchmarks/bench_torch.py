"""CPU cost of the torch path: one epoch of the simple CNN on 60 000 synthetic 28x28 images, and the
data pipeline against a per-sample Python reference.

Prints (CPU, the threads given by ``--threads``, default 1 as in the experiments):

1. the wall time of one training epoch of the 000 Section 5.2 simple CNN on 60 000 random 28x28
   images (batch 400, Adam, as in 000 Section 5.2) through :func:`fit_classifier` -- the MNIST-size
   epoch the issue asks to measure;
2. the time of the in-memory batching the loop uses (one permutation, tensor indexing per batch) vs a
   per-sample reference (a Python loop building each batch image by image from the uint8 array, the
   pattern of a ``Dataset.__getitem__`` + transform pipeline), and the ratio; and the share of the
   epoch spent on batching;
3. one digits training run of ``cnn_benchmarks`` (simple CNN 8x8 variant, 20 epochs, batch 128).

Timings come from one run on a shared machine; report ``uptime`` with them. Nothing is asserted.

    python benchmarks/bench_torch.py [--threads N] [--n 60000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from simulations.datasets import load_digits  # noqa: E402
from simulations.experiments.learning.cnn_benchmarks import DIGITS_TRAIN  # noqa: E402
from simulations.torch_path.methods import method_accuracy  # noqa: E402
from simulations.torch_path.training import TrainConfig, fit_classifier, image_tensor  # noqa: E402


def batching_in_memory(x, batch: int, gen) -> float:
    t0 = time.perf_counter()
    perm = torch.randperm(x.shape[0], generator=gen)
    s = 0.0
    for start in range(0, x.shape[0], batch):
        s += float(torch.index_select(x, 0, perm[start:start + batch])[0, 0, 0, 0])
    return time.perf_counter() - t0


def batching_per_sample(images: np.ndarray, batch: int, rng) -> float:
    t0 = time.perf_counter()
    perm = rng.permutation(images.shape[0])
    s = 0.0
    for start in range(0, images.shape[0], batch):
        xb = torch.stack([torch.from_numpy(images[i].astype(np.float32) / 255.0)[None] for i in perm[start:start + batch]])
        s += float(xb[0, 0, 0, 0])
    return time.perf_counter() - t0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--n", type=int, default=60000)
    args = p.parse_args()
    torch.set_num_threads(args.threads)  # also for the batching comparison (2 threads on a busy 2-core box: 10x slower)
    print(f"torch {torch.__version__}, CPU, {args.threads} thread(s); load average {os.getloadavg()}")
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(args.n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, size=args.n)
    t0 = time.perf_counter()
    x = image_tensor(images, 255.0)
    t_tensor = time.perf_counter() - t0
    targets = np.eye(10, dtype=np.float32)[labels]
    cfg = TrainConfig(model="simple_cnn", epochs=1, batch_size=400, device="cpu", num_threads=args.threads)
    t0 = time.perf_counter()
    fit_classifier(x, targets, loss="softmax", config=cfg, seed=0)
    t_epoch = time.perf_counter() - t0
    print(f"1. one epoch, simple CNN, {args.n} x 28x28, batch 400: {t_epoch:.2f} s "
          f"({args.n / t_epoch:.0f} images/s); uint8 -> float tensor once: {t_tensor:.3f} s")
    gen = torch.Generator().manual_seed(0)
    t_mem = batching_in_memory(x, 400, gen)
    t_loop = batching_per_sample(images, 400, np.random.default_rng(1))
    print(f"2. batching one epoch: in-memory tensor indexing {t_mem:.3f} s, per-sample Python loop {t_loop:.3f} s "
          f"(ratio {t_loop / t_mem:.1f}x); batching is {100 * t_mem / t_epoch:.1f} % of the epoch")
    ds = load_digits()
    cfg = TrainConfig(**DIGITS_TRAIN, device="cpu", num_threads=args.threads)
    t0 = time.perf_counter()
    acc = method_accuracy("RR", ds, 2.0, np.random.default_rng(0), cfg)
    print(f"3. digits, RR at ε = 2, {cfg.epochs} epochs, batch {cfg.batch_size}: {time.perf_counter() - t0:.2f} s "
          f"(test accuracy {acc:.3f}); load average now {os.getloadavg()}")


if __name__ == "__main__":
    main()
