"""The barrier helper a team's job imports, and the capture of the library's warnings."""

from __future__ import annotations

import logging
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from deltalake import DeltaTable

import racelab_barrier
from racelab_writer.log_capture import capture_library_warnings
from tests.harness import PYTHON_DIR, Writer, commit_info, make_table, rows, rows_file


def test_a_team_job_waits_for_go_and_tags_its_commit_with_its_name(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    w = Writer(
        None,
        command=(str(PYTHON_DIR / "tests" / "team_job.py"), rows_file(tmp_path, "2025-02-01", 2)),
        env={"RACELAB_WRITER": "team", "RACELAB_TABLE": table},
    )
    ready = w.ready()
    assert ready["opened"] <= ready["prepared"]
    assert DeltaTable(table).version() == 0
    w.go()
    done = w.finish()
    w.close()
    assert done["outcome"] == {"committed": True, "readVersion": 0, "version": 1}
    assert commit_info(table, 1)["writer"] == "team"


def test_the_helper_reads_its_name_and_table_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RACELAB_WRITER", "w7")
    monkeypatch.setenv("RACELAB_TABLE", "/tables/copy")
    assert (racelab_barrier.writer_name(), racelab_barrier.table_location()) == ("w7", "/tables/copy")
    assert racelab_barrier.tag() == {"writer": "w7"}
    props = racelab_barrier.commit_properties({"run": "x"}, max_commit_retries=0)
    assert props.custom_metadata == {"run": "x", "writer": "w7"}
    assert props.max_commit_retries == 0


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    logging.captureWarnings(False)
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("root_logging")
def test_library_warnings_and_logged_warnings_are_kept_for_the_outcome() -> None:
    kept = capture_library_warnings()
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn("a deprecated option", DeprecationWarning, stacklevel=1)
    logging.getLogger("pyiceberg.table").warning("Commit failed due to a concurrent update, retrying")
    logging.getLogger("deltalake").info("not a warning")
    assert len(kept.messages) == 2
    assert "a deprecated option" in kept.messages[0]
    assert kept.messages[1] == "Commit failed due to a concurrent update, retrying"


def test_the_helper_imports_no_table_library_until_asked() -> None:
    """A job written with pyiceberg or Spark waits at the barrier without deltalake loaded."""
    code = "import sys, racelab_barrier; print('deltalake' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DIR, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_example_job_raced_against_itself_appends_the_day_twice(tmp_path: Path) -> None:
    """examples/jobs/check_then_append.py: both count none before either commits, both append (the lesson's E1)."""
    table = make_table(tmp_path)
    day_rows = rows_file(tmp_path, "2025-02-14", 3)
    example = PYTHON_DIR.parent / "examples" / "jobs" / "check_then_append.py"
    jobs = [
        Writer(
            None,
            command=(str(example), "--day", "2025-02-14", "--rows", day_rows),
            env={"RACELAB_WRITER": name, "RACELAB_TABLE": table},
        )
        for name in ("job1", "job2")
    ]
    for w in jobs:
        w.ready()
    for w in jobs:
        w.go()
    outcomes = [w.finish()["outcome"] for w in jobs]
    for w in jobs:
        w.close()
    assert outcomes == [{"readVersion": 0, "observed": {"2025-02-14": 0}}] * 2
    assert DeltaTable(table).version() == 2
    assert sorted(commit_info(table, v)["writer"] for v in (1, 2)) == ["job1", "job2"]
    picked = [r["tpep_pickup_datetime"].date().isoformat() for r in rows(table)]
    assert picked.count("2025-02-14") == 6
