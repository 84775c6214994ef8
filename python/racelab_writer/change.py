"""
One writer's change through delta-rs's public API, as the lab's engine writer does it
(packages/lab/src/formats/delta/writer.ts): the check a check-then-append makes before the barrier, then
after it the operation on the table as opened, in racelab_writer.attempts' retry loop. The day predicate and
what a check-then-append counts are shared with the Delta Spark writer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import CommitProperties, DeltaTable, QueryBuilder, Transaction, write_deltalake
from deltalake.exceptions import CommitFailedError

from racelab_writer.attempts import run_attempts
from racelab_writer.delta_log import TaggedCommit
from racelab_writer.jobs import Txn, WriterJob, WriterOperation, WriterSpec
from racelab_writer.outcome import WriterOutcome, empty_outcome


def day_predicate(day: str) -> str:
    """The engine's predicate for a pickup day (packages/lab/src/cases/operations.ts dayPredicate)."""
    return f"CAST(tpep_pickup_datetime AS DATE) = DATE '{day}'"


def check_of(op: WriterOperation) -> tuple[str, str] | None:
    """What a check-then-append counts: (key in `observed`, predicate)."""
    if op["kind"] != "check-then-append":
        return None
    if "day" in op:
        return op["day"], day_predicate(op["day"])
    predicate = op.get("predicate", "")
    return predicate, predicate


def count_matching(table: DeltaTable, predicate: str) -> int:
    """Rows of the table, as it is open, that match a SQL predicate (delta-rs's DataFusion)."""
    reader = QueryBuilder().register("t", table).execute(f"SELECT count(*) AS n FROM t WHERE {predicate}")
    counted = pa.table(reader.read_all()).column("n").to_pylist()
    return int(counted[0]) if counted else 0


def commit_properties(writer: WriterSpec, extra: dict[str, Any] | None = None) -> CommitProperties:
    txn = writer.get("txn")
    return CommitProperties(
        custom_metadata={"writer": writer["name"], **(extra or {})},
        max_commit_retries=writer.get("maxCommitRetries"),
        app_transactions=[Transaction(app_id=txn["appId"], version=txn["version"])] if txn else None,
    )


def operation_call(table: DeltaTable, job: WriterJob, observed: dict[str, int]) -> Callable[[], object] | None:
    """The library call that makes the writer's change on `table`; None when there is nothing to commit."""
    writer = job["writer"]
    op = writer["operation"]

    def rows() -> pa.Table:
        rows_file = job.get("rowsFile")
        if not rows_file:
            raise ValueError(f"{op['kind']} needs a file of rows")
        return pq.read_table(rows_file)

    def append(extra: dict[str, Any] | None = None) -> Callable[[], object]:
        return lambda: write_deltalake(table, rows(), mode="append", commit_properties=commit_properties(writer, extra))

    def overwrite(predicate: str) -> Callable[[], object]:
        return lambda: write_deltalake(
            table, rows(), mode="overwrite", predicate=predicate, commit_properties=commit_properties(writer)
        )

    props = commit_properties(writer)
    if op["kind"] == "append":
        return append({"isBlindAppend": True} if op.get("blind") else None)
    if op["kind"] == "update":
        return lambda: table.update(predicate=op["predicate"], updates=op["set"], commit_properties=props)
    if op["kind"] == "delete":
        return lambda: table.delete(op["predicate"], commit_properties=props)
    if op["kind"] == "optimize":
        return lambda: table.optimize.compact(commit_properties=props)
    if op["kind"] == "check-then-append":
        check = check_of(op)
        # The job's own check, outside any transaction: the count it made before the barrier.
        if check and observed.get(check[0], 0) > 0:
            return None
        return append()
    if op["kind"] == "overwrite-day":
        return overwrite(day_predicate(op["day"]))
    return overwrite(op["predicate"])


class DeltaRsTable:
    """A writer's table in delta-rs: the table as opened, reopened for a redo."""

    tag_field = "writer"

    def __init__(self, opened: DeltaTable, job: WriterJob) -> None:
        self.table = opened
        self.job = job

    def reopen(self) -> None:
        self.table = DeltaTable(self.job["table"])

    def read_version(self) -> int:
        return self.table.version()

    def already_committed(self, txn: Txn) -> bool:
        last = self.table.transaction_version(txn["appId"])
        return last is not None and last >= txn["version"]

    def operation(self, observed: dict[str, int]) -> Callable[[], object] | None:
        return operation_call(self.table, self.job, observed)

    def conflict(self, e: Exception) -> bool:
        return isinstance(e, CommitFailedError)

    def describe(self, e: Exception) -> tuple[str, str]:
        return type(e).__name__, str(e)

    def commit_read_version(self, commit: TaggedCommit, read_version: int) -> int:
        return read_version


def run_change(
    opened: DeltaTable,
    job: WriterJob,
    observed: dict[str, int],
    on_commit: Callable[[int], None],
) -> WriterOutcome:
    """The writer's change after the barrier, with its retry loop; the outcome the lab reads."""
    return run_attempts(DeltaRsTable(opened, job), job, observed, on_commit, empty_outcome(observed))
