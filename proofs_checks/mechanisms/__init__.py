"""Independent verifiers of every mechanism's privacy, one module per file of
:mod:`simulations.mechanisms` (the closed-form analysis lives beside each mechanism as its
``privacy_loss``; the modules here check it by enumeration, brute force or exact profiles).
Importing this package registers every checker with :func:`proofs_checks.dp.check_label_dp`.
"""

from . import alibi, exponential, histograms, laplace, randomized_response, vector  # noqa: F401  (register)
