"""
The Spark host on the real Delta Spark (pyspark 4.2.0, delta-spark 4.4.0, the setup's jars): one host, so one
JVM, for the module's races, as the lab runs concurrent Spark writers. Released together by the barrier, the
writers' order is up to timing: the tests assert what holds for every order.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deltalake import DeltaTable

from tests.harness import commit_info, job, log_entry, make_table, rows, rows_file
from tests.spark_harness import SparkHost

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def host() -> Iterator[SparkHost]:
    spark = SparkHost()
    yield spark
    assert spark.stop("shutdown") == 0, spark.process.stderr
    assert "session up in" in spark.process.stderr


def outcome_of(done: dict[str, Any]) -> dict[str, Any]:
    outcome: dict[str, Any] = done["outcome"]
    assert (outcome["library"], outcome["libraryVersion"], outcome["run"]) == ("delta-spark", "4.4.0", "real")
    assert done["released"] <= done["finished"]
    return outcome


def test_the_host_says_which_spark_and_delta_it_runs(host: SparkHost) -> None:
    assert host.host_ready == {"type": "host-ready", "sparkVersion": "4.2.0", "deltaVersion": "4.4.0"}


def test_two_concurrent_appends_in_one_jvm_both_commit_each_tagged_with_its_writer(
    host: SparkHost, tmp_path: Path
) -> None:
    table = make_table(tmp_path)
    feb01, feb02 = rows_file(tmp_path, "2025-02-01", 3), rows_file(tmp_path, "2025-02-02", 4)
    dones = host.race(
        job(table, "feb01", {"kind": "append", "day": "2025-02-01"}, rowsFile=feb01),
        job(table, "feb02", {"kind": "append", "day": "2025-02-02"}, rowsFile=feb02),
    )
    outcomes = [outcome_of(d) for d in dones]
    assert all(o["committed"] and o["errorClass"] is None for o in outcomes), outcomes
    assert sorted(o["version"] for o in outcomes) == [1, 2]
    for o, name in zip(outcomes, ("feb01", "feb02"), strict=True):
        info = commit_info(table, o["version"])
        assert info["userMetadata"] == name
        assert info["operation"] == "WRITE" and info["isBlindAppend"] is True
        assert o["readVersion"] == info["readVersion"]
        assert o["commitRetries"] == o["version"] - o["readVersion"] - 1 >= 0
        assert o["filesWritten"] == o["filesAdded"] >= 1 and o["bytesWritten"] > 0 and o["filesRemoved"] == 0
    days = sorted(r["tpep_pickup_datetime"].day for r in rows(table) if r["tpep_pickup_datetime"].month == 2)
    assert days == [1, 1, 1, 2, 2, 2, 2]


def test_two_deletes_of_one_whole_file_one_commits_the_other_gets_delta_s_conflict(
    host: SparkHost, tmp_path: Path
) -> None:
    table = make_table(tmp_path)
    every_row = {"kind": "delete", "predicate": "VendorID >= 1"}
    outcomes = [outcome_of(d) for d in host.race(job(table, "del1", every_row), job(table, "del2", every_row))]
    won = [o for o in outcomes if o["committed"]]
    lost = [o for o in outcomes if not o["committed"]]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert won[0]["version"] == 1 and won[0]["filesRemoved"] == 1
    # Delta checks the files the loser read before the files it deletes: a delete reads what it deletes, so the
    # read check refuses it first (ConcurrentDeleteReadException, not ConcurrentDeleteDeleteException).
    assert lost[0]["errorClass"] == "ConcurrentDeleteReadException"
    assert lost[0]["errorMessage"].startswith("[DELTA_CONCURRENT_DELETE_READ")
    assert "JVM stacktrace" not in lost[0]["errorMessage"]
    assert lost[0]["version"] is None and lost[0]["readVersion"] == 0
    assert rows(table) == []


def test_two_deletes_of_some_rows_of_one_file_the_loser_sees_the_rewritten_file_appended(
    host: SparkHost, tmp_path: Path
) -> None:
    table = make_table(tmp_path)
    outcomes = [
        outcome_of(d)
        for d in host.race(
            job(table, "vendor1", {"kind": "delete", "predicate": "VendorID = 1"}),
            job(table, "vendor2", {"kind": "delete", "predicate": "VendorID = 2"}),
        )
    ]
    assert sorted(o["committed"] for o in outcomes) == [False, True], outcomes
    lost = next(o for o in outcomes if not o["committed"])
    assert lost["errorClass"] == "ConcurrentAppendException"
    assert lost["errorMessage"].startswith("[DELTA_CONCURRENT_APPEND")


def test_a_retry_loop_redoes_the_loser_s_update_after_delta_s_conflict(host: SparkHost, tmp_path: Path) -> None:
    table = make_table(tmp_path)

    def tips(vendor: int) -> dict[str, Any]:
        update = {"kind": "update", "predicate": f"VendorID = {vendor}", "set": {"tip_amount": "tip_amount + 1"}}
        return job(table, f"tips{vendor}", update, retryLoop=5)

    outcomes = [outcome_of(d) for d in host.race(tips(1), tips(2))]
    assert all(o["committed"] for o in outcomes), outcomes
    assert sorted(o["version"] for o in outcomes) == [1, 2]
    for o in outcomes:
        assert o["attempts"] == len(o["attemptErrors"]) + 1
        assert {e["errorClass"] for e in o["attemptErrors"]} <= {"ConcurrentAppendException"}
        assert o["readVersion"] == commit_info(table, o["version"])["readVersion"]
    assert sum(o["attempts"] for o in outcomes) >= 3, "the loser redid its update"
    assert {(r["VendorID"], r["tip_amount"]) for r in rows(table)} == {(1, 2.0), (2, 2.0)}


def test_a_writer_that_crashes_gets_its_failed_done_while_the_other_finishes(host: SparkHost, tmp_path: Path) -> None:
    table = make_table(tmp_path)
    missing = job(str(tmp_path / "no-table"), "lost", {"kind": "delete", "predicate": "VendorID = 1"})
    refused = job(table, "hooked", {"kind": "optimize"}, lostAnswer="timeout")
    fine = job(table, "fine", {"kind": "append"}, rowsFile=rows_file(tmp_path, "2025-02-03", 2))
    for body in (missing, refused, fine):
        host.job(body)
    lost, hooked = outcome_of(host.next("lost", "done")), outcome_of(host.next("hooked", "done"))
    assert lost["committed"] is False and lost["errorClass"] == "DeltaAnalysisException", lost
    assert "is not a Delta table" in lost["errorMessage"]
    assert hooked["errorClass"] == "JobError" and "lostAnswer is an engine-only hook" in hooked["errorMessage"]
    # A second job for a writer whose first has not finished is refused; the first runs on.
    host.job(fine)
    first, second = sorted((host.take("fine"), host.take("fine")), key=lambda m: str(m["type"]))
    assert first["type"] == "done" and second["type"] == "ready"
    assert outcome_of(first)["errorMessage"] == "writer fine is still running its previous job"
    host.send("fine", {"type": "go"})
    assert outcome_of(host.finish("fine"))["committed"] is True
    assert commit_info(table, 1)["userMetadata"] == "fine"


def test_update_overwrite_check_then_append_and_compaction_run_on_the_pinned_jars(
    host: SparkHost, tmp_path: Path
) -> None:
    table = make_table(tmp_path, files=2)
    feb14 = rows_file(tmp_path, "2025-02-14", 3)
    steps: list[tuple[str, dict[str, Any], str | None]] = [
        ("tips", {"kind": "update", "predicate": "VendorID = 1", "set": {"tip_amount": "tip_amount + 1"}}, None),
        ("day", {"kind": "overwrite-day", "day": "2025-02-14"}, feb14),
        ("check", {"kind": "check-then-append", "day": "2025-02-14"}, feb14),
        ("compact", {"kind": "optimize"}, None),
    ]
    outcomes = {}
    for name, op, rows_at in steps:
        [done] = host.race(job(table, name, op, rowsFile=rows_at) if rows_at else job(table, name, op))
        outcomes[name] = outcome_of(done)
    assert [outcomes[n]["version"] for n in ("tips", "day", "compact")] == [2, 3, 4], outcomes
    # The check saw the day the overwrite wrote, so it appended nothing.
    assert outcomes["check"]["observed"] == {"2025-02-14": 3} and outcomes["check"]["committed"] is False
    assert outcomes["check"]["warnings"] == ["nothing to commit"]
    operations = [commit_info(table, v)["operation"] for v in (2, 3, 4)]
    assert operations == ["UPDATE", "WRITE", "OPTIMIZE"]
    replaced = commit_info(table, 3)["operationParameters"]
    assert (
        replaced["mode"] == "Overwrite"
        and replaced["predicate"] == "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'"
    )
    assert outcomes["compact"]["filesRemoved"] > outcomes["compact"]["filesAdded"] == 1
    tips = {(r["VendorID"], r["tip_amount"]) for r in rows(table) if r["tpep_pickup_datetime"].month == 1}
    assert tips == {(1, 2.0), (2, 1.0)}
    assert sum(1 for r in rows(table) if r["tpep_pickup_datetime"].month == 2) == 3


def test_a_batch_whose_txn_the_table_has_is_skipped_by_spark(host: SparkHost, tmp_path: Path) -> None:
    table = make_table(tmp_path)
    batch = rows_file(tmp_path, "2025-02-05", 2)
    txn = {"appId": "loader", "version": 7}
    [first] = host.race(job(table, "load", {"kind": "append"}, rowsFile=batch, txn=txn))
    assert outcome_of(first)["version"] == 1
    assert {"appId": "loader", "version": 7} in [
        {k: a["txn"][k] for k in ("appId", "version")} for a in log_entry(table, 1) if "txn" in a
    ]
    [again] = host.race(job(table, "load", {"kind": "append"}, rowsFile=batch, txn=txn))
    replay = outcome_of(again)
    # Committed before this writer opened the table: skipped, and not this writer's commit (as with delta-rs).
    assert (replay["committed"], replay["version"], replay["errorClass"]) == (False, None, None)
    assert replay["warnings"][0].startswith("batch already committed: the table's txn for app loader")
    assert DeltaTable(table).version() == 1


def test_fd3_closed_before_go_the_host_exits_0_without_touching_the_table(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    second = SparkHost()
    second.job(job(table, "w", {"kind": "delete", "predicate": "VendorID = 1"}))
    second.next("w", "ready")
    assert second.stop("close") == 0, second.process.stderr
    assert DeltaTable(table).version() == 0
