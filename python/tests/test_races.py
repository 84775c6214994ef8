"""
Writers racing on one table through the real delta-rs: released together by the same barrier, whichever
commits first is up to timing, so the tests assert what holds for every order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deltalake import DeltaTable

from tests.harness import commit_info, job, make_table, race, rows, rows_file


def tip_update(table: str, vendor: int, **spec: Any) -> dict[str, Any]:
    update = {"kind": "update", "predicate": f"VendorID = {vendor}", "set": {"tip_amount": "tip_amount + 1"}}
    return job(table, f"vendor{vendor}", update, **spec)


def tips_by_vendor(table: str) -> dict[int, set[float]]:
    tips: dict[int, set[float]] = {}
    for r in rows(table):
        tips.setdefault(r["VendorID"], set()).add(r["tip_amount"])
    return tips


def test_two_updates_of_one_file_each_get_one_outcome_and_the_rows_follow_the_commits(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    outcomes = race(tip_update(table, 1), tip_update(table, 2))
    assert len(outcomes) == 2
    for outcome in outcomes:
        assert outcome["readVersion"] == 0 and outcome["attempts"] == 1
        if outcome["committed"]:
            assert outcome["errorClass"] is None and outcome["version"] is not None
        else:
            assert outcome["errorClass"] == "CommitFailedError" and outcome["version"] is None
    committed = [o["committed"] for o in outcomes]
    assert any(committed), "one of them commits"
    # Each vendor's tips moved by one exactly when its writer committed, whoever won.
    assert tips_by_vendor(table) == {v: {2.0 if c else 1.0} for v, c in zip((1, 2), committed, strict=True)}
    versions = sorted(o["version"] for o in outcomes if o["committed"])
    assert versions == list(range(1, len(versions) + 1))
    for o, name in zip(outcomes, ("vendor1", "vendor2"), strict=True):
        if o["committed"]:
            assert commit_info(table, o["version"])["writer"] == name
            assert o["commitRetries"] == o["version"] - o["readVersion"] - 1


def test_a_retry_loop_reopens_and_redoes_until_both_updates_commit(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    outcomes = race(tip_update(table, 1, retryLoop=5), tip_update(table, 2, retryLoop=5))
    assert all(o["committed"] for o in outcomes), outcomes
    assert sorted(o["version"] for o in outcomes) == [1, 2]
    assert tips_by_vendor(table) == {1: {2.0}, 2: {2.0}}
    for o in outcomes:
        assert o["attempts"] == len(o["attemptErrors"]) + 1
        assert all(e["errorClass"] == "CommitFailedError" for e in o["attemptErrors"])
        # The last try read the table it committed on.
        assert o["commitRetries"] == o["version"] - o["readVersion"] - 1


def test_two_check_then_append_jobs_both_see_no_day_and_both_append_it(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    feb14 = rows_file(tmp_path, "2025-02-14", 3)
    check = {"kind": "check-then-append", "day": "2025-02-14"}
    outcomes = race(job(table, "job1", check, rowsFile=feb14), job(table, "job2", check, rowsFile=feb14))
    assert [o["observed"] for o in outcomes] == [{"2025-02-14": 0}, {"2025-02-14": 0}]
    # Appends never conflict: delta-rs retries the loser's commit on top, and the day's rows are there twice.
    assert all(o["committed"] for o in outcomes)
    assert sorted(o["version"] for o in outcomes) == [1, 2]
    assert sorted(o["commitRetries"] for o in outcomes) == [0, 1]
    # The write's own num_retries counts only puts that found their version taken: a loser that starts its
    # commit after the winner landed goes straight past it (0), one that collides counts 1.
    for o in outcomes:
        assert commit_info(table, o["version"])["operationMetrics"]["num_retries"] <= o["commitRetries"]
    assert sum(1 for r in rows(table) if r["tpep_pickup_datetime"].day == 14) == 6
    assert DeltaTable(table).version() == 2


def test_two_overwrites_of_one_day_with_a_retry_loop_leave_the_day_once(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    feb14 = rows_file(tmp_path, "2025-02-14", 3)
    overwrite = {"kind": "overwrite-day", "day": "2025-02-14"}
    outcomes = race(
        job(table, "job1", overwrite, rowsFile=feb14, retryLoop=10),
        job(table, "job2", overwrite, rowsFile=feb14, retryLoop=10),
    )
    assert all(o["committed"] for o in outcomes), outcomes
    assert sorted(o["version"] for o in outcomes) == [1, 2]
    # The loser read v0, where the day had no rows; the winner added rows its predicate matches: a conflict
    # whatever the timing, then one redo on the new table.
    assert sorted(o["attempts"] for o in outcomes) == [1, 2]
    for o in outcomes:
        assert o["attempts"] == len(o["attemptErrors"]) + 1
        assert all(e["errorClass"] == "CommitFailedError" for e in o["attemptErrors"])
    # Whichever order: the second overwrite replaced the first's rows, so the day is there once.
    assert sum(1 for r in rows(table) if r["tpep_pickup_datetime"].day == 14) == 3
