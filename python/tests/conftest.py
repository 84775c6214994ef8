"""
With RACELAB_PYTEST_REPORT set (scripts/test-python.sh), pytest's counts are written there in the shape of
the vitest JSON reports that scripts/test-summary.mjs sums, so the repository's closing line counts them too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    path = os.environ.get("RACELAB_PYTEST_REPORT")
    if not path:
        return
    stats = terminalreporter.stats
    counts = {
        "numPassedTests": len(stats.get("passed", [])),
        "numFailedTests": len(stats.get("failed", [])) + len(stats.get("error", [])),
        "numPendingTests": len(stats.get("skipped", [])),
    }
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(counts) + "\n")
