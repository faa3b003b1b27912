"""Real data sets for the learning experiments of 004, read from files only (never downloaded).

* :func:`load_digits` -- scikit-learn's bundled handwritten digits (8x8, 1797 images, 10 classes),
  the built-in real benchmark: no ``--data-dir`` needed.
* :func:`load_dataset` ``(name, data_dir)`` -- MNIST, Fashion-MNIST, KMNIST (IDX ``.gz``),
  CIFAR-10 / CIFAR-100 (python pickles), MovieLens-1M (``ratings.dat``) from a user-given folder,
  in their standard distribution formats. :func:`expected_files` says what goes where;
  :func:`available_datasets` lists those present; :func:`validate_data_dir` also reads each of them
  in full and checks it (what ``--data-dir`` is checked with, before any experiment runs).
* :mod:`.formats` -- the readers of the file formats (:func:`read_idx`, ...), shared by the
  loaders and the validation: a corrupt file raises ``ValueError`` naming the data set, the file
  and the reason.

Every loader returns a :class:`Dataset`: images as uint8 arrays ``(n, H, W)`` or ``(n, H, W, C)``,
labels as int64 class indices in ``[0, num_classes)``.

References: 004 Appendix B (the data sets of the evaluation).
"""

from .loaders import (DATASETS, Dataset, available_datasets, expected_files, load_dataset, load_digits, read_idx,
                      validate_data_dir)

__all__ = ["DATASETS", "Dataset", "available_datasets", "expected_files", "load_dataset", "load_digits", "read_idx",
           "validate_data_dir"]
