"""paper_repro --only with no experiment name is an error, not a silent empty run (review fix)."""

from pathlib import Path
import runpy

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("only", [",", " , ,"])
def test_only_without_names_exits_2(only, capsys, tmp_path):
    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    assert main(["--only", only, "--out", str(tmp_path / "out")]) == 2
    assert "--only names no experiment" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
