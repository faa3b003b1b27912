"""docs/sklearn_pipeline.md runs as written (issue 37): a private estimator in a Pipeline under
cross-validation, the budget that spends, and tuning on labels privatized once."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "sklearn_pipeline.md"


def test_the_pipeline_page_runs_as_written():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 15 and result.failed == 0, result
