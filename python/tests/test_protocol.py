"""The fd-3 protocol end to end: a writer process's messages, its crash, and a lab gone before go."""

from __future__ import annotations

from pathlib import Path

import deltalake
from deltalake import DeltaTable

from tests.harness import Writer, commit_info, job, make_table, rows_file


def test_a_blind_append_round_trips_ready_committed_done(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    w = Writer(
        job(
            table,
            "feb01",
            {"kind": "append", "day": "2025-02-01", "blind": True},
            rowsFile=rows_file(tmp_path, "2025-02-01", 5),
        )
    )
    ready = w.ready()
    assert isinstance(ready["opened"], int) and ready["opened"] <= ready["prepared"]
    assert DeltaTable(table).version() == 0, "nothing is written before go"
    w.go()
    done = w.finish()
    w.close()
    assert [m["type"] for m in w.messages] == ["ready", "committed", "done"]
    assert w.messages[1]["version"] == 1
    assert ready["prepared"] <= done["released"] <= done["finished"]
    outcome = done["outcome"]
    assert outcome["committed"] is True
    assert (outcome["version"], outcome["readVersion"], outcome["commitRetries"], outcome["attempts"]) == (1, 0, 0, 1)
    assert outcome["errorClass"] is None and outcome["attemptErrors"] == []
    assert (outcome["library"], outcome["libraryVersion"], outcome["run"]) == (
        "delta-rs",
        deltalake.__version__,
        "real",
    )
    assert outcome["libraryVersion"] == "1.6.6"
    assert outcome["filesWritten"] == outcome["filesAdded"] == 1 and outcome["filesRemoved"] == 0
    assert outcome["bytesWritten"] > 0 and outcome["peakRssMb"] > 0
    info = commit_info(table, 1)
    assert info["writer"] == "feb01" and info["isBlindAppend"] is True


def test_an_append_not_marked_blind_carries_no_isBlindAppend(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    w = Writer(
        job(table, "feb02", {"kind": "append", "day": "2025-02-02"}, rowsFile=rows_file(tmp_path, "2025-02-02", 3))
    )
    w.ready()
    w.go()
    assert w.finish()["outcome"]["version"] == 1
    w.close()
    info = commit_info(table, 1)
    assert info["writer"] == "feb02" and "isBlindAppend" not in info


def test_a_crash_exits_non_zero_with_its_traceback(tmp_path: Path) -> None:
    w = Writer(job(str(tmp_path / "no-table"), "w", {"kind": "optimize"}))
    assert w.receive() is None, "a writer that cannot open its table never says ready"
    assert w.wait() != 0
    w.close()
    assert "Traceback (most recent call last)" in w.stderr
    # delta-rs's messages may span lines: the exception's line is not always stderr's last.
    assert "TableNotFoundError: Local path" in w.stderr


def test_a_job_with_an_engine_only_hook_is_refused(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    w = Writer(job(table, "w", {"kind": "optimize"}, lostAnswer="timeout"))
    assert w.receive() is None
    assert w.wait() != 0
    w.close()
    assert "JobError: lostAnswer is an engine-only hook" in w.stderr


def test_fd3_closed_before_go_exits_without_touching_the_table(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    w = Writer(job(table, "w", {"kind": "delete", "predicate": "VendorID = 1"}))
    w.ready()
    w.close()
    w.wait()
    assert "closed fd 3 before go" in w.stderr
    assert DeltaTable(table).version() == 0
    assert len(list((Path(table) / "_delta_log").glob("*.json"))) == 1
