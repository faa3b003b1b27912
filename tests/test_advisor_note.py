"""docs/notes/advisor.md runs as written: its worked example of :func:`limits.advise` (issue 39 part 4)."""

from __future__ import annotations

import doctest
from pathlib import Path

NOTE = Path(__file__).resolve().parents[1] / "docs" / "notes" / "advisor.md"


def test_the_advisor_note_runs_as_written():
    result = doctest.testfile(str(NOTE), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 8 and result.failed == 0, result
