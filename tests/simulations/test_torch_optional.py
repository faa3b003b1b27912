"""Without torch: the suite imports, cnn_benchmarks and vector_nn_approximation are skipped with the install line, the torch path says so in one line.

Runs whether or not torch is installed: a subprocess hides torch with an import finder that refuses it
(``import torch`` raises ModuleNotFoundError, as on a machine without it).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib.abc, sys


class NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r}")


sys.meta_path.insert(0, NoTorch())
import simulations, simulations.torch_path as tp
from simulations.experiments import REGISTRY
from simulations.experiments.base import RunContext
import simulations.experiments.learning.cnn_benchmarks as cb
assert "cnn_benchmarks" in REGISTRY and not tp.torch_available()
from simulations.experiments.base import ExperimentSkipped
try:
    cb.compute(RunContext(profile="smoke", progress=False))
except ExperimentSkipped as exc:
    print("SKIPPED:", exc)
import simulations.experiments.vector.neural_network as nnx  # 000 App. B.2's network: torch only inside its trials
try:
    nnx.compute(RunContext(profile="smoke", progress=False))
except ExperimentSkipped as exc:
    print("SKIPPED_NN:", exc)
try:
    tp.fit_classifier
except ImportError as exc:
    print("ERROR:", exc)
try:
    import simulations.torch_path.training
except ImportError as exc:
    print("ERROR2:", exc)
"""


def test_without_torch_everything_imports_and_cnn_benchmarks_says_what_to_install():
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg"})
    assert out.returncode == 0, out.stderr[-3000:]
    hint = "torch is not installed: pip install -e '.[torch]'"
    lines = out.stdout.splitlines()
    assert any(line.startswith("SKIPPED: " + hint) for line in lines)
    assert any(line.startswith("SKIPPED_NN: " + hint) for line in lines)
    assert any(line.startswith("ERROR: " + hint) for line in lines)
    assert any(line.startswith("ERROR2: " + hint) for line in lines)
