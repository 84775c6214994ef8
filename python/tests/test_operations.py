"""Each operation's outcome through the real delta-rs 1.6.6, on small tables written in the test."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

from tests.harness import commit_info, job, log_entry, make_table, rows, rows_file, run_one, trips


def test_update_rewrites_the_matching_file_and_tags_its_commit(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    update = {"kind": "update", "predicate": "VendorID = 1", "set": {"tip_amount": "tip_amount + 1"}}
    outcome = run_one(job(table, "vendor1", update))
    assert (outcome["committed"], outcome["version"], outcome["commitRetries"]) == (True, 1, 0)
    assert (outcome["filesAdded"], outcome["filesRemoved"]) == (1, 1)
    assert commit_info(table, 1)["operation"] == "UPDATE" and commit_info(table, 1)["writer"] == "vendor1"
    assert {(r["VendorID"], r["tip_amount"]) for r in rows(table)} == {(1, 2.0), (2, 1.0)}


def test_delete_removes_the_matching_rows(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    outcome = run_one(job(table, "fare", {"kind": "delete", "predicate": "fare_amount < 0"}))
    assert outcome["committed"] is True and outcome["version"] == 1
    assert len(rows(table)) == 6 and all(r["fare_amount"] >= 0 for r in rows(table))


def test_an_update_or_delete_matching_no_rows_makes_no_version(tmp_path: Path) -> None:
    """delta-rs 1.6.6 commits nothing when no row matches: the writer reports nothing to commit."""
    table = make_table(tmp_path)
    update = {"kind": "update", "predicate": "VendorID = 9", "set": {"tip_amount": "tip_amount + 1"}}
    for body in (job(table, "u", update), job(table, "d", {"kind": "delete", "predicate": "VendorID = 9"})):
        outcome = run_one(body)
        assert (outcome["committed"], outcome["version"], outcome["errorClass"]) == (False, None, None)
        assert outcome["warnings"] == ["nothing to commit"]
    assert DeltaTable(table).version() == 0


def test_optimize_compacts_the_small_files_into_one(tmp_path: Path) -> None:
    table = make_table(tmp_path, files=3)
    outcome = run_one(job(table, "compact", {"kind": "optimize"}))
    assert (outcome["committed"], outcome["version"], outcome["readVersion"]) == (True, 3, 2)
    assert (outcome["filesAdded"], outcome["filesRemoved"]) == (1, 3)
    assert commit_info(table, 3)["operation"] == "OPTIMIZE"
    assert len(rows(table)) == 24


def test_overwrite_day_replaces_the_day_with_the_delta_rs_parsed_day_predicate(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    write_deltalake(table, trips("2025-02-14", 6), mode="append")
    body = job(
        table, "job1", {"kind": "overwrite-day", "day": "2025-02-14"}, rowsFile=rows_file(tmp_path, "2025-02-14", 2)
    )
    outcome = run_one(body)
    assert outcome["committed"] is True and outcome["version"] == 2
    days = [r["tpep_pickup_datetime"].date() for r in rows(table)]
    assert days.count(date(2025, 2, 14)) == 2 and days.count(date(2025, 1, 15)) == 8
    info = commit_info(table, 2)
    assert info["operationParameters"]["mode"] == "Overwrite"
    assert "2025-02-14" in info["operationParameters"]["predicate"]


def test_overwrite_with_a_predicate(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    body = job(
        table,
        "ow",
        {"kind": "overwrite", "predicate": "VendorID = 2", "from": {"file": "unused"}},
        rowsFile=rows_file(tmp_path, "2025-01-15", 2),
    )
    # The new rows (vendors 1 and 2) do not all match the predicate: delta-rs refuses the overwrite.
    outcome = run_one(body)
    assert outcome["committed"] is False and outcome["errorClass"] is not None
    assert outcome["errorClass"] == "DeltaError" and "rows failed validation check" in (outcome["errorMessage"] or "")
    assert DeltaTable(table).version() == 0
    matching = tmp_path / "vendor2.parquet"
    pq.write_table(trips("2025-01-16", 2, vendors=(2,)), matching)
    outcome = run_one({**body, "rowsFile": str(matching)})
    assert outcome["committed"] is True and outcome["version"] == 1
    assert sorted(r["tpep_pickup_datetime"].day for r in rows(table) if r["VendorID"] == 2) == [16, 16]


def test_check_then_append_appends_only_when_the_day_is_absent(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    feb14 = rows_file(tmp_path, "2025-02-14", 3)
    check = {"kind": "check-then-append", "day": "2025-02-14"}
    first = run_one(job(table, "job1", check, rowsFile=feb14))
    assert first["observed"] == {"2025-02-14": 0}
    assert first["committed"] is True and first["version"] == 1
    second = run_one(job(table, "job2", check, rowsFile=feb14))
    assert second["observed"] == {"2025-02-14": 3}
    assert (second["committed"], second["warnings"], second["errorClass"]) == (False, ["nothing to commit"], None)
    assert DeltaTable(table).version() == 1


def test_check_then_append_counts_a_predicate_under_the_predicate(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    check = {"kind": "check-then-append", "predicate": "VendorID = 2", "from": {"file": "x"}}
    outcome = run_one(job(table, "j", check, rowsFile=rows_file(tmp_path, "2025-02-01", 1)))
    assert outcome["observed"] == {"VendorID = 2": 4}
    assert outcome["committed"] is False


def test_a_txn_batch_already_committed_is_skipped_with_the_version_that_carries_it(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    feb14 = rows_file(tmp_path, "2025-02-14", 3)
    txn = {"appId": "daily-2025-02-14", "version": 1}
    first = run_one(job(table, "job", {"kind": "append", "day": "2025-02-14"}, rowsFile=feb14, txn=txn))
    assert first["committed"] is True and first["version"] == 1
    assert {"txn": {"appId": "daily-2025-02-14", "version": 1}} in [
        {"txn": {k: a["txn"][k] for k in ("appId", "version")}} for a in log_entry(table, 1) if "txn" in a
    ]
    again = run_one(job(table, "job", {"kind": "append", "day": "2025-02-14"}, rowsFile=feb14, txn=txn))
    # As the engine's writer: a batch committed before this writer opened the table is no commit of its own.
    assert (again["committed"], again["version"], again["errorClass"]) == (False, None, None)
    assert again["warnings"][0].startswith("batch already committed")
    assert DeltaTable(table).version() == 1


def test_max_commit_retries_reaches_delta_rs(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    outcome = run_one(
        job(
            table,
            "a",
            {"kind": "append", "day": "2025-02-01"},
            rowsFile=rows_file(tmp_path, "2025-02-01", 1),
            maxCommitRetries=0,
        )
    )
    assert outcome["committed"] is True
    assert commit_info(table, 1)["operationMetrics"]["num_retries"] == 0
